"""Listing sessions and quarantine for `recurscope sessions` / `recurscope quarantine`."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recurscope.instrumentation import Recorder, TokenCounter
from recurscope.instrumentation.testing import capture_spans
from recurscope.pipeline.evidence import inspect
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence.inspect import (
    DEFAULT_EXCERPT_CHARS,
    MAX_NAME_CHARS,
    QuarantineFilter,
    SessionFilter,
    SessionSummary,
    describe_empty,
    list_quarantine,
    list_sessions,
    quarantine_summary,
    terminal_safe,
)
from recurscope.pipeline.ingest.files import ingest
from recurscope.pipeline.records import Position, Reason, Rejection
from recurscope.pipeline.store.database import Store
from recurscope.pipeline.store.locking import read_connection
from recurscope.pipeline.testing import add_synthetic_spans

HOSTILE = "\x1b[2J\x1b]0;pwned\x07line one\nline two\r\x00\x9b31m\u202eevil\u200b\ttab"
"""Text a terminal would act on: ANSI clear screen, OSC title, newline, NUL, C1 CSI, bidi."""

_span_numbers = itertools.count()


@pytest.fixture
def fresh_store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "store.duckdb") as store:
        yield store


def spec(session: str | None, at: float = 0, **fields: Any) -> dict[str, Any]:
    """A compact span (``expand_span``) with ids unique across calls, in its session's trace."""
    number = next(_span_numbers)
    return {
        "session": session,
        "at": at,
        "trace": f"trace-{session}",
        "span": f"span-{number}",
        **fields,
    }


def add(store: Store, *specs: Mapping[str, Any]) -> None:
    add_synthetic_spans(store.connection, sessions=0, specs=list(specs))


def ids(rows: list[SessionSummary]) -> list[str]:
    return [row.session_id for row in rows]


def assert_printable(value: object) -> None:
    """Every string in ``value`` (a JSON-like structure) is safe to write to a terminal."""
    if isinstance(value, str):
        assert all(char.isprintable() or char == " " for char in value), repr(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            assert_printable(item)
    elif isinstance(value, list | tuple):
        for item in value:
            assert_printable(item)


def without_currency(rows: list[SessionSummary]) -> list[dict[str, Any]]:
    return [{**row.to_json(), "evidence_current": None} for row in rows]


# -- sessions ---------------------------------------------------------------------


class TestListSessions:
    def test_sessions_come_newest_activity_first(self, fresh_store: Store) -> None:
        """Order is by latest span start, newest first; a tie goes to the smaller session id."""
        add(
            fresh_store,
            spec("early-then-late", at=0),
            spec("early-then-late", at=3000),
            spec("middle", at=1000),
            spec("tie-b", at=2000),
            spec("tie-a", at=2000),
        )
        rows = list_sessions(fresh_store.connection)
        assert ids(rows) == ["early-then-late", "tie-a", "tie-b", "middle"]
        first = rows[0]
        assert first.first_span_at == datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        assert first.last_span_at == datetime(2026, 12, 1, 9, 50, tzinfo=UTC)

    def test_counts_describe_the_sessions_spans(self, fresh_store: Store) -> None:
        """Calls, plannings, trims, shifts, delegations and history-reading calls are counted."""
        add(
            fresh_store,
            spec("s1", 0, kind="call", span="p1", call_id="c1", role="planner", accessed=True),
            spec("s1", 1, kind="call", parent="p1", call_id="c2", parent_call_id="c1"),
            spec("s1", 2, kind="trim", parent="p1", phase="fits", trimmed=False),
            spec("s1", 3, kind="trim", parent="p1", phase="goal_overflow", trimmed=True),
            spec("s1", 4, kind="shift", reason="first_need"),
            spec("s1", 5, name="chat gpt-4o", parent="p1", service="host"),
            spec(None, 6, name="no session at all"),
        )
        (row,) = list_sessions(fresh_store.connection)
        assert row == SessionSummary(
            session_id="s1",
            service_names=("agent", "host"),
            origins=("observed",),
            first_span_at=datetime(2026, 12, 1, 9, 0, 0, tzinfo=UTC),
            last_span_at=datetime(2026, 12, 1, 9, 0, 5, tzinfo=UTC),
            spans=6,
            calls=2,
            plannings=2,
            trims=1,
            boundary_shifts=1,
            delegations=1,
            history_reading_calls=1,
            evidence_current=False,
        )

    def test_a_session_of_host_spans_only_is_listed(self, fresh_store: Store) -> None:
        """A session with no recurscope span (e.g. only the host's LLM spans) is still listed."""
        add(fresh_store, spec("host-only", name="chat gpt-4o"))
        (row,) = list_sessions(fresh_store.connection)
        assert (row.session_id, row.spans, row.calls, row.delegations) == ("host-only", 1, 0, 0)

    def test_limit_keeps_the_newest_sessions(self, fresh_store: Store) -> None:
        """limit=N is the first N of the full list; 0 gives none; a negative limit is refused."""
        add(fresh_store, *(spec(f"s{n}", at=n * 60) for n in range(5)))
        everything = list_sessions(fresh_store.connection)
        assert list_sessions(fresh_store.connection, limit=2) == everything[:2]
        assert list_sessions(fresh_store.connection, limit=0) == []
        with pytest.raises(ValueError, match="limit"):
            list_sessions(fresh_store.connection, limit=-1)

    def test_an_empty_store_lists_nothing_and_says_why(self, fresh_store: Store) -> None:
        """No spans: an empty list, and a sentence saying to ingest first."""
        assert list_sessions(fresh_store.connection) == []
        assert "holds no spans yet" in describe_empty(fresh_store.connection, SessionFilter())

    def test_spans_without_a_session_form_none(self, fresh_store: Store) -> None:
        """Spans lacking gen_ai.conversation.id (or with it empty) are no session."""
        add(fresh_store, spec(None, name="chat"), spec("", name="chat"))
        assert list_sessions(fresh_store.connection) == []
        message = describe_empty(fresh_store.connection, SessionFilter())
        assert message == (
            "no sessions: none of the store's 2 spans carries gen_ai.conversation.id, "
            "the span attribute that names a session"
        )

    def test_json_rows_hold_iso_utc_times_and_plain_values(self, fresh_store: Store) -> None:
        """to_json() gives JSON-serialisable values with ISO-8601 UTC times."""
        add(fresh_store, spec("s1", at=1.5, kind="call"))
        (row,) = list_sessions(fresh_store.connection)
        data = json.loads(json.dumps(row.to_json()))
        assert data["first_span_at"] == "2026-12-01T09:00:01.500000Z"
        assert datetime.fromisoformat(data["last_span_at"]) == row.last_span_at
        assert data["service_names"] == ["agent"] and data["calls"] == 1


class TestSessionFilters:
    @pytest.fixture
    def store(self, fresh_store: Store) -> Store:
        add(
            fresh_store,
            spec("long", at=0, service="alpha"),  # 09:00
            spec("long", at=7200, service="beta"),  # 11:00
            spec("mid", at=3600, service="alpha", resource={"recurscope.origin": "simulated"}),
            spec("late", at=10800, kind="call", resource={"recurscope.origin": "replayed"}),
            spec("late", at=10801, name="host span, another resource"),
        )
        return fresh_store

    def test_a_window_keeps_sessions_with_a_span_starting_in_it(self, store: Store) -> None:
        """since is inclusive, until exclusive, and a kept session shows all its spans."""
        con = store.connection
        at = datetime(2026, 12, 1, 10, 0)
        assert ids(list_sessions(con, since=at)) == ["late", "long", "mid"]
        assert ids(list_sessions(con, until=at)) == ["long"]
        window = list_sessions(con, since=datetime(2026, 12, 1, 10, 30), until=at.replace(hour=12))
        assert ids(window) == ["long"]
        assert window[0].first_span_at.hour == 9 and window[0].spans == 2

    def test_times_with_a_zone_are_converted_to_utc(self, store: Store) -> None:
        """11:30 at UTC+2 is 09:30 UTC: only sessions active after that are kept."""
        since = datetime(2026, 12, 1, 11, 30, tzinfo=timezone(timedelta(hours=2)))
        assert ids(list_sessions(store.connection, since=since)) == ["late", "long", "mid"]
        until = datetime(2026, 12, 1, 11, 30, tzinfo=timezone(timedelta(hours=2)))
        assert ids(list_sessions(store.connection, until=until)) == ["long"]

    def test_service_keeps_sessions_with_a_span_of_that_service(self, store: Store) -> None:
        """A session whose spans come from two services is listed under either."""
        assert ids(list_sessions(store.connection, service="alpha")) == ["long", "mid"]
        assert ids(list_sessions(store.connection, service="beta")) == ["long"]
        (long,) = list_sessions(store.connection, service="beta")
        assert long.service_names == ("alpha", "beta")

    def test_origins_keep_sessions_of_those_origins(self, store: Store) -> None:
        """Origin is the recurscope spans' recurscope.origin; absent means observed."""
        con = store.connection
        assert ids(list_sessions(con, origins=["observed"])) == ["long"]
        assert ids(list_sessions(con, origins=("simulated", "replayed"))) == ["late", "mid"]
        assert ids(list_sessions(con, origins="simulated")) == ["mid"]  # a lone string
        assert list_sessions(con, origins=()) == []
        late = list_sessions(con, origins=["replayed"])[0]
        # The host span's resource lacks the origin; the session's recurscope span decides.
        assert late.origins == ("replayed",)

    def test_filters_combine(self, store: Store) -> None:
        """Every filter must hold: alpha sessions since 10:00 of origin observed is just 'long'."""
        rows = list_sessions(
            store.connection,
            since=datetime(2026, 12, 1, 10, 0),
            service="alpha",
            origins=["observed"],
        )
        assert ids(rows) == ["long"]


class TestDescribeEmptySessions:
    @pytest.fixture
    def store(self, fresh_store: Store) -> Store:
        add(
            fresh_store,
            spec("s1", at=0, service="alpha"),
            spec("s2", at=86400 * 2, service="beta", resource={"recurscope.origin": "simulated"}),
        )
        return fresh_store

    def test_a_window_after_the_data_names_the_newest_span(self, store: Store) -> None:
        """since beyond every span: the message gives the newest span's time."""
        message = describe_empty(store.connection, SessionFilter(since=datetime(2026, 12, 10)))
        assert (
            message == "no sessions since 2026-12-10 (the newest span is 2026-12-03 09:00:00 UTC)"
        )

    def test_a_window_before_the_data_names_the_oldest_span(self, store: Store) -> None:
        """until before every span: the message gives the oldest span's time."""
        message = describe_empty(store.connection, SessionFilter(until=datetime(2026, 11, 1)))
        assert (
            message == "no sessions before 2026-11-01 (the oldest span is 2026-12-01 09:00:00 UTC)"
        )

    def test_a_window_between_spans_gives_their_range(self, store: Store) -> None:
        """A window falling in a gap names the span range."""
        flt = SessionFilter(since=datetime(2026, 12, 2), until=datetime(2026, 12, 3))
        assert describe_empty(store.connection, flt) == (
            "no sessions between 2026-12-02 and 2026-12-03 "
            "(spans run from 2026-12-01 09:00:00 UTC to 2026-12-03 09:00:00 UTC)"
        )
        backwards = SessionFilter(since=datetime(2026, 12, 3), until=datetime(2026, 12, 2))
        assert "the window is empty" in describe_empty(store.connection, backwards)

    def test_an_unknown_service_and_origin_list_the_known_ones(self, store: Store) -> None:
        """Each failing filter gets its own clause with the values the store holds."""
        message = describe_empty(
            store.connection, SessionFilter(service="gamma", origins=("replayed",))
        )
        assert message == (
            "no sessions of service 'gamma' (known services: 'alpha' (1), 'beta' (1)); "
            "no sessions with origin 'replayed' (origins in the store: "
            "'observed' (1), 'simulated' (1))"
        )
        assert describe_empty(store.connection, SessionFilter(origins=())).startswith(
            "no sessions with origin in an empty list (origins in the store: "
        )

    def test_filters_that_match_apart_but_not_together_say_so(self, store: Store) -> None:
        """service alpha and origin simulated each select a session, but not the same one."""
        message = describe_empty(
            store.connection, SessionFilter(service="alpha", origins=("simulated",))
        )
        assert message.startswith("no session passes every filter at once")
        assert "1 of service 'alpha'" in message and "1 with origin 'simulated'" in message

    def test_a_filter_that_selects_sessions_needs_no_explanation(self, store: Store) -> None:
        """describe_empty returns '' when the filter does select something."""
        assert describe_empty(store.connection, SessionFilter(service="alpha")) == ""


class TestEvidenceFreshness:
    """Counts are the evidence models' whether the stored evidence is current, stale or absent."""

    def test_stale_evidence_gives_the_numbers_a_refresh_stores(self, fresh_store: Store) -> None:
        """Before a refresh the counts are computed; after it they are read, and equal."""
        con = fresh_store.connection
        add_synthetic_spans(con, sessions=40, seed=3)
        before = list_sessions(con)
        assert len(before) == 40 and not any(row.evidence_current for row in before)
        evidence.refresh(con)
        after = list_sessions(con)
        assert all(row.evidence_current for row in after)
        assert without_currency(before) == without_currency(after)
        stored = {
            row[0]: row[1:]
            for row in con.execute(
                "SELECT session_id, calls, trimmed_plannings, boundary_shifts, delegations, "
                "history_reading_calls FROM sessions"
            ).fetchall()
        }
        assert {
            row.session_id: (
                row.calls,
                row.trims,
                row.boundary_shifts,
                row.delegations,
                row.history_reading_calls,
            )
            for row in after
        } == stored
        assert sum(row.delegations for row in after) > 0
        assert sum(row.history_reading_calls for row in after) > 0

    def test_a_session_with_late_spans_is_computed_the_rest_read(self, fresh_store: Store) -> None:
        """Spans ingested after the refresh make only their session stale, with fresh counts."""
        con = fresh_store.connection
        add_synthetic_spans(con, sessions=12, seed=4)
        evidence.refresh(con)
        target = list_sessions(con)[5].session_id
        add(
            fresh_store,
            spec(target, at=0, kind="call", span="late-1", call_id="late-1", accessed=True),
            spec(target, at=1, kind="call", parent="late-1", parent_call_id="late-1"),
        )
        mixed = list_sessions(con)
        assert [row.session_id for row in mixed if not row.evidence_current] == [target]
        evidence.refresh(con)
        refreshed = list_sessions(con)
        assert all(row.evidence_current for row in refreshed)
        assert without_currency(mixed) == without_currency(refreshed)

    def test_evidence_built_by_other_sql_is_not_trusted(
        self, fresh_store: Store, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """When the evidence SQL changed since the refresh, every count is computed again."""
        con = fresh_store.connection
        add_synthetic_spans(con, sessions=5, seed=5)
        evidence.refresh(con)
        current = list_sessions(con)
        monkeypatch.setattr(inspect, "models_version", lambda: "other-sql")
        recomputed = list_sessions(con)
        assert not any(row.evidence_current for row in recomputed)
        assert without_currency(current) == without_currency(recomputed)

    def test_read_only_readers_list_sessions_stale_or_fresh(self, tmp_path: Path) -> None:
        """A read-only connection (read_connection, as the CLI uses) lists stale and fresh stores."""
        db = tmp_path / "store.duckdb"
        with Store.open(db) as store:
            add_synthetic_spans(store.connection, sessions=6, seed=6)
        with read_connection(db) as view:
            stale = list_sessions(view.connection, limit=3)
            assert view.source == "live" and len(stale) == 3
        with Store.open(db) as store:
            evidence.refresh(store.connection)
        with Store.open(db, read_only=True) as store:
            fresh = list_sessions(store.connection, limit=3)
            # Nothing the listing built stays behind on the caller's connection.
            temp = store.connection.execute(
                "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'temp'"
            ).fetchone()
        assert temp == (0,)
        assert without_currency(stale) == without_currency(fresh)
        assert all(row.evidence_current for row in fresh)


def _record_session(session_id: str) -> None:
    """A goal, a planning that trims, a call and a same-role delegation inside it."""
    recorder = Recorder(session_id, token_counter=TokenCounter("bytes"))
    messages: list[dict[str, str]] = []
    recorder.record_need("sum the invoices", messages)
    messages.append({"role": "user", "content": "x" * 300})
    recorder.plan_trim(messages, budget=100)
    with (
        recorder.call("turn", role="planner"),
        recorder.delegate("planner", method="sub", delegation_kind="agent_for"),
    ):
        pass


def test_real_spans_ingested_from_a_file_are_listed(tmp_path: Path) -> None:
    """Spans recorded by the instrumentation and ingested list with the evidence's counts."""
    spans_file = tmp_path / "spans.jsonl"
    with capture_spans(run_id="run-7") as spans:
        _record_session("real-session")
        _record_session("other-session")
    spans.write_jsonl(spans_file)
    with Store.open(tmp_path / "store.duckdb") as store:
        ingest([spans_file], store, progress=False, workers=0)
        before = list_sessions(store.connection)
        evidence.refresh(store.connection)
        after = list_sessions(store.connection)
        stored = store.query(
            "SELECT calls, trimmed_plannings, boundary_shifts, delegations FROM sessions "
            "WHERE session_id = 'real-session'"
        )
    assert sorted(ids(after)) == ["other-session", "real-session"]
    assert without_currency(before) == without_currency(after)
    (real,) = [row for row in after if row.session_id == "real-session"]
    assert stored == [(real.calls, real.trims, real.boundary_shifts, real.delegations)]
    assert (real.calls, real.delegations, real.plannings, real.boundary_shifts) == (2, 1, 1, 1)
    assert real.service_names == ("recurscope-test",) and real.origins == ("observed",)


# -- hostile text -----------------------------------------------------------------


class TestHostileText:
    def test_session_ids_and_service_names_are_escaped(self, fresh_store: Store) -> None:
        """ANSI escapes, newlines, NULs and bidi overrides are shown escaped, not sent raw."""
        add(
            fresh_store,
            spec(HOSTILE, kind="call", service=HOSTILE, resource={"recurscope.origin": HOSTILE}),
        )
        (row,) = list_sessions(fresh_store.connection)
        assert_printable(row.to_json())
        assert row.session_id.startswith("\\x1b[2J\\x1b]0;pwned\\x07line one\\nline two\\r\\x00")
        assert "\\x9b31m\\u202eevil\\u200b\\ttab" in row.session_id
        assert row.service_names == (row.session_id,) and row.origins == (row.session_id,)
        # The raw value still works as a filter.
        assert ids(list_sessions(fresh_store.connection, service=HOSTILE)) == [row.session_id]

    def test_huge_session_ids_are_cut_but_stay_distinct_sessions(self, fresh_store: Store) -> None:
        """Two 100 KB ids sharing a prefix are two sessions, each shown cut with an ellipsis."""
        base = "a" * 100_000
        add(fresh_store, spec(base + "1", at=0), spec(base + "2", at=1))
        rows = list_sessions(fresh_store.connection)
        assert len(rows) == 2
        for row in rows:
            assert len(row.session_id) == MAX_NAME_CHARS and row.session_id.endswith("…")

    def test_many_services_in_one_session_are_capped(self, fresh_store: Store) -> None:
        """A session claiming dozens of services shows ten and how many more."""
        add(fresh_store, *(spec("s", at=n, service=f"svc-{n:02d}") for n in range(25)))
        (row,) = list_sessions(fresh_store.connection)
        assert row.service_names[:2] == ("svc-00", "svc-01")
        assert len(row.service_names) == 11 and row.service_names[-1] == "… (+15 more)"

    def test_describe_empty_escapes_filter_and_stored_values(self, fresh_store: Store) -> None:
        """The sentence quotes the user's filter and the store's values, both made safe."""
        add(fresh_store, spec("s1", service=HOSTILE))
        message = describe_empty(fresh_store.connection, SessionFilter(service="x\x1b[31m"))
        assert_printable(message)
        assert "'x\\x1b[31m'" in message and "\\x1b[2J" in message

    def test_quarantine_fields_are_escaped_and_cut(self, fresh_store: Store) -> None:
        """Source, detail, ids and a 100 KB excerpt come out printable and bounded."""
        fresh_store.write_spans(
            [],
            source=HOSTILE,
            format="otlp-json",
            rejections=[
                Rejection(
                    Reason.INVALID_JSON,
                    HOSTILE * 50,
                    (HOSTILE * 10_000).encode(),
                    Position(line=3),
                    trace_id=HOSTILE,
                    span_id=HOSTILE,
                )
            ],
        )
        (record,) = list_quarantine(fresh_store.connection)
        assert_printable(record.to_json())
        assert len(record.excerpt) <= DEFAULT_EXCERPT_CHARS and record.excerpt.endswith("…")
        assert record.excerpt.startswith("\\x1b[2J")
        assert len(record.detail) <= inspect.MAX_DETAIL_CHARS
        longer = list_quarantine(fresh_store.connection, excerpt_chars=2000)[0].excerpt
        assert len(longer) <= 2000 and longer.startswith(record.excerpt[:-1])
        (count,) = quarantine_summary(fresh_store.connection)
        assert_printable(count.to_json())
        # The raw value still works as a filter.
        assert list_quarantine(fresh_store.connection, source=HOSTILE) == [record]


class TestTerminalSafe:
    @pytest.mark.parametrize(
        ("text", "limit", "shown"),
        [
            ("plain text", 20, "plain text"),
            ("a\nb", 20, "a\\nb"),
            ("\x1b[2J", 20, "\\x1b[2J"),
            ("\u202eevil", 20, "\\u202eevil"),
            ("0123456789", 10, "0123456789"),
            ("0123456789x", 10, "012345678…"),
            ("ab\x00", 4, "ab…"),  # an escape is never cut in half
            ("日本語 ok", 20, "日本語 ok"),
        ],
    )
    def test_examples(self, text: str, limit: int, shown: str) -> None:
        """Controls become visible escapes; too-long text is cut to the limit with an ellipsis."""
        assert terminal_safe(text, limit) == shown

    @given(st.text(), st.integers(min_value=1, max_value=300))
    def test_output_is_printable_and_bounded(self, text: str, limit: int) -> None:
        """Any text comes out printable and at most limit characters long."""
        shown = terminal_safe(text, limit)
        assert len(shown) <= limit
        assert all(char.isprintable() or char == " " for char in shown)
        if not shown.endswith("…") and all(c.isprintable() or c == " " for c in text):
            assert shown == text


# -- quarantine -------------------------------------------------------------------


def _otlp_line(**span_fields: Any) -> str:
    """One OTLP JSON line holding one span (fields override a valid span)."""
    span = {
        "traceId": "ab" * 16,
        "spanId": "cd" * 8,
        "name": "x",
        "kind": 1,
        "startTimeUnixNano": "1764579600000000000",
        "endTimeUnixNano": "1764579600000001000",
        **span_fields,
    }
    scope = {"scope": {"name": "s"}, "spans": [span]}
    return json.dumps({"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [scope]}]})


def _write_source(path: Path, bad_lines: list[str]) -> Path:
    with capture_spans() as spans:
        _record_session(f"session-of-{path.stem}")
    spans.write_jsonl(path)
    with path.open("a") as handle:
        handle.write("\n".join(bad_lines) + "\n")
    return path


class TestQuarantine:
    @pytest.fixture
    def ingested(self, fresh_store: Store, tmp_path: Path) -> tuple[Store, Any]:
        """Two files with bad lines, ingested; the store and the ingest report."""
        first = _write_source(
            tmp_path / "first.jsonl",
            [
                "not json \x1b[2J",
                '{"resourceSpans": [',
                _otlp_line(endTimeUnixNano="1764579500000000000"),
                _otlp_line(spanId="zz"),
                "also not json",
            ],
        )
        second = _write_source(tmp_path / "second.jsonl", [_otlp_line(traceId="00" * 16)])
        report = ingest([first, second], fresh_store, progress=False, workers=0)
        return fresh_store, report

    def test_counts_match_what_the_ingest_reported(self, ingested: tuple[Store, Any]) -> None:
        """Per source, the summary adds up to the run's quarantined count, reason by reason."""
        store, report = ingested
        summary = quarantine_summary(store.connection)
        by_source: Counter[str] = Counter()
        for count in summary:
            by_source[count.source] += count.records
        assert by_source == {s.source: s.rows_quarantined for s in report.sources}
        first, second = (s.source for s in report.sources)
        assert [(c.source, c.reason, c.records, c.runs) for c in summary] == [
            (first, "invalid_json", 2, 1),
            (first, "invalid_id", 1, 1),
            (first, "negative_duration", 1, 1),
            (first, "truncated_json", 1, 1),
            (second, "invalid_id", 1, 1),
        ]
        assert len(list_quarantine(store.connection)) == report.rows_quarantined == 6

    def test_records_locate_each_bad_line(self, ingested: tuple[Store, Any]) -> None:
        """Records carry the run's format and the line, oldest line first within a run."""
        store, report = ingested
        first = report.sources[0].source
        records = list_quarantine(store.connection, source=first)
        assert [r.reason for r in records] == [
            "invalid_json",
            "truncated_json",
            "negative_duration",
            "invalid_id",
            "invalid_json",
        ]
        assert [r.line for r in records] == [2, 3, 4, 5, 6]
        assert {r.format for r in records} == {"otlp-json"}
        assert records[0].excerpt == "not json \\x1b[2J\\n"
        assert records[3].span_id == "zz" and records[3].trace_id == "ab" * 16
        # The latest run comes first when every source is listed.
        assert list_quarantine(store.connection)[0].source == report.sources[1].source

    def test_filters_narrow_rows_and_counts_alike(self, ingested: tuple[Store, Any]) -> None:
        """source and reason select the same rows in the listing and the summary."""
        store, report = ingested
        con = store.connection
        first = report.sources[0].source
        invalid_ids = list_quarantine(con, reason="invalid_id")
        assert len(invalid_ids) == 2
        assert [(c.source, c.records) for c in quarantine_summary(con, reason="invalid_id")] == [
            (first, 1),
            (report.sources[1].source, 1),
        ]
        assert len(list_quarantine(con, source=first, reason="invalid_json")) == 2
        assert len(list_quarantine(con, limit=2)) == 2
        assert list_quarantine(con, reason="nope") == [] == quarantine_summary(con, reason="nope")
        with pytest.raises(ValueError, match="excerpt_chars"):
            list_quarantine(con, excerpt_chars=0)

    def test_describe_empty_explains_each_filter(self, ingested: tuple[Store, Any]) -> None:
        """Unknown reasons and sources are answered with what the store does hold."""
        store, report = ingested
        con = store.connection
        first = report.sources[0].source
        unknown_reason = describe_empty(con, QuarantineFilter(reason="x"))
        assert unknown_reason.startswith(
            "no quarantine records with reason 'x' (reasons present: 'invalid_id' (2), "
            "'invalid_json' (2), 'negative_duration' (1), 'truncated_json' (1));"
        )
        assert "'x' is not a reason recurscope records" in unknown_reason
        absent = describe_empty(con, QuarantineFilter(reason="corrupt_gzip"))
        assert "reasons present" in absent and "is not a reason" not in absent
        bare_name = describe_empty(con, QuarantineFilter(source="first.jsonl"))
        assert bare_name.endswith(f"did you mean '{first}'?")
        assert "(sources with quarantine records: " in bare_name
        together = describe_empty(
            con, QuarantineFilter(source=report.sources[1].source, reason="invalid_json")
        )
        assert together.endswith("(that source's reasons: 'invalid_id' (1))")
        assert describe_empty(con, QuarantineFilter(source=first)) == ""

    def test_a_cleanly_ingested_source_is_named_as_such(
        self, fresh_store: Store, tmp_path: Path
    ) -> None:
        """A source that quarantined nothing is reported as read, not as unknown."""
        clean = tmp_path / "clean.jsonl"
        with capture_spans() as spans:
            _record_session("clean")
        spans.write_jsonl(clean)
        report = ingest([clean], fresh_store, progress=False, workers=0)
        source = report.sources[0].source
        con = fresh_store.connection
        assert describe_empty(con, QuarantineFilter()) == (
            f"no quarantine records: every one of the {report.records_read} records read in "
            "1 ingest run was stored or was a duplicate"
        )
        fresh_store.write_spans(
            [],
            source="otlp-http",
            format="otlp-proto",
            rejections=[Rejection(Reason.INVALID_JSON, "x")],
        )
        assert describe_empty(con, QuarantineFilter(source=source)) == (
            f"no quarantine records from '{source}': it was ingested (1 run, "
            f"{report.records_read} records read) and nothing from it was quarantined"
        )

    def test_an_empty_store_says_nothing_was_ingested(self, fresh_store: Store) -> None:
        """No runs at all: the sentence says so."""
        assert list_quarantine(fresh_store.connection) == []
        assert quarantine_summary(fresh_store.connection) == []
        assert describe_empty(fresh_store.connection, QuarantineFilter(reason="invalid_json")) == (
            "no quarantine records: nothing has been ingested yet"
        )


_reasons = st.sampled_from(list(Reason))
_sources = st.text(max_size=30) | st.sampled_from(["a.jsonl", "otlp-http", HOSTILE])
_batches = st.lists(st.tuples(_sources, st.lists(_reasons, max_size=8)), min_size=0, max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_batches)
def test_summary_counts_add_up_to_the_quarantine_rows(
    batches: list[tuple[str, list[Reason]]],
) -> None:
    """Whatever is quarantined, the summary's counts sum to the rows, group by group."""
    with Store.open(":memory:") as store:
        expected: Counter[tuple[str, str]] = Counter()
        for source, reasons in batches:
            store.write_spans(
                [],
                source=source,
                format="otlp-json",
                rejections=[Rejection(reason, "detail") for reason in reasons],
            )
            for reason in reasons:
                expected[(source, str(reason))] += 1
        con = store.connection
        summary = quarantine_summary(con)
        rows = store.scalar("SELECT count(*) FROM quarantine")
        assert sum(count.records for count in summary) == rows == len(list_quarantine(con))
        shown: Counter[tuple[str, str]] = Counter()
        for (source, reason), records in expected.items():
            shown[(terminal_safe(source), reason)] += records
            assert len(list_quarantine(con, source=source, reason=reason)) == records
        assert Counter({(c.source, c.reason): c.records for c in summary}) == shown
        explanation = describe_empty(con, QuarantineFilter())
        assert (explanation == "") == bool(rows)

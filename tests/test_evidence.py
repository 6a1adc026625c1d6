"""Evidence refresh: full and incremental agree, audits hold, views work read-only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from recurscope.instrumentation import Recorder, TokenCounter, configure
from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence import views
from recurscope.pipeline.ingest.files import ingest
from recurscope.pipeline.store.database import Store
from recurscope.pipeline.testing import (
    create_otel_traces_table,
    insert_span_specs,
    insert_synthetic_spans,
)

START = datetime(2026, 12, 1, 9, 0)


def _tables(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Every evidence table's rows, order-independent, for whole-table comparisons."""
    return {
        name: sorted(repr(row) for row in con.execute(f"SELECT * FROM {name}").fetchall())
        for name in (*evidence.SPAN_MODELS, *evidence.SESSION_MODELS)
    }


def _fresh(sessions: int = 0, **kwargs: object) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    create_otel_traces_table(con)
    if sessions:
        insert_synthetic_spans(con, sessions=sessions, start=START, **kwargs)  # type: ignore[arg-type]
    return con


@pytest.fixture(scope="module")
def realistic() -> Iterator[duckdb.DuckDBPyConnection]:
    """300 synthetic sessions over four days and 30 runs, refreshed once."""
    con = _fresh(300, seed=11, spacing_seconds=1200, sessions_per_run=10)
    evidence.refresh(con)
    yield con
    con.close()


class TestIncrementalRefresh:
    def test_appended_sessions_give_the_same_tables_as_a_full_refresh(self) -> None:
        """Refreshing after new sessions arrive equals rebuilding everything from scratch."""
        incremental = _fresh(120, seed=5)
        evidence.refresh(incremental)
        insert_synthetic_spans(incremental, sessions=15, seed=5, first_session=120, start=START)
        result = evidence.refresh(incremental)
        assert result.mode == "incremental"
        full = _fresh(135, seed=5)
        evidence.refresh(full)
        assert _tables(incremental) == _tables(full)

    def test_late_spans_older_than_the_margin_are_found_by_the_count_sweep(self) -> None:
        """Spans that start long before the watermark still reach the evidence."""
        con = _fresh(60, seed=2)
        evidence.refresh(con)
        insert_synthetic_spans(
            con, sessions=2, seed=2, first_session=500, start=START - timedelta(days=30)
        )
        result = evidence.refresh(con)
        assert result.late_spans > 0
        assert not any(evidence.run_audits(con).values())
        full = _fresh(60, seed=2)
        insert_synthetic_spans(
            full, sessions=2, seed=2, first_session=500, start=START - timedelta(days=30)
        )
        evidence.refresh(full)
        assert _tables(con) == _tables(full)

    def test_a_span_added_to_an_old_session_updates_that_session(self) -> None:
        """A late span joins its session's counts, and that session only is recomputed."""
        con = _fresh(40, seed=3, spacing_seconds=600)
        evidence.refresh(con)
        session = con.execute(
            "SELECT session_id FROM sessions ORDER BY first_span_at LIMIT 1"
        ).fetchone()
        assert session is not None
        before = con.execute(
            "SELECT plannings FROM sessions WHERE session_id = ?", [session[0]]
        ).fetchone()
        insert_span_specs(
            con,
            [
                {
                    "kind": "trim",
                    "session": session[0],
                    "span": "late",
                    "phase": "fits",
                    "trimmed": False,
                    "at": "2026-12-01T09:00:01",
                }
            ],
        )
        result = evidence.refresh(con)
        after = con.execute(
            "SELECT plannings FROM sessions WHERE session_id = ?", [session[0]]
        ).fetchone()
        assert before is not None and after is not None and after[0] == before[0] + 1
        assert result.late_spans == 1
        assert result.sessions_refreshed <= 3  # the late one and the margin's last sessions

    def test_the_incremental_path_reads_only_the_affected_spans(self) -> None:
        """After 1% more sessions, the incremental refresh reads a small share of the spans."""
        # Sessions ten minutes apart: the lateness margin re-reads about one.
        con = _fresh(400, seed=9, spacing_seconds=600)
        full = evidence.refresh(con)
        insert_synthetic_spans(
            con, sessions=4, seed=9, first_session=400, start=START, spacing_seconds=600
        )
        incremental = evidence.refresh(con)
        assert incremental.mode == "incremental"
        assert incremental.spans_read < 0.05 * full.spans_read

    def test_an_explicit_session_list_recomputes_exactly_those(self) -> None:
        """refresh(con, sessions=[...]) replaces those sessions' rows and no others."""
        con = _fresh(30, seed=4)
        evidence.refresh(con)
        wanted = [
            row[0]
            for row in con.execute(
                "SELECT session_id FROM sessions ORDER BY session_id LIMIT 3"
            ).fetchall()
        ]
        result = evidence.refresh(con, sessions=wanted)
        assert result.mode == "sessions"
        assert result.sessions_refreshed == 3
        assert not any(evidence.run_audits(con).values())

    def test_a_new_boilerplate_threshold_rebuilds_the_session_models(self) -> None:
        """Changing S re-flags clusters everywhere, exactly as a full refresh with that S."""
        con = _fresh(80, seed=6)
        evidence.refresh(con, min_other_sessions=4)
        evidence.refresh(con, min_other_sessions=1)
        full = _fresh(80, seed=6)
        evidence.refresh(full, min_other_sessions=1)
        assert _tables(con) == _tables(full)

    def test_changed_sql_forces_a_full_refresh(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Rows built by other SQL are never patched session by session."""
        con = _fresh(10, seed=1)
        evidence.refresh(con)
        monkeypatch.setattr(evidence, "models_version", lambda: "different")
        result = evidence.refresh(con)
        assert result.mode == "full" and "changed" in result.reason

    def test_nothing_new_refreshes_nothing(self) -> None:
        """A refresh with no new spans touches no session older than the margin."""
        con = _fresh(50, seed=8, spacing_seconds=3600)
        evidence.refresh(con)
        result = evidence.refresh(con)
        assert result.mode == "incremental"
        assert result.sessions_refreshed <= 1


def _random_spans(rng: random.Random, sessions: list[str], count: int, tag: str) -> list[dict]:
    """Calls sharing a small pool of code shapes at random times, some with captured code."""
    specs = []
    for i in range(count):
        session = rng.choice(sessions)
        reads = rng.random() < 0.8
        specs.append(
            {
                "kind": "call",
                "session": session,
                "trace": f"{session}-t",
                "span": f"{tag}-{i}",
                "call_id": f"{tag}-{i}",
                "role": rng.choice(["planner", "calc"]),
                "history_size": rng.randint(0, 3),
                "accessed": reads,
                "ops": rng.choice([["slice"], ["grep", "map"], ["group"]]) if reads else [],
                "fingerprint": rng.choice(["fa", "fb", "fc", "fd"]) if reads else None,
                "code": rng.choice([None, None, f"code {tag}-{i}"]),
                "at": rng.randint(0, 3 * 86400),
            }
        )
    return specs


@pytest.mark.parametrize(
    "seed", [0, 1, 2, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(3, 12))]
)
def test_random_edits_refresh_incrementally_to_the_full_result(seed: int) -> None:
    """Late spans (often the first or last of their cluster), new sessions and deletions:
    the incremental refresh, cluster merge included, equals a full rebuild."""
    rng = random.Random(seed)
    sessions = [f"s{i}" for i in range(12)]
    con = _fresh()
    insert_span_specs(con, _random_spans(rng, sessions, 60, "a"))
    evidence.refresh(con, min_other_sessions=2)
    for step in range(3):
        edits = _random_spans(rng, [*sessions, f"new{step}"], rng.randint(1, 8), f"e{step}")
        insert_span_specs(con, edits)
        if rng.random() < 0.5:
            con.execute(
                "DELETE FROM otel_traces WHERE SpanId IN "
                "(SELECT SpanId FROM otel_traces ORDER BY hash(SpanId, ?) LIMIT 3)",
                [seed * 10 + step],
            )
        if rng.random() < 0.3:
            # An explicit list recomputes exactly those sessions: name them all.
            named = con.execute(
                "SELECT DISTINCT SpanAttributes['gen_ai.conversation.id'] FROM otel_traces "
                "UNION SELECT session_id FROM sessions"
            ).fetchall()
            evidence.refresh(con, sessions=[row[0] for row in named])
        else:
            evidence.refresh(con)
        full = _fresh()
        full.register("source_rows", con.sql("SELECT * FROM otel_traces").to_arrow_table())
        full.execute("INSERT INTO otel_traces SELECT * FROM source_rows")
        evidence.refresh(full, min_other_sessions=2)
        assert _tables(con) == _tables(full), f"seed {seed}, step {step}"


class TestRefreshEdges:
    def test_empty_span_table_builds_empty_evidence(self) -> None:
        """No spans yet: every table exists and the evidence has no estimate."""
        con = _fresh()
        evidence.refresh(con)
        assert con.execute("SELECT count(*) FROM sessions").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM evidence").fetchone() == (0,)

    def test_missing_span_table_says_to_ingest_first(self) -> None:
        """Without otel_traces the refresh names what to do."""
        with pytest.raises(PipelineError, match="ingest"):
            evidence.refresh(duckdb.connect())

    def test_the_refresh_log_records_each_refresh(
        self, realistic: duckdb.DuckDBPyConnection
    ) -> None:
        """Every refresh leaves a log row with its mode, watermark and SQL version."""
        row = realistic.execute(
            "SELECT mode, models_version, watermark IS NOT NULL FROM evidence_refresh_log "
            "ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        assert row == ("full", evidence.models_version(), True)


class TestAudits:
    def test_realistic_generated_data_passes_every_audit(
        self, realistic: duckdb.DuckDBPyConnection
    ) -> None:
        """On sound data every audit query returns zero rows."""
        found = evidence.run_audits(realistic)
        assert set(found) == set(evidence.AUDITS)
        assert {name: rows for name, rows in found.items() if rows} == {}

    @pytest.mark.parametrize(
        ("audit", "breakage"),
        [
            (
                "audit_span_ids_unique",
                "INSERT INTO otel_traces SELECT * FROM otel_traces "
                "WHERE SpanName = 'recurscope.call' LIMIT 1",
            ),
            (
                "audit_durations_nonnegative",
                "UPDATE otel_traces SET Duration = -1 WHERE SpanId = "
                "(SELECT min(SpanId) FROM otel_traces)",
            ),
            (
                "audit_rows_have_session",
                "UPDATE trims SET session_id = NULL WHERE span_id = (SELECT min(span_id) FROM trims)",
            ),
            (
                "audit_delegation_parents",
                "UPDATE delegations SET caller_span_id = 'ffffffffffffffff' "
                "WHERE span_id = (SELECT min(span_id) FROM delegations WHERE parent_status = 'found')",
            ),
            (
                "audit_estimates_in_range",
                "UPDATE evidence SET estimate = 1.5 WHERE criterion = 'trim_pressure'",
            ),
            (
                "audit_sessions_match_rows",
                "DELETE FROM calls WHERE span_id = (SELECT min(span_id) FROM calls)",
            ),
            (
                "audit_evidence_current",
                "DELETE FROM trims WHERE span_id = (SELECT min(span_id) FROM trims)",
            ),
        ],
    )
    def test_each_audit_catches_its_breakage(self, audit: str, breakage: str) -> None:
        """An audit is not vacuous: breaking its invariant makes it return rows."""
        con = _fresh(20, seed=12)
        evidence.refresh(con)
        assert evidence.run_audits(con)[audit] == []
        con.execute(breakage)
        assert evidence.run_audits(con)[audit] != []

    def test_recomputed_same_role_agrees_with_the_runtime_flag(
        self, realistic: duckdb.DuckDBPyConnection
    ) -> None:
        """Where the runtime sent same_role, walking the caller chain gives the same answer."""
        rows = realistic.execute(
            "SELECT count(*), count(*) FILTER (WHERE same_role_attr = same_role_computed) "
            "FROM delegations WHERE same_role_attr IS NOT NULL AND same_role_computed IS NOT NULL"
        ).fetchone()
        assert rows is not None and rows[0] > 50 and rows[0] == rows[1]


class TestViews:
    def test_a_view_on_a_read_only_file_matches_the_stored_evidence(self, tmp_path: Path) -> None:
        """A reader without write access gets the same per-session criteria."""
        path = str(tmp_path / "evidence.duckdb")
        con = duckdb.connect(path)
        create_otel_traces_table(con)
        insert_synthetic_spans(con, sessions=40, seed=3, start=START)
        evidence.refresh(con)
        stored = sorted(con.execute("SELECT * FROM session_criteria").fetchall())
        con.close()
        reader = duckdb.connect(path, read_only=True)
        with views.EvidenceView(reader) as view:
            assert not view.stale_reason
            assert sorted(view.query("SELECT * FROM session_criteria")) == stored
        # The view's TEMP tables do not leak into the reader's namespace.
        assert reader.execute("SELECT count(*) FROM session_criteria").fetchone() == (len(stored),)

    def test_a_stale_database_is_computed_from_spans(self) -> None:
        """Spans newer than the last refresh are still in the view, which says why."""
        con = _fresh(30, seed=4)
        evidence.refresh(con)
        insert_synthetic_spans(con, sessions=5, seed=4, first_session=30, start=START)
        with views.EvidenceView(con) as view:
            assert "since the last refresh" in view.stale_reason
            stale = sorted(view.query("SELECT * FROM session_criteria"))
        evidence.refresh(con)
        assert stale == sorted(con.execute("SELECT * FROM session_criteria").fetchall())

    def test_a_role_filter_keeps_that_roles_calls_and_their_trims(
        self, realistic: duckdb.DuckDBPyConnection
    ) -> None:
        """role = planner keeps planner calls, and trims planned inside them."""
        with views.EvidenceView(realistic, views.EvidenceFilter(role="planner")) as view:
            roles = {row[0] for row in view.query("SELECT DISTINCT role FROM calls")}
            trim_roles = {row[0] for row in view.query("SELECT DISTINCT role FROM trims")}
        assert roles == {"planner"} and trim_roles == {"planner"}

    def test_session_matrix_rows_are_sorted_sessions(
        self, realistic: duckdb.DuckDBPyConnection
    ) -> None:
        """Rows come sorted by session, so the bootstrap never depends on row order."""
        with views.EvidenceView(realistic) as view:
            matrix = view.session_matrix(["trim_pressure"])
        assert list(matrix.sessions) == sorted(matrix.sessions)
        assert matrix.numerators.shape == (300, 1)

    def test_filter_values_are_quoted_safely(self) -> None:
        """A quote in a filter value is data, not SQL."""
        assert views.sql_literal("o'brien") == "'o''brien'"
        con = _fresh(5, seed=1)
        evidence.refresh(con)
        with views.EvidenceView(con, views.EvidenceFilter(role="x' OR '1'='1")) as view:
            assert view.query("SELECT count(*) FROM calls") == [(0,)]


def test_the_default_boilerplate_threshold_matches_the_shipped_preregistration() -> None:
    """The refresh's default S is the pre-registered one, so stored evidence matches reports."""
    from recurscope.pipeline.verdict.rule import load_preregistration

    shipped = Path(__file__).resolve().parents[1] / "data" / "preregistration.toml"
    assert load_preregistration(shipped).min_other_sessions == (evidence.DEFAULT_MIN_OTHER_SESSIONS)


# Attribute names the SQL reads that the conventions do not (yet) define:
# markers other tools write, and the seed of simulated runs.
NOT_IN_SEMCONV: set[str] = set()


def test_the_sql_reads_only_attributes_the_conventions_define() -> None:
    """Every attribute name in the models is a semconv constant (or a listed exception)."""
    import re

    from recurscope.instrumentation import semconv

    defined = {v for k, v in vars(semconv).items() if k.isupper() and isinstance(v, str)}
    used: set[str] = set()
    for path in evidence.SQL_DIR.glob("*/*.sql"):
        if path.name == "_synthetic_spans.sql":
            continue
        used |= set(re.findall(r"'((?:recurscope|gen_ai|service)\.[a-z_.]+)'", path.read_text()))
    assert used - defined == NOT_IN_SEMCONV


def _record_scripted_session(recorder: Recorder) -> None:
    """Two turns: a goal, a trim outside and inside a call, a same-role delegation, a new goal."""
    messages: list[dict[str, str]] = []
    for turn, need in enumerate(("sum the invoices", "translate the poem to French")):
        recorder.record_need(need, messages)
        messages.append({"role": "user", "content": f"turn {turn} " + "x" * 120})
        recorder.plan_trim(messages, budget=100)
        with recorder.call("turn", role="planner"):
            recorder.plan_trim(messages, budget=100)
            with recorder.delegate("planner", method="sub", delegation_kind="agent_for"):
                pass
        messages.append({"role": "assistant", "content": "y" * 80})


def test_a_session_span_changes_no_evidence(tmp_path: Path) -> None:
    """Under recorder.session() calls, delegations, trims and shifts come out as without it."""
    spans_file = tmp_path / "spans.jsonl"
    telemetry = configure("file", path=spans_file, batch=False, run_id="run-1")
    for session_id, with_session in (("plain", False), ("traced", True)):
        recorder = Recorder(
            session_id,
            tracer_provider=telemetry.tracer_provider,
            token_counter=TokenCounter("bytes"),
        )
        if with_session:
            with recorder.session():
                _record_scripted_session(recorder)
        else:
            _record_scripted_session(recorder)
    telemetry.shutdown()

    with Store.open(tmp_path / "store.duckdb") as store:
        report = ingest([spans_file], store, progress=False, workers=0)
        assert report.spans_accepted == 2 * 10 + 1  # two sessions of 10, one session span
        con = store.connection
        evidence.refresh(con, full=True)
        assert {name: rows for name, rows in evidence.run_audits(con).items() if rows} == {}
        queries = {
            "calls": "select split_part(call_id, ':', 2), role, depth, parent_call_id is null "
            "from calls where session_id = ?",
            "delegations": "select role, caller_role, kind, parent_status, same_role, ancestors "
            "from delegations where session_id = ?",
            "trims": "select role, phase, call_span_id is null from trims where session_id = ?",
            "shifts": "select reason, role from boundary_shifts where session_id = ?",
        }
        for name, sql in queries.items():
            plain = sorted(map(repr, con.execute(sql, ["plain"]).fetchall()))
            traced = sorted(map(repr, con.execute(sql, ["traced"]).fetchall()))
            assert plain == traced and plain, name
        delegations = con.execute(
            "select count(*) from delegations where session_id = 'traced'"
        ).fetchone()
        assert delegations == (2,)  # the session span made no top-level call a delegation
        (session_traces,) = con.execute(
            "select count(distinct TraceId) from otel_traces "
            "where SpanAttributes['gen_ai.conversation.id'] = 'traced'"
        ).fetchone() or (None,)
        assert session_traces == 1

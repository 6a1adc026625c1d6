"""`recurscope prune`: removing one session completely, retention by date, dry runs."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest

from recurscope.cli.prune import add_command
from recurscope.pipeline import Store, ingest
from recurscope.pipeline.decode.formats import FormatOptions
from recurscope.pipeline.decode.formats.recurgent_jsonl import span_id_for, trace_id_for
from recurscope.pipeline.store.locking import companions
from recurscope.pipeline.store.prune import (
    UnknownSessionError,
    disk_size,
    find_mentions,
    parse_cutoff,
    prune,
    prune_store,
)

SECRET = "alice-session-7Q2"
OTHER = "bob-session-4K9"


def entry(trace: str, call: str, parent: str | None, when: str, **extra: Any) -> dict[str, Any]:
    return {
        "timestamp": when,
        "runtime": "ruby",
        "role": extra.pop("role", "planner"),
        "method": "ask",
        "trace_id": trace,
        "call_id": call,
        "parent_call_id": parent,
        "duration_ms": 500.0,
        "generation_attempt": 1,
        "code": "h = context[:conversation_history]\nresult = h.size\n",
        **extra,
    }


def write_log(path: Path, trace: str, when: str, *, bad_line: bool = False) -> None:
    rows = [
        entry(trace, f"{trace[:8]}-child", f"{trace[:8]}-root", when, role="helper"),
        entry(trace, f"{trace[:8]}-root", None, when),
    ]
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if bad_line:
        text += '{"timestamp": "2026-01-01T00:00:00Z", "role": "planner", "method": "ask", "trace_id": "x\n'
    path.write_text(text)


def host_span_request(trace: str, parent: str, span_id: str) -> dict[str, Any]:
    """An OTLP request with one host LLM span (no session attribute) inside ``trace``."""
    return {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": [{"key": "service.name", "value": {"stringValue": "host"}}]
                },
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": trace,
                                "spanId": span_id,
                                "parentSpanId": parent,
                                "name": "chat gpt-4o",
                                "kind": 3,
                                "startTimeUnixNano": "1767225600000000000",
                                "endTimeUnixNano": "1767225601000000000",
                                "attributes": [
                                    {
                                        "key": "gen_ai.prompt",
                                        "value": {"stringValue": "private prompt"},
                                    }
                                ],
                            }
                        ]
                    }
                ],
            }
        ]
    }


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """A store holding two sessions (one old, one new), host spans, quarantine, evidence."""
    db = tmp_path / "store.duckdb"
    alice_log, bob_log = tmp_path / "alice.jsonl", tmp_path / "bob.jsonl"
    write_log(alice_log, "a" * 24, "2026-01-01T00:00:10.000Z", bad_line=True)
    write_log(bob_log, "b" * 24, "2026-03-01T00:00:10.000Z", bad_line=True)
    host = tmp_path / "host.jsonl"
    alice_trace = trace_id_for("a" * 24)
    alice_root = span_id_for("a" * 24, "aaaaaaaa-root")
    host.write_text(
        json.dumps(host_span_request(alice_trace, alice_root, "1234567812345678")) + "\n"
    )
    with Store.open(db) as store:
        ingest([alice_log], store, progress=False, options=FormatOptions(session=SECRET))
        ingest([bob_log], store, progress=False, options=FormatOptions(session=OTHER))
        ingest([host], store, progress=False)
        con = store.connection
        # Evidence-like tables, as another module would build them.
        con.execute(
            """
            CREATE TABLE calls AS
            SELECT SpanAttributes['gen_ai.conversation.id'] AS session_id, TraceId AS trace_id,
                   SpanId AS span_id, "Timestamp" AS started_at
            FROM otel_traces WHERE SpanName = 'recurscope.call'
            """
        )
        con.execute(
            """
            CREATE TABLE code_clusters AS
            SELECT 'fp-1' AS fingerprint,
                   list(DISTINCT SpanAttributes['gen_ai.conversation.id'] ORDER BY 1) AS sessions
            FROM otel_traces WHERE SpanName = 'recurscope.call'
            """
        )
        con.execute("CREATE TABLE coverage AS SELECT count(*) AS spans FROM otel_traces")
        con.execute(
            f"CREATE TABLE evidence_refresh_log AS SELECT 1 AS run, ['{SECRET}', '{OTHER}'] AS sessions"
        )
        con.execute("CHECKPOINT")
    return db


def scan_mentions(db: Path, needle: str) -> list[tuple[str, str, int]]:
    """Every VARCHAR / VARCHAR[] / MAP column of every table that names ``needle``."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        found = []
        columns = con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'main'"
        ).fetchall()
        for table, column, data_type in columns:
            if data_type == "VARCHAR":
                condition = f'contains("{column}", $s)'
            elif data_type == "VARCHAR[]":
                condition = f'list_contains("{column}", $s)'
            elif data_type.startswith("MAP("):
                condition = f'list_contains(map_values("{column}"), $s)'
            elif data_type.startswith("STRUCT") or data_type.endswith("[]"):
                condition = f'contains(CAST("{column}" AS VARCHAR), $s)'
            else:
                continue
            row = con.execute(
                f'SELECT count(*) FROM "{table}" WHERE {condition}', {"s": needle}
            ).fetchone()
            if row and row[0]:
                found.append((table, column, int(row[0])))
        return found
    finally:
        con.close()


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    args = parser.parse_args(["prune", *argv])
    code: int = args.func(args)
    return code


def count(db: Path, sql: str) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(sql).fetchone()
        return int(row[0]) if row else 0
    finally:
        con.close()


class TestSession:
    def test_no_row_anywhere_mentions_the_session(self, store_path: Path) -> None:
        """After prune --session, no column of any table names the session, and the other
        session is untouched."""
        assert scan_mentions(store_path, SECRET)  # the fixture does mention it
        assert run("--session", SECRET, "--db", str(store_path)) == 0
        assert scan_mentions(store_path, SECRET) == []
        assert (
            count(
                store_path,
                f"SELECT count(*) FROM otel_traces WHERE SpanAttributes['gen_ai.conversation.id'] = '{OTHER}'",
            )
            == 2
        )
        assert count(store_path, f"SELECT count(*) FROM calls WHERE session_id = '{OTHER}'") == 2

    def test_host_spans_and_quarantine_go_too(self, store_path: Path) -> None:
        """Host spans in the session's traces and its attributable quarantine rows are deleted;
        the other session's quarantine stays."""
        with Store.open(store_path) as store:
            before = store.scalar("SELECT count(*) FROM quarantine")
            report = prune(store, session=SECRET)
            assert report.spans == 3 and report.traces == 1 and report.quarantine == 1
            assert (
                store.scalar("SELECT count(*) FROM otel_traces WHERE SpanName = 'chat gpt-4o'") == 0
            )
            assert store.scalar("SELECT count(*) FROM quarantine") == before - 1
            tables = {t.table: t.rows for t in report.derived}
            assert tables["calls"] == 2 and tables["code_clusters"] == 1
            assert tables["evidence_refresh_log"] == 1
            assert store.scalar("SELECT count(*) FROM ingest_log") == 3  # bookkeeping kept
            assert find_mentions(store.connection, SECRET) == []

    def test_the_file_no_longer_holds_the_bytes(self, store_path: Path) -> None:
        """The rewrite removes deleted values from the file itself (CHECKPOINT alone does not)."""
        assert SECRET.encode() in store_path.read_bytes()
        assert run("--session", SECRET, "--db", str(store_path)) == 0
        assert SECRET.encode() not in store_path.read_bytes()
        assert OTHER.encode() in store_path.read_bytes()
        with Store.open(store_path) as store:  # still a sound store that takes new runs
            assert store.scalar("SELECT count(*) FROM otel_traces") == 2
            run_id = store.begin_ingest("later", "otlp-json").ingest_id
            assert run_id > 3  # the sequence survived the rewrite

    def test_the_readers_snapshot_is_republished(self, store_path: Path) -> None:
        """A snapshot published before pruning is replaced by one without the session."""
        snapshot = companions(store_path).snapshot
        with Store.open(store_path) as store:
            store.snapshot(snapshot)
        assert SECRET.encode() in snapshot.read_bytes()
        assert run("--session", SECRET, "--db", str(store_path)) == 0
        assert SECRET.encode() not in snapshot.read_bytes()
        assert scan_mentions(snapshot, SECRET) == []

    def test_dry_run_changes_nothing(
        self, store_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--dry-run reports the counts and leaves every row in place."""
        spans = count(store_path, "SELECT count(*) FROM otel_traces")
        assert run("--session", SECRET, "--dry-run", "--db", str(store_path)) == 0
        assert "would delete 3 spans" in capsys.readouterr().out
        assert count(store_path, "SELECT count(*) FROM otel_traces") == spans
        assert scan_mentions(store_path, SECRET)

    def test_mixed_traces_keep_other_sessions(self, tmp_path: Path) -> None:
        """In a trace shared by two sessions only the pruned session's spans go; spans
        without a session there are kept (they cannot be attributed)."""
        db = tmp_path / "mixed.duckdb"
        trace = "c" * 24
        path = tmp_path / "mixed.jsonl"
        path.write_text(
            "".join(
                json.dumps(e) + "\n"
                for e in (
                    entry(trace, "c1", None, "2026-01-01T00:00:01Z", session_id=SECRET),
                    entry(trace, "c2", None, "2026-01-01T00:00:02Z", session_id=OTHER),
                )
            )
        )
        host = tmp_path / "host.jsonl"
        host.write_text(
            json.dumps(
                host_span_request(trace_id_for(trace), span_id_for(trace, "c1"), "8765432187654321")
            )
        )
        with Store.open(db) as store:
            ingest([path, host], store, progress=False)
            report = prune(store, session=SECRET)
            assert report.spans == 1
            assert store.scalar("SELECT count(*) FROM otel_traces") == 2


class TestReporting:
    def test_an_unknown_session_raises_and_deletes_nothing(self, store_path: Path) -> None:
        """A session with nothing to delete is an UnknownSessionError listing known sessions,
        those starting with the given text first; nothing is deleted."""
        with Store.open(store_path) as store:
            spans = store.scalar("SELECT count(*) FROM otel_traces")
            with pytest.raises(UnknownSessionError, match="no spans of session 'bob'") as caught:
                prune(store, session="bob")
            assert caught.value.known[0] == OTHER and set(caught.value.known) == {SECRET, OTHER}
            assert "recurscope sessions --db" in str(caught.value)
            assert store.scalar("SELECT count(*) FROM otel_traces") == spans

    def test_the_command_exits_1_for_an_unknown_session(
        self, store_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`prune --session UNKNOWN` says so on stderr in the one error form and exits 1."""
        assert run("--session", "nobody", "--db", str(store_path)) == 1
        captured = capsys.readouterr()
        assert captured.err.startswith("recurscope prune: error: no spans of session 'nobody'")
        assert captured.out == ""

    def test_a_session_known_only_to_evidence_is_still_pruned(self, store_path: Path) -> None:
        """No spans left but an evidence row names the session: prune deletes it, no error."""
        with Store.open(store_path) as store:
            store.connection.execute("CREATE TABLE notes AS SELECT 'ghost-1' AS session_id")
            report = prune(store, session="ghost-1")
        assert report.spans == 0 and [(t.table, t.rows) for t in report.derived if t.rows] == [
            ("notes", 1)
        ]

    def test_the_reported_size_is_the_size_on_disk_when_done(self, store_path: Path) -> None:
        """prune_store measures the file after the evidence refresh, rewrite and snapshot."""
        report = prune_store(store_path, session=SECRET)
        # The fixture's evidence_refresh_log is a stand-in the refresh cannot read: the
        # report says the aggregates wait for the next refresh rather than claiming them.
        assert report.rewritten and not report.refreshed
        assert report.bytes_after == disk_size(store_path) == store_path.stat().st_size
        line = next(x for x in report.lines() if "rewrote the file" in x)
        assert f"{report.bytes_after:,} on disk now" in line
        assert not any("--rewrite" in x for x in report.lines())

    def test_tips_fit_the_mode(self, store_path: Path) -> None:
        """--before without --rewrite says to add it; --session --no-rewrite does not suggest
        the flag it already defaults to; nothing deleted gives no tip."""
        cutoff = datetime(2026, 2, 1, tzinfo=UTC)
        before = prune_store(store_path, before=cutoff)
        assert any("add --rewrite" in line for line in before.lines())
        nothing = prune_store(store_path, before=cutoff)
        assert not any("rewrit" in line for line in nothing.lines())
        kept = prune_store(store_path, session=OTHER, rewrite=False)
        tip = next(line for line in kept.lines() if "checkpointed" in line)
        assert "--no-rewrite was given" in tip and "add --rewrite" not in tip


class TestBefore:
    def test_old_spans_and_their_evidence_go(self, store_path: Path) -> None:
        """--before deletes older spans, their evidence rows and old quarantine; newer stay."""
        with Store.open(store_path) as store:
            store.connection.execute("UPDATE quarantine SET QuarantinedAt = TIMESTAMP '2026-01-15'")
            report = prune(store, before=datetime(2026, 2, 1, tzinfo=UTC))
            # alice's two calls (Jan 1) and the host span (Jan 1) go; bob's stay.
            assert report.spans == 3 and report.quarantine == 2
            assert store.scalar("SELECT count(*) FROM otel_traces") == 2
            assert store.scalar("SELECT count(*) FROM calls") == 2
            assert store.scalar(f"SELECT count(*) FROM calls WHERE session_id = '{SECRET}'") == 0
            assert report.checkpointed and not report.rewritten

    def test_cli_date(self, store_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--before takes a date on the command line (everything is older than 2099)."""
        assert run("--before", "2099-01-01", "--db", str(store_path), "--dry-run") == 0
        assert "would delete 5 spans" in capsys.readouterr().out


class TestArguments:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("2026-01-31", datetime(2026, 1, 31, tzinfo=UTC)),
            ("2026-01-31T12:00:00Z", datetime(2026, 1, 31, 12, tzinfo=UTC)),
            ("2026-01-31T13:00:00+01:00", datetime(2026, 1, 31, 12, tzinfo=UTC)),
            ("30d", datetime(2026, 1, 1, tzinfo=UTC)),
            ("2w", datetime(2026, 1, 17, tzinfo=UTC)),
            ("12h", datetime(2026, 1, 30, 12, tzinfo=UTC)),
        ],
    )
    def test_cutoffs(self, text: str, expected: datetime) -> None:
        """Dates, date-times and relative ages all become UTC instants."""
        now = datetime(2026, 1, 31, tzinfo=UTC)
        assert parse_cutoff(text, now=now) == expected

    def test_bad_date(self, store_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """An unreadable date is an argparse usage error (exit 2) naming the accepted forms."""
        with pytest.raises(SystemExit) as caught:
            run("--before", "last tuesday", "--db", str(store_path))
        assert caught.value.code == 2
        assert "argument --before: not a date: 'last tuesday'" in capsys.readouterr().err

    def test_before_takes_the_command_line_date_grammar(self) -> None:
        """--before reads what --since reads (ages too) and prune gets an aware UTC instant."""
        parser = argparse.ArgumentParser()
        add_command(parser.add_subparsers())
        args = parser.parse_args(["prune", "--before", "2026-01-31T13:00+01:00"])
        assert args.before == datetime(2026, 1, 31, 12)  # naive UTC, as every date flag
        aged = parser.parse_args(["prune", "--before", "90m"]).before
        assert timedelta(minutes=89) < datetime.now(UTC).replace(tzinfo=None) - aged

    def test_exactly_one_mode(self, store_path: Path) -> None:
        """The API insists on exactly one of session= and before=."""
        with Store.open(store_path) as store, pytest.raises(ValueError):
            prune(store, session=SECRET, before=datetime.now(UTC) - timedelta(days=1))

    def test_missing_store(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Pruning a store that does not exist fails (exit 1, the one error form), creating none."""
        assert run("--session", "x", "--db", str(tmp_path / "none.duckdb")) == 1
        assert not (tmp_path / "none.duckdb").exists()
        assert capsys.readouterr().err.startswith("recurscope prune: error: no store at ")

    def test_help_ends_with_an_example(self) -> None:
        """The help text ends with an example command line."""
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        add_command(sub)
        epilog = sub.choices["prune"].epilog
        assert epilog is not None and epilog.startswith("Example: recurscope prune")

"""`recurscope export`: one Parquet file per table, bookkeeping left out, read-only."""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from recurscope.cli.export import add_command
from recurscope.pipeline import Store, ingest
from recurscope.pipeline.store.export import export_tables, is_bookkeeping

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """A store with spans, a quarantined record and two evidence-like tables and a view."""
    db = tmp_path / "store.duckdb"
    with Store.open(db) as store:
        ingest(
            [
                FIXTURES / "recurgent" / "delegation.jsonl",
                FIXTURES / "recurgent" / "malformed.jsonl",
            ],
            store,
            progress=False,
        )
        con = store.connection
        con.execute(
            """
            CREATE TABLE calls AS
            SELECT SpanAttributes['gen_ai.conversation.id'] AS session_id, SpanId AS span_id,
                   SpanAttributes AS attrs
            FROM otel_traces
            """
        )
        con.execute("CREATE TABLE evidence AS SELECT 0.25 AS share, 'ContextView' AS primitive")
        con.execute("CREATE VIEW recent_calls AS SELECT * FROM calls")
        con.execute("CREATE TABLE evidence_refresh_log AS SELECT 1 AS run")
    return db


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    add_command(parser.add_subparsers())
    args = parser.parse_args(["export", *argv])
    code: int = args.func(args)
    return code


class TestExport:
    def test_one_file_per_table_without_bookkeeping(self, store_path: Path, tmp_path: Path) -> None:
        """Spans, every evidence table and view are written; bookkeeping is not."""
        out = tmp_path / "out"
        assert run("--out", str(out), "--db", str(store_path)) == 0
        names = sorted(p.name for p in out.iterdir())
        assert names == [
            "calls.parquet",
            "evidence.parquet",
            "otel_traces.parquet",
            "recent_calls.parquet",
        ]

    def test_rows_and_types_round_trip(self, store_path: Path, tmp_path: Path) -> None:
        """Each file holds the table's rows; maps and nanosecond times survive."""
        out = tmp_path / "out"
        with Store.open(store_path, read_only=True) as store:
            report = export_tables(store.connection, out)
            spans = store.scalar("SELECT count(*) FROM otel_traces")
        counts = {t.table: t.rows for t in report.tables}
        assert counts["otel_traces"] == spans == 7 and counts["calls"] == 7
        table = pq.read_table(out / "otel_traces.parquet")
        assert table.num_rows == 7
        assert str(table.schema.field("Timestamp").type) == "timestamp[ns]"
        con = duckdb.connect()
        row = con.execute(
            f"SELECT SpanAttributes['recurscope.source.format'] FROM '{out / 'otel_traces.parquet'}' LIMIT 1"
        ).fetchone()
        assert row == ("recurgent_jsonl",)
        assert set(report.skipped) == {
            "recurscope_meta",
            "ingest_log",
            "quarantine",
            "evidence_refresh_log",
        }

    def test_bookkeeping_on_request(self, store_path: Path, tmp_path: Path) -> None:
        """--include-bookkeeping adds them; --table picks exactly the named ones."""
        out = tmp_path / "all"
        assert run("--out", str(out), "--db", str(store_path), "--include-bookkeeping") == 0
        assert (out / "quarantine.parquet").exists() and (out / "ingest_log.parquet").exists()
        only = tmp_path / "only"
        assert run("--out", str(only), "--db", str(store_path), "--table", "quarantine") == 0
        assert [p.name for p in only.iterdir()] == ["quarantine.parquet"]
        assert pq.read_table(only / "quarantine.parquet").num_rows == 10

    def test_unknown_table(self, store_path: Path, tmp_path: Path) -> None:
        """Naming a table the store lacks is an error that lists the tables."""
        assert run("--out", str(tmp_path / "o"), "--db", str(store_path), "--table", "nope") == 1

    def test_store_is_opened_read_only(self, store_path: Path, tmp_path: Path) -> None:
        """Export works while another process could read, and never writes the store."""
        before = store_path.stat().st_mtime_ns
        reader = duckdb.connect(str(store_path), read_only=True)
        try:
            assert run("--out", str(tmp_path / "o"), "--db", str(store_path)) == 0
        finally:
            reader.close()
        assert store_path.stat().st_mtime_ns == before

    def test_missing_store(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """No store: exit 1 with the one error form, nothing created."""
        assert run("--out", str(tmp_path / "o"), "--db", str(tmp_path / "none.duckdb")) == 1
        assert not (tmp_path / "none.duckdb").exists()
        assert capsys.readouterr().err.startswith("recurscope export: error: No store at ")

    def test_bookkeeping_rule(self) -> None:
        """The store's own tables and *_log tables are bookkeeping."""
        assert is_bookkeeping("ingest_log") and is_bookkeeping("evidence_refresh_log")
        assert not is_bookkeeping("calls") and not is_bookkeeping("otel_traces")

    def test_help_ends_with_an_example(self) -> None:
        """The help text ends with an example command line."""
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        add_command(sub)
        epilog = sub.choices["export"].epilog
        assert epilog is not None and epilog.startswith("Example: recurscope export")

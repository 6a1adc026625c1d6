"""The evidence on ClickHouse (chdb in-process) equals the evidence on DuckDB.

Every test loads the same spans into DuckDB's contract table and into the
ClickHouse exporter's ``otel_traces`` (Map attributes, Nested events,
DateTime64(9)), refreshes both, and compares: evidence tables row for row
(types normalised, engine-local columns left out), audits, and the verdict
the unchanged report code computes from each.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

pytest.importorskip("chdb")

from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.evidence import clickhouse as ch
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.testing import (
    create_otel_traces_table,
    insert_span_specs,
    insert_synthetic_spans,
)
from recurscope.pipeline.verdict.report import build_report
from recurscope.pipeline.verdict.rule import default_preregistration_path

CASES = sorted(Path(__file__).with_name("sql_cases").glob("*.yaml"))


@pytest.fixture
def chdb_client() -> Iterator[ch.ClickHouseClient]:
    client = ch.connect("chdb://")
    ch.create_otel_traces(client)
    try:
        yield client
    finally:
        client.close()


def _duck_with(sessions: int = 0, specs: list[dict[str, Any]] | None = None) -> Any:
    con = duckdb.connect()
    create_otel_traces_table(con)
    if sessions:
        insert_synthetic_spans(con, sessions=sessions, seed=5)
    if specs:
        insert_span_specs(con, specs)
    return con


@pytest.mark.slow
def test_every_evidence_table_is_identical_on_synthetic_spans(
    chdb_client: ch.ClickHouseClient,
) -> None:
    """Span models, session models and the cluster registry hold the same rows on both engines."""
    con = _duck_with(sessions=80)
    evidence.refresh(con)
    ch.load_spans(chdb_client, con)
    result = ch.refresh(chdb_client)
    assert result.mode == "full" and result.sessions == 80
    assert ch.evidence_differences(con, chdb_client) == {}
    assert int(chdb_client.arrow("SELECT count() FROM recurscope.delegations").column(0)[0].as_py())
    assert {name: rows for name, rows in ch.run_audits(chdb_client).items() if rows} == {}


@pytest.mark.parametrize("case_path", CASES, ids=[p.stem for p in CASES])
def test_each_sql_case_gives_identical_evidence(
    case_path: Path, chdb_client: ch.ClickHouseClient
) -> None:
    """The hand-written edge cases (same-role walk, missing sessions, odd attributes) agree."""
    case = yaml.safe_load(case_path.read_text(encoding="utf-8"))
    s_value = (case.get("params") or {}).get("min_other_sessions", 4)
    con = _duck_with(specs=case.get("spans") or [])
    evidence.refresh(con, min_other_sessions=s_value)
    ch.load_spans(chdb_client, con)
    ch.refresh(chdb_client, min_other_sessions=s_value)
    assert ch.evidence_differences(con, chdb_client) == {}


@pytest.mark.slow
def test_incremental_refresh_replaces_day_partitions_and_matches_duckdb(
    chdb_client: ch.ClickHouseClient,
) -> None:
    """New spans on later days: only their day partitions are rebuilt, with no mutations."""
    con = _duck_with(sessions=40)
    evidence.refresh(con)
    ch.load_spans(chdb_client, con)
    ch.refresh(chdb_client)
    mark = con.execute('SELECT max("Timestamp") FROM otel_traces').fetchall()[0][0]
    insert_synthetic_spans(con, sessions=25, seed=5, first_session=40, spacing_seconds=5000)
    evidence.refresh(con)
    ch.load_spans(chdb_client, con, where=f"\"Timestamp\" > TIMESTAMP '{mark}'")
    result = ch.refresh(chdb_client)
    assert result.mode == "incremental"
    assert 1 <= result.days_replaced < 6
    assert ch.evidence_differences(con, chdb_client) == {}
    mutations = chdb_client.arrow(
        "SELECT count() FROM system.mutations WHERE database = 'recurscope'"
    )
    assert mutations.column(0)[0].as_py() == 0
    # Nothing new: at most the watermark's own day is rebuilt, and nothing changes.
    again = ch.refresh(chdb_client, lateness_seconds=0)
    assert again.mode == "incremental" and again.days_replaced <= 1
    assert ch.evidence_differences(con, chdb_client) == {}


@pytest.mark.slow
def test_the_verdict_is_identical_on_both_engines(chdb_client: ch.ClickHouseClient) -> None:
    """The unchanged report code gives the same verdicts from ClickHouse's evidence as DuckDB's."""
    con = _duck_with(sessions=120)
    evidence.refresh(con)
    ch.load_spans(chdb_client, con)
    ch.refresh(chdb_client)
    replica = ch.evidence_replica(chdb_client)
    columns = (
        "SELECT table_name, column_name, data_type FROM duckdb_columns() "
        "WHERE table_name IN ({}) ORDER BY ALL".format(
            ", ".join(f"'{t}'" for t in ch.EVIDENCE_TABLES)
        )
    )
    assert replica.execute(columns).fetchall() == con.execute(columns).fetchall()

    def report(connection: Any) -> Any:
        result = build_report(
            connection,
            default_preregistration_path(),
            detector_quality_path=None,
            include_simulated=True,
        )
        return dataclasses.replace(result, generated_at="", notes=())

    duck, click = report(con), report(replica)
    assert duck.verdicts and duck.verdicts == click.verdicts
    assert duck.primary == click.primary
    assert duck.descriptive == click.descriptive
    assert duck.window == click.window
    assert duck.boilerplate == click.boilerplate


def test_a_dsn_of_another_kind_says_which_forms_exist() -> None:
    """A DSN that is not ClickHouse's fails before any connection, naming the accepted forms."""
    with pytest.raises(PipelineError, match=r"clickhouse://USER:PASSWORD@HOST:8123"):
        ch.connect("postgres://user:secret@db:5432/x")


def test_an_unreachable_server_says_what_to_check_without_the_password() -> None:
    """A server that does not answer: the error names host, port and ping, and hides the password."""
    pytest.importorskip("clickhouse_connect")
    with pytest.raises(PipelineError, match=r"Cannot reach ClickHouse") as info:
        ch.connect("clickhouse://reader:s3cret@127.0.0.1:1/default")
    assert "s3cret" not in str(info.value) and "ping" in str(info.value)


def test_evidence_before_any_refresh_is_an_error_saying_how_to_refresh(
    chdb_client: ch.ClickHouseClient,
) -> None:
    """Reading evidence that was never built tells the user to refresh first."""
    with pytest.raises(PipelineError, match="--refresh"):
        ch.evidence_replica(chdb_client)


@pytest.mark.slow
def test_the_clickhouse_connect_path_over_http_gives_the_same_evidence() -> None:
    """The server client (clickhouse-connect over HTTP) loads, refreshes and reads like chdb.

    No ClickHouse server runs here: ``chdb_http`` answers ClickHouse's HTTP
    interface from chdb, so the driver's real requests (settings and
    ``database`` in the URL, parameters, Arrow inserts and answers) are what
    is tested.
    """
    pytest.importorskip("clickhouse_connect")
    from chdb_http import ChdbHttpServer

    con = _duck_with(sessions=30)
    evidence.refresh(con)
    with ChdbHttpServer() as server:
        client = ch.connect(server.dsn + "?compress=false")
        assert type(client).__name__ == "_ServerClient"
        ch.create_otel_traces(client)
        ch.load_spans(client, con)
        assert ch.refresh(client).mode == "full"
        assert ch.evidence_differences(con, client) == {}
        client.close()


@pytest.mark.slow
def test_report_engine_clickhouse_refreshes_and_reports_what_duckdb_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``recurscope report --engine clickhouse --dsn chdb://PATH --refresh`` gives DuckDB's verdicts."""
    import json

    from recurscope.cli import main

    con = _duck_with(sessions=60)
    evidence.refresh(con)
    store = tmp_path / "ch"
    client = ch.connect(f"chdb://{store}")
    ch.create_otel_traces(client)
    ch.load_spans(client, con)
    client.close()
    args = ["--include-simulated", "--format", "json", "--detector-quality", ""]
    code = main(
        ["report", "--engine", "clickhouse", "--dsn", f"chdb://{store}", "--refresh", *args]
    )
    out = capsys.readouterr().out
    assert code == 0
    click = json.loads(out)
    duck = build_report(
        con, default_preregistration_path(), detector_quality_path=None, include_simulated=True
    )
    assert [(v["primitive"], v["outcome"]) for v in click["verdicts"]] == [
        (v.primitive, v.outcome) for v in duck.verdicts
    ]
    assert [(r["name"], r["estimate"], r["lower"], r["upper"]) for r in click["primary"]] == [
        (r.name, r.estimate, r.lower, r.upper) for r in duck.primary
    ]
    # Read again without refreshing: the evidence stayed in ClickHouse.
    assert main(["sessions", "--engine", "clickhouse", "--dsn", f"chdb://{store}"]) == 0


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["report", "--engine", "clickhouse", "--dsn", "mysql://h/x"], 1, "not a ClickHouse DSN"),
        (["report", "--engine", "clickhouse"], 2, "needs --dsn"),
        (["export", "--dsn", "chdb://", "--out", "x"], 2, "go with --engine clickhouse"),
    ],
)
def test_engine_flags_that_cannot_work_say_what_to_do(
    argv: list[str],
    code: int,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wrong DSN is a runtime error (1); a missing or misplaced flag a usage error (2)."""
    from recurscope.cli import main

    monkeypatch.delenv("RECURSCOPE_CLICKHOUSE_DSN", raising=False)
    assert main(argv) == code
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_sessions_listed_from_clickhouse_equal_duckdb_listing(tmp_path: Path) -> None:
    """The session list (spine computed in ClickHouse, counts from its evidence) equals DuckDB's."""
    from datetime import datetime

    from recurscope.pipeline.evidence.inspect import describe_empty, list_sessions

    con = _duck_with(sessions=50)
    evidence.refresh(con)
    dsn = f"chdb://{tmp_path / 'ch'}"
    client = ch.connect(dsn)
    ch.create_otel_traces(client)
    ch.load_spans(client, con)
    ch.refresh(client)
    client.close()
    filters: list[dict[str, Any]] = [
        {},
        {"since": datetime(2026, 3, 2, 9, 10), "until": datetime(2026, 3, 2, 9, 20)},
        {"service": "agent-1"},
        {"origins": ("simulated",)},
        {"since": datetime(2027, 1, 1)},
    ]
    for flt in filters:
        spine = {"since": None, "until": None, "service": None, "origins": None, **flt}
        with ch.open_evidence(dsn, session_filter=spine) as replica:
            click = list_sessions(replica, **flt)
            click_empty = describe_empty(replica, _session_filter(flt)) if not click else ""
        duck = list_sessions(con, **flt)
        assert click == duck, flt
        if not duck:
            assert click_empty == describe_empty(con, _session_filter(flt))


def _session_filter(flt: dict[str, Any]) -> Any:
    from recurscope.pipeline.evidence.inspect import SessionFilter

    return SessionFilter.of(**flt)


@pytest.mark.slow
def test_late_spans_and_a_dropped_day_are_caught_by_the_ledger_check(
    chdb_client: ch.ClickHouseClient,
) -> None:
    """A span older than the lateness margin, and a raw day dropped (TTL), reach the evidence."""
    con = _duck_with(sessions=40)
    insert_synthetic_spans(con, sessions=30, seed=5, first_session=40, spacing_seconds=5000)
    evidence.refresh(con)
    ch.load_spans(chdb_client, con)
    ch.refresh(chdb_client)
    loaded = con.execute("SELECT count(*) FROM otel_traces").fetchall()[0][0]
    # A late call span in the first session, starting long before the watermark.
    first = con.execute(
        "SELECT SpanAttributes['gen_ai.conversation.id'] FROM otel_traces "
        "WHERE SpanName = 'recurscope.call' ORDER BY \"Timestamp\" LIMIT 1"
    ).fetchall()[0][0]
    insert_span_specs(
        con, [{"kind": "call", "session": first, "span": "late-1", "at": "2026-03-02T09:00:05"}]
    )
    evidence.refresh(con)
    ch.load_spans(chdb_client, con, where=f"rowid >= {loaded}")
    result = ch.refresh(chdb_client)
    assert result.late_spans >= 1
    assert ch.evidence_differences(con, chdb_client) == {}
    # Retention drops the oldest day of raw spans on both engines.
    con.execute("DELETE FROM otel_traces WHERE CAST(\"Timestamp\" AS DATE) = DATE '2026-03-02'")
    evidence.refresh(con)
    chdb_client.command("ALTER TABLE default.otel_traces DROP PARTITION '2026-03-02'")
    result = ch.refresh(chdb_client)
    assert result.late_spans >= 1
    assert ch.evidence_differences(con, chdb_client) == {}


@pytest.mark.slow
def test_the_dashboard_reads_a_store_file_written_from_clickhouse_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every dashboard page renders from ClickHouse's evidence, with DuckDB's session count."""
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from recurscope.dashboards import queries
    from recurscope.pipeline.store.locking import read_connection

    con = _duck_with(sessions=60)
    evidence.refresh(con)
    dsn = f"chdb://{tmp_path / 'ch'}"
    client = ch.connect(dsn)
    ch.create_otel_traces(client)
    ch.load_spans(client, con)
    client.close()
    db = ch.write_evidence_store(dsn, tmp_path / "evidence.duckdb", refresh_first=True)
    with read_connection(db) as view:
        overview = queries.store_overview(view.connection)
    assert overview.state == "ready" and overview.stale_spans == 0
    assert overview.sessions == 60
    monkeypatch.setenv("RECURSCOPE_DB", str(db))
    monkeypatch.setenv("RECURSCOPE_DETECTOR_QUALITY", "")
    monkeypatch.setenv("RECURSCOPE_INCLUDE_SIMULATED", "1")
    app_path = Path(__file__).resolve().parents[1] / "dashboards" / "app.py"
    for page in ("verdict", "delegation", "boilerplate", "trims", "sessions"):
        app = AppTest.from_file(str(app_path), default_timeout=60)
        app.run()
        if page != "verdict":
            app.switch_page(f"app_pages/{page}.py")
            app.run()
        assert not app.exception, (page, [e.value for e in app.exception])


def test_a_second_chdb_store_in_one_process_is_an_error_saying_why(tmp_path: Path) -> None:
    """chdb holds one store per process: opening another path says so and what to do."""
    first = ch.connect(f"chdb://{tmp_path / 'a'}")
    try:
        with pytest.raises(PipelineError, match="one store per process"):
            ch.connect(f"chdb://{tmp_path / 'b'}")
    finally:
        first.close()


def test_nanosecond_starts_and_the_utc_day_survive_datetime64(
    chdb_client: ch.ClickHouseClient,
) -> None:
    """Starts keep their nanoseconds and their UTC day, on both engines, to the last ns.

    DuckDB rounds TIMESTAMP_NS to microseconds when it casts to DATE; the
    span_day macro floors whole days of nanoseconds instead, so a span 1 ns
    before midnight stays on its day there as on ClickHouse.
    """
    con = _duck_with(specs=[{"kind": "call", "span": "a"}, {"kind": "trim", "span": "b"}])
    con.execute(
        "UPDATE otel_traces SET \"Timestamp\" = TIMESTAMP_NS '2026-03-02 23:59:59.999999123'"
    )
    evidence.refresh(con)
    ch.load_spans(chdb_client, con)
    ch.refresh(chdb_client)
    assert ch.evidence_differences(con, chdb_client) == {}
    rows = chdb_client.arrow(
        "SELECT toString(started_at) AS started, toString(day) AS day FROM recurscope.calls"
    ).to_pylist()
    assert rows == [{"started": "2026-03-02 23:59:59.999999123", "day": "2026-03-02"}]
    # The edge: 1 ns before midnight.
    con.execute(
        "UPDATE otel_traces SET \"Timestamp\" = TIMESTAMP_NS '2026-03-02 23:59:59.999999999'"
    )
    evidence.refresh(con, full=True)
    chdb_client.command("TRUNCATE TABLE default.otel_traces")
    ch.load_spans(chdb_client, con)
    ch.refresh(chdb_client, full=True)
    duck_day = con.execute("SELECT day FROM calls").fetchall()[0][0]
    click_day = chdb_client.arrow("SELECT day FROM recurscope.calls").column(0)[0].as_py()
    assert (duck_day.isoformat(), click_day.isoformat()) == ("2026-03-02", "2026-03-02")
    assert ch.evidence_differences(con, chdb_client) == {}


def test_every_duckdb_macro_has_a_clickhouse_function_of_the_same_name() -> None:
    """The two dialect files define the same names, so a model runs on either engine."""
    import re

    duck = set(re.findall(r"CREATE OR REPLACE TEMP MACRO (\w+)", evidence.sql_text("_dialect")))
    click = set(
        re.findall(r"CREATE OR REPLACE FUNCTION (\w+)", evidence.sql_text("_dialect_clickhouse"))
    )
    # sketch_band_numbers is a table macro for the clustering rounds, which run in DuckDB.
    assert duck - {"sketch_band_numbers"} <= click

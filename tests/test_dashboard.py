"""The dashboard pages (Streamlit AppTest) against real DuckDB stores.

Every page runs without an exception and shows the numbers the evidence
tables (or the report's own functions) give for the same store; the Verdict
page agrees with ``recurscope report``; hostile span text renders as text; an
empty store shows what to do; pages keep working while ``serve`` writes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest

from recurscope.cli import main as cli_main
from recurscope.dashboards import queries
from recurscope.instrumentation.analysis import analyze_code
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence.clusters import DEFAULT_CLUSTERS
from recurscope.pipeline.store.locking import open_for_writing
from recurscope.pipeline.testing import add_synthetic_spans
from recurscope.pipeline.verdict.headline import store_headline_intervals
from recurscope.pipeline.verdict.report import OUTCOME_LABELS
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep

APP = Path(__file__).resolve().parents[1] / "dashboards" / "app.py"
PAGES = {
    "verdict": "Verdict",
    "compare": "Compare",
    "history_access": "History access",
    "history_needs": "History needs",
    "boilerplate": "Boilerplate",
    "delegation": "Delegation",
    "trims": "Trims",
    "goals": "Goal boundaries",
    "replay": "Replay",
    "sessions": "Sessions",
    "data": "Data",
}

HOSTILE = "<script>alert(1)</script> ![x](http://example.invalid/x.png) **bold** `tick` 'q' \"dq\""
HOSTILE_SPECS = [
    {"kind": "call", "span": "h1", "session": HOSTILE, "role": HOSTILE,
     "method": HOSTILE, "prompt_version": HOSTILE, "accessed": True,
     "ops": ["grep", HOSTILE], "fingerprint": "f" * 16, "code": HOSTILE,
     "history_size": 3, "records_read": 2, "fields_read": [HOSTILE, "speaker"],
     "read_depth": 2},
    {"kind": "call", "span": "h2", "parent": "h1", "session": HOSTILE,
     "role": HOSTILE, "parent_call_id": "x", "call_id": "y",
     "delegation_kind": HOSTILE},
    {"kind": "trim", "span": "h3", "parent": "h1", "session": HOSTILE,
     "strategy": HOSTILE, "phase": HOSTILE, "trimmed": True},
    {"kind": "shift", "span": "h4", "parent": "h1", "session": HOSTILE,
     "reason": HOSTILE},
]  # fmt: skip


REPORT_FLAGS = ("--detector-quality", "", "--include-simulated")  # the store is simulated

# One program spelled two ways (comprehension vs loop, one more field): two
# exact shapes, one near-duplicate cluster, each shape in three sessions.
# One program spelled twice (a comprehension; a loop that also shows the call id):
# two fingerprints whose static sketches agree within the registered similarity
# (0.95 here, above 0.9 since version 13; showing the timestamp instead, 0.875,
# would leave them apart).
RESPELLED = (
    'recent = [r for r in conversation_history if r["speaker"] == "user"]\n'
    'result = [(r["method_name"], r["args"]) for r in recent[-5:]]\n',
    "picked = []\n"
    "for rec in conversation_history:\n"
    '    if rec["speaker"] == "user":\n'
    "        picked.append(rec)\n"
    'result = [(x["method_name"], x["args"], x["call_id"]) for x in picked[-5:]]\n',
)


def _respelled_specs() -> list[dict[str, Any]]:
    specs = []
    for n in range(6):
        analysis = analyze_code(RESPELLED[n % 2])
        specs.append(
            {
                "kind": "call",
                "span": f"r{n}",
                "session": f"respelled-{n}",
                "role": "planner",
                "accessed": True,
                "ops": sorted(analysis.ops),
                "fingerprint": analysis.fingerprint,
                "sketch": analysis.sketch,
                "language": "python",
                "code": RESPELLED[n % 2],
                "history_size": 8,
                "records_read": 5,
                "fields_read": ["method_name", "args", "speaker"][: 1 + n % 3],
                "read_depth": 5,
                "read_age": 30.0 * (n + 1),
                "read_tokens": 120 * (n + 1),
            }
        )
    return specs


def _fill_store(db: Path, *, sessions: int = 120, hostile: bool = True) -> None:
    """Synthetic sessions (origin simulated) plus a few spans with hostile text; evidence built."""
    specs = [*HOSTILE_SPECS, *_respelled_specs()] if hostile else []
    with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
        con = session.store.connection
        add_synthetic_spans(con, sessions=sessions, seed=3, specs=specs)
        evidence.refresh(con, full=True)
        store_headline_intervals(con)
        session.mark_dirty()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("dashboard") / "store.duckdb"
    _fill_store(db)
    return db


@pytest.fixture
def app(store: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("RECURSCOPE_DB", str(store))
    monkeypatch.setenv("RECURSCOPE_DETECTOR_QUALITY", "")
    monkeypatch.setenv("RECURSCOPE_INCLUDE_SIMULATED", "1")  # as `recurscope demo` starts it
    return AppTest.from_file(str(APP), default_timeout=60)


def _open(app: AppTest, page: str) -> AppTest:
    app.run()
    if page != "verdict":
        app.switch_page(f"app_pages/{page}.py")
        app.run()
    return app


def _metric(app: AppTest, label: str) -> str:
    for metric in app.metric:
        if metric.label == label:
            return str(metric.value)
    raise AssertionError(f"no metric {label!r}: {[m.label for m in app.metric]}")


def _scalar(db: Path, sql: str) -> Any:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(sql).fetchone()
        return None if row is None else row[0]
    finally:
        con.close()


def _number(text: str) -> int:
    return int(text.replace(",", "").split()[0])


@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_renders_with_its_title_and_the_simulated_banner(
    app: AppTest, page: str
) -> None:
    """Each page runs without an exception, titled, and says the data is simulated."""
    _open(app, page)
    assert not app.exception, [e.value for e in app.exception]
    assert [t.value for t in app.title] == [PAGES[page]]
    assert any("Simulated data" in w.value for w in app.warning)


def test_simulated_spans_stay_out_until_the_toggle_brings_them_in(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Like `recurscope report`, pages show observed spans only unless asked, and say so."""
    monkeypatch.setenv("RECURSCOPE_DB", str(store))
    monkeypatch.setenv("RECURSCOPE_DETECTOR_QUALITY", "")
    monkeypatch.delenv("RECURSCOPE_INCLUDE_SIMULATED", raising=False)
    app = _open(AppTest.from_file(str(APP), default_timeout=60), "history_access")
    assert not app.exception, [e.value for e in app.exception]
    assert any("Observed spans only" in i.value for i in app.info)
    assert not any("Simulated data" in w.value for w in app.warning)
    observed = _scalar(store, "SELECT count(*) FROM calls WHERE origin = 'observed'")
    assert observed < _scalar(store, "SELECT count(*) FROM calls")
    assert _number(_metric(app, "Calls")) == observed  # the hostile-text spans carry no origin
    app.toggle(key="filter_include_simulated").set_value(True).run()
    assert any("Simulated data" in w.value for w in app.warning)
    assert _number(_metric(app, "Calls")) == _scalar(store, "SELECT count(*) FROM calls")


def test_page_numbers_equal_the_evidence_tables(app: AppTest, store: Path) -> None:
    """The headline number of each evidence page is the count the SQL gives."""
    expected = {
        ("history_access", "Calls"): "SELECT count(*) FROM calls",
        (
            "history_access",
            "History-reading calls",
        ): "SELECT count(*) FROM calls WHERE reads_history",
        ("delegation", "Delegations"): "SELECT count(*) FROM delegations",
        ("trims", "Plannings"): "SELECT count(*) FROM trims",
        ("goals", "Boundary shifts"): "SELECT count(*) FROM boundary_shifts",
        ("boilerplate", "Code shapes"): "SELECT count(DISTINCT fingerprint) FROM calls "
        "WHERE reads_history AND fingerprint IS NOT NULL",
        ("boilerplate", "Clusters"): "SELECT count(*) FROM shape_clusters",
        ("boilerplate", "Boilerplate clusters"): "SELECT count(*) FROM shape_clusters "
        "WHERE is_boilerplate",
        ("data", "Spans stored"): "SELECT count(*) FROM otel_traces",
        ("data", "Sessions"): "SELECT sessions FROM coverage",
    }
    for (page, label), sql in expected.items():
        _open(app, page)
        assert _number(_metric(app, label)) == _scalar(store, sql), (page, label)


def test_shares_on_pages_are_ratios_of_the_same_sums(app: AppTest, store: Path) -> None:
    """Same-role share and trim pressure are the evidence's sums divided (not rounded to 0/1)."""
    _open(app, "delegation")
    con = duckdb.connect(str(store), read_only=True)
    same, known = con.execute(
        "SELECT sum(CASE WHEN same_role THEN 1 ELSE 0 END), count(same_role) FROM delegations"
    ).fetchone() or (0, 0)
    trimmed, plannings = con.execute(
        "SELECT sum(CASE WHEN trimmed THEN 1 ELSE 0 END), count(*) FROM trims"
    ).fetchone() or (0, 0)
    con.close()
    assert _metric(app, "Same-role share") == f"{same / known:.1%}"
    _open(app, "trims")
    assert _metric(app, "Trim pressure") == f"{trimmed / plannings:.1%}"


def test_verdict_page_agrees_with_recurscope_report(
    app: AppTest, store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Outcomes, estimates and interval bounds on the page are the report's, to the digit."""
    assert cli_main(["report", "--db", str(store), "--format", "json", *REPORT_FLAGS]) == 0
    report = json.loads(capsys.readouterr().out)
    _open(app, "verdict")
    text = " ".join(m.value for m in app.markdown)
    for verdict in report["verdicts"]:
        assert verdict["label"] in text
        assert OUTCOME_LABELS[verdict["outcome"]] in text
    table = app.dataframe[0].value
    shown = {row["criterion"]: row for row in table.to_dict("records")}
    for row in report["primary"]:
        page_row = shown[row["name"]]
        for key in ("estimate", "lower", "upper"):
            if row[key] is None:
                assert page_row[key] != page_row[key] or page_row[key] is None  # NaN or None
            else:
                assert page_row[key] == pytest.approx(row[key], abs=1e-12)
    assert _number(_metric(app, "Sessions")) == report["window"]["sessions"]
    # The clustered boilerplate_share's known error, as the report has it.
    known = report["boilerplate"]["known_error"]
    captions = " ".join(c.value for c in app.caption)
    assert f"pairwise precision {known['precision']:.1%}" in captions


def test_filters_make_the_view_exploratory_and_narrow_the_numbers(
    app: AppTest, store: Path
) -> None:
    """Choosing a role in the sidebar labels pages exploratory and counts only that role."""
    _open(app, "history_access")
    app.sidebar.selectbox(key="filter_role").set_value("planner")
    app.run()
    assert not app.exception
    assert any("Exploratory view" in i.value for i in app.info)
    assert _number(_metric(app, "Calls")) == _scalar(
        store, "SELECT count(*) FROM calls WHERE role = 'planner'"
    )
    app.switch_page("app_pages/verdict.py").run()
    assert not app.exception
    assert any("exploratory" in c.value for c in app.caption)


def test_hostile_span_text_is_shown_as_text(app: AppTest) -> None:
    """A role, session id or strategy made of Markdown/HTML never renders as markup or raises."""
    _open(app, "sessions")
    app.text_input(key="session_search").set_value("script").run()
    assert not app.exception
    rendered = " ".join(m.value for m in (*app.markdown, *app.caption))
    assert "![x](http" not in rendered
    assert "<script>" not in rendered
    for page in ("delegation", "trims", "goals", "boilerplate", "compare"):
        _open(app, page)
        assert not app.exception, page


def test_a_missing_store_shows_how_to_get_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No store: every page says to run the demo or ingest, and nothing is created."""
    missing = tmp_path / "nothing-here.duckdb"
    monkeypatch.setenv("RECURSCOPE_DB", str(missing))
    for page in PAGES:
        app = _open(AppTest.from_file(str(APP), default_timeout=30), page)
        assert not app.exception
        text = " ".join(e.value for e in (*app.info, *app.markdown, *app.code))
        assert "recurscope demo" in text and "recurscope ingest" in text, page
    assert not missing.exists()
    assert list(tmp_path.iterdir()) == []


def test_a_store_without_spans_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty store (created, nothing ingested) gets the same guidance, not a trace."""
    db = tmp_path / "empty.duckdb"
    with open_for_writing(db, kind="test", defer_creation=False):
        pass  # created now, though nothing is written
    monkeypatch.setenv("RECURSCOPE_DB", str(db))
    app = _open(AppTest.from_file(str(APP), default_timeout=30), "trims")
    assert not app.exception
    assert any("holds no spans" in i.value for i in app.info)


def test_page_queries_match_for_filtered_and_unfiltered_views(store: Path) -> None:
    """The query layer: a filter never widens a count, and no filter is the whole table."""
    con = duckdb.connect(str(store), read_only=True)
    try:
        whole = queries.trims_data(con, queries.Filters())
        some = queries.trims_data(con, queries.Filters(role="planner"))
        assert whole.totals["plannings"] == con.execute("SELECT count(*) FROM trims").fetchone()[0]  # type: ignore[index]
        assert some.totals["plannings"] <= whole.totals["plannings"]
        assert queries.Filters(role="x").active and not queries.Filters().active
    finally:
        con.close()


# ---------------------------------------------------------------------------
# Live: the receiver writes while pages read


def test_a_store_that_fails_under_a_query_is_a_warning_not_a_trace(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An I/O error midway through a page's queries: a sentence saying to reload, no trace."""
    copy = tmp_path / "copy.duckdb"  # its own cache entries
    copy.write_bytes(store.read_bytes())
    monkeypatch.setenv("RECURSCOPE_DB", str(copy))

    def history_access_data(*args: object) -> object:  # the name the page loads by
        raise duckdb.IOException('IO Error: Could not read enough bytes from file "x"')

    monkeypatch.setattr(queries, "history_access_data", history_access_data)
    app = _open(AppTest.from_file(str(APP), default_timeout=60), "history_access")
    assert not app.exception
    warnings = " ".join(w.value for w in app.warning)
    assert "failed midway" in warnings and "reload the page" in warnings


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Any]:
    from recurscope.pipeline.testing import ReceiverProcess

    with ReceiverProcess(tmp_path / "live.duckdb") as server:
        yield server


def _send_sessions(endpoint: str, sessions: int, prefix: str) -> None:
    from recurscope.instrumentation import History, Recorder, configure

    telemetry = configure("otlp", endpoint=endpoint, service_name="live-test", batch=False)
    try:
        for n in range(sessions):
            recorder = Recorder(
                f"{prefix}-{n}", history=History(), tracer_provider=telemetry.tracer_provider
            )
            with recorder.call("look", role="planner", code="result = history[-2:]"):
                pass
            recorder.plan_trim([{"role": "user", "content": "hi " * 50}], budget=10)
    finally:
        telemetry.shutdown()


def _stored_calls(db: Path) -> int:
    from recurscope.pipeline.store.locking import read_connection

    with read_connection(db) as view:
        tables = {r[0] for r in view.connection.execute("SHOW TABLES").fetchall()}
        if "calls" not in tables:
            return 0
        return int(view.connection.execute("SELECT count(*) FROM calls").fetchone()[0])  # type: ignore[index]


@pytest.mark.integration
@pytest.mark.slow
def test_pages_follow_live_spans_from_serve_without_lock_errors(
    receiver: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While `serve` stores spans, pages render (live file or snapshot) and show new data."""
    db = tmp_path / "live.duckdb"
    monkeypatch.setenv("RECURSCOPE_DB", str(db))
    _send_sessions(receiver.endpoint, 5, "first")
    deadline = time.monotonic() + 60
    while _stored_calls(db) < 5 and time.monotonic() < deadline:
        time.sleep(0.2)
    app = _open(AppTest.from_file(str(APP), default_timeout=60), "history_access")
    assert not app.exception
    assert _number(_metric(app, "Calls")) == 5
    for round_ in range(3):
        _send_sessions(receiver.endpoint, 5, f"more{round_}")
        for page in ("history_access", "trims", "verdict", "data"):
            app = _open(AppTest.from_file(str(APP), default_timeout=60), page)
            assert not app.exception, page
            errors = " ".join(e.value for e in app.error)
            assert "lock" not in errors.lower(), errors
    deadline = time.monotonic() + 60
    while _stored_calls(db) < 20 and time.monotonic() < deadline:
        time.sleep(0.2)
    app = _open(AppTest.from_file(str(APP), default_timeout=60), "history_access")
    assert _number(_metric(app, "Calls")) == 20


def test_history_access_shows_the_runtimes_own_detection_next_to_ours(tmp_path: Path) -> None:
    """Converted Recurgent logs carry the runtime's detection; the page's table counts both."""
    fixture = Path(__file__).parent / "fixtures" / "recurgent" / "delegation.jsonl"
    db = tmp_path / "recurgent.duckdb"
    assert cli_main(["ingest", "--db", str(db), str(fixture)]) == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        data = queries.history_access_data(con, queries.Filters())
        expected = con.execute(
            "SELECT count(*) FROM calls WHERE reported_accessed IS NOT NULL"
        ).fetchone()
    finally:
        con.close()
    assert expected is not None and expected[0] > 0
    assert int(data.agreement["calls"].sum()) == expected[0]
    assert set(data.agreement["runtime"]) <= {"runtime: read", "runtime: no read"}


def test_evidence_pages_show_the_reports_estimates(
    app: AppTest, store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Shares on the evidence pages are the report's point estimates (same sums, same scope)."""
    assert cli_main(["report", "--db", str(store), "--format", "json", *REPORT_FLAGS]) == 0
    report = json.loads(capsys.readouterr().out)
    estimate = {
        row["name"]: row["estimate"] for row in (*report["primary"], *report["descriptive"])
    }
    checks = [
        ("history_access", "History reliance", "history_reliance", "{:.1%}"),
        ("history_access", "ContextView-shaped", "contextview_shaped_share", "{:.1%}"),
        ("boilerplate", "Boilerplate share", "boilerplate_share", "{:.1%}"),
        ("boilerplate", "Exact-hash share", "boilerplate_share_exact", "{:.1%}"),
        ("delegation", "Same-role share", "same_role_share", "{:.1%}"),
        ("trims", "Trim pressure", "trim_pressure", "{:.1%}"),
        ("trims", "Goal overflow", "goal_overflow_share", "{:.1%}"),
        ("goals", "Per session", "boundary_shifts_per_session", "{:.2f}"),
        ("goals", "Same-task re-emits", "same_task_reemit_share", "{:.1%}"),
    ]
    for page, label, criterion, shape in checks:
        _open(app, page)
        assert _metric(app, label) == shape.format(estimate[criterion]), (page, label)


def test_the_boilerplate_page_shows_a_respelled_program_as_one_cluster(
    app: AppTest, store: Path
) -> None:
    """Two spellings of one program: one cluster of two shapes, its members and their similarity."""
    fingerprints = {analyze_code(code).fingerprint for code in RESPELLED}
    cluster_id = _scalar(
        store,
        "SELECT DISTINCT cluster_id FROM shape_cluster_members WHERE fingerprint IN "
        f"({', '.join(repr(f) for f in sorted(fingerprints))})",
    )
    assert cluster_id in fingerprints  # the leader is one of the two
    _open(app, "boilerplate")
    assert not app.exception
    listing = app.dataframe[0].value
    row = listing[listing["cluster_id"] == cluster_id].to_dict("records")
    assert len(row) == 1 and row[0]["shapes"] == 2 and row[0]["sessions"] == 6
    assert DEFAULT_CLUSTERS.threshold <= row[0]["min_similarity"] < 1.0
    # Select it: its members are the two exact shapes, the leader first, similarity shown.
    position = int(listing.index[listing["cluster_id"] == cluster_id][0])
    app.session_state["cluster_table"] = {"selection": {"rows": [position], "columns": []}}
    app.run()
    assert not app.exception
    members = app.dataframe[1].value
    assert set(members["fingerprint"]) == fingerprints
    assert members["is_leader"].tolist() == [True, False]
    assert members["similarity"].iloc[1] == pytest.approx(row[0]["min_similarity"])
    assert any(
        c.value.startswith("recent = [r for r") or "picked = []" in c.value for c in app.code
    )
    text = " ".join(m.value for m in app.markdown)
    assert f"Cluster {cluster_id}" in text and "2 shapes" in text
    # Beside the shares: the clustering's known error, from its blind runs.
    known = next(i.value for i in app.info if i.value.startswith("Known error of the clustering"))
    assert "blind run" in known and "pairwise precision" in known and "recall" in known


def test_the_boilerplate_sweep_puts_the_registered_threshold_beside_the_exact_share(
    app: AppTest,
) -> None:
    """The sweep lists exact + 0.5..0.9; at the registered threshold it is the page's share."""
    _open(app, "boilerplate")
    sweep = app.dataframe[2].value
    assert sweep["unit"].tolist() == [
        "exact hash",
        "≥ 0.5",
        "≥ 0.6",
        "≥ 0.7",
        "≥ 0.8",
        "≥ 0.9",
    ]
    registered_unit = f"≥ {DEFAULT_CLUSTERS.threshold}"
    assert sweep["registered"].tolist() == [u == registered_unit for u in sweep["unit"]]
    assert sweep["registered"].sum() == 1
    registered = sweep[sweep["registered"]].iloc[0]
    assert _metric(app, "Boilerplate share") == f"{registered['share']:.1%}"
    exact = sweep.iloc[0]
    assert _metric(app, "Exact-hash share") == f"{exact['share']:.1%}"
    # Off, the sweep is not computed.
    app.toggle(key="boilerplate_sweep").set_value(False).run()
    assert not app.exception
    assert len(app.dataframe) == 2


def test_the_boilerplate_page_narrows_clusters_with_the_filters(app: AppTest, store: Path) -> None:
    """With a role chosen, clusters count only that role's calls (recomputed, not stored)."""
    _open(app, "boilerplate")
    app.sidebar.selectbox(key="filter_role").set_value("planner")
    app.run()
    assert not app.exception
    listing = app.dataframe(key="cluster_table").value
    expected = _scalar(
        store,
        "SELECT count(*) FROM calls WHERE role = 'planner' AND reads_history "
        "AND fingerprint IS NOT NULL",
    )
    assert int(listing["calls"].sum()) <= expected
    assert _number(_metric(app, "Code shapes")) == _scalar(
        store,
        "SELECT count(DISTINCT fingerprint) FROM calls WHERE role = 'planner' AND reads_history "
        "AND fingerprint IS NOT NULL",
    )


def test_the_history_needs_page_shows_the_reports_section(
    app: AppTest, store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Field shares and depth quantiles are the report's; the Markdown to paste is its section."""
    assert cli_main(["report", "--db", str(store), "--format", "json", *REPORT_FLAGS]) == 0
    needs = json.loads(capsys.readouterr().out)["history_needs"]
    _open(app, "history_needs")
    assert not app.exception
    assert _number(_metric(app, "History-reading calls")) == needs["reading_calls"]
    assert _number(_metric(app, "Fields known")) == needs["calls_with_fields"] > 0
    fields = app.dataframe[0].value
    shown = dict(zip(fields["field"], fields["share"], strict=True))
    for row in needs["fields"]:
        assert shown[row["field"]] == pytest.approx(row["share"]) or row["share"] is None
    depth = app.dataframe[1].value
    records = depth[depth["unit"] == "records"].iloc[0]
    reported = next(r for r in needs["depth"] if r["unit"] == "records")
    assert (records["median"], records["p99"]) == (reported["median"], reported["p99"])
    markdown = " ".join(c.value for c in app.code)
    assert "### 1. Which history fields" in markdown and "### 2. How far back" in markdown
    rendered = " ".join(m.value for m in (*app.markdown, *app.caption))
    assert "<script>" not in rendered and "![x](http" not in rendered


def test_the_verdict_page_shows_the_preregistration_amendment(app: AppTest) -> None:
    """The latest amendment is in full on the page; the earlier ones, newest first, fold away."""
    from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration

    latest = max(a.version for a in load_preregistration(default_preregistration_path()).amendments)
    _open(app, "verdict")
    assert not app.exception
    shown = [i.value for i in app.info]
    assert len(shown) == 1 and f"Amended: version {latest}" in shown[0]
    earlier = next(e for e in app.expander if "earlier amendment" in e.label)
    assert earlier.label == f"{latest - 2} earlier amendments"
    listed = [m.value for m in earlier.markdown]
    assert listed[0].startswith(f"**Version {latest - 1}**")
    assert listed[-1].startswith("**Version 2**") and "studentized" in listed[-1]


# -- the demo's store: the default one, replaced only when it is the demo's ---------------------


class TestDemoStore:
    def test_the_demo_builds_the_default_store(self) -> None:
        """`recurscope demo` writes where report, dashboard and sessions look without --db."""
        from recurscope.dashboards.cli import DEFAULT_DEMO_DB, demo_files
        from recurscope.pipeline.store.database import DEFAULT_DB_PATH

        assert DEFAULT_DEMO_DB == DEFAULT_DB_PATH
        assert demo_files(DEFAULT_DEMO_DB) == (
            Path("data/demo-spans"),
            Path("data/demo.detector-quality.json"),
        )

    def test_a_rerun_replaces_an_earlier_demo_and_clean_removes_it_all(
        self, tmp_path: Path
    ) -> None:
        """A second demo replaces the first; remove_demo_data then leaves an empty folder."""
        from recurscope.dashboards.cli import prepare_demo, remove_demo_data

        db = tmp_path / "data" / "recurscope.duckdb"
        first = prepare_demo(db, sessions=4)
        again = prepare_demo(db, sessions=4)
        assert (first.spans, first.sessions) == (again.spans, again.sessions)
        cleanup = remove_demo_data((db,))
        assert db in cleanup.removed and not cleanup.kept
        assert list((tmp_path / "data").iterdir()) == []

    def test_observed_data_and_a_pending_spool_are_never_replaced(self, tmp_path: Path) -> None:
        """A store with observed spans is kept by the demo and by remove_demo_data, with why;
        so are simulated spans the demo did not write, and a receiver spool not stored yet."""
        from recurscope.dashboards.cli import DashboardError, prepare_demo, remove_demo_data
        from recurscope.pipeline import ingest
        from recurscope.pipeline.store.locking import companions
        from recurscope.pipeline.testing import write_jsonl

        db = tmp_path / "data" / "recurscope.duckdb"
        with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
            ingest([write_jsonl(tmp_path / "observed.jsonl", 5)], session.store, progress=False)
        before = db.read_bytes()
        with pytest.raises(DashboardError, match="not simulated") as caught:
            prepare_demo(db, sessions=4)
        assert "--db data/demo.duckdb" in str(caught.value)
        cleanup = remove_demo_data((db,))
        assert cleanup.kept and "not simulated" in cleanup.kept[0][1]
        assert db.read_bytes() == before

        simulated = tmp_path / "simulated" / "recurscope.duckdb"
        with open_for_writing(simulated, kind="test", upkeep=EvidenceUpkeep()) as session:
            add_synthetic_spans(session.store.connection, sessions=2)  # simulated, not the demo's
        with pytest.raises(DashboardError, match="spans the demo did not write"):
            prepare_demo(simulated, sessions=4)

        fresh = tmp_path / "other" / "recurscope.duckdb"
        spool = companions(fresh).spool
        spool.mkdir(parents=True)
        (spool / "000000000001-x.seg").write_bytes(b"RSSPOOL1")
        with pytest.raises(DashboardError, match="spool"):
            prepare_demo(fresh, sessions=4)

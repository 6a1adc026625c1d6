"""The demo data generator: real instrumentation spans that ingest cleanly and fill every page."""

from __future__ import annotations

import json
import logging
from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pytest

from recurscope.dashboards.demo_data import DemoData, write_demo_spans
from recurscope.instrumentation import semconv as sc
from recurscope.pipeline import Store, ingest
from recurscope.pipeline.evidence.models import refresh


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoData:
    """The default demo (seed 7, 160 sessions), as `recurscope demo` writes it."""
    return write_demo_spans(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def demo_store(
    demo: DemoData, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[duckdb.DuckDBPyConnection]:
    """The default demo ingested into a fresh DuckDB store and fully refreshed."""
    db = tmp_path_factory.mktemp("store") / "demo.duckdb"
    with Store.open(db) as store:
        report = ingest(list(demo.files), store, progress=False, workers=0)
        assert report.failed == ()
        assert report.rows_quarantined == 0
        assert report.spans_accepted == demo.spans
        refresh(store.connection, full=True)
        yield store.connection


def scalar(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    row = con.execute(sql).fetchone()
    assert row is not None
    return row[0]


def values(con: duckdb.DuckDBPyConnection, sql: str) -> set[Any]:
    return {row[0] for row in con.execute(sql).fetchall()}


@pytest.mark.slow
class TestDemoData:
    def test_the_result_describes_the_files(self, demo: DemoData) -> None:
        """One file per run, every one non-empty, and counts that meet the evidence window."""
        assert len(demo.files) == demo.runs >= 24
        assert all(path.stat().st_size > 0 for path in demo.files)
        assert demo.sessions == 160
        assert demo.days == 5
        assert demo.seeds >= 6
        assert demo.spans > 1000

    def test_every_line_is_an_otlp_document_as_the_exporter_writes_it(self, demo: DemoData) -> None:
        """Lines are compact OTLP JSON whose resource says the run is simulated."""
        for path in demo.files:
            for line in path.read_text(encoding="utf-8").splitlines():
                document = json.loads(line)
                assert json.dumps(document, separators=(",", ":")) == line
                for resource_spans in document["resourceSpans"]:
                    resource = {
                        a["key"]: a["value"] for a in resource_spans["resource"]["attributes"]
                    }
                    assert resource[sc.ORIGIN] == {"stringValue": "simulated"}
                    assert "intValue" in resource[sc.SEED]


@pytest.mark.slow
class TestEvidenceFromTheDemo:
    def test_coverage_meets_the_window_gates(self, demo_store: duckdb.DuckDBPyConnection) -> None:
        """Sessions spread over 5 days before 2026-11-28, 24+ runs, 6+ seeds, 160 sessions."""
        con = demo_store
        days = values(con, "SELECT DISTINCT day FROM calls")
        assert len(days) >= 5
        assert max(days) < date(2026, 11, 28)
        assert scalar(con, "SELECT count(DISTINCT run_id) FROM calls") >= 24
        assert scalar(con, "SELECT count(DISTINCT seed) FROM calls") >= 6
        assert scalar(con, "SELECT count(*) FROM sessions") == 160
        assert values(con, "SELECT DISTINCT service_name FROM calls") == {
            "demo-support-agent",
            "demo-research-agent",
        }
        assert len(values(con, "SELECT DISTINCT service_version FROM calls")) == 2

    def test_every_span_is_marked_simulated(self, demo_store: duckdb.DuckDBPyConnection) -> None:
        """Every stored span's resource has recurscope.origin = simulated."""
        origins = values(
            demo_store, "SELECT DISTINCT ResourceAttributes['recurscope.origin'] FROM otel_traces"
        )
        assert origins == {"simulated"}

    def test_prompt_versions_models_and_roles_vary(
        self, demo_store: duckdb.DuckDBPyConnection
    ) -> None:
        """Both prompt versions, two models and at least four roles appear."""
        con = demo_store
        assert values(con, "SELECT DISTINCT prompt_version FROM calls") == {"v1", "v2"}
        assert len(values(con, "SELECT DISTINCT model FROM calls")) == 2
        assert len(values(con, "SELECT DISTINCT role FROM calls")) >= 4

    def test_trims_cover_phases_strategies_and_compaction(
        self, demo_store: duckdb.DuckDBPyConnection
    ) -> None:
        """Plannings fit, trim before the boundary and overflow the goal, under three strategies."""
        con = demo_store
        phases = values(con, "SELECT DISTINCT phase FROM trims")
        assert len(phases) >= 3
        assert {"fits", "pre_boundary", "goal_overflow"} <= phases
        assert len(values(con, "SELECT DISTINCT strategy FROM trims")) >= 3
        assert scalar(con, "SELECT count(*) FROM trims WHERE compaction_used") > 0
        assert scalar(con, "SELECT count(*) FROM trims WHERE compaction_failed") > 0

    def test_boundary_shifts_have_several_reasons(
        self, demo_store: duckdb.DuckDBPyConnection
    ) -> None:
        """First needs, new goals, same-task re-emits and returns to an earlier goal occur."""
        reasons = values(demo_store, "SELECT DISTINCT reason FROM boundary_shifts")
        assert len(reasons) >= 3
        assert {"first_need", "new_goal", "same_task_reemit", "resumed_goal"} <= reasons

    def test_delegations_go_to_the_same_and_to_other_roles(
        self, demo_store: duckdb.DuckDBPyConnection
    ) -> None:
        """Delegations are same-role and other-role, of both kinds, nested up to depth 3."""
        con = demo_store
        assert values(con, "SELECT DISTINCT same_role FROM delegations") == {True, False}
        assert values(con, "SELECT DISTINCT kind FROM delegations") == {"delegate", "agent_for"}
        assert scalar(con, "SELECT max(depth) FROM delegations") == 3
        assert scalar(con, "SELECT count(*) FROM delegations WHERE parent_status = 'missing'") == 0

    def test_code_recurs_and_examples_are_captured(
        self, demo_store: duckdb.DuckDBPyConnection
    ) -> None:
        """Some fingerprints recur in 5+ sessions, some do not; some clusters show code."""
        con = demo_store
        assert scalar(con, "SELECT max(sessions) FROM code_clusters") >= 5
        assert scalar(con, "SELECT min(sessions) FROM code_clusters") < 5
        assert scalar(con, "SELECT count(*) FROM code_clusters WHERE example_code IS NOT NULL") > 0
        assert values(con, "SELECT DISTINCT contextview_shaped FROM calls") == {True, False}
        assert values(con, "SELECT DISTINCT reads_history FROM calls") == {True, False}

    def test_some_generated_programs_fail(self, demo_store: duckdb.DuckDBPyConnection) -> None:
        """Programs that raise are recorded as failed calls, and most calls succeed."""
        statuses = Counter(
            dict(
                demo_store.execute(
                    "SELECT outcome_status, count(*) FROM calls GROUP BY 1"
                ).fetchall()
            )
        )
        assert 0 < statuses["error"] < statuses["ok"]

    def test_sessions_vary_in_length(self, demo_store: duckdb.DuckDBPyConnection) -> None:
        """Sessions run between 3 and 14 turns (one trim planning per turn)."""
        lengths = values(demo_store, "SELECT count(*) FROM trims GROUP BY session_id")
        assert min(lengths) == 3 and max(lengths) == 14


# --------------------------------------------------------------------------
# Determinism


def _value(v: dict[str, Any]) -> Any:
    if "arrayValue" in v:
        return tuple(_value(x) for x in v["arrayValue"].get("values", []))
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in v:
            return v[key]
    return int(v["intValue"]) if "intValue" in v else None


def _fingerprint(data: DemoData) -> Counter[tuple[Any, ...]]:
    """Every span as (session, session start, rank in session, name, attributes, resource,
    status, event names): span/trace ids and in-session wall-clock durations (span
    durations, ``recurscope.history.read_age`` and ``read_tokens``) left out."""
    by_session: dict[str, list[tuple[int, tuple[Any, ...]]]] = defaultdict(list)
    for path in data.files:
        for line in path.read_text(encoding="utf-8").splitlines():
            for rs in json.loads(line)["resourceSpans"]:
                resource = tuple(
                    sorted(
                        (a["key"], _value(a["value"]))
                        for a in rs["resource"]["attributes"]
                        if not a["key"].startswith("telemetry.sdk.")
                    )
                )
                for ss in rs["scopeSpans"]:
                    for span in ss["spans"]:
                        attrs = tuple(
                            sorted(
                                (a["key"], _value(a["value"]))
                                for a in span["attributes"]
                                # measured on the wall clock, like durations: seconds,
                                # and tokens of records whose JSON holds their timestamps
                                if a["key"] not in (sc.HISTORY_READ_AGE, sc.HISTORY_READ_TOKENS)
                            )
                        )
                        session = dict(attrs)[sc.GEN_AI_CONVERSATION_ID]
                        events = tuple(e["name"] for e in span.get("events", []))
                        status = span.get("status", {}).get("code")
                        body = (span["name"], attrs, resource, status, events)
                        by_session[session].append((int(span["startTimeUnixNano"]), body))
    spans: Counter[tuple[Any, ...]] = Counter()
    for session, rows in by_session.items():
        rows.sort(key=lambda row: (row[0], repr(row[1])))
        start = rows[0][0]
        for rank, (_, body) in enumerate(rows):
            spans[(session, start, rank, *body)] += 1
    return spans


class TestDeterminism:
    def test_the_same_seed_gives_the_same_spans(
        self,
        tmp_path: Path,
        capfd: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        """Two runs with one seed write the same spans at the same times, and print nothing."""
        caplog.set_level(logging.DEBUG)
        first = write_demo_spans(tmp_path / "a", seed=3, sessions=30)
        second = write_demo_spans(tmp_path / "b", seed=3, sessions=30)
        assert first.spans == second.spans
        assert _fingerprint(first) == _fingerprint(second)
        assert capfd.readouterr() == ("", "")
        assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []

    def test_another_seed_gives_other_spans(self, tmp_path: Path) -> None:
        """A different seed changes the sessions, not just the ids."""
        one = _fingerprint(write_demo_spans(tmp_path / "a", seed=3, sessions=30))
        other = _fingerprint(write_demo_spans(tmp_path / "b", seed=4, sessions=30))
        assert one != other

    def test_rewriting_replaces_earlier_files(self, tmp_path: Path) -> None:
        """Writing into a folder replaces an earlier demo instead of appending to or mixing with it."""
        first = write_demo_spans(tmp_path, seed=3, sessions=24)
        before = _fingerprint(first)
        again = write_demo_spans(tmp_path, seed=3, sessions=24)
        assert first.files == again.files
        assert _fingerprint(again) == before
        assert sum(before.values()) == again.spans
        smaller = write_demo_spans(tmp_path, seed=3, sessions=4)
        assert sorted(tmp_path.iterdir()) == sorted(smaller.files)

    def test_small_demos_have_one_session_per_run(self, tmp_path: Path) -> None:
        """Below 24 sessions each session is its own run; zero sessions is refused."""
        data = write_demo_spans(tmp_path, sessions=4)
        assert (data.sessions, data.runs, data.seeds) == (4, 4, 4)
        with pytest.raises(ValueError, match="sessions"):
            write_demo_spans(tmp_path, sessions=0)

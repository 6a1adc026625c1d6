"""Replayed spans never count toward a verdict; compare reads them (`--by strategy`)."""

from __future__ import annotations

import duckdb

from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.testing import create_otel_traces_table, insert_span_specs
from recurscope.pipeline.verdict.compare import compare
from recurscope.pipeline.verdict.report import build_report
from recurscope.pipeline.verdict.rule import default_preregistration_path


def _store() -> duckdb.DuckDBPyConnection:
    specs: list[dict[str, object]] = []
    for origin, sessions in (("observed", 3), ("simulated", 4), ("replayed", 5)):
        for n in range(sessions):
            resource = {} if origin == "observed" else {"recurscope.origin": origin}
            session = f"{origin}-{n}"
            specs.append(
                {"kind": "call", "span": f"{session}-c", "session": session, "trace": session,
                 "history_size": 3, "accessed": True, "resource": resource, "at": n * 60}
            )  # fmt: skip
            specs.append(
                {"kind": "trim", "span": f"{session}-t", "parent": f"{session}-c",
                 "session": session, "trace": session, "resource": resource,
                 "strategy": ["drop_oldest", "goal_aware"][n % 2], "trimmed": n % 2 == 0,
                 "at": n * 60 + 1}
            )  # fmt: skip
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_span_specs(con, specs)
    evidence.refresh(con, full=True)
    return con


def test_the_verdict_reads_observed_then_simulated_but_never_replayed() -> None:
    con = _store()
    prereg = default_preregistration_path()
    observed = build_report(con, prereg, detector_quality_path=None)
    assert observed.window.sessions == 3
    assert observed.scope.excluded_spans == {"replayed": 10, "simulated": 8}
    with_simulated = build_report(con, prereg, detector_quality_path=None, include_simulated=True)
    assert with_simulated.window.sessions == 3 + 4
    assert with_simulated.scope.excluded_spans == {"replayed": 10}
    text = with_simulated.to_markdown()
    assert "Replayed spans never count toward a verdict" in text


def test_compare_by_strategy_reads_replayed_spans() -> None:
    con = _store()
    comparison = compare(
        con,
        "strategy",
        preregistration_path=default_preregistration_path(),
        include_simulated=True,
    )
    sessions = comparison.sessions_a + comparison.sessions_b
    assert sessions == 3 + 4 + 5

"""History needs: which record fields code reads and how far back (design record questions 1, 2)."""

from __future__ import annotations

import math

import duckdb
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence.views import EvidenceView
from recurscope.pipeline.testing import create_otel_traces_table, insert_span_specs
from recurscope.pipeline.verdict.document import Report
from recurscope.pipeline.verdict.history_needs import OUTCOME_KEYS, V1_FIELDS, history_needs
from recurscope.pipeline.verdict.report import build_report
from recurscope.pipeline.verdict.rule import default_preregistration_path


def _store(specs: list[dict[str, object]]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_span_specs(con, specs)
    evidence.refresh(con, full=True)
    return con


def _call(n: int, **extra: object) -> dict[str, object]:
    spec: dict[str, object] = {
        "kind": "call",
        "span": f"c{n}",
        "call_id": f"c{n}",
        "session": f"s{n % 3}",
        "history_size": 20,
        "accessed": True,
        "at": n * 60,
    }
    spec.update(extra)
    return spec


def nearest_rank(values: list[float], q: float) -> float:
    """The smallest value with at least share q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def test_field_shares_count_calls_with_fields_known_and_list_v1_fields_never_read() -> None:
    con = _store(
        [
            _call(0, fields_read=["speaker", "outcome_summary", "outcome_summary.ok"], role="a"),
            _call(1, fields_read=["speaker"], role="a"),
            _call(2, fields_read=["method_name", "speaker"], role="b"),
            _call(3, role="b"),  # fields unknown: not in the denominator
            _call(4, accessed=False, fields_read=["args"]),  # did not read history
        ]
    )
    with EvidenceView(con) as view:
        info = history_needs(view)
    shares = {row.field: (row.calls, row.share) for row in info.fields}
    assert info.reading_calls == 4 and info.calls_with_fields == 3
    assert shares["speaker"] == (3, 1.0)
    assert shares["outcome_summary.ok"] == (1, 1 / 3)
    assert shares["args"] == (0, 0.0)
    assert [row.field for row in info.fields][: len(V1_FIELDS) + len(OUTCOME_KEYS)] == [
        *V1_FIELDS,
        *OUTCOME_KEYS,
    ]
    assert "args" in info.never_read and "speaker" not in info.never_read
    by_role = {(g.group, g.field): (g.calls, g.group_calls) for g in info.by_group}
    assert by_role[("a", "speaker")] == (2, 2) and by_role[("b", "method_name")] == (1, 1)


def test_depth_quantiles_are_nearest_rank_and_sources_are_counted() -> None:
    depths = [1, 1, 2, 3, 5, 8, 13, 20, 20, 4]
    specs = [
        _call(n, read_depth=d, read_age=10.0 * d, read_tokens=100 * d) for n, d in enumerate(depths)
    ]
    specs.append(_call(20, static_depth=3))  # static only: in records, not seconds/tokens
    specs.append(_call(21))  # unknown depth
    con = _store(specs)
    with EvidenceView(con) as view:
        info = history_needs(view)
    rows = {row.unit: row for row in info.depth}
    records = [*map(float, depths), 3.0]
    assert rows["records"].calls == 11
    assert rows["records"].median == nearest_rank(records, 0.5)
    assert rows["records"].p90 == nearest_rank(records, 0.9)
    assert rows["records"].p99 == 20 and rows["records"].max == 20
    assert rows["seconds"].calls == 10 and rows["seconds"].median == 10 * nearest_rank(
        [float(d) for d in depths], 0.5
    )
    assert (info.depth_runtime, info.depth_static, info.depth_unknown) == (10, 1, 1)
    assert info.reached_oldest == 2  # the two reads of all 20 records


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=500), min_size=1, max_size=60))
def test_sql_quantiles_equal_the_nearest_rank_reference(depths: list[int]) -> None:
    con = _store([_call(n, history_size=500, read_depth=d) for n, d in enumerate(depths)])
    with EvidenceView(con) as view:
        row = next(r for r in history_needs(view).depth if r.unit == "records")
    values = [float(d) for d in depths]
    assert (row.median, row.p90, row.p99, row.max) == (
        nearest_rank(values, 0.5),
        nearest_rank(values, 0.9),
        nearest_rank(values, 0.99),
        max(values),
    )


def test_the_report_carries_a_pasteable_section_and_survives_json() -> None:
    hostile = "<b>x|y` ![i](http://e.invalid/i.png)"
    con = _store(
        [
            _call(0, fields_read=["speaker", hostile], role=hostile, read_depth=2),
            _call(1, fields_read=["timestamp"], read_depth=5, read_age=90.0, read_tokens=300),
        ]
    )
    report = build_report(con, default_preregistration_path(), detector_quality_path=None)
    assert Report.from_json(report.to_json()) == report
    md = report.to_markdown()
    section = md[md.index("## History needs") : md.index("## Method")]
    assert "### 1. Which history fields" in section and "### 2. How far back" in section
    assert "99% of reads fall within the last 5 records" in section
    for line in section.splitlines():
        if line.startswith("|"):
            # every table row keeps its column count: no span text breaks a cell
            assert line.replace("\\|", "").count("|") in (6, 8, 7), line
    assert "<b>" not in section.replace("`<b>", "")  # names only inside code spans


def test_no_fields_and_no_depth_say_so() -> None:
    con = _store([_call(0)])
    report = build_report(con, default_preregistration_path(), detector_quality_path=None)
    md = report.to_markdown()
    assert "records the fields it reads" in md and "has a known read depth" in md


def test_reads_are_counted_per_retention_policy_with_eviction_hits() -> None:
    """A count retention that evicted before a read of everything held: one hit, under count."""
    con = _store(
        [
            _call(0, session="a", retention="count", history_size=5, read_depth=2, evicted=3),
            _call(1, session="a", retention="count", history_size=5, read_depth=5),
            _call(2, session="b", retention="none", history_size=9, read_depth=9),
        ]
    )
    with EvidenceView(con) as view:
        info = history_needs(view)
    rows = {r.retention: r for r in info.retention}
    assert (rows["count"].calls, rows["count"].reached_oldest, rows["count"].hit_eviction) == (
        2,
        1,
        1,
    )
    assert rows["count"].depth_p99 == 5
    assert (rows["none"].reached_oldest, rows["none"].hit_eviction) == (1, 0)
    assert info.hit_eviction == 1 and info.evicting_sessions == 1

"""SQL tested as data: each tests/sql_cases/*.yaml gives spans and expected table rows.

A case file holds ``description``, optional ``params`` (``min_other_sessions``),
``spans`` (compact descriptions expanded by ``expand_span``) and one
or more ``expect`` blocks: ``table``, ``columns``, optional ``where`` and
``order_by``, and ``rows`` (lists in column order). One parametrized test
runs every case in a fresh in-memory DuckDB through the real refresh.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.testing import create_otel_traces_table, insert_span_specs

CASES_DIR = Path(__file__).with_name("sql_cases")
CASES = sorted(CASES_DIR.glob("*.yaml"))


def _normalize(value: Any) -> Any:
    """Compare like with like: dates as ISO text, decimals as floats, tuples as lists."""
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_normalize(v) for v in value]
    return value


def _same(actual: Any, expected: Any) -> bool:
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        return math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(actual) == len(expected) and all(
            _same(a, e) for a, e in zip(actual, expected, strict=True)
        )
    return bool(actual == expected)


def _load(path: Path) -> dict[str, Any]:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(case, dict), f"{path.name}: a case is a mapping"
    assert case.get("description"), f"{path.name}: say in one sentence what the case pins"
    return case


@pytest.mark.parametrize("case_path", CASES, ids=[p.stem for p in CASES])
def test_sql_case(case_path: Path) -> None:
    """Each case's spans, refreshed into evidence, give exactly the expected rows."""
    case = _load(case_path)
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_span_specs(con, case.get("spans") or [])
    params = case.get("params") or {}
    evidence.refresh(con, min_other_sessions=params.get("min_other_sessions", 4))
    expectations = case["expect"] if isinstance(case["expect"], list) else [case["expect"]]
    for expect in expectations:
        columns = expect["columns"]
        sql = f"SELECT {', '.join(columns)} FROM {expect['table']}"
        if expect.get("where"):
            sql += f" WHERE {expect['where']}"
        sql += f" ORDER BY {expect.get('order_by') or ', '.join(columns)}"
        actual = [_normalize(list(row)) for row in con.execute(sql).fetchall()]
        wanted = [_normalize(list(row)) for row in expect["rows"]]
        assert len(actual) == len(wanted) and all(
            _same(a, w) for a, w in zip(actual, wanted, strict=True)
        ), (
            f"{case_path.name}: {expect['table']} ({', '.join(columns)})\n"
            f"expected {wanted}\nactual   {actual}"
        )


def test_every_case_file_is_collected() -> None:
    """The case folder is not empty, so a misplaced folder cannot silently pass."""
    assert len(CASES) >= 8

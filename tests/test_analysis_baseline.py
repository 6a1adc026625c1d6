"""The runtime's own regex detector, kept as the baseline to compare against."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recurscope.instrumentation.analysis import baseline_analysis

REPO = Path(__file__).resolve().parents[1]


def _reference_dir() -> Path | None:
    for candidate in (
        os.environ.get("RECURSCOPE_REFERENCE_DIR"),
        REPO.parent / "shared" / "reference",
        "/work/shared/reference",
    ):
        if candidate and (Path(candidate) / "recurgent" / "logs").is_dir():
            return Path(candidate)
    return None


def test_access_is_the_name_anywhere() -> None:
    """The baseline calls any mention of conversation_history access, comments included."""
    assert baseline_analysis("# conversation_history\nx = 1") == (True, frozenset())
    assert baseline_analysis("x = 1") == (False, frozenset())


def test_ops_are_regexes_over_the_whole_program() -> None:
    """Ops match anywhere in the program once the name appears, whatever data they touch."""
    code = "h = context[:conversation_history]\norders.select { |o| o }.map(&:x).size\nh[0..2]"
    accessed, ops = baseline_analysis(code)
    assert accessed
    assert ops == {"filter", "map", "count", "slice"}
    assert baseline_analysis("x.group_by(&:y) # conversation_history")[1] == {"group"}


def test_ops_need_access() -> None:
    """Without the name the baseline reports no ops, as the runtime did."""
    assert baseline_analysis("orders.select { |o| o }.size") == (False, frozenset())


def test_non_string_input() -> None:
    """Non-str code is simply not accessed."""
    assert baseline_analysis(None) == (False, frozenset())  # type: ignore[arg-type]


def test_baseline_reproduces_the_runtime_logs() -> None:
    """On the real Recurgent logs the baseline gives exactly the logged verdicts."""
    reference = _reference_dir()
    if reference is None:
        pytest.skip("reference logs absent (set RECURSCOPE_REFERENCE_DIR)")
    checked = 0
    for path in sorted((reference / "recurgent" / "logs").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("code") is None or "history_access_detected" not in record:
                continue
            accessed, ops = baseline_analysis(record["code"])
            assert accessed == record["history_access_detected"]
            assert ops == set(record["history_query_patterns"])
            checked += 1
    assert checked >= 70

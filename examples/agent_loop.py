"""A minimal agent loop instrumented with recurscope, end to end.

The "model" is scripted (no network): each turn it writes a small Python
program, the way a code-writing agent runtime's model does. The loop uses
every part of ``recurscope.instrumentation``:

- a structured :class:`History` with retention, handed to the generated code
  as an observed read-only view (``conversation_history`` and
  ``context["conversation_history"]``);
- one call span per program, with runtime and static access evidence;
- a delegation from generated code (``delegate("calculator", ...)``, same role);
- a goal switch recorded with the need tracker (boundary shifts);
- a goal-aware trim of the model's context every turn (token budget);
- a session span, so each session is one trace in backends such as Phoenix.

Spans go to an OTLP JSON lines file that ``recurscope ingest`` reads::

    python examples/agent_loop.py --out data/spans.jsonl --sessions 3
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from recurscope.instrumentation import History, Recorder, Retention, configure

SYSTEM = "You are a calculator agent. Write Python; conversation_history holds earlier calls."

# (need or None, user message, method, args, generated program)
SCRIPT: list[tuple[str | None, str, str, list[Any], str]] = [
    (
        "keep a running total of the numbers I give you",
        "Add 5 to the total.",
        "add",
        [5],
        "total = context.get('total', 0) + args[0]\ncontext['total'] = total\nresult = total",
    ),
    (
        None,
        "Now add 12.",
        "add",
        [12],
        "total = context.get('total', 0) + args[0]\ncontext['total'] = total\nresult = total",
    ),
    (
        None,
        "What did I ask so far? Show the last three calls.",
        "recap",
        [],
        textwrap.dedent(
            """\
            recent = conversation_history[-3:]
            result = [f"{r['method_name']}({r['args']})" for r in recent]
            """
        ),
    ),
    (
        None,
        "Which of my calls failed, and which mention 'add'?",
        "audit",
        [],
        textwrap.dedent(
            """\
            h = context["conversation_history"]
            failed, fine = [], []
            for rec in h:
                (fine if rec["outcome_summary"].get("ok") else failed).append(rec["call_id"])
            adds = [r["call_id"] for r in h if "add" in r["method_name"]]
            result = {"failed": failed, "ok": len(fine), "mentions_add": adds}
            """
        ),
    ),
    (
        "switch: compute square roots of the total instead",
        "Forget the running total; give me the square root of 144 via a helper.",
        "sqrt_total",
        [144],
        textwrap.dedent(
            """\
            root = delegate("calculator", "sqrt", args[0])
            result = root
            """
        ),
    ),
    (
        None,
        "Summarize everything we did as one line.",
        "summary",
        [],
        textwrap.dedent(
            """\
            lines = "; ".join(f"{r['method_name']} -> {r['outcome_summary'].get('value')}"
                              for r in conversation_history)
            result = lines
            """
        ),
    ),
]

SUB_PROGRAMS = {"sqrt": "result = args[0] ** 0.5"}


def run_program(
    code: str, view: Any, args: list[Any], state: dict[str, Any], delegate: Callable[..., Any]
) -> Any:
    """Execute generated code the way a code-writing runtime does."""
    context: dict[str, Any] = dict(state)
    context["conversation_history"] = view
    scope: dict[str, Any] = {
        "context": context,
        "conversation_history": view,
        "args": args,
        "delegate": delegate,
    }
    exec(compile(code, "<generated>", "exec"), scope)
    state.update({k: v for k, v in context.items() if k != "conversation_history"})
    return scope.get("result")


def run_session(recorder: Recorder, budget: int) -> list[dict[str, Any]]:
    history = recorder.history
    orientation = [{"role": "system", "content": SYSTEM}]
    messages: list[dict[str, Any]] = []
    state: dict[str, Any] = {}

    def delegate(role: str, method: str, *args: Any) -> Any:
        with recorder.call(
            method,
            role=role,
            code=SUB_PROGRAMS[method],
            args=list(args),
            delegation_kind="delegate",
        ) as child:
            value = run_program(SUB_PROGRAMS[method], child.view, list(args), {}, delegate)
            history.append(
                child.to_record(
                    outcome_summary={"ok": True, "value": value}, speaker="tool", args=list(args)
                )
            )
            return value

    log = []
    for need, user, method, args, code in SCRIPT:
        if need is not None:
            recorder.record_need(need, messages)
        messages.append({"role": "user", "content": user})
        plan = recorder.plan_trim(messages, orientation=orientation, budget=budget)
        seen_by_model = plan.apply(messages, orientation)
        with recorder.call(method, role="calculator", code=code, args=args) as call:
            try:
                value = run_program(code, call.view, args, state, delegate)
                outcome = {"ok": True, "value": value}
            except Exception as exc:  # generated code fails sometimes; the loop goes on
                outcome = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            history.append(call.to_record(outcome_summary=outcome, args=args))
        messages.append({"role": "assistant", "content": f"```python\n{code}```"})
        messages.append({"role": "tool", "content": json.dumps(outcome, default=str) * 4})
        log.append(
            {
                "method": method,
                "phase": plan.phase,
                "context_messages": len(seen_by_model),
                "outcome": outcome,
            }
        )
    return log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", default="data/spans.jsonl", help="OTLP JSON lines file to append to"
    )
    parser.add_argument("--sessions", type=int, default=3, help="sessions to run")
    parser.add_argument("--budget", type=int, default=260, help="context budget in tokens")
    options = parser.parse_args(argv)

    telemetry = configure("file", path=options.out, service_name="recurscope-example")
    try:
        for n in range(options.sessions):
            session = f"example-{uuid.uuid4().hex[:8]}"
            recorder = Recorder(
                session,
                prompt_version="example-v1",
                history=History(retention=Retention(max_records=50)),
                tracer_provider=telemetry.tracer_provider,
            )
            # One trace per session; the block ends (and exports) the session span.
            with recorder.session():
                log = run_session(recorder, options.budget + 40 * n)
            phases = ", ".join(f"{entry['method']}:{entry['phase']}" for entry in log)
            print(f"session {session}: {len(log)} turns ({phases})")
    finally:
        telemetry.shutdown()
    size = Path(options.out).stat().st_size
    print(f"spans written to {options.out} ({size} bytes, run {telemetry.run_id})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

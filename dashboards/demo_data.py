"""Demo spans for ``recurscope demo``: simulated agent traffic recorded by the real instrumentation.

:func:`write_demo_spans` runs a scripted multi-agent runtime — no model, no
network — through :mod:`recurscope.instrumentation` and writes what it
records as OTLP JSON lines, one file per run, that ``recurscope ingest``
reads. Nothing here builds a span by hand: every span comes from a
:class:`~recurscope.instrumentation.Recorder` —

- calls whose generated Python programs really run (``exec``) against the
  observed history view, from a library of programs (simple access,
  ContextView-shaped grep/partition/group/summarize, programs that never read
  history, some re-spelled with other names so their fingerprint recurs, some
  that raise and are recorded as failed calls);
- delegations from those programs (``delegate(role, ...)`` and
  ``agent_for(role).method(...)``), to the caller's own role or another one,
  nested up to depth 3;
- a trim planning every turn (``goal_aware``, ``head_tail`` or
  ``drop_oldest``; some runs compact with a summarizer that sometimes fails)
  under token budgets from roomy to tight;
- needs recorded with the need tracker: first needs, new goals, same-task
  re-emits, returns to an earlier goal, the odd escalation.

Contract:

- **Simulated, and says so.** Every run's resource carries
  ``recurscope.origin = "simulated"``, its own ``recurscope.seed`` (an int
  derived from ``seed``: ``seed * 1000 + run index``; the run's generator is
  seeded with it), ``service.version`` and a distinct ``service.instance.id``.
- **Deterministic.** Everything but span and trace ids is a function of
  ``seed`` and ``sessions``: every choice comes from ``random.Random``
  generators derived from ``seed``, and span times are rewritten after the
  runs (below). Ingest into a fresh store: the ids are new on every call.
- **Placed in time.** Sessions fall on the :data:`DEMO_DAYS` calendar days
  (UTC) before :data:`DEMO_END_DATE`, never "now". Each session's spans are
  shifted by one offset so the session starts at its assigned time and keeps
  its internal durations and order (spans without a ``gen_ai.conversation.id``,
  none expected, take their run's offset). The files are otherwise exactly
  as the exporter wrote them.
- **Quiet.** Nothing is printed; generated code that raises is caught and
  recorded as a failed call, as a runtime would.

``out_dir`` is created if needed; ``demo-run-*.jsonl`` files already in it
(an earlier demo) are removed first, so the folder holds exactly one demo.

:func:`write_demo_replay` adds *replayed* sessions beside them: the shipped
sample conversations (``data/replay-samples/``) replayed through every trim
strategy, with and without compaction (``recurscope replay``'s own code, so
each span's resource says ``recurscope.origin = "replayed"``), placed on the
same days. The dashboard's Compare page then compares strategies on real
conversations; the verdict never counts them.
"""

from __future__ import annotations

import json
import math
import os
import random
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Final

from opentelemetry.trace import TracerProvider

from recurscope.instrumentation import (
    History,
    Recorder,
    Retention,
    configure,
    current_call,
)
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.trim import Strategy, Summarizer

__all__ = [
    "DEMO_DAYS",
    "DEMO_END_DATE",
    "DEMO_REPLAY_BUDGET",
    "MIN_RUNS",
    "REPLAY_SAMPLES",
    "DemoData",
    "DemoReplay",
    "write_demo_replay",
    "write_demo_spans",
]

DEMO_END_DATE: Final = date(2026, 11, 28)
"""Sessions fall on the days before this UTC date (exclusive), so the output is reproducible."""

DEMO_DAYS: Final = 5
"""Calendar days the sessions are spread over."""

TIME_STRETCH: Final = 1000
"""Factor applied to times within a session.

The scripted model answers in microseconds; stretched a thousandfold, a call
that took 5 ms of CPU lasts 5 s and a session a few minutes, as with a real
model. Order and nesting are unchanged.
"""

MIN_RUNS: Final = 24
"""Runs written when there are at least this many sessions (about six sessions a run beyond)."""

MAX_DEPTH: Final = 3
"""Delegation depth the simulated runtime allows; a deeper delegation raises in the program."""

SERVICES: Final = ("demo-support-agent", "demo-research-agent")
SERVICE_VERSIONS: Final = ("1.4.2", "1.5.0")
PROMPT_VERSIONS: Final = ("v1", "v2")
MODELS: Final = ("demo-model-large", "demo-model-small")
STRATEGIES: Final[tuple[Strategy, ...]] = ("goal_aware", "head_tail", "drop_oldest")
ORIGIN_SIMULATED: Final = "simulated"


@dataclass(frozen=True)
class DemoData:
    """What :func:`write_demo_spans` wrote.

    Fields:
        files: the OTLP JSON lines files, one per run, in run order.
        sessions: sessions simulated (each a distinct ``gen_ai.conversation.id``).
        runs: runs (distinct ``service.instance.id``); ``len(files) == runs``.
        days: distinct UTC calendar days the sessions start on (<= :data:`DEMO_DAYS`).
        seeds: distinct ``recurscope.seed`` values (one per run).
        spans: spans written over all files.

    Invariants: ``runs == len(files) == seeds``; ``runs <= sessions``;
    ``runs >= MIN_RUNS`` when ``sessions >= MIN_RUNS``.
    """

    files: tuple[Path, ...]
    sessions: int
    runs: int
    days: int
    seeds: int
    spans: int


# --------------------------------------------------------------------------
# The generated programs: what the scripted "model" writes.

ArgsMaker = Callable[[random.Random], list[Any]]


def _no_args(rng: random.Random) -> list[Any]:
    return []


@dataclass(frozen=True)
class _Program:
    """One program: the method it implements, its spellings and its arguments.

    Spellings differ only in names and literals, so they share one fingerprint.
    A program with ``compose`` instead writes new code each time (one-off shapes).
    """

    method: str
    spellings: tuple[str, ...]
    make_args: ArgsMaker = _no_args
    reads_history: bool = True
    compose: Callable[[random.Random], str] | None = None

    def code(self, rng: random.Random) -> str:
        """The text the model writes this time."""
        return self.compose(rng) if self.compose is not None else rng.choice(self.spellings)


_TAIL = _Program(
    "recap",
    (
        'recent = conversation_history[-3:]\nresult = [r["method_name"] for r in recent]\n',
        'h = context["conversation_history"]\nlast_calls = h[-5:]\n'
        'result = [rec["method_name"] for rec in last_calls]\n',
        'window = conversation_history[-4:]\nresult = [entry["method_name"] for entry in window]\n',
    ),
)
_LAST = _Program(
    "last_step",
    (
        'last = conversation_history[-1]\nresult = last["method_name"]\n',
        'prev = context["conversation_history"][-1]\nresult = prev["method_name"]\n',
    ),
)
_LAST_TYPO = _Program("last_step", ('result = conversation_history[-1]["method"]\n',))
_COUNT = _Program(
    "count_steps",
    (
        "result = len(conversation_history)\n",
        'n = len(context["conversation_history"])\nresult = n\n',
    ),
)
_MAP = _Program("list_steps", ('result = [rec["method_name"] for rec in conversation_history]\n',))
_FIRST = _Program(
    "original_ask", ('first = conversation_history[0]\nresult = list(first["args"])\n',)
)
_SORT = _Program(
    "deepest_call",
    (
        'ordered = sorted(conversation_history, key=lambda r: r["depth"] or 0)\n'
        'result = ordered[-1]["call_id"]\n',
    ),
)
_FIND = _Program(
    "last_failure",
    (
        'result = next((r["call_id"] for r in reversed(conversation_history)\n'
        '               if not r["outcome_summary"].get("ok", True)), None)\n',
    ),
)
_SUM_VALUES = _Program(
    "add_results",
    ('result = sum(r["outcome_summary"]["value"] for r in conversation_history)\n',),
)
_GREP = _Program(
    "search_steps",
    (
        'hits = [r["call_id"] for r in conversation_history if "total" in r["method_name"]]\n'
        "result = hits\n",
        'h = context["conversation_history"]\n'
        'matches = [rec["call_id"] for rec in h if "refund" in rec["method_name"]]\n'
        "result = matches\n",
        'found = [m["call_id"] for m in conversation_history if "step" in m["method_name"]]\n'
        "result = found\n",
    ),
)
_GREP_ARGS = _Program(
    "search_args",
    (
        'needle = "invoice"\n'
        'hits = [r["call_id"] for r in conversation_history if needle in str(r["args"])]\n'
        "result = len(hits)\n",
    ),
)
_GREP_LOOP = _Program(
    "find_lookups",
    (
        "found = []\n"
        "for r in conversation_history:\n"
        '    if r["method_name"].startswith("look"):\n'
        '        found.append(r["call_id"])\n'
        "result = found\n",
    ),
)
_PARTITION = _Program(
    "audit",
    (
        "failed, fine = [], []\n"
        "for rec in conversation_history:\n"
        '    (fine if rec["outcome_summary"].get("ok") else failed).append(rec["call_id"])\n'
        'result = {"failed": failed, "ok": len(fine)}\n',
        'h = context["conversation_history"]\n'
        "bad, good = [], []\n"
        "for item in h:\n"
        '    (good if item["outcome_summary"].get("ok") else bad).append(item["call_id"])\n'
        'result = {"failed": bad, "ok": len(good)}\n',
    ),
)
_PARTITION_COMP = _Program(
    "split_outcomes",
    (
        'ok = [r["call_id"] for r in conversation_history if r["outcome_summary"].get("ok")]\n'
        'bad = [r["call_id"] for r in conversation_history if not r["outcome_summary"].get("ok")]\n'
        'result = {"ok": len(ok), "failed": bad}\n',
    ),
)
_GROUP = _Program(
    "speaker_stats",
    (
        "counts = {}\n"
        "for r in conversation_history:\n"
        '    counts[r["speaker"]] = counts.get(r["speaker"], 0) + 1\n'
        "result = counts\n",
        "tally = {}\n"
        'for rec in context["conversation_history"]:\n'
        '    tally[rec["speaker"]] = tally.get(rec["speaker"], 0) + 1\n'
        "result = tally\n",
    ),
)
_GROUP_COUNTER = _Program(
    "method_stats",
    (
        "from collections import Counter\n"
        'result = dict(Counter(r["method_name"] for r in conversation_history))\n',
    ),
)
_GROUP_LISTS = _Program(
    "calls_by_method",
    (
        "from collections import defaultdict\n"
        "by_method = defaultdict(list)\n"
        "for r in conversation_history:\n"
        '    by_method[r["method_name"]].append(r["call_id"])\n'
        "result = {k: len(v) for k, v in by_method.items()}\n",
    ),
)
_SUMMARY = _Program(
    "summary",
    (
        "result = \"; \".join(f\"{r['method_name']} -> {r['outcome_summary'].get('value')}\"\n"
        "                     for r in conversation_history)\n",
        'h = context["conversation_history"]\n'
        "text = \" | \".join(f\"{x['method_name']} -> {x['outcome_summary'].get('value')}\" for x in h)\n"
        "result = text\n",
    ),
)
_SUMMARY_LOOP = _Program(
    "notes",
    (
        'text = ""\n'
        "for r in conversation_history[-6:]:\n"
        "    text += f\"- {r['method_name']}\\n\"\n"
        "result = text\n",
    ),
)


def _one_off_query(rng: random.Random) -> str:
    """An ad-hoc query assembled from parts: a long tail of shapes that rarely recur."""
    source = rng.choice(("conversation_history", f"conversation_history[-{rng.randint(2, 9)}:]"))
    condition = rng.choice(
        (
            "",
            f' if r["speaker"] == "{rng.choice(("user", "agent", "tool"))}"',
            ' if r["outcome_summary"].get("ok")',
            f' if "{rng.choice(("total", "recap", "lookup", "draft"))}" in r["method_name"]',
            ' if (r["depth"] or 0) > 0',
        )
    )
    field = rng.choice(("method_name", "call_id", "speaker"))
    projection = rng.choice((f'r["{field}"]', 'len(r["args"])'))
    finish = rng.choice(
        (
            "result = picked",
            "result = len(picked)",
            "result = sorted(set(picked))",
            'result = ", ".join(str(p) for p in picked)',
            "result = picked[-1] if picked else None",
        )
    )
    return f"picked = [{projection} for r in {source}{condition}]\n{finish}\n"


_ONE_OFF = _Program("adhoc_query", (), compose=_one_off_query)


def _number(rng: random.Random) -> list[Any]:
    return [rng.randint(1, 99)]


def _ratio_args(rng: random.Random) -> list[Any]:
    return [rng.randint(1, 500), rng.choice([0, 2, 3, 4, 5, 8])]


def _amount_text(rng: random.Random) -> list[Any]:
    amount = rng.randint(5, 900) / 4
    return [
        rng.choice(
            [
                json.dumps({"amount": amount}),
                json.dumps({"amount": amount, "currency": "EUR"}),
                json.dumps({"total": amount}),  # KeyError: the model guessed the field
                '{"amount": ' + str(amount),  # JSONDecodeError: truncated tool output
            ]
        )
    ]


def _words(rng: random.Random) -> list[Any]:
    return rng.sample(["order", "refund", "status", "invoice", "carrier", "draft"], 2)


def _square(rng: random.Random) -> list[Any]:
    return [rng.choice([2, 10, 16, 81, 144, 625])]


def _lookup_args(rng: random.Random) -> list[Any]:
    return [rng.choice(["recap", "audit", "summary", "lookup", "total"]), rng.randint(0, 2)]


def _plan_depth(rng: random.Random) -> list[Any]:
    return [rng.randint(1, MAX_DEPTH)]


_TOTAL = _Program(
    "running_total",
    (
        "total = context.get('total', 0) + args[0]\ncontext['total'] = total\nresult = total\n",
        "acc = context.get('sum', 0) + args[0]\ncontext['sum'] = acc\nresult = acc\n",
    ),
    _number,
    reads_history=False,
)
_RATIO = _Program("ratio", ("result = args[0] / args[1]\n",), _ratio_args, reads_history=False)
_PARSE = _Program(
    "parse_amount",
    ('import json\nresult = json.loads(args[0])["amount"]\n',),
    _amount_text,
    reads_history=False,
)
_SHOUT = _Program(
    "headline",
    ('result = " ".join(str(a).upper() for a in args)\n',),
    _words,
    reads_history=False,
)
_ASK_SQRT = _Program(
    "sqrt_helper",
    ('root = delegate("calculator", "sqrt", args[0])\nresult = root\n',),
    _square,
    reads_history=False,
)
_ASK_RESEARCHER = _Program(
    "ask_researcher",
    ('result = agent_for("researcher").lookup(args[0], args[1])\n',),
    _lookup_args,
    reads_history=False,
)
_PLAN = _Program(
    "plan",
    ('result = delegate("planner", "decompose", args[0])\n',),
    _plan_depth,
    reads_history=False,
)
_DRAFT = _Program(
    "draft_reply",
    ('draft = delegate("writer", "draft", args[0])\nresult = draft\n',),
    _plan_depth,
    reads_history=False,
)
_TALLY = _Program(
    "tally_helper",
    ('result = agent_for("calculator").tally(*args)\n',),
    lambda rng: [rng.randint(1, 40) for _ in range(rng.randint(2, 4))],
    reads_history=False,
)

# What delegated calls run: (role, method) -> program text.
_SUB_PROGRAMS: Final[dict[tuple[str, str], str]] = {
    ("calculator", "sqrt"): "result = args[0] ** 0.5\n",
    ("calculator", "tally"): "result = sum(args)\n",
    ("researcher", "lookup"): (
        "term = str(args[0])\n"
        'hits = [r["call_id"] for r in conversation_history if term in r["method_name"]]\n'
        "if not hits and args[1] > 0:\n"
        '    hits = delegate("researcher", "lookup", term[:-1] or "a", args[1] - 1)\n'
        "result = hits\n"
    ),
    ("planner", "decompose"): (
        "steps = int(args[0])\n"
        "if steps > 1:\n"
        '    result = [delegate("planner", "decompose", steps - 1),'
        ' agent_for("writer").draft(steps)]\n'
        "else:\n"
        '    result = ["step"]\n'
    ),
    ("writer", "draft"): (
        'result = " / ".join(r["method_name"] for r in conversation_history[-4:])\n'
    ),
}

# Top-level programs each lead role writes, with weights.
_POOLS: Final[dict[str, tuple[tuple[_Program, float], ...]]] = {
    "planner": (
        (_TAIL, 5),
        (_COUNT, 2),
        (_SUMMARY, 3),
        (_PARTITION, 2),
        (_PLAN, 3),
        (_ASK_RESEARCHER, 2),
        (_TOTAL, 3),
        (_LAST, 1),
        (_GROUP_LISTS, 1),
        (_ONE_OFF, 3),
    ),
    "researcher": (
        (_GREP, 5),
        (_GREP_ARGS, 1.5),
        (_GREP_LOOP, 1),
        (_FIND, 1.5),
        (_GROUP, 2),
        (_GROUP_COUNTER, 1.5),
        (_MAP, 2),
        (_ASK_RESEARCHER, 2),
        (_ASK_SQRT, 1.5),
        (_SHOUT, 1),
        (_SORT, 1),
        (_ONE_OFF, 4),
    ),
    "writer": (
        (_SUMMARY, 4),
        (_SUMMARY_LOOP, 2),
        (_TAIL, 4),
        (_FIRST, 1.5),
        (_DRAFT, 2),
        (_SHOUT, 2.5),
        (_PARTITION_COMP, 1),
        (_LAST_TYPO, 0.5),
        (_ONE_OFF, 2.5),
    ),
    "calculator": (
        (_TOTAL, 6),
        (_RATIO, 3),
        (_PARSE, 3),
        (_ASK_SQRT, 2),
        (_TALLY, 1.5),
        (_LAST, 2),
        (_SUM_VALUES, 1),
        (_COUNT, 1),
        (_ONE_OFF, 1),
    ),
}

_LEAD_ROLES: Final[dict[str, tuple[tuple[str, float], ...]]] = {
    "demo-support-agent": (("planner", 3), ("writer", 4), ("calculator", 3)),
    "demo-research-agent": (("researcher", 5), ("planner", 3), ("calculator", 2)),
}

_TASKS: Final[dict[str, tuple[str, ...]]] = {
    "demo-support-agent": (
        "refund the duplicate charge on order 4471",
        "update the shipping address for the Berlin customer",
        "explain why invoice 2209 shows a late fee",
        "cancel the premium subscription renewal",
        "reset two-factor authentication for the admin account",
        "summarize this week's escalated tickets",
        "find which warehouse shipped the damaged parcel",
        "draft an apology email about the outage",
    ),
    "demo-research-agent": (
        "compare battery chemistries for grid storage",
        "collect citations on sleep and memory consolidation",
        "estimate the market size for electric cargo bikes",
        "summarize recent results on protein folding benchmarks",
        "find datasets of urban air quality sensors",
        "check the growth rate figures in the quarterly report",
        "outline a literature review on remote work productivity",
        "tabulate rainfall anomalies for the Sahel since 2000",
    ),
}

_FOLLOW_UPS: Final = (
    "Can you check the last few steps again?",
    "Use what we already worked out.",
    "Break that down a bit further.",
    "What failed earlier, and why?",
    "Give me a short summary so far.",
    "Add those numbers up for me.",
    "Look through the earlier results for anything relevant.",
    "Ok, continue.",
    "That doesn't look right, try again.",
    "Please double-check the figures before we move on.",
)

_FILLER_TEXT = """
status ok latency ms record id field value customer order region batch total pending shipped
delayed source page citation figure table row column note draft summary result score estimate
sample window retry cache index query token
"""
_FILLER: Final = tuple(_FILLER_TEXT.split())


# --------------------------------------------------------------------------
# Plans: runs and sessions, decided up front from the master generator.


@dataclass(frozen=True)
class _RunPlan:
    index: int
    seed: int
    run_id: str
    service: str
    version: str
    strategy: Strategy
    compaction: bool
    capture_content: bool
    sessions: int
    starts: tuple[datetime, ...]  # one per session, ascending


def _spread(rng: random.Random, values: Sequence[Any], count: int) -> list[Any]:
    """``count`` values cycling through ``values``, shuffled: each appears when count allows."""
    out = [values[i % len(values)] for i in range(count)]
    rng.shuffle(out)
    return out


def _session_counts(rng: random.Random, sessions: int, runs: int) -> list[int]:
    counts = [1] * runs
    for _ in range(sessions - runs):
        counts[rng.randrange(runs)] += 1
    return counts


def _plan_runs(seed: int, sessions: int, first_day: date) -> list[_RunPlan]:
    rng = random.Random(seed)
    runs = min(sessions, max(MIN_RUNS, round(sessions / 6)))
    counts = _session_counts(rng, sessions, runs)
    days = _spread(rng, [first_day + timedelta(days=d) for d in range(DEMO_DAYS)], runs)
    services = _spread(rng, SERVICES, runs)
    versions = _spread(rng, SERVICE_VERSIONS, runs)
    strategies = _spread(rng, ("goal_aware", "goal_aware", "head_tail", "drop_oldest"), runs)
    compaction = _spread(rng, (True, False, False), runs)
    capture = _spread(rng, (True, False, False), runs)
    plans = []
    for index in range(runs):
        day = datetime(days[index].year, days[index].month, days[index].day, tzinfo=UTC)
        at = day + timedelta(hours=rng.uniform(6.0, 20.0))
        starts = []
        for _ in range(counts[index]):
            starts.append(at)
            at += timedelta(seconds=rng.uniform(20.0, 900.0))
        plans.append(
            _RunPlan(
                index=index,
                seed=seed * 1000 + index,
                run_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                service=services[index],
                version=versions[index],
                strategy=strategies[index],
                compaction=compaction[index],
                capture_content=capture[index],
                sessions=counts[index],
                starts=tuple(starts),
            )
        )
    return plans


def _weighted(rng: random.Random, pairs: Sequence[tuple[Any, float]]) -> Any:
    return rng.choices([p for p, _ in pairs], weights=[w for _, w in pairs])[0]


# --------------------------------------------------------------------------
# One session: the scripted runtime loop.


class _AgentHandle:
    """``agent_for(role)``: attribute access names the method to delegate."""

    def __init__(self, session: _Session, role: str) -> None:
        self._session = session
        self._role = role

    def __getattr__(self, method: str) -> Callable[..., Any]:
        if method.startswith("_"):
            raise AttributeError(method)

        def call(*args: Any) -> Any:
            return self._session.delegate(self._role, method, *args, kind="agent_for")

        return call


_COMPILED: dict[str, Any] = {}


def _plain(value: Any, depth: int = 0) -> Any:
    """A compact, JSON-ready copy of a program's result for history and the tool message."""
    if depth > 4:
        return "..."
    if isinstance(value, Mapping):
        return {str(k): _plain(v, depth + 1) for k, v in list(value.items())[:12]}
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value[:12]]
    if isinstance(value, float):
        return round(value, 6)
    if value is None or isinstance(value, bool | int):
        return value
    text = str(value)
    return text if len(text) <= 240 else text[:237] + "..."


class _Session:
    """Runs one conversation: needs, trims and calls, through one :class:`Recorder`."""

    def __init__(self, recorder: Recorder, rng: random.Random, run: _RunPlan, lead: str) -> None:
        self.recorder = recorder
        self.rng = rng
        self.run = run
        self.lead = lead
        self.state: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.needs: list[str] = []  # need texts recorded, oldest first
        self.current: str | None = None
        self.tasks = list(_TASKS[run.service])
        rng.shuffle(self.tasks)

    # -- generated code -------------------------------------------------------

    def execute(self, code: str, view: Any, args: list[Any], state: dict[str, Any]) -> Any:
        """Run a generated program the way a code-writing runtime does."""
        compiled = _COMPILED.get(code)
        if compiled is None:
            compiled = _COMPILED[code] = compile(code, "<generated>", "exec")
        context: dict[str, Any] = dict(state)
        context["conversation_history"] = view
        scope: dict[str, Any] = {
            "context": context,
            "conversation_history": view,
            "args": args,
            "delegate": self.delegate,
            "agent_for": lambda role: _AgentHandle(self, role),
        }
        exec(compiled, scope)
        state.update({k: v for k, v in context.items() if k != "conversation_history"})
        return scope.get("result")

    def delegate(self, role: str, method: str, *args: Any, kind: str = "delegate") -> Any:
        """A delegated call: a nested call span running the target role's program."""
        parent = current_call()
        if parent is not None and parent.depth + 1 > MAX_DEPTH:
            raise RecursionError(f"delegation depth limit ({MAX_DEPTH}) reached")
        code = _SUB_PROGRAMS.get((role, method))
        if code is None:
            raise LookupError(f"agent {role!r} has no method {method!r}")
        history = self.recorder.history
        arguments = list(args)
        with self.recorder.call(
            method, role=role, code=code, args=arguments, delegation_kind=kind
        ) as child:
            try:
                value = self.execute(code, child.view, arguments, {})
            except Exception as exc:
                outcome = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                history.append(
                    child.to_record(outcome_summary=outcome, speaker="tool", args=arguments)
                )
                raise
            outcome = {"ok": True, "value": _plain(value)}
            history.append(child.to_record(outcome_summary=outcome, speaker="tool", args=arguments))
            child.stop(outcome=outcome)
            return value

    # -- the loop -------------------------------------------------------------

    def run_turns(self, turns: int, budget: int, summarizer: Summarizer | None) -> None:
        orientation = [{"role": "system", "content": self._system_prompt()}]
        for turn in range(turns):
            declared = self._maybe_record_need(turn)
            self.messages.append({"role": "user", "content": self._user_text(turn, declared)})
            self.recorder.plan_trim(
                self.messages,
                orientation=orientation,
                budget=budget,
                strategy=self.run.strategy,
                summarizer=summarizer,
                role=self.lead,
            )
            code, outcome = self._call()
            self.messages.append({"role": "assistant", "content": f"```python\n{code}```"})
            self.messages.append({"role": "tool", "content": self._tool_text(outcome)})

    def _call(self) -> tuple[str, dict[str, Any]]:
        program: _Program = _weighted(self.rng, self._pool())
        code = program.code(self.rng)
        args = program.make_args(self.rng)
        history = self.recorder.history
        with self.recorder.call(program.method, role=self.lead, code=code, args=args) as call:
            try:
                value = self.execute(code, call.view, args, self.state)
            except Exception as exc:  # generated code fails sometimes; the loop goes on
                outcome: dict[str, Any] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                call.fail(exc, outcome=outcome)
            else:
                outcome = {"ok": True, "value": _plain(value)}
                call.stop(outcome=outcome)
            history.append(call.to_record(outcome_summary=outcome, args=args))
        return code, outcome

    def _pool(self) -> list[tuple[_Program, float]]:
        pool = _POOLS[self.lead]
        if self.recorder.prompt_version != "v2":
            return list(pool)
        # The v2 prompt points the model at conversation_history a little more often.
        return [(p, w * 1.3 if p.reads_history else w) for p, w in pool]

    # -- goals ----------------------------------------------------------------

    def _maybe_record_need(self, turn: int) -> bool:
        """Maybe record a need before this turn's user message; True when one was recorded."""
        rng = self.rng
        need: str | None = None
        escalation = False
        if self.current is None:
            if rng.random() < (0.8 if turn == 0 else 0.5):
                need = self._new_task()
        else:
            roll = rng.random()
            earlier = [n for n in self.needs if n != self.current]
            if roll < 0.14:
                need = self._new_task()
            elif roll < 0.22:
                need = self.current  # the model re-declares the task it is on
            elif roll < 0.28:
                if earlier:
                    need = rng.choice(earlier)  # the user comes back to an earlier goal
            elif roll < 0.30:
                need, escalation = self.current, True  # an escalation answer restates it
        if need is None:
            return False
        self.recorder.record_need(need, self.messages, escalation=escalation, role=self.lead)
        self.needs.append(need)
        self.current = need
        return True

    def _new_task(self) -> str:
        unused = [t for t in self.tasks if t not in self.needs]
        return unused[0] if unused else self.tasks[0]

    # -- text -----------------------------------------------------------------

    def _system_prompt(self) -> str:
        guidance = (
            "Earlier calls are in conversation_history; reuse their results."
            if self.recorder.prompt_version == "v2"
            else "Write a short Python program; set result."
        )
        return (
            f"You are the {self.lead} agent of {self.run.service}. {guidance} "
            "You may delegate(role, method, *args) or use agent_for(role).method(*args). "
            "Answer with one program per turn."
        )

    def _filler(self, low: int, high: int) -> str:
        return " ".join(self.rng.choices(_FILLER, k=self.rng.randint(low, high)))

    def _user_text(self, turn: int, declared: bool) -> str:
        rng = self.rng
        if declared and turn == 0:
            head = f"Hi, please {self.current}."
        elif declared:
            head = (
                rng.choice(("Next: ", "Now ", "Actually, ", "Back to this: ")) + f"{self.current}."
            )
        else:
            head = rng.choice(_FOLLOW_UPS)
        return f"{head} Context: {self._filler(4, 40)}"

    def _tool_text(self, outcome: Mapping[str, Any]) -> str:
        text = json.dumps(outcome, default=str, sort_keys=True)
        # Tool output sizes are skewed: mostly short, now and then a long dump.
        if self.rng.random() < 0.2:
            return f"{text}\n{self._filler(120, 420)}"
        return f"{text}\n{self._filler(5, 60)}"


def _make_summarizer(rng: random.Random) -> Summarizer:
    """A summarizer that usually works, sometimes raises and sometimes returns nothing."""

    def summarize(removed: Sequence[Mapping[str, Any]]) -> str:
        roll = rng.random()
        if roll < 0.08:
            raise TimeoutError("summarizer model did not answer")
        if roll < 0.12:
            return "  "
        users = sum(1 for m in removed if m.get("role") == "user")
        words = rng.randint(8, 60)
        return f"Summary of {len(removed)} earlier messages ({users} from the user): " + " ".join(
            rng.choices(_FILLER, k=words)
        )

    return summarize


def _budget(rng: random.Random) -> int:
    tier = _weighted(rng, (("roomy", 3), ("moderate", 4), ("tight", 3)))
    if tier == "roomy":
        return rng.randint(6000, 12000)
    if tier == "moderate":
        return rng.randint(900, 1800)
    return rng.randint(250, 600)


def _run_session(run: _RunPlan, rng: random.Random, provider: TracerProvider) -> str:
    session_id = f"demo-{rng.getrandbits(48):012x}"
    old = run.version == SERVICE_VERSIONS[0]
    prompt = PROMPT_VERSIONS[0] if rng.random() < (0.8 if old else 0.2) else PROMPT_VERSIONS[1]
    retention = rng.choice([None, None, 12, 30])
    recorder = Recorder(
        session_id,
        prompt_version=prompt,
        history=History(retention=Retention(max_records=retention)),
        tracer_provider=provider,
        capture_content=run.capture_content,
        model=MODELS[0] if rng.random() < 0.6 else MODELS[1],
    )
    lead: str = _weighted(rng, _LEAD_ROLES[run.service])
    session = _Session(recorder, rng, run, lead)
    summarizer = _make_summarizer(random.Random(rng.getrandbits(64))) if run.compaction else None
    session.run_turns(rng.randint(3, 14), _budget(rng), summarizer)
    return session_id


# --------------------------------------------------------------------------
# Writing runs and placing them in time.

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def _write_run(run: _RunPlan, path: Path) -> dict[str, int]:
    """Simulate one run into ``path``; returns each session's assigned start (ns)."""
    telemetry = configure(
        "file",
        path=path,
        service_name=run.service,
        run_id=run.run_id,
        resource_attributes={
            sc.ORIGIN: ORIGIN_SIMULATED,
            sc.SEED: run.seed,
            sc.SERVICE_VERSION: run.version,
        },
    )
    if not telemetry.enabled:
        telemetry.shutdown()
        raise RuntimeError(
            "recording is turned off (OTEL_SDK_DISABLED=true): unset it to write demo spans"
        )
    rng = random.Random(run.seed)
    starts: dict[str, int] = {}
    try:
        for start in run.starts:
            session_id = _run_session(run, rng, telemetry.tracer_provider)
            starts[session_id] = _ns(start)
    finally:
        telemetry.shutdown()
    return starts


def _ns(moment: datetime) -> int:
    """Nanoseconds since the epoch, exactly (``timestamp()`` is a float)."""
    return (moment - _EPOCH) // timedelta(microseconds=1) * 1000


def _spans(documents: Sequence[Any]) -> Iterator[dict[str, Any]]:
    for document in documents:
        for resource_spans in document.get("resourceSpans", ()):
            for scope_spans in resource_spans.get("scopeSpans", ()):
                yield from scope_spans.get("spans", ())


def _session_of(span: Mapping[str, Any]) -> str | None:
    for attribute in span.get("attributes", ()):
        if attribute.get("key") == sc.GEN_AI_CONVERSATION_ID:
            value = attribute.get("value", {}).get("stringValue")
            return value if isinstance(value, str) else None
    return None


def _shift(holder: dict[str, Any], key: str, origin: int, start: int) -> None:
    """Move an OTLP JSON time from ``origin`` to ``start`` (stretched), keeping its type."""
    value = holder.get(key)
    if isinstance(value, str):
        holder[key] = str(start + (int(value) - origin) * TIME_STRETCH)
    elif isinstance(value, int):
        holder[key] = start + (value - origin) * TIME_STRETCH


def _place_in_time(path: Path, starts: Mapping[str, int], run_start: int) -> int:
    """Shift each session's spans so it begins at its assigned start; returns spans in the file."""
    documents = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    spans = list(_spans(documents))
    if not spans:
        return 0
    first: dict[str | None, int] = {}
    for span in spans:
        session, begun = _session_of(span), int(span["startTimeUnixNano"])
        first[session] = min(first.get(session, begun), begun)
    run_origin = min(first.values())
    for span in spans:
        session = _session_of(span)
        if session is not None and session in starts:
            origin, start = first[session], starts[session]
        else:
            origin, start = run_origin, run_start
        _shift(span, "startTimeUnixNano", origin, start)
        _shift(span, "endTimeUnixNano", origin, start)
        for event in span.get("events", ()):
            _shift(event, "timeUnixNano", origin, start)
    partial = path.with_name(path.name + ".partial")
    # The exporter's own line format: compact separators, one resourceSpans document a line.
    partial.write_text(
        "".join(json.dumps(d, separators=(",", ":")) + "\n" for d in documents), encoding="utf-8"
    )
    os.replace(partial, path)
    return len(spans)


def write_demo_spans(
    out_dir: Path, *, seed: int = 7, sessions: int = 160, first_day: date | None = None
) -> DemoData:
    """Simulate ``sessions`` agent sessions over several runs and days; write their spans.

    Writes ``out_dir/demo-run-NNN.jsonl`` (OTLP JSON lines, one file per run)
    through :func:`~recurscope.instrumentation.configure` and
    :class:`~recurscope.instrumentation.Recorder`, then moves each session to
    its assigned start on :data:`DEMO_DAYS` days from ``first_day`` (default:
    the days before :data:`DEMO_END_DATE`), stretching times within a
    session by :data:`TIME_STRETCH`. Same arguments, same data (span and
    trace ids aside). Runs: ``min(sessions, max(MIN_RUNS, sessions / 6))``.

    Raises:
        ValueError: ``sessions`` is below 1.
        RuntimeError: recording is disabled (``OTEL_SDK_DISABLED=true``).
    """
    if isinstance(sessions, bool) or not isinstance(sessions, int) or sessions < 1:
        raise ValueError(f"sessions must be an int >= 1, e.g. 160; got {sessions!r}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("demo-run-*.jsonl"):
        stale.unlink()  # the file exporter appends, and an earlier demo may have had more runs
    plans = _plan_runs(seed, sessions, first_day or DEMO_END_DATE - timedelta(days=DEMO_DAYS))
    width = max(3, math.ceil(math.log10(len(plans) + 1)))
    files: list[Path] = []
    spans = 0
    days: set[date] = set()
    for run in plans:
        path = out / f"demo-run-{run.index:0{width}d}.jsonl"
        starts = _write_run(run, path)
        spans += _place_in_time(path, starts, _ns(run.starts[0]))
        files.append(path)
        days.update(start.date() for start in run.starts)
    return DemoData(
        files=tuple(files),
        sessions=sessions,
        runs=len(plans),
        days=len(days),
        seeds=len({run.seed for run in plans}),
        spans=spans,
    )


# --------------------------------------------------------------------------
# Replayed sessions: the sample conversations through every trim strategy.

REPLAY_SAMPLES: Final = Path(__file__).resolve().parents[1] / "data" / "replay-samples"
"""The sample conversations shipped with the code (``recurscope replay``'s demo input)."""

DEMO_REPLAY_BUDGET: Final = 400
"""Token budget of the demo's replay: tight enough that most sample conversations trim."""

REPLAY_FILE: Final = "demo-replay.jsonl"


@dataclass(frozen=True)
class DemoReplay:
    """What :func:`write_demo_replay` wrote.

    Fields: ``files`` (the OTLP JSON lines file, or none when the samples are
    missing), ``conversations`` replayed, ``sessions`` (conversation ×
    strategy × compaction) and ``spans`` written.
    """

    files: tuple[Path, ...]
    conversations: int
    sessions: int
    spans: int


def write_demo_replay(
    out_dir: Path,
    *,
    first_day: date | None = None,
    samples: Path = REPLAY_SAMPLES,
    budget: int = DEMO_REPLAY_BUDGET,
) -> DemoReplay:
    """Replay the sample conversations into ``out_dir/demo-replay.jsonl``, placed in time.

    Every strategy, with and without compaction, the default heuristic
    detector and extractive summarizer; each conversation's sessions start
    together on one of the :data:`DEMO_DAYS` days from ``first_day``
    (default: the days before :data:`DEMO_END_DATE`), stretched like the
    simulated ones. Deterministic apart from span and trace ids. Without
    the samples (a trimmed install) nothing is written.

    Raises:
        RuntimeError: recording is disabled (``OTEL_SDK_DISABLED=true``).
    """
    from recurscope.pipeline.replay.conversations import ReplayError, read_conversations
    from recurscope.pipeline.replay.replay import Replayer, replay_telemetry, session_id

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / REPLAY_FILE
    path.unlink(missing_ok=True)
    if not samples.is_dir():
        return DemoReplay(files=(), conversations=0, sessions=0, spans=0)
    found = read_conversations([samples])
    try:
        telemetry = replay_telemetry(out=path, run_id="demo-replay")
    except ReplayError as error:
        raise RuntimeError(str(error)) from None
    try:
        replayer = Replayer(tracer_provider=telemetry.tracer_provider, budget=budget)
        for conversation in found.conversations:
            replayer.replay(conversation)
    finally:
        telemetry.shutdown()
    report = replayer.report()
    day0 = first_day or DEMO_END_DATE - timedelta(days=DEMO_DAYS)
    starts: dict[str, int] = {}
    for number, conversation in enumerate(found.conversations):
        moment = datetime(day0.year, day0.month, day0.day, 16, tzinfo=UTC) + timedelta(
            days=number % DEMO_DAYS, minutes=11 * number
        )
        for strategy in replayer.strategies:
            for compaction in replayer.compaction:
                starts[session_id(conversation.id, strategy, compaction)] = _ns(moment)
    spans = _place_in_time(
        path, starts, _ns(datetime(day0.year, day0.month, day0.day, 16, tzinfo=UTC))
    )
    return DemoReplay(
        files=(path,) if path.exists() else (),
        conversations=report.conversations,
        sessions=report.sessions,
        spans=spans,
    )

"""Session plans: every random choice of a simulation, made before anything runs.

A simulation is a sequence of runs (:class:`RunPlan`: a process with its own
``service.instance.id``, seed, service, strategy and compaction) holding
sessions (:class:`SessionPlan`: tasks, and for each task the steps the
scripted model will answer with). Both engines — smolagents agents
(:mod:`.agents`) and the fast path (:mod:`.fast`) — execute the same plans,
so the two record the same sessions. Runs are planned up front (small);
sessions are planned one at a time, in order (:func:`iter_sessions`), so a
simulation of millions of spans never holds them all; every draw comes from
generators seeded by the simulation's seed, the run and the session, and the
one shared state (:class:`~.library.OwnFamilies`) is consulted in session
order, so the same arguments give the same plans.
"""

from __future__ import annotations

import math
import random
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final, Literal

from recurscope.instrumentation.trim import Strategy

from .library import Library, OwnFamilies, load_library, own_program
from .scenarios import Scenario

__all__ = [
    "DAYS",
    "END_DATE",
    "MIN_RUNS",
    "SESSIONS_PER_RUN",
    "RunPlan",
    "SessionPlan",
    "StepPlan",
    "Tally",
    "TaskPlan",
    "filler",
    "iter_sessions",
    "plan_runs",
    "summarize",
]

END_DATE: Final = date(2026, 11, 28)
"""Sessions fall on the :data:`DAYS` days before this UTC date, never "now"."""

DAYS: Final = 4
"""Calendar days the runs rotate over."""

MIN_RUNS: Final = 20
"""Runs of a simulation with at least this many sessions: the window's run gate."""

SESSIONS_PER_RUN: Final = 5
"""Sessions a run holds once there are more than :data:`MIN_RUNS` × this many."""

SERVICES: Final = (
    ("sim-support-agent", "support"),
    ("sim-research-agent", "analyst"),
)
"""(service.name, the lead agent's role) of alternating runs."""

SERVICE_VERSIONS: Final = ("2.3.0", "2.4.1")
PROMPT_VERSIONS: Final = ("v1", "v2")
MODELS: Final = ("sim-model-large", "sim-model-small")
STRATEGY_CYCLE: Final[tuple[Strategy, ...]] = (
    "goal_aware",
    "goal_aware",
    "goal_aware",
    "head_tail",
    "drop_oldest",
)
MAX_PRINT: Final = 200
"""Characters of printed output an observation keeps (smolagents' ``max_print_outputs_length``)."""

RESEARCHER_ROLE: Final = "researcher"
"""The role of the managed agent ``researcher`` (the lead's role is its service's)."""

HELPER: Final = "helper"
"""The managed agent whose role is the lead's own."""
RESEARCHER: Final = "researcher"
"""The managed agent of another role."""

TASKS: Final[dict[str, tuple[str, ...]]] = {
    "sim-support-agent": (
        "Refund the duplicate charge on order 4471 and write the customer a note.",
        "Update the shipping address for the Berlin customer and confirm the carrier.",
        "Explain why invoice 2209 shows a late fee and draft a report for billing.",
        "Cancel the premium subscription renewal and check for open credits.",
        "Reset two-factor authentication for the admin account of Nordlicht GmbH.",
        "Summarize this week's escalated tickets into a short report.",
        "Find which warehouse shipped the damaged parcel and open a claim.",
        "Draft an apology email about Tuesday's outage for the enterprise tier.",
    ),
    "sim-research-agent": (
        "Compare battery chemistries for grid storage and tabulate their costs.",
        "Collect citations on sleep and memory consolidation for a literature report.",
        "Estimate the market size for electric cargo bikes in three European cities.",
        "Check the growth rate figures in the quarterly report against the raw data.",
        "Find datasets of urban air quality sensors with hourly readings.",
        "Outline a literature review on remote work productivity since 2020.",
        "Tabulate rainfall anomalies for the Sahel since 2000 by decade.",
        "Summarize recent results on protein folding benchmarks for the newsletter.",
    ),
}

SUBTASKS: Final = (
    "compute the subtotal of the listed items",
    "look up the carrier's tracking status",
    "check the date arithmetic",
    "find the matching record in the ledger",
    "draft two sentences for the summary",
    "verify the figure against the source table",
)

_WORDS: Final = (
    "the", "a", "of", "to", "and", "in", "for", "on", "with", "as", "by", "at", "from", "this",
    "that", "it", "is", "was", "be", "are", "were", "order", "customer", "data", "report",
    "value", "figure", "table", "source", "result", "status", "region", "team", "week",
    "month", "year", "total", "number", "rate", "check", "note", "step", "plan", "next",
    "first", "then", "also", "more", "some", "each", "other", "new", "old", "same", "time",
    "day", "note", "list", "item", "record", "field",
)  # fmt: skip

StepSource = Literal["literal", "respelled", "own", "no_history", "delegation"]
TaskKind = Literal["opening", "new_goal", "same_task", "return"]


def summarize(removed: Sequence[Mapping[str, Any]]) -> str:
    """The compaction summarizer of simulated sessions: short and deterministic."""
    users = sum(1 for m in removed if m.get("role") == "user")
    return f"Summary: {len(removed)} earlier messages ({users} from the user) were condensed."


def filler(words: int, seed: int) -> str:
    """``words`` common words drawn by ``seed``: a thought's text (about one token a word)."""
    rng = random.Random(seed)
    return " ".join(rng.choices(_WORDS, k=words))


@dataclass(frozen=True, slots=True)
class StepPlan:
    """One step of the lead agent: its thought and the program it runs.

    ``program`` sets ``result`` (a delegation step's program calls the managed
    agent ``managed``, which answers with ``managed_program``); ``final``
    steps end the task with ``final_answer(result)``, the others print it.
    ``thought_words`` words drawn by ``thought_seed`` (:func:`filler`) open
    the model's answer. ``program_id`` names the library program (None for
    own programs and delegations).
    """

    source: StepSource
    program: str
    reads_history: bool
    contextview: bool
    final: bool
    thought_words: int
    thought_seed: int
    program_id: str | None = None
    managed: str | None = None
    managed_program: str | None = None

    def code(self) -> str:
        """The code block the model writes."""
        ending = "final_answer(result)" if self.final else "print(result)"
        return f"{self.program}{ending}\n"

    def model_output(self) -> str:
        """What the scripted model answers: a thought, then the code in smolagents' tags."""
        thought = filler(self.thought_words, self.thought_seed)
        return f"Thought: {thought}\n<code>\n{self.code()}</code>"


@dataclass(frozen=True, slots=True)
class TaskPlan:
    """One task given to the lead agent: its text, what it does to the goals, its steps."""

    text: str
    kind: TaskKind
    long: bool
    steps: tuple[StepPlan, ...]


@dataclass(frozen=True, slots=True)
class RunPlan:
    """One run: a process with its own resource (run id, seed, service, version).

    ``sessions`` is how many sessions it holds (numbered from
    ``first_session``); ``start`` is when its first session starts (UTC).
    """

    index: int
    seed: int
    run_id: str
    service: str
    lead_role: str
    version: str
    strategy: Strategy
    compaction: bool
    day: date
    start: datetime
    sessions: int
    first_session: int


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """One session: the lead's role, prompt version and model, its tasks, and when it starts."""

    session_id: str
    run: RunPlan
    number: int
    start: datetime
    prompt_version: str
    model: str
    reads_history: bool
    tasks: tuple[TaskPlan, ...]


@dataclass
class Tally:
    """What the plans drew, summed over sessions (for the report and docs/scenarios.md)."""

    sessions: int = 0
    reading_sessions: int = 0
    tasks: int = 0
    later_tasks: int = 0
    long_later_tasks: int = 0
    steps: int = 0
    later_steps: int = 0
    history_programs: int = 0
    contextview_programs: int = 0
    by_source: dict[str, int] = field(default_factory=dict)
    delegations: int = 0
    same_role_delegations: int = 0
    task_kinds: dict[str, int] = field(default_factory=dict)

    def add(self, session: SessionPlan) -> None:
        self.sessions += 1
        self.reading_sessions += session.reads_history
        for task in session.tasks:
            self.tasks += 1
            self.task_kinds[task.kind] = self.task_kinds.get(task.kind, 0) + 1
            later = task.kind != "opening"
            self.later_tasks += later
            self.long_later_tasks += later and task.long
            for step in task.steps:
                self.steps += 1
                self.later_steps += later
                self.by_source[step.source] = self.by_source.get(step.source, 0) + 1
                self.history_programs += step.reads_history
                self.contextview_programs += step.contextview
                if step.managed is not None:
                    self.delegations += 1
                    self.same_role_delegations += step.managed == HELPER


def run_count(sessions: int) -> int:
    """Runs of a simulation: ``max(MIN_RUNS, ceil(sessions / SESSIONS_PER_RUN))``, at most ``sessions``."""
    return min(sessions, max(MIN_RUNS, math.ceil(sessions / SESSIONS_PER_RUN)))


def plan_runs(sessions: int, seed: int, *, end_date: date = END_DATE) -> tuple[RunPlan, ...]:
    """The runs of a simulation of ``sessions`` sessions (see ``docs/scenarios.md``)."""
    if isinstance(sessions, bool) or not isinstance(sessions, int) or sessions < 1:
        raise ValueError(f"sessions must be a whole number >= 1, not {sessions!r}")
    runs = run_count(sessions)
    base, extra = divmod(sessions, runs)
    first_day = end_date - timedelta(days=DAYS)
    per_day = math.ceil(runs / DAYS)
    rng = random.Random(f"recurscope-simulate-runs:{seed}")
    plans = []
    first = 0
    for index in range(runs):
        count = base + (index < extra)
        day = first_day + timedelta(days=index % DAYS)
        slot = index // DAYS
        minutes = 6 * 60 + (14 * 60) * slot / per_day
        start = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(minutes=minutes)
        service, role = SERVICES[index % len(SERVICES)]
        plans.append(
            RunPlan(
                index=index,
                seed=seed * 1000 + index,
                run_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                service=service,
                lead_role=role,
                version=SERVICE_VERSIONS[(index // 2) % len(SERVICE_VERSIONS)],
                strategy=STRATEGY_CYCLE[index % len(STRATEGY_CYCLE)],
                compaction=index % 3 == 2,
                day=day,
                start=start,
                sessions=count,
                first_session=first,
            )
        )
        first += count
    return tuple(plans)


class _SessionPlanner:
    """Draws one session's plan (module docstring); one per session, from its own generator."""

    def __init__(
        self, scenario: Scenario, library: Library, owns: OwnFamilies, rng: random.Random
    ) -> None:
        self.scenario = scenario
        self.library = library
        self.owns = owns
        self.rng = rng
        self.reads = rng.random() < scenario.reading_sessions
        self.own: dict[bool, tuple[str, str]] = {}

    def tasks(self, service: str) -> tuple[TaskPlan, ...]:
        s, rng = self.scenario, self.rng
        pool = list(TASKS[service])
        rng.shuffle(pool)
        goals = [pool.pop()]
        current = goals[0]
        plans = [self.task(current, "opening", long=True)]
        new, same, _ = s.task_kinds
        for _ in range(rng.randint(*s.later_tasks)):
            roll = rng.random()
            earlier = [g for g in goals if g != current]
            kind: TaskKind
            if roll < new or (roll >= new + same and not earlier):
                kind, current = "new_goal", pool.pop()
                goals.append(current)
            elif roll < new + same:
                kind = "same_task"
            else:
                kind, current = "return", rng.choice(earlier)
            plans.append(self.task(current, kind, long=rng.random() < s.long_task_rate))
        return tuple(plans)

    def task(self, text: str, kind: TaskKind, *, long: bool) -> TaskPlan:
        s, rng = self.scenario, self.rng
        count = rng.randint(*s.steps)
        thought = s.long_thought if long else s.short_thought
        steps = tuple(
            self.step(final=index == count - 1, words=rng.randint(*thought))
            for index in range(count)
        )
        return TaskPlan(text=text, kind=kind, long=long, steps=steps)

    def step(self, *, final: bool, words: int) -> StepPlan:
        s, rng = self.scenario, self.rng
        seed = rng.getrandbits(32)
        if rng.random() < s.delegate_rate:
            managed = HELPER if rng.random() < s.same_role_rate else RESEARCHER
            answer = rng.choice(self.library.no_history())
            subtask = rng.choice(SUBTASKS)
            return StepPlan(
                source="delegation",
                program=f'result = {managed}(task="{subtask}")\n',
                reads_history=False,
                contextview=False,
                final=final,
                thought_words=words,
                thought_seed=seed,
                managed=managed,
                managed_program=f"{answer.code}final_answer(result)\n",
            )
        if not (self.reads and rng.random() < s.read_rate):
            program = rng.choice(self.library.no_history())
            return StepPlan(
                "no_history", program.code, False, False, final, words, seed, program.id
            )
        contextview = rng.random() < s.contextview_rate
        roll = rng.random()
        if roll < s.literal_rate:
            program = rng.choice(self.library.canonical(contextview=contextview))
            return StepPlan(
                "literal", program.code, True, contextview, final, words, seed, program.id
            )
        if roll < s.literal_rate + s.respelled_rate:
            habit = rng.choice(self.library.canonical(contextview=contextview))
            program = rng.choice(self.library.respellings(habit.family))
            return StepPlan(
                "respelled", program.code, True, contextview, final, words, seed, program.id
            )
        family = self.own.get(contextview)
        if family is None:
            family = self.own[contextview] = self.owns.take(rng, contextview=contextview)
        code = own_program(family, rng)
        return StepPlan("own", code, True, contextview, final, words, seed)


def iter_sessions(
    scenario: Scenario,
    runs: tuple[RunPlan, ...],
    seed: int,
    *,
    library: Library | None = None,
    owns: OwnFamilies | None = None,
) -> Iterator[SessionPlan]:
    """Each run's session plans, in order (plan one, run it, plan the next)."""
    library = library or load_library()
    owns = owns if owns is not None else OwnFamilies()
    for run in runs:
        at = run.start
        for offset in range(run.sessions):
            number = run.first_session + offset
            rng = random.Random(f"recurscope-simulate:{scenario.name}:{seed}:{number}")
            planner = _SessionPlanner(scenario, library, owns, rng)
            yield SessionPlan(
                session_id=f"sim-{scenario.name}-{seed}-{number:06d}",
                run=run,
                number=number,
                start=at,
                prompt_version=rng.choice(PROMPT_VERSIONS),
                model=rng.choice(MODELS),
                reads_history=planner.reads,
                tasks=planner.tasks(run.service),
            )
            at += timedelta(seconds=rng.uniform(120.0, 900.0))

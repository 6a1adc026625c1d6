"""The simulator's scenarios: generating parameters, and the verdict each implies.

A :class:`Scenario` is a set of generating parameters — how often the
scripted model reads history and in what shapes, how often it delegates and
to which role, how long the user's tasks run against the budget — plus the
verdict those parameters imply under the pre-registered thresholds.
``docs/scenarios.md`` states the parameters and the arithmetic, and was
committed before ``recurscope simulate`` first ran any scenario; the
parameters here are that document's, and are never tuned afterwards to make
a verdict come out (a verdict that differs is a finding, written down there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

__all__ = [
    "DOCUMENTED_SESSIONS",
    "SCENARIOS",
    "Scenario",
    "Verdict",
    "scenario",
]

Verdict = Literal["justified", "not_justified", "insufficient_evidence"]

DOCUMENTED_SESSIONS: Final = 120
"""Sessions of every scenario at its documented size (24 runs, 4 days, 24 seeds)."""


@dataclass(frozen=True)
class Scenario:
    """One scenario's generating parameters (see ``docs/scenarios.md`` for each one's meaning).

    Rates are probabilities per draw: ``reading_sessions`` per session (its
    model reads history at all); ``read_rate`` per program step of a reading
    session (the program reads history); ``contextview_rate`` per
    history-reading program (its shape is grep, partition/group or
    summarize); ``literal_rate`` and ``respelled_rate`` per history-reading
    program (the canonical spelling of a shared habit family, or one of its
    re-spellings; the rest are the session's own programs);
    ``delegate_rate`` per lead step (the step calls a managed agent);
    ``same_role_rate`` per delegation (the managed agent has the caller's
    role); ``long_task_rate`` per later task (its steps carry long thoughts,
    so the goal's own turns overflow the budget from its second step on).
    ``implied`` is the verdict per primitive that the parameters imply.
    """

    name: str
    summary: str
    implied: dict[str, Verdict]
    reading_sessions: float
    contextview_rate: float
    literal_rate: float
    respelled_rate: float
    same_role_rate: float
    long_task_rate: float
    read_rate: float = 0.6
    delegate_rate: float = 0.2
    later_tasks: tuple[int, int] = (2, 4)
    steps: tuple[int, int] = (3, 5)
    # Per later task: a new goal, the same task re-emitted, a return to an earlier goal.
    task_kinds: tuple[float, float, float] = (0.6, 0.2, 0.2)
    room: int = 1800
    short_thought: tuple[int, int] = (6, 14)
    long_thought: tuple[int, int] = (2000, 2200)
    sessions: int = DOCUMENTED_SESSIONS
    tags: tuple[str, ...] = field(default=())


SCENARIOS: Final[dict[str, Scenario]] = {
    s.name: s
    for s in (
        Scenario(
            name="justified",
            summary="every criterion about three times its threshold",
            implied={"contextview": "justified", "recurse": "justified"},
            reading_sessions=1.0,
            contextview_rate=0.50,
            literal_rate=0.70,
            respelled_rate=0.15,
            same_role_rate=0.60,
            long_task_rate=0.40,
        ),
        Scenario(
            name="not-justified",
            summary="every criterion at a fifth of its threshold or less",
            implied={"contextview": "not_justified", "recurse": "not_justified"},
            reading_sessions=0.30,
            contextview_rate=0.03,
            literal_rate=0.0,
            respelled_rate=0.0,
            same_role_rate=0.04,
            long_task_rate=0.02,
        ),
        Scenario(
            name="mixed",
            summary="ContextView's criteria far above their thresholds, recurse's far below",
            implied={"contextview": "justified", "recurse": "not_justified"},
            reading_sessions=1.0,
            contextview_rate=0.50,
            literal_rate=0.70,
            respelled_rate=0.15,
            same_role_rate=0.04,
            long_task_rate=0.02,
        ),
        Scenario(
            name="insufficient",
            summary="within each primitive one criterion far above, the other far below",
            implied={"contextview": "insufficient_evidence", "recurse": "insufficient_evidence"},
            reading_sessions=0.30,
            contextview_rate=0.50,
            literal_rate=0.0,
            respelled_rate=0.0,
            same_role_rate=0.60,
            long_task_rate=0.02,
        ),
    )
}
"""The four scenarios, by name (``docs/scenarios.md``)."""


def scenario(name: str) -> Scenario:
    """The scenario called ``name``; ValueError naming the choices otherwise."""
    try:
        return SCENARIOS[name]
    except KeyError:
        raise ValueError(f"unknown scenario {name!r}: choose from {', '.join(SCENARIOS)}") from None

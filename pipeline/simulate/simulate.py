"""``simulate``: a scenario's sessions, recorded by the real instrumentation, to a file or a receiver.

:func:`simulate` plans the runs (:func:`~.plan.plan_runs`), then plans and
runs each session in order — on smolagents ``CodeAgent`` s (:mod:`.agents`,
the default) or, with ``fast=True``, through the ``Recorder`` alone
(:mod:`.fast`, for millions of spans) — and records every span through a
per-run SDK provider marked ``recurscope.origin = simulated``
(:mod:`.telemetry`). Same scenario, size and seed: same sessions, same
attributes (span ids, trace ids, durations and wall-clock read ages aside).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from recurscope.instrumentation import TokenCounter

from .library import OwnFamilies, load_library
from .plan import Tally, iter_sessions, plan_runs
from .scenarios import Scenario
from .telemetry import Destination, SimulateError

__all__ = [
    "SPANS_PER_SESSION",
    "SimulationReport",
    "sessions_for_spans",
    "simulate",
]

SPANS_PER_SESSION: Final = 45
"""About how many spans a session records (both engines): what ``--spans N`` divides by."""


def sessions_for_spans(spans: int) -> int:
    """Sessions that record about ``spans`` spans (at least one)."""
    return max(1, math.ceil(spans / SPANS_PER_SESSION))


@dataclass(frozen=True)
class SimulationReport:
    """What a simulation did.

    Fields: ``scenario`` (its name), ``engine`` (``smolagents`` or
    ``fast``), ``seed``, ``sessions``, ``runs``, ``days`` and ``seeds``
    (distinct ``recurscope.seed`` values: one per run), ``spans`` exported
    (all of them: an export that fails raises :class:`SimulateError`),
    ``extra_steps`` (steps an agent asked
    for beyond the plan: a program that failed), ``own_families_reused``
    (sessions given an own family already used by four: beyond it, own
    shapes may recur), ``drawn`` (what the plans drew, to compare with the
    scenario's rates) and ``target`` (the file or URL).
    """

    scenario: str
    engine: str
    seed: int
    sessions: int
    runs: int
    days: int
    seeds: int
    spans: int
    extra_steps: int
    own_families_reused: int
    drawn: Tally
    target: str


def simulate(
    scenario: Scenario,
    *,
    sessions: int | None = None,
    seed: int = 1,
    out: str | Path | None = None,
    endpoint: str | None = None,
    fast: bool = False,
    counter: TokenCounter | None = None,
    on_session: Callable[[], None] | None = None,
) -> SimulationReport:
    """Simulate ``sessions`` sessions of ``scenario`` (default: its documented size).

    Spans go to ``out`` (OTLP JSON lines, replaced) or ``endpoint`` (a
    running ``recurscope serve``; it stores them only with
    ``--accept-simulated``). ``on_session`` is called after each session
    (progress bars).

    Raises:
        SimulateError: both or neither of ``out`` and ``endpoint``, a bad
            endpoint, a folder for ``out``, smolagents missing without
            ``fast``, or an export that failed (the simulation stops there).
        ValueError: ``sessions`` below 1.
    """
    count = scenario.sessions if sessions is None else sessions
    runs = plan_runs(count, seed)
    if fast:
        from .fast import run_session
    else:
        try:
            from .agents import run_session
        except ImportError as error:
            raise SimulateError(
                "the smolagents engine needs smolagents: pip install 'recurscope[smolagents]', "
                f"or pass --fast to record without it ({error})"
            ) from None
    counter = counter or TokenCounter()
    owns = OwnFamilies()
    tally = Tally()
    extra = 0
    with Destination(out=out, endpoint=endpoint) as destination:
        plans = iter_sessions(scenario, runs, seed, library=load_library(), owns=owns)
        current = None
        provider = None
        try:
            for plan in plans:
                if plan.run is not current:
                    if provider is not None:
                        provider.shutdown()  # every span of the run is placed and exported
                        destination.placements.clear()
                    current, provider = plan.run, destination.provider(plan.run)
                assert provider is not None
                tally.add(plan)
                destination.place(plan.session_id, plan.start)
                extra += run_session(plan, provider, counter, room=scenario.room)
                if destination.failures:
                    break  # the destination refuses spans: stop rather than simulate for nothing
                if on_session is not None:
                    on_session()
        finally:
            if provider is not None:
                provider.shutdown()
        spans = destination.spans
        if destination.failures:
            where = destination.out or destination.endpoint
            hint = "" if destination.out else " (is recurscope serve running there?)"
            raise SimulateError(
                f"could not export spans to {where}{hint}; stopped after {tally.sessions:,} of "
                f"{count:,} sessions with {spans:,} spans exported (the log above says why)"
            )
        target = str(destination.out) if destination.out is not None else str(destination.endpoint)
    return SimulationReport(
        scenario=scenario.name,
        engine="fast" if fast else "smolagents",
        seed=seed,
        sessions=count,
        runs=len(runs),
        days=len({run.day for run in runs}),
        seeds=len({run.seed for run in runs}),
        spans=spans,
        extra_steps=extra,
        own_families_reused=owns.reused,
        drawn=dataclasses.replace(tally),
        target=target,
    )

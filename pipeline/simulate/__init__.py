"""Simulated agent traffic from scenarios with known parameters: ``recurscope simulate``.

:func:`simulate` runs a :class:`Scenario`'s sessions on smolagents
``CodeAgent`` s instrumented by recurscope (or, ``fast=True``, through the
``Recorder`` alone) and records every span, marked ``recurscope.origin =
simulated``, to an OTLP JSON lines file or a running ``recurscope serve``.
See ``docs/scenarios.md`` for the scenarios and the verdicts they imply.
"""

from __future__ import annotations

from .library import Program, load_library, own_program
from .plan import RunPlan, SessionPlan, StepPlan, TaskPlan, plan_runs
from .scenarios import DOCUMENTED_SESSIONS, SCENARIOS, Scenario, scenario
from .simulate import SPANS_PER_SESSION, SimulationReport, sessions_for_spans, simulate
from .telemetry import ORIGIN_SIMULATED, SimulateError

__all__ = [
    "DOCUMENTED_SESSIONS",
    "ORIGIN_SIMULATED",
    "SCENARIOS",
    "SPANS_PER_SESSION",
    "Program",
    "RunPlan",
    "Scenario",
    "SessionPlan",
    "SimulateError",
    "SimulationReport",
    "StepPlan",
    "TaskPlan",
    "load_library",
    "own_program",
    "plan_runs",
    "scenario",
    "sessions_for_spans",
    "simulate",
]

"""``recurscope simulate``: a scenario's agent traffic, recorded by the real runtime and instrumentation.

A thin layer over :func:`recurscope.pipeline.simulate.simulate`: pick the
scenario and its size, send the spans to an OTLP JSON lines file (``--out``)
or a running ``recurscope serve`` (``--endpoint``), show a progress bar on
long runs, and print what was simulated beside what the scenario's
parameters imply (``docs/scenarios.md``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

from recurscope.cli._options import (
    UsageError,
    add_progress_option,
    add_span_output_options,
    command,
    positive_int,
    progress_bar,
)
from recurscope.pipeline.simulate import (
    SCENARIOS,
    SimulateError,
    SimulationReport,
    sessions_for_spans,
    simulate,
)

PROGRESS_AFTER: Final = 20
"""Sessions from which a run shows a progress bar by default (stderr a terminal)."""

SLOW_AFTER: Final = 2000
"""Sessions from which the agent engine's run time is worth a note (about 0.3 s a session)."""

_VERDICT_WORDS: Final = {
    "justified": "justified",
    "not_justified": "not justified",
    "insufficient_evidence": "insufficient evidence",
}


def summary_lines(report: SimulationReport) -> list[str]:
    """What was simulated, beside the scenario's parameters and implied verdicts."""
    scenario = SCENARIOS[report.scenario]
    drawn = report.drawn
    history = max(drawn.history_programs, 1)
    later = max(drawn.later_tasks, 1)

    def share(part: int, whole: int) -> str:
        return f"{part / whole:.3f}" if whole else "-"

    implied = ", ".join(
        f"{primitive} {_VERDICT_WORDS[v]}" for primitive, v in scenario.implied.items()
    )
    literal = drawn.by_source.get("literal", 0)
    lines = [
        f"scenario {report.scenario} ({scenario.summary}), seed {report.seed}, "
        f"engine {report.engine}",
        f"{report.sessions:,} sessions in {report.runs:,} runs over {report.days} days, "
        f"{report.seeds:,} seeds",
        "drawn vs parameters: "
        f"ContextView-shaped {share(drawn.contextview_programs, history)} "
        f"({scenario.contextview_rate}), literal habits {share(literal, history)} "
        f"({scenario.literal_rate}), same role "
        f"{share(drawn.same_role_delegations, drawn.delegations)} ({scenario.same_role_rate}), "
        f"long later tasks {share(drawn.long_later_tasks, later)} ({scenario.long_task_rate})",
    ]
    if report.sessions >= scenario.sessions:
        lines.append(f"implied verdict (docs/scenarios.md): {implied}")
    else:
        lines.append(
            f"implied verdict at the documented size ({scenario.sessions} sessions): {implied}; "
            "a smaller run may be insufficient evidence (the window needs >= 100 sessions, "
            ">= 20 runs, >= 3 days)"
        )
    if report.own_families_reused:
        lines.append(
            f"note: {report.own_families_reused} sessions got an own family already used by four "
            "(own shapes may recur as boilerplate beyond the documented size)"
        )
    return lines


@command("simulate", errors=(SimulateError,))
def run_simulate_command(args: argparse.Namespace) -> int:
    """The ``simulate`` command: 0 when every span was exported, 1 when an export failed."""
    if (args.out is None) == (args.endpoint is None):
        raise UsageError("give --out FILE or --endpoint URL (one of them)")
    scenario = SCENARIOS[args.scenario]
    if args.spans is not None:
        sessions = sessions_for_spans(args.spans)
    else:
        sessions = args.sessions if args.sessions is not None else scenario.sessions
    if args.endpoint is not None and not args.endpoint.startswith(("http://", "https://")):
        raise UsageError(
            f"--endpoint {args.endpoint!r} is not an http(s) URL: give e.g. http://127.0.0.1:4318"
        )
    if not args.fast and sessions >= SLOW_AFTER:
        print(
            f"recurscope simulate: note: {sessions:,} sessions on smolagents agents take about "
            f"{sessions * 0.3 / 60:.0f} minutes; --fast records the same sessions without them",
            file=sys.stderr,
        )
    enabled = args.progress if args.progress is not None else (
        sys.stderr.isatty() and sessions >= PROGRESS_AFTER
    )  # fmt: skip
    with progress_bar(enabled, sessions, "simulating", "sessions") as advance:
        report = simulate(
            scenario,
            sessions=sessions,
            seed=args.seed,
            out=args.out,
            endpoint=args.endpoint,
            fast=args.fast,
            on_session=advance,
        )
    for line in summary_lines(report):
        print(line)
    print(f"{report.spans:,} spans (origin simulated) written to {report.target}")
    if args.out:
        print(f"  next: recurscope ingest {args.out} && recurscope report --include-simulated")
    else:
        print("  the receiver stores them only when started with --accept-simulated")
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope simulate``."""
    names = ", ".join(SCENARIOS)
    parser = subparsers.add_parser(
        "simulate",
        help="simulated agent traffic from a scenario, through the real runtime and instrumentation",
        description=(
            "Run a scenario's sessions on smolagents CodeAgents instrumented by recurscope "
            "(a scripted model writes programs from the simulator's library that really run "
            "against the observed history; managed agents delegate; users switch goals; every "
            "step is planned by the trim planner), over several runs, days and seeds. Every "
            "span says recurscope.origin=simulated: reports and the dashboard show it as a "
            "demonstration (--include-simulated). Scenarios and the verdict their parameters "
            f"imply: docs/scenarios.md ({names})."
        ),
        epilog=(
            "example: recurscope simulate --scenario justified --out sim.jsonl\n"
            "         recurscope simulate --scenario mixed --spans 2000000 --fast --out big.jsonl\n"
            "         recurscope simulate --scenario not-justified --endpoint "
            "http://127.0.0.1:4318"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--scenario",
        required=True,
        choices=tuple(SCENARIOS),
        metavar="NAME",
        help=f"the scenario: {names}",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--sessions",
        type=positive_int,
        metavar="N",
        help="sessions to simulate (default: the scenario's documented size, 120)",
    )
    size.add_argument(
        "--spans",
        type=positive_int,
        metavar="N",
        help="simulate about N spans (sessions enough for them; with --fast for millions)",
    )
    parser.add_argument(
        "--seed", type=int, default=1, metavar="S", help="seed of every random choice (default 1)"
    )
    add_span_output_options(parser)
    parser.add_argument(
        "--fast",
        action="store_true",
        help="record the same planned sessions through the Recorder without smolagents "
        "(the same spans, several times faster; for large sizes)",
    )
    add_progress_option(parser, when="when stderr is a terminal and the run is long")
    parser.set_defaults(func=run_simulate_command)

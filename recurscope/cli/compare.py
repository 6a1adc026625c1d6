"""``recurscope compare``: the criteria compared between groups of sessions."""

from __future__ import annotations

import argparse
import json

from recurscope.cli._engine import reader
from recurscope.cli._options import UsageError, command, parse_when_arg
from recurscope.cli.report import add_common_arguments, filters, write_output
from recurscope.pipeline.verdict.compare import DIMENSIONS, compare


@command("compare")
def run_compare_command(args: argparse.Namespace) -> int:
    """The ``compare`` command: 0 with a comparison, 1 when there is nothing to compare."""
    if not args.by and not args.split_date:
        raise UsageError("give --by DIMENSION or --split-date WHEN")
    if args.by and args.split_date:
        raise UsageError(
            "give either --by DIMENSION or --split-date WHEN, not both (a date split groups by time)"
        )
    selection = filters(args)
    with reader(args, "compare") as view:
        result = compare(
            view.connection,
            args.by or "date",
            groups=(args.groups[0], args.groups[1]) if args.groups else None,
            split_date=args.split_date,
            preregistration_path=args.prereg,
            **selection,
        )
    text = (
        json.dumps(result.to_dict(), indent=2) + "\n"
        if args.format == "json"
        else result.to_markdown()
    )
    write_output(text, args.out)
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope compare``."""
    parser = subparsers.add_parser(
        "compare",
        help="difference between two groups with a session-bootstrap interval",
        description=(
            "Compare two groups (strategy, prompt version, model, service version, compaction, "
            "or before/after a date) on each criterion and on trim pressure. Exploratory: "
            "no verdict. Dimensions: " + ", ".join(DIMENSIONS) + "."
        ),
        epilog=(
            "example: recurscope compare --by recurscope.trim.strategy --groups goal_aware "
            "head_tail\n         recurscope compare --split-date 2026-03-05 --format json"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_arguments(parser)
    parser.add_argument(
        "--by", metavar="DIMENSION", default=None, help="dimension or attribute to group by"
    )
    parser.add_argument(
        "--groups",
        nargs=2,
        metavar=("A", "B"),
        default=None,
        help="the two values to compare (default: the two with most sessions)",
    )
    parser.add_argument(
        "--split-date",
        type=parse_when_arg,
        metavar="WHEN",
        default=None,
        help="compare sessions starting before vs from this moment (same forms as --since)",
    )
    parser.set_defaults(func=run_compare_command)

"""``recurscope compare``: the criteria compared between groups of sessions."""

from __future__ import annotations

import argparse
import json
import sys

from recurscope.cli.report import add_common_arguments, db_path, note_snapshot, write_output
from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.store.locking import read_connection
from recurscope.pipeline.verdict.compare import (
    DIMENSIONS,
    compare,
)
from recurscope.pipeline.verdict.report import parse_when


def _run_compare(args: argparse.Namespace) -> int:
    if not args.by and not args.split_date:
        print("recurscope compare: give --by DIMENSION or --split-date DATE", file=sys.stderr)
        return 2
    if args.by and args.split_date:
        print(
            "recurscope compare: give either --by DIMENSION or --split-date DATE, not both "
            "(a date split groups by time)",
            file=sys.stderr,
        )
        return 2
    db = db_path(args.db)
    try:
        split = parse_when(args.split_date) if args.split_date else None
        with read_connection(db) as view:
            note_snapshot(view, "compare")
            result = compare(
                view.connection,
                args.by or "date",
                groups=(args.groups[0], args.groups[1]) if args.groups else None,
                split_date=split,
                preregistration_path=args.prereg,
                since=parse_when(args.since) if args.since else None,
                until=parse_when(args.until, end=True) if args.until else None,
                service=args.service,
                role=args.role,
                prompt_version=args.prompt_version,
                include_simulated=args.include_simulated,
            )
    except PipelineError as error:
        print(f"recurscope compare: {error}", file=sys.stderr)
        return 2
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
    parser.add_argument("--by", default=None, help="dimension or attribute to group by")
    parser.add_argument(
        "--groups",
        nargs=2,
        metavar=("A", "B"),
        default=None,
        help="the two values to compare (default: the two with most sessions)",
    )
    parser.add_argument(
        "--split-date", default=None, help="compare spans before vs from this date/time"
    )
    parser.set_defaults(func=_run_compare)

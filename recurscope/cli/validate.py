"""``recurscope validate``: another runtime's spans checked against the conventions."""

from __future__ import annotations

import argparse
import json
import sys

from recurscope.pipeline.decode.formats import (
    format_names,
)
from recurscope.pipeline.decode.validate import (
    ValidationReport,
    validate_file,
)
from recurscope.pipeline.errors import IngestError


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope validate`` on the CLI's subparsers."""
    parser = subparsers.add_parser(
        "validate",
        help="check spans from another runtime against the semantic conventions",
        description=(
            "Check recurscope spans emitted by another runtime (Ruby, Go, JS, ...) against "
            "the convention registry: per span, the required attributes that are missing, "
            "values of the wrong type, unknown recurscope.* names (with the closest real "
            "name) and values outside an attribute's vocabulary. Reads any format "
            "`recurscope ingest` reads. Exits 1 when any span fails."
        ),
        epilog="Example: recurscope validate spans-from-ruby.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="span file(s) to check")
    parser.add_argument(
        "--format",
        default="auto",
        choices=["auto", *format_names()],
        help="input format (default: auto-detect per file)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON report instead")
    parser.add_argument("--verbose", "-v", action="store_true", help="list passing spans too")
    parser.set_defaults(func=run_validate_command)


def run_validate_command(args: argparse.Namespace) -> int:
    """The ``validate`` command: 0 when every span of every file passes, else 1."""
    reports: list[ValidationReport] = []
    status = 0
    for name in args.files:
        try:
            report = validate_file(name, format=args.format)
        except (OSError, IngestError) as error:
            print(f"recurscope validate: error: {name}: {error}", file=sys.stderr)
            status = 1
            continue
        reports.append(report)
        if not report.ok:
            status = 1
    if args.json:
        print(json.dumps([r.as_json() for r in reports], indent=2))
    else:
        for report in reports:
            print(report.to_text(verbose=args.verbose))
    return status

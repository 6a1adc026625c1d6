"""``recurscope validate``: another runtime's spans checked against the conventions."""

from __future__ import annotations

import argparse
import json

from recurscope.cli._options import (
    EXIT_FAILURE,
    EXIT_OK,
    add_format_option,
    add_input_format_option,
    command,
    fail,
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
        epilog="Example: recurscope validate spans-from-ruby.jsonl --format json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="span file(s) to check")
    add_format_option(parser, ("text", "json"), "text")
    add_input_format_option(parser)
    parser.add_argument("--verbose", "-v", action="store_true", help="list passing spans too")
    parser.set_defaults(func=run_validate_command)


@command("validate")
def run_validate_command(args: argparse.Namespace) -> int:
    """The ``validate`` command: 0 when every span of every file passes, else 1."""
    reports: list[ValidationReport] = []
    status = EXIT_OK
    for name in args.files:
        try:
            report = validate_file(name, format=args.input_format)
        except (OSError, IngestError) as error:
            # One unreadable file of several: said, and the others still checked.
            status = fail("validate", f"{name}: {error}", EXIT_FAILURE)
            continue
        reports.append(report)
        if not report.ok:
            status = EXIT_FAILURE
    if args.format == "json":
        print(json.dumps([r.as_json() for r in reports], indent=2))
    else:
        for report in reports:
            print(report.to_text(verbose=args.verbose))
    return status

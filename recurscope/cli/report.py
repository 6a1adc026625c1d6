"""``recurscope report``: the verdict as Markdown or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from recurscope.cli._engine import add_engine_options, reader
from recurscope.cli._options import (
    EXIT_FAILURE,
    add_db_option,
    add_detector_quality_option,
    add_format_option,
    add_include_simulated_option,
    add_prereg_option,
    add_window_options,
    check_window,
    command,
    fail,
)
from recurscope.pipeline.store.database import resolve_db_path
from recurscope.pipeline.verdict.report import (
    DEFAULT_DETECTOR_QUALITY,
    build_report,
    measure_detector_quality,
)
from recurscope.pipeline.verdict.rule import default_preregistration_path
from recurscope.pipeline.verdict.selection import explain_empty_report


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db``, ``--prereg``, ``--format``, ``--out`` and the filters, shared with compare."""
    add_db_option(parser, read_only=True)
    add_prereg_option(parser)
    add_format_option(parser, ("md", "json"), "md")
    parser.add_argument(
        "--out", metavar="FILE", default=None, help="write here instead of standard output"
    )
    add_window_options(parser, exploratory=True)
    parser.add_argument("--service", default=None, help="exploratory: one service name")
    parser.add_argument("--role", default=None, help="exploratory: calls handled by one role")
    parser.add_argument(
        "--prompt-version", default=None, help="exploratory: spans of one prompt version"
    )
    add_include_simulated_option(parser)
    add_engine_options(parser)


def filters(args: argparse.Namespace) -> dict[str, Any]:
    """The exploratory filters of ``args`` as keyword arguments (the window checked)."""
    check_window(args.since, args.until)
    return {
        "since": args.since,
        "until": args.until,
        "service": args.service,
        "role": args.role,
        "prompt_version": args.prompt_version,
        "include_simulated": args.include_simulated,
    }


def write_output(text: str, out: str | None) -> None:
    """Write ``text`` to ``out`` (a path) or standard output."""
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


@command("report")
def run_report_command(args: argparse.Namespace) -> int:
    """The ``report`` command: 0 with a report, 1 when the store fails or a filter selects nothing."""
    selection = filters(args)
    db = str(resolve_db_path(args.db)) if args.engine == "duckdb" else None
    prereg = args.prereg or str(default_preregistration_path())
    quality = args.detector_quality
    measured = None
    if quality is None:
        quality = str(DEFAULT_DETECTOR_QUALITY)
        if not Path(quality).exists():
            # No detector-eval output here (e.g. an installed wheel): measure now.
            measured = measure_detector_quality()
    # The one reader path (docs/concurrency.md): the live file, or the
    # latest snapshot while a writer holds it; never a lock error.
    with reader(args, "report", db) as view:
        report = build_report(
            view.connection,
            prereg,
            detector_quality_path=quality or None,
            detector_quality=measured,
            detector_quality_source="measured now on the labelled corpus"
            if measured is not None
            else None,
            database=db if db is not None else view.describe(),
            **selection,
        )
        if report.scope.exploratory and not report.window.sessions:
            # A filter that selects nothing is a question with no data, not a verdict.
            reason = explain_empty_report(view.connection, prereg, **selection)
            if reason:
                return fail("report", reason, EXIT_FAILURE)
    write_output(
        report.to_json() + "\n" if args.format == "json" else report.to_markdown(), args.out
    )
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope report``."""
    parser = subparsers.add_parser(
        "report",
        help="the verdict on ContextView and recurse(...), with intervals",
        description=(
            "Compute the pre-registered verdicts (ContextView, recurse) with session-bootstrap "
            "intervals and render them as Markdown or JSON. Filters make the view exploratory; "
            "a filter that selects no session is an error naming what exists."
        ),
        epilog=(
            "example: recurscope report --db data/recurscope.duckdb --format md --out verdict.md\n"
            "         recurscope report --since 30d --role coder --format json\n"
            "         recurscope report --engine clickhouse --dsn clickhouse://u:p@ch:8123/otel "
            "--refresh"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_arguments(parser)
    add_detector_quality_option(parser)
    parser.set_defaults(func=run_report_command)

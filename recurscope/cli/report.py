"""``recurscope report``: the verdict as Markdown or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import duckdb

from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.store.locking import read_connection
from recurscope.pipeline.verdict.report import (
    DEFAULT_DETECTOR_QUALITY,
    build_report,
    measure_detector_quality,
    parse_when,
)
from recurscope.pipeline.verdict.rule import (
    default_preregistration_path,
)


def db_path(explicit: str | None) -> str:
    """``--db``, else ``$RECURSCOPE_DB``, else ``data/recurscope.duckdb`` (as the store resolves)."""
    from recurscope.pipeline.store.database import resolve_db_path

    return str(resolve_db_path(explicit))


def note_snapshot(view: Any, command: str) -> None:
    """Say on stderr when a read command reads a snapshot because a writer holds the store."""
    if view.source == "snapshot":
        print(f"recurscope {command}: reading a {view.describe()}", file=sys.stderr)


def open_read_only(path: str) -> tuple[Any, duckdb.DuckDBPyConnection]:
    """Open the store file read-only; returns (closer, connection).

    Uses the store's opener so a file held by a writer gives the store's
    explanatory error, never a raw DuckDB lock error.
    """
    from recurscope.pipeline.store.database import Store

    store = Store.open(path, read_only=True)
    return store, store.connection


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db``, ``--prereg``, ``--format``, ``--out`` and the filters, shared with compare."""
    parser.add_argument(
        "--db",
        default=None,
        help="DuckDB file (default: $RECURSCOPE_DB or data/recurscope.duckdb); opened read-only",
    )
    parser.add_argument(
        "--prereg",
        default=None,
        help="pre-registration TOML (default: data/preregistration.toml)",
    )
    parser.add_argument("--format", choices=("md", "json"), default="md", help="output format")
    parser.add_argument("--out", default=None, help="write here instead of standard output")
    parser.add_argument("--since", default=None, help="exploratory: spans from this date/time")
    parser.add_argument(
        "--until",
        default=None,
        help="exploratory: spans up to this date (inclusive) or before this date/time",
    )
    parser.add_argument("--service", default=None, help="exploratory: one service name")
    parser.add_argument("--role", default=None, help="exploratory: calls handled by one role")
    parser.add_argument(
        "--prompt-version", default=None, help="exploratory: spans of one prompt version"
    )
    parser.add_argument(
        "--include-simulated",
        action="store_true",
        help="also use simulated and replayed spans (recurscope.origin); the output says so. "
        "Without it only observed spans count",
    )


def write_output(text: str, out: str | None) -> None:
    """Write ``text`` to ``out`` (a path) or standard output."""
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def _run_report(args: argparse.Namespace) -> int:
    db = db_path(args.db)
    prereg = args.prereg or str(default_preregistration_path())
    try:
        since = parse_when(args.since) if args.since else None
        until = parse_when(args.until, end=True) if args.until else None
        # The one reader path (docs/concurrency.md): the live file, or the
        # latest snapshot while a writer holds it; never a lock error.
        measured = None
        if (
            args.detector_quality == str(DEFAULT_DETECTOR_QUALITY)
            and not Path(args.detector_quality).exists()
        ):
            # No detector-eval output here (e.g. an installed wheel): measure now.
            measured = measure_detector_quality()
        with read_connection(db) as view:
            note_snapshot(view, "report")
            report = build_report(
                view.connection,
                prereg,
                since=since,
                until=until,
                service=args.service,
                role=args.role,
                prompt_version=args.prompt_version,
                detector_quality_path=args.detector_quality or None,
                detector_quality=measured,
                detector_quality_source="measured now on the labelled corpus"
                if measured is not None
                else None,
                database=db,
                include_simulated=args.include_simulated,
            )
    except PipelineError as error:
        print(f"recurscope report: {error}", file=sys.stderr)
        return 2
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
            "intervals and render them as Markdown or JSON. Filters make the view exploratory."
        ),
        epilog=(
            "example: recurscope report --db data/recurscope.duckdb --format md --out verdict.md"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_arguments(parser)
    parser.add_argument(
        "--detector-quality",
        default=str(DEFAULT_DETECTOR_QUALITY),
        help="detector precision/recall JSON (default: data/detector-quality.json)",
    )
    parser.set_defaults(func=_run_report)

"""Options of the read commands ``sessions`` and ``quarantine`` (to fold into ``_options``)."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any

from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.store.database import DB_ENV_VAR, DEFAULT_DB_PATH, resolve_db_path
from recurscope.pipeline.verdict.report import parse_when


def db_path(explicit: str | None) -> str:
    return str(resolve_db_path(explicit))


def note_snapshot(view: Any, command: str) -> None:
    if view.source == "snapshot":
        print(f"recurscope {command}: reading a {view.describe()}", file=sys.stderr)


def window(since: str | None, until: str | None) -> tuple[datetime | None, datetime | None]:
    start = parse_when(since) if since else None
    end = parse_when(until, end=True) if until else None
    if start is not None and end is not None and start >= end:
        raise PipelineError(f"--since {since} is not before --until {until}: nothing can match.")
    return start, end


def fail(command: str, error: PipelineError) -> int:
    print(f"recurscope {command}: error: {error}", file=sys.stderr)
    return 1


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"the DuckDB store (default: ${DB_ENV_VAR}, else {DEFAULT_DB_PATH}); opened read-only",
    )


def add_window_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--since", metavar="WHEN", help="from this date or date/time (UTC)")
    parser.add_argument(
        "--until", metavar="WHEN", help="up to this date (inclusive) or before this date/time"
    )


def add_format_argument(
    parser: argparse.ArgumentParser, choices: tuple[str, ...], default: str
) -> None:
    parser.add_argument(
        "--format", choices=choices, default=default, help=f"output format (default: {default})"
    )


def positive_int(text: str) -> int:
    value = non_negative_int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value

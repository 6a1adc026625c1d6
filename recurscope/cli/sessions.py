"""``recurscope sessions``: the sessions a store holds, newest activity first.

A table for people (``--format text``) or a JSON array for programs
(``--format json``); every text value is terminal-safe
(:func:`recurscope.pipeline.evidence.inspect.terminal_safe`). The listing reads
the raw spans, so a session shows as soon as it is stored, before any
evidence refresh (see :mod:`recurscope.pipeline.evidence.inspect`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from recurscope.cli import _options
from recurscope.cli._engine import add_engine_options, reader
from recurscope.pipeline.evidence.inspect import (
    SessionFilter,
    SessionSummary,
    describe_empty,
    list_sessions,
)
from recurscope.pipeline.store.database import resolve_db_path

ORIGINS = ("observed", "simulated", "replayed")
DEFAULT_LIMIT = 50

_COLUMNS = (
    # header, width (0: the rest), value
    ("LAST SPAN (UTC)", 19),
    ("SPANS", 7),
    ("CALLS", 6),
    ("TRIMS", 6),
    ("SHIFTS", 6),
    ("DELEG", 6),
    ("HIST", 5),
    ("ORIGIN", 9),
    ("SERVICE", 18),
    ("SESSION", 0),
)


def _cells(row: SessionSummary) -> tuple[str, ...]:
    return (
        row.last_span_at.strftime("%Y-%m-%d %H:%M:%S"),
        f"{row.spans:,}",
        f"{row.calls:,}",
        f"{row.trims:,}",
        f"{row.boundary_shifts:,}",
        f"{row.delegations:,}",
        f"{row.history_reading_calls:,}",
        ",".join(row.origins) or "observed",
        ",".join(row.service_names) or "-",
        row.session_id,
    )


def render_table(rows: Sequence[SessionSummary]) -> str:
    """Aligned columns, one session per line (the session id last: it may be long)."""
    lines = []
    header = [name.ljust(width) if width else name for name, width in _COLUMNS]
    lines.append("  ".join(header).rstrip())
    for row in rows:
        cells = _cells(row)
        out = []
        for (_, width), cell in zip(_COLUMNS, cells, strict=True):
            if width and len(cell) > width:
                cell = cell[: width - 1] + "…"
            out.append(cell.rjust(width) if width and cell[:1].isdigit() else cell.ljust(width))
        lines.append("  ".join(out).rstrip())
    return "\n".join(lines) + "\n"


@_options.command("sessions")
def _run(args: argparse.Namespace) -> int:
    limit = None if args.limit == 0 else args.limit
    _options.check_window(args.since, args.until)
    flt = SessionFilter.of(
        since=args.since, until=args.until, origins=args.origin or None, service=args.service
    )
    db = resolve_db_path(args.db) if args.engine == "duckdb" else None
    spine_filter = {
        "since": flt.since,
        "until": flt.until,
        "service": flt.service,
        "origins": flt.origins,
    }
    with reader(
        args, "sessions", None if db is None else str(db), session_filter=spine_filter
    ) as view:
        # One more than shown: to say that the list was cut.
        rows = list_sessions(
            view.connection,
            since=flt.since,
            until=flt.until,
            origins=flt.origins,
            service=flt.service,
            limit=None if limit is None else limit + 1,
        )
        empty = describe_empty(view.connection, flt) if not rows else ""
    more = limit is not None and len(rows) > limit
    rows = rows[:limit] if limit is not None else rows
    if args.format == "json":
        sys.stdout.write(json.dumps([r.to_json() for r in rows], ensure_ascii=False) + "\n")
    elif rows:
        sys.stdout.write(render_table(rows))
    if more:
        print(
            f"recurscope sessions: showing the {limit} most recent; --limit 0 lists all",
            file=sys.stderr,
        )
    if not rows:
        return _options.fail("sessions", empty or "no sessions in the store")
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope sessions``."""
    parser = subparsers.add_parser(
        "sessions",
        help="list the sessions in the store: spans, calls, trims, time span, service, origin",
        description=(
            "List the sessions (gen_ai.conversation.id) the store holds, newest activity "
            "first, with their span, call, trim, boundary-shift, delegation and "
            "history-reading counts, time span, services and origin. Read from the raw "
            "spans, so a session shows before any evidence refresh. Exits 1 when nothing "
            "matches, saying why."
        ),
        epilog=(
            "examples:\n"
            "  recurscope sessions --since 7d\n"
            "  recurscope sessions --origin observed --service my-agent --format json\n"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _options.add_db_option(parser, read_only=True)
    add_engine_options(parser)
    _options.add_window_options(parser, what="sessions with spans")
    parser.add_argument(
        "--origin",
        action="append",
        choices=ORIGINS,
        help="only sessions with spans of this origin (repeatable; default: all)",
    )
    parser.add_argument("--service", metavar="NAME", help="only sessions of this service.name")
    parser.add_argument(
        "--limit",
        type=_options.non_negative_int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"at most N sessions, the most recent (default: {DEFAULT_LIMIT}; 0: all)",
    )
    _options.add_format_option(parser, ("text", "json"), "text")
    parser.set_defaults(func=_run)

"""``recurscope quarantine``: what could not be stored, counted by source and reason, then listed.

By default a summary (records per source and reason) and the most recent
records with their position and an excerpt; ``--summary`` gives the counts
alone. ``--format json`` prints ``{"summary": [...], "records": [...]}``.
Every text value is terminal-safe: a hostile excerpt cannot move the cursor or
clear the screen (:func:`recurscope.pipeline.evidence.inspect.terminal_safe`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from recurscope.cli import _options
from recurscope.pipeline.evidence.inspect import (
    QuarantineCount,
    QuarantineFilter,
    QuarantineRecord,
    describe_empty,
    list_quarantine,
    quarantine_summary,
)
from recurscope.pipeline.store.database import resolve_db_path
from recurscope.pipeline.store.locking import read_connection

DEFAULT_LIMIT = 20


def render_summary(counts: Sequence[QuarantineCount]) -> str:
    """Records per (source, reason), the most records first within each source."""
    width = max([len(f"{c.records:,}") for c in counts] + [7])
    lines = [f"{'RECORDS'.rjust(width)}  {'REASON':<22}  SOURCE"]
    for count in sorted(counts, key=lambda c: (c.source, -c.records, c.reason)):
        lines.append(f"{count.records:>{width},}  {count.reason:<22}  {count.source}")
    total = sum(c.records for c in counts)
    lines.append(f"{total:>{width},}  {'(total)':<22}  {len({c.source for c in counts})} source(s)")
    return "\n".join(lines) + "\n"


def _where(record: QuarantineRecord) -> str:
    parts = [record.source]
    if record.line is not None:
        parts.append(f"line {record.line}")
    elif record.byte_offset is not None:
        parts.append(f"byte {record.byte_offset}")
    if record.span_index is not None:
        parts.append(f"span {record.span_index}")
    return ", ".join(parts)


def render_records(records: Sequence[QuarantineRecord]) -> str:
    """One block per record: where, why, and the start of what was sent."""
    blocks = []
    for record in records:
        lines = [
            f"#{record.ingest_id} {_where(record)}",
            f"  {record.reason}: {record.detail}",
        ]
        if record.trace_id or record.span_id:
            lines.append(f"  trace {record.trace_id or '-'} span {record.span_id or '-'}")
        if record.excerpt:
            lines.append(f"  excerpt: {record.excerpt}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _source_arg(text: str | None) -> str | None:
    """Sources are stored as absolute paths: a relative path to an existing file is resolved."""
    if text is None or text in ("-", "<stdin>") or not os.path.exists(text):
        return "<stdin>" if text == "-" else text
    return os.path.abspath(text)


@_options.command("quarantine")
def _run(args: argparse.Namespace) -> int:
    limit = None if args.limit == 0 else args.limit
    flt = QuarantineFilter(source=_source_arg(args.source), reason=args.reason)
    with read_connection(resolve_db_path(args.db)) as view:
        _options.note_snapshot(view, "quarantine")
        con = view.connection
        counts = quarantine_summary(con, source=flt.source, reason=flt.reason)
        records: list[QuarantineRecord] = []
        if not args.summary and counts:
            records = list_quarantine(
                con,
                source=flt.source,
                reason=flt.reason,
                limit=limit,
                excerpt_chars=args.excerpt_chars,
            )
        empty = describe_empty(con, flt) if not counts else ""
    total = sum(c.records for c in counts)
    if args.format == "json":
        payload = {
            "summary": [c.to_json() for c in counts],
            "records": [r.to_json() for r in records],
        }
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    elif counts:
        sys.stdout.write(render_summary(counts))
        if records:
            sys.stdout.write("\n" + render_records(records))
    if records and len(records) < total:
        print(
            f"recurscope quarantine: showing the {len(records)} most recent of {total:,} "
            "records; --limit 0 lists all, --source/--reason narrow",
            file=sys.stderr,
        )
    if not counts:
        # Nothing quarantined is good news, not a failure — unless a filter asked for something.
        if flt.source is not None or flt.reason is not None:
            return _options.fail("quarantine", empty)
        print(f"recurscope quarantine: {empty or 'nothing quarantined'}", file=sys.stderr)
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope quarantine``."""
    parser = subparsers.add_parser(
        "quarantine",
        help="what could not be stored: records counted by source and reason, then listed",
        description=(
            "Show the quarantine: records ingest and serve could not store, counted by "
            "source and reason, then the most recent ones with where they were (line, byte, "
            "span), why, and the start of what was sent. Exits 1 when a --source or --reason "
            "matches nothing, saying what exists; an empty quarantine exits 0."
        ),
        epilog=(
            "examples:\n"
            "  recurscope quarantine\n"
            "  recurscope quarantine --source traces/run-7.jsonl --reason invalid_json\n"
            "  recurscope quarantine --summary --format json\n"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _options.add_db_option(parser, read_only=True)
    parser.add_argument(
        "--source",
        metavar="SOURCE",
        help="only this source: a file as ingested (relative paths are resolved), - for "
        "stdin, or a receiver segment as listed",
    )
    parser.add_argument("--reason", metavar="REASON", help="only this reason, e.g. invalid_json")
    parser.add_argument("--summary", action="store_true", help="the counts only, no records")
    parser.add_argument(
        "--limit",
        type=_options.non_negative_int,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"at most N records, the most recent (default: {DEFAULT_LIMIT}; 0: all)",
    )
    parser.add_argument(
        "--excerpt-chars",
        type=_options.positive_int,
        default=200,
        metavar="N",
        help="characters of each record's excerpt to show (default: 200)",
    )
    _options.add_format_option(parser, ("text", "json"), "text")
    parser.set_defaults(func=_run)

"""``recurscope prune``: spans removed by age or session, the file rewritten."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.store.database import DB_ENV_VAR, DEFAULT_DB_PATH
from recurscope.pipeline.store.locking import DEFAULT_LOCK_TIMEOUT, companions, open_for_writing
from recurscope.pipeline.store.prune import (
    PruneReport,
    parse_cutoff,
    prune,
    rewrite_store,
)


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope prune`` on the CLI's subparsers."""
    parser = subparsers.add_parser(
        "prune",
        help="delete spans older than a date, or everything of one session",
        description=(
            "Retention and deletion. --before DATE deletes spans that started before DATE, "
            "quarantine rows recorded before it and the evidence rows built from them. "
            "--session ID deletes everything of one session: its spans, host spans in its "
            "traces, attributable quarantine rows, and every evidence row naming it. Then "
            "the file is checkpointed and (by default for --session) rewritten so the "
            "deleted values are gone from it, and the readers' snapshot is republished."
        ),
        epilog="Example: recurscope prune --session 3f2c9a --dry-run",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--before", metavar="DATE", help="2026-01-31, 2026-01-31T12:00:00Z, or 30d / 12h / 2w ago"
    )
    which.add_argument("--session", metavar="ID", help="a gen_ai.conversation.id")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"the DuckDB store (default: ${DB_ENV_VAR}, else {DEFAULT_DB_PATH})",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="report what would be deleted, delete nothing"
    )
    parser.add_argument(
        "--rewrite",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="rewrite the file after deleting so no deleted value remains in it "
        "(default: on for --session, off for --before)",
    )
    parser.add_argument(
        "--lock-timeout",
        type=float,
        default=DEFAULT_LOCK_TIMEOUT,
        metavar="SECONDS",
        help=f"wait this long for another writer to release the store (default: "
        f"{DEFAULT_LOCK_TIMEOUT:g})",
    )
    parser.set_defaults(func=run_prune_command)


def run_prune_command(args: argparse.Namespace) -> int:
    """The ``prune`` command: 0 on success, 1 when the store cannot be pruned."""
    try:
        before = parse_cutoff(args.before) if args.before is not None else None
    except ValueError as error:
        print(f"recurscope prune: error: {error}", file=sys.stderr)
        return 2
    rewrite = args.rewrite if args.rewrite is not None else args.session is not None
    db = companions(args.db).db
    if not db.exists():
        print(f"recurscope prune: error: no store at {db}", file=sys.stderr)
        return 1

    def waiting(message: str) -> None:
        print(f"recurscope prune: {message}", file=sys.stderr, flush=True)

    try:
        with open_for_writing(
            db, kind="recurscope prune", lock_timeout=args.lock_timeout, on_wait=waiting
        ) as writer:
            report = prune(writer.store, session=args.session, before=before, dry_run=args.dry_run)
            if report.changed and not args.dry_run:
                writer.mark_dirty(spans=True)
                if rewrite:
                    size_before, size_after = rewrite_store(writer.store)
                    # The open connection still reads the old file: it must not
                    # refresh or publish; a fresh writer does both below.
                    writer.publish_snapshots = False
                    writer.refresh = False
                    report = _with_sizes(report, size_before, size_after)
        if report.rewritten:
            with open_for_writing(
                db, kind="recurscope prune", lock_timeout=args.lock_timeout, on_wait=waiting
            ) as writer:
                writer.mark_dirty(spans=True)
                if companions(db).snapshot.exists():
                    writer.publish()
    except PipelineError as error:
        print(f"recurscope prune: error: {error}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return 0


def _with_sizes(report: PruneReport, before: int, after: int) -> PruneReport:
    return dataclasses.replace(report, rewritten=True, bytes_before=before, bytes_after=after)

"""``recurscope prune``: spans removed by age or session, the file rewritten."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC

from recurscope.cli._options import (
    WHEN_HELP,
    add_db_option,
    add_lock_timeout_option,
    command,
    fail,
    lock_wait,
    parse_when_arg,
)
from recurscope.pipeline.store.locking import companions
from recurscope.pipeline.store.prune import prune_store
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope prune`` on the CLI's subparsers."""
    parser = subparsers.add_parser(
        "prune",
        help="delete spans older than a date, or everything of one session",
        description=(
            "Retention and deletion. --before WHEN deletes spans that started before WHEN, "
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
        "--before", type=parse_when_arg, metavar="WHEN", help=f"delete what is older: {WHEN_HELP}"
    )
    which.add_argument("--session", metavar="ID", help="a gen_ai.conversation.id")
    add_db_option(parser)
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
    add_lock_timeout_option(parser)
    parser.set_defaults(func=run_prune_command)


@command("prune")
def run_prune_command(args: argparse.Namespace) -> int:
    """The ``prune`` command: 0 on success, 1 when the store cannot be pruned."""
    # The date flags give naive UTC; prune() wants an aware instant.
    before = args.before.replace(tzinfo=UTC) if args.before is not None else None
    rewrite = args.rewrite if args.rewrite is not None else args.session is not None
    db = companions(args.db).db
    if not db.exists():
        return fail("prune", f"no store at {db}")

    def waiting(message: str) -> None:
        print(f"recurscope prune: {message}", file=sys.stderr, flush=True)

    report = prune_store(
        db,
        session=args.session,
        before=before,
        dry_run=args.dry_run,
        rewrite=rewrite,
        on_wait=waiting,
        upkeep=EvidenceUpkeep(),
        **lock_wait(args),
    )
    for line in report.lines():
        print(line)
    return 0

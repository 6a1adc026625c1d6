"""``recurscope ingest``: files, directories, globs and stdin into the store."""

from __future__ import annotations

import argparse
import sys

from recurscope.cli._options import (
    add_db_option,
    add_input_format_option,
    add_lock_timeout_option,
    add_progress_option,
    command,
    fail,
    lock_wait,
    parse_size,
    parse_size_or_zero,
)
from recurscope.pipeline.decode.formats import FormatOptions
from recurscope.pipeline.ingest.files import (
    DEFAULT_BATCH_SIZE,
    ingest,
)
from recurscope.pipeline.ingest.parallel import (
    PARALLEL_AFTER_BYTES,
    default_workers,
)
from recurscope.pipeline.records import (
    DecodeLimits,
)
from recurscope.pipeline.store.locking import open_for_writing
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope ingest`` on the CLI's subparsers."""
    defaults = DecodeLimits()
    parser = subparsers.add_parser(
        "ingest",
        help="load OTLP trace files (JSON lines, JSON, protobuf, gzip) into the DuckDB store",
        description=(
            "Load OpenTelemetry spans into the recurscope DuckDB store. Reads files, "
            "directories (recursively), globs and - (stdin); detects gzip and the format. "
            "Re-running is safe: spans already stored are skipped, unchanged files are "
            "skipped by checksum, and a JSON-lines file that grew is read from where the "
            "last run stopped. Malformed records go to the quarantine table with a reason."
        ),
        epilog="Example: recurscope ingest --db data/recurscope.duckdb traces/ spans.jsonl.gz",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="file, directory, glob, or - for stdin"
    )
    add_db_option(parser)
    add_input_format_option(parser)
    parser.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH_SIZE,
        metavar="N",
        help=f"spans per database write (default: {DEFAULT_BATCH_SIZE:,})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help=(
            "processes that decode JSON lines while the main one writes, on inputs over "
            f"{PARALLEL_AFTER_BYTES // 1024**2} MiB (default: {default_workers()} here, one per "
            "core but one; 0 decodes in one process)"
        ),
    )
    parser.add_argument(
        "--parallel-after",
        type=parse_size_or_zero,
        default=PARALLEL_AFTER_BYTES,
        metavar="SIZE",
        help="JSON lines decoded in this process before the workers start (default: 48MiB)",
    )
    parser.add_argument(
        "--max-record-bytes",
        type=parse_size,
        default=defaults.max_record_bytes,
        metavar="SIZE",
        help="largest JSON line/document or protobuf file (default: 64MiB)",
    )
    parser.add_argument(
        "--max-attribute-bytes",
        type=parse_size,
        default=defaults.max_attribute_bytes,
        metavar="SIZE",
        help="largest attribute value; bigger ones quarantine their span (default: 1MiB)",
    )
    parser.add_argument(
        "--max-decompressed-bytes",
        type=parse_size,
        default=defaults.max_decompressed_bytes,
        metavar="SIZE",
        help="largest decompressed size of a gzip source (default: 16GiB)",
    )
    parser.add_argument(
        "--max-compression-ratio",
        type=float,
        default=defaults.max_compression_ratio,
        metavar="RATIO",
        help="largest gzip decompression ratio past the first 16MiB (default: 1000)",
    )
    add_lock_timeout_option(parser)
    add_progress_option(parser, when="only when stderr is a terminal")
    # Options for formats that convert native logs (docs/formats.md); OTLP ignores them.
    parser.add_argument(
        "--session",
        metavar="ID",
        help="session (gen_ai.conversation.id) for every span of a native log such as "
        "recurgent_jsonl (default: the log's own field, else one session per file)",
    )
    parser.add_argument(
        "--capture-content",
        action="store_true",
        help="keep arguments, generated code and prompts of native logs (dropped by default)",
    )
    parser.set_defaults(func=run_ingest_command)


@command("ingest")
def run_ingest_command(args: argparse.Namespace) -> int:
    """The ``ingest`` command: returns the process exit code."""
    limits = DecodeLimits(
        max_record_bytes=args.max_record_bytes,
        max_attribute_bytes=args.max_attribute_bytes,
        max_decompressed_bytes=args.max_decompressed_bytes,
        max_compression_ratio=args.max_compression_ratio,
    )

    def waiting(message: str) -> None:
        print(f"recurscope ingest: {message}", file=sys.stderr, flush=True)

    # Writers take turns (docs/concurrency.md): wait for the holder, publish
    # snapshots for readers while writing, and one more when letting go.
    # The command hands the store the evidence upkeep: refreshed before readers see it.
    with open_for_writing(
        args.db,
        kind="recurscope ingest",
        on_wait=waiting,
        upkeep=EvidenceUpkeep(),
        **lock_wait(args),
    ) as session:
        report = ingest(
            args.paths,
            session.store,
            format=args.input_format,
            limits=limits,
            batch_size=args.batch_size,
            progress=args.progress,
            after_write=session.after_write,
            workers=args.workers,
            parallel_after=args.parallel_after,
            options=FormatOptions(
                session=getattr(args, "session", None),
                capture_content=getattr(args, "capture_content", False),
            ),
        )
    for source in report.failed:
        fail("ingest", f"{source.source}: {source.note}")
    print(report.summary_line())
    for line in report.details_lines():
        print(line)
    if report.nothing_read and not report.failed:
        fail("ingest", "nothing could be read (every record was quarantined)")
    return int(report.exit_code)

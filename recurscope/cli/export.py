"""``recurscope export``: the store's tables as Parquet."""

from __future__ import annotations

import argparse

from recurscope.cli._engine import add_engine_options, reader
from recurscope.cli._options import add_db_option, command
from recurscope.pipeline.store.export import (
    COMPRESSIONS,
    ExportReport,
    export_tables,
)


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope export`` on the CLI's subparsers."""
    parser = subparsers.add_parser(
        "export",
        help="write raw spans and every evidence table to Parquet files",
        description=(
            "Write otel_traces and every evidence table of the store to Parquet, one file "
            "per table (<table>.parquet) in --out. The store is opened read-only; while a "
            "writer holds it, its latest snapshot is exported instead (and the output says "
            "so). Bookkeeping tables (recurscope_meta, ingest_log, quarantine, *_log) are "
            "left out unless --include-bookkeeping or named with --table."
        ),
        epilog="Example: recurscope export --out exports/2026-03-01 --db data/recurscope.duckdb",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="folder for the Parquet files")
    add_db_option(parser, read_only=True)
    add_engine_options(parser)
    parser.add_argument(
        "--table",
        action="append",
        dest="tables",
        metavar="NAME",
        help="export only this table (repeatable)",
    )
    parser.add_argument(
        "--include-bookkeeping",
        action="store_true",
        help="also export recurscope_meta, ingest_log, quarantine and *_log tables",
    )
    parser.add_argument(
        "--compression",
        choices=COMPRESSIONS,
        default="snappy",
        help="Parquet compression (default: snappy)",
    )
    parser.set_defaults(func=run_export_command)


@command("export")
def run_export_command(args: argparse.Namespace) -> int:
    """The ``export`` command: 0 on success, 1 when the store or the folder fails."""
    with reader(args, "export") as view:
        report = export_tables(
            view.connection,
            args.out,
            tables=args.tables,
            include_bookkeeping=args.include_bookkeeping,
            compression=args.compression,
        )
        if view.source != "live":
            report = ExportReport(report.tables, report.skipped, view.source, view.describe())
    for table in report.tables:
        print(f"  {table.table:<32} {table.rows:>12,} rows  {table.path}")
    print(report.summary())
    return 0

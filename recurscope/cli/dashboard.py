"""``recurscope dashboard`` and ``recurscope demo``."""

from __future__ import annotations

import argparse
from pathlib import Path

from recurscope.cli._engine import add_engine_options
from recurscope.cli._options import (
    UsageError,
    add_db_option,
    add_detector_quality_option,
    add_include_simulated_option,
    add_prereg_option,
    command,
)
from recurscope.dashboards.cli import (
    DEFAULT_DEMO_DB,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DashboardError,
    prepare_demo,
    serve_dashboard,
)


def _add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to serve on (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to bind (default 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open a browser, just print the URL"
    )


@command("dashboard", errors=(DashboardError,))
def _run_dashboard(args: argparse.Namespace) -> int:
    from recurscope.pipeline.store.database import resolve_db_path

    if args.engine == "clickhouse":
        db = _clickhouse_copy(args)
    else:
        if args.dsn or args.refresh:
            raise UsageError("--dsn and --refresh go with --engine clickhouse")
        db = resolve_db_path(args.db)
    return int(
        serve_dashboard(
            db,
            host=args.host,
            port=args.port,
            open_browser=not args.no_browser,
            preregistration=args.prereg,
            detector_quality=args.detector_quality,
            include_simulated=args.include_simulated,
        )
    )


def _clickhouse_copy(args: argparse.Namespace) -> Path:
    """ClickHouse's evidence written to a store file the dashboard reads (``--db`` or a temp file)."""
    import os
    import tempfile

    from recurscope.cli._engine import DSN_ENV_VAR
    from recurscope.pipeline.evidence.clickhouse import write_evidence_store

    dsn = args.dsn or os.environ.get(DSN_ENV_VAR)
    if not dsn:
        raise UsageError(f"--engine clickhouse needs --dsn (or ${DSN_ENV_VAR})")
    target = (
        Path(args.db)
        if args.db
        else Path(tempfile.mkdtemp(prefix="recurscope-clickhouse-")) / "evidence.duckdb"
    )
    print(f"recurscope dashboard: copying ClickHouse's evidence into {target} ...", flush=True)
    return Path(write_evidence_store(dsn, target, refresh_first=args.refresh))


@command("demo", errors=(DashboardError,))
def _run_demo(args: argparse.Namespace) -> int:
    db = Path(args.db) if args.db else DEFAULT_DEMO_DB
    print(f"recurscope demo: preparing simulated demo data in {db} ...", flush=True)
    demo = prepare_demo(db, seed=args.seed, sessions=args.sessions)
    print(
        f"recurscope demo: {demo.sessions} sessions, {demo.runs} runs over {demo.days} days, "
        f"{demo.spans:,} spans (all marked simulated)"
        + (
            f", plus {demo.replayed_sessions} replayed sessions ({demo.replayed_spans:,} spans "
            "marked replayed: the sample conversations through every trim strategy)"
            if demo.replayed_spans
            else ""
        )
        + f" ready in {demo.seconds:.1f} s",
        flush=True,
    )
    quality = f" --detector-quality {demo.detector_quality}" if demo.detector_quality else ""
    print(
        f"  verdict as Markdown: recurscope report --db {db}{quality} --include-simulated",
        flush=True,
    )
    if args.prepare_only:
        return 0
    return int(
        serve_dashboard(
            db,
            host=args.host,
            port=args.port,
            open_browser=not args.no_browser,
            detector_quality=str(demo.detector_quality) if demo.detector_quality else "",
            include_simulated=True,
        )
    )


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``recurscope dashboard`` and ``recurscope demo``."""
    dashboard = subparsers.add_parser(
        "dashboard",
        help="the Streamlit dashboard: verdict and evidence down to one session",
        description=(
            "Serve the dashboard on 127.0.0.1 (Streamlit's usage statistics off). It only "
            "reads, through snapshots while another process writes, so it runs beside "
            "`recurscope serve` and `recurscope ingest`."
        ),
        epilog="example: recurscope dashboard --db data/recurscope.duckdb --port 8501",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db_option(dashboard, read_only=True)
    add_prereg_option(dashboard)
    add_detector_quality_option(dashboard)
    add_include_simulated_option(
        dashboard,
        help="start with simulated and replayed spans included (a sidebar toggle; off: "
        "observed spans only, like `recurscope report`)",
    )
    add_engine_options(dashboard)
    _add_server_arguments(dashboard)
    dashboard.set_defaults(func=_run_dashboard)

    demo = subparsers.add_parser(
        "demo",
        help="simulated demo data, its evidence and the dashboard, in one command",
        description=(
            "Generate simulated spans through the real instrumentation (seeded; every span "
            "marked recurscope.origin=simulated), ingest them into a fresh demo store, build "
            "the evidence and serve the dashboard. Running it again rebuilds the store."
        ),
        epilog="example: recurscope demo --no-browser --port 8502",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db_option(
        demo, help=f"the demo store to (re)build (default: {DEFAULT_DEMO_DB}; not $RECURSCOPE_DB)"
    )
    demo.add_argument(
        "--seed", type=int, default=7, metavar="N", help="seed of the simulated data (default 7)"
    )
    demo.add_argument(
        "--sessions", type=int, default=160, metavar="N", help="sessions to simulate (default 160)"
    )
    demo.add_argument(
        "--prepare-only",
        action="store_true",
        help="build the demo store and exit without serving the dashboard",
    )
    _add_server_arguments(demo)
    demo.set_defaults(func=_run_demo)

"""``--engine`` and ``--dsn``: where the evidence a read command shows is computed.

``--engine duckdb`` (the default) reads the store named by ``--db``;
``--engine clickhouse --dsn DSN`` reads the evidence tables ClickHouse built
from the OpenTelemetry Collector's ``otel_traces`` (docs/scale-out.md), with
``--refresh`` to bring them up to date there first. Both give the command a
DuckDB connection holding the same tables, so every command below runs
unchanged.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from recurscope.cli._options import UsageError, note_snapshot

DSN_ENV_VAR: Final = "RECURSCOPE_CLICKHOUSE_DSN"


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """``--engine {duckdb,clickhouse}``, ``--dsn DSN`` and ``--refresh``."""
    parser.add_argument(
        "--engine",
        choices=("duckdb", "clickhouse"),
        default="duckdb",
        help="where the evidence is computed: the DuckDB store (--db, default) or ClickHouse "
        "(--dsn; docs/scale-out.md)",
    )
    parser.add_argument(
        "--dsn",
        metavar="DSN",
        default=None,
        help=f"with --engine clickhouse: clickhouse://USER:PASSWORD@HOST:8123/DATABASE "
        f"(a server; DATABASE holds the exporter's otel_traces) or chdb://PATH "
        f"(in-process); default ${DSN_ENV_VAR}",
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help="with --engine clickhouse: refresh the evidence inside ClickHouse before reading",
    )


@dataclass(frozen=True, slots=True)
class ClickHouseView:
    """The evidence read from ClickHouse, shaped like the store's ``ReadView`` for commands."""

    connection: Any
    dsn: str
    source: str = "clickhouse"

    def describe(self) -> str:
        from recurscope.pipeline.evidence.clickhouse import _redacted

        return f"ClickHouse evidence at {_redacted(self.dsn)}"


@contextmanager
def reader(
    args: argparse.Namespace,
    name: str,
    db: str | None = None,
    *,
    session_filter: dict[str, Any] | None = None,
) -> Iterator[Any]:
    """The read view a command uses: the DuckDB store, or ClickHouse's evidence.

    ``session_filter`` (``sessions``): the filter whose per-session spine
    ClickHouse computes from its raw spans for the listing.
    """
    engine = getattr(args, "engine", "duckdb")
    dsn = getattr(args, "dsn", None) or None
    if engine == "duckdb":
        if dsn or getattr(args, "refresh", False):
            raise UsageError("--dsn and --refresh go with --engine clickhouse")
        from recurscope.pipeline.store.locking import read_connection

        with read_connection(db if db is not None else args.db) as view:
            note_snapshot(view, name)
            yield view
        return
    dsn = dsn or os.environ.get(DSN_ENV_VAR) or None
    if not dsn:
        raise UsageError(
            f"--engine clickhouse needs --dsn (or ${DSN_ENV_VAR}): "
            "clickhouse://USER:PASSWORD@HOST:8123/DATABASE or chdb://PATH"
        )
    if getattr(args, "db", None):
        raise UsageError("--db names a DuckDB store: leave it out with --engine clickhouse")
    from recurscope.pipeline.evidence.clickhouse import open_evidence

    with open_evidence(
        dsn,
        refresh_first=bool(getattr(args, "refresh", False)),
        session_filter=session_filter,
    ) as con:
        yield ClickHouseView(con, dsn)

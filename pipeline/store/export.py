"""``recurscope export``: raw spans and every evidence table to Parquet, one file per table.

The store is opened read-only through the readers' protocol
(:func:`recurscope.pipeline.store.locking.read_connection`): the live file when no
writer holds it, otherwise the latest published snapshot (the report says
which). Tables are discovered in ``information_schema.tables`` rather than
named here, so evidence tables added later are exported without a change;
only bookkeeping (:data:`BOOKKEEPING_TABLES` and ``*_log`` tables) is left
out unless asked for. Each table is written by DuckDB's own
``COPY ... TO ... (FORMAT parquet)`` to a temporary name and renamed, so a
reader of the folder never sees a half-written file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import duckdb

from ..errors import StoreError

__all__ = [
    "BOOKKEEPING_TABLES",
    "ExportReport",
    "ExportedTable",
    "export_tables",
    "is_bookkeeping",
    "list_tables",
]

BOOKKEEPING_TABLES: Final = frozenset({"recurscope_meta", "ingest_log", "quarantine"})
"""The store's own records about itself (schema version, runs, rejected input)."""

COMPRESSIONS: Final = ("snappy", "zstd", "gzip", "uncompressed")

_SYSTEM_SCHEMAS: Final = ("information_schema", "pg_catalog")


def is_bookkeeping(table: str) -> bool:
    """Whether a table records the store's own work rather than spans or evidence.

    The store's tables, plus any ``*_log`` table (refresh and run logs kept by
    other parts of the pipeline follow that naming).
    """
    return table in BOOKKEEPING_TABLES or table.endswith("_log")


@dataclass(frozen=True, slots=True)
class ExportedTable:
    """One table written: its name, the Parquet file and how many rows it holds."""

    table: str
    path: Path
    rows: int


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What :func:`export_tables` wrote, and from which copy of the store."""

    tables: tuple[ExportedTable, ...]
    skipped: tuple[str, ...]
    """Bookkeeping tables left out."""
    source: str = "live"
    """``live`` or ``snapshot`` (a writer held the store; the snapshot was exported)."""
    note: str | None = None

    def summary(self) -> str:
        rows = sum(t.rows for t in self.tables)
        text = f"exported {len(self.tables)} tables ({rows:,} rows)"
        if self.source != "live":
            text += f" from the {self.source}" + (f" ({self.note})" if self.note else "")
        return text


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _quote_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def list_tables(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """(schema, table) of every table and view of the open database, sorted."""
    rows = con.execute(
        """
        SELECT table_schema, table_name
        FROM information_schema.tables
        WHERE table_catalog = current_database()
          AND table_schema NOT IN (?, ?)
        ORDER BY table_schema = 'main' DESC, table_schema, table_name
        """,
        list(_SYSTEM_SCHEMAS),
    ).fetchall()
    return [(str(schema), str(table)) for schema, table in rows]


def export_tables(
    con: duckdb.DuckDBPyConnection,
    out_dir: str | os.PathLike[str],
    *,
    tables: Sequence[str] | None = None,
    include_bookkeeping: bool = False,
    compression: str = "snappy",
) -> ExportReport:
    """Write each table of ``con`` to ``out_dir/<table>.parquet``; see the module docstring.

    ``tables`` restricts the export to those names (bookkeeping included if
    named). Tables outside the ``main`` schema are written as
    ``<schema>.<table>.parquet``. Raises :class:`StoreError` for an unknown
    table name or an unwritable folder.
    """
    if compression not in COMPRESSIONS:
        raise StoreError(f"compression must be one of {', '.join(COMPRESSIONS)}")
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"Cannot create {folder}: {error.strerror}. Choose another --out."
        ) from None
    found = list_tables(con)
    wanted = set(tables) if tables is not None else None
    if wanted is not None:
        unknown = wanted - {table for _, table in found}
        if unknown:
            names = ", ".join(sorted(table for _, table in found))
            raise StoreError(f"no table named {', '.join(sorted(unknown))}; the store has: {names}")
    written: list[ExportedTable] = []
    skipped: list[str] = []
    for schema, table in found:
        if wanted is not None:
            if table not in wanted:
                continue
        elif is_bookkeeping(table) and not include_bookkeeping:
            skipped.append(table)
            continue
        name = table if schema == "main" else f"{schema}.{table}"
        target = folder / f"{name}.parquet"
        partial = folder / f".{name}.parquet.partial"
        source = f"{_quote_ident(schema)}.{_quote_ident(table)}"
        (rows,) = con.execute(f"SELECT count(*) FROM {source}").fetchone() or (0,)
        try:
            con.execute(
                f"COPY (SELECT * FROM {source}) TO {_quote_literal(str(partial))} "
                f"(FORMAT parquet, COMPRESSION {compression})"
            )
            os.replace(partial, target)
        except (duckdb.Error, OSError) as error:
            partial.unlink(missing_ok=True)
            raise StoreError(f"Cannot write {target}: {error}") from None
        written.append(ExportedTable(name, target, int(rows)))
    return ExportReport(tuple(written), tuple(skipped))


# --------------------------------------------------------------------------
# The command line.

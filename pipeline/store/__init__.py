"""The store stage: the DuckDB file, its locking, and what rewrites or reads it whole.

- :mod:`.database` — ``otel_traces``, ``ingest_log``, ``quarantine``, schema
  versions, idempotent writes (``docs/storage.md``);
- :mod:`.locking` — who may open the file when (``docs/concurrency.md``);
- :mod:`.prune` and :mod:`.export` — ``recurscope prune`` and ``recurscope export``.
"""

from __future__ import annotations

from .database import (
    DB_ENV_VAR,
    DEFAULT_DB_PATH,
    SCHEMA_VERSION,
    IngestRun,
    IngestSummary,
    LoggedSource,
    PreparedRows,
    ResumeMark,
    Store,
    WriteResult,
    prepare_rows,
    resolve_db_path,
)

__all__ = [
    "DB_ENV_VAR",
    "DEFAULT_DB_PATH",
    "SCHEMA_VERSION",
    "IngestRun",
    "IngestSummary",
    "LoggedSource",
    "PreparedRows",
    "ResumeMark",
    "Store",
    "WriteResult",
    "prepare_rows",
    "resolve_db_path",
]

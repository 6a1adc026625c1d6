"""The store stage: the DuckDB file, its locking, and what rewrites or reads it whole.

- :mod:`.database` — the :class:`Store`: ``otel_traces``, ``ingest_log``,
  ``quarantine``, idempotent writes (``docs/storage.md``); :mod:`.schema`
  its tables and migrations, :mod:`.rows` rows into Arrow and the checks a
  row must pass;
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

"""``recurscope prune``: retention by age, and deleting one session completely.

Two modes:

- ``--before DATE`` — retention: spans that started before DATE, quarantine
  rows recorded before it, and the evidence rows built from those spans
  (rows naming a deleted span, rows of sessions with no span left).
- ``--session ID`` — a user's right to be forgotten: every span of the
  session (``SpanAttributes['gen_ai.conversation.id'] = ID``), the spans
  sharing a trace with them that carry no session of their own (the host's
  LLM spans nested under ours, where prompts live), quarantine rows
  attributable to it (same trace id, an ingest run that held only this
  session's spans, or an excerpt naming the id), and every row of any other
  table that names it — evidence tables are found through
  ``information_schema`` (a ``session_id``/``session`` column, a
  ``trace_id``/``span_id`` of a deleted span, or any ``VARCHAR``,
  ``VARCHAR[]`` or ``MAP`` value equal to the id). Aggregates are rebuilt
  by the next evidence refresh.

Deleting rows is not enough to remove their bytes: DuckDB keeps deleted
strings in the dictionaries of row groups that still hold other rows, even
after ``CHECKPOINT`` (checked on 2.0.1). So after deleting, prune runs
``CHECKPOINT`` and — by default for ``--session``, on request for
``--before`` — rewrites the file (``COPY FROM DATABASE`` into a fresh file,
renamed over the store while the write lock is still held), then publishes a
new snapshot for readers. ``ingest_log`` keeps its rows, so a scheduled
ingest does not bring pruned data back from an unchanged file.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final, Literal

import duckdb

from ...instrumentation import semconv as sc
from ..errors import StoreError, UnknownSessionError
from .database import Store
from .locking import DEFAULT_LOCK_TIMEOUT, Upkeep, WriteSession, companions, open_for_writing

__all__ = [
    "SESSION_COLUMNS",
    "Mention",
    "PruneReport",
    "TableCount",
    "UnknownSessionError",
    "find_mentions",
    "parse_cutoff",
    "prune",
    "prune_store",
    "rewrite_store",
]

SESSION_COLUMNS: Final = ("session_id", "session")
"""Column names that hold the session in evidence tables."""

_SESSION_EXPR: Final = f"SpanAttributes['{sc.GEN_AI_CONVERSATION_ID}']"
_PROTECTED: Final = frozenset({"recurscope_meta", "ingest_log"})
# ingest_log keeps its rows on purpose (see the module docstring); the meta
# table holds the schema version.
_RELATIVE: Final = re.compile(r"(\d+)\s*([dhw])")
_KNOWN_SHOWN: Final = 5

Mode = Literal["before", "session"]


@dataclass(frozen=True, slots=True)
class TableCount:
    """Rows deleted from one table."""

    table: str
    rows: int


@dataclass(frozen=True, slots=True)
class Mention:
    """Rows of ``table`` whose ``column`` still names the session."""

    table: str
    column: str
    rows: int


@dataclass(frozen=True, slots=True)
class PruneReport:
    """What :func:`prune` deleted (or, with ``dry_run``, would delete)."""

    mode: Mode
    target: str
    dry_run: bool
    spans: int
    traces: int
    quarantine: int
    derived: tuple[TableCount, ...]
    remaining: tuple[Mention, ...] = ()
    """Session mode: mentions left where prune does not delete (``ingest_log``)."""
    checkpointed: bool = False
    refreshed: bool = False
    """The evidence aggregates were rebuilt after deleting (:func:`prune_store` does)."""
    rewritten: bool = False
    bytes_before: int | None = None
    bytes_after: int | None = None

    @property
    def changed(self) -> bool:
        return bool(self.spans or self.quarantine or any(t.rows for t in self.derived))

    def lines(self) -> list[str]:
        verb = "would delete" if self.dry_run else "deleted"
        what = f"session {self.target!r}" if self.mode == "session" else f"before {self.target}"
        lines = [
            f"{verb} {_plural(self.spans, 'span')} in {_plural(self.traces, 'trace')}, "
            f"{_plural(self.quarantine, 'quarantine row')} ({what})"
        ]
        lines.extend(
            f"  {verb} {_plural(t.rows, 'row')} of {t.table}" for t in self.derived if t.rows
        )
        if any(t.rows for t in self.derived) and not self.dry_run:
            lines.append(
                "  evidence aggregates rebuilt"
                if self.refreshed
                else "  evidence aggregates are rebuilt by the next evidence refresh"
            )
        lines.extend(
            f"  note: {_plural(m.rows, 'row')} of {m.table}.{m.column} still name the session "
            "(bookkeeping, kept)"
            for m in self.remaining
        )
        if self.rewritten and self.bytes_before is not None and self.bytes_after is not None:
            lines.append(
                f"  rewrote the file: {self.bytes_before:,} bytes before, {self.bytes_after:,} "
                "on disk now (deleted values are gone from it)"
            )
        elif self.checkpointed and self.changed:
            rewrite = (
                "add --rewrite to rewrite it"
                if self.mode == "before"
                else "--no-rewrite was given; the next prune that rewrites the file removes them"
            )
            lines.append(
                f"  checkpointed; deleted values can linger in the file until it is rewritten "
                f"({rewrite})"
            )
        return lines


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


# --------------------------------------------------------------------------
# Dates.


def parse_cutoff(text: str, *, now: datetime | None = None) -> datetime:
    """``2026-01-31``, ``2026-01-31T12:00:00Z`` (naive = UTC), or ``30d``/``12h``/``2w`` ago."""
    stripped = text.strip()
    match = _RELATIVE.fullmatch(stripped)
    if match:
        amount = int(match.group(1))
        unit = {"d": timedelta(days=1), "h": timedelta(hours=1), "w": timedelta(weeks=1)}
        return (now or datetime.now(UTC)) - amount * unit[match.group(2)]
    try:
        value = datetime.fromisoformat(stripped.replace("z", "Z"))
    except ValueError:
        raise ValueError(
            f"not a date: {text!r} (use 2026-01-31, 2026-01-31T12:00:00Z or 30d)"
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


# --------------------------------------------------------------------------
# Tables.


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _columns(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    """{table: {column: type}} of the base tables of the open database."""
    rows = con.execute(
        """
        SELECT c.table_name, c.column_name, c.data_type
        FROM information_schema.columns c
        JOIN information_schema.tables t
          ON t.table_catalog = c.table_catalog AND t.table_schema = c.table_schema
         AND t.table_name = c.table_name
        WHERE t.table_catalog = current_database() AND t.table_schema = 'main'
          AND t.table_type = 'BASE TABLE'
        ORDER BY c.table_name, c.ordinal_position
        """
    ).fetchall()
    tables: dict[str, dict[str, str]] = {}
    for table, column, data_type in rows:
        tables.setdefault(str(table), {})[str(column)] = str(data_type)
    return tables


def _mention_condition(column: str, data_type: str) -> str | None:
    """SQL true when the column holds the session (parameter ``$session``) as a value."""
    col = _ident(column)
    if data_type == "VARCHAR":
        return f"{col} = $session"
    if data_type == "VARCHAR[]":
        return f"list_contains({col}, $session)"
    if data_type == "MAP(VARCHAR, VARCHAR)":
        return f"(list_contains(map_values({col}), $session) OR list_contains(map_keys({col}), $session))"
    return None


def find_mentions(con: duckdb.DuckDBPyConnection, session: str) -> list[Mention]:
    """Every (table, column) whose VARCHAR, VARCHAR[] or MAP values name ``session``.

    A map matches on its values (``gen_ai.conversation.id``) or keys; nested
    structures (span events, links) belong to spans, which are deleted whole.
    """
    found: list[Mention] = []
    for table, columns in _columns(con).items():
        for column, data_type in columns.items():
            condition = _mention_condition(column, data_type)
            if condition is None:
                continue
            row = con.execute(
                f"SELECT count(*) FROM {_ident(table)} WHERE {condition}", {"session": session}
            ).fetchone()
            if row and row[0]:
                found.append(Mention(table, column, int(row[0])))
    return found


def _count(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, object]) -> int:
    # DuckDB refuses parameters a statement does not use: pass only those it names.
    used = {key: value for key, value in params.items() if f"${key}" in sql}
    row = con.execute(sql, used).fetchone()
    return int(row[0]) if row else 0


def _derived_conditions(columns: dict[str, str], mode: Mode, has_session_spans: bool) -> list[str]:
    """Why a row of an evidence table goes with the pruned spans."""
    lowered = {name.lower(): name for name in columns}
    conditions: list[str] = []
    trace = lowered.get("trace_id")
    span = lowered.get("span_id")
    if trace and span:
        conditions.append(
            f"EXISTS (SELECT 1 FROM _recurscope_prune_spans p WHERE p.TraceId = {_ident(trace)} "
            f"AND p.SpanId = {_ident(span)})"
        )
    elif trace and mode == "session":
        conditions.append(f"{_ident(trace)} IN (SELECT TraceId FROM _recurscope_prune_traces)")
    for name in SESSION_COLUMNS:
        column = lowered.get(name)
        if column is None or columns[column] != "VARCHAR":
            continue
        if mode == "session":
            conditions.append(f"{_ident(column)} = $session")
        elif has_session_spans:
            # Sessions none of whose spans are left: their rows describe nothing.
            conditions.append(
                f"({_ident(column)} IN (SELECT s FROM _recurscope_prune_sessions) AND "
                f"{_ident(column)} NOT IN (SELECT DISTINCT {_SESSION_EXPR} FROM otel_traces "
                f"WHERE {_SESSION_EXPR} IS NOT NULL))"
            )
    if mode == "session":
        for column, data_type in columns.items():
            condition = _mention_condition(column, data_type)
            if condition is not None and column.lower() not in SESSION_COLUMNS:
                conditions.append(condition)
    return conditions


def prune(
    store: Store,
    *,
    session: str | None = None,
    before: datetime | None = None,
    dry_run: bool = False,
    checkpoint: bool = True,
) -> PruneReport:
    """Delete one session's data or everything older than ``before`` (exactly one of them).

    Runs in one transaction (rolled back for ``dry_run``), then ``CHECKPOINT``.
    Rewriting the file is :func:`rewrite_store`'s job.
    """
    if (session is None) == (before is None):
        raise ValueError("give exactly one of session= or before=")
    if session is not None and not session:
        raise ValueError("the session id is empty")
    mode: Mode = "session" if session is not None else "before"
    con = store.connection
    params: dict[str, object] = {"session": session or ""}
    cutoff = before.astimezone(UTC).replace(tzinfo=None) if before is not None else None
    # The store's lock serializes writers sharing it across threads (a receiver).
    with store.write_lock:
        con.execute("BEGIN TRANSACTION")
        try:
            if mode == "session":
                # Whole traces whose every session-carrying span is this session;
                # in a trace mixing sessions, only this session's spans.
                con.execute(
                    f"""
                    CREATE OR REPLACE TEMP TABLE _recurscope_prune_traces AS
                    SELECT TraceId FROM otel_traces GROUP BY TraceId
                    HAVING bool_or({_SESSION_EXPR} = $session)
                       AND bool_and(coalesce({_SESSION_EXPR} = $session, true))
                    """,
                    params,
                )
                con.execute(
                    f"""
                    CREATE OR REPLACE TEMP TABLE _recurscope_prune_spans AS
                    SELECT TraceId, SpanId, IngestId, {_SESSION_EXPR} AS session
                    FROM otel_traces
                    WHERE TraceId IN (SELECT TraceId FROM _recurscope_prune_traces)
                       OR {_SESSION_EXPR} = $session
                    """,
                    params,
                )
            else:
                con.execute(
                    f"""
                    CREATE OR REPLACE TEMP TABLE _recurscope_prune_spans AS
                    SELECT TraceId, SpanId, IngestId, {_SESSION_EXPR} AS session
                    FROM otel_traces WHERE "Timestamp" < $cutoff
                    """,
                    {"cutoff": cutoff},
                )
                con.execute(
                    """
                    CREATE OR REPLACE TEMP TABLE _recurscope_prune_traces AS
                    SELECT DISTINCT TraceId FROM _recurscope_prune_spans
                    """
                )
            con.execute(
                """
                CREATE OR REPLACE TEMP TABLE _recurscope_prune_sessions AS
                SELECT DISTINCT session AS s FROM _recurscope_prune_spans WHERE session IS NOT NULL
                """
            )
            traces = _count(con, "SELECT count(DISTINCT TraceId) FROM _recurscope_prune_spans", {})
            spans = _count(
                con,
                """
                DELETE FROM otel_traces t USING _recurscope_prune_spans p
                WHERE t.TraceId = p.TraceId AND t.SpanId = p.SpanId
                """,
                {},
            )
            if mode == "session":
                quarantine = _count(
                    con,
                    """
                    DELETE FROM quarantine
                    WHERE TraceId IN (SELECT TraceId FROM _recurscope_prune_traces)
                       OR contains(Excerpt, '"' || $session || '"')
                       OR (IngestId IN (SELECT IngestId FROM _recurscope_prune_spans)
                           AND IngestId NOT IN (SELECT DISTINCT IngestId FROM otel_traces))
                    """,
                    params,
                )
            else:
                quarantine = _count(
                    con,
                    "DELETE FROM quarantine WHERE QuarantinedAt < $cutoff",
                    {"cutoff": cutoff},
                )
            has_sessions = _count(con, "SELECT count(*) FROM _recurscope_prune_sessions", {}) > 0
            derived: list[TableCount] = []
            for table, columns in _columns(con).items():
                if table in _PROTECTED or table in ("otel_traces", "quarantine"):
                    continue
                if table.startswith("_recurscope_prune"):
                    continue
                conditions = _derived_conditions(columns, mode, has_sessions)
                if not conditions:
                    continue
                deleted = _count(
                    con, f"DELETE FROM {_ident(table)} WHERE " + " OR ".join(conditions), params
                )
                derived.append(TableCount(table, deleted))
            remaining = tuple(find_mentions(con, session)) if session is not None else ()
            for name in ("spans", "traces", "sessions"):
                con.execute(f"DROP TABLE IF EXISTS _recurscope_prune_{name}")
            if session is not None and not (quarantine or spans or any(t.rows for t in derived)):
                raise _unknown_session(con, store.path, session)
            con.execute("ROLLBACK" if dry_run else "COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        checkpointed = False
        if checkpoint and not dry_run:
            con.execute("CHECKPOINT")
            checkpointed = True
    return PruneReport(
        mode=mode,
        target=session if session is not None else (before.isoformat() if before else ""),
        dry_run=dry_run,
        spans=spans,
        traces=traces,
        quarantine=quarantine,
        derived=tuple(derived),
        remaining=remaining,
        checkpointed=checkpointed,
    )


def _unknown_session(
    con: duckdb.DuckDBPyConnection, path: Path, session: str
) -> UnknownSessionError:
    """The error for a session with nothing to delete, naming sessions that do exist."""
    like = session.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = con.execute(
        f"""
        SELECT s FROM (
            SELECT {_SESSION_EXPR} AS s, max("Timestamp") AS latest FROM otel_traces
            WHERE {_SESSION_EXPR} IS NOT NULL AND {_SESSION_EXPR} <> '' GROUP BY ALL
        )
        ORDER BY (s ILIKE ($like || '%') ESCAPE '\\') DESC, latest DESC, s
        LIMIT {_KNOWN_SHOWN}
        """,
        {"like": like},
    ).fetchall()
    known = tuple(str(row[0]) for row in rows)
    command = "recurscope sessions" + (f" --db {path}" if str(path) != ":memory:" else "")
    if known:
        listed = ", ".join(repr(k) for k in known)
        hint = f"Sessions it holds include {listed} ({command} lists them all)."
    else:
        hint = "It holds no sessions at all."
    return UnknownSessionError(
        f"no spans of session {session!r} in {path}, and nothing else names it: nothing "
        f"deleted. {hint}",
        session=session,
        known=known,
    )


def rewrite_store(store: Store) -> tuple[int, int]:
    """Copy the store into a fresh file and rename it over the store's path.

    Call while holding the store open for writing: no other process can
    write the old file between the copy and the rename, and new openers get
    the new file. The caller closes ``store`` afterwards (its connection
    still points at the old, now unlinked, file). Returns the sizes
    (before, after) in bytes.
    """
    path = store.path
    if str(path) == ":memory:" or not path.is_file():
        raise StoreError("only a store file can be rewritten")
    before = path.stat().st_size
    partial = path.with_name(f".{path.name}.prune-{os.getpid()}.tmp")
    for leftover in (partial, partial.with_name(partial.name + ".wal")):
        leftover.unlink(missing_ok=True)
    con = store.connection
    with store.write_lock:
        con.execute("CHECKPOINT")
        row = con.execute("SELECT current_database()").fetchone()
        assert row is not None
        alias = "recurscope_prune_rewrite"
        quoted = str(partial).replace("'", "''")
        try:
            con.execute(f"ATTACH '{quoted}' AS {alias}")
            try:
                con.execute(f"COPY FROM DATABASE {_ident(str(row[0]))} TO {alias}")
            finally:
                con.execute(f"DETACH {alias}")
            fd = os.open(partial, os.O_RDONLY)
            try:
                os.fsync(fd)  # durable before it replaces the store
            finally:
                os.close(fd)
            os.replace(partial, path)
        except (duckdb.Error, OSError) as error:
            partial.unlink(missing_ok=True)
            raise StoreError(f"Cannot rewrite {path}: {error}") from None
    return before, path.stat().st_size


def disk_size(path: str | os.PathLike[str]) -> int:
    """Bytes the store takes on disk: the file and its write-ahead log, if any."""
    db = Path(path)
    wal = db.with_name(db.name + ".wal")
    return sum(p.stat().st_size for p in (db, wal) if p.is_file())


def prune_store(
    db: str | os.PathLike[str] | None = None,
    *,
    session: str | None = None,
    before: datetime | None = None,
    dry_run: bool = False,
    rewrite: bool | None = None,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    wait_for_other_programs: bool = True,
    on_wait: Callable[[str], None] | None = None,
    upkeep: Upkeep | None = None,
) -> PruneReport:
    """Everything ``recurscope prune`` does, as one call: delete, refresh, rewrite, republish.

    ``upkeep`` is what the writer runs when spans changed (the command hands
    it ``verdict.upkeep.EvidenceUpkeep``, which refreshes the evidence).

    Under the write lock (waiting as :func:`~.locking.open_for_writing`
    does, ``on_wait`` told once): :func:`prune`; then the evidence refresh, *before* the rewrite, so
    the rewritten file is final (a refresh after it rebuilds the aggregate
    tables, and DuckDB grows a file for a replaced table rather than reusing
    the old table's blocks); then :func:`rewrite_store` (``rewrite`` defaults
    to on for a session, off for a date); then a new snapshot for readers.
    The report's ``bytes_after`` is measured on disk once all of that is done.
    Raises :class:`UnknownSessionError` when a session has nothing to delete,
    ``StoreError`` when there is no store.
    """
    path = companions(db).db
    if str(path) == ":memory:" or not path.is_file():
        raise StoreError(f"no store at {path}: nothing to prune (check --db / RECURSCOPE_DB)")
    rewrite = rewrite if rewrite is not None else session is not None
    size_before = disk_size(path)

    def writer_session() -> WriteSession:
        return open_for_writing(
            path,
            kind="recurscope prune",
            lock_timeout=lock_timeout,
            wait_for_other_programs=wait_for_other_programs,
            on_wait=on_wait,
            upkeep=upkeep,
        )

    with writer_session() as writer:
        report = prune(writer.store, session=session, before=before, dry_run=dry_run)
        if not report.changed or dry_run:
            return report
        writer.mark_dirty(spans=True)
        writer.refresh_evidence()
        report = dataclasses.replace(
            report, refreshed=writer.upkeep is not None and not writer.refresh_pending
        )
        if not rewrite:
            return report  # closing publishes the snapshot
        rewrite_store(writer.store)
        # The open connection still reads the old, unlinked file: it must not
        # refresh or publish; a fresh writer publishes below.
        writer.publish_snapshots = False
        writer.upkeep = None
    with writer_session() as writer:
        if writer.companions.snapshot.exists():
            writer.publish()  # the old snapshot still holds what was deleted
    return dataclasses.replace(
        report, rewritten=True, bytes_before=size_before, bytes_after=disk_size(path)
    )


# --------------------------------------------------------------------------
# The command line.

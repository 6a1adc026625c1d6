"""The DuckDB store: raw spans, the ingest log and the quarantine.

One file (``data/recurscope.duckdb`` by default) holds everything. Raw spans
go to ``otel_traces``, shaped like the OpenTelemetry Collector ClickHouse
exporter's table so evidence SQL can run where large deployments keep
spans. Every write is a batch through Arrow, deduplicated on
(TraceId, SpanId) by an anti-join, and logged in ``ingest_log`` in the same
transaction, so a crash never leaves counts and rows disagreeing.

DuckDB allows one writing process *or* many reading ones per file. Opening a
file another process holds raises :class:`StoreLockedError` naming that
process and what to do; a raw DuckDB lock error never escapes. See
``docs/storage.md``.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Final, Literal, Self

import duckdb
import pyarrow as pa

from ..errors import SchemaVersionError, StoreError, StoreLockedError
from ..records import DEFAULT_LIMITS, DecodeLimits, Rejection, SpanRow
from .rows import PreparedRows, prepare_rows, quarantine_table, safe_text
from .schema import MIGRATIONS

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


SCHEMA_VERSION: Final = 1
"""The schema this code writes; older files are migrated, newer ones refused."""


DEFAULT_DB_PATH: Final = Path("data") / "recurscope.duckdb"
"""Where the store lives when neither ``--db`` nor ``RECURSCOPE_DB`` says otherwise."""


DB_ENV_VAR: Final = "RECURSCOPE_DB"
"""Environment variable naming the store file."""


RunStatus = Literal["running", "ok", "failed", "unchanged"]


_LOCK_RETRY_SECONDS: Final = 0.1


BULK_WAL_BYTES: Final = 64 * 1024**2
"""WAL a bulk load may gather between checkpoints (see :meth:`Store.bulk_writes`)."""


BULK_MEMORY_BYTES: Final = 512 * 1024**2
"""DuckDB's memory limit during a bulk load (see :meth:`Store.bulk_writes`)."""


_KNOWN_COMMANDS: Final = frozenset(
    {"ingest", "serve", "dashboard", "demo", "report", "export", "replay", "simulate"}
)


def resolve_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """``explicit`` (the ``--db`` flag), else ``$RECURSCOPE_DB``, else ``data/recurscope.duckdb``.

    Relative paths are relative to the current directory.
    """
    if explicit is not None and str(explicit) != "":
        return Path(explicit)
    from_env = os.environ.get(DB_ENV_VAR)
    if from_env:
        return Path(from_env)
    return DEFAULT_DB_PATH


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What one write did: ``records = accepted + duplicates + quarantined``."""

    accepted: int
    duplicates: int
    quarantined: int

    @property
    def records(self) -> int:
        return self.accepted + self.duplicates + self.quarantined


@dataclass(frozen=True, slots=True)
class ResumeMark:
    """A resume point to record with a write: bytes ``[0, offset)`` are fully read."""

    offset: int
    line: int
    checksum: str


@dataclass(frozen=True, slots=True)
class LoggedSource:
    """What ``ingest_log`` remembers of a source (for incremental ingest).

    ``resume`` is the latest recorded resume point (possibly from a run that
    crashed after committing it) and ``resume_format`` the format that run
    read; ``size``, ``checksum`` and ``format`` come from the latest completed
    run and let an unchanged file be skipped without parsing.
    """

    resume: ResumeMark | None
    resume_format: str | None
    size: int | None
    checksum: str | None
    format: str | None = None


@dataclass(frozen=True, slots=True)
class IngestSummary:
    """One ``ingest_log`` row, as it stands when the run finished."""

    ingest_id: int
    source: str
    format: str
    status: RunStatus
    bytes_read: int
    records_read: int
    spans_accepted: int
    rows_quarantined: int
    duplicates_skipped: int
    detail: str | None = None


def _process_args(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode("utf-8", "replace") for part in raw.split(b"\0") if part]


def describe_process(pid: int | None) -> str:
    """A short human name for the process ``pid`` ('recurscope serve', 'the dashboard', ...)."""
    if pid is None:
        return "another process"
    if pid == os.getpid():
        return "this process"
    args = _process_args(pid)
    if not args:
        return f"process {pid}"
    joined = " ".join(args)
    if "recurscope" in joined:
        command = next((arg for arg in args[1:] if arg in _KNOWN_COMMANDS), None)
        if command == "dashboard":
            return "the recurscope dashboard"
        if command is not None:
            return f"recurscope {command}"
    if "streamlit" in joined or "dashboard" in joined:
        return "the recurscope dashboard"
    if "recurscope" in joined:
        return "a recurscope process"
    return Path(args[0]).name


def _locked_error(path: Path, message: str, wanted_read_only: bool) -> StoreLockedError:
    found = re.search(r"PID (\d+)", message)
    pid = int(found.group(1)) if found else None
    # DuckDB adds this hint exactly when the holder has the file read-only.
    holder_read_only = "read-only mode" in message
    mode = "read-only" if holder_read_only else "read-write"
    kind = describe_process(pid)
    who = f"{kind} (pid {pid})" if pid is not None else kind
    stop = f"stop it (kill {pid})" if pid is not None else "stop it"
    elsewhere = "or use another file with --db PATH / RECURSCOPE_DB=PATH"
    if wanted_read_only:
        text = (
            f"{path} is locked: {who} is writing to it, and DuckDB lets no other process "
            f"read a file while one writes it. Wait for it to finish (Store.open(..., "
            f"lock_timeout=SECONDS) retries), {stop}, or read a copy of the file."
        )
    elif holder_read_only:
        text = (
            f"{path} is locked: {who} has it open for reading, and DuckDB lets no process "
            f"write a file another process has open. Close it ({stop}) and run this again, "
            f"{elsewhere}."
        )
    elif kind == "recurscope serve":
        text = (
            f"{path} is locked: {who} is writing to it, and DuckDB allows one writing "
            f"process per file. Send your spans to that receiver instead (it ingests them), "
            f"or {stop} and run this again, {elsewhere}."
        )
    else:
        text = (
            f"{path} is locked: {who} is writing to it, and DuckDB allows one writing "
            f"process per file. Wait for it to finish or {stop}, then run this again, "
            f"{elsewhere}."
        )
    return StoreLockedError(
        text, path=str(path), holder_pid=pid, holder_kind=kind, holder_mode=mode
    )


class Store:
    """A recurscope DuckDB file, open for writing (one process) or reading (many).

    Open with :meth:`open` and use as a context manager::

        with Store.open("data/recurscope.duckdb") as store:
            result = store.write_spans(rows, source="otlp-http", format="otlp-proto")

    A :class:`Store` is safe to share between threads of one process (writes
    are serialized); other processes must wait for it to close.
    """

    def __init__(self, con: duckdb.DuckDBPyConnection | None, path: Path, read_only: bool) -> None:
        self._connection = con
        self.path = path
        self.read_only = read_only
        self._lock = threading.RLock()
        self._closed = False
        self._copy_fd: int | None = None
        self._opener: Callable[[], Store] | None = None
        self._after_open: Callable[[], None] | None = None

    @classmethod
    def deferred(
        cls,
        path: str | os.PathLike[str],
        opener: Callable[[], Store],
        *,
        after_open: Callable[[], None] | None = None,
    ) -> Store:
        """A writable store whose file is opened — and created — only when first used.

        ``opener`` returns the opened store (e.g. ``lambda: Store.open(path)``);
        its connection is taken over on the first query or write, then
        ``after_open`` runs. Until then nothing exists on disk, so a command
        that turns out to have nothing to write (``recurscope ingest`` of a
        missing path) leaves no file behind. Closing an unused store opens nothing.
        """
        store = cls(None, Path(path), read_only=False)
        store._opener = opener
        store._after_open = after_open
        return store

    @property
    def opened(self) -> bool:
        """Whether the file is open (False only for a :meth:`deferred` store not used yet)."""
        return self._connection is not None

    @property
    def _con(self) -> duckdb.DuckDBPyConnection:
        con = self._connection
        return con if con is not None else self._open_deferred()

    def _open_deferred(self) -> duckdb.DuckDBPyConnection:
        with self._lock:
            if self._connection is None:
                if self._closed or self._opener is None:
                    raise StoreError("This Store is closed; open the file again to use it.")
                opened = self._opener()
                # Take the connection over: ``opened`` must not close it later.
                self._connection, opened._connection = opened._connection, None
                self._copy_fd, opened._copy_fd = opened._copy_fd, None
                opened._closed = True
                self._opener = None
                if self._after_open is not None:
                    self._after_open()
            assert self._connection is not None
            return self._connection

    # -- opening and closing -------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        read_only: bool = False,
        lock_timeout: float = 0.0,
    ) -> Store:
        """Open (creating or migrating when writable) the store at ``path``.

        ``path`` defaults as in :func:`resolve_db_path`. ``lock_timeout``
        seconds are spent retrying while another process holds the file;
        after that, :class:`StoreLockedError`. A file from a newer recurscope
        raises :class:`SchemaVersionError`.
        """
        db_path = resolve_db_path(path)
        if read_only and not db_path.exists():
            raise StoreError(
                f"No store at {db_path}: ingest spans first (recurscope ingest --db {db_path} "
                "FILE), or point --db / RECURSCOPE_DB at the right file."
            )
        if not read_only:
            try:
                db_path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"Cannot create the folder for {db_path}: {error.strerror}. Choose a "
                    "writable location with --db PATH or RECURSCOPE_DB=PATH."
                ) from None
        deadline = time.monotonic() + lock_timeout
        while True:
            try:
                con = duckdb.connect(str(db_path), read_only=read_only)
                break
            except duckdb.IOException as error:
                message = str(error)
                if "Could not set lock" not in message:
                    raise StoreError(
                        f"Cannot open {db_path}: {message.removeprefix('IO Error: ')} Point "
                        "--db / RECURSCOPE_DB at a recurscope DuckDB file (or a new path)."
                    ) from None
                if time.monotonic() >= deadline:
                    raise _locked_error(db_path, message, read_only) from None
                time.sleep(_LOCK_RETRY_SECONDS)
            except duckdb.ConnectionException as error:
                raise StoreLockedError(
                    f"{db_path} is already open in this process in another mode ({error}). "
                    "Reuse that Store (or its .cursor()) instead of opening the file again.",
                    path=str(db_path),
                    holder_pid=os.getpid(),
                    holder_kind="this process",
                    holder_mode="unknown",
                ) from None
            except duckdb.Error as error:
                raise StoreError(
                    f"Cannot open {db_path}: {error}. Point --db / RECURSCOPE_DB at a "
                    "recurscope DuckDB file (or a new path)."
                ) from None
        store = cls(con, db_path, read_only)
        try:
            # DuckDB draws its own progress bar on stdout during long statements;
            # recurscope's output is its own (ingest has a rich bar on stderr).
            con.execute("SET enable_progress_bar = false")
            store._prepare_schema()
        except BaseException:
            con.close()
            raise
        return store

    def close(self) -> None:
        """Close the file, releasing DuckDB's lock for other processes."""
        with self._lock:
            if not self._closed:
                self._closed = True
                if self._connection is not None:  # a deferred store never used has none
                    self._connection.close()
                if self._copy_fd is not None:
                    os.close(self._copy_fd)  # only now: closing it drops our POSIX locks
                    self._copy_fd = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def bytes_in_use(self) -> int:
        """``used_blocks`` × ``block_size``: a whole file of this store is at least this long.

        Not ``total_blocks``: DuckDB cuts free blocks off the end of the file.
        Snapshot writers and readers check a file's length against it.
        """
        with self._lock:
            rows = self._con.execute(
                "SELECT block_size * used_blocks FROM pragma_database_size() "
                "WHERE database_name = current_database()"
            ).fetchall()
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    # -- schema -----------------------------------------------------------

    @property
    def schema_version(self) -> int:
        version = self._read_version()
        return 0 if version is None else version

    def _read_version(self) -> int | None:
        exists = self._con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() "
            "AND schema_name = 'main' AND table_name = 'recurscope_meta'"
        ).fetchone()
        if not exists or not exists[0]:
            return None
        row = self._con.execute(
            "SELECT value FROM recurscope_meta WHERE key = 'schema_version'"
        ).fetchone()
        if row is None or not str(row[0]).isdigit():
            raise SchemaVersionError(
                f"{self.path} has a recurscope_meta table without a valid schema_version; "
                "it was damaged or not written by recurscope. Point --db at another file."
            )
        return int(row[0])

    def _prepare_schema(self) -> None:
        version = self._read_version()
        if version is None:
            tables = [
                name
                for (name,) in self._con.execute(
                    "SELECT table_name FROM duckdb_tables() "
                    "WHERE database_name = current_database() ORDER BY table_name"
                ).fetchall()
            ]
            if tables:
                raise SchemaVersionError(
                    f"{self.path} holds tables ({', '.join(tables[:5])}) but no "
                    "recurscope_meta: it is not a recurscope store. Point --db / "
                    "RECURSCOPE_DB at another file."
                )
            version = 0
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.path} has schema version {version}, written by a newer recurscope; "
                f"this one understands up to version {SCHEMA_VERSION}. Upgrade recurscope "
                "(pip install -U 'recurscope[pipeline]') or point --db / RECURSCOPE_DB at "
                "another file."
            )
        if version == SCHEMA_VERSION:
            return
        if self.read_only:
            raise SchemaVersionError(
                f"{self.path} has schema version {version}; this recurscope uses "
                f"{SCHEMA_VERSION}. Open it once for writing to migrate it (any recurscope "
                "ingest on it, or Store.open(path)); migration keeps all data."
            )
        self._migrate(version)

    def _migrate(self, version: int) -> None:
        while version < SCHEMA_VERSION:
            step = MIGRATIONS.get(version)
            if step is None:
                raise SchemaVersionError(
                    f"No migration from schema version {version} of {self.path}; this "
                    "recurscope cannot upgrade it. Ingest into a new file with --db PATH."
                )
            con = self._con
            con.execute("BEGIN TRANSACTION")
            try:
                step(con)
                con.execute(
                    "UPDATE recurscope_meta SET value = ? WHERE key = 'schema_version'",
                    [str(version + 1)],
                )
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            version += 1

    # -- reading -------------------------------------------------------

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """The underlying connection, for evidence SQL (not thread-safe: see :meth:`cursor`)."""
        return self._con

    @property
    def write_lock(self) -> threading.RLock:
        """Held around every write transaction: writers sharing this store across threads
        (a receiver) take turns. Hold it for a transaction of your own (``prune``)."""
        return self._lock

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A new connection to the same database, for use from another thread."""
        return self._con.cursor()

    def query(self, sql: str, params: Sequence[object] | None = None) -> list[tuple[object, ...]]:
        """Run ``sql`` and return all rows (serialized with writes)."""
        with self._lock:
            return self._con.execute(sql, params).fetchall()

    def scalar(self, sql: str, params: Sequence[object] | None = None) -> object:
        """The first column of the first row of ``sql`` (``None`` if no row)."""
        with self._lock:
            row = self._con.execute(sql, params).fetchone()
        return None if row is None else row[0]

    def snapshot(self, dest: str | os.PathLike[str]) -> Path:
        """Write a consistent copy of the whole store to ``dest`` and return its path.

        DuckDB lets no other process read a file while one writes it, so a
        long-running writer (the receiver) can publish snapshots that readers
        (the dashboard) open read-only. The copy is written beside ``dest``
        and renamed over it, so a reader never sees a half-written file; a
        reader that has the previous snapshot open keeps reading that one.
        """
        target = Path(dest)
        if target.resolve() == self.path.resolve():
            raise StoreError(f"Cannot snapshot {self.path} onto itself; choose another path.")
        partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
        partial.unlink(missing_ok=True)
        alias = "recurscope_snapshot"
        quoted_path = str(partial).replace("'", "''")
        with self._lock:
            if self._copy_checkpointed_file(partial):
                os.replace(partial, target)
                return target
            con = self._con
            row = con.execute("SELECT current_database()").fetchone()
            assert row is not None
            source_name = str(row[0]).replace('"', '""')
            try:
                con.execute(f"ATTACH '{quoted_path}' AS {alias}")
                try:
                    con.execute(f'COPY FROM DATABASE "{source_name}" TO {alias}')
                finally:
                    con.execute(f"DETACH {alias}")
            except duckdb.Error as error:
                partial.unlink(missing_ok=True)
                raise StoreError(f"Could not snapshot {self.path} to {target}: {error}") from None
        os.replace(partial, target)
        return target

    def _copy_checkpointed_file(self, partial: Path) -> bool:
        """Snapshot fast path (caller holds ``_lock``): checkpoint, then copy the file.

        After a CHECKPOINT with the WAL empty, the database file alone holds
        every committed change, and no write can start while we hold the
        store's lock, so a byte copy is a consistent DuckDB file. This is tens
        of times faster than ``COPY FROM DATABASE`` (which re-encodes every
        table), and it is what lets writers publish snapshots often. Returns
        False (the caller falls back) for in-memory or read-only stores, or
        when DuckDB could not fold the WAL in.
        """
        if self.read_only or str(self.path) == ":memory:" or not self.path.is_file():
            return False
        try:
            self._con.execute("CHECKPOINT")
            wal = self.path.with_name(self.path.name + ".wal")
            if wal.exists() and wal.stat().st_size > 0:
                return False
            if self._copy_fd is None:
                # Opened once and closed only after DuckDB lets go (see close()):
                # closing *any* descriptor of a file drops this process's POSIX
                # locks on it, DuckDB's included, so a copy with a fresh open()
                # and close() would silently let other processes in.
                self._copy_fd = os.open(self.path, os.O_RDONLY)
            before = os.fstat(self._copy_fd)
            if before.st_size < self.bytes_in_use():
                return False  # shorter than its blocks in use: not what DuckDB thinks; copy by SQL
            out = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                _copy_range(self._copy_fd, out, before.st_size)
                # Durable before the rename, so a reader never finds a hollow snapshot.
                os.fsync(out)
            finally:
                os.close(out)
            after = os.fstat(self._copy_fd)
            if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
                # Something wrote the file during the copy: the copy may mix two states.
                partial.unlink(missing_ok=True)
                return False
            if partial.stat().st_size != before.st_size:
                partial.unlink(missing_ok=True)
                return False
        except (duckdb.Error, OSError):
            partial.unlink(missing_ok=True)
            return False
        return True

    @contextmanager
    def bulk_writes(
        self, wal_bytes: int = BULK_WAL_BYTES, memory_bytes: int = BULK_MEMORY_BYTES
    ) -> Iterator[None]:
        """Let the commits of a long load gather in the WAL; checkpoint at the end.

        Every commit is durable either way (DuckDB replays the WAL on open).
        With DuckDB's default 16 MiB threshold nearly every 10,000-span batch
        checkpoints, rewriting the row group being filled each time; up to
        ``wal_bytes`` of WAL between checkpoints saves much of that work.
        DuckDB's buffer pool is held to ``memory_bytes`` meanwhile (it would
        otherwise cache up to 80 % of RAM, and a 2 GB ingest's peak is then
        DuckDB's); it evicts or spills to ``<db>.tmp`` beyond that. Both
        settings go back to DuckDB's defaults and a final CHECKPOINT leaves the file whole
        for readers and snapshots.
        """
        if self.read_only or str(self.path) == ":memory:":
            yield
            return
        with self._lock:
            self._con.execute(f"SET checkpoint_threshold = '{int(wal_bytes)}B'")
            self._con.execute(f"SET memory_limit = '{int(memory_bytes)}B'")
        try:
            yield
        finally:
            with self._lock:
                if not self._closed:
                    # The store sets neither anywhere else: back to DuckDB's defaults.
                    self._con.execute("RESET checkpoint_threshold")
                    self._con.execute("RESET memory_limit")
                    try:
                        self._con.execute("CHECKPOINT")
                    except duckdb.Error:
                        pass  # a transaction of another thread is open: DuckDB checkpoints later

    def logged_source(self, source: str) -> LoggedSource:
        """What earlier runs recorded about ``source`` (see :class:`LoggedSource`)."""
        with self._lock:
            resume_row = self._con.execute(
                "SELECT ResumeOffset, ResumeLine, ResumeChecksum, Format FROM ingest_log "
                "WHERE Source = ? AND ResumeOffset IS NOT NULL ORDER BY IngestId DESC LIMIT 1",
                [source],
            ).fetchone()
            done_row = self._con.execute(
                "SELECT SourceSize, Checksum, Format FROM ingest_log WHERE Source = ? "
                "AND Status IN ('ok', 'unchanged') ORDER BY IngestId DESC LIMIT 1",
                [source],
            ).fetchone()
        resume = None
        resume_format = None
        if resume_row is not None and resume_row[2] is not None:
            resume = ResumeMark(int(resume_row[0]), int(resume_row[1] or 0), str(resume_row[2]))
            resume_format = str(resume_row[3])
        size = None if done_row is None or done_row[0] is None else int(done_row[0])
        checksum = None if done_row is None or done_row[1] is None else str(done_row[1])
        fmt = None if done_row is None else str(done_row[2])
        return LoggedSource(resume, resume_format, size, checksum, fmt)

    # -- writing -------------------------------------------------------

    def _require_writable(self) -> None:
        if self.read_only:
            raise StoreError(
                f"{self.path} is open read-only; open it with Store.open(path) to write."
            )
        if self._closed:
            raise StoreError("This Store is closed; open the file again to write.")

    def begin_ingest(
        self, source: str, format: str, *, source_size: int | None = None
    ) -> IngestRun:
        """Start a logged run for one source; write batches to it, then finish it."""
        self._require_writable()
        source = safe_text(source)
        with self._lock:
            row = self._con.execute(
                "INSERT INTO ingest_log (IngestId, Source, Format, Status, SourceSize, StartedAt) "
                "VALUES (nextval('ingest_id_seq'), ?, ?, 'running', ?, ?) RETURNING IngestId",
                [source, format, source_size, _utcnow()],
            ).fetchone()
        assert row is not None
        return IngestRun(self, int(row[0]), source, format)

    def write_spans(
        self,
        rows: Iterable[SpanRow],
        *,
        source: str,
        format: str,
        rejections: Iterable[Rejection] = (),
        bytes_read: int = 0,
        checksum: str | None = None,
        limits: DecodeLimits = DEFAULT_LIMITS,
    ) -> WriteResult:
        """Write one complete batch as its own logged run, in one transaction.

        For the receiver: one request body is one call. Long-lived writers
        that would rather log one row per session use :meth:`begin_ingest`.
        """
        self._require_writable()
        row_list = list(rows)
        rejection_list = list(rejections)
        source = safe_text(source)
        with self._lock:
            con = self._con
            con.execute("BEGIN TRANSACTION")
            try:
                ingest_id_row = con.execute(
                    "INSERT INTO ingest_log (IngestId, Source, Format, Status, StartedAt) "
                    "VALUES (nextval('ingest_id_seq'), ?, ?, 'running', ?) RETURNING IngestId",
                    [source, format, _utcnow()],
                ).fetchone()
                assert ingest_id_row is not None
                ingest_id = int(ingest_id_row[0])
                result = self._write_batch(ingest_id, source, row_list, rejection_list, limits)
                con.execute(
                    "UPDATE ingest_log SET Status = 'ok', Bytes = ?, Checksum = ?, "
                    "RecordsRead = ?, SpansAccepted = ?, RowsQuarantined = ?, "
                    "DuplicatesSkipped = ?, FinishedAt = ? WHERE IngestId = ?",
                    [
                        bytes_read,
                        checksum,
                        len(row_list) + len(rejection_list),
                        result.accepted,
                        result.quarantined,
                        result.duplicates,
                        _utcnow(),
                        ingest_id,
                    ],
                )
                con.execute("COMMIT")
            except duckdb.Error as error:
                con.execute("ROLLBACK")
                raise StoreError(f"Writing to {self.path} failed: {error}") from None
            except BaseException:
                con.execute("ROLLBACK")
                raise
        return result

    def _write_batch(
        self,
        ingest_id: int,
        source: str,
        rows: list[SpanRow],
        rejections: list[Rejection],
        limits: DecodeLimits,
    ) -> WriteResult:
        """Insert spans (deduplicated) and quarantine rows; caller holds the transaction."""
        return self._write_prepared(ingest_id, source, prepare_rows(rows), rejections, limits)

    def _write_prepared(
        self,
        ingest_id: int,
        source: str,
        prepared: PreparedRows,
        rejections: Sequence[Rejection],
        limits: DecodeLimits,
    ) -> WriteResult:
        """:meth:`_write_batch` for rows already prepared; caller holds the transaction."""
        quarantined = [*rejections, *prepared.problems]
        accepted = 0
        if prepared.table is not None:
            accepted = self._insert_spans(prepared.table, ingest_id)
        if quarantined:
            self._con.register(
                "_recurscope_quarantine", quarantine_table(quarantined, ingest_id, source, limits)
            )
            try:
                self._con.execute(
                    "INSERT INTO quarantine BY NAME SELECT * FROM _recurscope_quarantine"
                )
            finally:
                self._con.unregister("_recurscope_quarantine")
        duplicates = prepared.checked - accepted - prepared.unstorable
        return WriteResult(accepted, duplicates, len(quarantined))

    def _insert_spans(self, table: pa.Table, ingest_id: int) -> int:
        con = self._con
        con.register("_recurscope_batch", table)
        try:
            # Skip spans already stored: an anti-join on the identity columns.
            # The batch holds no repeats (see _write_batch).
            row = con.execute(
                """
                INSERT INTO otel_traces BY NAME
                SELECT b.*, ?::BIGINT AS IngestId
                FROM _recurscope_batch AS b
                WHERE NOT EXISTS (
                    SELECT 1 FROM otel_traces AS t
                    WHERE t.TraceId = b.TraceId AND t.SpanId = b.SpanId
                )
                """,
                [ingest_id],
            ).fetchone()
        finally:
            con.unregister("_recurscope_batch")
        return int(row[0]) if row is not None else 0


def _copy_range(source: int, target: int, size: int) -> None:
    """Copy ``size`` bytes from descriptor ``source`` (from offset 0) to ``target``."""
    offset = 0
    while offset < size:
        try:
            copied = os.copy_file_range(source, target, size - offset, offset, offset)
        except OSError:
            copied = 0  # other filesystems / old kernels: plain reads below
        if copied <= 0:
            chunk = os.pread(source, min(size - offset, 1 << 20), offset)
            if not chunk:
                break
            copied = os.pwrite(target, chunk, offset)  # may be short: the loop goes on
        offset += copied


def _utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class IngestRun:
    """One source's run: an ``ingest_log`` row that every batch updates atomically.

    Each :meth:`write` commits spans, quarantine rows, running counts and the
    resume point together, so a crash leaves a consistent, resumable log.
    """

    def __init__(self, store: Store, ingest_id: int, source: str, format: str) -> None:
        self.store = store
        self.ingest_id = ingest_id
        self.source = source
        self.format = format
        self.records_read = 0
        self.accepted = 0
        self.quarantined = 0
        self.duplicates = 0
        self.bytes_read = 0
        self._finished: IngestSummary | None = None

    def write(
        self,
        rows: Iterable[SpanRow],
        rejections: Iterable[Rejection] = (),
        *,
        records_read: int | None = None,
        bytes_read: int | None = None,
        resume: ResumeMark | None = None,
        limits: DecodeLimits = DEFAULT_LIMITS,
    ) -> WriteResult:
        """Commit one batch. ``records_read`` defaults to ``len(rows) + len(rejections)``;
        ``bytes_read`` is the run's running total; ``resume`` the new resume point."""
        row_list = list(rows)
        rejection_list = list(rejections)
        read = len(row_list) + len(rejection_list) if records_read is None else records_read
        return self.write_prepared(
            prepare_rows(row_list),
            rejection_list,
            records_read=read,
            bytes_read=bytes_read,
            resume=resume,
            limits=limits,
        )

    def write_prepared(
        self,
        prepared: PreparedRows,
        rejections: Sequence[Rejection] = (),
        *,
        records_read: int,
        bytes_read: int | None = None,
        resume: ResumeMark | None = None,
        limits: DecodeLimits = DEFAULT_LIMITS,
    ) -> WriteResult:
        """:meth:`write` for rows already made ready by :func:`prepare_rows`."""
        if self._finished is not None:
            raise StoreError(f"ingest run {self.ingest_id} is finished; begin a new one")
        store = self.store
        store._require_writable()
        read = records_read
        with store._lock:
            con = store._con
            con.execute("BEGIN TRANSACTION")
            try:
                result = store._write_prepared(
                    self.ingest_id, self.source, prepared, rejections, limits
                )
                con.execute(
                    "UPDATE ingest_log SET RecordsRead = RecordsRead + ?, "
                    "SpansAccepted = SpansAccepted + ?, RowsQuarantined = RowsQuarantined + ?, "
                    "DuplicatesSkipped = DuplicatesSkipped + ?, Bytes = coalesce(?, Bytes), "
                    "ResumeOffset = coalesce(?, ResumeOffset), "
                    "ResumeLine = coalesce(?, ResumeLine), "
                    "ResumeChecksum = coalesce(?, ResumeChecksum) WHERE IngestId = ?",
                    [
                        read,
                        result.accepted,
                        result.quarantined,
                        result.duplicates,
                        bytes_read,
                        None if resume is None else resume.offset,
                        None if resume is None else resume.line,
                        None if resume is None else resume.checksum,
                        self.ingest_id,
                    ],
                )
                con.execute("COMMIT")
            except duckdb.Error as error:
                con.execute("ROLLBACK")
                raise StoreError(f"Writing to {store.path} failed: {error}") from None
            except BaseException:
                con.execute("ROLLBACK")
                raise
        self.records_read += read
        self.accepted += result.accepted
        self.quarantined += result.quarantined
        self.duplicates += result.duplicates
        if bytes_read is not None:
            self.bytes_read = bytes_read
        return result

    def finish(
        self,
        status: RunStatus = "ok",
        *,
        checksum: str | None = None,
        bytes_read: int | None = None,
        detail: str | None = None,
    ) -> IngestSummary:
        """Close the run's log row (idempotent: a second call returns the first summary)."""
        if self._finished is not None:
            return self._finished
        if bytes_read is not None:
            self.bytes_read = bytes_read
        store = self.store
        with store._lock:
            store._con.execute(
                "UPDATE ingest_log SET Status = ?, Checksum = coalesce(?, Checksum), "
                "Bytes = ?, FinishedAt = ?, Detail = coalesce(?, Detail) WHERE IngestId = ?",
                [
                    status,
                    checksum,
                    self.bytes_read,
                    _utcnow(),
                    None if detail is None else safe_text(detail),
                    self.ingest_id,
                ],
            )
        self._finished = IngestSummary(
            ingest_id=self.ingest_id,
            source=self.source,
            format=self.format,
            status=status,
            bytes_read=self.bytes_read,
            records_read=self.records_read,
            spans_accepted=self.accepted,
            rows_quarantined=self.quarantined,
            duplicates_skipped=self.duplicates,
            detail=detail,
        )
        return self._finished

    def set_detail(self, detail: str) -> None:
        """Note why this run did something unusual (e.g. re-read a changed file)."""
        with self.store._lock:
            self.store._con.execute(
                "UPDATE ingest_log SET Detail = ? WHERE IngestId = ?",
                [safe_text(detail), self.ingest_id],
            )

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc is None:
            self.finish("ok")
        else:
            self.finish("failed", detail=f"{type(exc).__name__}: {exc}"[:500])

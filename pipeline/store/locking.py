"""Taking turns on one DuckDB file: writers wait for each other, readers never fail.

DuckDB lets one process write a file while no other process has it open at
all (a read-only connection elsewhere blocks a writer too). recurscope has
several processes that want the same store — ``recurscope serve``,
``recurscope ingest``, the dashboard, later evidence refreshes — so this
module is the protocol they follow (``docs/concurrency.md`` tells the story):

- **Writers take turns.** :func:`open_for_writing` retries with backoff until
  the holder lets go, announcing itself in ``<db>.access/waiting-<pid>.json``
  so that a receiver holding the file releases it and readers stop competing
  for it. The winner registers in ``<db>.access/holding-<pid>.json``, which tells
  other processes that the holder is a recurscope writer that *will* release
  the file (so they wait instead of failing).
- **Readers never block writers for long and never fail.**
  :func:`read_connection` opens the store read-only for one query or page
  (retrying briefly while a writer holds it). If a writer holds it longer,
  it opens the latest **snapshot** (``<db>.snapshot.duckdb``) instead, and
  the :class:`ReadView` says which one it got and how old it is.
- **A snapshot is published whenever a writer lets go of changed data**
  (and at most every ``snapshot_interval`` seconds while a long writer
  holds on), so a reader that falls back to the snapshot never sees fewer
  rows than it saw in the live file before: counts only go up.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Final, Literal, Self

import duckdb

from ..errors import SchemaVersionError, StoreError, StoreLockedError, StoreUnavailableError
from .database import Store, describe_process, resolve_db_path

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "DEFAULT_SNAPSHOT_INTERVAL",
    "Companions",
    "DataVersion",
    "ReadView",
    "StoreUnavailableError",
    "WriteSession",
    "companions",
    "data_version",
    "describe_holder",
    "open_for_writing",
    "read_connection",
    "unreadable_message",
    "waiting_writers",
]


Upkeep = Callable[[duckdb.DuckDBPyConnection], None]
"""What a writer runs on the store when its spans changed, before readers see them.

Handed to :func:`open_for_writing` by the command (``verdict.upkeep.EvidenceUpkeep``
refreshes the evidence): the store itself never imports the layers above it."""

_log = logging.getLogger(__name__)

DEFAULT_LOCK_TIMEOUT: Final = 120.0
"""How long a writer waits for another recurscope process to release the store."""

DEFAULT_SNAPSHOT_INTERVAL: Final = 10.0
"""Least time between two snapshots published while a writer keeps the store open."""

SNAPSHOT_OVERHEAD: Final = 0.1
"""Share of a long writer's time it may spend publishing snapshots (10 %)."""

DEFAULT_READ_WAIT: Final = 1.0
"""How long a reader waits for the live file before falling back to the snapshot."""

_WAITER_FRESH_SECONDS: Final = 5.0
"""A waiting writer refreshes its file at least this often; older files are stale."""

_BACKOFF_START: Final = 0.05
_BACKOFF_MAX: Final = 0.5

DataVersion = tuple[int, int, int]
"""``(max IngestId, total records read, ingest_log rows)``: only ever grows as data lands."""


# --------------------------------------------------------------------------
# Files beside the store.


@dataclass(frozen=True, slots=True)
class Companions:
    """The files recurscope keeps beside a store (never ingested as input)."""

    db: Path
    wal: Path
    snapshot: Path
    """Published copy readers fall back to: ``data/recurscope.snapshot.duckdb``."""
    spool: Path
    """The receiver's durable spool: ``data/recurscope.spool/``."""
    access: Path
    """Who holds the store and who waits: ``data/recurscope.access/``."""

    @property
    def files(self) -> tuple[Path, ...]:
        """Single files to leave alone (``ingest`` skips them)."""
        snapshot_wal = self.snapshot.with_name(self.snapshot.name + ".wal")
        return (self.db, self.wal, self.snapshot, snapshot_wal)

    @property
    def directories(self) -> tuple[Path, ...]:
        """Folders to leave alone (``ingest`` skips everything below them)."""
        return (self.spool, self.access)


def companions(db_path: str | os.PathLike[str] | None = None) -> Companions:
    """Where the snapshot, spool and lock registry of the store at ``db_path`` live."""
    db = resolve_db_path(db_path)
    return Companions(
        db=db,
        wal=db.with_name(db.name + ".wal"),
        snapshot=db.with_suffix(".snapshot.duckdb"),
        spool=db.with_suffix(".spool"),
        access=db.with_suffix(".access"),
    )


def data_version(con: duckdb.DuckDBPyConnection) -> DataVersion:
    """How much data the store holds, as a version that only grows (see :data:`DataVersion`)."""
    row = con.execute(
        "SELECT coalesce(max(IngestId), 0), coalesce(sum(RecordsRead), 0), count(*) FROM ingest_log"
    ).fetchone()
    assert row is not None
    return (int(row[0]), int(row[1]), int(row[2]))


# --------------------------------------------------------------------------
# The registry: who holds the store, who waits for it.


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write_json_atomically(path: Path, data: dict[str, object]) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    partial.write_text(json.dumps(data))
    os.replace(partial, path)


def _read_json(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@dataclass(frozen=True, slots=True)
class _Registered:
    pid: int
    kind: str
    releases: str


def _holding_file(comp: Companions, pid: int) -> Path:
    return comp.access / f"holding-{pid}.json"


def _registered_holder(comp: Companions, pid: int | None) -> _Registered | None:
    """The live recurscope writer registered as holding the store (``pid``, or any)."""
    if pid is not None:
        paths = [_holding_file(comp, pid)]
    else:
        try:
            paths = sorted(comp.access.glob("holding-*.json"))
        except OSError:
            return None
    for path in paths:
        data = _read_json(path)
        if data is None:
            continue
        holder_pid = data.get("pid")
        if not isinstance(holder_pid, int):
            continue
        if not _pid_alive(holder_pid):
            path.unlink(missing_ok=True)  # left by a writer that was killed
            continue
        return _Registered(holder_pid, str(data.get("kind", "")), str(data.get("releases", "")))
    return None


def _waiting_writers(comp: Companions, *, exclude_pid: int | None = None) -> list[_Registered]:
    """Writers (other than ``exclude_pid``) waiting for the store right now."""
    found: list[_Registered] = []
    try:
        entries = list(comp.access.glob("waiting-*.json"))
    except OSError:
        return found
    now = time.time()
    for entry in entries:
        data = _read_json(entry)
        if data is None:
            continue
        pid = data.get("pid")
        if not isinstance(pid, int) or pid == exclude_pid:
            continue
        try:
            fresh = now - entry.stat().st_mtime < _WAITER_FRESH_SECONDS
        except OSError:
            continue
        if fresh and _pid_alive(pid):
            found.append(_Registered(pid, str(data.get("kind", "")), "waiting"))
        elif not _pid_alive(pid):
            entry.unlink(missing_ok=True)  # left by a process that died waiting
    return found


# --------------------------------------------------------------------------
# Writers.


class WriteSession:
    """A store open for writing by a registered recurscope writer.

    Writes go through :attr:`store`. After each committed batch call
    :meth:`after_write` (it may publish a snapshot, rate-limited); long-lived
    writers poll :meth:`others_waiting` and :meth:`close` when someone is.
    Closing publishes a snapshot if anything changed, so readers that fall
    back to it never go back in time.
    """

    def __init__(
        self,
        store: Store,
        comp: Companions,
        *,
        kind: str,
        releases: str,
        snapshot_interval: float,
        publish_snapshots: bool,
        upkeep: Upkeep | None = None,
    ) -> None:
        self.store = store
        self.companions = comp
        self.kind = kind
        self.snapshot_interval = snapshot_interval
        self.publish_snapshots = publish_snapshots
        self.snapshots_published = 0
        self._dirty = False
        self._changed_spans = False
        self.upkeep = upkeep
        self._last_publish = time.monotonic()
        self._last_publish_seconds = 0.0
        self._closed = False
        self._releases = releases
        if store.opened:  # a deferred store calls _acquired when first used
            self._acquired()

    def _acquired(self) -> None:
        """The store is open: register as its holder, and publish if the snapshot is behind."""
        self._register(self._releases)
        if self.publish_snapshots:
            self._publish_if_stale()

    # -- registry --------------------------------------------------------

    def _register(self, releases: str) -> None:
        try:
            self.companions.access.mkdir(parents=True, exist_ok=True)
            # One file per holder: a writer that has just let go removes only its
            # own file, never the next holder's registration.
            _write_json_atomically(
                _holding_file(self.companions, os.getpid()),
                {
                    "pid": os.getpid(),
                    "kind": self.kind,
                    "releases": releases,
                    "since": datetime.now(UTC).isoformat(),
                },
            )
        except OSError as error:
            # Registration only makes others more patient; writing works without it.
            _log.warning("could not register in %s: %s", self.companions.access, error)

    def _unregister(self) -> None:
        _holding_file(self.companions, os.getpid()).unlink(missing_ok=True)

    def others_waiting(self) -> list[str]:
        """Descriptions of other writers waiting for this store (empty when none)."""
        return waiting_writers(self.companions.db)

    # -- snapshots -------------------------------------------------------

    def mark_dirty(self, *, spans: bool = False) -> None:
        """Note that this session changed the store (any table), so closing publishes.

        ``spans=True``: raw spans changed too, so the evidence is refreshed first.
        """
        self._dirty = True
        self._changed_spans = self._changed_spans or spans

    def after_write(self) -> None:
        """Call after each committed write: marks the store changed, maybe publishes."""
        self._dirty = True
        self._changed_spans = True
        self.maybe_publish()

    @property
    def publish_due(self) -> bool:
        """True when nothing awaits publishing or the rate limit allows a snapshot now."""
        if not (self.publish_snapshots and self._dirty):
            return True
        # Wait at least the interval, and long enough that copying stays under
        # SNAPSHOT_OVERHEAD of the time (a big store is copied less often).
        gap = max(self.snapshot_interval, self._last_publish_seconds / SNAPSHOT_OVERHEAD)
        return time.monotonic() - self._last_publish >= gap

    @property
    def release_due(self) -> bool:
        """True when letting go now (which publishes) keeps snapshots under their overhead share.

        Unlike :attr:`publish_due` this ignores ``snapshot_interval``: a quiet
        writer should hand the live file to readers soon, and for a small
        store a snapshot costs milliseconds.
        """
        if not (self.publish_snapshots and self._dirty):
            return True
        return time.monotonic() - self._last_publish >= (
            self._last_publish_seconds / SNAPSHOT_OVERHEAD
        )

    def maybe_publish(self) -> bool:
        """Publish a snapshot if the data changed and the rate limit allows it."""
        if not (self.publish_snapshots and self._dirty) or not self.publish_due:
            return False
        self.publish()
        return True

    @property
    def refresh_pending(self) -> bool:
        """Raw spans changed since the evidence tables were last brought up to date."""
        return self.upkeep is not None and self._changed_spans

    def refresh_evidence(self) -> None:
        """Run the session's upkeep (the evidence refresh) before readers see the data.

        Writers refresh, the dashboard and ``report`` only read: so every
        snapshot a writer publishes, and the live file it lets go of, carries
        evidence that matches its spans — when the command that opened the
        session handed it an ``upkeep`` (``verdict.upkeep.EvidenceUpkeep``;
        the store does not know what evidence is). A failing upkeep is logged
        and leaves the spans stored; the next writer's refresh catches up.
        """
        if self.upkeep is None or not self._changed_spans:
            return
        try:
            self.upkeep(self.store.connection)
            self._changed_spans = False
        except Exception as error:  # the spans are committed; evidence catches up later
            _log.warning("could not refresh the evidence tables: %s", error)

    def publish(self) -> Path:
        """Publish a snapshot now (``<db>.snapshot.duckdb``, replaced atomically)."""
        self.refresh_evidence()
        self._remove_stale_partials()
        started = time.monotonic()
        path = self.store.snapshot(self.companions.snapshot)
        self._last_publish = time.monotonic()
        self._last_publish_seconds = self._last_publish - started
        self._dirty = False
        self.snapshots_published += 1
        return path

    def _remove_stale_partials(self) -> None:
        """Delete half-written snapshots of writers killed while publishing."""
        snapshot = self.companions.snapshot
        for partial in snapshot.parent.glob(f".{snapshot.name}.*.partial"):
            pid_text = partial.name.removesuffix(".partial").rsplit(".", 1)[-1]
            if pid_text.isdigit() and not _pid_alive(int(pid_text)):
                partial.unlink(missing_ok=True)

    def _publish_if_stale(self) -> None:
        """Publish when the snapshot is missing or behind the live file.

        That happens after a writer died before publishing (``kill -9``):
        readers falling back to the snapshot would otherwise see older data
        than the live file showed them.
        """
        try:
            live = data_version(self.store.connection)
            snap = _snapshot_version(self.companions.snapshot)
            if snap != live:
                self.publish()
        except (StoreError, duckdb.Error, OSError) as error:
            _log.warning("could not publish a snapshot of %s: %s", self.store.path, error)

    # -- closing ---------------------------------------------------------

    def close(self) -> None:
        """Publish if changed, unregister and release the file (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.refresh_evidence()
            if self.publish_snapshots and self._dirty:
                try:
                    self.publish()
                except StoreError as error:
                    _log.warning("could not publish a snapshot: %s", error)
        finally:
            # Release first, then unregister: while DuckDB's lock is held the
            # registration must exist, or a waiter would take us for a foreign
            # program and give up.
            try:
                self.store.close()
            finally:
                self._unregister()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _snapshot_version(path: Path) -> DataVersion | None:
    if not path.exists():
        return None
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return None
    try:
        return data_version(con)
    except duckdb.Error:
        return None
    finally:
        con.close()


def waiting_writers(db_path: str | os.PathLike[str] | None = None) -> list[str]:
    """Other processes waiting to write the store, as ``"recurscope ingest (pid 42)"``."""
    return [
        f"{w.kind or describe_process(w.pid)} (pid {w.pid})"
        for w in _waiting_writers(companions(db_path), exclude_pid=os.getpid())
    ]


def describe_holder(error: StoreLockedError) -> str:
    """Who holds the store, e.g. ``"recurscope ingest (pid 42)"``.

    Prefers what the holder registered over what its command line suggests
    (a script that calls :func:`open_for_writing` names itself there).
    """
    registered = _registered_holder(companions(error.path), error.holder_pid)
    kind = registered.kind if registered is not None and registered.kind else error.holder_kind
    if error.holder_pid is None:
        return kind
    return f"{kind} (pid {error.holder_pid})"


def open_for_writing(
    db_path: str | os.PathLike[str] | None = None,
    *,
    kind: str,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    wait_for_other_programs: bool = True,
    on_wait: Callable[[str], None] | None = None,
    releases: str = "when done",
    snapshot_interval: float = DEFAULT_SNAPSHOT_INTERVAL,
    publish_snapshots: bool = True,
    upkeep: Upkeep | None = None,
    defer_creation: bool = True,
) -> WriteSession:
    """Open the store for writing, waiting up to ``lock_timeout`` s for the holder to let go.

    ``kind`` names this writer for others' messages (``"recurscope ingest"``).
    While waiting, the writer is listed in ``<db>.access/`` so a receiver
    releases the file and readers use the snapshot. ``on_wait`` is called
    once with a sentence such as ``"waiting for recurscope serve (pid 42) to
    release data/recurscope.duckdb"``.

    Holders that are known to let go — registered recurscope writers, and
    read-only holders (readers keep the file for one query) — are always
    waited for. A process that is not recurscope and has the file open for
    writing (a notebook, the DuckDB CLI) may never let go: with
    ``wait_for_other_programs=False`` that raises :class:`StoreLockedError`
    at once instead of after the whole timeout.

    A store that does not exist yet is created when ``session.store`` is first
    used (``defer_creation``), and everything above — waiting, registering,
    the first snapshot — happens then: a writer that ends up with nothing to
    write (``recurscope ingest`` of a missing path) creates no file, snapshot
    or ``.access`` folder. ``defer_creation=False`` creates it now (the
    receiver does, so a store exists as soon as it listens).
    """
    comp = companions(db_path)
    waiting_file: Path | None = None

    def acquire() -> Store:
        nonlocal waiting_file
        store, waiting_file = _acquire(
            comp,
            kind=kind,
            lock_timeout=lock_timeout,
            wait_for_other_programs=wait_for_other_programs,
            on_wait=on_wait,
        )
        return store

    def withdraw() -> None:
        if waiting_file is not None:
            waiting_file.unlink(missing_ok=True)

    def new_session(store: Store) -> WriteSession:
        return WriteSession(
            store,
            comp,
            kind=kind,
            releases=releases,
            snapshot_interval=snapshot_interval,
            publish_snapshots=publish_snapshots,
            upkeep=upkeep,
        )

    if defer_creation and str(comp.db) != ":memory:" and not comp.db.exists():
        session: WriteSession | None = None

        def acquired() -> None:
            try:
                assert session is not None
                session._acquired()
            finally:
                withdraw()

        session = new_session(Store.deferred(comp.db, acquire, after_open=acquired))
        return session
    store = acquire()
    try:
        return new_session(store)
    except BaseException:
        store.close()
        raise
    finally:
        withdraw()


def _acquire(
    comp: Companions,
    *,
    kind: str,
    lock_timeout: float,
    wait_for_other_programs: bool,
    on_wait: Callable[[str], None] | None,
) -> tuple[Store, Path | None]:
    """Open ``comp.db`` for writing, waiting for its holder as :func:`open_for_writing` says.

    Returns the store and this writer's ``waiting-<pid>.json``, which the
    caller withdraws only once registered as the holder: a writer that has
    just got the lock (creating the schema can take a moment) is never
    mistaken for a foreign program by the next one.
    """
    deadline = time.monotonic() + lock_timeout
    delay = _BACKOFF_START
    # Announced before the first attempt.
    access_existed = comp.access.is_dir()
    waiting_file = _announce_waiting(comp, kind, None)
    announced = False
    try:
        while True:
            try:
                return Store.open(comp.db, lock_timeout=0), waiting_file
            except StoreLockedError as error:
                known = (
                    error.holder_mode == "read-only"
                    or _registered_holder(comp, error.holder_pid) is not None
                    or _announced(comp, error.holder_pid)
                )
                if not known and not wait_for_other_programs:
                    raise
                if time.monotonic() >= deadline:
                    if lock_timeout > 0:
                        raise StoreLockedError(
                            f"{error} (Waited {lock_timeout:g} s; raise --lock-timeout to "
                            "wait longer.)",
                            path=error.path,
                            holder_pid=error.holder_pid,
                            holder_kind=error.holder_kind,
                            holder_mode=error.holder_mode,
                        ) from None
                    raise
                waiting_file = _announce_waiting(comp, kind, waiting_file)
                if not announced:
                    announced = True
                    if on_wait is not None:
                        on_wait(f"waiting for {describe_holder(error)} to release {comp.db}")
                time.sleep(min(delay * random.uniform(0.5, 1.0), deadline - time.monotonic()))
                delay = min(delay * 2, _BACKOFF_MAX)
    except BaseException:
        if waiting_file is not None:
            waiting_file.unlink(missing_ok=True)
        if not access_existed:
            with contextlib.suppress(OSError):  # only if empty: others may be announcing
                comp.access.rmdir()
        raise


def _announced(comp: Companions, pid: int | None) -> bool:
    """Whether ``pid`` is a live recurscope writer that announced itself (and may hold now)."""
    if pid is None:
        return False
    return (comp.access / f"waiting-{pid}.json").exists() and _pid_alive(pid)


def _announce_waiting(comp: Companions, kind: str, current: Path | None) -> Path | None:
    """Create or refresh ``waiting-<pid>.json`` (its mtime says we are still waiting)."""
    path = comp.access / f"waiting-{os.getpid()}.json"
    try:
        if current is None:
            comp.access.mkdir(parents=True, exist_ok=True)
            _write_json_atomically(path, {"pid": os.getpid(), "kind": kind})
        else:
            os.utime(path)
    except OSError:
        return current
    return path


# --------------------------------------------------------------------------
# Readers.


@dataclass(frozen=True, slots=True)
class ReadView:
    """What :func:`read_connection` opened, and how fresh it is.

    ``source`` is ``"live"`` (the store itself) or ``"snapshot"`` (the copy a
    writer published because it holds the store). ``as_of`` is when the data
    was current (UTC): now for the live store, the publication time for a
    snapshot. ``note`` says why a snapshot is shown.
    """

    store: Store
    source: Literal["live", "snapshot"]
    path: Path
    as_of: datetime
    version: DataVersion
    note: str | None = None

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """The read-only DuckDB connection (valid inside the ``with`` block only)."""
        return self.store.connection

    @property
    def age_seconds(self) -> float:
        """How old the data is, in seconds (0 for the live store)."""
        return max((datetime.now(UTC) - self.as_of).total_seconds(), 0.0)

    def describe(self) -> str:
        """One line for a status bar: ``live data`` or ``snapshot from 12 s ago (...)``."""
        if self.source == "live":
            return "live data"
        age = self.age_seconds
        when = f"{age:.0f} s" if age < 120 else f"{age / 60:.0f} min"
        return f"snapshot from {when} ago" + (f" ({self.note})" if self.note else "")


_seen_lock = threading.Lock()
_seen: dict[str, DataVersion] = {}


def _remember(path: Path, version: DataVersion) -> DataVersion | None:
    """Record ``version`` as shown; return the newest version shown before."""
    key = str(path.resolve())
    with _seen_lock:
        before = _seen.get(key)
        if before is None or version > before:
            _seen[key] = version
        return before


_READ_ATTEMPTS: Final = 3
"""How often a reader opens the store (or snapshot) again when a read of it fails."""


@contextlib.contextmanager
def read_connection(
    db_path: str | os.PathLike[str] | None = None, *, wait: float = DEFAULT_READ_WAIT
) -> Iterator[ReadView]:
    """Open the store read-only for one query or page, or its snapshot if a writer holds it.

    Keep the block short: while it is open, no other process can write the
    store. Retries for up to ``wait`` seconds while a writer holds the file,
    and uses the snapshot at once when a registered writer holds it or
    waits for it. A file that opens but cannot be read (a snapshot shorter
    than its blocks in use, an I/O error on the first query) is opened
    again, up to three times, since a writer may be replacing it. Raises
    :class:`StoreUnavailableError` (with what to do) only when none of that
    gives a readable store, and ``StoreError`` when there is no store.
    """
    comp = companions(db_path)
    if not comp.db.exists() and not comp.snapshot.exists():
        raise StoreError(
            f"No store at {comp.db} yet: ingest spans first (recurscope ingest --db {comp.db} "
            "FILE) or start the receiver (recurscope serve), or point --db / RECURSCOPE_DB "
            "at the right file."
        )
    for attempt in range(1, _READ_ATTEMPTS + 1):
        try:
            view = _open_view(comp, wait)
            break
        except _Unreadable as error:
            if attempt == _READ_ATTEMPTS:
                raise StoreUnavailableError(
                    f"{error.path} could not be read ({error.reason}), {attempt} times in a "
                    "row. A writer may be replacing it: try again in a few seconds. If this "
                    f"persists{_remedy(comp, error.path)}"
                ) from None
            _log.info("reading %s failed (%s); opening it again", error.path, error.reason)
            time.sleep(0.05 * attempt)
    try:
        yield view
    finally:
        view.store.close()


class _Unreadable(Exception):
    """A store or snapshot opened, but reading it failed (see :func:`_checked_version`)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def unreadable_message(error: BaseException, *, again: str = "run the command again") -> str:
    """What to say when DuckDB could not read a file midway (``duckdb.IOException``).

    Names the file from DuckDB's message and what to do: ``again`` (a
    writer may have replaced a snapshot under the reader; a page says
    "reload the page"), and if that keeps failing, delete a snapshot or
    restore a damaged store.
    """
    text = str(error).removeprefix("IO Error: ")
    match = re.search(r'file "([^"]+)"', text)
    if match is None:
        return (
            f"Reading the store failed midway ({text}). {again[:1].upper()}{again[1:]} (a "
            "writer may have replaced the file); if this persists, the file is damaged."
        )
    path = Path(match.group(1))
    if path.name.endswith(".snapshot.duckdb"):
        comp = companions(path.with_name(path.name.removesuffix(".snapshot.duckdb") + ".duckdb"))
    else:
        comp = companions(path)
    return (
        f"Reading {path} failed midway ({text}). A writer may have replaced it meanwhile: "
        f"{again}. If this persists{_remedy(comp, path)}"
    )


def _remedy(comp: Companions, path: Path) -> str:
    if path == comp.snapshot:
        return (
            f", delete {comp.snapshot}: it is only a copy, and the next writer to let go of "
            "the store publishes a new one."
        )
    return (
        f", the store itself is damaged: run `recurscope ingest --db {comp.db} ...` into a new "
        "file, or restore it from a backup."
    )


def _checked_version(store: Store, path: Path, *, copy: bool) -> DataVersion:
    """The data version of a just-opened file, or :class:`_Unreadable` (store closed).

    A snapshot (``copy``) must also be at least as long as its blocks in use
    (:meth:`Store.bytes_in_use`): a shorter one is a copy that went wrong,
    and DuckDB would only notice when a query reaches a missing block.
    """
    try:
        version = data_version(store.connection)
        if copy:
            size, expected = path.stat().st_size, store.bytes_in_use()
            if size < expected:
                raise _Unreadable(
                    path, f"{size:,} bytes, shorter than the {expected:,} its blocks in use need"
                )
        return version
    except BaseException as error:
        store.close()
        if isinstance(error, (duckdb.Error, OSError)):
            raise _Unreadable(path, str(error).removeprefix("IO Error: ")) from None
        raise


def _open_view(comp: Companions, wait: float) -> ReadView:
    """One attempt of :func:`read_connection`: the live store, else the snapshot (open)."""
    deadline = time.monotonic() + wait
    delay = 0.02
    busy: StoreLockedError | None = None
    store: Store | None = None
    skip_live = comp.snapshot.exists() and (
        _registered_holder(comp, None) is not None or bool(_waiting_writers(comp))
    )
    while not skip_live:
        try:
            store = Store.open(comp.db, read_only=True)
            break
        except StoreLockedError as error:
            busy = error
            if comp.snapshot.exists() and _registered_holder(comp, error.holder_pid):
                break  # a recurscope writer: the snapshot is as good as waiting
            if time.monotonic() >= deadline:
                break
            time.sleep(min(delay, max(deadline - time.monotonic(), 0.0)))
            delay = min(delay * 2, 0.2)
        except StoreError:
            if comp.db.exists():
                raise
            break  # the store vanished (moved away?) but a snapshot remains
    if store is not None:
        version = _checked_version(store, comp.db, copy=False)
        _remember(comp.db, version)
        return ReadView(store, "live", comp.db, datetime.now(UTC), version)
    return _snapshot_view(comp, busy)


def _snapshot_view(comp: Companions, busy: StoreLockedError | None) -> ReadView:
    holder = _registered_holder(comp, None)
    if busy is not None:
        who = describe_holder(busy)
    elif holder is not None:
        who = f"{holder.kind} (pid {holder.pid})"
    else:
        who = "a writer"
    try:
        # Read the time first: if a newer snapshot replaces it meanwhile, the
        # view understates its freshness rather than overstating it.
        published = comp.snapshot.stat().st_mtime
        snapshot = Store.open(comp.snapshot, read_only=True)
    except SchemaVersionError:
        raise
    except (StoreError, FileNotFoundError) as error:
        if comp.snapshot.exists():
            # Damaged, or replaced between the two calls: worth another look.
            raise _Unreadable(comp.snapshot, str(error)) from None
        raise StoreUnavailableError(
            f"{comp.db} is busy: {who} is writing to it, and no snapshot has been published "
            f"yet ({comp.snapshot} appears once a writer has committed data). Try again in a "
            "few seconds."
        ) from None
    version = _checked_version(snapshot, comp.snapshot, copy=True)
    before = _remember(comp.db, version)
    note = f"{who} is writing to the store"
    if before is not None and version < before:
        note += "; this snapshot is older than data shown before"
    return ReadView(
        snapshot,
        "snapshot",
        comp.snapshot,
        datetime.fromtimestamp(published, UTC),
        version,
        note,
    )

"""The drainer: the one thread that moves spooled requests into the store, in order, exactly once."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..decode.otlp import DecodedBody
from ..errors import IngestError, PipelineError, StoreLockedError
from ..records import Reason, Rejection, SpanRow
from ..store.database import IngestRun, ResumeMark
from ..store.locking import (
    Upkeep,
    WriteSession,
    describe_holder,
    open_for_writing,
    waiting_writers,
)
from .bodies import decode_body, screen_origins
from .serve_config import FULL_BATCH_BYTES, SPOOL_FORMAT, ReceiverConfig, ReceiverStats
from .spool import HEADER_SIZE, CorruptRegion, SegmentInfo, Spool, SpoolError, SpoolRecord

if TYPE_CHECKING:
    pass
_log = logging.getLogger("recurscope.serve")


@dataclass(slots=True)
class _SegmentRun:
    """Drain progress of one segment, mirrored by its ``ingest_log`` row
    (``ResumeOffset`` = ``offset``, ``ResumeLine`` = ``records``)."""

    source: str
    offset: int
    records: int
    digest: Any  # hashlib sha256 of the segment's bytes [0, offset)
    ingest_id: int | None = None
    finished: bool = False


class Drainer:
    """Moves spooled requests into the store; the only thread that touches DuckDB.

    It holds the store while there is work and lets go when another writer
    waits (``recurscope ingest``: it hands over at once and waits until that
    writer has the file), when idle for ``idle_release`` seconds (so readers
    get the live file), and at shutdown. Every hold ends with a snapshot if
    data changed (:class:`~recurscope.pipeline.store.locking.WriteSession`).
    """

    def __init__(
        self,
        config: ReceiverConfig,
        spool: Spool,
        stats: ReceiverStats,
        name: str,
        upkeep: Upkeep | None = None,
    ) -> None:
        self.config = config
        self.spool = spool
        self.stats = stats
        self.name = name
        self.upkeep = upkeep
        self.session: WriteSession | None = None
        self.blocked_by: str | None = None
        """Who holds the store while the drainer waits for it (``None``: not waiting)."""
        self.rate = 0.0
        """Recent drain speed in spool bytes per second (for Retry-After)."""
        self._runs: dict[int, _SegmentRun] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="recurscope-drainer")
        self._last_work = time.monotonic()
        self._last_drain = 0.0
        self._failures = 0

    # -- lifecycle ---------------------------------------------------------

    def start(self, session: WriteSession | None) -> None:
        self.session = session
        self._thread.start()

    def stop(self, timeout: float) -> bool:
        """Stop the loop, store everything spooled (within ``timeout``); True if empty."""
        self._stop.set()
        self.spool.appended.set()
        self._thread.join()
        deadline = time.monotonic() + timeout
        with contextlib.suppress(SpoolError):
            self.spool.seal_active()
        while time.monotonic() < deadline:
            try:
                if self.session is None and not self._acquire(deadline - time.monotonic()):
                    continue
                self._drain(final=True)
                break
            except PipelineError as error:
                _log.error("could not store spooled spans: %s", error)
                self._release()
                time.sleep(min(1.0, max(deadline - time.monotonic(), 0.0)))
        self._release()
        return self.spool.backlog_bytes == 0

    # -- the loop ----------------------------------------------------------

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.spool.appended.wait(timeout=0.2)
            self.spool.appended.clear()
            if self._stop.is_set():
                break
            try:
                self._cycle()
                self._failures = 0
            except Exception as error:
                # The spool keeps the data: report, let go of the store, retry later.
                self._failures += 1
                if isinstance(error, PipelineError):
                    _log.error("could not store spooled spans (will retry): %s", error)
                else:  # pragma: no cover - a bug; keep serving, the spool is safe
                    _log.exception("drainer failed (will retry); spooled spans are kept")
                with contextlib.suppress(Exception):
                    self._release()
                self._stop.wait(min(0.5 * 2**self._failures, 30.0))

    def _cycle(self) -> None:
        segments = self.spool.segments()
        if any(_pending(info) for info in segments):
            self._last_work = time.monotonic()
            # Batch up: one transaction per drain_interval unless a full batch
            # is waiting. The store's anti-join costs per batch, not per span.
            wait = self._last_drain + self.config.drain_interval - time.monotonic()
            if wait > 0 and self.spool.backlog_bytes < FULL_BATCH_BYTES:
                self._stop.wait(wait)
            if self.session is None and not self._acquire(0.5):
                return
            self._drain(final=False)
            self._last_drain = time.monotonic()
        session = self.session
        if session is None:
            return
        waiting = session.others_waiting()
        if waiting:
            _log.info("handing the store over to %s; spans are spooled meanwhile", waiting[0])
            self._release()
            self._await_hand_over()
            return
        idle = time.monotonic() - self._last_work
        if idle >= self.config.idle_release and session.release_due:
            # Quiet: let readers at the live file (closing publishes a snapshot).
            self._release()
            return
        session.maybe_publish()

    def _await_hand_over(self) -> None:
        """Wait until the writer we let go for has the store (or gave up), at most 5 s."""
        deadline = time.monotonic() + 5.0
        while (
            not self._stop.is_set()
            and time.monotonic() < deadline
            and waiting_writers(self.config.db_path)
        ):
            self._stop.wait(0.05)

    def _acquire(self, wait: float) -> bool:
        try:
            self.session = open_for_writing(
                self.config.db_path,
                kind="recurscope serve",
                lock_timeout=max(wait, 0.0),
                releases="on request",
                snapshot_interval=self.config.snapshot_interval,
                upkeep=self.upkeep,
                defer_creation=False,  # the lock errors below must come now
            )
        except StoreLockedError as error:
            holder = describe_holder(error)
            if self.blocked_by != holder:
                _log.info(
                    "waiting for %s to release %s; acknowledged spans stay in the spool",
                    holder,
                    self.config.db_path,
                )
            self.blocked_by = holder
            return False
        if self.blocked_by is not None:
            _log.info("%s is free again; storing the spool", self.config.db_path)
        self.blocked_by = None
        return True

    def _release(self) -> None:
        session = self.session
        if session is None:
            return
        self.session = None
        try:
            self._finish_drained(session)
        finally:
            try:
                session.close()
            except PipelineError as error:
                _log.error("closing the store: %s", error)

    # -- draining ------------------------------------------------------------

    def _drain(self, *, final: bool) -> None:
        session = self.session
        assert session is not None
        for info in self.spool.segments():
            run = self._run_for(session, info)
            complete = run.finished or run.offset >= info.durable_end
            if not complete:
                complete = self._drain_segment(session, info, run)
            if info.sealed and complete:
                self._finish_segment(session, info, run)
            if not final and session.others_waiting():
                return
        if not final:
            self._seal_if_drained()

    def _seal_if_drained(self) -> None:
        """Seal a fully stored active segment, so a quiet receiver leaves no file behind."""
        for info in self.spool.segments():
            if not info.sealed:
                run = self._runs.get(info.seq)
                if run is not None and HEADER_SIZE < run.offset == info.durable_end:
                    self.spool.seal_active(only_if_size=run.offset)

    def _finish_drained(self, session: WriteSession) -> None:
        """Close the log rows of stored segments and delete them (before letting go)."""
        self._seal_if_drained()
        for info in self.spool.segments():
            run = self._runs.get(info.seq)
            if run is not None and info.sealed and run.offset >= info.durable_end:
                self._finish_segment(session, info, run)

    def _run_for(self, session: WriteSession, info: SegmentInfo) -> _SegmentRun:
        run = self._runs.get(info.seq)
        if run is not None:
            return run
        source = f"{self.name} segment {info.segment_id}"
        offset, records, ingest_id, finished = HEADER_SIZE, 0, None, False
        if info.leftover:
            # Left by an earlier run: the store knows how far that one got, in
            # the same transactions as the spans, so nothing is stored twice.
            # Segments left by recurscope 0.1 were logged as 'otlp-http segment <id>'.
            rows = session.store.query(
                "SELECT IngestId, ResumeOffset, ResumeLine, Status FROM ingest_log "
                "WHERE Source IN (?, ?) ORDER BY IngestId DESC LIMIT 1",
                [source, f"otlp-http segment {info.segment_id}"],
            )
            if rows:
                ingest_id = int(str(rows[0][0]))
                if rows[0][1] is not None:
                    offset = int(str(rows[0][1]))
                records = int(str(rows[0][2] or 0))
                finished = rows[0][3] == "ok"
            self.stats.add(replayed_segments=1)
        digest = hashlib.sha256()
        _hash_range(info.path, 0, offset, digest)
        run = _SegmentRun(source, offset, records, digest, ingest_id, finished)
        self._runs[info.seq] = run
        self.spool.mark_drained(info.seq, offset)
        return run

    def _drain_segment(self, session: WriteSession, info: SegmentInfo, run: _SegmentRun) -> bool:
        """Store the segment's records from the run's offset; True if it reached the end."""
        rows: list[SpanRow] = []
        rejections: list[Rejection] = []
        batch_end = run.offset
        batch_records = 0
        started = time.monotonic()
        begin = run.offset
        complete = True
        for item in self.spool.read(info.seq, run.offset, info.durable_end):
            if isinstance(item, CorruptRegion):
                _log.error(
                    "spool segment %s: %d bytes at offset %d failed their checksum (%s); kept "
                    "in %s",
                    info.path.name,
                    item.end - item.offset,
                    item.offset,
                    item.detail,
                    self.spool.directory / "corrupt",
                )
                batch_end = item.end
                continue
            batch_records += 1
            decoded = self._decoded(item, run.records + batch_records)
            rows.extend(decoded.rows)
            rejections.extend(decoded.rejections)
            batch_end = item.end
            if len(rows) + len(rejections) >= self.config.batch_spans:
                self._commit(session, info, run, rows, rejections, batch_end, batch_records)
                rows, rejections, batch_records = [], [], 0
                if not self._stop.is_set() and session.others_waiting():
                    complete = False
                    break
        if complete and batch_end > run.offset:
            self._commit(session, info, run, rows, rejections, batch_end, batch_records)
        elapsed = time.monotonic() - started
        if run.offset > begin and elapsed > 0:
            current = (run.offset - begin) / elapsed
            self.rate = current if self.rate == 0 else 0.7 * self.rate + 0.3 * current
        return complete

    def _decoded(self, record: SpoolRecord, number: int) -> DecodedBody:
        decoded = record.attachment
        if not isinstance(decoded, DecodedBody):
            try:
                decoded = screen_origins(
                    decode_body(
                        record.body,
                        record.content_type,
                        record.content_encoding,
                        self.config.limits,
                    ),
                    self.config.accept_simulated,
                )
            except IngestError as error:
                rejection = Rejection(
                    Reason.UNRECOGNIZED_FORMAT,
                    str(error),
                    record.body[: self.config.limits.excerpt_bytes],
                )
                decoded = DecodedBody((), (rejection,))
        if not decoded.rejections:
            return decoded
        # Quarantine rows name the request: Line = its number in the segment.
        return DecodedBody(
            decoded.rows,
            tuple(
                dataclasses.replace(r, position=dataclasses.replace(r.position, line=number))
                for r in decoded.rejections
            ),
        )

    def _commit(
        self,
        session: WriteSession,
        info: SegmentInfo,
        run: _SegmentRun,
        rows: list[SpanRow],
        rejections: list[Rejection],
        end: int,
        records: int,
    ) -> None:
        store = session.store
        if run.ingest_id is None:
            run.ingest_id = store.begin_ingest(run.source, SPOOL_FORMAT).ingest_id
        # The run may have begun under an earlier hold (or process): continue its row.
        ingest_run = IngestRun(store, run.ingest_id, run.source, SPOOL_FORMAT)
        digest = run.digest.copy()
        _hash_range(info.path, run.offset, end, digest)
        # Spans, quarantine rows and the resume point commit together: a crash
        # after this and before the segment is deleted replays nothing twice.
        result = ingest_run.write(
            rows,
            rejections,
            bytes_read=end - HEADER_SIZE,
            resume=ResumeMark(end, run.records + records, digest.hexdigest()),
            limits=self.config.limits,
        )
        run.digest = digest
        run.offset = end
        run.records += records
        self.spool.mark_drained(info.seq, end)
        session.after_write()
        self.stats.add(
            spans_stored=result.accepted,
            duplicates=result.duplicates,
            quarantined=result.quarantined,
        )

    def _finish_segment(self, session: WriteSession, info: SegmentInfo, run: _SegmentRun) -> None:
        if run.ingest_id is not None and not run.finished:
            IngestRun(session.store, run.ingest_id, run.source, SPOOL_FORMAT).finish(
                "ok", checksum=run.digest.hexdigest(), bytes_read=run.offset - HEADER_SIZE
            )
            session.mark_dirty()
        run.finished = True
        self.spool.remove(info.seq)
        self._runs.pop(info.seq, None)


def _pending(info: SegmentInfo) -> bool:
    """Whether a segment still needs the drainer (records to store, or a file to delete)."""
    return info.drained is None or info.drained < info.durable_end or info.sealed


def _hash_range(path: Path, start: int, end: int, digest: Any) -> None:
    """Feed bytes ``[start, end)`` of ``path`` to ``digest``."""
    if end <= start:
        return
    with path.open("rb") as handle:
        handle.seek(start)
        remaining = end - start
        while remaining:
            chunk = handle.read(min(remaining, 1 << 20))
            if not chunk:
                break
            digest.update(chunk)
            remaining -= len(chunk)

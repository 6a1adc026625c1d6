"""A durable, append-only spool of OTLP/HTTP request bodies (the receiver's write-ahead log).

``recurscope serve`` answers 200 only once a request's body is on disk: the
handler appends it here and waits for ``fdatasync``; a background drainer
later writes the spooled requests into the DuckDB store and deletes each
segment once its spans are committed. A ``kill -9`` between the two loses
nothing: the next start replays what is left, and the store's identity
(TraceId, SpanId) plus a per-segment resume point (``ingest_log``) make the
replay add each span and each quarantine row exactly once.

Layout of a spool directory (``data/recurscope.spool/`` beside the store)::

    LOCK                                  flock'ed by the one receiver using the spool
    000000000001-<uuid>.seg               segments, replayed in sequence order
    corrupt/                              bytes that failed their checksum (kept for inspection)

A segment is a 32-byte header (``RSSPOOL1``, a random 16-byte id, the creation
time) followed by records::

    b"RSRC" | payload length (u32 LE) | crc32(payload) (u32 LE) | payload
    payload = version (u8) | received_ns (u64) | len(content-type) (u16)
              | len(content-encoding) (u16) | content-type | content-encoding | body

Records are written with ``pwrite`` at the segment's end and only counted once
complete, so a failed write (disk full) is truncated away; concurrent writers
share one ``fdatasync`` (group commit). The segment id, not the file name, is
the identity the store logs, so a spool directory that is wiped and recreated
can never be mistaken for an old one.
"""

from __future__ import annotations

import dataclasses
import errno
import fcntl
import logging
import os
import struct
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, Final, Self

from ..errors import SpoolError, SpoolFullError, SpoolLockedError

__all__ = [
    "HEADER_SIZE",
    "CorruptRegion",
    "SegmentInfo",
    "Spool",
    "SpoolError",
    "SpoolFullError",
    "SpoolLockedError",
    "SpoolRecord",
    "Ticket",
    "default_spool_dir",
]

_log = logging.getLogger(__name__)

SEGMENT_MAGIC: Final = b"RSSPOOL1"
RECORD_MAGIC: Final = b"RSRC"
_SEGMENT_HEADER: Final = struct.Struct("<8s16sQ")
_RECORD_HEADER: Final = struct.Struct("<4sII")
_PAYLOAD_HEADER: Final = struct.Struct("<BQHH")
_PAYLOAD_VERSION: Final = 1

HEADER_SIZE: Final = _SEGMENT_HEADER.size
"""Bytes before a segment's first record."""

DEFAULT_SEGMENT_BYTES: Final = 64 * 1024 * 1024
"""A segment is sealed once it grows past this; the drainer deletes it when stored."""

_MAX_RECORD: Final = 1 << 31
"""Sanity bound when reading: a larger length field can only be corruption."""


def default_spool_dir(db_path: Path) -> Path:
    """``data/recurscope.duckdb`` -> ``data/recurscope.spool``."""
    return db_path.with_suffix(".spool")


@dataclass(frozen=True, slots=True, order=True)
class Ticket:
    """Where an appended record ends: ``(segment sequence, end offset)``, ordered."""

    seq: int
    end: int


@dataclass(frozen=True, slots=True)
class SpoolRecord:
    """One spooled request: where it sits and what the client sent."""

    seq: int
    offset: int
    end: int
    received_ns: int
    content_type: str
    content_encoding: str | None
    body: bytes
    attachment: object | None = None
    """What :meth:`Spool.append` was given to keep in memory (e.g. the decoded spans),
    or ``None`` after a restart or when the memory budget was spent."""


@dataclass(frozen=True, slots=True)
class CorruptRegion:
    """Bytes ``[offset, end)`` of a segment that failed their checksum or framing."""

    seq: int
    offset: int
    end: int
    detail: str


@dataclass(frozen=True, slots=True)
class SegmentInfo:
    """A segment as the drainer sees it.

    ``durable_end`` is how far records are known to be on disk (for the
    active segment: the last ``fdatasync``; for a sealed one: its size).
    ``drained`` is how far the drainer has stored it (``None`` until the
    drainer has asked the store, for segments left by an earlier run).
    """

    seq: int
    segment_id: str
    path: Path
    durable_end: int
    sealed: bool
    drained: int | None
    leftover: bool


class _Segment:
    __slots__ = ("drained", "fd", "leftover", "path", "seq", "size", "uid")

    def __init__(
        self, seq: int, uid: str, path: Path, size: int, fd: int | None, leftover: bool
    ) -> None:
        self.seq = seq
        self.uid = uid
        self.path = path
        self.size = size
        self.fd = fd
        self.leftover = leftover
        self.drained: int | None = None if leftover else HEADER_SIZE


def _fsync_dir(path: Path) -> None:
    # A new file's directory entry is only durable once the directory is synced.
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _datasync(fd: int) -> None:
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:  # pragma: no cover - macOS
        os.fsync(fd)


def encode_record(
    body: bytes, content_type: str, content_encoding: str | None, received_ns: int
) -> bytes:
    """The on-disk bytes of one record (exposed for tests of the reader)."""
    ct = content_type.encode("utf-8", "replace")[:0xFFFF]
    ce = (content_encoding or "").encode("utf-8", "replace")[:0xFFFF]
    payload = b"".join(
        (_PAYLOAD_HEADER.pack(_PAYLOAD_VERSION, received_ns, len(ct), len(ce)), ct, ce, body)
    )
    return _RECORD_HEADER.pack(RECORD_MAGIC, len(payload), zlib.crc32(payload)) + payload


class Spool:
    """An append-only, checksummed, fsynced queue of request bodies in one directory.

    Thread-safe: request handlers :meth:`append` and :meth:`commit`; one
    drainer lists :meth:`segments`, :meth:`read`\\ s them, reports progress
    with :meth:`mark_drained` and deletes stored segments with :meth:`remove`.
    One process uses a spool at a time (an ``flock`` on ``LOCK``).
    """

    def __init__(
        self,
        directory: Path,
        lock_fd: int,
        segment_bytes: int,
        *,
        fsync: bool = True,
        attachment_budget: int = 0,
    ) -> None:
        self.directory = directory
        self._lock_fd = lock_fd
        self._segment_bytes = segment_bytes
        self._fsync = fsync
        # Decoded spans kept beside a record so the drainer need not decode it
        # again; bounded by a total weight (spans), after which it re-decodes.
        self._attachments: dict[tuple[int, int], tuple[object, int]] = {}
        self._attachment_budget = attachment_budget
        self._attachment_weight = 0
        self._lock = threading.Lock()
        # Taken before _lock when both are needed; serializes fdatasync calls so
        # concurrent committers share one (group commit).
        self._sync_lock = threading.Lock()
        self._segments: dict[int, _Segment] = {}
        self._closed = False
        self.appended = threading.Event()
        """Set after every append; the drainer waits on it."""
        leftovers = self._scan()
        self._next_seq = max((s.seq for s in leftovers), default=0) + 1
        for segment in leftovers:
            self._segments[segment.seq] = segment
        self._active = self._new_segment()
        self._durable = Ticket(self._active.seq, HEADER_SIZE)

    # -- opening -------------------------------------------------------

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str],
        *,
        segment_bytes: int = DEFAULT_SEGMENT_BYTES,
        fsync: bool = True,
        attachment_budget: int = 0,
    ) -> Spool:
        """Open (creating) the spool in ``directory``; segments left there are kept for replay.

        Raises :class:`SpoolLockedError` when another process uses it and
        :class:`SpoolError` when the directory is unusable.
        """
        path = Path(directory)
        try:
            path.mkdir(parents=True, exist_ok=True)
            lock_fd = os.open(path / "LOCK", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise SpoolError(
                f"Cannot use the spool directory {path}: {error.strerror}. Choose a writable "
                "place with --spool DIR (or move the store with --db)."
            ) from None
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = os.pread(lock_fd, 32, 0).decode("ascii", "replace").strip()
            os.close(lock_fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EACCES):
                who = f"process {holder}" if holder.isdigit() else "another process"
                raise SpoolLockedError(
                    f"The spool {path} is in use by {who} (another recurscope serve on the "
                    "same store). Send spans to that receiver, stop it, or give this one its "
                    "own store with --db PATH."
                ) from None
            raise SpoolError(f"Cannot lock {path / 'LOCK'}: {error.strerror}") from None
        os.ftruncate(lock_fd, 0)
        os.pwrite(lock_fd, f"{os.getpid()}\n".encode(), 0)
        try:
            return cls(
                path, lock_fd, segment_bytes, fsync=fsync, attachment_budget=attachment_budget
            )
        except BaseException:
            os.close(lock_fd)
            raise

    def _scan(self) -> list[_Segment]:
        found: list[_Segment] = []
        for entry in sorted(self.directory.glob("*.seg")):
            seq_text = entry.stem.partition("-")[0]
            if not seq_text.isdigit():
                continue
            try:
                with entry.open("rb") as handle:
                    header = handle.read(HEADER_SIZE)
                size = entry.stat().st_size
            except OSError as error:
                raise SpoolError(f"Cannot read spool segment {entry}: {error.strerror}") from None
            if len(header) < HEADER_SIZE or header[:8] != SEGMENT_MAGIC:
                # A segment whose header never reached the disk held no
                # acknowledged record (the header is synced before any append).
                _log.warning("removing spool segment %s: incomplete header", entry.name)
                entry.unlink(missing_ok=True)
                continue
            _, raw_id, _ = _SEGMENT_HEADER.unpack(header)
            found.append(_Segment(int(seq_text), raw_id.hex(), entry, size, None, leftover=True))
        found.sort(key=lambda s: s.seq)
        return found

    def _new_segment(self) -> _Segment:
        seq = self._next_seq
        self._next_seq += 1
        uid = uuid.uuid4()
        path = self.directory / f"{seq:012d}-{uid.hex}.seg"
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            os.pwrite(fd, _SEGMENT_HEADER.pack(SEGMENT_MAGIC, uid.bytes, time.time_ns()), 0)
            if self._fsync:
                _datasync(fd)
                _fsync_dir(self.directory)
        except OSError as error:
            raise SpoolFullError(
                f"Cannot create a spool segment in {self.directory}: {error.strerror}. "
                "Free disk space or point --spool at another disk."
            ) from None
        segment = _Segment(seq, uid.hex, path, HEADER_SIZE, fd, leftover=False)
        self._segments[seq] = segment
        return segment

    # -- writing -------------------------------------------------------

    def append(
        self,
        body: bytes,
        *,
        content_type: str,
        content_encoding: str | None = None,
        received_ns: int | None = None,
        attachment: object | None = None,
        weight: int = 0,
    ) -> Ticket:
        """Write one record (not yet durable: call :meth:`commit` with the ticket).

        ``attachment`` (of ``weight`` units against the spool's budget) is kept
        in memory and handed back by :meth:`read` with the record.
        """
        record = encode_record(body, content_type, content_encoding, received_ns or time.time_ns())
        with self._lock:
            if self._closed:
                raise SpoolError("the spool is closed")
            if self._active.size > HEADER_SIZE and (
                self._active.size + len(record) > self._segment_bytes
            ):
                self._rotate_locked()
            segment = self._active
            assert segment.fd is not None
            offset = segment.size
            try:
                written = os.pwrite(segment.fd, record, offset)
                while written < len(record):
                    more = os.pwrite(segment.fd, record[written:], offset + written)
                    if more <= 0:
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                    written += more
            except OSError as error:
                # Cut the partial record off so the segment stays parseable.
                try:
                    os.ftruncate(segment.fd, offset)
                except OSError:
                    pass
                raise SpoolFullError(
                    f"Cannot write to the spool {self.directory}: {error.strerror}. Free disk "
                    "space; the client will retry."
                ) from None
            segment.size = offset + len(record)
            ticket = Ticket(segment.seq, segment.size)
            # Under the same lock as the write: the drainer cannot read the
            # record before its attachment is in place.
            if attachment is not None and self._attachment_weight + weight <= (
                self._attachment_budget
            ):
                self._attachments[(segment.seq, offset)] = (attachment, weight)
                self._attachment_weight += weight
        self.appended.set()
        return ticket

    def commit(self, ticket: Ticket) -> None:
        """Return once the record behind ``ticket`` is on disk (``fdatasync``).

        Committers that arrive while a sync runs wait for it and usually find
        their record already covered: one sync serves many requests.
        """
        if not self._fsync:
            return
        with self._sync_lock:
            if ticket <= self._durable:
                return
            with self._lock:
                segment = self._active
                target = Ticket(segment.seq, segment.size)
                fd = segment.fd
            assert fd is not None
            try:
                _datasync(fd)
            except OSError as error:
                raise SpoolFullError(
                    f"Cannot sync the spool {self.directory}: {error.strerror}."
                ) from None
            self._durable = target

    def _rotate_locked(self) -> None:
        """Seal the active segment and start a new one (caller holds ``_lock``)."""
        old = self._active
        assert old.fd is not None
        if self._fsync:
            _datasync(old.fd)
        os.close(old.fd)
        old.fd = None
        self._active = self._new_segment()
        # Everything in the old segment is synced; the durable mark moves on.
        if self._durable.seq <= old.seq:
            self._durable = Ticket(self._active.seq, HEADER_SIZE)

    def seal_active(self, *, only_if_size: int | None = None) -> int | None:
        """Seal the active segment if it holds records; returns its sequence number.

        With ``only_if_size``, seal only if nothing was appended past that
        offset (the drainer seals a segment it has fully stored, atomically).
        """
        with self._sync_lock, self._lock:
            if self._closed or self._active.size == HEADER_SIZE:
                return None
            if only_if_size is not None and self._active.size != only_if_size:
                return None
            seq = self._active.seq
            self._rotate_locked()
            return seq

    # -- draining ------------------------------------------------------

    def segments(self) -> list[SegmentInfo]:
        """Every segment still in the spool, oldest first."""
        with self._lock:
            durable = self._durable
            result = []
            for seq in sorted(self._segments):
                segment = self._segments[seq]
                active = segment is self._active
                if not self._fsync:
                    end = segment.size
                elif active:
                    end = durable.end if durable.seq == seq else HEADER_SIZE
                else:
                    end = segment.size
                result.append(
                    SegmentInfo(
                        seq=seq,
                        segment_id=segment.uid,
                        path=segment.path,
                        durable_end=end,
                        sealed=not active,
                        drained=segment.drained,
                        leftover=segment.leftover,
                    )
                )
            return result

    def read(
        self, seq: int, start: int, end: int | None = None
    ) -> Iterator[SpoolRecord | CorruptRegion]:
        """Records of segment ``seq`` from offset ``start`` up to ``end`` (default: its size).

        A record cut off at the end of a leftover segment was never
        acknowledged (the server died writing it) and is skipped silently.
        Bad bytes *followed* by a good record are yielded as a
        :class:`CorruptRegion` (and copied to ``corrupt/``), then reading
        resumes at that record.
        """
        with self._lock:
            segment = self._segments.get(seq)
            if segment is None:
                return
            path = segment.path
            limit = segment.size if end is None else min(end, segment.size)
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            return
        with handle:
            offset = max(start, HEADER_SIZE)
            while offset < limit:
                parsed = _read_record(handle, seq, offset, limit)
                if isinstance(parsed, SpoolRecord):
                    with self._lock:
                        kept = self._attachments.pop((seq, offset), None)
                        if kept is not None:
                            self._attachment_weight -= kept[1]
                    if kept is not None:
                        parsed = dataclasses.replace(parsed, attachment=kept[0])
                    yield parsed
                    offset = parsed.end
                    continue
                resync = _next_valid(handle, seq, offset + 1, limit)
                if resync is None:
                    # Nothing valid follows: a torn tail from a crash mid-write,
                    # which was never acknowledged.
                    _log.info(
                        "spool segment %s: ignoring %d unacknowledged bytes at its end (%s)",
                        path.name,
                        limit - offset,
                        parsed,
                    )
                    return
                region = CorruptRegion(seq, offset, resync, parsed)
                self._keep_corrupt(path, region)
                yield region
                offset = resync

    def _keep_corrupt(self, path: Path, region: CorruptRegion) -> None:
        try:
            target_dir = self.directory / "corrupt"
            target_dir.mkdir(exist_ok=True)
            with path.open("rb") as handle:
                handle.seek(region.offset)
                data = handle.read(region.end - region.offset)
            (target_dir / f"{path.stem}-{region.offset}.bin").write_bytes(data)
        except OSError as error:
            _log.warning("could not keep corrupt spool bytes aside: %s", error)

    def mark_drained(self, seq: int, offset: int) -> None:
        """Record that segment ``seq`` is stored up to ``offset`` (for the backlog)."""
        with self._lock:
            segment = self._segments.get(seq)
            if segment is not None:
                segment.drained = offset

    def remove(self, seq: int) -> None:
        """Delete a sealed segment whose records are all stored."""
        with self._lock:
            segment = self._segments.get(seq)
            if segment is None:
                return
            if segment is self._active:
                raise SpoolError("cannot remove the active segment; seal it first")
            del self._segments[seq]
            for key in [key for key in self._attachments if key[0] == seq]:
                self._attachment_weight -= self._attachments.pop(key)[1]
        segment.path.unlink(missing_ok=True)

    @property
    def backlog_bytes(self) -> int:
        """Bytes spooled but not yet stored (segments of an earlier run count in full)."""
        with self._lock:
            total = 0
            for segment in self._segments.values():
                drained = HEADER_SIZE if segment.drained is None else segment.drained
                total += max(segment.size - drained, 0)
            return total

    @property
    def segment_count(self) -> int:
        with self._lock:
            return len(self._segments)

    # -- closing -------------------------------------------------------

    def close(self) -> None:
        """Close files and release the directory lock; segments stay for the next start."""
        with self._sync_lock, self._lock:
            if self._closed:
                return
            self._closed = True
            active = self._active
            if active.fd is not None:
                if self._fsync:
                    _datasync(active.fd)
                os.close(active.fd)
                active.fd = None
            if active.size == HEADER_SIZE:
                # An empty segment holds nothing to replay.
                active.path.unlink(missing_ok=True)
                self._segments.pop(active.seq, None)
            os.close(self._lock_fd)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _parse_payload(seq: int, offset: int, end: int, payload: bytes) -> SpoolRecord | str:
    if len(payload) < _PAYLOAD_HEADER.size:
        return "payload shorter than its header"
    version, received_ns, ct_len, ce_len = _PAYLOAD_HEADER.unpack_from(payload)
    if version != _PAYLOAD_VERSION:
        return f"unknown record version {version} (written by a newer recurscope?)"
    start = _PAYLOAD_HEADER.size
    if start + ct_len + ce_len > len(payload):
        return "header lengths exceed the payload"
    content_type = payload[start : start + ct_len].decode("utf-8", "replace")
    encoding = payload[start + ct_len : start + ct_len + ce_len].decode("utf-8", "replace")
    body = payload[start + ct_len + ce_len :]
    return SpoolRecord(seq, offset, end, received_ns, content_type, encoding or None, body)


def _read_record(handle: BinaryIO, seq: int, offset: int, limit: int) -> SpoolRecord | str:
    """The record at ``offset``, or why there is none."""
    handle.seek(offset)
    head = handle.read(_RECORD_HEADER.size)
    if len(head) < _RECORD_HEADER.size:
        return "truncated record header"
    magic, length, crc = _RECORD_HEADER.unpack(head)
    if magic != RECORD_MAGIC:
        return "no record marker"
    end = offset + _RECORD_HEADER.size + length
    if length > _MAX_RECORD or end > limit:
        return "record runs past the end of the segment"
    payload = handle.read(length)
    if len(payload) < length or zlib.crc32(payload) != crc:
        return "checksum mismatch"
    return _parse_payload(seq, offset, end, payload)


def _next_valid(handle: BinaryIO, seq: int, start: int, limit: int) -> int | None:
    """Offset of the next complete, checksummed record in ``[start, limit)``, or ``None``."""
    chunk_size = 1 << 20
    position = start
    while position < limit:
        handle.seek(position)
        chunk = handle.read(min(chunk_size, limit - position))
        if not chunk:
            return None
        found = chunk.find(RECORD_MAGIC)
        if found < 0:
            # Keep the last bytes: a marker may straddle two chunks.
            position += max(len(chunk) - len(RECORD_MAGIC) + 1, 1)
            continue
        candidate = position + found
        if isinstance(_read_record(handle, seq, candidate, limit), SpoolRecord):
            return candidate
        position = candidate + 1
    return None

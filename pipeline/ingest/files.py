"""``recurscope ingest``: files, directories, globs and stdin into the store.

:func:`ingest` expands the paths, detects each source's compression and
format, streams it through its decoder in batches, and writes every batch to
the :class:`~recurscope.pipeline.store.database.Store` together with its quarantined
records and the run's counts. It is idempotent (spans are identified by
(TraceId, SpanId)) and incremental: an unchanged file is skipped by checksum,
and a JSON-lines file that grew is read from its last complete line once the
already-read prefix is verified unchanged. See ``docs/ingest.md``.
"""

from __future__ import annotations

import gc
import glob
import hashlib
import io
import os
import stat
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final, Literal

from ..decode.formats import (
    Decoder,
    Format,
    FormatOptions,
    ReadContext,
    ReaderItem,
    detect_format,
    format_names,
    get_format,
)
from ..decode.sources import (
    GZIP_MAGIC,
    BoundedGzipReader,
    HashingReader,
    SourceDataError,
    buffered,
)
from ..errors import IngestError
from ..records import (
    DEFAULT_LIMITS,
    Checkpoint,
    DecodeLimits,
    PendingRecord,
    Position,
    Reason,
    Rejection,
    SpanRow,
)
from ..store.database import IngestRun, ResumeMark, Store
from ..store.locking import companions
from ..store.rows import PreparedRows, prepare_rows
from .parallel import (
    PARALLEL_AFTER_BYTES,
    DecodedBatch,
    DecoderPool,
    WorkerDied,
    decode_batch,
    default_workers,
)

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "STDIN",
    "IngestReport",
    "SourceReport",
    "expand_paths",
    "ingest",
]

STDIN: Final = "-"
"""The path that means "read standard input"."""

STDIN_SOURCE: Final = "<stdin>"
"""How standard input is named in ``ingest_log`` and ``quarantine``."""

DEFAULT_BATCH_SIZE: Final = 10_000
"""Spans per write: large enough to amortize the anti-join, small enough to bound memory."""

DETAIL_LINES: Final = 20
"""Sources :meth:`IngestReport.details_lines` names before it only counts the rest."""

_HEAD_BYTES: Final = 8192
_HASH_CHUNK: Final = 1 << 20
_GLOB_CHARS: Final = frozenset("*?[")

SourceStatus = Literal["ok", "unchanged", "failed"]


@dataclass(frozen=True, slots=True)
class SourceReport:
    """What happened to one source. ``records_read`` = accepted + quarantined + duplicates."""

    source: str
    status: SourceStatus
    format: str | None = None
    ingest_id: int | None = None
    bytes_read: int = 0
    records_read: int = 0
    spans_accepted: int = 0
    rows_quarantined: int = 0
    duplicates_skipped: int = 0
    resumed_from: int | None = None
    """Byte offset the run started at, when it resumed a grown JSON-lines file."""
    note: str | None = None
    """Why the run failed, or something worth knowing (a changed file re-read in full)."""
    source_size: int | None = None
    """Size of a regular file when opened (``None`` for stdin and pipes)."""
    quarantine_reasons: tuple[tuple[str, int], ...] = ()
    """``(reason, records)`` of the records this run quarantined, the most frequent first."""


@dataclass(frozen=True, slots=True)
class IngestReport:
    """The outcome of one :func:`ingest` call, per source and in total."""

    sources: tuple[SourceReport, ...]
    seconds: float
    db_path: str = ""

    @property
    def records_read(self) -> int:
        return sum(s.records_read for s in self.sources)

    @property
    def spans_accepted(self) -> int:
        return sum(s.spans_accepted for s in self.sources)

    @property
    def rows_quarantined(self) -> int:
        return sum(s.rows_quarantined for s in self.sources)

    @property
    def duplicates_skipped(self) -> int:
        return sum(s.duplicates_skipped for s in self.sources)

    @property
    def failed(self) -> tuple[SourceReport, ...]:
        return tuple(s for s in self.sources if s.status == "failed")

    @property
    def nothing_read(self) -> bool:
        """No source could be read, or every record read was quarantined."""
        if not self.sources or len(self.failed) == len(self.sources):
            return True
        return self.records_read > 0 and self.spans_accepted + self.duplicates_skipped == 0

    @property
    def exit_code(self) -> int:
        """0 when every source was read; 1 when one failed or nothing could be read."""
        return 1 if self.failed or self.nothing_read else 0

    def summary_line(self) -> str:
        """One line for humans: counts, time and rate."""
        rate = self.records_read / self.seconds if self.seconds > 0 else 0.0
        unchanged = sum(1 for s in self.sources if s.status == "unchanged")
        read = len(self.sources) - len(self.failed)
        parts = [
            f"{self.spans_accepted:,} spans accepted",
            f"{self.rows_quarantined:,} quarantined",
            f"{self.duplicates_skipped:,} duplicates skipped",
        ]
        if unchanged:
            parts.append(f"{unchanged} unchanged source{'s' if unchanged != 1 else ''} skipped")
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        target = f" into {self.db_path}" if self.db_path else ""
        return (
            f"ingested {read} source{'s' if read != 1 else ''}{target}: "
            + ", ".join(parts)
            + f" in {self.seconds:.1f} s ({rate:,.0f} records/s)"
        )

    def details_lines(self, *, limit: int = DETAIL_LINES) -> list[str]:
        """Lines naming the sources worth a look, for under :meth:`summary_line`.

        Each source with quarantined records (how many of how many, and the
        most frequent reason), each empty source (0 bytes, or bytes but no
        record), then where to see the quarantined records. Failed sources are
        not repeated: they are reported as errors. At most ``limit`` source
        lines; the rest are counted.
        """
        noted: list[str] = []
        for source in self.sources:
            if source.status != "ok":
                continue
            name = _shown(source.source)
            if source.rows_quarantined:
                why = ""
                if source.quarantine_reasons:
                    top, count = source.quarantine_reasons[0]
                    others = len(source.quarantine_reasons) - 1
                    why = f" (top reason: {top}, {count:,}" + (
                        f"; {others} other reason{'s' if others != 1 else ''})" if others else ")"
                    )
                records = "record" if source.records_read == 1 else "records"
                noted.append(
                    f"  {name}: {source.rows_quarantined:,} of {source.records_read:,} {records} "
                    f"quarantined{why}"
                )
            elif source.records_read == 0 and source.resumed_from is None:
                if source.source_size == 0 or (
                    source.source_size is None and not source.bytes_read
                ):
                    noted.append(f"  {name}: empty (0 bytes), nothing to read")
                else:
                    size = (
                        source.source_size if source.source_size is not None else source.bytes_read
                    )
                    noted.append(f"  {name}: no records in {size:,} bytes")
        lines = noted[:limit]
        if len(noted) > limit:
            lines.append(f"  ... and {len(noted) - limit:,} more sources like these")
        if self.rows_quarantined and self.db_path != ":memory:":
            db = f" --db {self.db_path}" if self.db_path else ""
            lines.append(f"  see the quarantined records: recurscope quarantine{db}")
        return lines

    def raise_on_failure(self) -> None:
        """Raise :class:`IngestError` naming every source that could not be read."""
        if self.failed:
            raise IngestError("; ".join(f"{s.source}: {s.note}" for s in self.failed))


# --------------------------------------------------------------------------
# Paths.


@dataclass(frozen=True, slots=True)
class _Missing:
    spec: str
    message: str


def _is_hidden(path: Path, root: Path) -> bool:
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        parts = path.parts
    return any(part.startswith(".") for part in parts)


def expand_paths(
    specs: Iterable[str], *, exclude: Iterable[Path] = (), exclude_dirs: Iterable[Path] = ()
) -> list[Path | str | _Missing]:
    """Files to read, in order: directories recursively (hidden entries skipped), globs
    expanded, ``-`` kept as stdin; a spec that names nothing becomes a failure entry.
    Files in ``exclude`` or below a folder in ``exclude_dirs`` are skipped."""
    excluded = {_canonical(p) for p in exclude}
    # The store's companions (the receiver's spool, the lock registry) are folders.
    excluded_prefixes = tuple(_canonical(d) + os.sep for d in exclude_dirs)
    result: list[Path | str | _Missing] = []
    seen: set[str] = set()

    def add(path: Path) -> None:
        key = _canonical(path)
        if key in excluded or key in seen or key.startswith(excluded_prefixes):
            return
        seen.add(key)
        result.append(path)

    for spec in specs:
        if spec == STDIN:
            result.append(STDIN)
            continue
        path = Path(spec)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and not _is_hidden(p, path))
            if not files:
                result.append(
                    _Missing(spec, "no files in this directory (hidden ones are skipped)")
                )
            for file in files:
                add(file)
        elif path.exists():
            add(path)
        elif _GLOB_CHARS & set(spec):
            matches = sorted(glob.glob(spec, recursive=True))
            before = len(result)
            for match in matches:
                match_path = Path(match)
                if match_path.is_dir():
                    for file in sorted(match_path.rglob("*")):
                        if file.is_file() and not _is_hidden(file, match_path):
                            add(file)
                elif match_path.is_file():
                    add(match_path)
            if len(result) == before:
                result.append(_Missing(spec, "no file matches this pattern"))
        else:
            where = "" if path.is_absolute() else f" (relative to {Path.cwd()})"
            result.append(_Missing(spec, f"no such file or directory{where}; check the path"))
    return result


def _canonical(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path.absolute())


# --------------------------------------------------------------------------
# One source.


class _Progress:
    """A rich progress bar on stderr, or nothing."""

    def __init__(self, enabled: bool) -> None:
        self._progress = None
        if enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}", justify="left"),
                BarColumn(),
                DownloadColumn(),
                TransferSpeedColumn(),
                TextColumn("{task.fields[spans]:>12,} spans"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )

    def __enter__(self) -> _Progress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def add(self, name: str, total: int | None) -> int | None:
        if self._progress is None:
            return None
        label = name if len(name) <= 40 else "…" + name[-39:]
        return int(self._progress.add_task(label, total=total, spans=0))

    def update(self, task: int | None, completed: int, spans: int) -> None:
        if self._progress is not None and task is not None:
            from rich.progress import TaskID

            self._progress.update(TaskID(task), completed=completed, spans=spans)


def _file_sha256(handle: BinaryIO) -> str:
    digest = hashlib.sha256()
    while chunk := handle.read(_HASH_CHUNK):
        digest.update(chunk)
    return digest.hexdigest()


@dataclass(slots=True)
class _Batch:
    rows: list[SpanRow] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    pending: list[PendingRecord] = field(default_factory=list)
    pending_bytes: int = 0

    def size(self, spans_per_byte: float) -> float:
        """Records in the batch, deferred ones estimated (each at least one)."""
        deferred = max(len(self.pending), self.pending_bytes * spans_per_byte)
        return len(self.rows) + len(self.rejections) + deferred

    def empty(self) -> bool:
        return not (self.rows or self.rejections or self.pending)


@dataclass(slots=True)
class _Decoding:
    """Where deferred records are decoded: here, or in a pool once the input is big.

    Shared by the sources of one :func:`ingest` call, so the pool starts at
    most once and the rate of spans per byte carries over.
    """

    pool: DecoderPool | None
    after_bytes: int
    deferred_bytes: int = 0
    decoded_records: int = 0
    decoded_bytes: int = 0
    broken: bool = False

    @property
    def spans_per_byte(self) -> float:
        """Records per byte of the deferred records decoded so far (the pump decodes
        the first one at once, so batches of deferred records are sized by it)."""
        return self.decoded_records / self.decoded_bytes if self.decoded_bytes else 0.0

    def learn(self, records: int, data_bytes: int) -> None:
        self.decoded_records += records
        self.decoded_bytes += data_bytes

    def use_pool(self) -> bool:
        return self.pool is not None and not self.broken and self.deferred_bytes >= self.after_bytes


@dataclass(slots=True)
class _InFlight:
    """A batch being decoded by a worker, with what its commit needs."""

    future: Future[DecodedBatch]
    decode: Decoder
    pending: list[PendingRecord]
    pending_bytes: int
    rejections: list[Rejection]
    mark: ResumeMark | None
    bytes_read: int


class _SourceReader:
    """Reads one opened source into one ingest run."""

    def __init__(
        self,
        store: Store,
        *,
        forced: Format | None,
        limits: DecodeLimits,
        batch_size: int,
        progress: _Progress,
        after_write: Callable[[], None] | None = None,
        options: FormatOptions | None = None,
        decoding: _Decoding | None = None,
    ) -> None:
        self.store = store
        self.options = options or FormatOptions()
        self.decoding = decoding or _Decoding(pool=None, after_bytes=PARALLEL_AFTER_BYTES)
        self.forced = forced
        self.limits = limits
        self.batch_size = batch_size
        self.progress = progress
        self.after_write = after_write

    def read_file(self, path: Path) -> SourceReport:
        key = _canonical(path)
        try:
            handle: BinaryIO = open(path, "rb", buffering=0)  # noqa: SIM115 - closed below
        except OSError as error:
            return SourceReport(key, "failed", note=f"cannot open: {error.strerror or error}")
        with handle:
            try:
                info = os.fstat(handle.fileno())
            except OSError as error:
                return SourceReport(key, "failed", note=f"cannot stat: {error.strerror}")
            if stat.S_ISDIR(info.st_mode):
                return SourceReport(key, "failed", note="is a directory")
            regular = stat.S_ISREG(info.st_mode)
            size = info.st_size if regular else None
            try:
                return self._read(handle, key, size=size, regular=regular, name=path.name)
            except OSError as error:
                return SourceReport(key, "failed", note=f"read error: {error.strerror or error}")

    def read_stream(self, handle: BinaryIO, name: str) -> SourceReport:
        try:
            return self._read(handle, name, size=None, regular=False, name=name)
        except OSError as error:
            return SourceReport(name, "failed", note=f"read error: {error.strerror or error}")

    def _read(
        self, handle: BinaryIO, key: str, *, size: int | None, regular: bool, name: str
    ) -> SourceReport:
        logged = self.store.logged_source(key) if regular else None

        # An unchanged file (same size and checksum as its last completed run)
        # adds nothing: skip it without parsing.
        if regular and logged is not None and logged.size == size and logged.checksum:
            digest = _file_sha256(handle)
            if digest == logged.checksum:
                fmt_name = logged.format or (self.forced.name if self.forced else "unknown")
                run = self.store.begin_ingest(key, fmt_name, source_size=size)
                run.finish("unchanged", checksum=digest, bytes_read=0)
                return SourceReport(
                    key, "unchanged", format=fmt_name, ingest_id=run.ingest_id, source_size=size
                )
            handle.seek(0)

        raw = HashingReader(handle)
        stream = buffered(raw)
        gzipped = stream.peek(2)[:2] == GZIP_MAGIC
        start_offset = start_line = 0
        prefix_hash = hashlib.sha256()
        note: str | None = None
        resume_format: Format | None = None

        resume = logged.resume if logged is not None else None
        if regular and not gzipped and resume is not None and size is not None:
            candidate = self.forced or _format_or_none(logged.resume_format if logged else None)
            if candidate is not None and candidate.resumable and resume.offset > size:
                note = (
                    f"the file is smaller than the {resume.offset} bytes already read (rewritten "
                    "or rotated); re-read from the start (stored spans are skipped as duplicates)"
                )
            elif candidate is not None and candidate.resumable:
                verified = _verify_prefix(stream, resume)
                if verified is not None:
                    prefix_hash = verified
                    start_offset, start_line = resume.offset, resume.line
                    resume_format = candidate
                else:
                    handle.seek(0)
                    raw = HashingReader(handle)
                    stream = buffered(raw)
                    note = (
                        f"the first {resume.offset} bytes changed since the last ingest; "
                        "re-read from the start (stored spans are skipped as duplicates)"
                    )

        source_stream: io.BufferedReader = stream
        if gzipped:
            source_stream = buffered(BoundedGzipReader(stream, raw, self.limits))

        head_rejection: Rejection | None = None
        fmt = resume_format or self.forced
        if fmt is None:
            try:
                head = source_stream.peek(_HEAD_BYTES)[:_HEAD_BYTES]
            except SourceDataError as error:
                head = b""
                head_rejection = Rejection(error.reason, error.detail, b"", Position(byte_offset=0))
            if head_rejection is None:
                fmt = detect_format(head, name)
                if fmt is None:
                    head_rejection = Rejection(
                        Reason.UNRECOGNIZED_FORMAT,
                        "neither OTLP JSON nor OTLP protobuf; name the format with --format "
                        f"({', '.join(format_names())}) if it is one of them",
                        head[: self.limits.excerpt_bytes],
                        Position(byte_offset=0),
                    )

        resumable = regular and not gzipped and fmt is not None and fmt.resumable
        run = self.store.begin_ingest(key, fmt.name if fmt else "unknown", source_size=size)
        if note:
            run.set_detail(note)
        task = self.progress.add(key if regular else name, size)
        items: Iterator[ReaderItem]
        if head_rejection is not None:
            items = iter((head_rejection,))
        else:
            assert fmt is not None
            context = ReadContext(
                source=key,
                limits=self.limits,
                resumable=resumable,
                start_offset=start_offset,
                start_line=start_line,
                prefix_hash=prefix_hash if resumable else None,
                options=self.options,
                defer=fmt.decode is not None,
            )
            items = fmt.read(source_stream, context)
        reasons: Counter[str] = Counter()
        try:
            self._pump(items, run, raw, task, start_offset, fmt.decode if fmt else None, reasons)
            if regular:
                raw.drain()  # so the checksum covers the whole file, even after a bad tail
        except BaseException as error:
            summary = run.finish(
                "failed",
                bytes_read=raw.count - start_offset,
                detail=f"{type(error).__name__}: {error}"[:500],
            )
            if isinstance(error, OSError):
                return SourceReport(
                    key,
                    "failed",
                    format=run.format,
                    ingest_id=run.ingest_id,
                    bytes_read=summary.bytes_read,
                    records_read=summary.records_read,
                    spans_accepted=summary.spans_accepted,
                    rows_quarantined=summary.rows_quarantined,
                    duplicates_skipped=summary.duplicates_skipped,
                    note=f"read error: {error.strerror or error}",
                    source_size=size,
                    quarantine_reasons=_most_first(reasons),
                )
            raise
        summary = run.finish(
            "ok", checksum=raw.hasher.hexdigest(), bytes_read=raw.count - start_offset
        )
        self.progress.update(task, raw.count, summary.spans_accepted)
        return SourceReport(
            key,
            "ok",
            format=run.format,
            ingest_id=run.ingest_id,
            bytes_read=summary.bytes_read,
            records_read=summary.records_read,
            spans_accepted=summary.spans_accepted,
            rows_quarantined=summary.rows_quarantined,
            duplicates_skipped=summary.duplicates_skipped,
            resumed_from=start_offset or None,
            note=note,
            source_size=size,
            quarantine_reasons=_most_first(reasons),
        )

    def _pump(
        self,
        items: Iterator[ReaderItem],
        run: IngestRun,
        raw: HashingReader,
        task: int | None,
        start_offset: int,
        decode: Decoder | None,
        reasons: Counter[str],
    ) -> None:
        """Batch the reader's items and commit each batch, in order, with its resume point.

        ``reasons`` counts the quarantined records of every committed batch by reason.

        Deferred records are decoded when their batch is cut: here, or (for
        big inputs) by a worker while this loop reads on; batches a worker
        holds are committed in the order they were cut, before any later one.
        """
        batch = _Batch()
        mark: ResumeMark | None = None
        flushed_mark: ResumeMark | None = None
        size = self.batch_size
        decoding = self.decoding
        in_flight: deque[_InFlight] = deque()

        def commit(
            prepared: PreparedRows,
            rejections: list[Rejection],
            records: int,
            bytes_read: int,
            resume: ResumeMark | None,
        ) -> None:
            run.write_prepared(
                prepared,
                rejections,
                records_read=records,
                bytes_read=bytes_read,
                resume=resume,
                limits=self.limits,
            )
            reasons.update(str(r.reason) for r in rejections)
            reasons.update(str(r.reason) for r in prepared.problems)
            self.progress.update(task, raw.count, run.accepted)
            if self.after_write is not None:
                self.after_write()  # e.g. publish a snapshot for readers (rate-limited)

        def settle_oldest() -> None:
            job = in_flight.popleft()
            try:
                decoded = job.future.result()
            except WorkerDied:
                # A worker died (say, the OOM killer): decode here from now on.
                decoding.broken = True
                decoded = decode_batch(job.decode, job.pending, self.limits)
            decoding.learn(decoded.records, job.pending_bytes)
            commit(
                decoded.prepared,
                [*job.rejections, *decoded.rejections],
                decoded.records + len(job.rejections),
                job.bytes_read,
                job.mark,
            )

        def flush() -> None:
            nonlocal batch, flushed_mark
            current, batch = batch, _Batch()
            flushed_mark = mark
            bytes_read = raw.count - start_offset
            if current.pending and not current.rows and decode is not None:
                pool = decoding.pool if decoding.use_pool() else None
                future: Future[DecodedBatch] | None = None
                if pool is not None:
                    try:
                        future = pool.submit(decode, current.pending, self.limits)
                    except OSError:
                        decoding.broken = True  # no process could start: decode here
                if pool is not None and future is not None:
                    in_flight.append(
                        _InFlight(
                            future,
                            decode,
                            current.pending,
                            current.pending_bytes,
                            current.rejections,
                            mark,
                            bytes_read,
                        )
                    )
                    while len(in_flight) > pool.max_in_flight:
                        settle_oldest()
                    return
            while in_flight:
                settle_oldest()  # earlier batches first: commits stay in file order
            rows, rejections = current.rows, current.rejections
            if current.pending:
                assert decode is not None
                more_rows, more_rejections = decode(current.pending, self.limits)
                decoding.learn(len(more_rows) + len(more_rejections), current.pending_bytes)
                rows = rows + more_rows
                rejections = rejections + more_rejections
            commit(prepare_rows(rows), rejections, len(rows) + len(rejections), bytes_read, mark)

        try:
            for item in items:
                if isinstance(item, Checkpoint):
                    # Read the live hash now: the decoder keeps feeding it.
                    mark = ResumeMark(item.offset, item.line, item.prefix_hash.hexdigest())
                    if batch.size(decoding.spans_per_byte) >= size:
                        flush()
                    continue
                if isinstance(item, PendingRecord):
                    decoding.deferred_bytes += len(item.data)
                    if decode is not None and not decoding.decoded_bytes:
                        # The first one is decoded at once: its spans per byte
                        # size the batches of deferred records from here on.
                        rows, rejections = decode([item], self.limits)
                        decoding.learn(len(rows) + len(rejections), len(item.data))
                        batch.rows.extend(rows)
                        batch.rejections.extend(rejections)
                    else:
                        batch.pending.append(item)
                        batch.pending_bytes += len(item.data)
                elif isinstance(item, SpanRow):
                    batch.rows.append(item)
                else:
                    batch.rejections.append(item)
                if mark is None and batch.size(decoding.spans_per_byte) >= size:
                    flush()
            if not batch.empty() or mark != flushed_mark:
                flush()
            while in_flight:
                settle_oldest()
        finally:
            for job in in_flight:
                job.future.cancel()  # not committed: their lines are re-read on the next run


def _most_first(reasons: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(reasons.items(), key=lambda item: (-item[1], item[0])))


def _shown(source: str) -> str:
    """A source as a person would type it: relative to the current directory when below it."""
    if not os.path.isabs(source):
        return source
    try:
        relative = os.path.relpath(source)
    except ValueError:
        return source
    return source if relative.startswith(os.pardir) else relative


def _format_or_none(name: str | None) -> Format | None:
    if name is None:
        return None
    try:
        return get_format(name)
    except IngestError:
        return None


def _verify_prefix(stream: io.BufferedReader, resume: ResumeMark) -> hashlib._Hash | None:
    """Hash the first ``resume.offset`` bytes; the running hash if they still match."""
    digest = hashlib.sha256()
    remaining = resume.offset
    while remaining:
        chunk = stream.read(min(remaining, _HASH_CHUNK))
        if not chunk:
            return None
        digest.update(chunk)
        remaining -= len(chunk)
    return digest if digest.hexdigest() == resume.checksum else None


# --------------------------------------------------------------------------
# The entry point.


def ingest(
    paths: Sequence[str | os.PathLike[str]],
    store: Store,
    *,
    format: str = "auto",
    limits: DecodeLimits = DEFAULT_LIMITS,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: bool | None = None,
    stdin: BinaryIO | None = None,
    after_write: Callable[[], None] | None = None,
    options: FormatOptions | None = None,
    workers: int | None = None,
    parallel_after: int = PARALLEL_AFTER_BYTES,
) -> IngestReport:
    """Ingest files, directories (recursively), globs and ``-`` (stdin) into ``store``.

    ``format`` is ``"auto"`` or a registered name (:func:`format_names`);
    gzip is detected either way. ``progress`` shows a bar on stderr: ``None``
    means only when stderr is a terminal. ``after_write`` is called after
    every committed batch (``recurscope ingest`` publishes snapshots for
    readers from it). ``options`` (``--session``, ``--capture-content``) reach
    the formats that convert native logs. ``workers`` decoder processes take
    over JSON lines once the call has read ``parallel_after`` bytes of them
    (``None``: one per core but one; ``0``: decode in this process only).
    Per-source problems are reported in the result, never raised; only an
    unknown ``format``, a bad ``batch_size`` or ``workers`` raise
    :class:`IngestError`. The paths are expanded before ``store`` is used:
    when none of them names something to read, the store is not touched at
    all (one from ``open_for_writing`` that did not exist is never created).
    """
    if isinstance(paths, str | os.PathLike):
        paths = [paths]  # a lone path, not a sequence of one-character paths
    forced = None if format == "auto" else get_format(format)
    if batch_size < 1:
        raise IngestError(f"batch_size must be at least 1, got {batch_size}")
    if workers is None:
        workers = default_workers()
    if workers < 0:
        raise IngestError(f"workers must be 0 or more, got {workers}")
    show = sys.stderr.isatty() if progress is None else progress
    started = time.perf_counter()
    own = companions(store.path)
    entries = expand_paths(
        [os.fspath(p) for p in paths], exclude=own.files, exclude_dirs=own.directories
    )
    reports: list[SourceReport] = []
    missing = [entry for entry in entries if isinstance(entry, _Missing)]
    if len(missing) == len(entries):
        # Nothing to read: leave the store alone (one opened by open_for_writing
        # that did not exist yet is then never created).
        reports = [SourceReport(m.spec, "failed", note=m.message) for m in missing]
        return IngestReport(tuple(reports), time.perf_counter() - started, str(store.path))
    pool = DecoderPool(workers) if workers else None
    # The store first: opening a new one may wait for another writer (and say so on
    # stderr) before a progress bar is drawn there.
    with store.bulk_writes(), _Progress(show) as bar, _collector_tuned(), _closing(pool):
        reader = _SourceReader(
            store,
            forced=forced,
            limits=limits,
            batch_size=batch_size,
            progress=bar,
            after_write=after_write,
            options=options,
            decoding=_Decoding(pool=pool, after_bytes=parallel_after),
        )
        for entry in entries:
            if isinstance(entry, _Missing):
                reports.append(SourceReport(entry.spec, "failed", note=entry.message))
            elif entry == STDIN:
                handle = stdin if stdin is not None else sys.stdin.buffer
                reports.append(reader.read_stream(handle, STDIN_SOURCE))
            else:
                assert isinstance(entry, Path)
                reports.append(reader.read_file(entry))
    return IngestReport(tuple(reports), time.perf_counter() - started, str(store.path))


@contextmanager
def _collector_tuned() -> Iterator[None]:
    """Fewer garbage collections while decoding: every span allocates a few dozen
    short-lived containers, and each full collection also walks every object
    the process held before the ingest (frozen here, unfrozen after). Worth
    about a tenth of a large ingest's time; the settings are restored."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(thresholds[0], 50_000), max(thresholds[1], 20), max(thresholds[2], 100))
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@contextmanager
def _closing(pool: DecoderPool | None) -> Iterator[None]:
    if pool is None:
        yield
        return
    with pool:
        yield


# --------------------------------------------------------------------------
# The command line.

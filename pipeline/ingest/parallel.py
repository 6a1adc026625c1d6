"""Decoding deferred records in worker processes while the main process writes.

Turning OTLP JSON lines into checked rows and Arrow columns is most of a
large ingest's time, and it needs no database. A reader that frames records
cheaply yields them undecoded (:class:`~recurscope.pipeline.records.PendingRecord`);
``ingest`` sends each batch of them to a :class:`DecoderPool` and, while the
workers decode, keeps reading ahead (framing, checksums, resume points) and
commits the batches that are done, strictly in file order. Each commit still
carries its batch's resume point, so a crash at any moment leaves exactly
what a run without workers would (see ``docs/ingest.md``, "Parallel decoding").

A worker is a fresh interpreter running :func:`worker_main`
(the parent holds DuckDB's threads, which must not be forked, and
``multiprocessing``'s spawn would re-run the caller's ``__main__``) that
reads length-prefixed pickled batches on stdin and writes results on stdout.
It dies with its parent. Small inputs never start workers: starting one
costs about a second (it imports the decoders and pyarrow).
"""

from __future__ import annotations

import ctypes
import gc
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass
from typing import IO, Any, Final

from ..decode.formats import Decoder
from ..records import DecodeLimits, PendingRecord, Rejection
from ..store.rows import PreparedRows, prepare_rows

__all__ = [
    "PARALLEL_AFTER_BYTES",
    "DecodedBatch",
    "DecoderPool",
    "WorkerDied",
    "decode_batch",
    "default_workers",
]

PARALLEL_AFTER_BYTES: Final = 48 * 1024**2
"""Deferred bytes an ingest decodes in-process before it starts workers."""

_PR_SET_PDEATHSIG: Final = 1
# Not ``-m``: the worker must use this module under its own name, so the
# classes it pickles are the ones the parent knows.
_WORKER_COMMAND: Final = "import sys; from recurscope.pipeline.ingest.parallel import worker_main; sys.exit(worker_main())"
_FRAME: Final = struct.Struct("<Q")


class WorkerDied(RuntimeError):
    """A decoder process exited before returning a batch (killed, or out of memory)."""


@dataclass(frozen=True, slots=True)
class DecodedBatch:
    """One batch of deferred records, decoded and made ready to insert."""

    prepared: PreparedRows
    rejections: list[Rejection]
    records: int
    """Records the batch held once decoded: rows + rejections (before checks)."""


def decode_batch(
    decode: Decoder, records: Sequence[PendingRecord], limits: DecodeLimits
) -> DecodedBatch:
    """Decode ``records`` with the format's ``decode`` and prepare the rows (no database)."""
    rows, rejections = decode(records, limits)
    return DecodedBatch(prepare_rows(rows), rejections, len(rows) + len(rejections))


def default_workers() -> int:
    """Decoder processes for this machine: one per core but one (for the writer), at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


# --------------------------------------------------------------------------
# Frames: an 8-byte little-endian length, then a pickle.


def _write_frame(stream: IO[bytes], payload: object) -> None:
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_FRAME.pack(len(data)))
    stream.write(data)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    parts: list[bytes] = []
    remaining = size
    while remaining:
        chunk = stream.read(remaining)
        if not chunk:
            return None
        parts.append(chunk)
        remaining -= len(chunk)
    return b"".join(parts)


def _read_frame(stream: IO[bytes]) -> Any:
    """The next pickled object, or raise EOFError when the stream ends."""
    header = _read_exactly(stream, _FRAME.size)
    if header is None:
        raise EOFError
    data = _read_exactly(stream, _FRAME.unpack(header)[0])
    if data is None:
        raise EOFError
    return pickle.loads(data)


# --------------------------------------------------------------------------
# The worker process.


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # best effort: a worker of a killed parent then exits at its next read


def worker_main() -> int:
    """Decode batches from stdin until it closes; one result frame per batch, in order."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides, and closes our stdin
    # Decoding allocates millions of short-lived containers; full collections
    # walking the imported modules' objects every time are pure overhead.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            decode, records, limits = _read_frame(stdin)
        except EOFError:
            return 0
        try:
            result: tuple[str, object] = ("ok", decode_batch(decode, records, limits))
        except Exception as error:
            result = ("error", error)
        try:
            _write_frame(stdout, result)
        except BrokenPipeError:
            return 0


# --------------------------------------------------------------------------
# The parent's side.


def _settle(
    future: Future[DecodedBatch], result: Any, error: BaseException | None, status: str
) -> None:
    """Complete ``future`` unless its caller cancelled it meanwhile."""
    try:
        if status == "ok":
            future.set_result(result)
        else:
            future.set_exception(error or RuntimeError(f"decoder failed: {result!r}"))
    except InvalidStateError:
        pass  # cancelled: nobody waits for it


class _Worker:
    """One decoder process, with a thread feeding it batches and one collecting results."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_COMMAND],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._tasks: queue.SimpleQueue[tuple[object, ...] | None] = queue.SimpleQueue()
        self._waiting: deque[Future[DecodedBatch]] = deque()
        self._lock = threading.Lock()
        self._feeder = threading.Thread(target=self._feed, name="recurscope-decoder-feed")
        self._collector = threading.Thread(target=self._collect, name="recurscope-decoder-collect")
        self._feeder.daemon = self._collector.daemon = True
        self._feeder.start()
        self._collector.start()

    def submit(self, task: tuple[object, ...]) -> Future[DecodedBatch]:
        future: Future[DecodedBatch] = Future()
        with self._lock:
            if self.process.poll() is not None and not self._waiting:
                future.set_exception(WorkerDied("the decoder process has exited"))
                return future
            self._waiting.append(future)
        self._tasks.put(task)
        return future

    def _feed(self) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            while (task := self._tasks.get()) is not None:
                _write_frame(stdin, task)
        except (BrokenPipeError, OSError, ValueError):
            pass  # the worker is gone: the collector fails what it still owed
        finally:
            try:
                stdin.close()
            except OSError:
                pass

    def _collect(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            try:
                status, payload = _read_frame(stdout)
            except (EOFError, OSError, ValueError, pickle.UnpicklingError):
                break
            with self._lock:
                future = self._waiting.popleft() if self._waiting else None
            if future is None:
                continue
            error = payload if isinstance(payload, BaseException) else None
            _settle(future, payload if status == "ok" else None, error, status)
        code = self.process.wait()
        with self._lock:
            owed, self._waiting = list(self._waiting), deque()
        died = WorkerDied(f"the decoder process exited (status {code}) before its batch")
        for future in owed:
            _settle(future, None, died, "error")

    def close(self, *, kill: bool) -> None:
        if kill:
            self.process.kill()
        self._tasks.put(None)
        self._feeder.join(timeout=30)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._collector.join(timeout=30)
        if self.process.stdout is not None:
            self.process.stdout.close()


class DecoderPool:
    """Worker processes that run :func:`decode_batch`; started on first use.

    Batches go to the workers in turn, and the caller keeps at most
    :attr:`max_in_flight` submitted (their memory is the bound).
    """

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        self._started: list[_Worker] = []
        self._next = 0

    @property
    def max_in_flight(self) -> int:
        """Batches to keep submitted: two per worker, so none waits for the parent."""
        return 2 * self.workers

    def submit(
        self, decode: Decoder, records: Sequence[PendingRecord], limits: DecodeLimits
    ) -> Future[DecodedBatch]:
        if not self._started:
            try:
                while len(self._started) < self.workers:
                    self._started.append(_Worker())
            except OSError:
                self.close(cancel=True)
                raise
        worker = self._started[self._next % len(self._started)]
        self._next += 1
        return worker.submit((decode, list(records), limits))

    def close(self, *, cancel: bool = False) -> None:
        """Stop the workers: after their batches, or at once if ``cancel``."""
        for worker in self._started:
            worker.close(kill=cancel)
        self._started = []

    def __enter__(self) -> DecoderPool:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.close(cancel=exc is not None)

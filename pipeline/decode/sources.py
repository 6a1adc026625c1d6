"""Byte streams under the decoders: hashing, bounded gunzip, chaining.

Every source is read through a :class:`HashingReader` (so ``ingest_log`` gets
a byte count and a checksum of what was read) and, when it starts with the
gzip magic, through a :class:`BoundedGzipReader` that turns truncation,
corruption and decompression bombs into :class:`SourceDataError`. Decoders
catch that error and quarantine the rest of the stream with its reason.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import zlib
from typing import BinaryIO, Final

from ..records import DecodeLimits, Reason

__all__ = [
    "GZIP_MAGIC",
    "BoundedGzipReader",
    "ChainedReader",
    "HashingReader",
    "SourceDataError",
    "buffered",
]

GZIP_MAGIC: Final = b"\x1f\x8b"
_BUFFER_SIZE: Final = 1 << 16


class SourceDataError(Exception):
    """The byte stream itself is bad (truncated/corrupt gzip, a bomb); not fatal.

    Decoders turn it into a quarantine record for the rest of the stream.
    """

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class HashingReader(io.RawIOBase):
    """Reads ``inner`` while counting and sha256-hashing every byte that passes."""

    def __init__(self, inner: BinaryIO) -> None:
        super().__init__()
        self._inner = inner
        self.hasher = hashlib.sha256()
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        data = self._inner.read(len(buffer))
        size = len(data)
        buffer[:size] = data
        self.hasher.update(data)
        self.count += size
        return size

    def drain(self) -> None:
        """Read to the end so the checksum covers the whole source."""
        while self.read(_BUFFER_SIZE):
            pass


class BoundedGzipReader(io.RawIOBase):
    """Gunzips a stream (multi-member allowed) within the caps of ``limits``."""

    def __init__(self, compressed: BinaryIO, raw: HashingReader, limits: DecodeLimits) -> None:
        """``compressed`` is read; ``raw`` (beneath it) counts compressed bytes for the ratio."""
        super().__init__()
        self._raw = raw
        self._limits = limits
        # GzipFile decompresses at most what each read asks for, so memory
        # stays bounded however large the output would grow.
        self._gzip = gzip.GzipFile(fileobj=compressed, mode="rb")
        self.produced = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        try:
            size = self._gzip.readinto(buffer)
        except EOFError:
            raise SourceDataError(
                Reason.TRUNCATED_GZIP,
                f"gzip data ends before its end-of-stream marker (after {self.produced} "
                "decompressed bytes): the file was cut off",
            ) from None
        except (gzip.BadGzipFile, zlib.error, OSError) as error:
            raise SourceDataError(
                Reason.CORRUPT_GZIP,
                f"gzip data is corrupt after {self.produced} decompressed bytes: {error}",
            ) from None
        self.produced += size
        limits = self._limits
        consumed = max(self._raw.count, 1)
        if self.produced > limits.max_decompressed_bytes or (
            self.produced > limits.ratio_grace_bytes
            and self.produced > limits.max_compression_ratio * consumed
        ):
            raise SourceDataError(
                Reason.DECOMPRESSION_LIMIT,
                f"decompressed output passed {self.produced} bytes from {self._raw.count} "
                f"compressed (caps: {limits.max_decompressed_bytes} bytes, ratio "
                f"{limits.max_compression_ratio:g}); a gzip bomb or a huge file: raise "
                "--max-decompressed-bytes / --max-compression-ratio if it is genuine",
            )
        return size


class ChainedReader(io.RawIOBase):
    """Serves ``head`` first, then the rest of ``tail``: un-reads what a decoder peeked."""

    def __init__(self, head: bytes, tail: BinaryIO) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._tail = tail

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        data = self._tail.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def buffered(raw: io.RawIOBase) -> io.BufferedReader:
    """A buffered reader (``readline``/``peek``) over one of the raw readers here."""
    return io.BufferedReader(raw, _BUFFER_SIZE)

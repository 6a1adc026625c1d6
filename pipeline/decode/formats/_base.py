"""What a format is: a reader, a sniffer, and whether it can resume."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ...records import Checkpoint, DecodeLimits, PendingRecord, Rejection, SpanRow

__all__ = [
    "Decoder",
    "Format",
    "FormatOptions",
    "ReadContext",
    "Reader",
    "ReaderItem",
    "Sniffer",
]

ReaderItem = SpanRow | Rejection | Checkpoint | PendingRecord


@dataclass(frozen=True, slots=True)
class FormatOptions:
    """What the user asked of formats that convert native logs (``ingest`` flags).

    ``session`` (``--session``) replaces the session a native format would
    derive (``gen_ai.conversation.id``); ``capture_content`` (``--capture-content``)
    keeps arguments, code and prompts that are dropped by default. OTLP formats
    carry what their sender recorded and ignore both.
    """

    session: str | None = None
    capture_content: bool = False


@dataclass(frozen=True, slots=True)
class ReadContext:
    """How a reader should read one source.

    ``resumable`` is true only for plain regular files (not gzip, not stdin):
    then the reader yields a :class:`Checkpoint` after each complete record,
    continuing ``prefix_hash`` (the sha256 of bytes ``[0, start_offset)``).
    ``start_offset``/``start_line`` say where the stream is positioned.
    ``options`` are the user's conversion options (see :class:`FormatOptions`).
    ``defer`` asks a format that has a ``decode`` to yield each record as a
    :class:`PendingRecord` instead of decoding it (framing, checkpoints and
    framing-level rejections stay in the reader).
    """

    source: str
    limits: DecodeLimits
    resumable: bool = False
    start_offset: int = 0
    start_line: int = 0
    prefix_hash: hashlib._Hash | None = None
    options: FormatOptions = FormatOptions()
    defer: bool = False


Reader = Callable[[io.BufferedReader, ReadContext], Iterator[ReaderItem]]
"""Reads a (decompressed) stream; yields rows, rejections and checkpoints; never raises.

Each :class:`SpanRow` or :class:`Rejection` is one *record*; the ingest
counts reconcile as records = accepted + quarantined + duplicates.
"""

Decoder = Callable[[Sequence[PendingRecord], DecodeLimits], tuple[list[SpanRow], list[Rejection]]]
"""Deferred records -> (rows, rejections), exactly what the reader would have yielded
for them inline. A module-level function, so worker processes can run it."""

Sniffer = Callable[[bytes, str], int]
"""(first bytes of the decompressed stream, source name) -> confidence.

0: not this format; 1: plausible (e.g. only the file extension fits); 2: the
content says so. Auto-detection takes the highest score, earliest registered
on ties.
"""


@dataclass(frozen=True, slots=True)
class Format:
    """One input format: its name (``--format NAME``), reader and sniffer."""

    name: str
    summary: str
    read: Reader
    sniff: Sniffer
    resumable: bool = False
    decode: Decoder | None = None
    """Set when the reader can defer records (``ReadContext.defer``) to this function."""

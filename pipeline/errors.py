"""The errors the pipeline raises, all in one place.

Bad *content* never raises: it goes to the ``quarantine`` table with a reason.
These classes are for problems a caller has to act on, and every message says
what to do.
"""

from __future__ import annotations

__all__ = [
    "IngestError",
    "PipelineError",
    "PreregistrationError",
    "SchemaVersionError",
    "SpoolError",
    "SpoolFullError",
    "SpoolLockedError",
    "StoreError",
    "StoreLockedError",
    "StoreUnavailableError",
    "UnknownSessionError",
]


class PipelineError(Exception):
    """Base class of every error ``recurscope.pipeline`` raises on purpose."""


class IngestError(PipelineError):
    """A source could not be read at all (missing, unreadable, unknown ``--format``).

    Decoders and :func:`recurscope.pipeline.ingest.files.ingest` raise nothing else:
    malformed content is quarantined, not raised.
    """


class StoreError(PipelineError):
    """The DuckDB store could not be opened or written."""


class StoreLockedError(StoreError):
    """Another process holds the DuckDB file; the message names it and what to do.

    ``holder_pid`` is the process DuckDB reported (``None`` when it did not say),
    ``holder_kind`` a short description such as ``"recurscope ingest"`` and
    ``holder_mode`` ``"read-write"``, ``"read-only"`` or ``"unknown"``.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str,
        holder_pid: int | None,
        holder_kind: str,
        holder_mode: str,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.holder_pid = holder_pid
        self.holder_kind = holder_kind
        self.holder_mode = holder_mode


class SchemaVersionError(StoreError):
    """The file's schema is newer than this code, or older and opened read-only."""


class PreregistrationError(PipelineError):
    """The pre-registration file is missing or malformed; the message says what to fix."""


class SpoolError(PipelineError):
    """The spool directory cannot be used (unwritable, corrupt beyond repair)."""


class SpoolLockedError(SpoolError):
    """Another receiver uses this spool directory; the message names it."""


class SpoolFullError(SpoolError):
    """The disk refused the write (full or quota): the request was not spooled."""


class StoreUnavailableError(StoreError):
    """Neither the live store nor a snapshot can be read right now; the message says why."""


class UnknownSessionError(StoreError):
    """``prune --session ID`` found nothing of that session; the message lists known ones."""

    def __init__(self, message: str, *, session: str, known: tuple[str, ...]) -> None:
        super().__init__(message)
        self.session = session
        self.known = known

"""What a writer does with the evidence when its spans change: :class:`EvidenceUpkeep`.

The store's writer session (``store/locking.py``) knows when spans changed
and when readers are about to see the file (a snapshot, letting go), but not
what the evidence is: the command that opens the session hands it an upkeep
to call then. That keeps the layers pointing one way — the command composes
ingest, store and evidence; the store never imports the layers above it.

:class:`EvidenceUpkeep` refreshes the evidence tables incrementally and keeps
the headline verdict's intervals (``verdict/headline.py``), rate-limited: the
bootstrap costs about a second per 20,000 sessions, so a writer that
refreshes often (the receiver) keeps them at most every ``interval`` seconds
and under ``overhead`` of its time; readers compute them when the kept ones
are behind.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from ..evidence.models import refresh
from .headline import store_headline_intervals

if TYPE_CHECKING:
    import duckdb

__all__ = ["EvidenceUpkeep"]

_log = logging.getLogger(__name__)


class EvidenceUpkeep:
    """Refresh the evidence, then keep the headline intervals (rate-limited); a callable.

    A failing refresh raises (the session logs it and tries again next time:
    the spans are committed either way); a failing headline is logged here,
    since readers compute it themselves when it is missing.
    """

    def __init__(self, *, interval: float = 5.0, overhead: float = 0.10) -> None:
        self.interval = interval
        self.overhead = overhead
        self._headline_at: float | None = None
        self._headline_seconds = 0.0

    def __call__(self, con: duckdb.DuckDBPyConnection) -> None:
        refresh(con)
        self._keep_headline(con)

    def _keep_headline(self, con: duckdb.DuckDBPyConnection) -> None:
        gap = max(self.interval, self._headline_seconds / self.overhead)
        if self._headline_at is not None and time.monotonic() - self._headline_at < gap:
            return
        started = time.monotonic()
        try:
            store_headline_intervals(con)
        except Exception as error:  # readers compute them; never fail a writer for this
            _log.warning("could not keep the headline intervals: %s", error)
        self._headline_at = time.monotonic()
        self._headline_seconds = self._headline_at - started

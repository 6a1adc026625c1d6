"""Telemetry never breaks the host: faults are caught, logged once per site, counted."""

from __future__ import annotations

import logging
import threading

logger = logging.getLogger("recurscope.instrumentation")

_seen: set[str] = set()
_lock = threading.Lock()
_counts: dict[str, int] = {}


def report(site: str, exc: BaseException) -> None:
    """Log ``exc`` the first time ``site`` fails (later failures are only counted)."""
    with _lock:
        _counts[site] = _counts.get(site, 0) + 1
        first = site not in _seen
        _seen.add(site)
    if first:
        logger.warning(
            "recurscope instrumentation fault in %s (logged once; the host is unaffected): %s: %s",
            site,
            type(exc).__name__,
            exc,
            exc_info=exc,
        )


def counts() -> dict[str, int]:
    """Faults caught so far in this process, by site."""
    with _lock:
        return dict(_counts)

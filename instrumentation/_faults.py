"""Telemetry never breaks the host: faults are caught, logged once per site, counted."""

from __future__ import annotations

import logging
import threading

from ._forks import fresh_after_fork

logger = logging.getLogger("recurscope.instrumentation")


class UsageFault(Exception):
    """An entry point used wrongly (a speaker it cannot map, a delegation with no caller, ...).

    Never raised: the host's call goes on, and the fault is reported like any other.
    """


_seen: set[str] = set()
_lock = threading.Lock()
fresh_after_fork(_lock)
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
            exc_info=None if isinstance(exc, UsageFault) else exc,  # never raised: no traceback
        )


def misuse(site: str, message: str) -> None:
    """Report a misuse at ``site`` that no span can count (logged once, counted here)."""
    report(site, UsageFault(message))


def counts() -> dict[str, int]:
    """Faults caught so far in this process, by site."""
    with _lock:
        return dict(_counts)

"""Warn once when a recorder records nowhere although :func:`configure` set up telemetry.

``configure()`` builds a provider and, unless ``set_global=True``, installs it
nowhere: a recorder uses only the provider it is given (no hidden globals).
Forgetting ``tracer_provider=`` therefore records into OTel's no-op default
and, with the file exporter, leaves an empty file without a word. This
module only *notices* that mistake — configured handles are tracked weakly,
never handed to a recorder — and logs it once per process on the package
logger, where every other instrumentation fault goes.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from ._faults import logger

# Bumped whenever a handle is configured or shut down, so a recorder that
# already resolved its tracer checks again (one integer compare per call).
generation = 0

_live: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
_lock = threading.Lock()
_warned = False


def register(telemetry: Any) -> None:
    """Track a configured, enabled :class:`~recurscope.instrumentation.Telemetry` (weakly)."""
    global generation
    with _lock:
        _live[id(telemetry)] = telemetry
        generation += 1


def unregister(telemetry: Any) -> None:
    """Forget a handle that was shut down (its spans go nowhere on purpose now)."""
    global generation
    with _lock:
        if _live.get(id(telemetry)) is telemetry:
            del _live[id(telemetry)]
        generation += 1


def warn_unrouted(session_id: str) -> None:
    """Log once per process that a recorder records nowhere while a configured handle lives."""
    global _warned
    if _warned:
        return
    with _lock:
        handles = list(_live.values())
        if not handles or _warned:
            return
        _warned = True
    telemetry = handles[-1]
    where = f"{telemetry.exporter!r}" + (
        f", path={str(telemetry.path)!r}" if telemetry.path is not None else ""
    )
    logger.warning(
        "recurscope: Recorder(%r) records nowhere: it was given no tracer_provider and "
        "OpenTelemetry's global provider is the no-op default, although configure(%s) "
        "set up a Telemetry. configure() installs its provider nowhere by itself: pass "
        "Recorder(..., tracer_provider=telemetry.tracer_provider), or call "
        "configure(..., set_global=True) to make it the global provider. (Logged once.)",
        session_id,
        where,
    )

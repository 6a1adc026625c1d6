"""Locks a forked child can use: a lock held by another thread at ``fork()`` stays held.

The child of a ``fork()`` has only the thread that forked. A lock another
thread held at that moment (the code-facts worker in the middle of a
sandbox exchange, say) would never be released there, and the child's first
call with a new program would wait forever. Each module registers its locks
here; in the child they are made new and unlocked (``_at_fork_reinit``, as
the standard library does for its own locks).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

__all__ = ["after_fork_in_child", "fresh_after_fork"]


def fresh_after_fork(*locks: Any) -> None:
    """Make ``locks`` new and unlocked in a forked child."""

    def reinit() -> None:
        for lock in locks:
            _reinit(lock)

    after_fork_in_child(reinit)


def after_fork_in_child(function: Callable[[], None]) -> None:
    """Run ``function`` in a forked child, right after ``fork()`` (no-op where there is no fork)."""
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=function)


def _reinit(lock: Any) -> None:
    reinit = getattr(lock, "_at_fork_reinit", None)  # every lock of CPython >= 3.9
    if reinit is not None:
        reinit()

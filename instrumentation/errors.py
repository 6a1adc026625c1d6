"""The few named errors recurscope raises, each saying what to do instead."""

from __future__ import annotations


class RecurscopeError(Exception):
    """Base class of recurscope's own errors."""


class MissingExtraError(RecurscopeError, ImportError):
    """A feature needs an optional extra that is not installed."""

    def __init__(self, feature: str, *, extra: str) -> None:
        self.extra = extra
        super().__init__(f"{feature} needs the [{extra}] extra: pip install 'recurscope[{extra}]'")

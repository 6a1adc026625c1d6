"""Options and argument types shared by the commands."""

from __future__ import annotations

import argparse
from typing import Final

_SIZE_UNITS: Final = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "kib": 1024,
    "m": 1000**2,
    "mb": 1000**2,
    "mib": 1024**2,
    "g": 1000**3,
    "gb": 1000**3,
    "gib": 1024**3,
}


def parse_size(text: str) -> int:
    """'64MiB', '1GB', '4096' -> bytes (for the limit flags)."""
    stripped = text.strip().lower()
    number = stripped.rstrip("abcdefghijklmnopqrstuvwxyz")
    unit = stripped[len(number) :]
    try:
        value = float(number)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 64MiB, 1GB, 4096)") from None
    if unit not in _SIZE_UNITS or value <= 0:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 64MiB, 1GB, 4096)")
    return int(value * _SIZE_UNITS[unit])


def parse_size_or_zero(text: str) -> int:
    """:func:`parse_size`, also accepting 0."""
    return 0 if text.strip() == "0" else parse_size(text)

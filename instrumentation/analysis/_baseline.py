"""The original runtime's detector, kept verbatim in spirit, as the baseline to beat.

Recurgent decides access by the text ``conversation_history`` appearing anywhere
in the program (comments and strings included) and ops by regexes over the
whole program, whatever data they apply to. The patterns below are its own; the
ops are reported only when access is, as the runtime did.
"""

from __future__ import annotations

import re
from typing import Final

_PATTERNS: Final = (
    ("filter", re.compile(r"\.(select|filter|reject|find_all)\b")),
    ("map", re.compile(r"\.(map|collect)\b")),
    ("slice", re.compile(r"(\.slice\(|\[\s*\d+\s*\.\.\s*\d*\s*\]|\.take\(|\.drop\()")),
    ("count", re.compile(r"\.(count|length|size)\b")),
    ("group", re.compile(r"\.(group_by|chunk)\b")),
)


def baseline_analysis(code: str) -> tuple[bool, frozenset[str]]:
    """Recurgent's regex detector: (accessed, ops). Never raises; non-str code is not accessed."""
    if not isinstance(code, str) or "conversation_history" not in code:
        return False, frozenset()
    return True, frozenset(op for op, pattern in _PATTERNS if pattern.search(code))

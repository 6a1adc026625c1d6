"""The lattice of "how does this value relate to the history" shared by both analysers.

``HIST``: the history or a sub-collection of its records (``h[-5:]``,
``h.select {...}``). ``DERIVED``: a collection of values computed from records
(``[m["content"] for m in h]``). ``GROUPS``: a collection whose items are
themselves collections of records (``groupby``, ``group_by``, ``chunk_while``,
a dict of lists filled per key), so ``len(group)`` is a count over history
too. ``REC``: one record. ``VAL``: any other value
computed from history (a field, a count, a string). ``NONE``: unrelated.
Ops count only on ``HIST``/``DERIVED`` operands (and grep on ``VAL`` text), which
is what keeps ``sorted(prices)`` out of the evidence.
"""

from __future__ import annotations

from typing import Final

NONE: Final = 0
VAL: Final = 1
REC: Final = 2
DERIVED: Final = 3
HIST: Final = 4
GROUPS: Final = 5
COLLECTIONS: Final = frozenset({DERIVED, HIST, GROUPS})
FIELDS: Final = frozenset({REC, VAL})


def join(a: int, b: int) -> int:
    """Least upper bound: collections win over values; history and derived meet at derived."""
    if a == b or not b:
        return a
    if not a:
        return b
    if a in COLLECTIONS and b in COLLECTIONS:
        return DERIVED
    if a in COLLECTIONS:
        return a
    if b in COLLECTIONS:
        return b
    return VAL


def element(kind: int) -> int:
    """Kind of one item of a value of ``kind`` when iterated."""
    if kind == HIST:
        return REC
    if kind == GROUPS:
        return HIST
    return VAL if kind else NONE

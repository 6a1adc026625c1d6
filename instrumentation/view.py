"""The observed, read-only history view handed to generated code.

Generated code gets a :class:`HistoryView` where it would get the history
list. The view records what the code actually did — iterate, index, slice,
len, how many records it was handed, and how far back it read — without a
span per record and without a per-record Python frame: iteration hands out
the list's own C iterator and reads how far it got (``__length_hint__``)
when the call ends, so a filter over the view costs what a filter over a
list costs.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple, overload

RUNTIME_OPS: Final = frozenset({"iterate", "index", "slice", "len"})
"""Operations the view can observe at run time."""

# Larger than any position: "no record read yet" without a None test on the hot path.
_NOTHING_READ: Final = 1 << 62


class AccessSummary(NamedTuple):
    """What one call's code did with its view.

    ``ops`` is a subset of :data:`RUNTIME_OPS`; ``records_read`` counts record
    deliveries (a record read twice counts twice); ``accessed`` is true when
    any record was read or the length was asked. ``oldest`` is the position
    (from the start of the view, 0 = the oldest record) of the oldest record
    the code was handed, or None when it was handed none; the newest record
    is at ``len - 1``, so ``len - oldest`` records were within reach of the
    read. (A named tuple: built once per call on the hot path, where a frozen
    dataclass costs several times more.)
    """

    accessed: bool
    ops: frozenset[str]
    records_read: int
    oldest: int | None = None


_UNTOUCHED = AccessSummary(accessed=False, ops=frozenset(), records_read=0, oldest=None)

# The ops of each (iterated, indexed, sliced, len asked): built once, not per summary.
_OPS: Final = {
    (iterated, indexed, sliced, len_asked): frozenset(
        op
        for op, seen in (
            ("iterate", iterated),
            ("index", indexed),
            ("slice", sliced),
            ("len", len_asked),
        )
        if seen
    )
    for iterated in (False, True)
    for indexed in (False, True)
    for sliced in (False, True)
    for len_asked in (False, True)
}


def _bound(position: Any, length: int) -> int:
    """``list.index``'s reading of a start/stop bound: negative from the end, clamped to the list."""
    position = operator.index(position)
    if position < 0:
        position += length
    return 0 if position < 0 else min(position, length)


class HistoryView(Sequence[Mapping[str, Any]]):
    """A read-only sequence over history records that notes how it is read.

    Records are read-only dicts (:class:`~recurscope.instrumentation.history.FrozenRecord`);
    the view has no mutating methods. ``list(view)`` gives a plain list.

    How far back the code read (:attr:`AccessSummary.oldest`) is the oldest
    position among the records actually handed out: a forward iterator that
    yielded anything read position 0; ``reversed()`` that yielded k of n
    records read back to n - k; ``view[i]`` read i (a negative i counts from
    the end); a slice read the oldest position it returned (none when
    empty); ``in``, ``count`` and ``==`` scan from position 0; ``index(x,
    start, stop)`` scans from ``start``. ``len`` reads no record. Positions
    are those of the list when the record was read (the view is live).
    """

    __slots__ = (
        "_iterators",
        "_len_asked",
        "_oldest",
        "_op_index",
        "_op_iterate",
        "_op_slice",
        "_reads",
        "_records",
        "_reversed",
    )

    def __init__(self, records: list[Mapping[str, Any]]) -> None:
        self._records = records
        # (iterator, length when it was created): read back at summary time.
        self._iterators: list[tuple[Any, int]] = []
        self._reversed: list[tuple[Any, int]] = []
        self._reads = 0
        self._oldest = _NOTHING_READ
        self._len_asked = False
        self._op_index = False
        self._op_slice = False
        self._op_iterate = False

    def __len__(self) -> int:
        self._len_asked = True
        return len(self._records)

    @overload
    def __getitem__(self, index: int) -> Mapping[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Mapping[str, Any], ...]: ...
    def __getitem__(self, index: int | slice) -> Any:
        records = self._records
        if isinstance(index, slice):
            part = tuple(records[index])
            self._op_slice = True
            taken = len(part)
            if taken:
                self._reads += taken
                start, _, step = index.indices(len(records))
                # The oldest delivered: the first one going forward, the last going back.
                first = start if step > 0 else start + (taken - 1) * step
                if first < self._oldest:
                    self._oldest = first
            return part
        record = records[index]
        self._op_index = True
        self._reads += 1
        position = index if type(index) is int else operator.index(index)
        if position < 0:
            position += len(records)
        if position < self._oldest:
            self._oldest = position
        return record

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        records = self._records
        iterator = iter(records)
        self._iterators.append((iterator, len(records)))
        return iterator

    def __reversed__(self) -> Iterator[Mapping[str, Any]]:
        records = self._records
        iterator: Iterator[Mapping[str, Any]] = reversed(records)
        self._reversed.append((iterator, len(records)))
        return iterator

    def _scan_all(self) -> None:
        """A scan from the first record (``in``, ``count``, ``==``): counted as reading all."""
        n = len(self._records)
        self._reads += n
        if n:
            self._oldest = 0

    def __contains__(self, value: object) -> bool:
        found = value in self._records
        self._op_iterate = True
        self._scan_all()
        return found

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        records = self._records
        n = len(records)
        low = _bound(start, n)
        high = n if stop is None else _bound(stop, n)
        self._op_index = True
        try:
            position = records.index(value, low, high)
        except ValueError:
            # Every record from start to stop was compared.
            if high > low:
                self._reads += high - low
                self._oldest = min(self._oldest, low)
            raise
        self._reads += position - low + 1
        self._oldest = min(self._oldest, low)
        return position

    def count(self, value: Any) -> int:
        self._len_asked = True
        self._scan_all()
        return self._records.count(value)

    def __repr__(self) -> str:
        return f"<HistoryView of {len(self._records)} records>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HistoryView):
            others: Sequence[Any] = other._records
        elif isinstance(other, (list, tuple)):
            others = other
        else:
            return NotImplemented
        self._len_asked = True
        if len(self._records) != len(others):
            return False  # decided by the lengths: no record compared
        self._op_iterate = True
        self._scan_all()
        if isinstance(other, HistoryView):
            other._len_asked = other._op_iterate = True
            other._scan_all()
        return list(self._records) == list(others)

    __hash__ = None  # type: ignore[assignment]

    def summary(self) -> AccessSummary:
        """Summarize the reads so far (cheap: one pass over the iterators handed out)."""
        reads = self._reads
        oldest = self._oldest
        iterated = self._op_iterate or bool(self._iterators) or bool(self._reversed)
        if not (iterated or self._op_index or self._op_slice or self._len_asked):
            return _UNTOUCHED
        if self._iterators:
            now = len(self._records)
            for iterator, length in self._iterators:
                # A live list iterator reports len(list) - its index, so the
                # difference is what it handed out, even if the list grew since;
                # an exhausted one reports 0: it handed out what it started with.
                remaining = iterator.__length_hint__()
                taken = max(0, now - remaining) if remaining else length
                if taken:
                    reads += taken
                    oldest = 0
        for iterator, length in self._reversed:
            # A reverse list iterator reports its index + 1: the position of the
            # last record it handed out (0 once exhausted).
            remaining = iterator.__length_hint__()
            taken = max(0, length - remaining)
            if taken:
                reads += taken
                oldest = min(oldest, remaining)
        ops = _OPS[iterated, self._op_index, self._op_slice, self._len_asked]
        # Positional: keyword arguments make this hot constructor several times slower.
        return AccessSummary(True, ops, reads, None if oldest == _NOTHING_READ else oldest)

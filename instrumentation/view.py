"""The observed, read-only history view handed to generated code.

Generated code gets a :class:`HistoryView` where it would get the history
list. The view records what the code actually did — iterate, index, slice,
len, and how many records it was handed — without a span per record and
without a per-record Python frame: iteration hands out the list's own C
iterator and reads how far it got (``__length_hint__``) when the call ends,
so a filter over the view costs what a filter over a list costs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple, overload

RUNTIME_OPS: Final = frozenset({"iterate", "index", "slice", "len"})
"""Operations the view can observe at run time."""


class AccessSummary(NamedTuple):
    """What one call's code did with its view.

    ``ops`` is a subset of :data:`RUNTIME_OPS`; ``records_read`` counts record
    deliveries (a record read twice counts twice); ``accessed`` is true when
    any record was read or the length was asked. (A named tuple: built once
    per call on the hot path, where a frozen dataclass costs several times more.)
    """

    accessed: bool
    ops: frozenset[str]
    records_read: int


_UNTOUCHED = AccessSummary(accessed=False, ops=frozenset(), records_read=0)


class HistoryView(Sequence[Mapping[str, Any]]):
    """A read-only sequence over history records that notes how it is read.

    Records are read-only dicts (:class:`~recurscope.instrumentation.history.FrozenRecord`);
    the view has no mutating methods. ``list(view)`` gives a plain list.
    """

    __slots__ = (
        "_iterators",
        "_len_asked",
        "_op_index",
        "_op_iterate",
        "_op_slice",
        "_reads",
        "_records",
    )

    def __init__(self, records: list[Mapping[str, Any]]) -> None:
        self._records = records
        # (iterator, length when it was created): read back at summary time.
        self._iterators: list[tuple[Any, int]] = []
        self._reads = 0
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
        if isinstance(index, slice):
            part = tuple(self._records[index])
            self._op_slice = True
            self._reads += len(part)
            return part
        record = self._records[index]
        self._op_index = True
        self._reads += 1
        return record

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        records = self._records
        iterator = iter(records)
        self._iterators.append((iterator, len(records)))
        return iterator

    def __reversed__(self) -> Iterator[Mapping[str, Any]]:
        records = self._records
        iterator: Iterator[Mapping[str, Any]] = reversed(records)
        self._iterators.append((iterator, len(records)))
        return iterator

    def __contains__(self, value: object) -> bool:
        found = value in self._records
        self._op_iterate = True
        self._reads += len(self._records)
        return found

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        self._op_index = True
        position = self._records.index(value, start, len(self._records) if stop is None else stop)
        self._reads += position - start + 1
        return position

    def count(self, value: Any) -> int:
        self._len_asked = True
        self._reads += len(self._records)
        return self._records.count(value)

    def __repr__(self) -> str:
        return f"<HistoryView of {len(self._records)} records>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HistoryView):
            return self._records == other._records
        if isinstance(other, (list, tuple)):
            return list(self._records) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def summary(self) -> AccessSummary:
        """Summarize the reads so far (cheap: one pass over the iterators handed out)."""
        reads = self._reads
        iterated = self._op_iterate or bool(self._iterators)
        if not (iterated or self._op_index or self._op_slice or self._len_asked):
            return _UNTOUCHED
        for iterator, length in self._iterators:
            # An exhausted list iterator reports 0 remaining; a partly consumed
            # one reports what is left, so the difference is what was read.
            remaining = iterator.__length_hint__()
            reads += max(0, length - remaining)
        ops: set[str] = set()
        if iterated:
            ops.add("iterate")
        if self._op_index:
            ops.add("index")
        if self._op_slice:
            ops.add("slice")
        if self._len_asked:
            ops.add("len")
        return AccessSummary(accessed=bool(ops), ops=frozenset(ops), records_read=reads)

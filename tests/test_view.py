"""The observed history view: read-only, and it notes how generated code read it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recurscope.instrumentation import History, HistoryRecord


def history_of(n: int) -> History:
    history = History()
    for i in range(n):
        history.append(
            HistoryRecord.create(
                call_id=f"c{i}", speaker="user" if i % 2 else "agent", method_name="m"
            )
        )
    return history


def test_untouched_view_reports_no_access() -> None:
    """A view the code never read reports accessed=False and no ops."""
    summary = history_of(3).view().summary()
    assert not summary.accessed and summary.ops == frozenset() and summary.records_read == 0


def test_full_iteration_counts_every_record() -> None:
    """A comprehension over the view is an iterate op that read every record."""
    view = history_of(10).view()
    users = [r for r in view if r["speaker"] == "user"]
    summary = view.summary()
    assert len(users) == 5
    assert summary.ops == {"iterate"} and summary.records_read == 10 and summary.accessed


def test_partial_iteration_counts_what_was_consumed() -> None:
    """next() over the view reads only up to the first match."""
    view = history_of(10).view()
    first_user = next(r for r in view if r["speaker"] == "user")
    assert first_user["call_id"] == "c1"
    assert view.summary().records_read == 2


def test_slice_index_and_len_are_distinct_ops() -> None:
    """Slicing, indexing and len are each observed."""
    view = history_of(10).view()
    tail = view[-3:]
    last = view[-1]
    n = len(view)
    summary = view.summary()
    assert summary.ops == {"slice", "index", "len"}
    assert summary.records_read == 4 and n == 10 and tail[-1] is last


def test_reversed_and_membership_are_iteration() -> None:
    """reversed() and `in` are reads of the records they scan."""
    history = history_of(4)
    view = history.view()
    assert next(reversed(view))["call_id"] == "c3"
    assert history[0] in view
    assert view.summary().ops == {"iterate"}


def test_view_has_no_mutators() -> None:
    """Generated code cannot append to or change the history through the view."""
    view = history_of(2).view()
    for name in ("append", "extend", "insert", "pop", "remove", "clear", "sort", "__setitem__"):
        assert not hasattr(view, name), name
    with pytest.raises(TypeError):
        view[0]["speaker"] = "tool"  # type: ignore[index]


def test_len_of_empty_history_is_access() -> None:
    """Asking how long an empty history is still counts as reading it."""
    view = History().view()
    assert len(view) == 0
    assert view.summary().accessed and view.summary().ops == {"len"}


@given(n=st.integers(0, 50), stop=st.integers(0, 60))
def test_records_read_equals_records_delivered(n: int, stop: int) -> None:
    """Whatever prefix the code consumes, records_read equals the records handed out."""
    view = history_of(n).view()
    for taken, _record in enumerate(view):
        if taken == stop:
            break
    # The loop pulled `taken` records plus, when it broke early, the one it stopped on.
    pulled = min(n, stop + 1) if stop < n else n
    assert view.summary().records_read == pulled

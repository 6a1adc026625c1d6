"""How far back the code read: the view's ``oldest`` and the call span's read depth, age and tokens."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recurscope.instrumentation import (
    History,
    HistoryRecord,
    HistoryView,
    Recorder,
    Retention,
    TokenCounter,
)
from recurscope.instrumentation import history as history_module
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.testing import capture_spans

READ_ATTRIBUTES = (sc.HISTORY_READ_DEPTH, sc.HISTORY_READ_AGE, sc.HISTORY_READ_TOKENS)


def history_of(n: int, *, retention: Retention | None = None) -> History:
    """``n`` records, call ids ``c0``..``c{n-1}``, stamped one minute apart ending a minute ago."""
    history = History(retention=retention)
    now = datetime.now(UTC)
    for i in range(n):
        history.append(
            HistoryRecord.create(
                call_id=f"c{i}",
                speaker="user" if i % 2 else "agent",
                method_name=f"m{i % 3}",
                outcome_summary={"ok": i % 4 != 0},
                timestamp=now - timedelta(minutes=n - i),
            )
        )
    return history


def oldest(view: HistoryView) -> int | None:
    return view.summary().oldest


class CountingCounter(TokenCounter):
    """The default encoding, noting every text it is asked to count."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def count(self, text: str) -> int:
        self.texts.append(text)
        return super().count(text)


@pytest.fixture(scope="module")
def token_counter() -> TokenCounter:
    return TokenCounter()


# -- the view's oldest position, per access shape ---------------------------------


class TestNothingRead:
    def test_untouched_view_read_nothing(self) -> None:
        """A view the code never touched has no oldest record."""
        assert oldest(history_of(5).view()) is None

    def test_len_reads_no_record(self) -> None:
        """Asking the length is access, but no record was read."""
        view = history_of(5).view()
        assert len(view) == 5
        summary = view.summary()
        assert summary.accessed and summary.oldest is None

    def test_iterator_never_advanced_read_nothing(self) -> None:
        """iter(view) and reversed(view) alone hand out no record."""
        view = history_of(5).view()
        iter(view)
        reversed(view)
        assert oldest(view) is None

    def test_index_out_of_range_read_nothing(self) -> None:
        """A failed index read no record."""
        view = history_of(3).view()
        with pytest.raises(IndexError):
            view[3]
        with pytest.raises(IndexError):
            view[-4]
        assert oldest(view) is None

    @pytest.mark.parametrize("part", [slice(3, 1), slice(5, None), slice(-1, -3), slice(2, 2)])
    def test_empty_slice_read_nothing(self, part: slice) -> None:
        """A slice that returns no record read none."""
        view = history_of(5).view()
        assert view[part] == ()
        assert oldest(view) is None

    def test_scans_of_an_empty_history_read_nothing(self) -> None:
        """`in`, count and == over an empty view compare no record."""
        view = History().view()
        assert object() not in view
        assert view.count(object()) == 0
        assert view == []
        assert oldest(view) is None


class TestIteration:
    def test_full_iteration_reads_back_to_the_first(self) -> None:
        """A comprehension over the view read position 0."""
        view = history_of(6).view()
        assert len([r for r in view if r["speaker"] == "user"]) == 3
        assert oldest(view) == 0

    def test_partly_consumed_iterator_read_the_first(self) -> None:
        """A forward iterator starts at the oldest record: one next() reached position 0."""
        view = history_of(6).view()
        iterator = iter(view)
        assert next(iterator)["call_id"] == "c0"
        assert oldest(view) == 0

    def test_search_that_stops_early_read_the_first(self) -> None:
        """next(r for r in view if ...) stops early but started at position 0."""
        view = history_of(6).view()
        assert next(r for r in view if r["speaker"] == "user")["call_id"] == "c1"
        summary = view.summary()
        assert summary.oldest == 0 and summary.records_read == 2

    def test_nested_iteration_read_the_first(self) -> None:
        """Pairs from a nested loop: every iterator counts, the oldest is 0."""
        view = history_of(4).view()
        pairs = [(a["call_id"], b["call_id"]) for a in view for b in view]
        summary = view.summary()
        assert len(pairs) == 16 and summary.oldest == 0 and summary.records_read == 4 + 16

    @pytest.mark.parametrize("taken", [1, 2, 5])
    def test_reversed_with_break_read_back_k_records(self, taken: int) -> None:
        """reversed(view) that yielded k of n records read back to position n - k."""
        view = history_of(8).view()
        seen = []
        for record in reversed(view):
            seen.append(record["call_id"])
            if len(seen) == taken:
                break
        summary = view.summary()
        assert summary.oldest == 8 - taken and summary.records_read == taken
        assert seen[-1] == f"c{8 - taken}"

    def test_exhausted_reversed_read_the_first(self) -> None:
        """list(reversed(view)) read every record."""
        view = history_of(5).view()
        assert [r["call_id"] for r in reversed(view)][-1] == "c0"
        assert oldest(view) == 0

    def test_oldest_is_the_minimum_over_every_access(self) -> None:
        """Several reads: the oldest position any of them reached."""
        view = history_of(10).view()
        view[-2]
        for _, record in zip(range(3), reversed(view), strict=False):
            assert record
        view[6:8]
        assert oldest(view) == 6

    def test_iterator_read_before_the_history_grew_counts_what_it_handed_out(self) -> None:
        """Records appended after a partial read do not hide it (the view is live)."""
        history = history_of(6)
        view = history.view()
        iterator = iter(view)
        next(iterator)
        next(iterator)
        history.record(call_id="late", speaker="agent", method_name="m")
        summary = view.summary()
        assert summary.oldest == 0 and summary.records_read == 2


class TestIndexing:
    @pytest.mark.parametrize(("index", "position"), [(0, 0), (3, 3), (-1, 9), (-4, 6), (-10, 0)])
    def test_index_reads_its_position(self, index: int, position: int) -> None:
        """view[i] reads i; a negative i counts from the end."""
        view = history_of(10).view()
        assert view[index]["call_id"] == f"c{position}"
        assert oldest(view) == position

    def test_index_accepts_what_lists_accept(self) -> None:
        """A bool or an __index__ object is an index like for a list."""

        class Two:
            def __index__(self) -> int:
                return 2

        view = history_of(5).view()
        assert view[Two()]["call_id"] == "c2"  # type: ignore[call-overload]
        assert view[True]["call_id"] == "c1"
        assert oldest(view) == 1


class TestSlicing:
    @pytest.mark.parametrize(
        ("part", "position"),
        [
            (slice(-3, None), 7),
            (slice(2, 5), 2),
            (slice(None, None, 2), 0),
            (slice(1, None, 3), 1),
            (slice(None, None, -1), 0),
            (slice(-1, -4, -1), 7),
            (slice(8, 1, -3), 2),
            (slice(-100, 3), 0),
            (slice(4, 100), 4),
            (slice(None, 2, -1), 3),
        ],
    )
    def test_slice_reads_back_to_the_oldest_it_returned(self, part: slice, position: int) -> None:
        """The oldest position among the records a slice returned, whatever its step."""
        view = history_of(10).view()
        returned = view[part]
        assert returned and min(int(r["call_id"][1:]) for r in returned) == position
        assert oldest(view) == position


class TestScans:
    def test_membership_reads_from_the_first(self) -> None:
        """`x in view` scans from position 0, found or not."""
        history = history_of(6)
        view = history.view()
        assert history[4] in view
        assert oldest(view) == 0
        other = history_of(6).view()
        assert {"call_id": "nope"} not in other
        assert oldest(other) == 0

    def test_count_reads_from_the_first(self) -> None:
        """view.count(x) compares every record."""
        history = history_of(6)
        view = history.view()
        assert view.count(history[5]) == 1
        assert oldest(view) == 0

    @pytest.mark.parametrize(
        ("start", "stop", "position"),
        [(0, None, 0), (3, None, 3), (-4, None, 6), (2, 9, 2), (-100, None, 0)],
    )
    def test_index_method_reads_from_start(
        self, start: int, stop: int | None, position: int
    ) -> None:
        """view.index(x, start, stop) compares from start (normalized like list.index)."""
        history = history_of(10)
        view = history.view()
        found = (
            view.index(history[8], start) if stop is None else view.index(history[8], start, stop)
        )
        summary = view.summary()
        assert found == 8 and summary.oldest == position
        assert summary.records_read == 8 - position + 1

    def test_index_method_that_finds_nothing_still_read_its_range(self) -> None:
        """A ValueError from view.index(x, start, stop) comes after comparing start..stop-1."""
        history = history_of(10)
        view = history.view()
        with pytest.raises(ValueError):
            view.index(history[1], 4, 7)
        summary = view.summary()
        assert summary.oldest == 4 and summary.records_read == 3

    def test_index_method_over_an_empty_range_read_nothing(self) -> None:
        """view.index(x, 5, 5) compares no record."""
        history = history_of(10)
        view = history.view()
        with pytest.raises(ValueError):
            view.index(history[5], 5, 5)
        assert oldest(view) is None

    def test_equality_with_a_same_length_sequence_reads_from_the_first(self) -> None:
        """view == list compares records from position 0; a length mismatch compares none."""
        history = history_of(4)
        view = history.view()
        assert view == list(history)
        assert oldest(view) == 0
        other = history.view()
        assert other != list(history)[:2]
        assert oldest(other) is None and other.summary().ops == {"len"}


# -- the view against a reference that instruments every delivery -------------------


class Reference:
    """A plain list wrapper noting the position of every record it hands out (slow, obvious)."""

    def __init__(self, records: list[Mapping[str, Any]]) -> None:
        self.records = records
        self.delivered: list[int] = []

    def forward(self) -> Iterator[Mapping[str, Any]]:
        for position, record in enumerate(self.records):
            self.delivered.append(position)
            yield record

    def backward(self) -> Iterator[Mapping[str, Any]]:
        for position in range(len(self.records) - 1, -1, -1):
            self.delivered.append(position)
            yield self.records[position]

    def item(self, index: int) -> Mapping[str, Any]:
        record = self.records[index]
        self.delivered.append(index % len(self.records))
        return record

    def part(self, part: slice) -> tuple[Mapping[str, Any], ...]:
        positions = range(*part.indices(len(self.records)))
        self.delivered.extend(positions)
        return tuple(self.records[p] for p in positions)

    def scan(self) -> None:
        # `in`, count and == are counted as full scans (the view's documented convention).
        self.delivered.extend(range(len(self.records)))

    def find(self, value: object, start: int, stop: int) -> int:
        positions = range(len(self.records))[slice(start, stop)]
        for position in positions:
            self.delivered.append(position)
            if self.records[position] == value:
                return position
        raise ValueError(value)


bound = st.one_of(st.none(), st.integers(-14, 14))
operations = st.lists(
    st.one_of(
        st.tuples(st.just("iter")),
        st.tuples(st.just("reversed")),
        st.tuples(st.just("next"), st.integers(0, 5), st.integers(1, 4)),
        st.tuples(st.just("index"), st.integers(-14, 14)),
        st.tuples(st.just("slice"), bound, bound, st.sampled_from([None, 1, 2, 3, -1, -2, -3])),
        st.tuples(st.just("in"), st.integers(-1, 11)),
        st.tuples(st.just("count"), st.integers(-1, 11)),
        st.tuples(st.just("find"), st.integers(-1, 11), st.integers(-14, 14), st.integers(-14, 14)),
        st.tuples(st.just("len")),
        st.tuples(st.just("eq")),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 11), ops=operations)
def test_oldest_matches_a_reference_that_notes_every_delivery(n: int, ops: list[Any]) -> None:
    """For any sequence of reads, the view's oldest is the smallest position handed out."""
    history = history_of(n)
    view = history.view()
    reference = Reference(list(history.frozen_records()))
    pairs: list[tuple[Iterator[Any], Iterator[Any]]] = []
    for op in ops:
        name = op[0]
        if name == "iter":
            pairs.append((iter(view), reference.forward()))
        elif name == "reversed":
            pairs.append((reversed(view), reference.backward()))
        elif name == "next" and pairs:
            ours, theirs = pairs[op[1] % len(pairs)]
            for _ in range(op[2]):
                assert next(ours, None) is next(theirs, None)
        elif name == "index":
            if -n <= op[1] < n:
                assert view[op[1]] is reference.item(op[1])
            else:
                with pytest.raises(IndexError):
                    view[op[1]]
        elif name == "slice":
            part = slice(op[1], op[2], op[3])
            assert view[part] == reference.part(part)
        elif name in ("in", "count", "find"):
            value = history[op[1]] if 0 <= op[1] < n else {"call_id": "absent"}
            if name == "in":
                assert (value in view) == (value in reference.records)
                reference.scan()
            elif name == "count":
                assert view.count(value) == reference.records.count(value)
                reference.scan()
            else:
                try:
                    expected: int | None = reference.find(value, op[2], op[3])
                except ValueError:
                    expected = None
                if expected is None:
                    with pytest.raises(ValueError):
                        view.index(value, op[2], op[3])
                else:
                    assert view.index(value, op[2], op[3]) == expected
        elif name == "len":
            assert len(view) == n
        elif name == "eq":
            assert view == list(reference.records)
            reference.scan()
    summary = view.summary()
    assert summary.oldest == (min(reference.delivered) if reference.delivered else None)
    assert summary.records_read == len(reference.delivered)


# -- the call span: read_depth, read_age, read_tokens ---------------------------------


def call_attributes(
    history: History, read: Any, counter: TokenCounter, *, then: Any = None
) -> Mapping[str, Any]:
    """The attributes of one call whose code runs ``read(view)`` (and the host ``then(call)``)."""
    with capture_spans() as spans:
        recorder = Recorder("s1", history=history, token_counter=counter)
        with recorder.call("recap", role="assistant") as call:
            read(call.view)
            if then is not None:
                then(call)
    (span,) = spans.calls()
    return span.attributes or {}


def tokens_of(records: list[HistoryRecord], counter: TokenCounter) -> int:
    return sum(counter.count(record.to_json()) for record in records)


def age_of(record: HistoryRecord) -> float:
    return (datetime.now(UTC) - datetime.fromisoformat(record.timestamp)).total_seconds()


class TestCallSpan:
    def test_reading_the_last_records_sets_depth_age_and_tokens(
        self, token_counter: TokenCounter
    ) -> None:
        """view[-3:] of 10 records: depth 3, age of record 7, tokens of records 7..9."""
        history = history_of(10)
        attrs = call_attributes(history, lambda view: view[-3:], token_counter)
        records = history.typed()
        assert attrs[sc.HISTORY_READ_DEPTH] == 3
        assert attrs[sc.HISTORY_READ_TOKENS] == tokens_of(records[7:], token_counter)
        assert attrs[sc.HISTORY_READ_AGE] == pytest.approx(age_of(records[7]), abs=2.0)
        assert attrs[sc.HISTORY_READ_AGE] == pytest.approx(180.0, abs=2.0)

    def test_full_iteration_reaches_the_first_record(self, token_counter: TokenCounter) -> None:
        """A filter over the whole view: depth = size, tokens of every record."""
        history = history_of(6)
        attrs = call_attributes(
            history, lambda view: [r for r in view if r["speaker"] == "user"], token_counter
        )
        assert attrs[sc.HISTORY_READ_DEPTH] == attrs[sc.HISTORY_SIZE] == 6
        assert attrs[sc.HISTORY_READ_TOKENS] == tokens_of(history.typed(), token_counter)
        assert attrs[sc.HISTORY_READ_AGE] == pytest.approx(360.0, abs=2.0)

    def test_only_the_newest_is_depth_one(self, token_counter: TokenCounter) -> None:
        """view[-1]: depth 1, tokens of that record alone."""
        history = history_of(5)
        attrs = call_attributes(history, lambda view: view[-1], token_counter)
        assert attrs[sc.HISTORY_READ_DEPTH] == 1
        assert attrs[sc.HISTORY_READ_TOKENS] == tokens_of(history.typed()[-1:], token_counter)

    @pytest.mark.parametrize(
        "read",
        [lambda view: None, len, iter, lambda view: view[3:3]],
        ids=["untouched", "len", "iterator not advanced", "empty slice"],
    )
    def test_no_record_read_sets_none_of_the_three(
        self, read: Any, token_counter: TokenCounter
    ) -> None:
        """Given the history but no record read: no read_depth, read_age or read_tokens."""
        attrs = call_attributes(history_of(5), read, token_counter)
        assert not set(READ_ATTRIBUTES) & set(attrs)

    def test_empty_history_sets_none_of_the_three(self, token_counter: TokenCounter) -> None:
        """Iterating an empty history reads no record."""
        attrs = call_attributes(History(), list, token_counter)
        assert not set(READ_ATTRIBUTES) & set(attrs)

    def test_own_record_appended_before_the_end_does_not_shift_the_read(
        self, token_counter: TokenCounter
    ) -> None:
        """The host appends the call's record inside the call (count retention evicts the
        oldest): depth, age and tokens still describe what the code read."""
        history = history_of(5, retention=Retention(max_records=5))
        before = history.typed()

        def append_own(call: Any) -> None:
            history.append(call.to_record(outcome_summary={"ok": True}))

        attrs = call_attributes(history, list, token_counter, then=append_own)
        assert history.evicted_total == 1 and history.typed()[0] is before[1]
        assert attrs[sc.HISTORY_READ_DEPTH] == 5
        assert attrs[sc.HISTORY_READ_TOKENS] == tokens_of(before, token_counter)
        assert attrs[sc.HISTORY_READ_AGE] == pytest.approx(age_of(before[0]), abs=2.0)

        partial = call_attributes(history, lambda view: view[-2:], token_counter, then=append_own)
        now = history.typed()
        assert partial[sc.HISTORY_READ_DEPTH] == 2
        # The last two records when the call started are now the two before the newest.
        assert partial[sc.HISTORY_READ_TOKENS] == tokens_of(now[-3:-1], token_counter)

    def test_record_appended_and_read_during_the_call_is_the_newest(
        self, token_counter: TokenCounter
    ) -> None:
        """A record appended while the code runs and read is newer than the call: depth 1."""
        history = history_of(3)

        def read_a_late_record(view: HistoryView) -> None:
            history.record(call_id="late", speaker="tool", method_name="t")
            assert view[-1]["call_id"] == "late"

        attrs = call_attributes(history, read_a_late_record, token_counter)
        assert attrs[sc.HISTORY_READ_DEPTH] == 1
        assert attrs[sc.HISTORY_READ_TOKENS] == tokens_of(history.typed()[-1:], token_counter)
        assert attrs[sc.HISTORY_READ_AGE] == pytest.approx(0.0, abs=1.0)

    def test_timestamp_that_does_not_parse_leaves_out_the_age(
        self, token_counter: TokenCounter
    ) -> None:
        """A record whose timestamp is not ISO 8601 gives no read_age; depth and tokens stay."""
        history = History(
            [
                HistoryRecord.from_dict(
                    {
                        "call_id": "x",
                        "speaker": "user",
                        "method_name": "m",
                        "timestamp": "yesterday",
                    }
                )
            ]
        )
        attrs = call_attributes(history, list, token_counter)
        assert sc.HISTORY_READ_AGE not in attrs
        assert attrs[sc.HISTORY_READ_DEPTH] == 1 and attrs[sc.HISTORY_READ_TOKENS] > 0

    def test_naive_timestamp_is_taken_as_utc(self, token_counter: TokenCounter) -> None:
        """A timestamp without an offset is read as UTC, like the ones recurscope writes."""
        stamp = (datetime.now(UTC) - timedelta(seconds=90)).replace(tzinfo=None).isoformat()
        history = History(
            [
                HistoryRecord.from_dict(
                    {"call_id": "x", "speaker": "user", "method_name": "m", "timestamp": stamp}
                )
            ]
        )
        attrs = call_attributes(history, list, token_counter)
        assert attrs[sc.HISTORY_READ_AGE] == pytest.approx(90.0, abs=2.0)

    def test_future_timestamp_is_age_zero(self, token_counter: TokenCounter) -> None:
        """A record stamped after the call started (clock skew, rounding) is age 0, not negative."""
        history = history_of(0)
        history.record(
            call_id="x",
            speaker="user",
            method_name="m",
            timestamp=datetime.now(UTC) + timedelta(seconds=30),
        )
        attrs = call_attributes(history, list, token_counter)
        assert attrs[sc.HISTORY_READ_AGE] == 0.0


class TestTokenCounting:
    def test_each_record_is_tokenized_once_per_history(self) -> None:
        """Calls that read the same records again count none of them twice."""
        counter = CountingCounter()
        history = history_of(8)
        for _ in range(3):
            call_attributes(history, list, counter)
        call_attributes(history, lambda view: view[-2:], counter)
        assert len(counter.texts) == 8
        assert counter.texts == [record.to_json() for record in history.typed()]

    def test_only_new_records_are_counted_as_the_session_grows(self) -> None:
        """Reading the last 3 of a growing history tokenizes each new record once."""
        counter = CountingCounter()
        history = history_of(10, retention=Retention(max_records=10))

        def append_own(call: Any) -> None:
            history.append(call.to_record(outcome_summary={"ok": True}))

        call_attributes(history, lambda view: view[-3:], counter, then=append_own)
        assert len(counter.texts) == 3
        for _ in range(4):
            call_attributes(history, lambda view: view[-3:], counter, then=append_own)
        assert len(counter.texts) == 3 + 4

    def test_token_retention_counts_are_reused(self) -> None:
        """With a token retention on the same counter, a read tokenizes nothing more."""
        counter = CountingCounter()
        history = history_of(6, retention=Retention(max_tokens=100_000, counter=counter))
        appended = len(counter.texts)
        attrs = call_attributes(history, list, counter)
        assert len(counter.texts) == appended == 6
        assert attrs[sc.HISTORY_READ_TOKENS] == tokens_of(history.typed(), counter)

    def test_another_counter_counts_in_its_own_unit(self, token_counter: TokenCounter) -> None:
        """A recorder with a byte counter reports bytes, not the retention's tokens."""
        history = history_of(4, retention=Retention(max_tokens=100_000, counter=token_counter))
        attrs = call_attributes(history, list, TokenCounter("bytes"))
        assert attrs[sc.HISTORY_READ_TOKENS] == sum(
            len(record.to_json().encode()) for record in history.typed()
        )

    def test_frozen_record_json_is_the_records_json(self) -> None:
        """What read_tokens counts is exactly the text a token retention counts."""
        history = History()
        history.record(
            call_id="é",
            speaker="tool",
            method_name="m",
            args=[1.5, (2, 3), None],
            kwargs={"k": {"n": [True]}},
            outcome_summary={"text": "naïve ✓"},
            trace_id="ab",
            depth=2,
            duration_ms=1.25,
            extra_field={"x": [1, {"y": 2}]},
        )
        (frozen,), (record,) = history.frozen_records(), history.typed()
        assert history_module._json(frozen) == record.to_json()


class TestNeverRaises:
    def test_a_failing_extent_is_counted_not_raised(
        self, monkeypatch: pytest.MonkeyPatch, token_counter: TokenCounter
    ) -> None:
        """If measuring the read fails, the call still ends, with the fault counted."""

        def broken(self: History, start: int, stop: int, *, counter: TokenCounter) -> Any:
            raise RuntimeError("boom")

        monkeypatch.setattr(History, "extent", broken)
        attrs = call_attributes(history_of(4), list, token_counter)
        assert attrs[sc.HISTORY_READ_DEPTH] == 4
        assert sc.HISTORY_READ_TOKENS not in attrs
        assert attrs[sc.INSTRUMENTATION_ERRORS] == 1
        assert attrs[sc.HISTORY_RECORDS_READ] == 4

    def test_records_evicted_long_ago_leave_out_age_and_tokens(
        self, token_counter: TokenCounter
    ) -> None:
        """A read whose oldest record left the history (beyond the kept evictions) reports depth only."""
        history = history_of(3, retention=Retention(max_records=3))

        def flood(call: Any) -> None:
            for i in range(history_module.EVICTED_KEPT + 3):
                history.record(call_id=f"f{i}", speaker="tool", method_name="t")

        attrs = call_attributes(history, list, token_counter, then=flood)
        assert attrs[sc.HISTORY_READ_DEPTH] == 3
        assert sc.HISTORY_READ_AGE not in attrs and sc.HISTORY_READ_TOKENS not in attrs

    def test_telemetry_off_reads_the_view_as_usual(self) -> None:
        """Without a provider the call has no span and the view still works."""
        from opentelemetry.trace import NoOpTracerProvider

        history = history_of(4)
        recorder = Recorder("s1", history=history, tracer_provider=NoOpTracerProvider())
        with recorder.call("recap", role="assistant") as call:
            assert [r["call_id"] for r in call.view[-2:]] == ["c2", "c3"]
        assert call.span is None


def test_a_call_with_code_carries_the_fields_it_reads_and_its_literal_bound(
    token_counter: TokenCounter,
) -> None:
    """Static facts of the code: fields read (schema names) and the literal tail bound."""
    code = (
        "recent = conversation_history[-5:]\n"
        "result = [r['method_name'] for r in recent if r['outcome_summary']['ok']]\n"
    )
    with capture_spans() as spans:
        recorder = Recorder("s1", history=history_of(8), token_counter=token_counter)
        with recorder.call("recap", role="assistant", code=code) as call:
            recent = call.view[-5:]
            [r["method_name"] for r in recent]
    (span,) = spans.calls()
    attrs = span.attributes or {}
    assert tuple(attrs[sc.HISTORY_FIELDS_READ]) == (
        "method_name",
        "outcome_summary",
        "outcome_summary.ok",
    )
    assert attrs[sc.HISTORY_STATIC_DEPTH] == 5
    assert attrs[sc.HISTORY_READ_DEPTH] == 5

"""Structured conversation history: records, container, retention, JSON round-trip."""

from __future__ import annotations

import copy
import json
import socket
import time
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recurscope.instrumentation import (
    UNSERIALIZABLE_MARKER,
    FrozenRecord,
    History,
    HistoryRecord,
    Retention,
    TokenCounter,
)


def make(i: int, speaker: str = "agent", **extra: object) -> HistoryRecord:
    return HistoryRecord.create(
        call_id=f"c{i}",
        speaker=speaker,
        method_name="add",
        args=[i],
        kwargs={"k": i},
        outcome_summary={"ok": True},
        **extra,  # type: ignore[arg-type]
    )


class TestRecord:
    def test_v1_and_runtime_fields_round_trip(self) -> None:
        """A record keeps the V1 fields and the runtime's additions through to_dict/from_dict."""
        record = make(1, trace_id="t1", parent_call_id="c0", depth=1, duration_ms=2.5)
        data = record.to_dict()
        assert list(data)[:7] == [
            "call_id",
            "timestamp",
            "speaker",
            "method_name",
            "args",
            "kwargs",
            "outcome_summary",
        ]
        assert data["depth"] == 1 and data["trace_id"] == "t1" and data["duration_ms"] == 2.5
        assert HistoryRecord.from_dict(data) == record

    def test_unknown_additive_fields_are_kept(self) -> None:
        """Fields the schema does not know survive a round trip instead of being rejected."""
        data = make(1).to_dict() | {"content_store_ref": "ref-9", "tags": ["a"]}
        record = HistoryRecord.from_dict(data)
        assert record.extra == {"content_store_ref": "ref-9", "tags": ["a"]}
        assert record.to_dict()["content_store_ref"] == "ref-9"

    def test_invalid_speaker_names_the_allowed_values(self) -> None:
        """An invalid speaker raises ValueError listing user, agent and tool."""
        with pytest.raises(ValueError, match="user, agent, tool"):
            make(1, speaker="assistant")

    def test_non_serializable_payloads_are_stringified_with_a_marker(self) -> None:
        """A socket, a function or a NaN never enters a record as such."""
        sock = socket.socket()
        try:
            record = HistoryRecord.create(
                call_id="c",
                speaker="tool",
                method_name="fetch",
                args=[sock, float("nan")],
                kwargs={"cb": print},
                outcome_summary=object(),
            )
        finally:
            sock.close()
        text = record.to_json()
        json.loads(text)
        assert record.args[0].startswith(UNSERIALIZABLE_MARKER + "socket>")
        assert record.args[1].startswith(UNSERIALIZABLE_MARKER + "float>")
        assert record.kwargs["cb"].startswith(UNSERIALIZABLE_MARKER)
        assert record.outcome_summary["value"].startswith(UNSERIALIZABLE_MARKER)  # type: ignore[index]

    def test_missing_required_fields_say_which(self) -> None:
        """from_dict names the missing fields."""
        with pytest.raises(ValueError, match="call_id"):
            HistoryRecord.from_dict({"speaker": "user", "method_name": "ask"})


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=10,
)


@given(
    args=st.lists(json_values, max_size=4),
    kwargs=st.dictionaries(st.text(max_size=8), json_values, max_size=4),
)
def test_json_round_trip_is_lossless_for_plain_data(
    args: list[object], kwargs: dict[str, object]
) -> None:
    """Any JSON-ready payload survives History.to_json/from_json unchanged."""
    history = History()
    history.record(call_id="c1", speaker="user", method_name="ask", args=args, kwargs=kwargs)
    again = History.from_json(history.to_json())
    assert again.records() == history.records()


class TestHistory:
    def test_items_are_read_only_dicts(self) -> None:
        """Generated code reads records as dicts and cannot change them."""
        history = History([make(1)])
        record = history[0]
        assert isinstance(record, dict) and isinstance(record, FrozenRecord)
        assert record["speaker"] == "agent"
        with pytest.raises(TypeError, match="read-only"):
            record["speaker"] = "user"  # type: ignore[index]
        with pytest.raises(TypeError):
            record["kwargs"]["k"] = 5
        assert json.loads(json.dumps(record))["call_id"] == "c1"
        assert copy.deepcopy(record) == history.records()[0]
        assert type(copy.deepcopy(record)) is dict

    def test_records_are_plain_mutable_copies(self) -> None:
        """records() hands out plain dicts whose mutation does not touch the history."""
        history = History([make(1)])
        copy = history.records()
        copy[0]["speaker"] = "user"
        assert history[0]["speaker"] == "agent"

    def test_from_json_rejects_non_arrays_with_advice(self) -> None:
        """A JSON object instead of an array is refused with what to pass."""
        with pytest.raises(ValueError, match="array of records"):
            History.from_json("{}")


class TestRetention:
    def test_count_bound_evicts_oldest_and_counts(self) -> None:
        """max_records keeps the newest N and counts evictions once per take."""
        history = History(retention=Retention(max_records=3))
        for i in range(5):
            history.append(make(i))
        assert [r["call_id"] for r in history] == ["c2", "c3", "c4"]
        assert history.take_evictions() == 2
        assert history.take_evictions() == 0
        assert history.retention.kind == "count"

    def test_token_bound_keeps_newest_that_fit(self) -> None:
        """max_tokens keeps the newest records whose JSON footprint fits."""
        counter = TokenCounter("bytes")
        size = counter.count(make(0).to_json())
        history = History(retention=Retention(max_tokens=size * 2 + 1, counter=counter))
        for i in range(4):
            history.append(make(i))
        assert [r["call_id"] for r in history] == ["c2", "c3"]
        assert history.evicted_total == 2

    def test_window_bound_drops_old_records(self) -> None:
        """window evicts records appended longer ago than the window."""
        history = History(retention=Retention(window=timedelta(milliseconds=50)))
        history.append(make(0))
        time.sleep(0.08)
        history.append(make(1))
        assert [r["call_id"] for r in history] == ["c1"]
        assert history.retention.kind == "window"

    def test_invalid_bounds_are_refused(self) -> None:
        """Negative counts and empty windows are configuration errors."""
        with pytest.raises(ValueError, match="max_records"):
            Retention(max_records=-1)
        with pytest.raises(ValueError, match="window"):
            Retention(window=timedelta(0))

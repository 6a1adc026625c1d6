"""Shared machinery of the native formats: times, object splitting, and fuzzing every decoder."""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recurscope.pipeline.decode.formats import ReadContext, get_format
from recurscope.pipeline.decode.formats._native import Malformed, iter_json_objects, parse_time_ns
from recurscope.pipeline.records import (
    DEFAULT_LIMITS,
    Checkpoint,
    DecodeLimits,
    Reason,
    Rejection,
    SpanRow,
)

NATIVE_FORMATS = ("recurgent_jsonl", "otel_python_console", "otel_go_stdouttrace")


def stream(data: bytes) -> io.BufferedReader:
    return io.BufferedReader(io.BytesIO(data))


class TestTimes:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("2026-02-15T04:55:25.232Z", 1771131325_232_000_000),
            ("2026-02-15T04:55:25.232123Z", 1771131325_232_123_000),
            ("2026-02-15T05:55:25.232123456+01:00", 1771131325_232_123_456),
            ("2026-02-15T04:55:25Z", 1771131325_000_000_000),
            ("2026-02-15 04:55:25.5", 1771131325_500_000_000),  # no offset: UTC
            ("2026-02-15T04:55:25.1234567891234Z", 1771131325_123_456_789),  # extra digits cut
        ],
    )
    def test_parses_with_every_digit(self, text: str, expected: int) -> None:
        """ISO 8601 / RFC 3339 times keep all nanosecond digits and honour offsets."""
        assert parse_time_ns(text, "t") == expected

    @pytest.mark.parametrize(
        ("value", "reason"),
        [
            (None, Reason.MISSING_TIMESTAMP),
            (17, Reason.WRONG_TYPE),
            ("yesterday", Reason.INVALID_VALUE),
            ("2026-02-30T00:00:00Z", Reason.INVALID_VALUE),
            ("1969-12-31T23:59:59Z", Reason.TIMESTAMP_OUT_OF_RANGE),
        ],
    )
    def test_rejects_with_a_reason(self, value: Any, reason: Reason) -> None:
        """Bad times raise Malformed carrying the quarantine reason."""
        with pytest.raises(Malformed) as caught:
            parse_time_ns(value, "t")
        assert caught.value.reason == reason


class TestObjectSplitting:
    def split(self, data: bytes, **limits: int) -> list[Any]:
        ctx = ReadContext(source="s", limits=DecodeLimits(**limits) if limits else DEFAULT_LIMITS)
        return list(iter_json_objects(stream(data), ctx))

    def test_braces_inside_strings(self) -> None:
        """Braces and escaped quotes inside strings do not end an object."""
        data = b'{"a": "}{\\"}"}\n{"b": {"c": "{"}}\n'
        units = [u for u in self.split(data) if isinstance(u, tuple)]
        assert [json.loads(u[0]) for u in units] == [{"a": '}{"}'}, {"b": {"c": "{"}}]
        assert [u[1].line for u in units] == [1, 2]

    def test_positions_of_pretty_objects(self) -> None:
        """Each object's line and byte offset are where it starts."""
        first = json.dumps({"x": 1}, indent=4).encode()
        data = first + b"\n\n" + json.dumps({"y": 2}, indent=4).encode() + b"\n"
        units = [u for u in self.split(data) if isinstance(u, tuple)]
        assert [(u[1].line, u[1].byte_offset) for u in units] == [
            (1, 0),
            (first.count(b"\n") + 3, len(first) + 2),
        ]

    def test_checkpoints_hash_exactly_what_was_read(self) -> None:
        """A resumable read yields checkpoints whose hash covers bytes [0, offset)."""
        data = b'{"a": 1}\n  {"b": 2}\n'
        ctx = ReadContext(
            source="s", limits=DEFAULT_LIMITS, resumable=True, prefix_hash=hashlib.sha256()
        )
        marks = []
        for item in iter_json_objects(stream(data), ctx):
            if isinstance(item, Checkpoint):
                marks.append((item.offset, item.line, item.prefix_hash.hexdigest()))
        assert marks == [
            (8, 0, hashlib.sha256(data[:8]).hexdigest()),
            (19, 1, hashlib.sha256(data[:19]).hexdigest()),
        ]

    def test_text_between_objects_needs_a_line_start(self) -> None:
        """A brace inside a log line does not open an object; the line is one rejection."""
        data = b'log: value={"a":1}\n{"b": 2}\n'
        items = self.split(data)
        assert isinstance(items[0], Rejection) and items[0].reason == Reason.INVALID_JSON
        assert [json.loads(u[0]) for u in items if isinstance(u, tuple)] == [{"b": 2}]


# --------------------------------------------------------------------------
# Fuzzing: any input yields rows, rejections and checkpoints, never an exception.

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)

RECURGENT_KEYS = [
    "timestamp", "role", "method", "trace_id", "call_id", "parent_call_id", "depth",
    "duration_ms", "code", "args", "kwargs", "attempt_failures", "history_query_patterns",
    "conversation_history_size", "history_access_detected", "outcome_status", "session_id",
]  # fmt: skip
PYTHON_KEYS = [
    "name", "context", "kind", "parent_id", "start_time", "end_time", "status",
    "attributes", "events", "links", "resource",
]  # fmt: skip
GO_KEYS = [
    "Name", "SpanContext", "Parent", "SpanKind", "StartTime", "EndTime", "Attributes",
    "Events", "Links", "Status", "Resource", "InstrumentationScope",
]  # fmt: skip


def drain(fmt: str, data: bytes, limits: DecodeLimits = DEFAULT_LIMITS) -> list[object]:
    ctx = ReadContext(source="/fuzz/log.jsonl", limits=limits)
    items = list(get_format(fmt).read(stream(data), ctx))
    assert all(isinstance(i, SpanRow | Rejection | Checkpoint) for i in items)
    return items


@pytest.mark.parametrize("fmt", NATIVE_FORMATS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=600))
def test_any_bytes_never_raise(fmt: str, data: bytes) -> None:
    """Arbitrary bytes decode to rows and rejections; nothing else escapes."""
    drain(fmt, data)
    drain(fmt, data, DecodeLimits(max_record_bytes=64, max_nesting_depth=3))


def _objects(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(keys), json_values, max_size=len(keys))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.lists(_objects(RECURGENT_KEYS), max_size=4))
def test_recurgent_shaped_entries_never_raise(entries: list[dict[str, Any]]) -> None:
    """Entries with the right keys and any values are converted or quarantined."""
    data = b"".join(json.dumps(e).encode() + b"\n" for e in entries)
    items = drain("recurgent_jsonl", data)
    assert len([i for i in items if not isinstance(i, Checkpoint)]) == len(entries)


@pytest.mark.parametrize(
    ("fmt", "keys"), [("otel_python_console", PYTHON_KEYS), ("otel_go_stdouttrace", GO_KEYS)]
)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(objects=st.lists(st.data(), max_size=1))
def test_console_shaped_objects_never_raise(fmt: str, keys: list[str], objects: list[Any]) -> None:
    """Objects with the exporters' keys and any values are converted or quarantined."""
    for data in objects:
        obj = data.draw(_objects(keys))
        items = drain(fmt, json.dumps(obj, indent=4).encode() + b"\n")
        assert len([i for i in items if not isinstance(i, Checkpoint)]) == 1


def _valid_objects() -> dict[str, dict[str, Any]]:
    """One valid record per format: the starting point of the mutation fuzz."""
    from pathlib import Path

    fixtures = Path(__file__).parent / "fixtures"
    recurgent = json.loads(
        (fixtures / "recurgent" / "delegation.jsonl").read_text().splitlines()[-1]
    )
    go = json.loads(
        (fixtures / "console" / "go_stdouttrace_compact.jsonl").read_text().splitlines()[0]
    )
    python = {
        "name": "s",
        "context": {"trace_id": "0x" + "ab" * 16, "span_id": "0x" + "cd" * 8, "trace_state": "[]"},
        "kind": "SpanKind.INTERNAL",
        "parent_id": None,
        "start_time": "2026-01-01T00:00:00.000001Z",
        "end_time": "2026-01-01T00:00:01.000001Z",
        "status": {"status_code": "UNSET"},
        "attributes": {"a": [1, 2]},
        "events": [{"name": "e", "timestamp": "2026-01-01T00:00:00.5Z", "attributes": {}}],
        "links": [],
        "resource": {"attributes": {"service.name": "x"}, "schema_url": ""},
    }
    return {"recurgent_jsonl": recurgent, "otel_go_stdouttrace": go, "otel_python_console": python}


VALID = _valid_objects()


def _mutate(obj: Any, path: list[int], value: Any) -> Any:
    """Replace the node that ``path`` picks (indices into keys/items, wrapping) by ``value``."""
    if not path or not isinstance(obj, dict | list) or not obj:
        return value
    if isinstance(obj, dict):
        key = list(obj)[path[0] % len(obj)]
        return {**obj, key: _mutate(obj[key], path[1:], value)}
    index = path[0] % len(obj)
    return [*obj[:index], _mutate(obj[index], path[1:], value), *obj[index + 1 :]]


@pytest.mark.parametrize("fmt", NATIVE_FORMATS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    path=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=4), value=json_values
)
def test_mutated_valid_records_never_raise(fmt: str, path: list[int], value: Any) -> None:
    """A valid record with any one node replaced by any JSON value converts or is quarantined."""
    mutated = _mutate(VALID[fmt], path, value)
    items = drain(fmt, json.dumps(mutated).encode() + b"\n")
    assert len([i for i in items if not isinstance(i, Checkpoint)]) == 1

"""Span rows into Arrow tables for the store, and the checks a row must pass to be stored."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

import pyarrow as pa

from ..records import MAX_TIMESTAMP_NS, DecodeLimits, Reason, Rejection, SpanRow

_HEX32: Final = re.compile(r"[0-9a-f]{32}")


_HEX16: Final = re.compile(r"[0-9a-f]{16}")


_ARROW_TS: Final = pa.timestamp("ns")


class _MapColumn:
    """Builds a ``MAP(VARCHAR, VARCHAR)`` Arrow column from offsets, keys and values.

    Much faster than converting Python dicts one by one, and most maps are
    shared (every span of a resource has the same resource attributes).
    """

    __slots__ = ("keys", "offsets", "values")

    def __init__(self) -> None:
        self.offsets = [0]
        self.keys: list[str] = []
        self.values: list[str] = []

    def add(self, mapping: Mapping[str, str]) -> None:
        if mapping:
            self.keys.extend(mapping.keys())
            self.values.extend(mapping.values())
        self.offsets.append(len(self.keys))

    def array(self) -> pa.Array:
        return pa.MapArray.from_arrays(
            pa.array(self.offsets, pa.int32()),
            pa.array(self.keys, pa.string()),
            pa.array(self.values, pa.string()),
        )


def _shared_map_array(maps: list[Mapping[str, str]]) -> pa.Array:
    """A MAP column of maps shared by many rows, dictionary-encoded by object identity.

    Every span of a resource (and scope) carries the *same* attribute map
    object, so each distinct map is converted once per batch. It also saves
    DuckDB's work: it checks every map it receives for duplicate keys, about
    half a microsecond per entry, and a dictionary is checked once, not per row.
    The rows keep the maps alive, so ``id`` cannot be reused during the call.
    """
    index: dict[int, int] = {}
    unique = _MapColumn()
    indices: list[int] = []
    for mapping in maps:
        number = index.get(id(mapping))
        if number is None:
            number = index[id(mapping)] = len(index)
            unique.add(mapping)
        indices.append(number)
    return pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), unique.array())


def _map_array(maps: list[Mapping[str, str]]) -> pa.Array:
    """A MAP column of per-row maps, built from offsets, keys and values in C loops."""
    offsets = [0, *itertools.accumulate(map(len, maps))]
    return pa.MapArray.from_arrays(
        pa.array(offsets, pa.int32()),
        pa.array(list(itertools.chain.from_iterable(maps)), pa.string()),
        pa.array(list(itertools.chain.from_iterable(m.values() for m in maps)), pa.string()),
    )


def _spans_table(rows: Sequence[SpanRow]) -> pa.Table:
    event_offsets = [0]
    event_times: list[int] = []
    event_names: list[str] = []
    event_attributes = _MapColumn()
    link_offsets = [0]
    link_trace_ids: list[str] = []
    link_span_ids: list[str] = []
    link_states: list[str] = []
    link_attributes = _MapColumn()
    for row in rows:
        if row.events:
            for event in row.events:
                event_times.append(event.time_unix_nano)
                event_names.append(event.name)
                event_attributes.add(event.attributes)
        event_offsets.append(len(event_times))
        if row.links:
            for link in row.links:
                link_trace_ids.append(link.trace_id)
                link_span_ids.append(link.span_id)
                link_states.append(link.trace_state)
                link_attributes.add(link.attributes)
        link_offsets.append(len(link_trace_ids))
    events = pa.ListArray.from_arrays(
        pa.array(event_offsets, pa.int32()),
        pa.StructArray.from_arrays(
            [
                pa.array(event_times, _ARROW_TS),
                pa.array(event_names, pa.string()),
                event_attributes.array(),
            ],
            names=["Timestamp", "Name", "Attributes"],
        ),
    )
    links = pa.ListArray.from_arrays(
        pa.array(link_offsets, pa.int32()),
        pa.StructArray.from_arrays(
            [
                pa.array(link_trace_ids, pa.string()),
                pa.array(link_span_ids, pa.string()),
                pa.array(link_states, pa.string()),
                link_attributes.array(),
            ],
            names=["TraceId", "SpanId", "TraceState", "Attributes"],
        ),
    )
    return pa.table(
        {
            "Timestamp": pa.array([r.start_time_unix_nano for r in rows], _ARROW_TS),
            "TraceId": pa.array([r.trace_id for r in rows], pa.string()),
            "SpanId": pa.array([r.span_id for r in rows], pa.string()),
            "ParentSpanId": pa.array([r.parent_span_id for r in rows], pa.string()),
            "TraceState": pa.array([r.trace_state for r in rows], pa.string()),
            "SpanName": pa.array([r.name for r in rows], pa.string()),
            "SpanKind": pa.array([r.kind for r in rows], pa.string()),
            "ServiceName": pa.array([r.service_name for r in rows], pa.string()),
            "ResourceAttributes": _shared_map_array([r.resource_attributes for r in rows]),
            "ScopeName": pa.array([r.scope_name for r in rows], pa.string()),
            "ScopeVersion": pa.array([r.scope_version for r in rows], pa.string()),
            "SpanAttributes": _map_array([r.attributes for r in rows]),
            "Duration": pa.array(
                [r.end_time_unix_nano - r.start_time_unix_nano for r in rows], pa.int64()
            ),
            "StatusCode": pa.array([r.status_code for r in rows], pa.string()),
            "StatusMessage": pa.array([r.status_message for r in rows], pa.string()),
            "Events": events,
            "Links": links,
            "ScopeAttributes": _shared_map_array([r.scope_attributes for r in rows]),
        }
    )


def safe_text(text: str) -> str:
    """Text DuckDB can store: lone surrogates (from JSON escapes, odd file names) escaped."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _excerpt_text(excerpt: bytes | str, limit: int) -> str:
    if isinstance(excerpt, bytes):
        return excerpt[:limit].decode("utf-8", "backslashreplace")
    return safe_text(excerpt[:limit])


def quarantine_table(
    rejections: Sequence[Rejection], ingest_id: int, source: str, limits: DecodeLimits
) -> pa.Table:
    now = datetime.now(UTC).replace(tzinfo=None)
    n = len(rejections)
    return pa.table(
        {
            "IngestId": pa.array([ingest_id] * n, pa.int64()),
            "Source": pa.array([source] * n, pa.string()),
            "Line": pa.array([r.position.line for r in rejections], pa.int64()),
            "ByteOffset": pa.array([r.position.byte_offset for r in rejections], pa.int64()),
            "SpanIndex": pa.array([r.position.span_index for r in rejections], pa.int64()),
            "Reason": pa.array([str(r.reason) for r in rejections], pa.string()),
            "Detail": pa.array([safe_text(r.detail) for r in rejections], pa.string()),
            "TraceId": pa.array([safe_text(r.trace_id)[:64] for r in rejections], pa.string()),
            "SpanId": pa.array([safe_text(r.span_id)[:64] for r in rejections], pa.string()),
            "Excerpt": pa.array(
                [_excerpt_text(r.excerpt, limits.excerpt_bytes) for r in rejections], pa.string()
            ),
            "QuarantinedAt": pa.array([now] * n, pa.timestamp("us")),
        }
    )


@dataclass(frozen=True, slots=True)
class PreparedRows:
    """A batch's rows made ready to insert: checked, deduplicated, as Arrow columns.

    Built by :func:`prepare_rows` without touching the database, so it can
    be done in another process (see :mod:`recurscope.pipeline.ingest.parallel`).
    """

    table: pa.Table | None
    """The storable rows, first of each (TraceId, SpanId) only; ``None`` if there are none."""
    problems: tuple[Rejection, ...]
    """Rows the table cannot hold unaltered (see :func:`check_row`), to quarantine."""
    checked: int
    """Rows that passed :func:`check_row`: accepted + duplicates + unstorable."""
    unstorable: int = 0
    """Of ``checked``, rows with text DuckDB cannot store (quarantined too)."""


def prepare_rows(rows: Sequence[SpanRow]) -> PreparedRows:
    """Check ``rows``, drop repeats within them, and build the Arrow table to insert."""
    good: list[SpanRow] = []
    problems: list[Rejection] = []
    for row in rows:
        problem = check_row(row)
        if problem is None:
            good.append(row)
        else:
            problems.append(problem)
    checked = len(good)
    if not good:
        return PreparedRows(None, tuple(problems), 0)
    # Identity is (TraceId, SpanId): the first of a repeated span wins.
    # Deduplicating here is far cheaper than a window function in SQL.
    unique: dict[tuple[str, str], SpanRow] = {}
    for span in good:
        unique.setdefault((span.trace_id, span.span_id), span)
    if len(unique) != len(good):
        good = list(unique.values())
    try:
        return PreparedRows(_spans_table(good), tuple(problems), checked)
    except (UnicodeEncodeError, pa.ArrowException):
        # Only rows built outside our decoders can get here (they check
        # text); keep the good ones and quarantine the unstorable.
        good, unstorable = _split_unstorable(good)
        table = _spans_table(good) if good else None
        return PreparedRows(table, (*problems, *unstorable), checked, len(unstorable))


def check_row(row: SpanRow) -> Rejection | None:
    """Why ``otel_traces`` cannot hold ``row`` unaltered, or ``None`` if it can.

    Nothing is clamped or rewritten: a span the table cannot represent goes
    to quarantine whole, with the reason.
    """
    reason: Reason | None = None
    detail = ""
    start, end = row.start_time_unix_nano, row.end_time_unix_nano
    if not _HEX32.fullmatch(row.trace_id) or not _HEX16.fullmatch(row.span_id):
        reason, detail = (
            Reason.INVALID_ID,
            "trace/span id is not lower-case hex of the right length",
        )
    elif row.parent_span_id and not _HEX16.fullmatch(row.parent_span_id):
        reason, detail = Reason.INVALID_ID, "parentSpanId is not 16 lower-case hex digits"
    elif start == 0 or end == 0:
        which = "start" if start == 0 else "end"
        reason, detail = Reason.MISSING_TIMESTAMP, f"the span's {which} time is missing (zero)"
    elif start > MAX_TIMESTAMP_NS or end > MAX_TIMESTAMP_NS or start < 0 or end < 0:
        reason = Reason.TIMESTAMP_OUT_OF_RANGE
        detail = (
            f"start {start} / end {end} ns is outside what TIMESTAMP_NS holds "
            f"(0..{MAX_TIMESTAMP_NS}, up to 2262-04-11)"
        )
    elif end < start:
        reason = Reason.NEGATIVE_DURATION
        detail = f"the span ends {start - end} ns before it starts"
    else:
        for event in row.events:
            if not 0 <= event.time_unix_nano <= MAX_TIMESTAMP_NS:
                reason = Reason.TIMESTAMP_OUT_OF_RANGE
                detail = f"event {event.name!r} time {event.time_unix_nano} is out of range"
                break
    if reason is None:
        return None
    import json

    return Rejection(
        reason,
        detail,
        json.dumps(row.as_json_dict(), ensure_ascii=False),
        row.position,
        trace_id=row.trace_id,
        span_id=row.span_id,
    )


def _split_unstorable(rows: list[SpanRow]) -> tuple[list[SpanRow], list[Rejection]]:
    from ..decode.otlp import row_has_lone_surrogate

    good: list[SpanRow] = []
    bad: list[Rejection] = []
    for row in rows:
        if row_has_lone_surrogate(row):
            bad.append(
                Rejection(
                    Reason.INVALID_UTF8,
                    "a string holds a lone UTF-16 surrogate, which is not valid Unicode text",
                    "",
                    row.position,
                    trace_id=row.trace_id,
                    span_id=row.span_id,
                )
            )
        else:
            good.append(row)
    return good, bad

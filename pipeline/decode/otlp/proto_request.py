"""OTLP protobuf requests to rows, and the span count read from the wire without parsing."""

from __future__ import annotations

import base64
import binascii
import contextlib
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from google.protobuf.message import DecodeError, Message
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, InstrumentationScope, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from ...records import (
    DEFAULT_LIMITS,
    EMPTY_ATTRIBUTES,
    DecodeLimits,
    EventRow,
    LinkRow,
    Position,
    Reason,
    Rejection,
    SpanRow,
)
from .values import (
    SPAN_KIND_NAMES,
    STATUS_CODE_NAMES,
    BadValue,
    Item,
    ScopeInfo,
    composite_as_string,
    excerpt_json,
    format_double,
    too_large,
    too_many_spans,
)


class _ProtoValues:
    __slots__ = ("cap", "depth", "has_double", "limits")

    def __init__(self, limits: DecodeLimits) -> None:
        self.limits = limits
        self.cap = limits.max_attribute_bytes
        self.depth = limits.max_nesting_depth
        self.has_double = False

    def as_string(self, value: AnyValue, key: str) -> tuple[str, bool]:
        which = value.WhichOneof("value")
        is_str = False
        if which == "string_value":
            text, is_str = value.string_value, True
        elif which == "int_value":
            text = str(value.int_value)
        elif which == "bool_value":
            text = "true" if value.bool_value else "false"
        elif which == "double_value":
            text = format_double(value.double_value)
        elif which == "bytes_value":
            text = base64.b64encode(value.bytes_value).decode("ascii")
        elif which in ("array_value", "kvlist_value"):
            self.has_double = False
            raw = self._raw(value, key, 0)
            text = composite_as_string(raw, self.has_double)
        else:
            return "", False
        if len(text) * 4 > self.cap:
            bad = too_large(text, self.limits, key)
            if bad is not None:
                raise bad
        return text, is_str

    def _raw(self, value: AnyValue, key: str, depth: int) -> object:
        which = value.WhichOneof("value")
        if which == "string_value":
            return value.string_value
        if which == "int_value":
            return value.int_value
        if which == "bool_value":
            return value.bool_value
        if which == "double_value":
            self.has_double = True
            return value.double_value
        if which == "bytes_value":
            return base64.b64encode(value.bytes_value).decode("ascii")
        if which is None:
            return None
        if depth >= self.depth:
            raise BadValue(
                Reason.TOO_DEEPLY_NESTED,
                f"attribute {key!r} nests deeper than {self.depth} levels",
            )
        if which == "array_value":
            return [self._raw(item, key, depth + 1) for item in value.array_value.values]
        return {kv.key: self._raw(kv.value, key, depth + 1) for kv in value.kvlist_value.values}

    def attributes(self, items: Sequence[KeyValue]) -> tuple[Mapping[str, str], str]:
        if not items:
            return EMPTY_ATTRIBUTES, ""
        result: dict[str, str] = {}
        service_name: str | None = None
        for kv in items:
            key = kv.key
            text, is_str = self.as_string(kv.value, key)
            result[key] = text
            if key == "service.name" and service_name is None:
                service_name = text if is_str else ""
        return result, service_name or ""


def _proto_id(raw: bytes, size: int, what: str, *, required: bool) -> str:
    if not raw:
        if required:
            raise BadValue(Reason.INVALID_ID, f"{what} is missing")
        return ""
    if len(raw) != size:
        raise BadValue(Reason.INVALID_ID, f"{what} is {len(raw)} bytes, not {size}")
    if raw.count(0) == size:
        if required:
            raise BadValue(Reason.INVALID_ID, f"{what} is all zero (an invalid id)")
        return ""
    return raw.hex()


def _proto_excerpt(message: Any, limit: int) -> str:
    """A readable excerpt of a protobuf span, with ids as hex (not base64)."""
    from google.protobuf import json_format

    try:
        data = json_format.MessageToDict(message)
    except Exception:  # an excerpt must never turn a rejection into a crash
        return repr(message)[: limit * 2]

    def fix(obj: Any) -> Any:
        if isinstance(obj, dict):
            fixed = {}
            for key, value in obj.items():
                if key in ("traceId", "spanId", "parentSpanId") and isinstance(value, str):
                    with contextlib.suppress(binascii.Error, ValueError):
                        value = base64.b64decode(value).hex()
                fixed[key] = fix(value)
            return fixed
        if isinstance(obj, list):
            return [fix(item) for item in obj]
        return obj

    return excerpt_json(fix(data), limit)


def iter_proto_request(
    request: ExportTraceServiceRequest,
    *,
    limits: DecodeLimits = DEFAULT_LIMITS,
    byte_offset: int | None = None,
) -> Iterator[Item]:
    """Yield a row or a rejection for every span of a decoded protobuf request."""
    return _iter_proto(request, limits=limits, byte_offset=byte_offset, lenient=False)


def _iter_proto(
    request: Any, *, limits: DecodeLimits, byte_offset: int | None, lenient: bool
) -> Iterator[Item]:
    """:func:`iter_proto_request` over a strict request, or a :func:`_lenient_classes` one.

    A lenient request holds its strings as bytes: each resource, scope and
    span is checked for UTF-8 and turned into its OTLP message on its own,
    so invalid text quarantines only what holds it.
    """
    values = _ProtoValues(limits)
    span_index = 0
    for rs in request.resource_spans:
        resource_error: BadValue | None = None
        resource_attributes: Mapping[str, str] = EMPTY_ATTRIBUTES
        service_name = ""
        resource = rs.resource
        if lenient:
            resource, problem = _strict_message(resource, Resource)
            if problem is not None:
                resource_error = BadValue(Reason.INVALID_UTF8, f"resource: {problem}")
        if resource_error is None:
            try:
                resource_attributes, service_name = values.attributes(resource.attributes)
            except BadValue as bad:
                resource_error = BadValue(bad.reason, "resource: " + bad.detail)
        for ss in rs.scope_spans:
            scope_error = resource_error
            scope: ScopeInfo | None = None
            scope_message = ss.scope
            if lenient and scope_error is None:
                scope_message, problem = _strict_message(scope_message, InstrumentationScope)
                if problem is not None:
                    scope_error = BadValue(Reason.INVALID_UTF8, f"scope: {problem}")
            if scope_error is None:
                try:
                    scope_attributes, _ = values.attributes(scope_message.attributes)
                    scope = ScopeInfo(
                        resource_attributes,
                        service_name,
                        scope_message.name,
                        scope_message.version,
                        scope_attributes,
                    )
                except BadValue as bad:
                    scope_error = BadValue(bad.reason, "scope: " + bad.detail)
            for span in ss.spans:
                position = Position(byte_offset=byte_offset, span_index=span_index)
                span_index += 1
                problem = None
                if lenient:
                    span, problem = _strict_message(span, Span)
                try:
                    if scope_error is not None:
                        raise scope_error
                    if problem is not None:
                        raise BadValue(Reason.INVALID_UTF8, problem)
                    assert scope is not None
                    yield _proto_span(span, scope, values, position)
                except BadValue as bad:
                    yield Rejection(
                        bad.reason,
                        bad.detail,
                        _proto_excerpt(span, limits.excerpt_bytes),
                        position,
                        trace_id=span.trace_id.hex() if len(span.trace_id) == 16 else "",
                        span_id=span.span_id.hex() if len(span.span_id) == 8 else "",
                    )


@dataclass(frozen=True, slots=True)
class _Lenient:
    """``ExportTraceServiceRequest`` with ``bytes`` for ``string``, and which fields those are."""

    request: Callable[[], Message]
    string_fields: frozenset[str]
    """Full names (``opentelemetry.proto.trace.v1.Span.name``) of the OTLP string fields."""


@functools.cache
def _lenient_classes() -> _Lenient:
    """Built on first use: only a request with invalid UTF-8 ever needs it."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    string_fields: set[str] = set()
    added: set[str] = set()

    def relax(messages: Any, scope: str) -> None:
        for message in messages:
            name = f"{scope}.{message.name}" if scope else message.name
            for field in message.field:
                if field.type == descriptor_pb2.FieldDescriptorProto.TYPE_STRING:
                    field.type = descriptor_pb2.FieldDescriptorProto.TYPE_BYTES
                    string_fields.add(f"{name}.{field.name}")
            relax(message.nested_type, name)

    def add(file: Any) -> None:
        if file.name in added:
            return
        for dependency in file.dependencies:
            add(dependency)
        proto = descriptor_pb2.FileDescriptorProto()
        file.CopyToProto(proto)
        relax(proto.message_type, proto.package)
        pool.AddSerializedFile(proto.SerializeToString())
        added.add(file.name)

    add(ExportTraceServiceRequest.DESCRIPTOR.file)
    descriptor = pool.FindMessageTypeByName(ExportTraceServiceRequest.DESCRIPTOR.full_name)
    return _Lenient(message_factory.GetMessageClass(descriptor), frozenset(string_fields))


_M = TypeVar("_M", bound=Message)


def _strict_message(lenient: Any, kind: type[_M]) -> tuple[_M, str | None]:
    """A lenient message as its OTLP ``kind``, and where its first invalid UTF-8 text is.

    Invalid text is replaced by ``\\xNN`` escapes in the returned message,
    which only serves as the quarantine excerpt then.
    """
    copy = type(lenient)()
    copy.CopyFrom(lenient)
    problem = _repair_text(copy, "", _lenient_classes().string_fields)
    return kind.FromString(copy.SerializeToString()), problem


def _is_repeated(field: Any) -> bool:
    """``is_repeated`` where the protobuf runtime has it (``label`` is gone in protobuf 7)."""
    repeated = getattr(field, "is_repeated", None)
    if repeated is None:
        return bool(field.label == field.LABEL_REPEATED)
    return bool(repeated)


def _item_label(item: Any, index: int) -> str:
    """An attribute (``KeyValue``) by its key when that is text, anything else by index."""
    if isinstance(item, Message) and item.DESCRIPTOR.full_name == KeyValue.DESCRIPTOR.full_name:
        with contextlib.suppress(UnicodeDecodeError):
            return repr(item.key.decode("utf-8"))
    return str(index)


def _repair_text(message: Any, path: str, string_fields: frozenset[str]) -> str | None:
    """Escape invalid UTF-8 in ``message``'s string fields in place; describe the first one."""
    first: str | None = None
    for field, value in message.ListFields():
        where = f"{path}.{field.name}" if path else field.name
        repeated = _is_repeated(field)
        items = list(value) if repeated else [value]
        for index, item in enumerate(items):
            at = f"{where}[{_item_label(item, index)}]" if repeated else where
            if field.full_name in string_fields:
                try:
                    item.decode("utf-8")
                except UnicodeDecodeError as error:
                    fixed = item.decode("utf-8", "backslashreplace").encode("utf-8")
                    if repeated:
                        value[index] = fixed
                    else:
                        setattr(message, field.name, fixed)
                    first = first or (
                        f"{at} is not UTF-8 text (byte {error.start}: {error.reason}), "
                        "as protobuf requires of a string"
                    )
            elif field.message_type is not None:
                found = _repair_text(item, at, string_fields)
                first = first or found
    return first


def _proto_span(span: Any, scope: ScopeInfo, values: _ProtoValues, position: Position) -> SpanRow:
    trace_id = _proto_id(span.trace_id, 16, "traceId", required=True)
    span_id = _proto_id(span.span_id, 8, "spanId", required=True)
    parent = _proto_id(span.parent_span_id, 8, "parentSpanId", required=False)
    attributes, _ = values.attributes(span.attributes)
    events = tuple(
        EventRow(event.time_unix_nano, event.name, values.attributes(event.attributes)[0])
        for event in span.events
    )
    links = tuple(
        LinkRow(
            _proto_id(link.trace_id, 16, "link traceId", required=False),
            _proto_id(link.span_id, 8, "link spanId", required=False),
            link.trace_state,
            values.attributes(link.attributes)[0],
        )
        for link in span.links
    )
    return SpanRow(
        trace_id=trace_id,
        span_id=span_id,
        parent_span_id=parent,
        name=span.name,
        kind=SPAN_KIND_NAMES.get(span.kind, ""),
        start_time_unix_nano=span.start_time_unix_nano,
        end_time_unix_nano=span.end_time_unix_nano,
        trace_state=span.trace_state,
        service_name=scope.service_name,
        resource_attributes=scope.resource_attributes,
        scope_name=scope.scope_name,
        scope_version=scope.scope_version,
        scope_attributes=scope.scope_attributes,
        attributes=attributes,
        status_code=STATUS_CODE_NAMES.get(span.status.code, ""),
        status_message=span.status.message,
        events=events,
        links=links,
        position=position,
    )


def decode_proto_bytes(
    data: bytes, *, limits: DecodeLimits = DEFAULT_LIMITS, byte_offset: int | None = None
) -> Iterator[Item]:
    """Rows and rejections from the bytes of one protobuf ``ExportTraceServiceRequest``."""
    position = Position(byte_offset=byte_offset)
    if len(data) > limits.max_record_bytes:
        yield Rejection(
            Reason.RECORD_TOO_LARGE,
            f"protobuf message is {len(data)} bytes, over the {limits.max_record_bytes}-byte "
            "cap (raise it with --max-record-bytes)",
            data[: limits.excerpt_bytes],
            position,
        )
        return
    if limits.max_request_spans is not None:
        # Counted on the wire first: an oversized request is refused before
        # its parsed message (about 2.4x its bytes) is ever built.
        wire_count = proto_span_count(data, stop_after=limits.max_request_spans)
        if wire_count is not None and wire_count > limits.max_request_spans:
            yield too_many_spans(wire_count, limits, data, at_least=True)
            return
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(data)
    except (DecodeError, RecursionError, ValueError) as error:
        # Perhaps only text that is not UTF-8: then only what holds it is bad.
        lenient = _lenient_classes().request()
        try:
            lenient.ParseFromString(data)
        except (DecodeError, RecursionError, ValueError):
            yield Rejection(
                Reason.INVALID_PROTOBUF,
                f"not an OTLP ExportTraceServiceRequest: {error}"[:300],
                data[: limits.excerpt_bytes],
                position,
            )
            return
        if (count := _over_span_cap(lenient, limits)) is not None:
            yield too_many_spans(count, limits, data)
            return
        yield from _iter_proto(lenient, limits=limits, byte_offset=byte_offset, lenient=True)
        return
    if (count := _over_span_cap(request, limits)) is not None:
        yield too_many_spans(count, limits, data)
        return
    yield from iter_proto_request(request, limits=limits, byte_offset=byte_offset)


def _over_span_cap(request: Any, limits: DecodeLimits) -> int | None:
    """The request's span count when it is over ``max_request_spans``, else ``None``."""
    if limits.max_request_spans is None:
        return None
    count = sum(len(scope.spans) for rs in request.resource_spans for scope in rs.scope_spans)
    return count if count > limits.max_request_spans else None


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    """The varint at ``at`` and the offset after it; ``IndexError``/``ValueError`` if malformed."""
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise ValueError("varint longer than 10 bytes")


def _length_delimited(data: bytes, start: int, end: int, field: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each length-delimited ``field`` between ``start`` and ``end``.

    Other fields are skipped by wire type; ``ValueError``/``IndexError`` on bytes
    that are not protobuf (the parser then says what is wrong).
    """
    at = start
    while at < end:
        key, at = _read_varint(data, at)
        wire_type = key & 7
        if wire_type == 0:
            _, at = _read_varint(data, at)
        elif wire_type == 1:
            at += 8
        elif wire_type == 5:
            at += 4
        elif wire_type == 2:
            length, at = _read_varint(data, at)
            if at + length > end:
                raise ValueError("field runs past its message")
            if key >> 3 == field:
                yield at, at + length
            at += length
        else:
            raise ValueError(f"wire type {wire_type}")
    if at != end:
        raise ValueError("field runs past its message")


def proto_span_count(data: bytes, *, stop_after: int | None = None) -> int | None:
    """Spans in a protobuf ``ExportTraceServiceRequest``, read from the wire without parsing.

    Walks ``resource_spans`` (1) → ``scope_spans`` (2) → ``spans`` (2) by
    their length prefixes, so it holds no message in memory. Stops once the
    count passes ``stop_after`` (the count returned is then ``stop_after + 1``);
    ``None`` when the bytes are not well-formed protobuf.
    """
    count = 0
    try:
        for rs_start, rs_end in _length_delimited(data, 0, len(data), 1):
            for ss_start, ss_end in _length_delimited(data, rs_start, rs_end, 2):
                for _ in _length_delimited(data, ss_start, ss_end, 2):
                    count += 1
                    if stop_after is not None and count > stop_after:
                        return count
    except (IndexError, ValueError):
        return None
    return count

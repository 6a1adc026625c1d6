"""``recurscope validate``: check spans from another runtime against the conventions.

A Ruby, Go or JS runtime that emits recurscope spans follows the registry
(``instrumentation/semconv_registry.json``). This command reads a file in any
format ``recurscope ingest`` reads and says, per ``recurscope.*`` span, what
breaks the contract:

- **missing** — a ``required`` attribute of that span name (plus the few
  conditional ones in :data:`CONDITIONAL_RULES`), or ``service.instance.id``
  on the resource;
- **mistyped** — the value kind differs from the registry type. OTLP says
  the kind explicitly (``stringValue``, ``intValue``, ``boolValue``,
  ``doubleValue``, ``arrayValue``), and the native formats are checked after
  conversion to OTLP, where the kind is just as explicit;
- **unknown** — a ``recurscope.`` attribute the registry does not define
  (probably a typo: the closest name is suggested), or a ``recurscope.``
  span name that is not one of the registry's spans;
- **vocabulary** — a value outside an enum-like attribute's allowed values
  (:data:`VOCABULARIES`, one place, tested against the registry's prose).

A registry attribute sent on a span kind it is not defined for is a warning
(``misplaced``), not a failure. Spans of other instrumentation in the same
file are counted and skipped. The exit status is non-zero when any span
fails or a record cannot be read.
"""

from __future__ import annotations

import base64
import difflib
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal, cast, get_args

from ...instrumentation import goals as _goals
from ...instrumentation import semconv as sc
from ...instrumentation import trim as _trim
from ...instrumentation.analysis import ALL_OPS
from ..errors import IngestError
from ..records import DEFAULT_LIMITS, Position, Reason, Rejection, SpanRow
from .formats import (
    Format,
    ReadContext,
    detect_format,
    format_names,
    get_format,
    otel_go_stdouttrace,
    otel_python_console,
    recurgent_jsonl,
)
from .formats._native import NativeItem, NativeUnit, parse_json
from .otlp import gunzip_bounded
from .sources import GZIP_MAGIC

__all__ = [
    "CONDITIONAL_RULES",
    "PATTERNS",
    "VOCABULARIES",
    "Problem",
    "SpanCheck",
    "ValidationReport",
    "registry",
    "validate_bytes",
    "validate_file",
    "validate_request",
]

ProblemKind = Literal["missing", "mistyped", "unknown", "vocabulary", "misplaced", "unreadable"]

WARNING_KINDS: Final = frozenset({"misplaced"})
"""Problem kinds reported without failing the span."""

_MAX_FILE_BYTES: Final = 512 * 1024 * 1024

# --------------------------------------------------------------------------
# The contract, in one place.

VOCABULARIES: Final[Mapping[str, frozenset[str]]] = {
    sc.GEN_AI_OPERATION_NAME: frozenset({"invoke_agent"}),
    sc.CALL_OUTCOME_STATUS: frozenset({"ok", "error"}),
    sc.HISTORY_RETENTION: frozenset({"none", "count", "tokens", "window"}),
    sc.HISTORY_DETECTION: frozenset({"runtime", "static", "both", "none"}),
    sc.HISTORY_OPS: ALL_OPS,
    sc.CODE_ANALYSIS: frozenset({"ast", "tokens", "textual", "failed"}),
    sc.TRIM_STRATEGY: frozenset(get_args(_trim.Strategy)),
    sc.TRIM_UNIT: frozenset({"tokens", "bytes"}),
    sc.TRIM_PHASE: frozenset(get_args(_trim.Phase)),
    sc.GOAL_REASON: frozenset(get_args(_goals.Reason)),
}
"""Closed value sets of enum-like attributes (each element of an array for ``ops``).

Phases, strategies and reasons come from the instrumentation's own
``Literal`` types and the ops from the analyser's ``ALL_OPS``, so the
emitter and the checker cannot disagree; the rest are the registry's own
words (``tests/test_validate.py`` checks each value appears in its brief).
``recurscope.delegation.kind``, ``recurscope.code.language`` and
``recurscope.history.reported_ops`` are open on purpose.
"""

PATTERNS: Final[Mapping[str, re.Pattern[str]]] = {
    sc.TRIM_COMPACTION_ERROR: re.compile(r"timeout|over_budget|error:[A-Za-z_][\w.:]*"),
}
"""Attributes whose values follow a pattern rather than a closed set."""


@dataclass(frozen=True, slots=True)
class ConditionalRule:
    """Attributes a span of ``span`` must carry when ``applies(attributes)`` holds."""

    span: str
    when: str
    applies: Callable[[Mapping[str, tuple[str, object]]], bool]
    required: tuple[str, ...]


CONDITIONAL_RULES: Final[tuple[ConditionalRule, ...]] = (
    ConditionalRule(
        sc.SPAN_CALL,
        "on delegations (recurscope.call.parent_id is set)",
        lambda attrs: sc.CALL_PARENT_ID in attrs,
        (sc.DELEGATION_KIND, sc.DELEGATION_SAME_ROLE, sc.DELEGATION_CALLER_ROLE),
    ),
    ConditionalRule(
        sc.SPAN_CALL,
        "when the call ran generated code (recurscope.code.language is set)",
        lambda attrs: sc.CODE_LANGUAGE in attrs,
        (sc.CODE_ANALYSIS, sc.CODE_HASH, sc.CODE_SIZE),
    ),
    ConditionalRule(
        sc.SPAN_TRIM,
        "when the unit is tokens",
        lambda attrs: attrs.get(sc.TRIM_UNIT, ("", None))[1] == "tokens",
        (sc.TRIM_ENCODING,),
    ),
    ConditionalRule(
        sc.SPAN_BOUNDARY_SHIFT,
        "when a previous need exists (reason is not first_need)",
        lambda attrs: attrs.get(sc.GOAL_REASON, ("", "first_need"))[1] != "first_need",
        (sc.GOAL_BOUNDARY_FROM, sc.GOAL_SIMILARITY),
    ),
)
"""The registry's ``conditional`` attributes whose condition can be read off the span."""

RESOURCE_REQUIRED: Final = (sc.SERVICE_INSTANCE_ID,)


@dataclass(frozen=True, slots=True)
class _Registry:
    spans: frozenset[str]
    attributes: Mapping[str, Mapping[str, Any]]
    required: Mapping[str, tuple[str, ...]]  # span name -> required span attributes


@cache
def registry() -> _Registry:
    """The convention registry shipped with the instrumentation, indexed."""
    text = (
        resources.files("recurscope.instrumentation")
        .joinpath("semconv_registry.json")
        .read_text("utf-8")
    )
    data = json.loads(text)
    spans = frozenset(s["name"] for s in data["spans"])
    attributes = {a["name"]: a for a in data["attributes"]}
    required = {
        span: tuple(
            a["name"]
            for a in data["attributes"]
            if a["requirement"] == "required" and span in a["spans"]
        )
        for span in spans
    }
    return _Registry(spans, attributes, required)


# --------------------------------------------------------------------------
# Results.


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a span breaks the conventions."""

    kind: ProblemKind
    attribute: str
    detail: str

    @property
    def fails(self) -> bool:
        return self.kind not in WARNING_KINDS


@dataclass(frozen=True, slots=True)
class SpanCheck:
    """The verdict on one ``recurscope.*`` span (``ok`` when no failing problem)."""

    name: str
    trace_id: str
    span_id: str
    position: Position
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not any(p.fails for p in self.problems)

    def where(self) -> str:
        parts = []
        if self.position.line is not None:
            parts.append(f"line {self.position.line}")
        if self.position.span_index is not None:
            parts.append(f"span {self.position.span_index}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every recurscope span of a source checked, plus what could not be read."""

    source: str
    format: str
    spans: tuple[SpanCheck, ...] = ()
    skipped: int = 0
    """Spans of other instrumentation (names outside ``recurscope.``)."""
    unreadable: tuple[Rejection, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def failed(self) -> tuple[SpanCheck, ...]:
        return tuple(s for s in self.spans if not s.ok)

    @property
    def ok(self) -> bool:
        return bool(self.spans) and not self.failed and not self.unreadable

    def as_json(self) -> dict[str, Any]:
        """Machine-readable form (``--json``)."""
        return {
            "source": self.source,
            "format": self.format,
            "ok": self.ok,
            "checked": len(self.spans),
            "failed": len(self.failed),
            "skipped": self.skipped,
            "notes": list(self.notes),
            "unreadable": [
                {"reason": str(r.reason), "detail": r.detail, "line": r.position.line}
                for r in self.unreadable
            ],
            "spans": [
                {
                    "name": s.name,
                    "trace_id": s.trace_id,
                    "span_id": s.span_id,
                    "line": s.position.line,
                    "span_index": s.position.span_index,
                    "ok": s.ok,
                    "problems": [
                        {"kind": p.kind, "attribute": p.attribute, "detail": p.detail}
                        for p in s.problems
                    ],
                }
                for s in self.spans
            ],
        }

    def to_text(self, *, verbose: bool = False) -> str:
        """Human-readable report: failing spans in full, passing ones with ``verbose``."""
        lines = [f"{self.source} ({self.format})"]
        for check in self.spans:
            if check.ok and not verbose and not check.problems:
                continue
            status = "ok  " if check.ok else "FAIL"
            where = f" ({check.where()})" if check.where() else ""
            lines.append(f"  {status} {check.name} span {check.span_id or '?'}{where}")
            for problem in check.problems:
                label = "warning" if not problem.fails else problem.kind
                lines.append(f"         {label:<10} {problem.attribute}: {problem.detail}")
        for rejection in self.unreadable:
            where = f" line {rejection.position.line}" if rejection.position.line else ""
            lines.append(f"  FAIL unreadable record{where}: {rejection.reason}: {rejection.detail}")
        lines.extend(f"  note: {note}" for note in self.notes)
        lines.append(
            f"  {len(self.spans)} recurscope span{'s' if len(self.spans) != 1 else ''} checked, "
            f"{len(self.failed)} failed; {self.skipped} other span"
            f"{'s' if self.skipped != 1 else ''} skipped"
            + (f"; {len(self.unreadable)} unreadable" if self.unreadable else "")
        )
        return "\n".join(lines)


# --------------------------------------------------------------------------
# Typed attribute values, read from OTLP JSON.

_MEMBERS: Final = {
    "stringValue": "string",
    "string_value": "string",
    "boolValue": "boolean",
    "bool_value": "boolean",
    "intValue": "int",
    "int_value": "int",
    "doubleValue": "double",
    "double_value": "double",
    "bytesValue": "bytes",
    "bytes_value": "bytes",
    "arrayValue": "array",
    "array_value": "array",
    "kvlistValue": "kvlist",
    "kvlist_value": "kvlist",
}
_OTLP_NAMES: Final = {
    "string": "stringValue",
    "boolean": "boolValue",
    "int": "intValue",
    "double": "doubleValue",
    "bytes": "bytesValue",
    "kvlist": "kvlistValue",
    "empty": "an empty value",
}
_INT_TEXT: Final = re.compile(r"[+-]?[0-9]+")

TypedValue = tuple[str, object]
"""(kind, value): kind is ``string``, ``int``, ``double``, ``boolean``, ``bytes``,
``kvlist``, ``empty``, ``string[]``/``int[]``/``double[]``/``boolean[]``, ``[]`` (empty
array) or ``mixed[]``; or ``text`` for a stored value whose kind is unknown."""


def _typed(value: Any) -> TypedValue:
    if not isinstance(value, dict):
        return ("empty", None)
    kind, payload = "empty", None
    for name, member in value.items():
        if name in _MEMBERS and member is not None:
            kind, payload = _MEMBERS[name], member
    if kind == "int":
        # int() refuses a text of more than 4,300 digits (a ValueError); the
        # decoder quarantines such a value anyway, so it is shown as sent.
        if isinstance(payload, str) and _INT_TEXT.fullmatch(payload) and len(payload) <= 64:
            return ("int", int(payload))
        return ("int", payload)
    if kind == "array":
        items = payload.get("values") if isinstance(payload, dict) else None
        typed = [_typed(item) for item in items] if isinstance(items, list) else []
        kinds = {k for k, _ in typed}
        if not typed:
            return ("[]", [])
        element = kinds.pop() if len(kinds) == 1 else "mixed"
        return (f"{element}[]", [v for _, v in typed])
    return (kind, payload)


def _attributes(raw: Any) -> dict[str, TypedValue]:
    result: dict[str, TypedValue] = {}
    if isinstance(raw, list):
        for entry in raw:
            if isinstance(entry, dict) and isinstance(entry.get("key"), str):
                result[entry["key"]] = _typed(entry.get("value"))
    return result


def _describe(kind: str) -> str:
    if kind.endswith("[]"):
        element = kind[:-2]
        if element in ("", "mixed"):
            return "an arrayValue" + (" of mixed kinds" if element == "mixed" else "")
        return f"an arrayValue of {_OTLP_NAMES.get(element, element)}"
    return _OTLP_NAMES.get(kind, kind)


def _type_ok(expected: str, kind: str, value: object) -> bool:
    if kind == "text":  # a stored string from a format that does not keep kinds
        text = str(value)
        if expected == "int":
            return bool(_INT_TEXT.fullmatch(text))
        if expected == "double":
            try:
                float(text)
            except ValueError:
                return False
            return True
        if expected == "boolean":
            return text in ("true", "false")
        if expected == "string[]":
            try:
                parsed = json.loads(text)
            except ValueError:
                return False
            return isinstance(parsed, list) and all(isinstance(v, str) for v in parsed)
        return True
    if expected == "string[]":
        return kind in ("string[]", "[]")
    return kind == expected


def _values_of(kind: str, value: object) -> list[object]:
    if kind == "text":
        text = str(value)
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except ValueError:
                return [text]
            return parsed if isinstance(parsed, list) else [text]
        return [text]
    if kind.endswith("[]"):
        return list(value) if isinstance(value, list) else []
    return [value]


# --------------------------------------------------------------------------
# Checking one span.


def _suggest(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def check_span(
    name: str,
    attributes: Mapping[str, TypedValue],
    resource: Mapping[str, TypedValue],
) -> list[Problem] | None:
    """Problems of one span, or ``None`` when it is not a recurscope span at all."""
    reg = registry()
    problems: list[Problem] = []
    if name not in reg.spans:
        if not name.startswith("recurscope."):
            return None
        return [
            Problem(
                "unknown",
                name,
                f"not a span name of the conventions ({', '.join(sorted(reg.spans))})"
                + _suggest(name, reg.spans),
            )
        ]
    for required in reg.required[name]:
        if required not in attributes:
            spec = reg.attributes[required]
            problems.append(
                Problem("missing", required, f"required {spec['type']}, set {spec['when']}")
            )
    for rule in CONDITIONAL_RULES:
        if rule.span == name and rule.applies(attributes):
            for required in rule.required:
                if required not in attributes:
                    spec = reg.attributes[required]
                    problems.append(
                        Problem("missing", required, f"{spec['type']}, required {rule.when}")
                    )
    for required in RESOURCE_REQUIRED:
        if required not in resource:
            problems.append(
                Problem(
                    "missing",
                    required,
                    "resource attribute (the run) required on every span's resource",
                )
            )
    for key, (kind, value) in attributes.items():
        defined = reg.attributes.get(key)
        if defined is None:
            if key.startswith("recurscope."):
                problems.append(
                    Problem(
                        "unknown",
                        key,
                        "not in the registry" + _suggest(key, reg.attributes),
                    )
                )
            continue
        if name not in defined["spans"]:
            problems.append(
                Problem(
                    "misplaced",
                    key,
                    f"defined for {', '.join(defined['spans'])}, not {name} (ignored there)",
                )
            )
        expected = defined["type"]
        if not _type_ok(expected, kind, value):
            shown = json.dumps(value, ensure_ascii=False, default=str)[:60]
            problems.append(
                Problem("mistyped", key, f"{expected} expected, got {_describe(kind)} {shown}")
            )
            continue
        allowed = VOCABULARIES.get(key)
        pattern = PATTERNS.get(key)
        if allowed is None and pattern is None:
            continue
        if key == sc.GEN_AI_OPERATION_NAME and name != sc.SPAN_CALL:
            continue
        for item in _values_of(kind, value):
            text = str(item)
            if allowed is not None and text not in allowed:
                problems.append(
                    Problem(
                        "vocabulary",
                        key,
                        f"{text!r} is not one of {', '.join(sorted(allowed))}"
                        + _suggest(text, allowed),
                    )
                )
            elif pattern is not None and not pattern.fullmatch(text):
                problems.append(
                    Problem("vocabulary", key, f"{text!r} does not match {pattern.pattern}")
                )
    return problems


def validate_request(request: Any, position: Position | None = None) -> tuple[list[SpanCheck], int]:
    """Check every span of one parsed OTLP JSON request: (checks, spans skipped)."""
    position = position or Position()
    checks: list[SpanCheck] = []
    skipped = 0
    if not isinstance(request, dict):
        return checks, skipped
    resource_spans = request.get("resourceSpans", request.get("resource_spans")) or []
    index = 0
    for rs in resource_spans if isinstance(resource_spans, list) else []:
        if not isinstance(rs, dict):
            continue
        resource = rs.get("resource")
        if not isinstance(resource, dict):
            resource = {}
        resource_attributes = _attributes(resource.get("attributes"))
        groups: list[Any] = []
        for key in (
            "scopeSpans",
            "scope_spans",
            "instrumentationLibrarySpans",
            "instrumentation_library_spans",
        ):
            if isinstance(rs.get(key), list):
                groups.extend(rs[key])
        for group in groups:
            spans = group.get("spans") if isinstance(group, dict) else None
            for span in spans if isinstance(spans, list) else []:
                here = Position(position.line, position.byte_offset, index)
                index += 1
                if not isinstance(span, dict) or not isinstance(span.get("name"), str):
                    continue
                problems = check_span(
                    span["name"], _attributes(span.get("attributes")), resource_attributes
                )
                if problems is None:
                    skipped += 1
                    continue
                trace_id = span.get("traceId", span.get("trace_id", ""))
                span_id = span.get("spanId", span.get("span_id", ""))
                checks.append(
                    SpanCheck(
                        span["name"],
                        trace_id if isinstance(trace_id, str) else "",
                        span_id if isinstance(span_id, str) else "",
                        here,
                        tuple(problems),
                    )
                )
    return checks, skipped


# --------------------------------------------------------------------------
# Reading a source as OTLP JSON requests.

Unit = tuple[Any, Position] | Rejection


def _otlp_json_units(data: bytes) -> Iterator[Unit]:
    limits = DEFAULT_LIMITS
    whole = parse_json(data, Position(byte_offset=0), limits)
    if not isinstance(whole, Rejection) and isinstance(whole, dict):
        yield whole, Position(byte_offset=0)
        return
    offset = 0
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        start, offset = offset, offset + len(line)
        if not line.strip():
            continue
        position = Position(line=number, byte_offset=start)
        parsed = parse_json(line, position, limits)
        yield parsed if isinstance(parsed, Rejection) else (parsed, position)


def _otlp_proto_units(data: bytes) -> Iterator[Unit]:
    from google.protobuf import json_format
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(data)
    except (DecodeError, RecursionError, ValueError) as error:
        yield Rejection(Reason.INVALID_PROTOBUF, f"not an ExportTraceServiceRequest: {error}")
        return
    converted = json_format.MessageToDict(request, use_integers_for_enums=True)

    def hex_ids(obj: Any) -> Any:
        # proto3 JSON writes ids as base64; OTLP JSON (and our reports) use hex.
        if isinstance(obj, dict):
            return {
                k: base64.b64decode(v).hex()
                if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str)
                else hex_ids(v)
                for k, v in obj.items()
            }
        if isinstance(obj, list):
            return [hex_ids(v) for v in obj]
        return obj

    yield hex_ids(converted), Position(byte_offset=0)


def _stream(data: bytes) -> io.BufferedReader:
    return cast(io.BufferedReader, io.BufferedReader(io.BytesIO(data)))


def _native_units(
    iter_units: Callable[[io.BufferedReader, ReadContext], Iterator[NativeItem]],
) -> Callable[[bytes, str], Iterator[Unit]]:
    def units(data: bytes, source: str) -> Iterator[Unit]:
        stream = _stream(data)
        for item in iter_units(stream, ReadContext(source=source, limits=DEFAULT_LIMITS)):
            if isinstance(item, NativeUnit):
                yield item.request, item.position
            elif isinstance(item, Rejection):
                yield item

    return units


_REQUEST_READERS: Final[Mapping[str, Callable[[bytes, str], Iterator[Unit]]]] = {
    "otlp-json": lambda data, source: _otlp_json_units(data),
    "otlp-proto": lambda data, source: _otlp_proto_units(data),
    recurgent_jsonl.NAME: _native_units(recurgent_jsonl.iter_units),
    otel_python_console.NAME: _native_units(otel_python_console.iter_units),
    otel_go_stdouttrace.NAME: _native_units(otel_go_stdouttrace.iter_units),
}
"""Formats whose records can be seen as OTLP JSON requests, value kinds included."""


def _row_checks(fmt: Format, data: bytes, source: str) -> Iterator[SpanCheck | Rejection | None]:
    """Fallback for a format validate does not know: stored rows, kinds read from the text."""
    stream = _stream(data)
    for item in fmt.read(stream, ReadContext(source=source, limits=DEFAULT_LIMITS)):
        if isinstance(item, Rejection):
            yield item
        elif isinstance(item, SpanRow):
            attrs = {k: ("text", v) for k, v in item.attributes.items()}
            resource = {k: ("text", v) for k, v in item.resource_attributes.items()}
            problems = check_span(item.name, attrs, resource)
            yield (
                None
                if problems is None
                else SpanCheck(
                    item.name, item.trace_id, item.span_id, item.position, tuple(problems)
                )
            )


def validate_bytes(
    data: bytes, *, source: str = "<bytes>", format: str = "auto"
) -> ValidationReport:
    """Validate the spans in ``data`` (decompressed if gzip) read as ``format``."""
    if data[:2] == GZIP_MAGIC:
        # The ingest's caps apply: a gzip bomb is refused, not unpacked into memory.
        unpacked = gunzip_bounded(data, DEFAULT_LIMITS)
        if isinstance(unpacked, Rejection):
            return ValidationReport(source, "gzip", unreadable=(unpacked,))
        data = unpacked
    if format == "auto":
        fmt = detect_format(data[:8192], source)
        if fmt is None:
            return ValidationReport(
                source,
                "unknown",
                unreadable=(
                    Rejection(
                        Reason.UNRECOGNIZED_FORMAT,
                        f"no registered format recognises it; name one with --format "
                        f"({', '.join(format_names())})",
                    ),
                ),
            )
    else:
        fmt = get_format(format)
    checks: list[SpanCheck] = []
    unreadable: list[Rejection] = []
    skipped = 0
    notes: list[str] = []
    reader = _REQUEST_READERS.get(fmt.name)
    if reader is not None:
        for unit in reader(data, source):
            if isinstance(unit, Rejection):
                unreadable.append(unit)
                continue
            request, position = unit
            found, other = validate_request(request, position)
            checks.extend(found)
            skipped += other
    else:
        notes.append(f"{fmt.name} keeps no value kinds: types were judged from the stored text")
        for item in _row_checks(fmt, data, source):
            if item is None:
                skipped += 1
            elif isinstance(item, Rejection):
                unreadable.append(item)
            else:
                checks.append(item)
    if not checks and not unreadable:
        notes.append("no recurscope spans found (nothing to validate)")
    return ValidationReport(
        source, fmt.name, tuple(checks), skipped, tuple(unreadable), tuple(notes)
    )


def validate_file(path: str | Path, *, format: str = "auto") -> ValidationReport:
    """Validate one file (any format ``recurscope ingest`` reads, optionally gzip)."""
    file = Path(path)
    with file.open("rb") as handle:
        data = handle.read(_MAX_FILE_BYTES + 1)
    if len(data) > _MAX_FILE_BYTES:
        raise IngestError(
            f"{file} is over {_MAX_FILE_BYTES >> 20} MiB: validate a sample of it "
            "(head -n 1000 FILE > sample.jsonl)"
        )
    return validate_bytes(data, source=str(file), format=format)


# --------------------------------------------------------------------------
# The command line.

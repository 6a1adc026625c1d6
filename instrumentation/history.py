"""Structured conversation history (design record 0019).

A :class:`HistoryRecord` is one interaction, kept as plain data: the V1 fields
``call_id, timestamp, speaker, method_name, args, kwargs, outcome_summary``,
the fields real runtimes add (``trace_id, parent_call_id, depth,
duration_ms``) and any further additive field, kept as it came.

A :class:`History` holds records in order, bounded by a caller-chosen
:class:`Retention`, and hands generated code a read-only view of them
(:mod:`recurscope.instrumentation.view`).
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Any, Final, Literal

from .tokens import TokenCounter
from .view import HistoryView

Speaker = Literal["user", "agent", "tool"]
SPEAKERS: Final[tuple[str, ...]] = ("user", "agent", "tool")

# Chat roles (what plan_trim and chat APIs take) -> history speakers. System and
# developer messages are orientation, not interactions: they map to no speaker.
_SPEAKER_FOR_ROLE: Final[Mapping[str, str]] = MappingProxyType(
    {
        "user": "user",
        "agent": "agent",
        "tool": "tool",
        "assistant": "agent",
        "function": "tool",
        "ipython": "tool",
    }
)
_ROLE_FOR_SPEAKER: Final[Mapping[str, str]] = MappingProxyType(
    {"user": "user", "agent": "assistant", "tool": "tool"}
)


def speaker_for_role(role: str) -> str:
    """The history speaker of a chat message role; a speaker is returned unchanged.

    ``user`` → ``user``, ``assistant`` → ``agent``, ``tool``/``function``/``ipython``
    → ``tool``. ``system`` and ``developer`` (orientation, not an interaction)
    and anything else raise ``ValueError`` saying so::

        history.record(call_id="t3", speaker=speaker_for_role(message["role"]), method_name="say")
    """
    speaker = _SPEAKER_FOR_ROLE.get(role) if isinstance(role, str) else None
    if speaker is None:
        raise ValueError(
            f"{role!r} maps to no history speaker: speakers are {', '.join(SPEAKERS)}, "
            "and the chat roles assistant (agent), function and ipython (tool) map to them. "
            "System and developer messages are orientation, not history records"
        )
    return speaker


def role_for_speaker(speaker: str) -> str:
    """The chat role of a history speaker: ``agent`` → ``assistant``; ``user``, ``tool`` as they are.

    Raises ``ValueError`` for anything but a speaker in :data:`SPEAKERS`.
    """
    role = _ROLE_FOR_SPEAKER.get(speaker) if isinstance(speaker, str) else None
    if role is None:
        raise ValueError(f"speaker must be one of {', '.join(SPEAKERS)}; got {speaker!r}")
    return role


V1_FIELDS: Final[tuple[str, ...]] = (
    "call_id",
    "timestamp",
    "speaker",
    "method_name",
    "args",
    "kwargs",
    "outcome_summary",
)
RUNTIME_FIELDS: Final[tuple[str, ...]] = ("trace_id", "parent_call_id", "depth", "duration_ms")
KNOWN_FIELDS: Final[frozenset[str]] = frozenset(V1_FIELDS + RUNTIME_FIELDS)

UNSERIALIZABLE_MARKER: Final = "<recurscope:unserializable "
"""Prefix of the text that replaces a value JSON cannot carry: ``<recurscope:unserializable TYPE> repr``."""

_MAX_REPR: Final = 200


def to_plain(value: Any) -> Any:
    """Return ``value`` as JSON-ready plain data; anything else is stringified with a marker.

    Dicts (string keys), lists, tuples, str, int, finite float, bool and None pass
    through (tuples become lists, non-string keys are stringified). Anything else —
    a socket, a function, a NaN — becomes ``"<recurscope:unserializable TYPE> repr"``
    so a record never holds a payload another process could not read back.
    """
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else _marker(value)
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return _marker(value)


def _marker(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not break recording
        text = "?"
    if len(text) > _MAX_REPR:
        text = text[: _MAX_REPR - 1] + "…"
    return f"{UNSERIALIZABLE_MARKER}{type(value).__qualname__}> {text}"


class FrozenRecord(dict[str, Any]):
    """A read-only dict: what generated code gets for each history record.

    A ``dict`` subclass so reads cost what plain dict reads cost and
    ``json.dumps`` works; every mutator raises ``TypeError``. ``dict(record)``
    or ``copy.deepcopy(record)`` gives a mutable plain copy.
    """

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("history records are read-only; copy one with dict(record) to change it")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return _thaw(self)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (_thaw(self),))


def _freeze(value: Any) -> Any:
    """Deep read-only copy of plain data: dicts become :class:`FrozenRecord`, lists tuples."""
    if isinstance(value, dict):
        return FrozenRecord({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class HistoryRecord:
    """One interaction in a conversation history, as plain data.

    Fields: ``call_id`` (unique in the session), ``timestamp`` (ISO 8601, UTC),
    ``speaker`` (one of ``user``, ``agent``, ``tool``), ``method_name``, ``args``
    (list), ``kwargs`` (dict), ``outcome_summary`` (dict or None), and the
    runtime fields ``trace_id``, ``parent_call_id``, ``depth``, ``duration_ms``.
    ``extra`` keeps unknown additive fields as they came.

    Invariants: every value is JSON-serializable (non-JSON payloads were
    stringified with :data:`UNSERIALIZABLE_MARKER` on the way in) and the
    speaker is valid. Build records with :meth:`create` or :meth:`from_dict`.
    """

    call_id: str
    timestamp: str
    speaker: str
    method_name: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    outcome_summary: Mapping[str, Any] | None = None
    trace_id: str | None = None
    parent_call_id: str | None = None
    depth: int | None = None
    duration_ms: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def create(
        cls,
        *,
        call_id: str,
        speaker: str,
        method_name: str,
        args: Iterable[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        outcome_summary: Any = None,
        timestamp: str | datetime | None = None,
        trace_id: str | None = None,
        parent_call_id: str | None = None,
        depth: int | None = None,
        duration_ms: float | None = None,
        **extra: Any,
    ) -> HistoryRecord:
        """Build a record, stringifying non-JSON payloads; an invalid speaker raises ``ValueError``."""
        if speaker not in SPEAKERS:
            raise ValueError(
                f"speaker must be one of {', '.join(SPEAKERS)}; got {speaker!r}. "
                "Map a chat role first: speaker_for_role('assistant') == 'agent'."
            )
        if isinstance(timestamp, datetime):
            stamp = timestamp.astimezone(UTC).isoformat(timespec="milliseconds")
            timestamp = stamp.replace("+00:00", "Z")
        summary = to_plain(outcome_summary)
        return cls(
            call_id=str(call_id),
            timestamp=timestamp or _now_iso(),
            speaker=speaker,
            method_name=str(method_name),
            args=tuple(to_plain(list(args))),
            kwargs=to_plain(dict(kwargs or {})),
            outcome_summary=summary
            if isinstance(summary, dict) or summary is None
            else {"value": summary},
            trace_id=trace_id,
            parent_call_id=parent_call_id,
            depth=depth,
            duration_ms=duration_ms,
            extra=to_plain(extra),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HistoryRecord:
        """Rebuild a record from plain data; unknown fields land in ``extra``."""
        missing = [name for name in ("call_id", "speaker", "method_name") if name not in data]
        if missing:
            raise ValueError(
                f"history record lacks {', '.join(missing)}; every record needs "
                "call_id, speaker and method_name"
            )
        known = {k: data[k] for k in KNOWN_FIELDS if k in data}
        extra = {k: v for k, v in data.items() if k not in KNOWN_FIELDS}
        return cls.create(**known, **extra)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: V1 fields, then runtime fields that are set, then extras."""
        out: dict[str, Any] = {
            "call_id": self.call_id,
            "timestamp": self.timestamp,
            "speaker": self.speaker,
            "method_name": self.method_name,
            "args": _thaw(list(self.args)),
            "kwargs": _thaw(dict(self.kwargs)),
            "outcome_summary": _thaw(self.outcome_summary),
        }
        for name in RUNTIME_FIELDS:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        out.update(_thaw(dict(self.extra)))
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Retention:
    """How a history is bounded (the design record's open question, left to the caller).

    ``max_records`` keeps the newest N records; ``max_tokens`` keeps the newest
    records whose JSON fits the token (or byte) footprint of ``counter``;
    ``window`` keeps records younger than the window (by append time). Any
    combination applies together; all ``None`` means unbounded.
    """

    max_records: int | None = None
    max_tokens: int | None = None
    window: timedelta | None = None
    counter: TokenCounter | None = None

    def __post_init__(self) -> None:
        for name in ("max_records", "max_tokens"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(
                    f"Retention.{name} must be a non-negative int or None; got {value!r}"
                )
        if self.window is not None and self.window.total_seconds() <= 0:
            raise ValueError(f"Retention.window must be a positive timedelta; got {self.window!r}")

    @property
    def kind(self) -> str:
        """Name recorded on call spans: ``none``, ``count``, ``tokens``, ``window`` or a ``+`` join."""
        kinds = [
            name
            for name, value in (
                ("count", self.max_records),
                ("tokens", self.max_tokens),
                ("window", self.window),
            )
            if value is not None
        ]
        return "+".join(kinds) or "none"


class History(Sequence[Mapping[str, Any]]):
    """An ordered conversation history with retention.

    Append records with :meth:`append` (or :meth:`record`); read them as plain
    data with :meth:`records` / :meth:`to_json`; hand generated code
    :meth:`view` instead of the list. Items read through the sequence protocol
    are read-only mappings (``rec["speaker"]``), the shape generated code
    expects.
    """

    def __init__(
        self, records: Iterable[HistoryRecord] = (), *, retention: Retention | None = None
    ):
        self.retention = retention or Retention()
        self.retention_kind = self.retention.kind  # read by every call span: computed once
        self._records: deque[HistoryRecord] = deque()
        # Read-only mappings handed to generated code, built once per record so
        # reading through a view costs the same as reading a plain list.
        self._frozen: list[Mapping[str, Any]] = []
        self._appended_at: deque[float] = deque()
        self._sizes: deque[int] = deque()
        self._footprint = 0
        self._evicted_total = 0
        self._evicted_reported = 0
        self._lock = threading.Lock()
        for record in records:
            self.append(record)

    # -- writing ---------------------------------------------------------------

    def append(self, record: HistoryRecord | Mapping[str, Any]) -> HistoryRecord:
        """Append a record (a mapping is validated via :meth:`HistoryRecord.from_dict`)."""
        if not isinstance(record, HistoryRecord):
            record = HistoryRecord.from_dict(record)
        size = 0
        if self.retention.max_tokens is not None:
            counter = self.retention.counter or _default_counter()
            size = counter.count(record.to_json())
        with self._lock:
            self._records.append(record)
            self._frozen.append(_freeze(record.to_dict()))
            self._appended_at.append(time.monotonic())
            self._sizes.append(size)
            self._footprint += size
            self._enforce_retention()
        return record

    def record(self, **fields: Any) -> HistoryRecord:
        """Build a record with :meth:`HistoryRecord.create` and append it."""
        return self.append(HistoryRecord.create(**fields))

    def _enforce_retention(self) -> None:
        policy = self.retention
        evict = 0
        n = len(self._records)
        if policy.max_records is not None and n > policy.max_records:
            evict = n - policy.max_records
        if policy.max_tokens is not None:
            footprint = self._footprint - sum(self._sizes[i] for i in range(evict))
            while evict < n and footprint > policy.max_tokens:
                footprint -= self._sizes[evict]
                evict += 1
        if policy.window is not None:
            horizon = time.monotonic() - policy.window.total_seconds()
            while evict < n and self._appended_at[evict] < horizon:
                evict += 1
        if evict:
            for _ in range(evict):
                self._records.popleft()
                self._appended_at.popleft()
                self._footprint -= self._sizes.popleft()
            del self._frozen[:evict]
            self._evicted_total += evict

    # -- reading ---------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index: Any) -> Any:
        return self._frozen[index]

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        return iter(self._frozen)

    def frozen_records(self) -> list[Mapping[str, Any]]:
        """The read-only mappings themselves (shared, do not mutate the list)."""
        return self._frozen

    def records(self) -> list[dict[str, Any]]:
        """The history as plain data: a list of dicts, safe to mutate."""
        return [record.to_dict() for record in self._records]

    def typed(self) -> list[HistoryRecord]:
        return list(self._records)

    @property
    def evicted_total(self) -> int:
        """Records evicted by retention since the history was created."""
        return self._evicted_total

    def take_evictions(self) -> int:
        """Evictions since the previous call of this method (what a call span reports)."""
        if self._evicted_total == self._evicted_reported:  # the common case, lock-free
            return 0
        with self._lock:
            count = self._evicted_total - self._evicted_reported
            self._evicted_reported = self._evicted_total
            return count

    def view(self) -> HistoryView:
        """A fresh observed, read-only view for one call's generated code."""
        return HistoryView(self._frozen)

    # -- JSON ------------------------------------------------------------------

    def to_json(self) -> str:
        """JSON array of the records as plain data."""
        return json.dumps(self.records(), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, *, retention: Retention | None = None) -> History:
        data = json.loads(text)
        if not isinstance(data, list):
            raise ValueError(
                "history JSON must be an array of records (as written by History.to_json)"
            )
        return cls((HistoryRecord.from_dict(item) for item in data), retention=retention)


def _default_counter() -> TokenCounter:
    from .tokens import default_counter

    return default_counter()

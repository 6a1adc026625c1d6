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


EVICTED_KEPT: Final = 64
"""Evicted records a :class:`History` keeps for :meth:`History.extent`: a call that
read a record which its own appends then evicted still measures the read."""

_UNCOUNTED: Final = -1


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
        # Token counts for extent(), aligned with _frozen, by _tokens_counter,
        # counted on first need (_UNCOUNTED until then): each record is
        # tokenized at most once. A list, so a span of counts is one slice.
        self._tokens: list[int] = []
        self._tokens_counter: TokenCounter | None = None
        # [frozen record, token count] of the latest evictions, for extent().
        self._evicted_recent: deque[list[Any]] = deque(maxlen=EVICTED_KEPT)
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
        counter = None
        if self.retention.max_tokens is not None:
            counter = self.retention.counter or _default_counter()
            size = counter.count(record.to_json())
        with self._lock:
            self._records.append(record)
            self._frozen.append(_freeze(record.to_dict()))
            self._appended_at.append(time.monotonic())
            self._sizes.append(size)
            self._tokens.append(
                size if counter is not None and counter is self._tokens_counter else _UNCOUNTED
            )
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
            for index in range(evict):
                self._evicted_recent.append([self._frozen[index], self._tokens[index]])
                self._records.popleft()
                self._appended_at.popleft()
                self._footprint -= self._sizes.popleft()
            del self._frozen[:evict]
            del self._tokens[:evict]
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

    def extent(self, start: int, stop: int, *, counter: TokenCounter) -> tuple[Any, int | None]:
        """The oldest record's ``timestamp`` and the tokens of records ``start`` to ``stop - 1``.

        Positions count every record ever appended, evicted ones included: the
        record at ``history[i]`` is at ``evicted_total + i``, so a position
        taken when a call started still names the same record after the
        call's own appends evicted some. Records evicted more than
        :data:`EVICTED_KEPT` evictions ago are no longer held: the timestamp
        is None when the oldest is not held, the tokens when any is not (so
        is an empty or out-of-range span). Never raises for positions.

        Tokens are ``counter.count(record.to_json())``, what a token retention
        counts. Each record is tokenized at most once per history and counter:
        counts are kept with the records, and a token retention that counts
        with the same counter has counted them already. (A plain tuple: this
        runs when every call that read history ends.)
        """
        with self._lock:
            if counter is not self._tokens_counter:
                self._count_with(counter)
            base = self._evicted_total
            first, end = start - base, min(stop - base, len(self._frozen))
            if 0 <= first < end:  # all held, the common case
                sizes = self._tokens[first:end]
                if _UNCOUNTED not in sizes:
                    return self._frozen[first].get("timestamp"), sum(sizes)
            total, missing, oldest = self._gather(first, end)
        timestamp = oldest.get("timestamp") if oldest is not None else None
        if missing is None:
            return timestamp, None
        if missing:
            # Tokenized outside the lock: appends from other threads never wait for it.
            counted = [(position, counter.count(_json(record))) for position, record in missing]
            total += sum(size for _, size in counted)
            with self._lock:
                if counter is self._tokens_counter:
                    self._remember(counted)
        return timestamp, total

    def _count_with(self, counter: TokenCounter) -> None:
        """Key the kept token counts to ``counter`` (a token retention's sizes if it is theirs)."""
        self._tokens_counter = counter
        policy = self.retention
        if policy.max_tokens is not None and counter is (policy.counter or _default_counter()):
            self._tokens = list(self._sizes)
        else:
            self._tokens = [_UNCOUNTED] * len(self._frozen)
        for entry in self._evicted_recent:
            entry[1] = _UNCOUNTED

    def _gather(
        self, first: int, end: int
    ) -> tuple[int, list[tuple[int, Mapping[str, Any]]] | None, Mapping[str, Any] | None]:
        """Known token total of records ``first`` to ``end - 1`` (negative: evicted, kept), the
        records still to count by position (None: part not held) and the oldest record."""
        base = self._evicted_total
        held = len(self._frozen)
        kept = len(self._evicted_recent)
        oldest: Mapping[str, Any] | None = None
        if -kept <= first < held:
            oldest = self._frozen[first] if first >= 0 else self._evicted_recent[first][0]
        if first < -kept or first >= end:
            return 0, None, oldest
        total = 0
        missing: list[tuple[int, Mapping[str, Any]]] = []
        for index in range(first, min(0, end)):  # evicted, still kept
            record, size = self._evicted_recent[index]
            if size == _UNCOUNTED:
                missing.append((base + index, record))
            else:
                total += size
        for index in range(max(first, 0), end):
            size = self._tokens[index]
            if size == _UNCOUNTED:
                missing.append((base + index, self._frozen[index]))
            else:
                total += size
        return total, missing, oldest

    def _remember(self, counted: list[tuple[int, int]]) -> None:
        base = self._evicted_total
        held = len(self._frozen)
        kept = len(self._evicted_recent)
        for position, size in counted:
            index = position - base
            if 0 <= index < held:
                self._tokens[index] = size
            elif -kept <= index < 0:
                self._evicted_recent[index][1] = size

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


def _json(record: Mapping[str, Any]) -> str:
    """A frozen record's JSON: the text :meth:`HistoryRecord.to_json` gives, at a third of the cost.

    The frozen record was built from ``to_dict()`` (same keys, same order;
    tuples encode as the lists they came from), so the texts are equal.
    """
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _default_counter() -> TokenCounter:
    from .tokens import default_counter

    return default_counter()

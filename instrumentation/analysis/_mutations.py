"""Small edits of a probe history, to see which records a program's answer depends on, and how.

A behavioural sketch (:mod:`._behaviour`) runs a program on each probe and on
each edit of it: every record in turn dropped, every record's outcome flipped,
and five edits of the whole history (its times stretched to twice the
pauses, its times shifted by a day, a user turn, a repeat of the last call or
a failure appended). How each edit changes the answer — not at all, only its
numbers and all of them up, all down, both ways, or more than its numbers —
is the program's *footprint*, and it does not depend on how the answer is
written: a duration in seconds and in minutes, a rate as 0.25 or as "25%", a
count with or without a label change alike under every edit. Re-spellings of
one program have one footprint; a program that selects other records, or
counts what another sums, has another. (Edits of single fields — a method, a
speaker, a call id, a time — were measured too, and left out: a re-spelling
that shows one more field of each record gets a footprint of its own.)

Each edit is a list of operations the sandbox runners apply to a copy of the
probe (``["del", i]``, ``["set", i, [key, ...], value]``, ``["add",
record]``), so the runners need no knowledge of the record schema; this
module is the only place that knows it. A trigger (:func:`triggers`, for a
program whose answers are all empty) also carries ``["name", call_id]``,
which changes nothing: the runners mark the edit ``N`` when its answer
then names that record.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Final

__all__ = ["KINDS", "KINDS_PREFIX", "RECORD_EDITS", "composed", "mutations", "triggers"]

_STAMP: Final = "%Y-%m-%dT%H:%M:%SZ"
KINDS: Final = ("drop", "flip", "stretch", "shift", "user", "repeat", "fail")
"""The edits: one record dropped or its outcome flipped (each record of each probe), and five of the whole history."""

RECORD_EDITS: Final = ("drop.", "flip.")
"""The prefixes of the names of one-record edits."""

Ops = list[list[Any]]


def _time(stamp: str) -> datetime:
    return datetime.strptime(stamp, _STAMP).replace(tzinfo=UTC)


def _stamp(moment: datetime) -> str:
    return moment.strftime(_STAMP)


def _outcome(i: int, ok: bool) -> Ops:
    """The edits that make record ``i`` succeed or fail."""
    message = None if ok else f"failed-m-{i:02d} timeout"
    return [
        ["set", i, ["result"], f"value-m-{i:02d}" if ok else None],
        ["set", i, ["error"], message],
        ["set", i, ["outcome_summary", "ok"], ok],
        ["set", i, ["outcome_summary", "status"], "ok" if ok else "error"],
        ["set", i, ["outcome_summary", "value_class"], "String" if ok else None],
        ["set", i, ["outcome_summary", "error_type"], None if ok else "ArgumentError"],
        ["set", i, ["outcome_summary", "error_message"], message],
    ]


def _record_edits(history: list[dict[str, Any]], i: int) -> dict[str, Ops]:
    ok = bool((history[i].get("outcome_summary") or {}).get("ok"))
    return {"drop": [["del", i]], "flip": _outcome(i, not ok)}


def _appended(history: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    last = history[-1]
    record = copy.deepcopy(last)
    record["call_id"] = f"{last['call_id']}-{kind}"
    record["timestamp"] = _stamp(_time(last["timestamp"]) + timedelta(seconds=45))
    if kind == "user":
        record.update(speaker="user", role="user", parent_call_id=None, depth=0)
    if kind == "fail":
        summary = record["outcome_summary"]
        record["result"] = None
        record["error"] = summary["error_message"] = "failed-m-end"
        summary.update(ok=False, status="error", value_class=None, error_type="ArgumentError")
    return record


def _whole_edits(history: list[dict[str, Any]]) -> dict[str, Ops]:
    start = _time(history[0]["timestamp"])
    return {
        "stretch": [
            ["set", i, ["timestamp"], _stamp(start + (_time(r["timestamp"]) - start) * 2)]
            for i, r in enumerate(history)
        ],
        "shift": [
            ["set", i, ["timestamp"], _stamp(_time(r["timestamp"]) + timedelta(days=1, hours=3))]
            for i, r in enumerate(history)
        ],
        "user": [["add", _appended(history, "user")]],
        "repeat": [["add", _appended(history, "repeat")]],
        "fail": [["add", _appended(history, "fail")]],
    }


def mutations(probe: dict[str, Any]) -> list[tuple[str, Ops]]:
    """Every edit of one probe, named ``<kind>.<index>`` (one record) or ``<kind>`` (the whole history)."""
    history = probe["history"]
    out: list[tuple[str, Ops]] = []
    for i in range(len(history)):
        for kind, ops in _record_edits(history, i).items():
            out.append((f"{kind}.{i}", ops))
    out.extend(_whole_edits(history).items())
    return out


# ---------------------------------------------------------------------------
# Triggers (scheme v10): edits that make one relation between record fields true
# ---------------------------------------------------------------------------

TRIGGER_PROBE: Final = 2
"""The probe whose records the triggers edit (the one that also holds real histories' oddities)."""

_FILLER: Final = ("lorem ipsum dolor sit amet " * 90).strip()
"""What makes a text long: 2,429 characters, over any bound a program is likely to test."""
_TEXT_FIELDS: Final = ("content", "error", "summary")


def _picks(history: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """The records the triggers edit: a failed call, a successful one, a user message; each with another record.

    Each is the first of its kind from a third of the way in; the other record
    is seven before it (another kind, another turn).
    """
    n = len(history)

    def first(test: Any) -> int:
        return next(i for i in range(n // 3, n) if test(history[i]))

    def ok(r: dict[str, Any]) -> bool:
        return bool((r.get("outcome_summary") or {}).get("ok"))

    def named(r: dict[str, Any]) -> bool:
        return r.get("speaker") != "user" and isinstance(r["args"][0], str)

    picks = {
        "fail": first(lambda r: named(r) and not ok(r)),
        "ok": first(lambda r: named(r) and ok(r)),
        "user": first(lambda r: r.get("speaker") == "user" and isinstance(r["args"][0], str)),
    }
    return {label: (i, max(i - 7, 0)) for label, i in picks.items()}


def _append_text(record: dict[str, Any], i: int, field: str, text: str) -> Ops:
    """Edits that add ``text`` to one of a record's texts (its content, its error, its summary)."""
    summary = record.get("outcome_summary") or {}
    if field == "content":
        return [["set", i, ["content"], f"{record['content']} {text}".strip()]]
    if field == "summary":
        return [
            ["set", i, ["outcome_summary", "summary"], f"{summary.get('summary') or ''} {text}"]
        ]
    message = f"{summary.get('error_message') or record.get('error') or 'failed'} {text}"
    return [
        ["set", i, ["error"], message],
        ["set", i, ["outcome_summary", "error_message"], message],
    ]


def _twin(record: dict[str, Any], last: dict[str, Any], flipped: bool) -> dict[str, Any]:
    """A copy of a record called again at the end (a new call id), with its outcome or the other."""
    twin = copy.deepcopy(record)
    twin["call_id"] = f"{record['call_id']}-again"
    twin["timestamp"] = _stamp(_time(last["timestamp"]) + timedelta(seconds=45))
    if flipped:
        ok = not bool((record.get("outcome_summary") or {}).get("ok"))
        summary = twin["outcome_summary"]
        twin["result"] = "value-m-again" if ok else None
        twin["error"] = None if ok else "failed-m-again"
        summary.update(
            ok=ok,
            status="ok" if ok else "error",
            value_class="String" if ok else None,
            error_type=None if ok else "ArgumentError",
            error_message=twin["error"],
        )
    return twin


_SHAPES: Final[dict[str, Callable[[str], str]]] = {
    "upper": lambda t: t.upper(),
    "question": lambda t: f"{t.rstrip()}?",
    "json": lambda t: json.dumps({"value": t, "count": 4}),
    "email": lambda t: f"{t} ops@example.com",
    "path": lambda t: f"{t} reports/summary.csv",
    "list": lambda t: f"- {t}\n- second item",
    "lines": lambda t: f"{t}\nsecond line",
    "date": lambda t: f"{t} 2026-03-05",
}
"""Shapes real texts take (scheme v11): capitals, a question, a JSON document, an address, a file, a list, lines, a date."""


def _set_text(record: dict[str, Any], i: int, field: str, text: str, kwarg: str | None) -> Ops:
    """Edits that make one of a record's texts ``text`` (content, argument, keyword argument, summary, error)."""
    if field == "content":
        return [["set", i, ["content"], text]]
    if field == "arg":
        return [["set", i, ["args"], [text, *record["args"][1:]]]]
    if field == "kwarg":
        return [["set", i, ["kwargs"], {**record["kwargs"], kwarg: text}]] if kwarg else []
    if field == "summary":
        return [["set", i, ["outcome_summary", "summary"], text]]
    return [["set", i, ["error"], text], ["set", i, ["outcome_summary", "error_message"], text]]


def _text_of(record: dict[str, Any], field: str, kwarg: str | None) -> str:
    summary = record.get("outcome_summary") or {}
    value = {
        "content": record.get("content"),
        "arg": record["args"][0],
        "kwarg": record["kwargs"].get(kwarg) if kwarg else None,
        "summary": summary.get("summary"),
        "error": summary.get("error_message") or record.get("error"),
    }[field]
    return str(value) if value not in (None, "") else f"text-m-{field}"


def _copies(i: int, r: dict[str, Any], other: dict[str, Any], kwarg: str | None) -> dict[str, Ops]:
    """Another record's result, summary, content, call id or goal as this record's argument (scheme v11)."""
    summary = other.get("outcome_summary") or {}
    values = {
        "result": other.get("result") or summary.get("summary"),
        "summary": summary.get("summary"),
        "content": other.get("content"),
        "id": other.get("call_id"),
        "goal": other.get("goal"),
    }
    out: dict[str, Ops] = {}
    for name, value in values.items():
        text = str(value) if value not in (None, "") else "value-m-copy"
        out[f"copy.{name}.arg"] = _set_text(r, i, "arg", text, kwarg)
        if kwarg is not None:
            out[f"copy.{name}.kwarg"] = _set_text(r, i, "kwarg", text, kwarg)
    return out


def _disagreements(i: int, r: dict[str, Any]) -> dict[str, Ops]:
    """One outcome field saying the other thing than ``ok`` (scheme v11): status, error type, value class, result."""
    ok = bool((r.get("outcome_summary") or {}).get("ok"))
    return {
        "outcome.status": [["set", i, ["outcome_summary", "status"], "error" if ok else "ok"]],
        "outcome.type": [
            ["set", i, ["outcome_summary", "error_type"], "ArgumentError" if ok else None]
        ],
        "outcome.class": [["set", i, ["outcome_summary", "value_class"], None if ok else "String"]],
        "outcome.result": [
            ["set", i, ["result"], None if ok else "value-m-result"],
            ["set", i, ["error"], "failed-m-result" if ok else None],
        ],
    }


def _shapes(i: int, r: dict[str, Any], kwarg: str | None) -> dict[str, Ops]:
    """Each of a record's texts in each shape (:data:`_SHAPES`; scheme v11)."""
    out: dict[str, Ops] = {}
    for field in ("content", "arg", "kwarg", "summary", "error"):
        if field == "kwarg" and kwarg is None:
            continue
        text = _text_of(r, field, kwarg)
        for shape, make in _SHAPES.items():
            out[f"shape.{shape}.{field}"] = _set_text(r, i, field, make(text), kwarg)
    return out


KINDS_PREFIX: Final = "kind."
"""The prefix of the triggers that give a field no value or another type (scheme v15)."""

_BARE_FIELDS: Final = ("timestamp", "role", "speaker", "content", "method", "goal", "call_id")


def _kinds(i: int, r: dict[str, Any]) -> dict[str, Ops]:
    """One field without a value, blank, or of another type than the probes give it (scheme v15).

    Real histories hold records without a time, a role or a content, a
    content that is a list of parts or a number, arguments that are flags or
    numbers, and calls with many arguments; a program that looks for one of
    these answers nothing on the probes, and only these edits say which it
    looks for. Named ``kind.<what>``; a program these make fail is not
    told apart by it (the runners' ``x``, as for the composed edits): a
    re-spelling with one more guard is the same program.
    """
    edits: dict[str, Ops] = {}
    for field in _BARE_FIELDS:
        for name, value in (("none", None), ("blank", "")):
            edits[f"{KINDS_PREFIX}{name}.{field}"] = _put(r, i, field, value)
    text = r.get("content")
    parts: dict[str, Any] = {
        "list": [{"type": "text", "text": text}],
        "dict": {"type": "text", "text": text},
        "number": 42,
    }
    for name, value in parts.items():
        edits[f"{KINDS_PREFIX}content.{name}"] = [["set", i, ["content"], value]]
    args = list(r.get("args") or [])
    first = args[:1] or ["arg-m-0"]
    extra: dict[str, list[Any]] = {
        "flag": [*first, True],
        "off": [*first, False],
        "number": [*first, 3],
        "none": [*first, None],
        "four": [*first, "arg-m-1", "arg-m-2", "arg-m-3"],
        "six": [*first, "arg-m-1", "arg-m-2", "arg-m-3", "arg-m-4", "arg-m-5"],
    }
    for name, given in extra.items():
        edits[f"{KINDS_PREFIX}args.{name}"] = [["set", i, ["args"], given]]
    return edits


def triggers(probe: dict[str, Any], texts: tuple[str, ...] = ()) -> list[tuple[str, Ops]]:
    """Edits of a probe that each make one relation between fields true for one record.

    For a failed call, a successful one and a user message (:func:`_picks`):
    its parent missing from the history, later than it, or none; its own
    argument, method or another record's call id cited in its content, error
    or summary; its argument, keyword argument or a text made long; its
    arguments, content, time, goal or whole call (method and arguments) made
    another record's; the call made again at the end, with its outcome or
    the other; a keyword argument no other record has; a number or a code
    block in its content; and each text the program holds
    (:func:`._probes.trigger_texts`) as its content's first word, its
    argument, a keyword argument's name or value, or in its error (one
    name for every text, ``text.arg.fail``: which texts a spelling holds
    does not count, only where one of them changes its answer). Scheme
    v11 adds: another record's result, summary, content, call id or goal as
    its argument or keyword argument (:func:`_copies`); one outcome field
    disagreeing with ``ok`` (:func:`_disagreements`); and each of its texts
    in each of a few shapes real texts take (:func:`_shapes`). Scheme v15
    adds each of its fields without a value or blank, its content as a list
    of parts, a dict or a number, and its arguments with a flag, a number or
    a nil among them, or four or six of them (:func:`_kinds`). A program
    whose answer every probe leaves empty shows, by which of these change
    it, what it looks for.
    """
    history = probe["history"]
    last = history[-1]
    out: list[tuple[str, Ops]] = []
    for label, (i, j) in _picks(history).items():
        r, other = history[i], history[j]
        arg = str(r["args"][0])
        kwarg = next(iter(r["kwargs"]), None)
        edits: dict[str, Ops] = {
            "parent.missing": [["set", i, ["parent_call_id"], "call-9-99"]],
            "parent.later": [["set", i, ["parent_call_id"], history[-3]["call_id"]]],
            "parent.none": [["set", i, ["parent_call_id"], None]],
        }
        for name, text in (("arg", arg), ("method", r["method_name"]), ("id", other["call_id"])):
            for field in _TEXT_FIELDS:
                edits[f"cite.{name}.{field}"] = _append_text(r, i, field, text)
        edits["long.arg"] = [["set", i, ["args"], [f"{arg} {_FILLER}", *r["args"][1:]]]]
        if kwarg is not None:
            edits["long.kwarg"] = [["set", i, ["kwargs"], {**r["kwargs"], kwarg: _FILLER}]]
        for field in _TEXT_FIELDS:
            edits[f"long.{field}"] = _append_text(r, i, field, _FILLER)
        for field in ("args", "content", "timestamp", "goal"):
            edits[f"same.{field}"] = [["set", i, [field], copy.deepcopy(other[field])]]
        edits["same.call"] = [
            ["set", i, [key], copy.deepcopy(other[key])]
            for key in ("method_name", "name", "method", "args")
            if key in other
        ]
        edits["again"] = [["add", _twin(r, last, flipped=False)], ["name", f"{r['call_id']}-again"]]
        edits["again.flipped"] = [
            ["add", _twin(r, last, flipped=True)],
            ["name", f"{r['call_id']}-again"],
        ]
        edits["kwarg.own"] = [["set", i, ["kwargs"], {**r["kwargs"], "only_here": 7}]]
        edits["number"] = _append_text(r, i, "content", "42 and 3.5")
        edits["code"] = _append_text(r, i, "content", "\n```python\nprint(42)\n```\n")
        edits |= _copies(i, r, other, kwarg) | _disagreements(i, r) | _shapes(i, r, kwarg)
        edits |= _kinds(i, r)  # scheme v15
        named = ["name", r["call_id"]]
        out.extend((f"{name}.{label}", [*ops, named]) for name, ops in edits.items())
        for text in texts:  # one name for every text: which text a spelling holds does not count
            placed = {
                "lead": [["set", i, ["content"], f"{text} {r['content']}"]],
                "arg": [["set", i, ["args"], [text, *r["args"][1:]]]],
                "key": [["set", i, ["kwargs"], {**r["kwargs"], text: "value-m-key"}]],
                "error": _append_text(r, i, "error", text),
            }
            if kwarg is not None:
                placed["kwarg"] = [["set", i, ["kwargs"], {**r["kwargs"], kwarg: text}]]
            out.extend((f"text.{field}.{label}", [*ops, named]) for field, ops in placed.items())
    return out


# ---------------------------------------------------------------------------
# Composed edits (scheme v13): a fixed grammar of field edits, drawn at random
# ---------------------------------------------------------------------------

COMPOSED_EDITS: Final = 256
"""How many composed edits a program whose answers say nothing runs (scheme v13)."""

_POOL: Final = (
    "# Plan",
    "## Next steps\nship it",
    "- [ ] open item",
    "- [x] done item",
    "* [X] closed item",
    "1. first step\n2. second step",
    "42",
    "-3.5",
    " 17 ",
    "retry after 30 seconds",
    "Retry-After: 120",
    "src/app.py:42",
    "lib/util.rb:7:in `run'",
    "caf\u00e9 \u2713 na\u00efve",
    "9f86d081884c7d65",
    "https://example.com/a?b=1",
    "ops@example.com",
    "line one\nline two",
    "",
    "   ",
    "STOP NOW",
    "please stop here",
    "why did it fail?",
    "TODO: fix the parser",
    "ERROR: timeout after 30s",
    "HTTP 503 Service Unavailable",
    "[1, 2, 3]",
    '{"a": 1, "b": "two"}',
    "2026-03-05",
    "Thanks, that works!",
    "yes",
    "null",
)
"""Texts real histories hold (scheme v13): Markdown, task lists, numbers as text, hints, places, non-ASCII, hashes, blanks."""

_KEYS: Final = ("retryCount", "retry_count", "only_here", "Limit", "x")
_ROLES: Final = ("user", "assistant", "tool", "system")


def _draw(k: int, j: int, n: int) -> int:
    """A fixed draw in ``range(n)`` for the ``j``-th choice of the ``k``-th composed edit (the same on every machine)."""
    digest = hashlib.blake2b(f"{k}.{j}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % n


def _field(record: dict[str, Any], field: str) -> Any:
    summary = record.get("outcome_summary") or {}
    return {
        "content": record.get("content"),
        "summary": summary.get("summary"),
        "error": summary.get("error_message") or record.get("error"),
        "id": record.get("call_id"),
        "method": record.get("method_name"),
        "arg": (record.get("args") or [None])[0],
        "goal": record.get("goal"),
        "need": record.get("need"),
        "result": record.get("result"),
    }[field]


def _put(record: dict[str, Any], i: int, field: str, value: Any) -> Ops:
    """Ops that make one field of record ``i`` ``value``: a text as :func:`_set_text` does, a method under all three of its names, an outcome field, or any other top-level field."""
    if field in ("content", "arg", "kwarg", "summary", "error"):
        return _set_text(record, i, field, value, next(iter(record.get("kwargs") or {}), "query"))
    if field == "method":
        return [["set", i, [key], value] for key in ("method_name", "name", "method")]
    if field in ("status", "value_class", "error_type"):
        return [["set", i, ["outcome_summary", field], value]]
    return [["set", i, [field], value]]


def _composed_op(
    history: list[dict[str, Any]], k: int, j: int, texts: tuple[str, ...]
) -> tuple[Ops, list[str]]:
    """The ``j``-th edit of the ``k``-th composed edit, and the call ids of the records it touches."""
    n = len(history)
    i = 3 + _draw(k, 10 * j, n - 3)
    r = history[i]
    kind = _draw(k, 10 * j + 1, 13)
    pick = _draw(k, 10 * j + 2, 1 << 30)
    ids = [r["call_id"]]
    if (
        kind == 12 and i + 2 < n
    ):  # a user message (a text of the program's or the pool's), then two records of one role
        text = texts[0] if texts and pick % 2 else _POOL[pick // 2 % len(_POOL)]
        role = _ROLES[1 + pick // 64 % 3]
        ops = [["set", i, ["role"], "user"], ["set", i, ["speaker"], "user"]]
        ops += _put(
            r, i, "content", text if pick // 256 % 2 else f"{r.get('content') or ''} {text}".strip()
        )
        for x in (i + 1, i + 2):
            ops += [["set", x, ["role"], role], ["set", x, ["speaker"], role]]
        return ops, [r["call_id"], history[i + 1]["call_id"], history[i + 2]["call_id"]]
    if kind == 0:  # a role
        role = _ROLES[pick % len(_ROLES)]
        return [["set", i, ["role"], role], ["set", i, ["speaker"], role]], ids
    if kind in (1, 2):  # a text of the pool, or one the program holds
        field = ("content", "arg", "kwarg", "error", "summary", "goal", "need", "method")[pick % 8]
        text = texts[0] if kind == 2 and texts else _POOL[pick // 8 % len(_POOL)]
        whole = (pick // 1024) % 2 == 0 or field not in ("content", "error", "summary")
        value = text if whole else f"{_field(r, field) or ''} {text}".strip()
        return _put(r, i, field, value), ids
    if kind in (3, 4):  # another record's field copied into this one
        before = [x for x in range(i) if history[x].get("role") == "user"]
        same = [x for x in range(i) if history[x].get("method_name") == r.get("method_name")]
        source = (
            i - 1,
            before[-1] if before else 0,
            same[-1] if same else 0,
            min(i + 1, n - 1),
            pick % n,
        )[pick % 5]
        field = ("content", "summary", "error", "id", "method", "arg", "goal", "need", "result")[
            pick // 5 % 9
        ]
        value = _field(history[source], field)
        text = str(value) if value not in (None, "") else "value-m-copy"
        target = ("content", "content", "content", "arg", "kwarg", "error", "summary", "goal")[
            pick // 45 % 8
        ]
        shape = pick // 360 % 3
        if target in ("content", "error") and shape:
            text = f"re: {text} (see above)" if shape == 1 else text.upper()
        return _put(r, i, target, text), [*ids, history[source]["call_id"]]
    if kind == 5:  # the outcome
        ok = bool((r.get("outcome_summary") or {}).get("ok"))
        choice = pick % 4
        if choice == 0:
            return _outcome(i, not ok), ids
        if choice == 1:
            return _put(r, i, "status", ("ok", "error", "timeout", "cancelled")[pick // 4 % 4]), ids
        if choice == 2:
            return _put(
                r, i, "value_class", ("String", "Integer", "Hash", "NilClass", None)[pick // 4 % 5]
            ), ids
        return _put(
            r, i, "error_type", ("Timeout::Error", "KeyError", "ArgumentError", None)[pick // 4 % 4]
        ), ids
    if kind == 6:  # the parent
        parent = (
            "call-9-99",
            None,
            history[min(i + 2, n - 1)]["call_id"],
            history[i - 1]["call_id"],
            r["call_id"],
        )[pick % 5]
        return [["set", i, ["parent_call_id"], parent]], ids
    if kind == 7:  # the time: the same moment as before, out of order, or a long pause
        choice = pick % 3
        if choice == 0:
            return [["set", i, ["timestamp"], history[i - 1]["timestamp"]]], ids
        if choice == 1:
            return [
                [
                    "set",
                    i,
                    ["timestamp"],
                    _stamp(_time(history[i - 1]["timestamp"]) - timedelta(minutes=5)),
                ]
            ], ids
        return [
            ["set", x, ["timestamp"], _stamp(_time(history[x]["timestamp"]) + timedelta(hours=2))]
            for x in range(i, n)
        ], ids
    if kind == 8:  # the depth
        return [["set", i, ["depth"], (0, 1, 3, 7, None)[pick % 5]]], ids
    if kind == 9:  # the arguments
        args = list(r.get("args") or [])
        new_args: list[Any] | None = (
            [*args, "extra-m-arg"],
            [],
            None,
            [42, *args[1:]],
            ["42", *args[1:]],
            [f"{args[0] if args else 'arg'}\nsecond line", *args[1:]],
            [*args, {"nested": True}],
        )[pick % 7]
        return [["set", i, ["args"], new_args]], ids
    if kind == 10:  # the keyword arguments
        key = _KEYS[pick % len(_KEYS)]
        given: Any = ("value-m-kwarg", 7, None, "", True)[pick // 8 % 5]
        return [["set", i, ["kwargs"], {**(r.get("kwargs") or {}), key: given}]], ids
    # the call made again at the end (and a turn with no room left before the end)
    twin = _twin(r, history[-1], flipped=pick % 2 == 1)
    return [["add", twin]], [*ids, twin["call_id"]]


def composed(probe: dict[str, Any], texts: tuple[str, ...] = ()) -> list[tuple[str, Ops]]:
    """:data:`COMPOSED_EDITS` edits of a probe, each one to three field edits drawn from a fixed grammar.

    A trigger (:func:`triggers`) makes one relation true for one record; a
    program may look for two at once (a tool call in a turn whose user asked
    to stop), or for a relation no trigger names. Each composed edit draws
    one to three edits — a record's role; a text of a fixed pool (Markdown,
    task lists, numbers as text, retry hints, source places, non-ASCII,
    blanks) or one the program holds, as a field or in it; another
    record's field (the one before, the last user message, the last call
    of the same method, the next one, any) copied into this one, whole,
    quoted or in capitals; its outcome, parent, time, depth, arguments or
    keyword arguments; the call made again — with a fixed draw
    (:func:`_draw`), the same for every program and machine. Named
    ``z<k>``; each names the records it touches.
    """
    history = probe["history"]
    out: list[tuple[str, Ops]] = []
    for k in range(COMPOSED_EDITS):
        ops: Ops = []
        names: list[str] = []
        for j in range(1 + _draw(k, 0, 3)):
            more, touched = _composed_op(history, k, j, texts)
            ops += more
            names += touched
        out.append((f"z{k}", [*ops, *(["name", n] for n in dict.fromkeys(names))]))
    return out


# ---------------------------------------------------------------------------
# Typed texts (scheme v14): which kinds of text a program reacts to
# ---------------------------------------------------------------------------

TYPED_TEXTS: Final = (
    "#release",
    "@alice",
    "v2.3.1",
    "version 1.4",
    "https://example.com/docs/setup",
    "ops@example.com",
    "10.0.0.12",
    "src/app.py:42",
    "report.csv",
    "15 minutes",
    "2h 30m",
    "12 MB",
    "$49.99",
    "85%",
    "2026-03-05",
    "14:30",
    "SELECT name FROM users WHERE id = 4",
    "$HOME and ${API_KEY}",
    "TODO: fix the parser",
    "FIXME later",
    "`make test`",
    "```python\nprint(42)\n```",
    "# Plan",
    "- [ ] open item",
    "- first item\n- second item",
    '"a quoted phrase"',
    "please don't delete it",
    "why did it fail?",
    "stop!",
    "URGENT",
    "42",
    "-3.5",
    "0x1f",
    "9f86d081884c7d65",
    "123e4567-e89b-12d3-a456-426614174000",
    '{"retries": 3}',
    "retries=3",
    "retryCount",
    "retry_count",
    "\U0001f680 shipped",
    "caf\u00e9",
    "+1 555 0100",
    "HTTP 503",
    "KeyError: 'name'",
    "Traceback (most recent call last):",
    "line one\nline two",
    "   ",
    "",
    # scheme v15: more of the Markdown that replies hold
    "1. first step\n2. second step",
    "[the docs](https://example.com/docs)",
    "**important**",
    "| name | count |\n| --- | --- |",
    "> a quoted line",
    "<b>bold</b>",
)
"""Kinds of text real histories hold (scheme v14): tags, mentions, versions, places, amounts, times, queries, markers, code, Markdown, quotes, numbers, ids, errors, blanks; scheme v15 added numbered lists, links, emphasis, tables, block quotes and HTML."""

_TYPED_FIELDS: Final = ("content.user", "content.ok", "error.fail", "arg.ok")


def typed(probe: dict[str, Any]) -> list[tuple[str, Ops]]:
    """Each typed text (:data:`TYPED_TEXTS`) added to a user message's and a reply's content, a failure's error, or as a call's argument.

    Which of these change a program's answer says which kinds of text it
    reads — a program that extracts tags and one that extracts versions
    from the same contents answer alike on every probe, and differ here —
    without the program's own texts. Named ``typed.<k>.<field>``.
    """
    history = probe["history"]
    picks = _picks(history)
    out: list[tuple[str, Ops]] = []
    for k, text in enumerate(TYPED_TEXTS):
        for place in _TYPED_FIELDS:
            field, label = place.split(".")
            i = picks[label][0]
            r = history[i]
            if field == "arg":
                ops = [["set", i, ["args"], [text, *(r.get("args") or [])[1:]]]]
            else:
                ops = _append_text(r, i, field, text)
            # the record named (scheme v15): an answer that now shows it is marked N
            out.append((f"typed.{k}.{place}", [*ops, ["name", r["call_id"]]]))
    return out

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
module is the only place that knows it.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any, Final

__all__ = ["KINDS", "RECORD_EDITS", "mutations"]

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

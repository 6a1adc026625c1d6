"""Run Python history programs on probe histories; a script, run in its own process.

Reads one JSON line per program from stdin, ``{"code": ..., "key": ..., "probes":
[...]}`` (``probes`` only the first time a ``key`` is sent; the process keeps
them), and answers each with one JSON line (``{"error": "unknown probes"}``
when it does not know the key): ``[{"ok": true, "value": ...} | {"ok": false,
"error": "<type>"}, ...]`` (one entry a probe; a dict is written ``{"d": [[key, value], ...]}``). The answer is the value passed to
``final_answer``, else the ``result`` variable, else the last expression's value.

A probe may carry ``mutations``, edits of its history (``_mutations.py``); a
request with ``"edit": true`` then also runs the program on each edit, under
the inputs its answers were given with, and the answer is ``{"outcome": [...], "changed": ["0+1-b?...", ...]}``:
per probe, one character an edit (:func:`_mark`; ``?`` when the run ran out of
time).

This process is started by :mod:`._behaviour` with ``-I`` (no site, no
environment, no current directory on the path) and stays up for the next
program. It limits its own memory and file size (it cannot write a file), sends
the program's standard output and error nowhere, gives each run half a second
and each program three seconds in all (four more for the edits), with a small set of builtins: no ``open``,
``exec``, ``eval``, ``input`` or ``breakpoint``, imports only from a list of pure
standard-library modules. Names the program does not define (the runtime's tools)
are inert stubs. It is a narrow room, not a security boundary: the code already
ran with the host runtime's full rights when the model wrote it.
"""

from __future__ import annotations

import ast
import builtins
import datetime as _real_datetime
import json
import os
import pickle
import re
import resource
import signal
import sys
import time
import time as _real_time
import types
from typing import Any

_MODULES = frozenset(
    {
        "_strptime",  # what strptime imports, through the program's own __import__
        "collections",
        "itertools",
        "functools",
        "operator",
        "datetime",
        "time",
        "calendar",
        "re",
        "json",
        "math",
        "statistics",
        "heapq",
        "bisect",
        "string",
        "textwrap",
        "typing",
        "dataclasses",
        "copy",
        "decimal",
        "fractions",
        "enum",
    }
)
_BLOCKED = frozenset(
    {"open", "exec", "eval", "compile", "input", "breakpoint", "exit", "quit", "help", "__import__"}
)
_SECONDS = 0.5
_BUDGET = 3.0
_MUTATION_BUDGET = 4.0
_MEMORY = 1 << 30


class _Final(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class _Stub:
    """What an undefined name (a runtime tool) is: callable, indexable, falsy, inert."""

    def __call__(self, *args: Any, **kwargs: Any) -> _Stub:
        return self

    def __getattr__(self, name: str) -> _Stub:
        return self

    def __getitem__(self, key: Any) -> _Stub:
        return self

    def __iter__(self) -> Any:
        return iter(())

    def __bool__(self) -> bool:
        return False

    def __len__(self) -> int:
        return 0


class _Names(dict):  # type: ignore[type-arg]
    """The program's globals: builtins first, then an inert stub for an unknown name."""

    def __missing__(self, key: str) -> Any:
        names = dict.__getitem__(self, "__builtins__")
        if key in names:
            return names[key]
        return _Stub()


class _Inputs(dict):  # type: ignore[type-arg]
    """``kwargs``: any key gives the input value, unless the program names a default."""

    def __init__(self, value: Any, known: dict[str, Any]) -> None:
        super().__init__(known)
        self.value = value

    def __missing__(self, key: Any) -> Any:
        return self.value

    def get(self, key: Any, default: Any = None) -> Any:
        if key in self:
            return self[key]
        return self.value if default is None else default


_NOW = 1_772_755_200.0  # 2026-03-06T00:00:00Z: after every probe, the same on every run


def _frozen_clock() -> dict[str, types.ModuleType]:
    """``time`` and ``datetime`` whose clocks stand still: an answer never depends on when it ran."""
    frozen_time = types.ModuleType("time")
    frozen_time.__dict__.update(
        {k: v for k, v in vars(_real_time).items() if not k.startswith("__")}
    )
    for name in ("monotonic", "perf_counter", "process_time", "thread_time"):
        setattr(frozen_time, name, lambda: 0.0)
    for name in ("monotonic_ns", "perf_counter_ns", "process_time_ns"):
        setattr(frozen_time, name, lambda: 0)
    frozen_time.__dict__.update(
        time=lambda: _NOW,
        time_ns=lambda: int(_NOW * 1e9),
        localtime=lambda secs=None: _real_time.gmtime(_NOW if secs is None else secs),
        gmtime=lambda secs=None: _real_time.gmtime(_NOW if secs is None else secs),
        ctime=lambda secs=None: _real_time.ctime(_NOW if secs is None else secs),
        sleep=lambda secs: None,
    )

    real = _real_datetime

    class FrozenDatetime(real.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            moment = real.datetime.fromtimestamp(_NOW, real.timezone.utc)
            return moment if tz is not None else moment.replace(tzinfo=None)

        @classmethod
        def utcnow(cls) -> Any:
            return real.datetime.fromtimestamp(_NOW, real.timezone.utc).replace(tzinfo=None)

        @classmethod
        def today(cls) -> Any:
            return cls.utcnow()

    class FrozenDate(real.date):
        @classmethod
        def today(cls) -> Any:
            return real.datetime.fromtimestamp(_NOW, real.timezone.utc).date()

    frozen_datetime = types.ModuleType("datetime")
    frozen_datetime.__dict__.update({k: v for k, v in vars(real).items() if not k.startswith("__")})
    frozen_datetime.__dict__.update(datetime=FrozenDatetime, date=FrozenDate)
    return {"time": frozen_time, "datetime": frozen_datetime}


def _import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> Any:
    root = name.split(".")[0]
    if root not in _MODULES:
        return _Stub()
    if root in _FROZEN:
        return _FROZEN[root]
    return __import__(name, globals, locals, fromlist, level)


_FROZEN = _frozen_clock()


def _final_answer(value: Any = None, *args: Any, **kwargs: Any) -> None:
    raise _Final(value)


def _builtins() -> dict[str, Any]:
    safe = {k: v for k, v in vars(builtins).items() if k not in _BLOCKED}
    safe["__import__"] = _import
    safe["print"] = lambda *a, **k: None
    safe["final_answer"] = _final_answer
    return safe


_LAST = "__recurscope_last__"


def _compile(code: str) -> Any:
    tree = ast.parse(code)
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body[-1]
        tree.body[-1] = ast.copy_location(
            ast.Assign(targets=[ast.Name(id=_LAST, ctx=ast.Store())], value=last.value), last
        )
        ast.fix_missing_locations(tree)
    return compile(tree, "<program>", "exec")


def _plain(value: Any, depth: int = 0) -> Any:
    """The answer as JSON data: a dict as {"d": [[key, value], ...]}, sets sorted, objects as text."""
    if depth > 12:
        return None
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else str(value)
    if isinstance(value, dict):
        return {
            "d": [
                [_plain(k, depth + 1), _plain(v, depth + 1)] for k, v in list(value.items())[:500]
            ]
        }
    if isinstance(value, set | frozenset):
        return sorted((_plain(v, depth + 1) for v in list(value)[:500]), key=repr)
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value[:500]]
    if isinstance(value, _Stub):
        return None
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    if hasattr(value, "__dict__") and not callable(value):
        return _plain(vars(value), depth + 1)
    try:
        return str(value)[:2000]
    except Exception:
        return None


def _timeout(signum: int, frame: Any) -> None:
    raise TimeoutError("probe run took too long")


def _run(
    program: Any, probe: dict[str, Any], inputs: dict[str, Any], deadline: float
) -> dict[str, Any]:
    if time.monotonic() > deadline:
        return {"ok": False, "error": "Budget"}
    history = probe["history"]
    names = _Names(
        __builtins__=_builtins(),
        __name__="__program__",
        conversation_history=history,
        history=history,
        context=probe["context"],
        kwargs=_Inputs(inputs["default"], inputs["kwargs"]),
        args=list(inputs["args"]),
    )
    signal.setitimer(signal.ITIMER_REAL, _SECONDS)
    try:
        exec(program, names)
    except _Final as final:
        return {"ok": True, "value": _plain(final.value)}
    except BaseException as exc:  # the program's own failure is its answer
        return {"ok": False, "error": type(exc).__name__}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if "result" in names:
        return {"ok": True, "value": _plain(names["result"])}
    if _LAST in names:
        return {"ok": True, "value": _plain(names[_LAST])}
    return {"ok": True, "value": None}


def _telling(result: dict[str, Any]) -> bool:
    return bool(result["ok"]) and result["value"] not in (None, [], "", 0, False, {"d": []})


_INPUT_NAMES = re.compile(r"\b(?:kwargs|args)\b")
_PROBES: dict[str, tuple[list[bytes], list[list[Any]]]] = {}
_PROBES_MAX = 256


def _most_telling(
    program: Any, probes: list[bytes], uses_inputs: bool
) -> tuple[list[dict[str, Any]], int]:
    """The answers under the inputs that give the most probes a non-empty answer (the first on a tie), and those inputs.

    A program that never names ``kwargs`` or ``args`` answers alike under every
    input, so it is run under the first only.
    """
    deadline = time.monotonic() + _BUDGET
    best: list[dict[str, Any]] = []
    best_variant = 0
    best_score = -1
    variants = len(pickle.loads(probes[0])["inputs"]) if uses_inputs else 1
    for variant in range(variants):
        outcome = []
        for frozen in probes:
            copy = pickle.loads(frozen)  # a fresh copy: a program may change what it is given
            copy["context"]["conversation_history"] = copy["history"]
            outcome.append(_run(program, copy, copy["inputs"][variant], deadline))
        score = sum(_telling(r) for r in outcome)
        if score > best_score:
            best, best_variant, best_score = outcome, variant, score
        if score == len(probes):
            break
    return best, best_variant


def _patch(probe: dict[str, Any], ops: list[Any]) -> None:
    """Apply one edit's operations to a probe (``_mutations.py``): ``del`` or ``add`` a record, ``set`` a field.

    ``name`` changes nothing: it names the record a trigger edited (:func:`_named`).
    """
    history = probe["history"]
    for op in ops:
        if op[0] == "del":
            del history[op[1]]
        elif op[0] == "set":
            target = history[op[1]]
            for key in op[2][:-1]:
                target = target[key]
            target[op[2][-1]] = op[3]
        elif op[0] == "add":
            history.append(op[1])


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"d"} and isinstance(value["d"], list):
            return {"d": sorted((_canonical(item) for item in value["d"]), key=repr)}
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


_DIGITS = re.compile(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _skeleton(value: Any, numbers: list[float]) -> str:
    """The answer with every number (also inside a text) written ``#``; the numbers, in order, go to ``numbers``."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int | float):
        numbers.append(float(value))
        return "#"
    if isinstance(value, str):
        numbers.extend(float(d) for d in _DIGITS.findall(value))
        return _DIGITS.sub("#", value)
    if isinstance(value, list):
        return "[" + ",".join(_skeleton(v, numbers) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_skeleton(value[k], numbers)}" for k in sorted(value)) + "}"
    return "?"


def _shape(result: dict[str, Any]) -> tuple[str, list[float]]:
    """A run's result as its skeleton and its numbers (:func:`_skeleton`)."""
    numbers: list[float] = []
    return _skeleton(_canonical(result), numbers), numbers


def _mark(before: tuple[str, list[float]], after: dict[str, Any]) -> str:
    """How an edit changed an answer (``before`` is its :func:`_shape`): ``0`` not; only its numbers: ``+`` up, ``-`` down, ``b`` both; ``1`` more."""
    skeleton, first = before
    second: list[float] = []
    if skeleton != _skeleton(_canonical(after), second):
        return "1"
    if first == second:
        return "0"
    if len(first) != len(second):
        return "1"
    up = any(b > a for a, b in zip(first, second, strict=True))
    down = any(b < a for a, b in zip(first, second, strict=True))
    return "b" if up and down else "+" if up else "-"


_UNKNOWN = frozenset({"Budget", "TimeoutError", "MemoryError", "RecursionError"})


def _named(mark: str, ops: list[Any], base_text: str, after: dict[str, Any]) -> str:
    """``N`` for a changed answer that now names the record a trigger edited (its ``name`` op)."""
    names = [op[1] for op in ops if op[0] == "name"]
    if mark == "0" or not names:
        return mark
    text = json.dumps(after, default=str)
    return "N" if any(n in text and n not in base_text for n in names) else mark


def _changes(
    program: Any,
    probes: list[bytes],
    mutations: list[list[Any]],
    variant: int,
    base: list[dict[str, Any]],
) -> list[str]:
    """Per probe, one character an edit: how it changed the answer (:func:`_mark`), ``?`` unknown, ``x`` it failed."""
    deadline = time.monotonic() + _MUTATION_BUDGET
    changed = []
    for frozen, edits, result in zip(probes, mutations, base, strict=True):
        before = _shape(result)  # once a probe, not once an edit
        base_text = json.dumps(result, default=str)
        answered = bool(result.get("ok"))
        marks = []
        for ops in edits:
            copy = pickle.loads(frozen)
            try:
                _patch(copy, ops)
            except (LookupError, TypeError):
                marks.append("?")
                continue
            copy["context"]["conversation_history"] = copy["history"]
            result = _run(program, copy, copy["inputs"][variant], deadline)
            if not result["ok"] and result["error"] in _UNKNOWN:
                marks.append("?")
            elif not result["ok"] and answered:
                marks.append("x")  # the edit made it fail (scheme v13)
            else:
                marks.append(_named(_mark(before, result), ops, base_text, result))
        changed.append("".join(marks))
    return changed


def _answer(line: str) -> str:
    try:
        item = json.loads(line)
        key = str(item["key"])
        if "probes" in item:
            if len(_PROBES) >= _PROBES_MAX:
                _PROBES.clear()
            mutations = [list(p.pop("mutations", None) or []) for p in item["probes"]]
            for p in item["probes"]:  # one history, shared: each copy unpickles it once
                p["context"]["conversation_history"] = p["history"]
            _PROBES[key] = ([pickle.dumps(p) for p in item["probes"]], mutations)
        code = str(item["code"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return json.dumps({"error": "bad request"})
    stored = _PROBES.get(key)
    if stored is None:
        return json.dumps({"error": "unknown probes"})
    probes, mutations = stored
    changed: list[str] | None = None
    try:
        program = _compile(code)
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        outcome = [{"ok": False, "error": "SyntaxError"} for _ in probes]
    else:
        outcome, variant = _most_telling(program, probes, _INPUT_NAMES.search(code) is not None)
        if item.get("edit") and any(mutations):
            changed = _changes(program, probes, mutations, variant, outcome)
    try:
        if changed is None:
            return json.dumps(outcome)
        return json.dumps({"outcome": outcome, "changed": changed})
    except (TypeError, ValueError, RecursionError):
        return json.dumps([{"ok": False, "error": "Unserializable"} for _ in probes])


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(signal.SIGALRM, _timeout)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, 1)
    os.dup2(nowhere, 2)
    for line in sys.stdin:
        answers.write(_answer(line) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()

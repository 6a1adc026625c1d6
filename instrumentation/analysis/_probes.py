"""Fixed synthetic histories a history program is run on, and what its answer drew from them.

A behavioural sketch (:mod:`._behaviour`) runs a program on a few *probe*
histories and hashes which probe records and values reach its answer. Every
probe value is either unique to one record (``call-1-04``, a timestamp,
``text-1-04``) or one of a few shared values (a method name, a speaker, an
error type), so a token found anywhere in the answer — a list item, a dict key,
a word inside a sentence — says which record or value it came from, whatever
the answer's wording or shape.

Probes 0–2 share method names, speakers and error types among records (so
tallies, groups and distinct values have something to count); probe 3 gives
three records in four a method name of their own, so any field of such a
record that reaches the answer names the record. Probe 2 also holds what real
histories sometimes do and the others never: a time that goes backwards, two
records at one time, a call id used twice, a nil keyword argument, a child
called with its parent's arguments, links and quoted phrases in content, a
blank reply, boolean keyword arguments, a failure without a message
(:func:`_oddities`), and what the program itself searches record texts for
(a regular expression's shortest match, a fragment it tests for), where the
probe's texts do not already hold it (:func:`needles`, :func:`_plant`), twice:
an earlier record holds another match (scheme v16), so a program that keeps
the latest, the largest or every match answers in its own way.

A program's own literals are values it compares records with (``==
"web_search"``): for each, one probe value of the kind it is compared with (a
method, a speaker, an error type, a content word) is *renamed* to the literal in
every probe, the slot chosen by a hash of the literal alone. Renaming keeps the
probe's structure, so two re-spellings that compare with the same literal see
the same probes whatever other literals they hold, and an answer token equal to
the literal counts as the value it renamed. Nothing here is random; the probes
are part of the sketch scheme.
"""

from __future__ import annotations

import re
import re._constants as _sre  # the standard library's own reading of a pattern (3.11+)
import re._parser as _sre_parser
import warnings
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from functools import lru_cache
from hashlib import sha1
from typing import Any, Final

from ._model import HISTORY_KEY
from ._sketch import RECORD_FIELDS

FOCUS: Final = "alpha_op"
"""What ``kwargs[...]``, ``args[...]`` and a missing input give first: a method name and a content word."""

_POOLS: Final[dict[str, tuple[str, ...]]] = {
    "method": ("alpha_op", "beta_op", "gamma_op", "delta_op", "epsilon_op", "zeta_op", "eta_op"),
    "speaker": ("user", "assistant", "tool", "calculator"),
    "error": ("TimeoutError", "ArgumentError", "KeyError"),
    "word": ("invoice", "weather", "deploy", "report", "budget"),
}
_CLASSES: Final = ("String", "Integer", "Hash")
_RENAMABLE: Final[dict[str, tuple[str, ...]]] = {
    "method": _POOLS["method"][1:4],  # the focus keeps its name; these three are in every probe
    "speaker": ("calculator", "tool", "assistant"),
    "error": _POOLS["error"],
    "word": _POOLS["word"],
    "class": _CLASSES,
}
_OVERFLOW: Final[dict[str, tuple[str, ...]]] = {"method": _POOLS["method"][4:]} | {
    k: () for k in ("speaker", "error", "word", "class")
}
_KWARG_KEYS: Final = ("query", "term", "limit", "target")
MAX_LITERALS: Final = 6

_LENGTHS: Final = (24, 16, 30, 20)
"""Records in each probe: long enough that the first and the last N differ for N up to 8."""
_CURRENT: Final = (8, 6, 11, 7)
"""Which record of each probe is "the current call" (``context["call_id"]``)."""
_UNIQUE_PROBE: Final = 3


def _draws(p: int, n: int) -> list[int]:
    """A fixed pseudo-random sequence per probe (a linear congruential generator, not ``random``)."""
    state = 2_654_435_761 * (p + 1) % 2**32
    out = []
    for _ in range(n):
        state = (1_103_515_245 * state + 12_345) % 2**31
        out.append(state >> 8)
    return out


def _shape(p: int) -> tuple[int, set[int], set[int], set[int], list[int], list[int]]:
    """A probe's length, failing records, user turns, children of the current call, methods, gaps."""
    n = _LENGTHS[p]
    draws = _draws(p, 5 * n)
    failing = {i for i in range(n) if draws[i] % 10 < (3 if p != 1 else 2)}
    if p == 1:  # the last five all succeed here, and fail partly elsewhere
        failing -= set(range(n - 5, n))
    else:  # the others end in a run of failures after a success
        failing = (failing - {n - 3 - p % 2}) | set(range(n - 2 + p % 2, n))
    users = {i for i in range(n) if draws[n + i] % 10 < 3} | {0}
    children = {i for i in range(_CURRENT[p] + 1, n) if draws[2 * n + i] % 10 < 4}
    if p == _UNIQUE_PROBE:
        methods = [1 + (i // 4) % 3 for i in range(n)]  # the records that do not have their own
    else:
        methods = [draws[3 * n + i] % (4 + (p == 1) + 3 * (p == 2)) for i in range(n)]
    # seconds apart, with a pause of 20-90 minutes every few records (so hours differ)
    gaps = [
        60 * (20 + draws[4 * n + i] % 71)
        if draws[4 * n + i] % 6 == 0
        else 5 + draws[4 * n + i] % 37
        for i in range(n)
    ]
    if p in (0, 2):  # a method called twice in a row at the very end
        methods[n - 1] = methods[n - 2]
    return n, failing, users, children, methods, gaps


_SHAPES: Final = tuple(_shape(p) for p in range(len(_LENGTHS)))


def _stamp(p: int, i: int) -> str:
    at = datetime(2026, 3, 1 + p, 9, 0, 0) + timedelta(seconds=sum(_SHAPES[p][5][:i]))
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------
# A program's literals
# ---------------------------------------------------------------------------

_LITERAL: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]{1,39}$")
_PROBE_VALUES: Final = frozenset(v for pool in _POOLS.values() for v in pool) | set(_CLASSES)
_NOT_LITERALS: Final = frozenset(
    RECORD_FIELDS
    | _PROBE_VALUES
    | {HISTORY_KEY, "memory", "input", "call_id", "session_id", "attempt"}
    | {"ok", "error", "success", "failed", "failure", "true", "false", "nil", "None"}
    | {"system", "model"}
)
_PY_STRING: Final = re.compile(
    r"""(?<![A-Za-z0-9_])(?:[rbuRBU]{0,2})(['"])((?:\\.|(?!\1).){1,40}?)\1"""
)
_RB_SYMBOL: Final = re.compile(r"(?<![:A-Za-z0-9_]):([A-Za-z_][A-Za-z0-9_]*[?!]?)")
_COMPARED_BEFORE: Final = re.compile(
    r"(?:==|!=|===|\bin|\bnot in|\bwhen|include\?|start_with\?|end_with\?|startswith|endswith)"
    r"\s*[(\[{]?\s*(?:(?:[rbuRBU]{0,2}[\x22\x27][^\x22\x27\n]*[\x22\x27]|:\w+)\s*,\s*)*$"
    r"|^\s*[A-Za-z_]\w*\s*=\s*$",
)
_COMPARED_AFTER: Final = re.compile(r"^\s*(?:==|!=|(?:not\s+)?in\b)")
_ASSIGNED: Final = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*$")
_INPUT_KEY: Final = re.compile(
    r"\b(?:kwargs|params|inputs|options)\s*(?:\.(?:get|fetch)\(|\[)\s*[\x22\x27:]?([A-Za-z_]\w{0,30})"
)
_INPUT_DEFAULT: Final = re.compile(
    r"\b(?:kwargs|params|inputs|options)\s*(?:\.(?:get|fetch)\(\s*[\x22\x27:]?([A-Za-z_]\w*)[\x22\x27]?\s*"
    r"(?:,|\)\s*(?:\|\||\bor\b))"
    r"|\[\s*[\x22\x27:]?([A-Za-z_]\w*)[\x22\x27]?\s*\]\s*(?:\|\||\bor\b"
    r"|\bif\b[^\n]*?\belse\b))"
    r"\s*(?:[\x22\x27]([A-Za-z_][\w.\-]{1,39})[\x22\x27]|:([A-Za-z_]\w*))"
)
_RUBY_WORDS: Final = frozenset(
    {"to_s", "to_i", "to_f", "to_sym", "size", "length", "count", "each", "map", "select"}
)
# Which kind of value a literal is compared with, from the nearest field name before it.
_KIND_WORDS: Final = (
    ("method", ("method_name", "method", "name", "tool", "op", "target", "wanted", "fn", "action")),
    ("speaker", ("speaker", "role", "author", "from", "who")),
    ("error", ("error_type", "error", "status", "exception")),
    ("class", ("value_class", "class", "klass", "type_name")),
    (
        "word",
        (
            "content",
            "summary",
            "text",
            "message",
            "args",
            "query",
            "term",
            "include",
            "downcase",
            "lower",
            "match",
            "search",
        ),
    ),
)
_KIND_OF: Final = {word: kind for kind, words in _KIND_WORDS for word in words} | {"kwargs": "key"}
"""``"timeout" in r["kwargs"]``: a key the probe records' ``kwargs`` must have (kind ``key``)."""
_KIND_TOKEN: Final = re.compile(r"[A-Za-z_]+")


def literals(code: str, language: str) -> list[tuple[str, str]]:
    """The literals a program compares record values with, and the kind of value each is compared with.

    A literal counts when it is compared (``== "web_search"``, ``"x" ==``, ``in
    ("a", "b")``, ``include?("x")``, ``when :x``) or bound to a name that is
    compared (``TOOL = "web_search"`` … ``== TOOL``). Keys, labels, field names,
    texts with spaces or format marks and values every probe already has are
    left out. The kind (method, speaker, error, word) comes from the nearest
    field name before it on its line (a method when none). Sorted; at most
    ``MAX_LITERALS``.
    """
    found: dict[str, str] = {}
    candidates = [(m, m.group(2)) for m in _PY_STRING.finditer(code)]
    if language == "ruby":
        candidates += [(m, m.group(1)) for m in _RB_SYMBOL.finditer(code)]
    for match, text in candidates:
        if not _LITERAL.match(text) or text in _NOT_LITERALS or _ruby_method_word(text):
            continue
        line_start = code.rfind("\n", 0, match.start()) + 1
        before = code[line_start : match.start()]
        after = code[match.end() : match.end() + 12]
        if not (_COMPARED_BEFORE.search(before) or _COMPARED_AFTER.match(after)):
            continue
        rest = code[match.end() : code.find("\n", match.end())]
        assigned = _ASSIGNED.match(before)
        if assigned:
            use = _compared_use(code, assigned.group(1))
            if use is None:
                continue  # a name bound to it is never compared: a label, not a filter value
            before, rest = use
        found.setdefault(text, _kind(before) or _kind(rest) or "method")
    for key, literal in input_defaults(code).items():
        if literal not in _NOT_LITERALS:
            found.setdefault(literal, _kind(key) or "method")
    return sorted(found.items())[:MAX_LITERALS]


def _own_keys(code: str) -> list[str]:
    return _INPUT_KEY.findall(code)


# ---------------------------------------------------------------------------
# Text a program looks for
# ---------------------------------------------------------------------------

_PY_PATTERN: Final = re.compile(
    r"\bre\.(?:search|match|fullmatch|findall|finditer|compile|sub|subn|split)\(\s*"
    r"[rRbBuU]{0,2}(\x22|\x27)((?:\\.|(?!\1).){1,80}?)\1"
)
_RB_PATTERN: Final = re.compile(
    r"(?:=~|!~|\(|,|(?<![=!<>])=|\bwhen|\bgrep|\bscan|\bmatch\??|\bsub|\bgsub|\bsplit|\bindex)\s*"
    r"/((?:\\.|[^/\n]){1,80})/[imxo]*"
    r"|%r\{((?:[^{}\n]|\{[^{}\n]*\}){1,80})\}[imxo]*"
)
_NEEDLE: Final = re.compile(
    r"(?:\.(?:startswith|endswith|find|count|index|include\?|start_with\?|end_with\?)\(\s*)"
    r"(\x22|\x27)([^\x22\x27\n]{1,40})\1"
    r"|(\x22|\x27)([^\x22\x27\n]{1,40})\3\s+(?:not\s+)?in\b"
)
MAX_NEEDLES: Final = 3


def needles(code: str, language: str) -> list[tuple[str, str]]:
    """Texts a program looks for inside record texts, as examples of what it would find.

    A regular expression it searches with (``re.search(r"https?://\\S+", ...)``,
    Ruby ``=~ /\\.py\\b/``) becomes its shortest example
    (:func:`regex_example`); a fragment it tests for (``"://" in text``,
    ``.end_with?(".rb")``, ``"warn" in summary``) is itself (a fragment that
    is a name is also a literal, :func:`literals`, which renames a probe value
    to it; here it is found inside a text). Probe 2
    plants each in a few records' texts (:func:`_plant`), so a program that
    looks for links, status codes or file names has something to find. Each
    comes as (the pattern as Python reads it, the example). Sorted; at most
    ``MAX_NEEDLES``.
    """
    found: set[tuple[str, str]] = set()
    patterns = [m.group(2) for m in _PY_PATTERN.finditer(code)]
    if language == "ruby":
        patterns += [_pythonic(m.group(1) or m.group(2)) for m in _RB_PATTERN.finditer(code)]
    for pattern in patterns:
        example = regex_example(pattern)
        if example and example.strip():
            found.add((pattern, example))
    for match in _NEEDLE.finditer(code):
        text = match.group(2) or match.group(4)
        if text.strip() and text not in _NOT_LITERALS and not _ruby_method_word(text):
            found.add((re.escape(text), text))
    return sorted(found)[:MAX_NEEDLES]


_TEXT: Final = re.compile(r"^[^\s\x22\x27\\]{1,40}$")
MAX_TRIGGER_TEXTS: Final = 8


def trigger_texts(code: str, language: str) -> tuple[str, ...]:
    """Every short text the program holds, for the triggers to place in a record (scheme v10).

    Its compared literals (:func:`literals`), what it searches texts for
    (:func:`needles`) and every other short quoted text without spaces
    (``SECRET_PREFIXES = ("sk-", "ghp_")``: a name bound to a tuple is not
    a compared literal, yet it is what the program looks for). Field names,
    the probes' own values and the context's keys are left out. Sorted; at
    most :data:`MAX_TRIGGER_TEXTS`, the compared and searched ones first.
    """
    first = [lit for lit, _ in literals(code, language)] + [t for _, t in needles(code, language)]
    quoted = sorted(
        {
            m.group(2)
            for m in _PY_STRING.finditer(code)
            if _TEXT.match(m.group(2)) and m.group(2) not in _NOT_LITERALS
        }
    )
    return tuple(dict.fromkeys([*sorted(set(first)), *quoted]))[:MAX_TRIGGER_TEXTS]


def _pythonic(pattern: str) -> str:
    """A Ruby pattern as Python reads it: ``\\z``, ``\\h`` and ``(?<name>`` spelled Python's way."""
    pattern = pattern.replace("\\z", "\\Z").replace("\\h", "[0-9a-f]")
    return re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern)


_PREFERRED: Final = "4a "
"""What a class of characters gives first: a digit 4 (so ``\\d{3}`` and ``[45]\\d\\d`` agree), a letter, a space."""


def regex_example(pattern: str, preferred: str = _PREFERRED) -> str | None:
    """The shortest text a regular expression finds (one of each repeat, the first branch), or None.

    Deterministic: a class gives its first of ``4``, ``a`` or space that it
    holds, else its first member. Look-arounds and anchors give nothing.
    """
    try:
        with warnings.catch_warnings():  # a program's pattern is not ours to warn about
            warnings.simplefilter("ignore", FutureWarning)  # ("Possible nested set", [[:upper:]])
            parsed = _sre_parser.parse(pattern)
        return _example(parsed, {}, preferred)[:80] or None
    except Exception:  # any pattern the parser or the walk cannot read gives nothing
        return None


def _example(items: Any, groups: dict[int, str], preferred: str = _PREFERRED) -> str:
    out = []
    for op, arg in items:
        if op is _sre.LITERAL:
            out.append(chr(arg))
        elif op is _sre.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op is _sre.ANY:
            out.append("a")
        elif op is _sre.IN:
            out.append(_member(arg, preferred))
        elif op is _sre.CATEGORY:
            out.append(_member([(op, arg)], preferred))
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
            low, _high, sub = arg
            out.append(_example(sub, groups, preferred) * max(low, 1))
        elif op is _sre.SUBPATTERN:
            text = _example(arg[-1], groups, preferred)
            if arg[0] is not None:
                groups[arg[0]] = text
            out.append(text)
        elif op is _sre.ATOMIC_GROUP:
            out.append(_example(arg, groups, preferred))
        elif op is _sre.BRANCH:
            out.append(_example(arg[1][0], groups, preferred))
        elif op is _sre.GROUPREF:
            out.append(groups.get(arg, ""))
        elif op in (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT):
            continue
        else:
            raise ValueError(op)
    return "".join(out)


def _member(items: Any, preferred: str = _PREFERRED) -> str:
    """The character a class gives (the first of ``preferred`` it holds; a negated class, the first it lacks)."""
    if items and items[0][0] is _sre.NEGATE:
        excluded = _class_chars(items[1:])
        return next(ch for ch in "a4 xZ_-" if ch not in excluded)
    chars = _class_chars(items)
    return next((ch for ch in preferred if ch in chars), None) or min(chars)


def _class_chars(items: Any) -> set[str]:
    chars: set[str] = set()
    for op, arg in items:
        if op is _sre.LITERAL:
            chars.add(chr(arg))
        elif op is _sre.RANGE:
            chars |= {chr(i) for i in range(arg[0], min(arg[1], arg[0] + 200) + 1)}
        elif op is _sre.CATEGORY:
            chars |= _CATEGORY_CHARS.get(str(arg), set())
    if not chars:
        raise ValueError("empty class")
    return chars


_CATEGORY_CHARS: Final = {
    "CATEGORY_DIGIT": set("0123456789"),
    "CATEGORY_NOT_DIGIT": set("a -"),
    "CATEGORY_WORD": set("a4_"),
    "CATEGORY_NOT_WORD": set(" -/."),
    "CATEGORY_SPACE": {" "},
    "CATEGORY_NOT_SPACE": set("a4"),
}


def input_keys(code: str) -> dict[str, str | None]:
    """The program's parameters (``kwargs[:method]``, ``kwargs.get("n", 3)``): key → its text default.

    A probe passes each one, so ``kwargs.fetch(:method, nil)`` finds a value as
    ``kwargs[:method]`` does; a text default is the value passed.
    """
    keys: dict[str, str | None] = {key: None for key in _own_keys(code)}
    keys.update(input_defaults(code))
    return keys


def input_defaults(code: str) -> dict[str, str]:
    """Parameters given a text default (``kwargs.get("tool", "web_search")``, ``kwargs[:t] || "x"``)."""
    return {(a or b): (c or d) for a, b, c, d in _INPUT_DEFAULT.findall(code)}


def _ruby_method_word(text: str) -> bool:
    return text in _RUBY_WORDS or text.endswith(("?", "!"))


def _compared_use(code: str, name: str) -> tuple[str, str] | None:
    """The text before and after a comparison with a name bound to a literal, or None."""
    pattern = (
        rf"^(.*(?:==|!=|\bin|include\?\(|start_with\?\(|startswith\()\s*\(?\s*){re.escape(name)}\b(.*)$"
        rf"|^(.*)\b{re.escape(name)}(\s*(?:==|!=|(?:not\s+)?in\b).*)$"
    )
    match = re.search(pattern, code, re.MULTILINE)
    if match is None:
        return None
    if match.group(1) is not None:
        return match.group(1), match.group(2)
    return match.group(4), match.group(3)


def _kind(text: str) -> str | None:
    """The kind of the nearest field name in a text (searched from its end), or None."""
    kinds = [_KIND_OF[w] for w in _KIND_TOKEN.findall(text) if w in _KIND_OF]
    return kinds[-1] if kinds else None


_KEY: Final = r"""(?:[\x22\x27]([A-Za-z_]\w{0,30})[\x22\x27]|:([A-Za-z_]\w{0,30}))"""
_KEY_USE: Final = re.compile(r"""(?:(?<=[\w\])])\[\s*|\.get\(\s*|\.fetch\(\s*|key\?\(\s*)""" + _KEY)
_DIG: Final = re.compile(r"\.dig\(([^()]*)\)")
"""``r.dig(:kwargs, :timeout)``: every key of the path is looked up."""
_CONTEXT_KEYS: Final = frozenset({"memory", "input", "call_id", "session_id", "attempt", "n"})


def record_keys(code: str) -> list[str]:
    """Keys a program looks up that no probe record has (``kwargs[:timeout]``), sorted.

    A probe puts them into some records' ``kwargs`` so a lookup of them finds
    something. Field names and the context's keys are left out; at most 3.
    """
    keys = {a or b for a, b in _KEY_USE.findall(code)}
    for path in _DIG.findall(code):
        keys |= {a or b for a, b in re.findall(_KEY, path)}
    keys -= RECORD_FIELDS | _CONTEXT_KEYS | {HISTORY_KEY} | set(_KWARG_KEYS) | set(_own_keys(code))
    # a parameter's text default may name a key the program looks up in records
    # (``key = kwargs.get("key", "timeout")`` ... ``rec["kwargs"].get(key)``)
    defaults = set(input_defaults(code).values()) - RECORD_FIELDS - _NOT_LITERALS - set(_KWARG_KEYS)
    return (sorted(keys)[:3] + sorted(defaults - keys))[:4]


def _slot(text: str, count: int) -> int:
    """A fixed choice among ``count`` by a hash of the text alone."""
    return int.from_bytes(sha1(text.encode("utf-8", "surrogatepass")).digest()[:4], "big") % count


def renames(code_literals: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Probe value → the literal it is renamed to, a slot per literal by a hash of the literal alone."""
    out: dict[str, str] = {}
    for literal, kind in code_literals:
        if kind not in _RENAMABLE:
            continue
        slots = _RENAMABLE[kind]
        free = [s for s in slots if s not in out] or [s for s in _OVERFLOW[kind] if s not in out]
        if free:
            out[free[_slot(literal, len(free))]] = literal
    return out


# ---------------------------------------------------------------------------
# Probes
# ---------------------------------------------------------------------------


def probes(
    code_literals: Iterable[tuple[str, str]] = (),
    keys: Iterable[str] = (),
    inputs: Mapping[str, str | None] | None = None,
    texts: Iterable[tuple[str, str]] = (),
) -> list[dict[str, Any]]:
    """The probes for a program with these literals and keys: history, context, inputs, renames.

    ``inputs`` are the values a program's own parameters (``kwargs[...]``,
    ``args[...]``) take, tried in order until the program runs: a name (the
    focus), a number, a time inside the probe.
    """
    code_literals = list(code_literals)
    rename = renames((lit, kind) for lit, kind in code_literals if kind != "key")
    extra = sorted({*keys, *(lit for lit, kind in code_literals if kind == "key")})[:4]
    out = []
    for p, (n, failing, users, children, methods, _gaps) in enumerate(_SHAPES):
        current = f"call-{p}-{_CURRENT[p]:02d}"
        history = [
            _record(p, i, i not in failing, i in users, i in children, current, methods[i], rename)
            for i in range(n)
        ]
        if p == _ODD_PROBE:
            _oddities(history, children)
            _plant(history, texts)
        for i, record in enumerate(history):
            for key in extra:  # which records have a key: by the key alone, not by the others
                if i % (2 + _slot(key, 3)) == 1:
                    record["kwargs"][key] = 3 + (i * 5 + p) % 11
        out.append(
            {
                "history": history,
                "context": {
                    HISTORY_KEY: history,
                    "call_id": current,
                    "memory": {},
                    "input": FOCUS,
                    "session_id": f"session-{p}",
                    "attempt": 1,
                },
                "inputs": [
                    _inputs(FOCUS, [FOCUS, FOCUS], inputs or {}),
                    _inputs(4, [4, 8], inputs or {}),
                    _inputs(
                        history[n // 3]["timestamp"],
                        [history[n // 3]["timestamp"], history[2 * n // 3]["timestamp"]],
                        inputs or {},
                    ),
                ],
                "renames": rename,
            }
        )
    return out


_ODD_PROBE: Final = 2
"""The probe that also holds what real histories sometimes do (:func:`_oddities`)."""


def _oddities(history: list[dict[str, Any]], children: set[int]) -> None:
    """Put into one probe what real histories sometimes hold and the others never do.

    A time that goes backwards, two records at one time, a call id used twice
    (a retry that kept its id), a keyword argument whose value is nil, a child
    called with its parent's arguments (scheme v7); links (two on one site),
    quoted phrases (one quoted twice), a blank reply, boolean keyword
    arguments, a failure without a message (v8). Programs that look for these
    have something to find; everything else about the probe stays as built.
    """
    history[17]["timestamp"] = history[15]["timestamp"]  # before 16, equal to 15
    history[22]["timestamp"] = history[21]["timestamp"]
    history[25]["call_id"] = history[24]["call_id"]
    history[9]["kwargs"][next(iter(history[9]["kwargs"]))] = None
    child = min(children)
    parent = next(r for r in history if r["call_id"] == history[child]["parent_call_id"])
    history[child]["args"] = list(parent["args"])
    history[5]["content"] += " https://example.com/text-2-05"  # links, two on one site
    history[9]["content"] += (
        " see http://docs.example.org/text-2-09 and https://example.com/text-2-09"
    )
    history[8]["content"] += ' "text-2-08 quoted"'  # users quoting, once a phrase twice
    history[10]["content"] += ' "text-2-08 quoted" and "text-2-10 quoted"'
    history[6]["content"] = ""  # a blank reply
    history[3]["kwargs"]["flag"] = True  # boolean keyword arguments
    history[7]["kwargs"]["flag"] = False
    history[4]["outcome_summary"]["error_message"] = None  # a failure that says nothing
    history[4]["error"] = None


def _plant(history: list[dict[str, Any]], texts: Iterable[tuple[str, str]]) -> None:
    """Put the texts a program looks for (:func:`needles`) into two user messages, summaries and errors.

    The example goes into records 13, 14 and 18; another match of the same
    pattern (:func:`_second_example`, scheme v16) into the earlier records
    11, 12 and 17. A pattern the probe's texts already match is left out:
    the program finds there what its re-spellings find.
    """
    held = "\n".join(
        str(v)
        for r in history
        for v in (
            r["content"],
            r["outcome_summary"]["summary"],
            r["outcome_summary"]["error_message"],
        )
    )
    for pattern, text in texts:
        if _finds(pattern, held) is not False:
            continue  # already held, or not a pattern Python reads
        other = _second_example(pattern, text)
        for user, ok, failing, planted in ((11, 12, 17, other), (13, 14, 18, text)):
            if planted is None:
                continue
            history[user]["content"] = f"{planted} {history[user]['content']}"
            history[ok]["outcome_summary"]["summary"] += f" {planted}"
            failed = history[failing]["outcome_summary"]
            failed["error_message"] = history[failing]["error"] = (
                f"{failed['error_message']} {planted}"
            )


_SECOND: Final = "7b "
"""What a class gives in a pattern's second example (:func:`_second_example`): a larger digit, another letter."""


def _second_example(pattern: str, text: str) -> str | None:
    """Another text the pattern finds, planted earlier than the first (scheme v16), or None.

    With one copy of what a program looks for, a program that lists every
    match, one that keeps the latest, and one that keeps the largest answer
    alike. An earlier, larger match (``7`` where the first has ``4``) tells
    them apart. A fragment (no class to vary) plants itself again; an example
    the pattern does not find is not planted.
    """
    other = regex_example(pattern, _SECOND) or text
    return other if _finds(pattern, other) else None


def _finds(pattern: str, text: str) -> bool | None:
    """Whether a program's pattern finds something in ``text``, quietly; None when Python cannot read it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return re.search(pattern, text) is not None
    except re.error:
        return None


def _inputs(default: Any, args: list[Any], keys: Mapping[str, str | None]) -> dict[str, Any]:
    """One way to call a program: every named parameter, ``args``, and what any other key gives."""
    return {
        "default": default,
        "args": args,
        "kwargs": {key: default if literal is None else literal for key, literal in keys.items()},
    }


def _parent(p: int, i: int, child: bool) -> str | None:
    """Who called a record: a tree (every parent earlier), chains up to four deep.

    The current call shares its parent with two other records (its siblings)
    and has children of its own.
    """
    current = _CURRENT[p]
    if child:
        return f"call-{p}-{current:02d}"
    if i in (current, current - 1, current - 2):  # the current call has two siblings
        return f"call-{p}-{current // 2:02d}"
    if i == current // 2:
        return f"call-{p}-01"
    if i == 0 or i % 2:
        return None
    return f"call-{p}-00"


def _first_arg(p: int, i: int) -> Any:
    """A record's first argument: the focus, an amount, or a value of its own."""
    if i % 4 == 2:
        return FOCUS
    if i % 4 == 3:
        return 10 + (i * 7 + p * 3) % 50
    return f"arg-{p}-{i:02d}"


def _record(
    p: int,
    i: int,
    ok: bool,
    user: bool,
    child: bool,
    current: str,
    method_index: int,
    rename: Mapping[str, str],
) -> dict[str, Any]:
    def named(value: str) -> str:
        return rename.get(value, value)

    speaker = "user" if user else _POOLS["speaker"][1 + (i * (p + 1)) % 3]
    if p == _UNIQUE_PROBE and i % 4 != 1:
        method = f"op-{p}-{i:02d}"  # its own name: any field of the record names it
    else:
        method = _POOLS["method"][method_index]
    error = _POOLS["error"][(i + p) % 3] if not ok else None
    words = [_POOLS["word"][(i + p) % 5], _POOLS["word"][(2 * i + 1) % 5]]
    if i % 3 == 0:
        words.append(FOCUS)
    words = [named(w) for w in words]
    return {
        "call_id": f"call-{p}-{i:02d}",
        "parent_call_id": _parent(p, i, child),
        "timestamp": _stamp(p, i),
        "speaker": named(speaker),
        "role": named(speaker) if speaker in ("user", "tool") else "assistant",
        "name": named(method),
        "method_name": named(method),
        "method": named(method),  # the names other runtimes give the same things
        "result": f"value-{p}-{i:02d}" + "x" * (i % 5) if ok else None,
        "error": None if ok else f"failed-{p}-{i:02d}",
        "args": [_first_arg(p, i), words[0]],
        "kwargs": {
            _KWARG_KEYS[(i + p) % 2]: f"query-{p}-{i:02d}",
            _KWARG_KEYS[2 + i % 2]: words[1],
        },
        "content": " ".join([f"text-{p}-{i:02d}", *words]),
        "goal": f"goal-{p}-{i // 5}",
        "need": f"need-{p}-{i // 4}" if i % 5 != 3 else ("" if i % 2 else None),  # some unstated
        "depth": (i * 7 + p) % (3 + p),
        "tool_calls": [],
        "parts": [],
        "outcome_summary": {
            "ok": ok,
            "status": "ok" if ok else "error",
            "value_class": named(_CLASSES[(i + 2 * p) % 3]) if ok else None,
            "error_type": named(error) if error else None,
            "error_message": None if ok else f"failed-{p}-{i:02d}",
            "content_ref": f"ref-{p}-{i:02d}",
            "summary": f"summary-{p}-{i:02d}",
        },
    }


# ---------------------------------------------------------------------------
# What reaches an answer
# ---------------------------------------------------------------------------

_UNIQUE: Final = re.compile(
    r"(?:call|arg|query|text|failed|ref|summary|op|value)-\d-\d\d|2026-03-\d\d[T ]\d\d:\d\d:\d\d"
)
_TOKEN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?%?")
_CONTENT: Final = re.compile(r"text-\d-\d\d")
_CONTENT_WORDS: Final = re.compile(r"\b(?:" + "|".join([*_POOLS["word"], FOCUS]) + r")\b")
_MAX_REPEAT: Final = 20
_GROUPED: Final = re.compile(r"\b(goal|need)-(\d-\d+)\b")
_SEGMENT: Final = re.compile(r"[\n;|,]")
"""What separates the items of a text answer (lines, list separators)."""


def atoms(
    value: Any, probe: Mapping[str, Any], own: Mapping[str, frozenset[str]] | None = None
) -> set[str]:
    """What of a probe reaches an answer: records, values, numbers, truth values.

    ``value`` is the answer as JSON-like data (a dict as ``{"d": [[key, value], ...]}``).
    A record counts once however many of its fields are shown (``rec:1.04``);
    a shared value counts as often as it appears (``method:beta_op``,
    ``method:beta_op#2``, …): the same method three times is not the same
    method once. A renamed value counts as the value it renamed, never as the
    literal's text.

    With ``own`` (:func:`own_values`), a record's own field values shown beside
    it — in one line or item of a text, one list, one dict, holding no other
    record — are part of the record, not values of their own: a record listed
    with its method and status is the record, as it is listed bare.
    """
    shared = _shared_values(tuple(sorted(probe.get("renames", {}).items())))
    found: Counter[str] = Counter()
    _walk(value, shared, found, own)
    return {
        a if k == 1 else f"{a}#{k}"
        for a, count in found.items()
        for k in range(1, (1 if a.startswith("rec:") else min(count, _MAX_REPEAT)) + 1)
    } or {"empty"}


def own_values(probe: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """Per record of a probe (``rec:1.04``), the atoms its own fields give an answer."""
    shared = _shared_values(tuple(sorted(probe.get("renames", {}).items())))
    out: dict[str, frozenset[str]] = {}
    for record in probe["history"]:
        outcome = record["outcome_summary"]
        found: Counter[str] = Counter()
        for field in (
            record["speaker"],
            record["role"],
            record["method_name"],
            outcome["error_type"],
            outcome["value_class"],
            record["goal"],
            record["need"],
            outcome["status"],
            record["depth"],
            *record["args"],
            *record["kwargs"].values(),
            *record["kwargs"].keys(),
            record["content"],
        ):
            if field is not None:
                _walk(field, shared, found)
        out["rec:" + _record_of(record["call_id"])] = frozenset(
            a for a in found if not a.startswith("rec:")
        )
    return out


class _Shared:
    """The shared probe values an answer token can be (value -> feature), and those not words."""

    __slots__ = ("features", "phrases")

    def __init__(self, rename: tuple[tuple[str, str], ...]) -> None:
        values = {
            v: f"{kind}:{v}" for kind, pool in (*_POOLS.items(), ("class", _CLASSES)) for v in pool
        }
        feature_of = dict(values)  # a renamed value still counts as the value it renamed
        values |= {k: f"kwarg:{k}" for k in _KWARG_KEYS}
        for original, literal in rename:
            values.pop(original, None)
            values[literal] = feature_of[original]
        self.features = values
        self.phrases = tuple((v, f) for v, f in values.items() if not v.isidentifier())


@lru_cache(maxsize=256)
def _shared_values(rename: tuple[tuple[str, str], ...]) -> _Shared:
    return _Shared(rename)


def _walk(
    value: Any,
    shared: _Shared,
    found: Counter[str],
    own: Mapping[str, frozenset[str]] | None = None,
) -> None:
    if isinstance(value, bool):
        found["bool:" + str(value)] += 1
        return
    if isinstance(value, int | float):
        found["num:" + _number(value)] += 1
        return
    part: Counter[str] = Counter()
    if isinstance(value, str):
        for segment in _SEGMENT.split(value):
            line: Counter[str] = Counter()
            _text(segment, shared, line)
            _fold(line, own)
            part.update(line)
    elif isinstance(value, list):
        for item in value:
            _walk(item, shared, part, own)
    elif isinstance(value, dict):
        for pair in value.get("d", []):
            _walk(pair, shared, part, own)
    _fold(part, own)
    found.update(part)


def _fold(part: Counter[str], own: Mapping[str, frozenset[str]] | None) -> None:
    """Drop a lone record's own field values from a part of an answer that shows it."""
    if own is None:
        return
    records = [a for a in part if a.startswith("rec:")]
    if len(records) == 1:
        for atom in own.get(records[0], ()):
            part.pop(atom, None)


def _number(value: float) -> str:
    if isinstance(value, float) and value != value:  # NaN
        return "nan"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        value = int(value)
    return f"{value:.2g}" if isinstance(value, float) else str(value)


def _text(text: str, shared: _Shared, found: Counter[str]) -> None:
    if text in ("ok", "error"):
        found["status:" + text] += 1
    rest = text
    if _CONTENT.search(text):
        # a record's content: its marker names the record, its words add nothing
        rest = _CONTENT_WORDS.sub(" ", rest)
    for match in _UNIQUE.finditer(text):
        token = match.group(0)
        found["rec:" + _record_of(token)] += 1
        rest = rest.replace(token, " ")
    for match in _GROUPED.finditer(rest):  # a goal or need many records share
        found[f"{match.group(1)}:{match.group(2)}"] += 1
    rest = _GROUPED.sub(" ", rest)
    for literal, feature in shared.phrases:
        if literal in rest:
            found[feature] += 1
            rest = rest.replace(literal, " ")
    for token in _TOKEN.findall(rest):
        if token in shared.features:
            found[shared.features[token]] += 1
        elif token.endswith("%"):
            found["num:" + _number(float(token[:-1]) / 100)] += 1
        elif token[0].isdigit() or token[0] == "-":
            found["num:" + _number(float(token))] += 1


def _record_of(token: str) -> str:
    """``call-1-04`` and ``2026-03-02T10:01:05`` → the record they belong to (``1.04``)."""
    if token.startswith("2026"):
        return _TIMES.get(token.replace(" ", "T")[:19], token)
    _, p, i = token.rsplit("-", 2)
    return f"{p}.{int(i):02d}"


_TIMES: Final = {
    _stamp(p, i)[:19]: f"{p}.{i:02d}" for p, shape in enumerate(_SHAPES) for i in range(shape[0])
}

"""Content-free similarity sketches of the history-processing part of a program.

The fingerprint (``_fingerprint.py``) says "exactly this shape"; models re-spell
the same program every time they write it, so the evidence also needs "nearly
this shape" without ever carrying the code. The sketch is a MinHash signature
over features of what the program does to the history, read from the normalized
history statements the analysers pass (the statements the fingerprint hashes,
where identifiers are positional placeholders and literals their type, with
record field keys kept) and their ops. Nothing in it is an identifier, a literal
or text of the program: features are fixed concept names and record field names
of :data:`RECORD_FIELDS` (the history record's schema), so a sketch reveals at
most which schema fields and which kinds of operation a program uses, which the
span's ``ops`` and ``fields_read`` already say.

Scheme v3 (``minhash-affine32-64-v3``) reads the statements as a small data-flow
program (see :func:`features`):

- **the result's slice**: the statement that makes the result (the last
  top-level one that is not a print) and, backwards, every statement that
  defines or fills a name it uses, the loops and functions around them and the
  guards that ``continue``/``break`` them. Code whose values never reach the
  result (a log line, a length check in a message, a touched memory) adds
  nothing;
- **side values**: a count beside the value it counts (``{"items": xs, "n":
  len(xs)}``, ``"#{xs.size} found: #{listing}"``, a total of the history) is
  masked out of the result; a result that is a comparison (``len(xs) > 0``,
  ``.empty?``) is a yes/no answer;
- **result kinds**, 6 copies each, from the slice only: ``GROUP`` (a tally or
  grouping by key, however spelled, including ``d[k] = …`` in a loop),
  ``COUNT``, ``RATIO``, ``DISTINCT``, ``SEARCH``/``MARK`` (records selected or
  flagged by text), ``PICK`` (one record: ``[-1]``, ``.last``, ``next``,
  ``find``, a value overwritten per record or kept at a ``break``), ``ANYALL``
  (``any``, a comparison, a loop that stops at a match and keeps nothing),
  ``SUM``, else ``LIST``. Conditions and index arithmetic (``len(h) - 1``) are
  not counts;
- **record fields read**, 2 copies, and **fields tested by a predicate**, 3
  copies, with whether records are **filtered** (2 copies). Guards are not
  predicates: a test that a non-flag field or a value is present (``if
  r.get("x")``, ``next unless r[:x]``, ``x.nil?``, ``is None``, ``key?``) only
  protects the code. Truth tests of the outcome flags (``ok``, ``status``,
  ``error_type``, ``error_message``) select records; fields a tested local value
  was computed from count as tested; ``outcome_summary.ok`` and ``.status`` are
  one field;
- one copy each for how the result is presented (``TEXT``, ``SORT``);
- every feature is prefixed with the **end** of the history the result comes
  from (``TAIL``, else ``HEAD``, else ``ANY``): a marker (``[-n:]``, ``[-1]``,
  ``last``, ``reverse``, ``reversed``, ``len(h) - 1``, ``[:n]``, ``[0]``,
  ``first``, ``take``, ``find``, ``next``, a ``break`` in a forward loop) counts
  only when its receiver is the history in its own order — the history, a
  filtered or projected copy of it, a list filled record by record, a group of
  records, a function parameter its callers pass the history — never a field, a
  text, a count, or a sorted or tallied collection. A value overwritten per
  record keeps the last one (``TAIL``), ``||=`` or ``key?`` the first.

The signature is datasketch's ``MinHash`` (scheme ``affine32``, seed 1, 64
permutations): SHA-1's first 32 bits of each feature, the MurmurHash3
finalizer, then ``a * h + b mod 2**32`` per permutation. It is computed here
without numpy, so a runtime's base install stays light, and a test checks it
equals datasketch's own values bit for bit. Encoded as 64 eight-digit hex
words (512 characters), so every SQL engine can slice bands and compare words
with plain ``substr`` — see ``docs/detector.md`` ("Clusters").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from hashlib import sha1
from typing import Final

from ._model import OUTCOME_FIELD, OUTCOME_KEYS, RECORD_TOP_FIELDS

NUM_PERM: Final = 64
"""Permutations (hex words) in a sketch; a similarity estimate's standard error is ≤ 0.0625."""

WORD_HEX: Final = 8
"""Hex digits per word: one 32-bit MinHash value."""

SKETCH_HEX: Final = NUM_PERM * WORD_HEX

SCHEME: Final = "minhash-affine32-64-v3"
"""Names the features and the hash; bump when either changes (old sketches then never match)."""

RECORD_FIELDS: Final[frozenset[str]] = RECORD_TOP_FIELDS | OUTCOME_KEYS
"""Record field names a sketch may keep (``_model``'s schema and outcome keys).

Every other string or symbol stays ``<str>``/``<sym>``.
"""

# datasketch.MinHash(num_perm=64, seed=1).permutations for scheme "affine32"
# (numpy RandomState(1)); tests/test_analysis_sketch.py checks them against datasketch.
_A: Final = (
    0xD583E84B,
    0xFE8F01D7,
    0x70CE5F19,
    0xDD782891,
    0x000EFDFF,
    0x41998713,
    0x9ACB5597,
    0xFF823D0B,
    0x4B23969F,
    0x78E0A781,
    0x2F470121,
    0xCB0CA103,
    0x5F5D7F99,
    0xC69C3C8F,
    0xB0ED55DB,
    0x56E8F3F9,
    0xCB251B0D,
    0xDEFEFA33,
    0x13DFC965,
    0xB14FAA29,
    0xD6A0A9FD,
    0xA06562CB,
    0x5ED51725,
    0x0C9193A9,
    0x68ADF717,
    0xE30C41F9,
    0xC1989BD5,
    0x758B2539,
    0x0E05BF3B,
    0x119EB31D,
    0x57478465,
    0xD3F2D489,
    0xD5A8F9AF,
    0xEA16BFAF,
    0x1E0C97D3,
    0xDC8485E3,
    0x47E0CBEF,
    0xE0D55BBD,
    0x656D8EC1,
    0x8E8908AD,
    0x99FB311B,
    0x6E93AFD3,
    0xEFBFFB13,
    0x9B03080F,
    0xA079227F,
    0x2F83967B,
    0x62781C2D,
    0x094B4A73,
    0xC0B61403,
    0xBAE3EF01,
    0xCA09E279,
    0xA885F1A3,
    0x2B8AEA11,
    0xA8C1C5B1,
    0x13FEFD1B,
    0x8BCD34E7,
    0x56F4035F,
    0x1E551FD5,
    0xC19BE4F3,
    0x574F7391,
    0x325A843D,
    0x2FA6488F,
    0xD79B6B07,
    0x57E30B8D,
)
_B: Final = (
    0xF5383F95,
    0x696AEE31,
    0x887D8539,
    0x3292B203,
    0xB11EDBC4,
    0x4A252B18,
    0x50C5A1F1,
    0x2461FC2B,
    0xAFBE864C,
    0xC8874C1A,
    0xD5AA0734,
    0x699C2550,
    0x04AE8A6D,
    0x08BF7373,
    0xC0097529,
    0x9FC06DD2,
    0xFD26000F,
    0xA91F6C40,
    0xBF87C8C4,
    0x4C6A3019,
    0x47CB2D6F,
    0x7235DEE2,
    0xCA0E35D7,
    0x38DD2787,
    0x1A6D051A,
    0x12C7FE99,
    0x72A92668,
    0x78200416,
    0xE899B709,
    0x189EBEC3,
    0x4B2A4BE7,
    0xE743447E,
    0x49ABA517,
    0x1E96ED7D,
    0x21498D64,
    0x8659409B,
    0x04F53BA5,
    0x15685139,
    0xADC82A53,
    0xEAB76CA6,
    0x362D4288,
    0xE9132520,
    0x43FADDA2,
    0x4C86AF0A,
    0x7DD7BD17,
    0x959A868F,
    0x0DA92AEF,
    0x90DF9C57,
    0x92F95F19,
    0x9D2B0FC7,
    0x259000F3,
    0xF4DF855C,
    0x96DCBA4A,
    0x42CF84BE,
    0xB3235D2E,
    0x3B23D3A0,
    0x1A3296D8,
    0x88901497,
    0x69FF92B7,
    0xF32F2541,
    0xB1C43571,
    0x7E39274D,
    0x6A07A703,
    0x8A64CB80,
)
_PERMUTATIONS: Final = tuple(zip(_A, _B, strict=True))
_MASK32: Final = 0xFFFFFFFF


def _fmix32(h: int) -> int:
    """MurmurHash3's 32-bit finalizer, as datasketch applies it before permuting."""
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK32
    return h ^ (h >> 16)


def minhash(features: Iterable[str]) -> list[int]:
    """The 64 MinHash values of a feature set (datasketch ``affine32``, seed 1)."""
    mins = [_MASK32] * NUM_PERM
    for feature in set(features):
        digest = sha1(feature.encode("utf-8", "surrogatepass")).digest()
        h = _fmix32(int.from_bytes(digest[:4], "little"))
        mins = [
            m if m <= (v := (a * h + b) & _MASK32) else v
            for m, (a, b) in zip(mins, _PERMUTATIONS, strict=True)
        ]
    return mins


def encode(values: Sequence[int]) -> str:
    """MinHash values as one hex string, eight digits a value."""
    return "".join(f"{v:08x}" for v in values)


def decode(sketch: str) -> list[int]:
    """The MinHash values of an encoded sketch."""
    return [int(sketch[i : i + WORD_HEX], 16) for i in range(0, len(sketch), WORD_HEX)]


FOOTPRINT_SIMILARITY: Final = 0.95
"""Footprints that agree this much (and answers that share :data:`FOOTPRINT_FLOOR`) make one program.

Behavioural scheme v9, pre-registration version 14 (``[boilerplate]
footprint_similarity``); the SQL macro ``sketch_similarity`` holds the same number.
"""

FOOTPRINT_FLOOR: Final = 0.1
"""The least share of answers for the footprint rule (``[boilerplate] footprint_floor``)."""


def _share(a: str, b: str, start: int) -> float:
    end = start + SKETCH_HEX
    same = sum(a[i : i + WORD_HEX] == b[i : i + WORD_HEX] for i in range(start, end, WORD_HEX))
    return same / NUM_PERM


def similarity(a: str, b: str) -> float:
    """Estimated similarity of two sketches: the share of equal words of their answers' part.

    A behavioural sketch may carry a second part, its footprint (which edits
    of the probes change the answer, :mod:`._mutations`). When both sketches
    carry one, their footprints agree at least :data:`FOOTPRINT_SIMILARITY` and
    their answers at least :data:`FOOTPRINT_FLOOR`, the footprints' agreement
    is the similarity: one program written two ways, whatever its answers look
    like. The SQL macro ``sketch_similarity`` is the same rule.
    """
    answers = _share(a, b, 0)
    if len(a) == len(b) == 2 * SKETCH_HEX and answers >= FOOTPRINT_FLOOR:
        footprints = _share(a, b, SKETCH_HEX)
        if footprints >= FOOTPRINT_SIMILARITY:
            return max(answers, footprints)
    return answers


def bands(sketch: str, rows: int, count: int | None = None) -> list[str]:
    """The sketch's LSH bands: ``count`` bands of ``rows`` words (equal band, candidate pair).

    A sketch with a footprint has ``count`` more, from its second part; band
    ``i`` is only ever compared with band ``i`` (the SQL numbers them alike).
    """
    width = rows * WORD_HEX
    count = SKETCH_HEX // width if count is None else count
    parts = [sketch[start : start + SKETCH_HEX] for start in range(0, len(sketch), SKETCH_HEX)]
    return [part[i * width : (i + 1) * width] for part in parts[:2] for i in range(count)]


# ---------------------------------------------------------------------------
# Features (scheme v3)
# ---------------------------------------------------------------------------

_VAR: Final = re.compile(r"v\d+|<H>")
_KEY: Final = re.compile(r"<key:([^>]+)>")
_PY_NODE: Final = re.compile(r"^[A-Z][A-Za-z]*\(")
# Outcome keys whose truth says how a call went: testing them selects records.
# Testing any other field only checks that it is there (a guard).
_FLAG_KEYS: Final = frozenset({"ok", "status", "error_type", "error_message"})
# outcome_summary.ok and .status both say whether a call went well.
_SUCCESS_KEYS: Final = frozenset({"ok", "status"})
_PY_MUTATORS: Final = frozenset(
    {"append", "add", "extend", "update", "insert", "appendleft", "setdefault", "reverse",
     "sort", "pop", "remove", "discard"}
)  # fmt: skip
_RB_MUTATORS: Final = frozenset(
    {"push", "unshift", "add", "append", "prepend", "concat", "merge!", "store", "insert",
     "reverse!", "sort!", "uniq!", "compact!", "select!", "reject!", "map!", "delete"}
)  # fmt: skip
_RB_ASSIGN: Final = frozenset({"=", "+=", "-=", "*=", "||=", "<<", "|="})
# Ruby block methods whose block is a predicate over records.
_PREDICATE_BLOCKS: Final = frozenset(
    {
        "select", "filter", "find_all", "reject", "count", "find", "detect", "any?", "all?",
        "none?", "partition", "take_while", "drop_while", "find_index", "delete_if", "keep_if",
        "select!", "reject!", "sum",
    }
)  # fmt: skip
_RB_GUARD_WORDS: Final = frozenset({"if", "unless", "while", "until", "elsif"})
_WEIGHT_KIND: Final = 6
_WEIGHT_FIELD: Final = 2
_WEIGHT_PREDICATE: Final = 3
_WEIGHT_FILTER: Final = 2


class _Stmt:
    """One normalized statement: its text, enclosing compound statements, names."""

    __slots__ = ("bodies", "defs", "header", "parents", "text", "uses")

    def __init__(self, text: str, parents: tuple[int, ...], header: bool, python: bool) -> None:
        self.text = text
        self.parents = parents
        self.header = header
        self.bodies = 0  # a compound statement's bodies (an ``if`` with an ``else`` has 2)
        self.defs = _py_defs(text) if python else _rb_defs(text)
        self.uses = set(_VAR.findall(text))


def _statements(lines: Sequence[str], python: bool) -> list[_Stmt]:
    """Python lines nest with ``{``/``|``/``}``; a Ruby line is one whole statement."""
    out: list[_Stmt] = []
    stack: list[int] = []
    for line in lines:
        if python and line == "|":
            if stack:
                out[stack[-1]].bodies += 1
            continue
        if python and line == "}":
            if stack:
                stack.pop()
            continue
        header = python and line.endswith("{")
        if not python:
            line = line.replace(" ; . ", " . ")  # a chain continued on the next line
        out.append(_Stmt(line[:-1] if header else line, tuple(stack), header, python))
        if header:
            stack.append(len(out) - 1)
    return out


def _balanced(text: str, start: int) -> str:
    """``text`` from the bracket at ``start`` through the one that closes it."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return text[start:]


def _py_value(text: str, start: int) -> str:
    """A Python dump's ``name=EXPR;`` value starting at ``start`` (up to its ``;``)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            if depth == 0:
                return text[start:i]
            depth -= 1
        elif text[i] == ";" and depth == 0:
            return text[start:i]
    return text[start:]


def _py_items(listing: str) -> list[str]:
    """The top-level items of a dumped list ``[a,b,]``."""
    items: list[str] = []
    depth, begin = 0, 1
    for i, ch in enumerate(listing):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 1:
            items.append(listing[begin:i])
            begin = i + 1
    return [item for item in items if item]


_PY_TARGET: Final = re.compile(
    r"(?:^|\[|,|target=)(?:(?:Subscript|Attribute|Starred)\(value=)*(v\d+)"
)


def _py_defs(text: str) -> set[str]:
    """Names a Python statement binds or mutates (``d[k] = …`` and ``xs.append`` too)."""
    defs: set[str] = set()
    node = text[: text.find("(")]
    if node == "Assign" and "targets=[" in text:
        target = _balanced(text, text.index("targets=[") + 8)
        defs.update(_PY_TARGET.findall(target))
    elif node in {"AugAssign", "AnnAssign", "For", "AsyncFor"}:
        defs.update(_PY_TARGET.findall(_py_value(text, text.index("target=") + 7)))
        if node == "For":
            defs.discard("")
    elif node in {"FunctionDef", "AsyncFunctionDef", "ClassDef"}:
        defs.update(re.findall(r"^\w+\(name=(v\d+)", text))
    for match in re.finditer(r"Attribute\(value=", text):
        segment = _balanced(text, match.start() + 9)
        attr = re.search(r"attr='(\w+)';\)$", segment)
        if (
            attr
            and attr.group(1) in _PY_MUTATORS
            and text[match.start() - 10 : match.start()] == "Call(func="
        ):
            head = re.match(r"\(value=(?:(?:Subscript|Attribute)\(value=)*(v\d+)", segment)
            if head:
                defs.add(head.group(1))
    return defs


def _rb_defs(text: str) -> set[str]:
    """Names a Ruby statement assigns or mutates, wherever in its blocks."""
    tokens = text.split(" ")
    defs: set[str] = set(re.findall(r"^def (?:self \. )?(v\d+)", text))
    for i, token in enumerate(tokens):
        if token in _RB_ASSIGN and i:
            j = i - 1
            while j > 0 and tokens[j] == "]":  # v1 [ k ] = …
                depth = 0
                while j >= 0:
                    depth += tokens[j] == "]"
                    depth -= tokens[j] == "["
                    j -= 1
                    if depth == 0:
                        break
            if j >= 0 and re.fullmatch(r"v\d+", tokens[j]):
                defs.add(tokens[j])
        elif (
            token in _RB_MUTATORS
            and i >= 2
            and tokens[i - 1] == "."
            and re.fullmatch(r"v\d+", tokens[i - 2])
        ):
            defs.add(tokens[i - 2])
    return defs


_PRINT: Final = re.compile(r"^Expr\(value=Call\(func=print;|^(?:puts|print|p|pp|warn) ")


def _result_index(stmts: list[_Stmt]) -> int:
    """The statement that makes the program's result.

    ``Agent::Outcome.ok(x)`` when the program says so; else, among the top-level
    statements that are not prints (a log line beside the result) and whose values no
    later statement reads (the program's final values: its result, a note written to
    memory), the one with the most code behind it; ties go to the later one.
    """
    top = [i for i, s in enumerate(stmts) if not s.parents]
    told = [i for i in top if stmts[i].text.startswith("Agent :: Outcome")]
    if told:
        return told[-1]
    quiet = [i for i in top if not _PRINT.match(stmts[i].text)] or top
    if len(quiet) == 1:
        return quiet[0]
    final = []
    for i in quiet:
        defs = set(stmts[i].defs)
        for s in stmts[i + 1 :]:
            if i in s.parents:
                defs |= s.defs
        later = [s for s in stmts[i + 1 :] if i not in s.parents]
        if not any(defs & s.uses for s in later):
            final.append(i)
    final = final[-16:] or quiet[-1:]  # the last few: a bound on the work

    def weight(i: int) -> int:
        return sum(len(stmts[j].text) for j in _slice(stmts, i))

    return max(final, key=lambda i: (weight(i), i))


def _slice(stmts: list[_Stmt], last: int) -> set[int]:
    """The statements the result depends on: a backward slice from the statement ``last``
    that makes it, following the names each statement uses."""
    inside: dict[int, list[int]] = {}  # a compound statement's nested statements
    for j, s in enumerate(stmts):
        for p in s.parents:
            inside.setdefault(p, []).append(j)
    # a guard in a loop (``if …: continue``/``break``) decides what reaches the rest of it
    guards = [
        j
        for j, s in enumerate(stmts)
        if s.header
        and s.parents
        and all(stmts[t].text in ("Break()", "Continue()") for t in inside.get(j, []))
    ]
    keep: set[int] = set()
    needed: set[str] = set()
    todo = [last, *inside.get(last, [])]
    while todo:
        while todo:
            i = todo.pop()
            if i in keep:
                continue
            keep.add(i)
            needed |= stmts[i].uses
            todo.extend(p for p in stmts[i].parents if p not in keep)
            if stmts[i].text.startswith(("FunctionDef(", "AsyncFunctionDef(")):
                todo.extend(j for j in inside.get(i, []) if j not in keep)
        todo = [j for j, s in enumerate(stmts) if j not in keep and s.defs & needed]
        todo += [j for j in guards if j not in keep and stmts[j].parents[-1] in keep]
    return keep


# -- the result's value: side values -------------------------------------------------

_PY_COUNT_OF: Final = re.compile(
    r"^Call\(func=len;args=\[(v\d+|<H>),\];\)$"
    r"|^Call\(func=sum;args=\[Call\(func=Attribute\(value=(v\d+);attr='values';\);\),\];\)$"
)
_RB_COUNT_OF: Final = re.compile(
    r"^\(? ?(v\d+|<H>) (?:\. values )?\. (?:size|length|count|sum) ?\)?$"
)


def _deps(stmts: list[_Stmt]) -> dict[str, set[str]]:
    """Every name a name is computed from (transitively)."""
    direct: dict[str, set[str]] = {}
    for s in stmts:
        for name in s.defs:
            direct.setdefault(name, set()).update(s.uses - {name})
            for p in s.parents:
                direct[name].update(stmts[p].uses - {name})
    closed: dict[str, set[str]] = {}
    for name in direct:
        seen: set[str] = set()
        todo = [name]
        while todo:
            for dep in direct.get(todo.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        closed[name] = seen
    return closed


def _rhs(text: str, python: bool) -> str | None:
    """The value a plain assignment (or the final ``Outcome.ok``/``print``) carries."""
    if python:
        if text.startswith("Assign(targets=[") and ";value=" in text:
            target = _balanced(text, 15)
            return _py_value(text, 15 + len(target) + 7)
        match = re.match(r"Expr\(value=Call\(func=print;args=\[", text)
        if match:
            items = _py_items(_balanced(text, match.end() - 1))
            return items[0] if len(items) == 1 else None
        if text.startswith("Return(value="):
            return _py_value(text, 13)
        return None
    match = re.match(r"^(?:v\d+ = |Agent :: Outcome \. ok \( )(.*?)(?: \))?$", text)
    if match and not text.startswith("Agent"):
        return text.split(" = ", 1)[1]
    return match.group(1) if match else None


def _parts(value: str, python: bool) -> list[str] | None:
    """The components of a dict/hash literal or an interpolated string, else ``None``."""
    if python:
        for head in ("Dict(keys=", "JoinedStr(values="):
            if value.startswith(head):
                listing = value[value.index("values=[") + 7 :]
                items = _py_items(_balanced(listing, 0))
                return [
                    _py_value(i, 21) if i.startswith("FormattedValue(value=") else i
                    for i in items
                    if i != "<str>"
                ]
        return None
    value = value.strip()
    if value.startswith("<str{") and value.endswith("}>") and value.count("<str{") == 1:
        return [p.strip() for p in value[5:-2].split("|")]
    if value.startswith("{") and value.endswith("}") and "<label>:" in value:
        body = value[1:-1].replace(" ; ", " ").strip(" ;")
        parts: list[str] = []
        current: list[str] = []
        depth = 0
        for token in body.split(" "):
            depth += token in ("(", "[", "{") or token.endswith("{")
            depth -= token in (")", "]", "}")
            if token == "," and depth == 0:
                parts.append(" ".join(current))
                current = []
            elif token != "<label>:" and token:
                current.append(token)
        parts.append(" ".join(current))
        return [p.strip(" ;") for p in parts]
    return None


def _is_flag(value: str, python: bool) -> bool:
    """Is a result value a yes/no answer (``len(xs) > 0``, ``n.zero?``, ``not found``)?"""
    if python:
        return value.startswith(("Compare(", "UnaryOp(op=Not()", "Call(func=bool;"))
    level, last_method, compared = 0, "", False
    tokens = value.split(" ")
    for i, token in enumerate(tokens):
        if token in ("(", "[", "{", "do"):
            level += 1
        elif token in (")", "]", "}", "end"):
            level -= 1
        elif level == 0 and token in (">", "<", ">=", "<=", "==", "!="):
            compared = True
        elif level == 0 and token == "." and i + 1 < len(tokens):
            last_method = tokens[i + 1]
    return compared or last_method in {"positive?", "zero?", "empty?", "any?", "none?", "nil?"}


def _drop_side_values(stmts: list[_Stmt], python: bool, result: int) -> bool:
    """A count beside the value it counts (``{"items": xs, "n": len(xs)}``, a message
    with the number of lines it lists, a total of the history) is a side value: it
    leaves the result statement, so it adds no kind. Returns whether the result is a
    yes/no answer."""
    if not stmts:
        return False
    deps = _deps(stmts)
    for s in stmts:
        if python:
            literals = [
                _balanced(s.text, m.start() + 9)[1:] for m in re.finditer(r"JoinedStr\(", s.text)
            ]
            literals = ["JoinedStr(" + lit for lit in literals]
        else:
            literals = re.findall(r"<str\{[^{}]*\}>", s.text)
        for literal in literals:
            _mask(s, _parts(literal, python) or [], deps, python)
    i = result
    for _ in range(6):
        value = _rhs(stmts[i].text, python)
        if value is None:
            return False
        parts = _parts(value, python)
        if parts is None:
            alias = re.fullmatch(r"v\d+|Call\(func=dict;args=\[(v\d+),\];\)", value.strip())
            if alias is None:
                return _is_flag(value.strip(), python)
            name = alias.group(1) or alias.group(0)
            defining = [j for j, s in enumerate(stmts) if name in s.defs]
            if len(defining) != 1:
                return False
            i = defining[0]
            continue
        _mask(stmts[i], parts, deps, python)
        return False
    return False


def _mask(stmt: _Stmt, parts: list[str], deps: dict[str, set[str]], python: bool) -> None:
    """Replace the side counts among ``parts`` (of a literal in ``stmt``) by ``<side>``."""
    counts: dict[str, str] = {}
    for part in parts:
        match = (_PY_COUNT_OF if python else _RB_COUNT_OF).match(part)
        if match:
            counts[part] = next(g for g in match.groups() if g)
    others = [p for p in parts if p not in counts and _VAR.search(p)]
    if not others:
        return
    text = stmt.text
    reach = set().union(*(set(_VAR.findall(p)) for p in others))
    reach |= set().union(*(deps.get(v, set()) for v in reach))
    for part, counted in counts.items():
        if counted == "<H>" or counted in reach:
            text = text.replace(part, "<side>", 1)
    stmt.text = text
    stmt.uses = set(_VAR.findall(text))


# -- conditions: guards and predicates ----------------------------------------------


def _py_tests(text: str) -> list[str]:
    """Conditions in a Python statement dump: tests, comprehension ifs, filter lambdas."""
    tests: list[str] = []
    for match in re.finditer(r"test=", text):
        if text[max(match.start() - 6, 0) : match.start()] != "IfExp(":  # a value's choice
            tests.append(_py_value(text, match.end()))
    for match in re.finditer(r"ifs=\[", text):
        tests.extend(_py_items(_balanced(text, match.end() - 1)))
    # any(not r["ok"] for r in h): the generator's item is the condition
    for match in re.finditer(r"func=(?:any|all|sum);args=\[(?:GeneratorExp|ListComp)\(elt=", text):
        tests.append(_py_value(text, match.end()))
    for match in re.finditer(
        r"func=(?:filter|filterfalse|takewhile|dropwhile|next|any|all|sum);args=\[Lambda\(", text
    ):
        lam = _balanced(text, match.end() - 1)
        body = lam.find("body=")
        if body >= 0:
            tests.append(_py_value(lam, body + 5))
    return tests


def _py_operands(test: str) -> list[str]:
    test = test.strip()
    while test.startswith("UnaryOp(op=Not();operand="):
        test = _py_value(test, 26)
    match = re.match(r"BoolOp\(op=(?:And|Or)\(\);values=", test)
    if match:
        return [o for item in _py_items(_balanced(test, match.end())) for o in _py_operands(item)]
    return [test]


_PY_TEXT_TEST: Final = re.compile(
    r"attr='(?:startswith|endswith|find|search|match|fullmatch|findall|lower|casefold)'|In\(\)|NotIn\(\)"
)


def _py_predicate(operand: str) -> bool:
    """Does a Python condition select records (not just guard against a missing value)?"""
    keys = _KEY.findall(operand)
    if "Compare(" in operand:
        if re.search(r"ops=\[(?:Is|IsNot)\(\),\];comparators=\[(?!<bool>)", operand):
            return False  # x is None
        membership = re.search(r"ops=\[(?:In|NotIn)\(\),\];comparators=\[", operand)
        if membership:
            rest = operand[membership.end() :]
            return "<key:" in rest or rest.startswith(("List(", "Tuple(", "Set(", "<str>"))
        return bool(keys) or bool(_PY_TEXT_TEST.search(operand))
    if not keys:
        return bool(_PY_TEXT_TEST.search(operand))
    plain = not re.search(r"func=(?!Attribute)|BinOp\(", operand) and set(
        re.findall(r"attr='(\w+)'", operand)
    ) <= {"get"}
    return not plain or keys[-1] in _FLAG_KEYS


_RB_TEXT_TEST: Final = frozenset(
    {"include?", "=~", "match?", "match", "start_with?", "end_with?", "!~"}
)
_RB_PRESENCE: Final = frozenset({"nil?", "empty?", "present?", "blank?", "any?", "to_s", "to_a"})


def _rb_tests(line: str) -> list[list[str]]:
    """Conditions in a Ruby line: predicate block bodies and ``if``/``unless`` clauses."""
    tokens = line.split(" ")
    tests: list[list[str]] = []
    for i, token in enumerate(tokens):
        if (
            token in _PREDICATE_BLOCKS
            and i
            and tokens[i - 1] == "."
            and tokens[i + 1 : i + 2] in (["{"], ["do"])
        ):
            tests.append(_block(tokens, i + 1))
        elif token in _RB_GUARD_WORDS and not _rb_value_choice(tokens, i):
            cond = list(itertools.takewhile(lambda t: t not in (";", "then", "?"), tokens[i + 1 :]))
            tests.append(cond)
    return tests


_RB_OPENERS: Final = frozenset({"do", "case", "begin", "def", "while", "until", "for"})


def _rb_value_choice(tokens: list[str], i: int) -> bool:
    """Does the ``if``/``unless`` at ``tokens[i]`` choose a value (``x = if c … else … end``,
    or a statement ``if`` whose branches only assign names) rather than skip records?"""
    before = tokens[i - 1] if i else ";"
    if before in ("=", "||=", "(", ",", "return"):
        return True
    if before not in (";", "else", "then", "do", "|") or tokens[i] not in ("if", "unless"):
        return False  # a modifier: ``x << r if c``, ``next unless c``
    rest = tokens[i + 1 :]
    start = next((k for k, t in enumerate(rest) if t in (";", "then")), len(rest))
    depth = 0
    body: list[str] = []
    for k, token in enumerate(rest[start + 1 :]):
        previous = rest[start + k]
        if token in _RB_OPENERS or (token in ("if", "unless") and previous in (";", "=", "else")):
            depth += 1
        elif token == "end":
            if depth == 0:
                break
            depth -= 1
        body.append(token)
    text = re.sub(r"\belsif [^;]*;", ";", " ".join(body))
    segments = [seg.strip() for seg in re.split(r";|\belse\b", text) if seg.strip()]
    return "else" in body and bool(segments) and all(re.match(r"v\d+ = ", seg) for seg in segments)


def _block(tokens: list[str], start: int) -> list[str]:
    """The tokens of a Ruby block opening at ``tokens[start]`` (``{`` or ``do``), params dropped."""
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i] in ("{", "do"):
            depth += 1
        elif tokens[i] in ("}", "end"):
            depth -= 1
            if depth == 0:
                body = tokens[start + 1 : i]
                if body[:1] == ["|"] and "|" in body[1:]:
                    body = body[body.index("|", 1) + 1 :]
                return body
    return tokens[start + 1 :]


def _rb_operands(cond: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for token in cond:
        if token in ("&&", "||", "and", "or", ";", "…", "next", "break", "if", "unless"):
            out.append([])
        else:
            out[-1].append(token)
    return [[t for t in o if t not in ("!", "(", ")", "not")] for o in out if o]


def _rb_accumulators(line: str) -> set[str]:
    """Names a Ruby line fills one item at a time (``seen << x``, ``seen.push(x)``)."""
    return set(re.findall(r"(v\d+) (?:<<|\. (?:push|add|append|unshift|store)\b)", line))


def _rb_predicate(operand: list[str], mutated: set[str]) -> bool:
    keys = _KEY.findall(" ".join(operand))
    text_test = [t for t in operand if t in _RB_TEXT_TEST]
    if text_test:
        receiver = (
            operand[operand.index(text_test[0]) - 2] if operand.index(text_test[0]) >= 2 else ""
        )
        return receiver not in mutated
    if {"key?", "has_key?", "member?", "is_a?", "respond_to?"} & set(operand):
        return False
    if not keys:
        return False
    structural = {"[", "]", ".", "dig", "(", ")", ",", "&."} | _RB_PRESENCE
    plain = all(
        t in structural or t.startswith("<key:") or re.fullmatch(r"v\d+", t) for t in operand
    )
    return not plain or keys[-1] in _FLAG_KEYS or "== false" in " ".join(operand)


def _local_keys(operand: str, stmts: list[_Stmt], keep: set[int], python: bool) -> set[str]:
    """Record fields a tested local value was computed from (``text = …; text.include?(t)``)."""
    keys: set[str] = set()
    for name in set(re.findall(r"v\d+", operand)):
        for i in keep:
            text = stmts[i].text
            if python:
                match = re.match(rf"Assign\(targets=\[{name},\];value=(.*)$", text)
                found = [match.group(1)] if match else []
            else:
                found = re.findall(rf"(?:^|; ){name} = (.*?)(?= ;|$)", text)
            for value in found:
                keys.update(_KEY.findall(value))
    return keys


_PY_PLAIN: Final = re.compile(r"Assign\(targets=\[v\d+,\];")


def _conditions(stmts: list[_Stmt], keep: set[int], python: bool) -> tuple[set[str], bool]:
    """Fields tested by record predicates in the result's slice, and whether there is one."""
    fields: set[str] = set()
    found = False
    # a named predicate (``filter(is_ok, h)``, ``if is_ok(r)``) tests what it returns
    returns: dict[str, list[str]] = {}
    for s in stmts:
        if python and s.text.startswith("Return(value=") and s.parents:
            head = re.match(r"\w+\(name=(v\d+)", stmts[s.parents[-1]].text)
            if head:
                returns.setdefault(head.group(1), []).append(_py_value(s.text, 13))
    for i in sorted(keep):
        text = stmts[i].text
        if python:
            body = [t.text for t in stmts if i in t.parents]
            if (
                text.startswith("If(")
                and stmts[i].bodies > 1
                and all(_PY_PLAIN.match(t) for t in body)
            ):
                continue  # if c: x = a / else: x = b chooses a value, keeps every record
            operands = [o for t in _py_tests(text) for o in _py_operands(t)]
            for match in re.finditer(
                r"func=(?:filter|filterfalse|takewhile|dropwhile);args=\[(v\d+),", text
            ):
                operands += [o for r in returns.get(match.group(1), []) for o in _py_operands(r)]
            for operand in list(operands):
                call = re.match(r"Call\(func=(v\d+);", operand)
                if call:
                    operands += [o for r in returns.get(call.group(1), []) for o in _py_operands(r)]
            for operand in operands:
                if _py_predicate(operand):
                    found = True
                    fields.update(_KEY.findall(operand))
                    fields.update(_local_keys(operand, stmts, keep, True))
        else:
            for cond in _rb_tests(text):
                for tokens in _rb_operands(cond):
                    if _rb_predicate(tokens, _rb_accumulators(text)):
                        found = True
                        fields.update(_KEY.findall(" ".join(tokens)))
                        fields.update(_local_keys(" ".join(tokens), [stmts[i]], {0}, False))
    return fields, found


# -- views of the slice ----------------------------------------------------------------


def _py_view(text: str) -> str:
    """A Python statement without its conditions and index arithmetic: what it computes."""
    spans: list[tuple[int, int]] = []
    for match in re.finditer(r"test=|slice=|iter=Call\(func=range;", text):
        if match.group(0).startswith("iter="):
            spans.append(
                (match.start() + 5, match.start() + 5 + len(_balanced(text, match.start() + 9)))
            )
            continue
        value = _py_value(text, match.end())
        if match.group(0) == "slice=" and (
            value.startswith(("<key:", "<str>")) or re.fullmatch(r"v\d+", value)
        ):
            continue
        spans.append((match.end(), match.end() + len(value)))
    for match in re.finditer(r"ifs=\[", text):
        spans.append((match.end() - 1, match.end() - 1 + len(_balanced(text, match.end() - 1))))
    out, last = [], 0
    for start, end in sorted(spans):
        if start < last:
            continue
        out.append(text[last:start] + "<t>")
        last = end
    out.append(text[last:])
    # len(h) - 1: a position counted from the end, not a count
    return _PY_FROM_END.sub("<i>", "".join(out))


_PY_FROM_END: Final = re.compile(
    r"BinOp\(left=Call\(func=len;args=\[[^\]]*\];\);op=Sub\(\);right=<int>;\)"
)


def _rb_view(line: str) -> str:
    """A Ruby line without its conditions and index arithmetic: what it computes."""
    out: list[str] = []
    skipping = False
    for token in line.split(" "):
        if skipping and token not in (";", "then", "?"):
            continue
        skipping = token in _RB_GUARD_WORDS
        out.append(token)
    text = " ".join(out)
    text = re.sub(r"\[ [^\[\]]*(?:size|length|count|-)[^\[\]]* \]", "[ <i> ]", text)
    text = re.sub(r"\. (?:size|length|count) - <num>", ". <i>", text)
    return re.sub(r"(^|= )[^=;?]*? \? ", r"\1<t> ? ", text)


# -- what the slice computes -------------------------------------------------------------

_GROUP_NAMES: Final = frozenset(
    {
        "tally",
        "Counter",
        "group_by",
        "defaultdict",
        "groupby",
        "transform_values",
        "setdefault",
        "chunk_while",
    }
)
_DISTINCT_NAMES: Final = frozenset(
    {"set", "uniq", "fromkeys", "Set", "frozenset", "to_set", "SetComp", "add"}
)
_ANY_ALL_NAMES: Final = frozenset({"any", "any?", "all", "all?", "none?"})
_PICK_NAMES: Final = frozenset({"next", "find", "detect", "max_by", "min_by"})
_TEXT_NAMES: Final = frozenset({"join", "JoinedStr", "format", "<str{", "ljust", "rjust", "center"})
_SORT_NAMES: Final = frozenset(
    {"sorted", "sort", "sort_by", "most_common", "nlargest", "nsmallest"}
)
_NAME: Final = re.compile(
    r"func=(\w+)|attr='(\w+)'|\. ([a-z_]+[?!]?)\b|(<str\{|JoinedStr|SetComp|Counter|Set)\b"
)


def _names(text: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in _NAME.finditer(text)}


def _loop_facts(stmts: list[_Stmt], keep: set[int], python: bool) -> tuple[set[str], set[str]]:
    """Kinds and ends a loop over the history says by how it keeps values:

    - ``d[k] = v`` keyed by a record value: a group (``GROUP``), whose value a later record
      overwrites (``PICK`` of the last per key, ``TAIL``) unless it is kept first
      (``||=``, ``next if d.key?(k)``: ``HEAD``); a constant value marks distinct keys;
    - ``x = v`` overwritten on every record and read after the loop: the last record's
      value (``PICK``, ``TAIL``), or the first when the loop breaks right after it;
    - ``flag = True`` set in the loop: ``ANYALL``.
    """
    kinds: set[str] = set()
    ends: set[str] = set()
    deps = _deps(stmts)
    if python:
        for i in sorted(keep):
            s = stmts[i]
            if s.text.startswith(("For(", "While(")):
                body = [t for t in stmts if i in t.parents]
                if any(t.text == "Break()" for t in body) and not any(t.defs for t in body):
                    kinds.add("ANYALL")  # stop at the first match, keep nothing of it
                    ends.add("ANYWHERE")
            keyed = re.match(
                r"Assign\(targets=\[Subscript\(value=(v\d+);slice=(?!<int>|<str>)", s.text
            )
            if keyed and s.parents:
                rhs = _rhs(s.text, True) or ""
                reach = set(_VAR.findall(rhs))
                reach |= set().union(*(deps.get(v, set()) for v in reach))
                if rhs in ("<bool>", "<int>", "<str>", "Constant"):
                    kinds.add("DISTINCT")
                elif keyed.group(1) not in reach and (
                    "<key:" in rhs
                    or "<H>" in rhs
                    or any(
                        stmts[j].text.startswith("For(target=" + v + ";iter=<H>")
                        for v in _VAR.findall(rhs)
                        for j in s.parents
                    )
                ):
                    kinds.update({"GROUP", "PICK"})
                    ends.add("TAIL")
                else:
                    kinds.add("GROUP")
            plain = re.match(r"Assign\(targets=\[(v\d+),\];value=(.*);\)$", s.text)
            if plain and s.parents:
                name, rhs = plain.groups()
                loop = (
                    s.parents[-1]
                    if stmts[s.parents[0]].text.startswith(("For(", "While("))
                    else None
                )
                if loop is None:
                    continue
                inside = [j for j, t in enumerate(stmts) if loop in t.parents and j != i]
                if any(name in stmts[j].uses for j in inside) or name in stmts[loop].uses:
                    continue
                if rhs == "<bool>":
                    kinds.add("ANYALL")
                    continue
                siblings = [j for j, t in enumerate(stmts) if t.parents == s.parents and j > i]
                if siblings and stmts[siblings[0]].text == "Break()":
                    kinds.add("PICK")
                    ends.add("HEAD")
                elif "<key:" in rhs or "<H>" in rhs:
                    kinds.add("PICK")
                    ends.add("TAIL")
        return kinds, ends
    for i in sorted(keep):
        text = stmts[i].text
        for match in re.finditer(
            r"(?:; |^|\| )(v\d+) \[ (.+?) \] (=|\|\|=|\+=) (.+?)(?= ;| \}|$)", text
        ):
            name, key, op, rhs = match.groups()
            if key == "<num>":
                continue
            if op == "+=" or name in rhs.split(" "):
                kinds.add("GROUP")
            elif rhs in ("true", "<num>", "<str>", "<sym>"):
                kinds.add("DISTINCT")
            else:
                kinds.update({"GROUP", "PICK"})
                first = op == "||=" or re.search(
                    rf"(?:next|…) (?:if|unless) .*{name} \. key\?", text
                )
                ends.add("HEAD" if first else "TAIL")
        if re.search(r"(?:; )(v\d+) = true\b", text) or (
            re.search(r"… ; break\b", text) and not stmts[i].defs
        ):
            kinds.add("ANYALL")  # stop at the first match, keep nothing of it
            ends.add("ANYWHERE")
        # x = r[:f] on every record of a loop, read after it: the last record's value
        if re.match(
            r"(?:\( )?<H> (?:\) )?\. (?:each|each_with_index|reverse_each) (?:do|\{) \|", text
        ):
            later = " ".join(stmts[j].text for j in keep if j > i)
            for name, value in re.findall(r"(?:; |\| )(v\d+) = (.+?)(?= ;| end$| \}$)", text):
                if text.count(name) == 1 and name in later.split(" ") and value != "true":
                    kinds.add("PICK")
                    ends.add("TAIL" if "break" not in text else "HEAD")
        if re.search(r"; v\d+ = [^;]+? ; break\b", text):
            kinds.add("PICK")  # keep the first value found and stop
            ends.add("HEAD")
    return kinds, ends


def _kinds(
    view: str, raw: str, ops: frozenset[str], filtered: bool, loop_kinds: set[str]
) -> set[str]:
    names = _names(view)
    kinds = set(loop_kinds)
    if "grep" in ops:
        kinds.add("SEARCH" if filtered else "MARK")
    if _GROUP_NAMES & names or re.search(
        r"AugAssign\(target=Subscript\(|v\d+ \[ .+? \] \+= |Hash \. new|DictComp\(|\. to_h\b|each_with_object \( \{ \}",
        view,
    ):
        kinds.add("GROUP")
    # a set union: Python ``a | b``, Ruby ``a | b`` and ``a |= b`` (not a block's ``|x|``)
    unions = re.sub(r"(?:\{|do) \| [^|]*? \||<str\{[^{}]*\}>", " ", raw)
    if (
        _DISTINCT_NAMES & names
        or re.search(
            r"NotIn\(\)|(v\d+) << (v\d+) unless \1 \. include\? \( \2 \)|op=BitOr\(\)", raw
        )
        or re.search(r" \|=? (?!\|)", unions)
    ):
        kinds.add("DISTINCT")
    if _ANY_ALL_NAMES & names:
        kinds.add("ANYALL")
    if _PICK_NAMES & names:
        kinds.add("PICK")
    count = bool(
        re.search(
            r"func=len;|attr='count'|AugAssign\(target=v\d+;op=Add\(\);value=<int>;\)"
            r"|func=sum;args=\[(?:GeneratorExp|ListComp)\(elt=(?:<int>|<bool>|Compare)"
            r"|\. (?:size|length|count)\b|(?:^|; )v\d+ \+= <num>",
            view,
        )
    )
    ratio = bool(re.search(r"op=Div\(\)| / |fdiv", view))
    if ratio and (count or "GROUP" in kinds or filtered):
        kinds.add("RATIO")
    elif count and "GROUP" not in kinds:
        kinds.add("COUNT")
    if "GROUP" in kinds:
        kinds.discard("DISTINCT")  # a grouping's keys are distinct by construction
    if not kinds and {"sum", "inject", "reduce"} & names:
        kinds.add("SUM")
    return kinds or {"LIST"}


# -- which end of the history --------------------------------------------------------------

# Which end of the history a program reads. A marker counts only when it is applied to
# the history in its own order (the history, a filtered or projected copy, a list filled
# record by record, a group of records), never to a record's field, a text, a count, or a
# sorted or tallied collection.
_RB_TAIL_WORDS: Final = frozenset({"last", "reverse", "reverse_each", "pop"})
_RB_HEAD_WORDS: Final = frozenset({"first", "take", "shift", "find", "detect"})
_PY_UNORDERED_CALLS: Final = frozenset(
    {"str", "sorted", "Counter", "set", "frozenset", "dict", "len", "sum", "max", "min", "repr"}
)
_PY_UNORDERED_ATTRS: Final = frozenset(
    {"join", "split", "items", "keys", "values", "most_common", "lower", "upper", "strip",
     "format", "splitlines", "get"}
)  # fmt: skip
_RB_UNORDERED: Final = frozenset(
    {"join", "to_s", "downcase", "upcase", "strip", "split", "lines", "chars", "sort", "sort_by",
     "tally", "keys", "values", "count", "size", "length", "sum", "max_by", "min_by", "group_by",
     "to_h", "inspect", "dig"}
)  # fmt: skip
_GROUP_USERS: Final = re.compile(r"group_by|partition|chunk_while|slice_when|each_slice")


class _Order:
    """Decides whether a value is the history in its own order, from the kept statements."""

    def __init__(self, stmts: list[_Stmt], keep: set[int], python: bool) -> None:
        self.python = python
        self.values: dict[str, list[str]] = {}
        self.filled: set[str] = set()
        for i in sorted(keep):
            text = stmts[i].text
            if python:
                match = re.match(r"Assign\(targets=\[(v\d+),\];value=(.*);\)$", text)
                if match:
                    self.values.setdefault(match.group(1), []).append(match.group(2))
                self.filled |= stmts[i].defs - set(self.values)
            else:
                top = re.match(r"(v\d+) = (.*)$", text)
                if top:
                    self.values.setdefault(top.group(1), []).append(top.group(2))
                for name, value in re.findall(r"; (v\d+) = (.*?)(?= ;|$)", text):
                    self.values.setdefault(name, []).append(value)
                self.filled |= _rb_accumulators(text)
        self.text = "\n".join(stmts[i].text for i in sorted(keep))
        # a function's parameters hold what its callers pass
        for i in sorted(keep):
            text = stmts[i].text
            if python:
                header = re.match(
                    r"FunctionDef\(name=(v\d+);args=arguments\((?:posonlyargs=\[[^\]]*\];)?args=\[([^\]]*)\]",
                    text,
                )
            else:
                header = re.match(r"def (?:self \. )?(v\d+) \( (.*?) \) ;", text)
            if header is None:
                continue
            name = header.group(1)
            sep = "," if python else " , "
            params = [p.split(" ")[0] for p in header.group(2).split(sep) if p]
            for call in re.finditer(
                rf"Call\(func={name};args=\[" if python else rf"(?<!def ){name} \( ", self.text
            ):
                if python:
                    args = _py_items(_balanced(self.text, call.end() - 1))
                else:
                    close = self.text.find(" )", call.end())
                    args = self.text[call.end() : close].split(" , ") if close > 0 else []
                for param, arg in zip(params, args, strict=False):
                    self.values.setdefault(param, []).append(arg)

    def ordered(self, expr: str, depth: int = 0) -> bool:
        expr = expr.strip()
        if depth > 5 or not expr:
            return False
        if expr == "<H>" or expr in ("( <H> )", "}", "end"):
            return True
        if re.fullmatch(r"v\d+", expr):
            if expr in self.values and all(
                v.strip() not in ("[ ]", "List()") for v in self.values[expr]
            ):
                return all(self.ordered(v, depth + 1) for v in self.values[expr])
            if expr in self.filled:
                return True  # a list filled one record at a time, in loop order
            # a block parameter holding one group of records
            return bool(_GROUP_USERS.search(self.text)) and bool(
                re.search(rf"\| (?:v\d+ , )?{expr} \|", self.text)
            )
        return self._py_ordered(expr, depth) if self.python else self._rb_ordered(expr, depth)

    def _py_ordered(self, expr: str, depth: int) -> bool:
        node = expr[: expr.find("(")] if "(" in expr else expr
        if node in ("ListComp", "GeneratorExp"):
            start = expr.find("iter=")
            return start >= 0 and self.ordered(_py_value(expr, start + 5), depth + 1)
        if node == "BoolOp":  # h or []
            items = _py_items(_balanced(expr, expr.index("values=") + 7))
            return bool(items) and self.ordered(items[0], depth + 1)
        if node == "Subscript":
            value = _py_value(expr, 16)
            rest = expr[16 + len(value) :]
            return rest.startswith(";slice=Slice(") and self.ordered(value, depth + 1)
        if node == "Call":
            call = re.match(r"Call\(func=(\w+);args=", expr)
            if call:
                if call.group(1) in _PY_UNORDERED_CALLS:
                    return False
                items = _py_items(_balanced(expr, call.end()))
                return any(self.ordered(item, depth + 1) for item in items)
            if expr.startswith("Call(func=Attribute("):
                segment = _balanced(expr, 19)
                attr = re.search(r"attr='(\w+)';\)$", segment)
                if attr is None or attr.group(1) in _PY_UNORDERED_ATTRS:
                    return False
                return self.ordered(_py_value(segment, 7), depth + 1)
        return False

    def _rb_ordered(self, expr: str, depth: int) -> bool:
        tokens = [t for t in expr.split(" ") if t]
        if not tokens or tokens[0] in ("{", "[") or tokens[0].startswith("<str"):
            return False
        level, last_method = 0, ""
        for i, token in enumerate(tokens):
            if token in ("(", "[", "{", "do"):
                level += 1
            elif token in (")", "]", "}", "end"):
                level -= 1
            elif token == "." and level == 0 and i + 1 < len(tokens):
                last_method = tokens[i + 1]
        if last_method in _RB_UNORDERED or re.search(r"<key:\w+> \]$", expr):
            return False
        head = tokens[0] if tokens[0] != "(" else tokens[1]
        return head == "<H>" or self.ordered(head, depth + 1)


def _py_receivers(text: str) -> Iterator[tuple[str, str, bool]]:
    """(end, receiver) for each Python marker: ``x[-1]``, ``x[-n:]``, ``x[:n]``, ``x[0]``,
    ``reversed(x)``, ``x.reverse()``, ``islice(x, n)``."""
    for match in re.finditer(r"Subscript\(value=", text):
        segment = _balanced(text, match.start() + 9)
        value = _py_value(segment, 7)
        index = segment[7 + len(value) :]
        if index.startswith((";slice=UnaryOp(op=USub", ";slice=Slice(lower=UnaryOp(op=USub",
                             ";slice=Slice(lower=BinOp(left=Call(func=len", ";slice=Slice(lower=Call(func=max")):  # fmt: skip
            yield "TAIL", value, index.startswith(";slice=UnaryOp")
        elif index.startswith((";slice=Slice(upper=", ";slice=<int>;")):
            yield "HEAD", value, index.startswith(";slice=<int>")
    for match in re.finditer(r"func=(reversed|islice);args=\[", text):
        items = _py_items(_balanced(text, match.end() - 1))
        if items:
            yield ("TAIL" if match.group(1) == "reversed" else "HEAD"), items[0], False
    for match in re.finditer(r"Attribute\(value=", text):
        segment = _balanced(text, match.start() + 9)
        if segment.endswith("attr='reverse';)"):
            yield "TAIL", _py_value(segment, 7), False


def _rb_receiver(tokens: list[str], dot: int) -> str:
    """The receiver of the method called at ``tokens[dot]`` (a ``.`` or a ``[``), as text."""
    level = 0
    k = dot - 1
    while k >= 0:
        token = tokens[k]
        if token in (")", "]", "}", "end"):
            level += 1
        elif token in ("(", "[", "{", "do"):
            if level == 0:
                break
            level -= 1
        elif level == 0 and token in (
            ";",
            "=",
            ",",
            "|",
            "&&",
            "||",
            "if",
            "unless",
            "<<",
            "+",
            "-",
            "?",
            ":",
        ):
            break
        k -= 1
    return " ".join(tokens[k + 1 : dot])


def _end(stmts: list[_Stmt], keep: set[int], python: bool, loop_ends: set[str]) -> tuple[str, bool]:
    """The end of the history the result comes from, and whether one record of it is picked
    (``h[-1]``, ``h[0]``, ``.last``, ``.first`` without a count)."""
    order = _Order(stmts, keep, python)
    pick = False
    tail = "TAIL" in loop_ends
    head = "HEAD" in loop_ends
    for i in sorted(keep):
        text = stmts[i].text
        if python:
            text = re.sub(r"keyword\(arg='reverse'", "keyword(arg='_'", text)
            for end, receiver, single in _py_receivers(text):
                if order.ordered(receiver):
                    tail = tail or end == "TAIL"
                    head = head or end == "HEAD"
                    pick = pick or single
            tail = tail or bool(
                re.search(
                    r"BinOp\(left=Call\(func=len;args=\[<H>,\];\);op=Sub\(\);right=<int>;\)"
                    r"|keyword\(arg='maxlen'",
                    text,
                )
            )  # i = len(h) - 1; deque(h, maxlen=n)
            head = (
                head or "func=next;" in text or (text == "Break()" and "ANYWHERE" not in loop_ends)
            )
        else:
            tokens = text.split(" ")
            for j, token in enumerate(tokens):
                marker = j and tokens[j - 1] == "." and token in _RB_TAIL_WORDS | _RB_HEAD_WORDS
                index = token == "[" and tokens[j + 1 : j + 2] in (["-"], ["<num>"]) and j
                if not (marker or index):
                    continue
                receiver = _rb_receiver(tokens, j - 1 if marker else j)
                if not order.ordered(receiver):
                    continue
                if marker:
                    tail = tail or token in _RB_TAIL_WORDS
                    head = head or token in _RB_HEAD_WORDS
                    pick = pick or (token in ("first", "last") and tokens[j + 1 : j + 2] != ["("])
                else:
                    tail = tail or tokens[j + 1] == "-"
                    head = head or tokens[j + 1] == "<num>"
                    closing = (
                        tokens[j + 2 : j + 4] if tokens[j + 1] == "<num>" else tokens[j + 3 : j + 5]
                    )
                    pick = pick or closing[:1] == ["]"]
            tail = tail or bool(re.search(r"<H> \. (?:size|length|count) - <num>", text))
            head = head or (bool(re.search(r"\bbreak\b", text)) and "ANYWHERE" not in loop_ends)
    if (
        re.search(r"max_by|min_by|func=max|func=min", order.text)
        and "<key:timestamp>" in order.text
    ):
        tail = True  # the newest record by its time stamp
    return ("TAIL" if tail else "HEAD" if head else "ANY"), pick


def features(lines: Iterable[str], ops: Iterable[str]) -> set[str]:
    """What a sketch is made of: what the program does to the history.

    ``lines`` are the analyser's field-keeping normalized statements (a Python AST
    dump per statement, compound ones opened by ``{`` and closed by ``}``; a Ruby
    token line per top-level statement), ``ops`` its op names (only ``grep`` is
    used: text search, ``SEARCH`` when records are filtered, else ``MARK``). The
    module docstring lists the features.
    """
    lines = [line for line in lines if line]
    python = bool(lines) and all(_PY_NODE.match(line) or line in ("|", "}") for line in lines)
    op_set = frozenset(ops)
    stmts = _statements(lines, python)
    result = _result_index(stmts) if stmts else -1
    flag = _drop_side_values(stmts, python, result)
    keep = _slice(stmts, result) if stmts else set()
    raw = "\n".join(stmts[i].text for i in sorted(keep))
    view = "\n".join((_py_view if python else _rb_view)(stmts[i].text) for i in sorted(keep))
    tested, filtered = _conditions(stmts, keep, python)
    loop_kinds, loop_ends = _loop_facts(stmts, keep, python)
    end, pick = _end(stmts, keep, python, loop_ends)
    if pick:
        loop_kinds.add("PICK")
    kinds = _kinds(view, raw, op_set, filtered, loop_kinds)
    if flag or "ANYALL" in kinds:
        kinds = (kinds - {"COUNT", "LIST", "PICK"}) | {"ANYALL"}
    if "RATIO" in kinds:
        # a rate of a flag (``sum(flags) / len(flags)``) counts the records where it holds
        flags = {k for k in _KEY.findall(raw) if k in _FLAG_KEYS}
        filtered = filtered or bool(flags)
        tested |= flags
    names = _names(view)
    out: set[str] = set()
    for kind in kinds:
        out.update(f"k:{kind}#{n}" for n in range(_WEIGHT_KIND))
    for field in _canonical_fields(_KEY.findall(raw)):
        out.update(f"f:{field}#{n}" for n in range(_WEIGHT_FIELD))
    for field in _canonical_fields(tested):
        out.update(f"pf:{field}#{n}" for n in range(_WEIGHT_PREDICATE))
    if filtered:
        out.update(f"filter#{n}" for n in range(_WEIGHT_FILTER))
    if _TEXT_NAMES & names:
        out.add("p:TEXT")
    if _SORT_NAMES & names:
        out.add("p:SORT")
    return {f"{end}/{feature}" for feature in out}


def _canonical_fields(fields: Iterable[str]) -> set[str]:
    """Record fields as the sketch names them: one name for success, no bare parent."""
    return {"success" if f in _SUCCESS_KEYS else f for f in fields if f != OUTCOME_FIELD}


def program_sketch(lines: Iterable[str], ops: Iterable[str]) -> str | None:
    """The encoded sketch of a program's field-keeping normalized statements and ops.

    ``None`` when the statements cannot be read (a shape the feature rules do not expect):
    the program keeps its analysis and fingerprint, and its shape is a cluster of its own.
    """
    try:
        return encode(minhash(features(lines, ops)))
    except (ValueError, IndexError, RecursionError, StopIteration):
        return None


def field_key(name: str) -> str | None:
    """The feature form of a record field key, or ``None`` when it is not a record field."""
    return f"<key:{name}>" if name in RECORD_FIELDS else None

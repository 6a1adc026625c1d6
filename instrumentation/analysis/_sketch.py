"""Content-free similarity sketches of the history-processing part of a program.

The fingerprint (``_fingerprint.py``) says "exactly this shape"; models re-spell
the same program every time they write it, so the evidence also needs "nearly
this shape" without ever carrying the code. The sketch is a MinHash signature
over features of the normalized history statements — the same statements the
fingerprint hashes, where identifiers are positional placeholders and literals
their type — plus the operations the analyser found and the record fields the
program reads. Nothing in it is an identifier, a literal or text of the program:
a record field name is kept only when it is one of :data:`RECORD_FIELDS` (the
history record's schema), so a sketch reveals at most which schema fields and
which operations a program uses, which the span's ``ops`` already say.

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
from collections.abc import Iterable, Sequence
from hashlib import sha1
from typing import Final

from ._model import OUTCOME_FIELD, OUTCOME_KEYS, RECORD_TOP_FIELDS

NUM_PERM: Final = 64
"""Permutations (hex words) in a sketch; a similarity estimate's standard error is ≤ 0.0625."""

WORD_HEX: Final = 8
"""Hex digits per word: one 32-bit MinHash value."""

SKETCH_HEX: Final = NUM_PERM * WORD_HEX

SCHEME: Final = "minhash-affine32-64-v2"
"""Names the features and the hash; bump when either changes (old sketches then never match)."""

RECORD_FIELDS: Final[frozenset[str]] = RECORD_TOP_FIELDS | OUTCOME_KEYS
"""Record field names a sketch may keep (``_model``'s schema and outcome keys).

Every other string or symbol stays ``<str>``/``<sym>``.
"""

# What a token means for the history, whatever its spelling: Python and Ruby
# builtins, methods, AST node names and operators mapped to one concept. Only
# concepts say which end of the history a program reads and how it presents
# its result; names, literals and the rest of the syntax never enter the sketch.
_CONCEPTS: Final = {
    "sorted": "SORT", "sort": "SORT", "sort_by": "SORT", "min_by": "SORT", "max_by": "SORT",
    "max": "SORT", "min": "SORT",
    "join": "TEXT", "JoinedStr": "TEXT", "<str{": "TEXT", "format": "TEXT",
    "last": "TAIL", "reverse": "TAIL", "reversed": "TAIL", "reverse_each": "TAIL",
    "first": "HEAD", "take": "HEAD",
}  # fmt: skip
_TOKEN: Final = re.compile(
    r"<[^<>{}]*>|<str\{|'[^']*'|[A-Za-z_][A-Za-z0-9_]*[?!]?|\+=|==|!=|<<|=~|[^\s\w]"
)
_KEY: Final = re.compile(r"<key:([^>]+)>")
# Python names a sorted(..., reverse=True) keyword; it says nothing about the end read.
_REVERSE_KEYWORD: Final = re.compile(r"keyword\(arg='reverse'")
_ATTRIBUTE: Final = re.compile(r"attr='([^']+)'")
_CALLED: Final = re.compile(r"func=([A-Za-z_]+);")

# Which end of the history a program reads: the last records are not the first.
_TAIL: Final = (
    re.compile(r"slice=UnaryOp\(op=USub\(\);operand=<int>;\)"),  # h[-1]
    re.compile(r"Slice\(lower=UnaryOp\(op=USub"),  # h[-5:]
    re.compile(r"Slice\(lower=BinOp\(left=Call\(func=len"),  # h[len(h) - 5:]
    re.compile(r"\[ - <num>"),  # Ruby h[-1], h[-3..]
)
_HEAD: Final = (
    re.compile(r"Slice\(upper="),  # h[:5]
    re.compile(r"value=<H>;slice=<int>;"),  # h[0]
    re.compile(r"\[ <num> (?:,|\.\.\.?) <num> \]"),  # Ruby h[0, 3], h[0..2]
)
# One meaning, many spellings: a tally by key...
_GROUP_COUNT: Final = (
    re.compile(r"AugAssign\(target=Subscript\("),  # d[k] += 1
    re.compile(  # d[k] = d.get(k, 0) + 1
        r"Assign\(targets=\[Subscript\(value=(v\d+);slice=[^;]+;\),\];"
        r"value=BinOp\(left=Call\(func=Attribute\(value=\1;attr='get'"
    ),
    re.compile(r"DictComp\(.*attr='count'"),  # {k: xs.count(k) for k in set(xs)}
    re.compile(r"v\d+ \[ [^\]]*\] \+= <num>"),  # Ruby h[k] += 1
    re.compile(r"(v\d+) \[ (.+?) \] = \( \1 \[ \2 \] \|\| <num> \) \+ <num>"),  # (h[k] || 0) + 1
)
_GROUP_NAMES: Final = frozenset({"tally", "Counter", "group_by"})
# ...and the distinct values of a field.
_DISTINCT_NAMES: Final = frozenset({"set", "uniq", "fromkeys", "Set"})
_DISTINCT: Final = (
    re.compile(
        r"<< (v\d+) unless (v\d+) \. include\? \( \1 \)"
    ),  # seen << x unless seen.include?(x)
    re.compile(r"\. add \(|attr='add'"),  # a set filled one by one
    re.compile(r"NotIn\(\)"),  # if x not in seen: seen.append(x)
)
_SUM_NAMES: Final = frozenset({"sum", "inject", "reduce"})
_ANY_ALL_NAMES: Final = frozenset({"any", "any?", "all", "all?", "none?"})
_RATIO: Final = re.compile(r"op=Div\(\)| / |fdiv")
_PICK_OPS: Final = frozenset({"peek", "slice", "find", "index"})
# Ruby block methods whose block is a predicate over records.
_PREDICATE_BLOCKS: Final = frozenset(
    {
        "select", "filter", "find_all", "reject", "count", "find", "detect", "any?", "all?",
        "none?", "partition", "take_while", "drop_while", "filter_map", "find_index",
        "delete_if", "keep_if",
    }
)  # fmt: skip
_GUARDS: Final = frozenset({"if", "unless", "…", "&&", "||", "==", "!=", "!"})
_GUARD_END: Final = frozenset({";", "?", "then", "}"})
_GUARD_REACH: Final = 6
_PY_TEST: Final = re.compile(r"test=|ifs=\[")
_PY_COMPARE: Final = re.compile(r"Compare\(")
# outcome_summary.ok and .status both say whether a call went well.
_SUCCESS_KEYS: Final = frozenset({"ok", "status"})

_WEIGHT_KIND: Final = 6
_WEIGHT_FIELD: Final = 2
_WEIGHT_PREDICATE: Final = 2
_WEIGHT_FILTER: Final = 2

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


def similarity(a: str, b: str) -> float:
    """Estimated Jaccard similarity of two sketches: the share of equal words."""
    same = sum(a[i : i + WORD_HEX] == b[i : i + WORD_HEX] for i in range(0, SKETCH_HEX, WORD_HEX))
    return same / NUM_PERM


def bands(sketch: str, rows: int) -> list[str]:
    """The sketch cut into bands of ``rows`` words (LSH: equal band, candidate pair)."""
    width = rows * WORD_HEX
    return [sketch[i : i + width] for i in range(0, SKETCH_HEX - width + 1, width)]


def features(lines: Iterable[str], ops: Iterable[str]) -> set[str]:
    """What a sketch is made of: what the program computes from the history.

    From the field-keeping normalized statements and the analyser's ops:

    - the **kinds** of result (``GROUP`` a tally or grouping by a key,
      ``COUNT``, ``RATIO`` a count divided, ``DISTINCT``, ``SEARCH`` records
      selected by text, ``MARK`` every record flagged by text, ``PICK``
      particular records by position, ``SUM``, ``ANYALL``, else ``LIST``), each
      spelling of one meaning mapped to one kind (``Counter``, ``tally``, a loop
      with ``d[k] += 1`` and ``each_with_object(Hash.new(0))`` are all ``GROUP``);
    - the record **fields** read, and the fields tested in a predicate (a filter
      on ``speaker`` is not a projection of it); ``outcome_summary.ok`` and
      ``.status`` are one field (both say whether a call went well);
    - whether records are **filtered**, and, weighted least, how the result is
      presented (``TEXT``, ``SORT``).

    Kinds weigh most, so a count and a list of the same records fall apart;
    re-spellings, guards, an added output field and the wording of the output
    move few features. Every feature is prefixed with the end of the history
    the program reads (``TAIL``, else ``HEAD``, else ``ANY``): programs that
    read different ends share none.
    """
    text = _REVERSE_KEYWORD.sub("keyword(arg='_'", "\n".join(lines))
    op_set = frozenset(ops)
    names: set[str] = set(_ATTRIBUTE.findall(text)) | set(_CALLED.findall(text))
    concepts: set[str] = set()
    fields: set[str] = set()
    for token in _TOKEN.findall(text):
        if token.startswith("<key:"):
            fields.add(token[5:-1])
            continue
        name = token.strip("'")
        names.add(name)
        if (concept := _CONCEPTS.get(name)) is not None:
            concepts.add(concept)
    kinds = _kinds(op_set, names, text)
    out: set[str] = set()
    for kind in kinds:
        out.update(f"k:{kind}#{n}" for n in range(_WEIGHT_KIND))
    for field in _canonical_fields(fields):
        out.update(f"f:{field}#{n}" for n in range(_WEIGHT_FIELD))
    for field in _canonical_fields(_predicate_fields(text.splitlines())):
        out.update(f"pf:{field}#{n}" for n in range(_WEIGHT_PREDICATE))
    if "filter" in op_set:
        out.update(f"filter#{n}" for n in range(_WEIGHT_FILTER))
    if "summarize" in op_set or "TEXT" in concepts:
        out.add("p:TEXT")
    if "SORT" in concepts:
        out.add("p:SORT")
    tail = (
        "TAIL" in concepts
        or any(p.search(text) for p in _TAIL)
        or bool({"max_by", "max"} & names and "timestamp" in fields)
    )
    head = "HEAD" in concepts or any(p.search(text) for p in _HEAD)
    end = "TAIL" if tail else "HEAD" if head else "ANY"
    return {f"{end}/{feature}" for feature in out}


def _kinds(ops: frozenset[str], names: set[str], text: str) -> set[str]:
    """The kinds of result a program computes from the history (see :func:`features`)."""
    kinds: set[str] = set()
    if "grep" in ops:
        kinds.add("SEARCH" if "filter" in ops else "MARK")
    group = (
        "group" in ops or bool(_GROUP_NAMES & names) or any(p.search(text) for p in _GROUP_COUNT)
    )
    if group:
        kinds.add("GROUP")
    elif "count" in ops:
        kinds.add("COUNT")
        if _RATIO.search(text):
            kinds.add("RATIO")
    if _PICK_OPS & ops:
        kinds.add("PICK")
    if not group and (_DISTINCT_NAMES & names or any(p.search(text) for p in _DISTINCT)):
        kinds.add("DISTINCT")
    if _ANY_ALL_NAMES & names:
        kinds.add("ANYALL")
    if not kinds and _SUM_NAMES & names:
        kinds.add("SUM")
    return kinds or {"LIST"}


def _canonical_fields(fields: Iterable[str]) -> set[str]:
    """Record fields as the sketch names them: one name for success, no bare parent."""
    return {"success" if f in _SUCCESS_KEYS else f for f in fields if f != OUTCOME_FIELD}


def _predicate_fields(lines: Iterable[str]) -> set[str]:
    """Record fields tested in a condition: Python tests and comparisons, Ruby
    predicate blocks and guards (within a few tokens of ``if``/``==``/``!``)."""
    out: set[str] = set()
    for line in lines:
        if _PY_TEST.search(line) or _PY_COMPARE.search(line):
            for match in _PY_TEST.finditer(line):
                out.update(_KEY.findall(_python_test(line, match.end())))
            for match in _PY_COMPARE.finditer(line):
                out.update(_KEY.findall(_balanced(line, match.end() - 1)))
            continue
        tokens = line.split(" ")
        for i, token in enumerate(tokens):
            if token in _PREDICATE_BLOCKS and tokens[i + 1 : i + 2] in (["{"], ["do"]):
                out.update(_KEY.findall(" ".join(_block(tokens, i + 1))))
            elif token in _GUARDS:
                reach = itertools.takewhile(lambda t: t not in _GUARD_END, tokens[i + 1 :])
                out.update(_KEY.findall(" ".join(itertools.islice(reach, _GUARD_REACH))))
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


def _python_test(line: str, start: int) -> str:
    """A Python AST dump's ``test=EXPR;`` or ``ifs=[...]`` value starting at ``start``."""
    if line[start - 1] == "[":
        return _balanced(line, start - 1)
    depth = 0
    for i in range(start, len(line)):
        if line[i] in "([":
            depth += 1
        elif line[i] in ")]":
            if depth == 0:
                return line[start:i]
            depth -= 1
        elif line[i] == ";" and depth == 0:
            return line[start:i]
    return line[start:]


def _block(tokens: list[str], start: int) -> list[str]:
    """The tokens of a Ruby block opening at ``tokens[start]`` (``{`` or ``do``)."""
    depth = 0
    for i in range(start, len(tokens)):
        if tokens[i] in ("{", "do"):
            depth += 1
        elif tokens[i] in ("}", "end"):
            depth -= 1
            if depth == 0:
                return tokens[start + 1 : i]
    return tokens[start + 1 :]


def program_sketch(lines: Iterable[str], ops: Iterable[str]) -> str:
    """The encoded sketch of a program's field-keeping normalized statements and ops."""
    return encode(minhash(features(lines, ops)))


def field_key(name: str) -> str | None:
    """The feature form of a record field key, or ``None`` when it is not a record field."""
    return f"<key:{name}>" if name in RECORD_FIELDS else None

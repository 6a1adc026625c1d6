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

from ._model import OUTCOME_KEYS, RECORD_TOP_FIELDS

NUM_PERM: Final = 64
"""Permutations (hex words) in a sketch; a similarity estimate's standard error is ≤ 0.0625."""

WORD_HEX: Final = 8
"""Hex digits per word: one 32-bit MinHash value."""

SKETCH_HEX: Final = NUM_PERM * WORD_HEX

SCHEME: Final = "minhash-affine32-64-v1"
"""Names the features and the hash; bump when either changes (old sketches then never match)."""

RECORD_FIELDS: Final[frozenset[str]] = RECORD_TOP_FIELDS | OUTCOME_KEYS
"""Record field names a sketch may keep (``_model``'s schema and outcome keys).

Every other string or symbol stays ``<str>``/``<sym>``.
"""

# What a token means for the history, whatever its spelling: Python and Ruby
# builtins, methods, AST node names and operators mapped to one concept. Only
# concepts (and kept record fields) enter the sketch; names, literals and the
# rest of the syntax do not, so braces vs do…end, select vs filter, a
# comprehension vs a loop share their features.
_CONCEPTS: Final = {
    # counting
    "len": "COUNT", "size": "COUNT", "length": "COUNT", "count": "COUNT",
    "+=": "INC", "AugAssign": "INC",
    # grouping and tallies
    "Counter": "GROUP", "tally": "GROUP", "group_by": "GROUP", "defaultdict": "GROUP",
    "setdefault": "GROUP", "each_with_object": "ACC",
    # distinct values
    "set": "DISTINCT", "uniq": "DISTINCT", "fromkeys": "DISTINCT",
    # order
    "sorted": "SORT", "sort": "SORT", "sort_by": "SORT", "min_by": "SORT", "max_by": "SORT",
    "max": "SORT", "min": "SORT",
    # text out
    "join": "TEXT", "JoinedStr": "TEXT", "<str{": "TEXT", "format": "TEXT",
    # search
    "include?": "SEARCH", "In": "SEARCH", "=~": "SEARCH", "match": "SEARCH", "find": "SEARCH",
    "lower": "CASE", "downcase": "CASE",
    # which end of the history
    "last": "TAIL", "reverse": "TAIL", "reversed": "TAIL", "reverse_each": "TAIL",
    "first": "HEAD", "take": "HEAD",
    # conditions
    "Not": "NOT", "!": "NOT", "reject": "NOT", "unless": "NOT",
    "NotEq": "NE", "!=": "NE", "Eq": "EQ", "==": "EQ",
    # selection and projection
    "select": "FILTER", "filter": "FILTER", "find_all": "FILTER", "filter_map": "FILTER",
    "ifs": "FILTER", "If": "FILTER", "next": "FILTER",
    "map": "MAP", "collect": "MAP", "ListComp": "MAP", "append": "MAP", "<<": "MAP",
    "Dict": "RECORD",
    # reductions
    "sum": "SUM", "any?": "ANY", "any": "ANY", "all": "ALL", "all?": "ALL", "empty?": "EMPTY",
    "Slice": "SLICE",
}  # fmt: skip
# Concepts that change what a program computes from the history (which end,
# counts vs lists, distinct vs tallies): weighted so that a program and its
# hard negative (first five vs last five records) fall apart.
_DECISIVE: Final = frozenset(
    {"TAIL", "HEAD", "DISTINCT", "GROUP", "COUNT", "SEARCH", "SUM", "ANY", "ALL", "SORT", "TEXT"}
)
_TOKEN: Final = re.compile(
    r"<[^<>{}]*>|<str\{|'[^']*'|[A-Za-z_][A-Za-z0-9_]*[?!]?|\+=|==|!=|<<|=~|[^\s\w]"
)
# Python slices say their end only in structure: ``[:5]`` the head, ``[-5:]`` the tail.
_PY_HEAD: Final = re.compile(r"Slice\(upper=")
_PY_TAIL: Final = re.compile(r"Slice\(lower=UnaryOp\(op=USub")
_WEIGHT_OP: Final = 2
_WEIGHT_FIELD: Final = 3
_WEIGHT_CONCEPT: Final = 2
_WEIGHT_DECISIVE: Final = 8

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
    """What a sketch is made of: ops, record fields read, concepts, and concept pairs.

    From the field-keeping normalized statements: every token that means
    something for the history (``_CONCEPTS``) becomes its concept, every kept
    record field key ``field:<name>``; the analyser's ops are added. Each
    appears as several copies (weights), decisive concepts most, so that the
    Jaccard similarity of two feature sets is dominated by *what* the programs
    compute; pairs of consecutive concepts/fields within a statement
    (``EQ field:speaker``) add which field an operation applies to. Every
    feature is prefixed with the end of the history the program reads
    (``TAIL``, else ``HEAD``, else ``ANY``).
    """
    out: set[str] = set()
    concepts: set[str] = set()
    fields: set[str] = set()
    for line in lines:
        sequence: list[str] = []
        if _PY_HEAD.search(line):
            concepts.add("HEAD")
        if _PY_TAIL.search(line):
            concepts.add("TAIL")
        for token in _TOKEN.findall(line):
            if token.startswith("<key:"):
                field = token[5:-1]
                fields.add(field)
                sequence.append(f"F:{field}")
                continue
            concept = _CONCEPTS.get(token.strip("'"))
            if concept is not None:
                concepts.add(concept)
                sequence.append(concept)
        out.update(f"g:{a} {b}" for a, b in itertools.pairwise(sequence))
    for op in ops:
        out.update(f"op:{op}#{k}" for k in range(_WEIGHT_OP))
    for field in fields:
        out.update(f"field:{field}#{k}" for k in range(_WEIGHT_FIELD))
    for concept in concepts:
        weight = _WEIGHT_DECISIVE if concept in _DECISIVE else _WEIGHT_CONCEPT
        out.update(f"c:{concept}#{k}" for k in range(weight))
    # Which end of the history a program reads is what it computes (the last
    # five records are not the first five), so it partitions the features:
    # programs that read different ends share no feature at all. Any tail
    # marker wins (``reverse.first(4)`` reads the tail).
    end = "TAIL" if "TAIL" in concepts else "HEAD" if "HEAD" in concepts else "ANY"
    return {f"{end}/{feature}" for feature in out}


def program_sketch(lines: Iterable[str], ops: Iterable[str]) -> str:
    """The encoded sketch of a program's field-keeping normalized statements and ops."""
    return encode(minhash(features(lines, ops)))


def field_key(name: str) -> str | None:
    """The feature form of a record field key, or ``None`` when it is not a record field."""
    return f"<key:{name}>" if name in RECORD_FIELDS else None

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

import re
from collections.abc import Iterable, Sequence
from hashlib import sha1
from typing import Final

NUM_PERM: Final = 64
"""Permutations (hex words) in a sketch; a similarity estimate's standard error is ≤ 0.0625."""

WORD_HEX: Final = 8
"""Hex digits per word: one 32-bit MinHash value."""

SKETCH_HEX: Final = NUM_PERM * WORD_HEX

SCHEME: Final = "minhash-affine32-64-v1"
"""Names the features and the hash; bump when either changes (old sketches then never match)."""

RECORD_FIELDS: Final[frozenset[str]] = frozenset(
    {
        # the V1 history record
        "call_id",
        "timestamp",
        "speaker",
        "method_name",
        "args",
        "kwargs",
        "outcome_summary",
        # keys of outcome_summary
        "ok",
        "status",
        "value_class",
        "error_type",
        "error_message",
        "content_ref",
        "summary",
        # chat-message records (GenAI messages, OpenAI-style history)
        "role",
        "content",
        "name",
        "tool_calls",
        "parts",
        "goal",
        "need",
        "parent_call_id",
        "depth",
    }
)
"""Record field names a sketch may keep; every other string or symbol stays ``<str>``/``<sym>``."""

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
    0xd583e84b, 0xfe8f01d7, 0x70ce5f19, 0xdd782891, 0x000efdff, 0x41998713,
    0x9acb5597, 0xff823d0b, 0x4b23969f, 0x78e0a781, 0x2f470121, 0xcb0ca103,
    0x5f5d7f99, 0xc69c3c8f, 0xb0ed55db, 0x56e8f3f9, 0xcb251b0d, 0xdefefa33,
    0x13dfc965, 0xb14faa29, 0xd6a0a9fd, 0xa06562cb, 0x5ed51725, 0x0c9193a9,
    0x68adf717, 0xe30c41f9, 0xc1989bd5, 0x758b2539, 0x0e05bf3b, 0x119eb31d,
    0x57478465, 0xd3f2d489, 0xd5a8f9af, 0xea16bfaf, 0x1e0c97d3, 0xdc8485e3,
    0x47e0cbef, 0xe0d55bbd, 0x656d8ec1, 0x8e8908ad, 0x99fb311b, 0x6e93afd3,
    0xefbffb13, 0x9b03080f, 0xa079227f, 0x2f83967b, 0x62781c2d, 0x094b4a73,
    0xc0b61403, 0xbae3ef01, 0xca09e279, 0xa885f1a3, 0x2b8aea11, 0xa8c1c5b1,
    0x13fefd1b, 0x8bcd34e7, 0x56f4035f, 0x1e551fd5, 0xc19be4f3, 0x574f7391,
    0x325a843d, 0x2fa6488f, 0xd79b6b07, 0x57e30b8d,
)
_B: Final = (
    0xf5383f95, 0x696aee31, 0x887d8539, 0x3292b203, 0xb11edbc4, 0x4a252b18,
    0x50c5a1f1, 0x2461fc2b, 0xafbe864c, 0xc8874c1a, 0xd5aa0734, 0x699c2550,
    0x04ae8a6d, 0x08bf7373, 0xc0097529, 0x9fc06dd2, 0xfd26000f, 0xa91f6c40,
    0xbf87c8c4, 0x4c6a3019, 0x47cb2d6f, 0x7235dee2, 0xca0e35d7, 0x38dd2787,
    0x1a6d051a, 0x12c7fe99, 0x72a92668, 0x78200416, 0xe899b709, 0x189ebec3,
    0x4b2a4be7, 0xe743447e, 0x49aba517, 0x1e96ed7d, 0x21498d64, 0x8659409b,
    0x04f53ba5, 0x15685139, 0xadc82a53, 0xeab76ca6, 0x362d4288, 0xe9132520,
    0x43fadda2, 0x4c86af0a, 0x7dd7bd17, 0x959a868f, 0x0da92aef, 0x90df9c57,
    0x92f95f19, 0x9d2b0fc7, 0x259000f3, 0xf4df855c, 0x96dcba4a, 0x42cf84be,
    0xb3235d2e, 0x3b23d3a0, 0x1a3296d8, 0x88901497, 0x69ff92b7, 0xf32f2541,
    0xb1c43571, 0x7e39274d, 0x6a07a703, 0x8a64cb80,
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
    same = sum(
        a[i : i + WORD_HEX] == b[i : i + WORD_HEX] for i in range(0, SKETCH_HEX, WORD_HEX)
    )
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
        out.update(f"g:{a} {b}" for a, b in zip(sequence, sequence[1:], strict=False))
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

"""Textual fallback: the history name and op words near it, for languages we do not parse.

Used for languages other than Python and Ruby (method ``"textual"``) and for
code a parser rejected (method ``"failed"``). It is deliberately simple and
flagged as such: comments are dropped and string literals blanked first (so a
comment or a log message mentioning the history is not access), then only the
statements that mention the history — or a name assigned from it — are
searched for op words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from ._fingerprint import HISTORY_PLACEHOLDER, digest
from ._model import HISTORY_KEY, Finding

_MARKER: Final = "__recurscope_history__"

# Spellings of the default name in other languages' conventions.
_DEFAULT_SPELLINGS: Final = (HISTORY_KEY, "conversationHistory", "ConversationHistory")

_OP_PATTERNS: Final = (
    (
        "filter",
        re.compile(r"\.(filter|select|reject|where|Where|find_all|filter_map)\b|\bfilter\("),
    ),
    ("map", re.compile(r"\.(map|collect|flat_map|flatMap|Select|filter_map)\b|\bmap\(")),
    (
        "slice",
        re.compile(
            r"\.(slice|take|drop|skip|Skip|Take|limit|subList|first|last)\(|"
            r"\[\s*-?\w*\s*:\s*-?\w*\s*\]|\[\s*-?\w+\s*\.\.\.?\s*-?\w*\s*\]"
        ),
    ),
    ("count", re.compile(r"\.(length|size|count|Count|len)\b|\blen\(")),
    ("sort", re.compile(r"\.(sort|sortBy|sort_by|sorted|orderBy|OrderBy|min_by|max_by)\b|\bsort")),
    ("find", re.compile(r"\.(find|findLast|detect|some|any|Any|First|FirstOrDefault)\b")),
    ("group", re.compile(r"group_?[bB]y|GroupBy|\bCounter\(|\.tally\b|\.chunk\b")),
    (
        "grep",
        re.compile(
            r"\.(includes|include\?|contains|Contains|match|matches|test|search|indexOf|"
            r"startsWith|endsWith|start_with\?|end_with\?|grep|scan)\b|=~|strings\.Contains"
        ),
    ),
    ("partition", re.compile(r"\bpartition\b")),
    ("summarize", re.compile(r"\.join\(|\bjoin\(|strings\.Join|\.Join\(")),
    ("iterate", re.compile(r"\bfor\b|\.forEach\b|\.each\b|\bforeach\b|\brange\b")),
    ("index", re.compile(r"\[\s*-?\d+\s*\]")),
)
_PEEK: Final = re.compile(
    r"\.(slice\(\s*-|slice\(\s*0\s*,|take\(|Take\(|first\(|last\(|limit\()|"
    r"\[\s*:\s*\w+\s*\]|\[\s*-\w+\s*:\s*\]"
)
# A quoted history name is a read only as a key: ``x["..."]``, ``x.get("...")``.
_KEY_POSITION: Final = re.compile(
    r"(\[|\b(?:get|fetch|dig|Get|GetValue|getOrDefault|at|value)\s*\(|\bgetattr\([^()]*,)\s*$"
)
_ASSIGN: Final = re.compile(r"\b([A-Za-z_$][\w$]*)\s*(?::=|=(?![=~>]))\s*(.*)")
_IDENT: Final = re.compile(r"[A-Za-z_$][\w$]*")


def _clean(code: str, keys: frozenset[str]) -> str:
    """Drop comments and blank strings; a string that names the history becomes a marker."""
    out: list[str] = []
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        nxt = code[i + 1] if i + 1 < n else ""
        if ch == "/" and nxt == "/":
            while i < n and code[i] != "\n":
                i += 1
            continue
        if ch == "/" and nxt == "*":
            end = code.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
            continue
        if ch == "#" and nxt != "{" and (i == 0 or code[i - 1] in " \t\n;"):
            while i < n and code[i] != "\n":
                i += 1
            continue
        if code.startswith(('"""', "'''"), i):
            end = code.find(code[i : i + 3], i + 3)
            i = n if end < 0 else end + 3
            out.append('""')
            continue
        if ch in "\"'`":
            j = i + 1
            parts: list[str] = []
            while j < n and code[j] != ch and code[j] != "\n":
                if code[j] == "\\":
                    j += 2
                    continue
                if code[j] in "$#" and j + 1 < n and code[j + 1] == "{":
                    end = code.find("}", j)
                    if end < 0:
                        break
                    parts.append(code[j + 2 : end])  # interpolated code stays code
                    j = end + 1
                    continue
                j += 1
            text = code[i + 1 : j]
            keyed = text in keys and _KEY_POSITION.search("".join(out[-40:])) is not None
            out.append(f" {_MARKER} " if keyed else '""')
            out.extend(f" {p} " for p in parts)
            i = j + 1
            continue
        if ch == ":" and code[i + 1 : i + 1 + len(HISTORY_KEY)] == HISTORY_KEY:
            out.append(f" {_MARKER} ")  # Ruby/Elixir symbol
            i += 1 + len(HISTORY_KEY)
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def analyze_textual(code: str, history_names: Iterable[str]) -> Finding:
    """Best-effort answer for code we cannot parse: never raises on a ``str``."""
    keys = frozenset((*_DEFAULT_SPELLINGS, *history_names))
    cleaned = _clean(code, keys)
    statements = [s for s in re.split(r"[;\n]", cleaned) if s.strip()]
    names = set(keys) | {_MARKER}
    # Names assigned from the history join it (two rounds catch alias chains).
    for _ in range(3):
        grew = False
        for statement in statements:
            match = _ASSIGN.search(statement)
            if match and match.group(1) not in names:
                rhs_names = set(_IDENT.findall(match.group(2)))
                if rhs_names & names:
                    names.add(match.group(1))
                    grew = True
        if not grew:
            break
    history_idents = keys | {_MARKER}
    accessed = any(set(_IDENT.findall(s)) & history_idents for s in statements)
    if not accessed:
        return Finding(False, frozenset(), None)
    ops: set[str] = set()
    shape: list[str] = []
    for statement in statements:
        idents = set(_IDENT.findall(statement))
        if not idents & names:
            continue
        found = {op for op, pattern in _OP_PATTERNS if pattern.search(statement)}
        if "slice" in found and _PEEK.search(statement):
            found.add("peek")
        ops |= found
        shape.append(" ".join(sorted(found)) or HISTORY_PLACEHOLDER)
    return Finding(True, frozenset(ops), digest(["textual", *shape]))

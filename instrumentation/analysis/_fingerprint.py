"""Stable fingerprints of the history-dependent part of a program.

The fingerprint answers "is this the same history-processing snippet as that
one?" across sessions, so it must not depend on variable names, literal values,
comments, layout, unrelated statements or the process that computed it (Python's
``hash()`` is salted per process, hence ``blake2b``). The analysers produce a
list of normalized statement strings; this module owns the placeholder scheme
and the hash.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from hashlib import blake2b
from typing import Final

from ._ruby_lexer import Token
from ._sketch import field_key

HISTORY_PLACEHOLDER: Final = "<H>"
"""Stands for the history itself, however the program reached it."""

# Bump when the normalization changes, so old and new fingerprints never collide.
_SCHEME: Final = b"recurscope-fp-1\n"


def digest(statements: Iterable[str]) -> str:
    """Hash normalized statements, in order, to 16 hex digits."""
    h = blake2b(_SCHEME, digest_size=8)
    for statement in statements:
        h.update(statement.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


class Placeholders:
    """Positional names for identifiers, numbered in first-seen order."""

    __slots__ = ("_names",)

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        placeholder = self._names.get(name)
        if placeholder is None:
            placeholder = f"v{len(self._names)}"
            self._names[name] = placeholder
        return placeholder


# Fields that carry positions or typing hints, not shape.
_SKIPPED_FIELDS: Final = frozenset(
    {"ctx", "type_comment", "kind", "lineno", "col_offset", "end_lineno", "end_col_offset"}
)


def serialize_python(
    node: ast.AST,
    *,
    rename: Callable[[str], str | None],
    replace: Callable[[ast.AST], str | None],
) -> str:
    """Serialize an AST node as a compact S-expression with names and literals abstracted.

    ``replace(node)`` may return a ready-made string for a whole subtree (the
    history source, say); ``rename(identifier)`` returns the placeholder of a
    program-bound identifier, or ``None`` to keep it (builtins, ``context``,
    imported modules). Literals become their type name. A hand-written form
    rather than ``ast.dump``/``ast.unparse`` keeps the text independent of how a
    Python release formats either.
    """
    out: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, ast.AST):
            replaced = replace(value)
            if replaced is not None:
                out.append(replaced)
                return
            if isinstance(value, ast.Constant):
                out.append(f"<{type(value.value).__name__}>")
                return
            if isinstance(value, ast.Name):
                out.append(rename(value.id) or value.id)
                return
            if isinstance(value, ast.arg):
                out.append(rename(value.arg) or value.arg)
                return
            out.append(type(value).__name__)
            out.append("(")
            for field in value._fields:
                if field in _SKIPPED_FIELDS:
                    continue
                child = getattr(value, field, None)
                if child is None or child == []:
                    continue
                out.append(field)
                out.append("=")
                if isinstance(child, str) and field == "name":
                    out.append(rename(child) or child)
                else:
                    # ``keyword.arg`` (``key=``) and ``Attribute.attr`` stay: they are shape
                    walk(child)
                out.append(";")
            out.append(")")
        elif isinstance(value, list):
            out.append("[")
            for item in value:
                walk(item)
                out.append(",")
            out.append("]")
        else:
            # attribute names, operators' fields, import names: part of the shape
            out.append(repr(value))

    walk(node)
    return "".join(out)


def normalize_ruby(
    tokens: list[Token],
    start: int,
    end: int,
    excluded: list[tuple[int, int]],
    spans: dict[int, int],
    aliases: set[str],
    bound: set[str],
    placeholders: Placeholders,
    *,
    fields: bool = False,
) -> str:
    """Tokens ``start:end`` of a Ruby statement, names and literals abstracted.

    ``excluded`` spans (nested statements that do not touch history) collapse to
    one marker; ``spans`` maps a token index to the end of a history source
    expression there, which becomes the history placeholder; ``aliases`` are
    names that stand for the history itself; ``bound`` are program-bound names
    (placeholders); method names after ``.`` stay. Comments and layout are
    already gone in the token stream. ``fields`` keeps symbols and plain strings
    that name a record field (``:speaker`` → ``<key:speaker>``), for the sketch.
    """
    out: list[str] = []
    skips = {s: e for s, e in excluded if e > s}
    i = start
    while i < end:
        skip = skips.get(i)
        if skip is not None:
            out.append("…")
            i = skip
            continue
        span = spans.get(i)
        if span is not None and span > i:
            out.append(HISTORY_PLACEHOLDER)
            i = span
            continue
        out.append(_ruby_token_shape(tokens, i, aliases, bound, placeholders, fields))
        i += 1
    return " ".join(t for t in out if t)


def _ruby_token_shape(
    tokens: list[Token],
    i: int,
    aliases: set[str],
    bound: set[str],
    placeholders: Placeholders,
    fields: bool = False,
) -> str:
    tok = tokens[i]
    if fields and tok.kind in {"symbol", "str"} and not tok.parts:
        key = field_key(tok.text.lstrip(":").strip("'\""))
        if key is not None:
            return key
    prev = tokens[i - 1] if i else None
    after_dot = prev is not None and prev.kind == "op" and prev.text in {".", "&.", "::"}
    if tok.kind == "nl":
        return ";"
    if tok.kind in {"ident", "ivar"} and not after_dot:
        if tok.text in aliases:
            return HISTORY_PLACEHOLDER
        if tok.text in bound:
            return placeholders(tok.text)
        return tok.text
    if tok.kind == "str":
        if tok.parts:
            inner = [
                " ".join(
                    _ruby_token_shape(list(part), k, aliases, bound, placeholders, fields)
                    for k in range(len(part))
                )
                for part in tok.parts
            ]
            return "<str{" + "|".join(inner) + "}>"
        return "<str>"
    if tok.kind == "symbol":
        return "<sym>"
    if tok.kind == "num":
        return "<num>"
    if tok.kind == "regex":
        return "<re>"
    if tok.kind == "label":
        return "<label>:"
    return tok.text

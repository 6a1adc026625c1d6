"""Ruby static depth: the literal tail bound of every read of the history, if all have one.

The same rules as the Python analyser's (``_python_depth``), over the parsed
chains: a *read* is a chain that is the whole history — a source
(``context[:conversation_history]``), a name only ever assigned it (``h =
context[:conversation_history] || []``, ``h = history.dup``, the injected
local), ``(source || [])`` — and the suffix that follows it decides:

- a tail with a literal bound: ``.last`` (1), ``.last(4)`` (4), ``[-1]`` (1),
  ``[-2..]``/``[-2..-1]``/``[-2...]`` (2), ``[-5, 5]`` (5), ``.fetch(-1)``,
  ``.reverse.first(3)``/``.reverse.take(3)``/``.reverse_each.first`` (3, 1);
- not a read of records: ``.size``/``.length``/``.count`` and ``.empty?``/``.any?``/
  ``.none?``/``.nil?`` without a block, ``!h``, ``h && …``, ``h ? … : …``,
  ``if h``, ``h == []``, and assigning a name that only holds the history;
- passed to a ``def`` of the program: the parameter's uses there are the reads;
- anything else reads without a literal tail bound (``.each``, ``.map``,
  ``.first(3)``, ``[0]``, ``.last(n)``, returning or interpolating it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Final

from ._ruby_lexer import Token
from ._ruby_parser import Chain, Expr, Stmt, Suffix

_SourceAt = Callable[[Chain, int], bool]
# (role, owner, position): where an expression stands
_Where = tuple[str, object, int]

_UNBOUNDED: Final = -1
_NEUTRAL: Final = 0

_COPIES: Final = frozenset({"to_a", "dup", "clone", "freeze", "itself", "entries"})
_NO_RECORD: Final = frozenset(
    {"length", "size", "count", "empty?", "any?", "none?", "nil?", "present?", "blank?"}
)
_TESTS: Final = frozenset({"&&", "and", "?", "||", "or"})


def static_depth(
    program: list[Stmt],
    source_at: _SourceAt,
    injected: frozenset[str],
    defs: Mapping[str, list[Stmt]],
    parameters: frozenset[str],
) -> int | None:
    """The literal tail bound of all history reads, or ``None`` (see the module docstring).

    ``source_at(chain, i)`` says whether suffix ``i`` of ``chain`` reads the history;
    ``parameters`` are names bound as block or ``def`` parameters anywhere.
    """
    return _Depth(program, source_at, injected, defs, parameters).run()


def _int(expr: Expr | None) -> int | None:
    """The value of an integer literal expression (``5``, ``-5``), else ``None``."""
    if expr is None:
        return None
    items = expr.items
    sign = 1
    if len(items) == 2 and isinstance(items[0], Token) and items[0].text == "-":
        sign, items = -1, items[1:]
    if len(items) != 1 or not isinstance(items[0], Chain):
        return None
    chain = items[0]
    if chain.head is None or chain.head.kind != "num" or chain.suffixes:
        return None
    try:
        return sign * int(chain.head.text.replace("_", ""))
    except ValueError:
        return None


def _split_range(expr: Expr) -> tuple[Expr, Expr, str] | None:
    for index, item in enumerate(expr.items):
        if isinstance(item, Token) and item.kind == "op" and item.text in {"..", "..."}:
            low = Expr(expr.items[:index], expr.start, expr.end)
            high = Expr(expr.items[index + 1 :], expr.start, expr.end)
            return low, high, item.text
    return None


def _empty_literal(item: object) -> bool:
    return (
        isinstance(item, Chain)
        and item.head_kind in {"array", "hash"}
        and not item.elements
        and not item.suffixes
    )


def _plain(suffix: Suffix) -> bool:
    """A call without arguments or block (``.size``, ``.reverse``)."""
    return suffix.kind == "call" and not suffix.args and suffix.block is None


def _tail_window(args: list[Expr]) -> int:
    """The bound of ``h[args]`` (or ``h.slice(args)``): records from the newest, or unbounded."""
    if len(args) == 2:
        start, length = _int(args[0]), _int(args[1])
        return -start if start is not None and start < 0 and length is not None else _UNBOUNDED
    if len(args) != 1:
        return _UNBOUNDED
    parts = _split_range(args[0])
    if parts is None:
        index = _int(args[0])
        return -index if index is not None and index < 0 else _UNBOUNDED
    low, high, _ = parts
    start = _int(low)
    end = _int(high) if high.items else -1
    if start is None or start >= 0 or end is None or end >= 0:
        return _UNBOUNDED
    return -start


def _head_window(suffix: Suffix) -> int:
    """The bound of a head of the *reversed* history: ``first(3)``, ``take(3)``, ``[0]``."""
    if suffix.kind == "index":
        if len(suffix.args) == 1 and (parts := _split_range(suffix.args[0])) is not None:
            low, high, op = parts
            end = _int(high)
            if _int(low) == 0 and end is not None and end >= 0:
                return end + (op == "..")
            return _UNBOUNDED
        if len(suffix.args) == 2 and _int(suffix.args[0]) == 0:
            length = _int(suffix.args[1])
            return length if length is not None and length > 0 else _UNBOUNDED
        index = _int(suffix.args[0]) if len(suffix.args) == 1 else None
        return index + 1 if index is not None and index >= 0 else _UNBOUNDED
    if suffix.block is not None or suffix.name not in {"first", "take"}:
        return _UNBOUNDED
    if not suffix.args:
        return 1 if suffix.name == "first" else _UNBOUNDED
    count = _int(suffix.args[0]) if len(suffix.args) == 1 else None
    return count if count is not None and count > 0 else _UNBOUNDED


class _Depth:
    """One computation over one parsed program; ``run()`` once."""

    def __init__(
        self,
        program: list[Stmt],
        source_at: _SourceAt,
        injected: frozenset[str],
        defs: Mapping[str, list[Stmt]],
        parameters: frozenset[str],
    ) -> None:
        self.program = program
        self.source_at = source_at
        self.defs = defs
        self.visited: set[tuple[int, str]] = set()
        self.names = self._full_names(injected, parameters)
        # an injected name the program rebinds to something else: its reads are not followed
        self.lost = bool(injected - self.names)

    def run(self) -> int | None:
        if self.lost:
            return None
        bounds = self._reads(self.program)
        if not bounds or _UNBOUNDED in bounds:
            return None
        deepest = max(bounds)
        return deepest if deepest > 0 else None

    # -- which chains are the whole history ----------------------------------------------

    def _full_names(self, injected: frozenset[str], parameters: frozenset[str]) -> frozenset[str]:
        """Names every assignment of which is the whole history (greatest fixpoint)."""
        values: dict[str, list[Expr | None]] = {}
        rebound = set(parameters)
        for stmt, _ in self._statements(self.program):
            if stmt.kind == "for":
                rebound.update(stmt.names)
            if stmt.kind != "assign":
                continue
            for target in stmt.targets:
                chain = target.items[0] if len(target.items) == 1 else None
                if not isinstance(chain, Chain) or chain.head is None:
                    continue
                if chain.head_kind != "name" or chain.suffixes or chain.head_args is not None:
                    continue
                if len(stmt.targets) == 1 and stmt.op in {"=", "||="}:
                    values.setdefault(chain.head.text, []).append(stmt.expr)
                else:
                    rebound.add(chain.head.text)
        names = (set(values) | set(injected)) - rebound
        while True:
            self.names = frozenset(names)
            kept = {n for n in names if all(self._full_expr(v) for v in values.get(n, []))}
            if kept == names:
                return frozenset(kept)
            names = kept

    def _full_expr(self, expr: Expr | None) -> bool:
        """``expr`` is the whole history: one full chain, maybe with ``|| []``."""
        if expr is None or not expr.items:
            return False
        first, rest = expr.items[0], expr.items[1:]
        if not isinstance(first, Chain) or self._full_index(first) != len(first.suffixes):
            return False
        if not rest:
            return True
        return (
            len(rest) == 2
            and isinstance(rest[0], Token)
            and rest[0].text == "||"
            and _empty_literal(rest[1])
        )

    def _source_index(self, chain: Chain) -> int | None:
        for index in range(len(chain.suffixes) - 1, -1, -1):
            if self.source_at(chain, index):
                return index
        return None

    def _full_head(self, chain: Chain) -> bool:
        """The head alone is the whole history: a full name, or ``(history || [])``."""
        if chain.head_kind == "name":
            return (
                chain.head is not None
                and chain.head_args is None
                and chain.head_block is None
                and chain.head.text in self.names
            )
        return (
            chain.head_kind == "group"
            and len(chain.inner) == 1
            and chain.inner[0].kind == "expr"
            and self._full_expr(chain.inner[0].expr)
        )

    def _full_index(self, chain: Chain) -> int | None:
        """How many suffixes of ``chain`` it takes to reach the whole history, if it does."""
        source = self._source_index(chain)
        if source is not None:
            suffix = chain.suffixes[source]
            if suffix.name == "dig" and len(suffix.args) > 1:
                return None  # ``dig(:conversation_history, -1)`` indexes into it
            index = source + 1
        elif self._full_head(chain):
            index = 0
        else:
            return None
        while index < len(chain.suffixes) and _plain(chain.suffixes[index]):
            if chain.suffixes[index].name not in _COPIES:
                break
            index += 1
        return index

    # -- walking -------------------------------------------------------------------------

    def _statements(self, stmts: list[Stmt]) -> Iterator[tuple[Stmt, list[tuple[Expr, _Where]]]]:
        """Every statement (nested ones too) with all its expressions and where each stands."""
        for stmt in stmts:
            exprs: list[tuple[Expr, _Where]] = []
            if stmt.expr is not None:
                role = {"assign": "value", "expr": "stmt"}.get(stmt.kind, "other")
                exprs.append((stmt.expr, (role, stmt, 0)))
            if stmt.subject is not None:
                exprs.append((stmt.subject, ("other", stmt, 0)))
            nested: list[Stmt] = []
            for cond, body in stmt.branches:
                if cond is not None:
                    role = "cond" if stmt.kind in {"if", "while"} else "other"
                    exprs.append((cond, (role, stmt, 0)))
                nested.extend(body)
            for expr, _ in list(exprs):
                for item in expr.items:
                    if isinstance(item, Chain):
                        inner_exprs, inner_stmts = self._chain_parts(item)
                        exprs.extend(inner_exprs)
                        nested.extend(inner_stmts)
            yield stmt, exprs
            yield from self._statements(nested)

    def _chain_parts(self, chain: Chain) -> tuple[list[tuple[Expr, _Where]], list[Stmt]]:
        """The expressions and statements inside one chain, recursively for its arguments."""
        exprs: list[tuple[Expr, _Where]] = []
        stmts: list[Stmt] = []
        pending: list[tuple[Expr, _Where]] = []
        for index, arg in enumerate(chain.head_args or []):
            pending.append((arg, ("arg", chain, index)))
        pending += [(e, ("other", chain, 0)) for e in chain.elements]
        for suffix in chain.suffixes:
            pending += [(a, ("other", chain, 0)) for a in suffix.args]
            if suffix.block is not None:
                stmts.extend(suffix.block.body)
        if chain.head_block is not None:
            stmts.extend(chain.head_block.body)
        if chain.ctrl is not None:
            stmts.append(chain.ctrl)
        if chain.head_kind == "group" and len(chain.inner) == 1 and chain.inner[0].kind == "expr":
            expr = chain.inner[0].expr
            if expr is not None:
                pending.append((expr, ("inner", chain, 0)))
        else:
            stmts.extend(chain.inner)
        for expr, where in pending:
            exprs.append((expr, where))
            for item in expr.items:
                if isinstance(item, Chain):
                    more_exprs, more_stmts = self._chain_parts(item)
                    exprs.extend(more_exprs)
                    stmts.extend(more_stmts)
        return exprs, stmts

    def _reads(self, stmts: list[Stmt]) -> list[int]:
        out: list[int] = []
        for _, exprs in self._statements(stmts):
            for expr, where in exprs:
                for position, item in enumerate(expr.items):
                    if isinstance(item, Chain):
                        out.extend(self._chain_use(item, expr, position, where))
        return out

    # -- classifying a read ----------------------------------------------------------------

    def _chain_use(self, chain: Chain, expr: Expr, position: int, where: _Where) -> list[int]:
        source = self._source_index(chain)
        if source is not None:
            suffix = chain.suffixes[source]
            if suffix.name == "dig" and len(suffix.args) > 1:
                return [_tail_window(suffix.args[1:2])]
        index = self._full_index(chain)
        if index is None:
            return []
        if index < len(chain.suffixes):
            return [self._suffix_use(chain.suffixes, index)]
        return self._expr_use(expr, position, where)

    def _suffix_use(self, suffixes: list[Suffix], index: int) -> int:
        suffix = suffixes[index]
        if suffix.kind == "index" or suffix.name == "slice":
            return _tail_window(suffix.args)
        name = suffix.name
        if name in _NO_RECORD and _plain(suffix):
            return _NEUTRAL
        if name == "last" and suffix.block is None:
            if not suffix.args:
                return 1
            count = _int(suffix.args[0]) if len(suffix.args) == 1 else None
            return count if count is not None and count > 0 else _UNBOUNDED
        if name in {"fetch", "at", "dig"} and suffix.args and suffix.block is None:
            return _tail_window(suffix.args[:1])
        if name in {"reverse", "reverse_each"} and _plain(suffix) and index + 1 < len(suffixes):
            return _head_window(suffixes[index + 1])
        return _UNBOUNDED

    def _expr_use(self, expr: Expr, position: int, where: _Where) -> list[int]:
        """The whole history as an operand of ``expr``: what the expression does with it."""
        role, owner, slot = where
        if self._full_expr(expr):
            if role == "value" and isinstance(owner, Stmt):
                return [_NEUTRAL if self._defines_alias(owner) else _UNBOUNDED]
            if role in {"inner", "cond"}:
                return [_NEUTRAL]  # a group is classified as a chain of its own
            if role == "arg" and isinstance(owner, Chain) and owner.head is not None:
                return self._passed_to(owner.head.text, slot)
            return [_UNBOUNDED]
        items = expr.items
        before = items[position - 1] if position else None
        after = items[position + 1] if position + 1 < len(items) else None
        if isinstance(before, Token) and before.text in {"!", "not"}:
            return [_NEUTRAL]
        if isinstance(after, Token) and after.text in {"&&", "and", "?"}:
            return [_NEUTRAL]
        for op, other in ((after, 2), (before, -2)):
            if isinstance(op, Token) and op.text in {"==", "!="}:
                j = position + other
                if 0 <= j < len(items) and _empty_literal(items[j]):
                    return [_NEUTRAL]
        if role == "cond" and all(
            not isinstance(item, Token) or item.text in _TESTS | {"!", "not"} for item in items
        ):
            return [_NEUTRAL]
        if (
            position == 1
            and isinstance(before, Chain)
            and before.head is not None
            and before.head.text in self.defs
            and before.head_args is None
            and not before.suffixes
        ):
            return self._passed_to(before.head.text, 0)  # ``format_history history``
        return [_UNBOUNDED]

    def _defines_alias(self, stmt: Stmt) -> bool:
        if stmt.kind != "assign" or len(stmt.targets) != 1 or stmt.op not in {"=", "||="}:
            return False
        items = stmt.targets[0].items
        chain = items[0] if len(items) == 1 else None
        return (
            isinstance(chain, Chain)
            and chain.head is not None
            and not chain.suffixes
            and chain.head.text in self.names
        )

    def _passed_to(self, name: str, slot: int) -> list[int]:
        """The history handed to a ``def``: its parameter's uses in the body are the reads."""
        definitions = self.defs.get(name, [])
        if not definitions:
            return [_UNBOUNDED]
        out: list[int] = []
        for definition in definitions:
            if slot >= len(definition.names):
                return [_UNBOUNDED]
            param = definition.names[slot]
            key = (id(definition), param)
            if key in self.visited:
                continue
            self.visited.add(key)
            body = [stmt for _, branch in definition.branches for stmt in branch]
            saved = self.names
            self.names = frozenset({param})
            try:
                if any(self._assigns(s, param) for s, _ in self._statements(body)):
                    return [_UNBOUNDED]
                out.extend(self._reads(body))
            finally:
                self.names = saved
        return out

    @staticmethod
    def _assigns(stmt: Stmt, name: str) -> bool:
        if stmt.kind == "for":
            return name in stmt.names
        if stmt.kind != "assign":
            return False
        for target in stmt.targets:
            chain = target.items[0] if len(target.items) == 1 else None
            if (
                isinstance(chain, Chain)
                and chain.head is not None
                and not chain.suffixes
                and chain.head.text == name
            ):
                return True
        return False

"""Ruby analyser: data flow over the token-level structure of ``_ruby_parser``.

The same kinds as the Python analyser (see ``_kinds``) flow through
assignments, ``||`` defaults, block parameters of blocks over history and
method chains; an op is recorded only where its receiver is history-derived,
so ``.select`` on an unrelated array is not evidence (the baseline's weakness).
``def`` bodies are analysed with parameter kinds taken from their call sites
and the whole program is re-walked until those stop growing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from ._fingerprint import Placeholders, digest, normalize_ruby
from ._kinds import COLLECTIONS, DERIVED, FIELDS, GROUPS, HIST, NONE, REC, VAL, element, join
from ._model import HISTORY_KEY, OUTCOME_FIELD, OUTCOME_KEYS, RECORD_TOP_FIELDS, Finding
from ._ruby_depth import static_depth
from ._ruby_lexer import RubySyntaxError, Token
from ._ruby_parser import Block, Chain, Expr, Item, Stmt, Suffix, parse
from ._sketch import program_sketch

__all__ = ["RubySyntaxError", "analyze_ruby"]

_MAX_PASSES: Final = 6
_CONTEXT_NAMES: Final = frozenset({"context", "ctx", "@context", "agent_context"})
_SOURCE_METHODS: Final = frozenset({"fetch", "dig", "[]"})
_KEY_METHODS: Final = frozenset({"fetch", "dig", "[]"})
"""Methods reading a hash by key (``r.fetch(:k, nil)``, ``r.dig(:k, :j)``), like ``r[:k]``."""
_MULTI_KEY_METHODS: Final = frozenset({"values_at", "slice", "fetch_values"})
"""Methods reading several keys of a hash at once (``r.values_at(:speaker, :args)``)."""

_FILTER: Final = frozenset(
    {
        "select", "filter", "reject", "find_all", "take_while", "drop_while", "uniq", "compact",
        "delete_if", "keep_if", "select!", "reject!", "filter!", "uniq!", "compact!",
    }
)  # fmt: skip
_MAP: Final = frozenset({"map", "collect", "flat_map", "collect_concat", "map!", "collect!"})
_SORT_SAME: Final = frozenset({"sort", "sort_by", "sort!", "sort_by!"})
_SORT_ITEM: Final = frozenset({"min_by", "max_by", "min", "max", "minmax", "minmax_by"})
_GROUP: Final = frozenset({"group_by", "chunk", "chunk_while", "slice_when", "tally", "tally_by"})
_COUNT: Final = frozenset({"count", "length", "size"})
_FIND_ITEM: Final = frozenset({"find", "detect"})
_EACH: Final = frozenset({"each", "each_with_index", "reverse_each", "each_entry", "each_index"})
_SAME: Final = frozenset(
    {
        "to_a", "dup", "clone", "lazy", "force", "reverse", "flatten", "freeze", "itself",
        "entries", "to_enum", "each_entry", "rotate", "shuffle", "cycle", "then",
    }
)  # fmt: skip
_APPEND: Final = frozenset({"push", "append", "unshift", "prepend", "concat", "<<", "insert"})
_GREP_ON_TEXT: Final = frozenset(
    {"include?", "match?", "match", "scan", "start_with?", "end_with?", "index", "=~", "grep"}
)
_WITH_BLOCK_FOLLOWERS: Final = frozenset({"with_index", "each_with_index", "with_object"})
# Iterators whose second block parameter is an index or a memo, not a pair's value.
_POSITIONAL_ITERATORS: Final = frozenset(
    {"each_with_index", "each_with_object", "inject", "reduce", "with_index", "with_object"}
)

Path = tuple[tuple[int, str], ...]


@dataclass
class _Loop:
    """Evidence inside a block (or ``for``) that iterates history records."""

    path: Path
    events_at_start: int
    classify: bool
    appends: list[tuple[str, Path, bool]] = field(default_factory=list)


def _lit_text(chain: Chain) -> str | None:
    """The text of a symbol/string literal chain (``:conversation_history`` -> name)."""
    if chain.head_kind != "lit" or chain.head is None or chain.suffixes:
        return None
    tok = chain.head
    if tok.kind == "symbol":
        return tok.text[1:]
    if tok.kind == "str" and not tok.parts:
        return tok.text
    return None


def _key_text(expr: Expr) -> str | None:
    """The key of ``[:k]``/``["k"]``/``fetch(:k)``: a symbol or plain string literal."""
    chain = _single_chain(expr)
    return _lit_text(chain) if chain is not None else None


def _single_chain(expr: Expr | None) -> Chain | None:
    if expr is not None and len(expr.items) == 1 and isinstance(expr.items[0], Chain):
        return expr.items[0]
    return None


def _is_int_literal(expr: Expr) -> bool:
    items = expr.items
    if items and isinstance(items[0], Token) and items[0].text == "-":
        items = items[1:]
    return (
        len(items) == 1
        and isinstance(items[0], Chain)
        and items[0].head is not None
        and items[0].head.kind == "num"
        and not items[0].suffixes
    )


def _starts_negative(expr: Expr) -> bool:
    first = expr.items[0] if expr.items else None
    return isinstance(first, Token) and first.kind == "op" and first.text == "-"


def _starts_zero(expr: Expr) -> bool:
    first = expr.items[0] if expr.items else None
    return (
        isinstance(first, Chain)
        and first.head is not None
        and first.head.kind == "num"
        and first.head.text == "0"
    )


def _range_parts(expr: Expr) -> tuple[Expr, Expr] | None:
    """``a..b`` / ``a...b`` inside one index argument, split at the range operator."""
    for idx, item in enumerate(expr.items):
        if isinstance(item, Token) and item.kind == "op" and item.text in {"..", "..."}:
            return Expr(expr.items[:idx], expr.start, expr.end), Expr(
                expr.items[idx + 1 :], expr.start, expr.end
            )
    return None


def _window(args: list[Expr]) -> tuple[bool, bool]:
    """(is a slice, is a head/tail peek) for ``[args]`` or ``.slice(args)``."""
    if len(args) == 2:
        start = args[0]
        return True, _starts_zero(start) or _starts_negative(start)
    if len(args) == 1:
        parts = _range_parts(args[0])
        if parts is None:
            return False, False
        low, high = parts
        head = (
            (not low.items or _starts_zero(low)) and bool(high.items) and not _starts_negative(high)
        )
        tail = _starts_negative(low) and (not high.items or _is_minus_one(high))
        return True, head or tail
    return False, False


def _is_minus_one(expr: Expr) -> bool:
    items = expr.items
    return (
        len(items) == 2
        and isinstance(items[0], Token)
        and items[0].text == "-"
        and isinstance(items[1], Chain)
        and items[1].head is not None
        and items[1].head.text == "1"
    )


def _has_text(chain_or_expr: Expr | Chain | None) -> bool:
    """Whether a value is visibly a string (a string literal or interpolation somewhere)."""
    if chain_or_expr is None:
        return False
    items = chain_or_expr.items if isinstance(chain_or_expr, Expr) else [chain_or_expr]
    for item in items:
        if isinstance(item, Chain):
            if item.head is not None and item.head.kind == "str":
                return True
            if item.head_kind == "group" and any(_has_text(s.expr) for s in item.inner):
                return True
    return False


def _walk_stmts(stmts: Iterable[Stmt]) -> Iterator[Stmt]:
    for stmt in stmts:
        yield stmt
        yield from _walk_stmts(_nested(stmt))


def _nested(stmt: Stmt) -> list[Stmt]:
    """Statements directly nested in ``stmt`` (bodies, blocks, groups), in source order."""
    out: list[Stmt] = []
    exprs = [*stmt.targets, stmt.subject, stmt.expr]
    for cond, body in stmt.branches:
        exprs.append(cond)
        out.extend(body)
    for expr in exprs:
        if expr is not None:
            for item in expr.items:
                if isinstance(item, Chain):
                    out.extend(_chain_stmts(item))
    return out


def _chain_stmts(chain: Chain) -> list[Stmt]:
    out: list[Stmt] = []
    if chain.ctrl is not None:
        out.append(chain.ctrl)
    if chain.head_kind == "group":
        out.extend(chain.inner)
    for expr in [*(chain.head_args or []), *chain.elements]:
        for item in expr.items:
            if isinstance(item, Chain):
                out.extend(_chain_stmts(item))
    blocks = [chain.head_block, *(s.block for s in chain.suffixes)]
    for suffix in chain.suffixes:
        for expr in suffix.args:
            for item in expr.items:
                if isinstance(item, Chain):
                    out.extend(_chain_stmts(item))
    for block in blocks:
        if block is not None:
            out.extend(block.body)
    return out


class RubyAnalyzer:
    """One analysis of one parsed program; ``run()`` once."""

    def __init__(self, tokens: list[Token], program: list[Stmt], history_names: Iterable[str]):
        self.tokens = tokens
        self.program = program
        self.custom_names = frozenset(n for n in history_names if n != HISTORY_KEY)
        self.history_names = self.custom_names | {HISTORY_KEY}
        self.defs: dict[str, list[Stmt]] = {}
        for stmt in _walk_stmts(program):
            if stmt.kind == "def":
                self.defs.setdefault(stmt.name, []).append(stmt)
        self.binding_tokens = _binding_token_indices(tokens)
        self.injected = self._injected_names()
        self.param_kinds: dict[int, dict[str, int]] = {}
        self.return_kinds: dict[int, int] = {}
        self.str_names: set[str] = set()
        self._reset_pass()

    # -- bookkeeping ---------------------------------------------------------------

    def _reset_pass(self) -> None:
        self.env: dict[str, int] = {}
        self.events: list[str] = []
        self.accessed = False
        self.dependent: set[int] = set()
        self.stmt_stack: list[Stmt] = []
        self.loops: list[_Loop] = []
        self.path: Path = ()
        self.def_stack: list[int] = []
        self.source_spans: list[tuple[int, int]] = []
        # receiver kind of the last ``.partition``: ``a, b = h.partition {}`` binds both to it
        self._partition_receiver = NONE
        # record fields read, and what holds a record's outcome_summary (chains, names)
        self.fields: set[str] = set()
        self.summary_chains: set[int] = set()
        self.summary_names: set[str] = set()

    def _snapshot(self) -> tuple[object, ...]:
        return (
            {k: dict(v) for k, v in self.param_kinds.items()},
            dict(self.return_kinds),
            len(self.str_names),
        )

    def _op(self, name: str) -> None:
        self.events.append(name)
        self._mark()

    def _mark(self) -> None:
        self.accessed = True
        for stmt in self.stmt_stack:
            self.dependent.add(id(stmt))

    def _injected_names(self) -> frozenset[str]:
        """History names the host injects: read before the program assigns them, if ever."""
        seen: dict[str, bool] = {}
        toks = self.tokens
        for i, tok in enumerate(toks):
            if tok.kind != "ident" or tok.text not in self.history_names or tok.text in seen:
                continue
            prev = toks[i - 1] if i else None
            if prev is not None and prev.kind == "op" and prev.text in {".", "&.", "::"}:
                continue
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            assigned = nxt is not None and nxt.kind == "op" and nxt.text in {"=", "||="}
            seen[tok.text] = not assigned and i not in self.binding_tokens
        return frozenset(name for name, read in seen.items() if read)

    # -- driver -------------------------------------------------------------------------

    def run(self) -> Finding:
        for _ in range(_MAX_PASSES):
            before = self._snapshot()
            self._reset_pass()
            self._body(self.program)
            if self._snapshot() == before:
                break
        ops = frozenset(self.events)
        if not self.accessed:
            return Finding(False, ops, None)
        return Finding(
            True,
            ops,
            digest(self._shape()),
            program_sketch(self._shape(True), ops),
            fields_read=frozenset(self.fields),
            static_depth=static_depth(
                self.program, self._source_at, self.injected, self.defs, self.binding_names()
            ),
        )

    # -- statements -------------------------------------------------------------------

    def _body(self, stmts: list[Stmt]) -> int:
        saved = self.path
        value = NONE
        for stmt in stmts:
            value = self._stmt(stmt)
            # ``next if cond`` guards the rest of a loop body: it runs in the guard's else
            if self.loops and _is_next_guard(stmt):
                self.path = (*self.path, (id(stmt), "else"))
        self.path = saved
        return value

    def _stmt(self, stmt: Stmt) -> int:
        self.stmt_stack.append(stmt)
        try:
            return self._stmt_inner(stmt)
        finally:
            self.stmt_stack.pop()

    def _stmt_inner(self, stmt: Stmt) -> int:
        kind = stmt.kind
        if kind == "expr":
            return self._expr(stmt.expr)
        if kind == "assign":
            return self._assign(stmt)
        if kind == "if":
            value = NONE
            for index, (cond, body) in enumerate(stmt.branches):
                self._expr(cond)
                value = join(value, self._branch(stmt, str(index), body))
            return value
        if kind == "case":
            subject = self._expr(stmt.subject)
            value = NONE
            for index, (cond, body) in enumerate(stmt.branches):
                self._expr(cond)
                # ``case rec[:text] when /error/`` matches a field against a pattern
                if cond is not None and subject in FIELDS and _has_regex(cond):
                    self._op("grep")
                value = join(value, self._branch(stmt, str(index), body))
            return value
        if kind == "while":
            for cond, body in stmt.branches:
                self._expr(cond)
                self._branch(stmt, "0", body)
                self._branch(stmt, "0", body)
            return NONE
        if kind == "for":
            iter_kind = self._expr(stmt.subject)
            for name in stmt.names:
                self.env[name] = element(iter_kind) if iter_kind in COLLECTIONS else iter_kind
            body = stmt.branches[0][1] if stmt.branches else []
            if iter_kind in COLLECTIONS:
                self._loop_body(body, classify=True)
            else:
                self._body(body)
            return iter_kind
        if kind == "def":
            self._definition(stmt)
            return NONE
        if kind in {"begin", "class"}:
            value = NONE
            for cond, body in stmt.branches:
                self._expr(cond)
                value = join(value, self._body(body))
            return value
        if kind in {"return", "next", "break"}:
            value = self._expr(stmt.expr)
            if kind == "return" and self.def_stack and value:
                key = self.def_stack[-1]
                self.return_kinds[key] = join(self.return_kinds.get(key, NONE), value)
            # leaving a loop over records on a condition is a find
            if (
                kind in {"return", "break"}
                and self.loops
                and len(self.path) > len(self.loops[-1].path)
            ):
                self._op("find")
            return value
        return NONE

    def _branch(self, owner: Stmt, label: str, body: list[Stmt]) -> int:
        saved = self.path
        self.path = (*self.path, (id(owner), label))
        try:
            return self._body(body)
        finally:
            self.path = saved

    def _definition(self, stmt: Stmt) -> None:
        saved_env, saved_loops, saved_path = self.env, self.loops, self.path
        # A ``def`` does not see the enclosing locals: only its parameters.
        self.env = dict(self.param_kinds.get(id(stmt), {}))
        for name in stmt.names:
            self.env.setdefault(name, NONE)
        self.loops, self.path = [], ()
        self.def_stack.append(id(stmt))
        try:
            value = NONE
            for cond, body in stmt.branches:
                self._expr(cond)
                value = self._body(body)
            if value:
                key = id(stmt)
                self.return_kinds[key] = join(self.return_kinds.get(key, NONE), value)
        finally:
            self.def_stack.pop()
            self.env, self.loops, self.path = saved_env, saved_loops, saved_path

    def _assign(self, stmt: Stmt) -> int:
        value_expr = stmt.expr
        value = self._expr(value_expr)
        op = stmt.op
        targets = stmt.targets
        if len(targets) > 1:
            # ``a, b = h.partition {...}`` gives two record collections
            chain = _single_chain(value_expr)
            pair = chain is not None and chain.suffixes and chain.suffixes[-1].name == "partition"
            part_kind = (
                self._partition_receiver
                if pair
                else (element(value) if value in COLLECTIONS else value)
            )
            for target in targets:
                self._assign_target(target, part_kind, "=", value_expr)
            return value
        if targets:
            self._assign_target(targets[0], value, op, value_expr)
        return value

    def _assign_target(self, target: Expr, value: int, op: str, value_expr: Expr | None) -> None:
        chain = _single_chain(target)
        if chain is None:
            return
        if chain.head_kind == "name" and chain.head is not None and not chain.suffixes:
            if chain.head_args is not None:
                return
            self._assign_name(chain.head.text, value, op, value_expr)
            return
        if chain.suffixes and chain.suffixes[-1].kind == "index":
            self._keyed_store(chain, value, op, value_expr)
            return
        # ``obj.attr = value``: remember on the receiver, weakly
        self._head(chain)
        if value and chain.head is not None:
            name = chain.head.text
            self.env[name] = join(self.env.get(name, NONE), VAL)

    def _assign_name(self, name: str, value: int, op: str, value_expr: Expr | None) -> None:
        if self._is_summary(value_expr):
            self.summary_names.add(name)
        elif op == "=":
            self.summary_names.discard(name)
        single = _single_chain(value_expr)
        if op == "=":
            if single is not None and single.head is not None and single.head.kind == "str":
                self.str_names.add(name)
            self.env[name] = value
            return
        if op in {"||=", "&&="}:
            self.env[name] = join(self.env.get(name, NONE), value)
            return
        loop = self.loops[-1] if self.loops else None
        if loop is not None and op == "+=":
            if single is not None and single.head_kind == "array" and value:
                first = single.elements[0] if single.elements else None
                self._append(name, self._elements_kind(single), _single_chain(first))
                return
            if single is not None and single.head is not None and single.head.text == "1":
                self._op("count")
                if len(self.path) > len(loop.path):
                    self._op("filter")
                return
            if value and (name in self.str_names or _has_text(value_expr)):
                self._summarized(loop)
                self.str_names.add(name)
        if loop is not None and op == "<<=" and value and name in self.str_names:
            self._summarized(loop)
        if value:
            current = self.env.get(name, NONE)
            self.env[name] = join(current, value if value in COLLECTIONS else VAL)

    def _summarized(self, loop: _Loop) -> None:
        """Text accumulated per record; under a condition only some records make it in."""
        self._op("summarize")
        if len(self.path) > len(loop.path):
            self._op("filter")

    def _keyed_store(self, chain: Chain, value: int, op: str, value_expr: Expr | None) -> None:
        """``acc[rec[:k]] += 1`` / ``acc[k] ||= []``: per-key accumulation is group."""
        index = chain.suffixes[-1]
        key_kind = NONE
        for arg in index.args:
            key_kind = join(key_kind, self._expr(arg))
        receiver = Chain(chain.head_kind, chain.head, suffixes=chain.suffixes[:-1])
        receiver_kind = self._chain(receiver)
        if key_kind in FIELDS and self.loops and receiver_kind not in COLLECTIONS - {DERIVED}:
            container = chain.head.text if chain.head is not None else ""
            accumulates = op != "=" or _mentions_name(value_expr, container)
            self._op("group" if accumulates else "map")
        if (value or key_kind) and chain.head is not None and not chain.suffixes[:-1]:
            name = chain.head.text
            self.env[name] = join(self.env.get(name, NONE), DERIVED)

    def _append(self, container: str, kind: int, item: Chain | None) -> None:
        """``out << x`` (and push/append/+= [x]) of a history-derived value."""
        if not kind:
            return
        self.env[container] = join(self.env.get(container, NONE), HIST if kind == REC else DERIVED)
        loop = self.loops[-1] if self.loops else None
        if loop is None:
            self._mark()
            return
        if container in self.str_names:
            self._summarized(loop)
            return
        identity = (
            kind == REC
            and item is not None
            and item.head_kind == "name"
            and not item.suffixes
            and item.head_args is None
        )
        loop.appends.append((container, self.path, identity))
        self._mark()

    def _loop_body(
        self, body: list[Stmt], *, classify: bool, params: dict[str, int] | None = None
    ) -> tuple[int, _Loop]:
        loop = _Loop(self.path, len(self.events), classify)
        self.loops.append(loop)
        saved = {name: self.env.get(name) for name in (params or {})}
        self.env.update(params or {})
        try:
            value = self._body(body)
        finally:
            self.loops.pop()
            for name, old in saved.items():
                if old is None:
                    self.env.pop(name, None)
                else:
                    self.env[name] = old
        if classify:
            self._classify_loop(loop)
        return value, loop

    def _classify_loop(self, loop: _Loop) -> None:
        """Appends seen in a loop body become filter/map/partition; no op at all is iterate."""
        base = len(loop.path)
        partition = any(
            a_name != b_name and _diverge(a_path, b_path, base)
            for a_name, a_path, _ in loop.appends
            for b_name, b_path, _ in loop.appends
        )
        if partition:
            self._op("partition")
        unconditional = {name for name, path, _ in loop.appends if len(path) == base}
        for name, path, identity in loop.appends:
            if not identity:
                self._op("map")
            if not partition and len(path) > base and name not in unconditional:
                self._op("filter")
        if len(self.events) == loop.events_at_start:
            self._op("iterate")

    # -- expressions ----------------------------------------------------------------------

    def _expr(self, expr: Expr | None) -> int:
        if expr is None or not expr.items:
            return NONE
        items = expr.items
        kinds = [self._chain(item) if isinstance(item, Chain) else NONE for item in items]
        for i, item in enumerate(items):
            if isinstance(item, Chain) and self._is_command_call(item, items, i):
                args = _command_args(items, i + 1)
                arg_kinds = [self._expr(a) for a in args]
                name = item.head.text if item.head is not None else ""
                kinds[i] = self._user_call(name, args, arg_kinds)
        result = self._combine(items, kinds)
        self._source_default(items, kinds)
        if result:
            self._mark()
        return result

    def _is_command_call(self, chain: Chain, items: list[Item], i: int) -> bool:
        """``format_history history``: a known ``def`` called without parentheses."""
        return (
            chain.head_kind == "name"
            and chain.head is not None
            and chain.head.text in self.defs
            and chain.head_args is None
            and not chain.suffixes
            and i + 1 < len(items)
            and isinstance(items[i + 1], Chain)
        )

    def _combine(self, items: list[Item], kinds: list[int]) -> int:
        """Kind of a flat expression; also spots ``<<`` appends and ``=~`` greps."""
        for idx, item in enumerate(items):
            if not isinstance(item, Token) or item.kind != "op":
                continue
            left = items[idx - 1] if idx else None
            left_kind = kinds[idx - 1] if idx else NONE
            right_kind = kinds[idx + 1] if idx + 1 < len(kinds) else NONE
            right = items[idx + 1] if idx + 1 < len(items) else None
            if item.text in {"=~", "!~"} and (left_kind in FIELDS or right_kind in FIELDS):
                self._op("grep")
            elif item.text == "<<" and isinstance(left, Chain):
                self._shovel(
                    left, left_kind, right_kind, right if isinstance(right, Chain) else None
                )
        kinds_only = [k for item, k in zip(items, kinds, strict=True) if isinstance(item, Chain)]
        ops = {item.text for item in items if isinstance(item, Token) and item.kind in {"op", "kw"}}
        result = NONE
        for k in kinds_only:
            result = join(result, k)
        if ops - {"||", "&&", "or", "and", "?", ":", "!", "not", "+", "-", "|", "&", "*", "**"}:
            return VAL if result else NONE
        if ops & {"+", "-", "*", "!", "not"} and result not in COLLECTIONS:
            return VAL if result else NONE
        if (
            len(kinds_only) > 1
            and ops & {"+", "-", "|", "&"}
            and not all(k in COLLECTIONS for k in kinds_only)
        ):
            return VAL if result else NONE
        return result

    def _shovel(self, left: Chain, left_kind: int, right_kind: int, right: Chain | None) -> None:
        """``lines << x``, ``acc[k] << rec``, ``(acc[k] ||= []) << rec``, ``text << "..."``."""
        if left.head_kind == "name" and left.head is not None and not left.suffixes:
            name = left.head.text
            if name in self.str_names:
                if right_kind and self.loops:
                    self._summarized(self.loops[-1])
                return
            self._append(name, right_kind, right)
            return
        if left.suffixes and left.suffixes[-1].kind == "index" and self.loops:
            key_kind = NONE
            for arg in left.suffixes[-1].args:
                key_kind = join(key_kind, self._expr(arg))
            if key_kind in FIELDS:
                self._op("group")
            if left.head is not None and (right_kind or key_kind):
                self.env[left.head.text] = join(self.env.get(left.head.text, NONE), DERIVED)

    def _source_default(self, items: list[Item], kinds: list[int]) -> None:
        """Record ``context[:conversation_history] || []`` as one history placeholder span."""
        if len(items) == 3 and kinds[0] == HIST and isinstance(items[1], Token):
            first, third = items[0], items[2]
            if (
                items[1].text == "||"
                and isinstance(first, Chain)
                and isinstance(third, Chain)
                and third.head_kind in {"array", "hash"}
                and not third.elements
                and any(s == (first.start, first.end) for s in self.source_spans)
            ):
                self.source_spans.append((first.start, third.end))

    def _elements_kind(self, chain: Chain) -> int:
        kind = NONE
        for element_expr in chain.elements:
            kind = join(kind, self._expr(element_expr))
        return kind

    # -- chains ---------------------------------------------------------------------------

    def _head(self, chain: Chain) -> int:
        kind = chain.head_kind
        head = chain.head
        if kind == "name" and head is not None:
            name = head.text
            if chain.head_args is not None or chain.head_block is not None:
                arg_kinds = [self._expr(a) for a in chain.head_args or []]
                if name in self.defs:
                    return self._user_call(name, chain.head_args or [], arg_kinds)
                if chain.head_block is not None:
                    self._block(chain.head_block, [NONE, NONE], loop=False)
                if name == "Array" and arg_kinds:
                    return arg_kinds[0]
                return VAL if any(arg_kinds) else NONE
            if name in self.env:
                return self.env[name]
            if name in self.injected:
                self._mark_source(chain.start, chain.start + 1, chain)
                return HIST
            if name in self.defs:
                return self._user_call(name, [], [])
            return NONE
        if kind == "const":
            arg_kinds = [self._expr(a) for a in chain.head_args or []]
            return VAL if any(arg_kinds) else NONE
        if kind == "lit":
            value = NONE
            for stmt in chain.inner:
                value = join(value, self._stmt(stmt))
            return VAL if value else NONE
        if kind == "group":
            value = NONE
            for stmt in chain.inner:
                value = self._stmt(stmt)
            return value
        if kind == "array":
            value = self._elements_kind(chain)
            return HIST if value == REC else (VAL if value else NONE)
        if kind == "hash":
            return VAL if self._elements_kind(chain) else NONE
        if kind == "lambda" and chain.head_block is not None:
            self._block(chain.head_block, [], loop=False)
            return NONE
        if kind == "ctrl" and chain.ctrl is not None:
            return self._stmt(chain.ctrl)
        return NONE

    def _source_at(self, chain: Chain, index: int) -> bool:
        """Whether suffix ``index`` reads the history from the receiver before it."""
        suffix = chain.suffixes[index]
        receiver_text = chain.head.text if chain.head is not None and index == 0 else ""
        if suffix.kind == "index" or suffix.name in _SOURCE_METHODS:
            if not suffix.args:
                return False
            first = _single_chain(suffix.args[0])
            key = _lit_text(first) if first is not None else None
        elif suffix.kind == "call" and not suffix.args:
            key = suffix.name
        else:
            return False
        if key == HISTORY_KEY:
            return True
        return key in self.custom_names and receiver_text in _CONTEXT_NAMES

    def _mark_source(self, start: int, end: int, chain: Chain) -> None:
        if 0 <= start < len(self.tokens) and self.tokens[start] is chain.head:
            self.source_spans.append((start, end))
        self._mark()

    def _chain(self, chain: Chain) -> int:
        start_index = 0
        kind = NONE
        for index in range(len(chain.suffixes) - 1, -1, -1):
            if self._source_at(chain, index):
                start_index = index + 1
                kind = HIST
                self._mark_source(chain.start, chain.suffixes[index].end, chain)
                suffix = chain.suffixes[index]
                if suffix.name == "dig" and len(suffix.args) > 1:
                    kind = self._dig(kind, suffix.args[1:])
                if suffix.name == "fetch" and suffix.block is not None:
                    self._block(suffix.block, [], loop=False)
                break
        if start_index == 0:
            kind = self._head(chain)
        summary = start_index == 0 and self._head_is_summary(chain)
        suffixes = chain.suffixes
        i = start_index
        while i < len(suffixes):
            suffix = suffixes[i]
            following = suffixes[i + 1] if i + 1 < len(suffixes) else None
            if (
                kind in COLLECTIONS
                and suffix.kind == "call"
                and suffix.block is None
                and not _block_pass(suffix)
                and following is not None
                and following.name in _WITH_BLOCK_FOLLOWERS
                and following.block is not None
            ):
                # ``h.map.with_index { |r, i| }``: the block belongs to ``map``
                kind = self._collection_call(suffix.name, kind, suffix, following.block)
                summary = False
                i += 2
                continue
            summary = self._read_keys(kind, summary, suffix)
            kind = self._suffix(kind, suffix, chain)
            i += 1
        if summary:
            self.summary_chains.add(id(chain))
        return kind

    # -- record fields ----------------------------------------------------------------------

    def _read_keys(self, kind: int, summary: bool, suffix: Suffix) -> bool:
        """Record the field keys ``suffix`` reads; whether its value is an ``outcome_summary``.

        ``kind`` is the receiver's (``REC``: one record); ``summary`` says the receiver
        is a record's ``outcome_summary`` (``rec[:outcome_summary][:ok]``, an alias of it).
        """
        if suffix.kind == "call" and suffix.name in _MULTI_KEY_METHODS and kind == REC:
            self.fields.update(k for a in suffix.args if (k := _key_text(a)) in RECORD_TOP_FIELDS)
            return False
        if suffix.kind == "index" and len(suffix.args) == 1:
            keys = [_key_text(suffix.args[0])]
        elif suffix.kind == "call" and suffix.name == "dig":
            keys = [_key_text(a) for a in suffix.args]
        elif suffix.kind == "call" and suffix.name in _KEY_METHODS and suffix.args:
            keys = [_key_text(suffix.args[0])]  # ``fetch(:k, default)``
        else:
            return False
        if kind == REC or summary:
            return self._read_path(keys, from_summary=kind != REC)
        return False

    def _read_path(self, keys: list[str | None], *, from_summary: bool = False) -> bool:
        """Keys read one inside the other from a record (or its ``outcome_summary``).

        Returns whether the path ends on ``outcome_summary`` itself.
        """
        at_record, summary = not from_summary, from_summary
        for key in keys:
            if at_record and key in RECORD_TOP_FIELDS:
                self.fields.add(key)
                summary = key == OUTCOME_FIELD
            elif summary and key in OUTCOME_KEYS:
                self.fields.add(f"{OUTCOME_FIELD}.{key}")
                summary = False
            else:
                return False
            at_record = False
        return summary and bool(keys)

    def _head_is_summary(self, chain: Chain) -> bool:
        """``s`` holding an ``outcome_summary``, or ``(rec[:outcome_summary] || {})``."""
        head = chain.head
        if chain.head_kind == "name" and head is not None and chain.head_args is None:
            return head.text in self.summary_names
        if chain.head_kind == "group" and chain.inner and chain.inner[-1].kind == "expr":
            return self._is_summary(chain.inner[-1].expr)
        return False

    def _is_summary(self, expr: Expr | None) -> bool:
        """An expression that is a record's ``outcome_summary`` (``|| {}`` defaults allowed)."""
        if expr is None or not expr.items:
            return False
        first = expr.items[0]
        if not isinstance(first, Chain) or id(first) not in self.summary_chains:
            return False
        rest = expr.items[1:]
        if not rest:
            return True
        default = rest[1] if len(rest) == 2 else None
        return (
            isinstance(rest[0], Token)
            and rest[0].text == "||"
            and isinstance(default, Chain)
            and default.head_kind == "hash"
            and not default.elements
            and not default.suffixes
        )

    def binding_names(self) -> frozenset[str]:
        """Names bound as block or ``def`` parameters somewhere in the program."""
        return frozenset(self.tokens[i].text for i in self.binding_tokens)

    def _dig(self, kind: int, args: list[Expr]) -> int:
        for index, arg in enumerate(args):
            if kind == REC:  # ``h.dig(-1, :outcome_summary, :ok)``: the rest is a key path
                self._read_path([_key_text(a) for a in args[index:]])
            if kind in COLLECTIONS and _is_int_literal(arg):
                self._op("index")
                kind = element(kind)
            elif kind:
                kind = VAL
        return kind

    def _suffix(self, kind: int, suffix: Suffix, chain: Chain) -> int:
        if suffix.kind == "index":
            arg_kinds = [self._expr(a) for a in suffix.args]
            if kind in COLLECTIONS:
                is_slice, peek = _window(suffix.args)
                if is_slice:
                    self._op("slice")
                    if peek:
                        self._op("peek")
                    return kind
                if len(suffix.args) == 1 and not any(arg_kinds):
                    key = _single_chain(suffix.args[0])
                    if key is None or _lit_text(key) is None:
                        self._op("index")
                return element(kind)
            if kind:
                return VAL
            return VAL if any(arg_kinds) else NONE
        name = suffix.name
        if (
            name in _APPEND
            and chain.head is not None
            and chain.head_kind == "name"
            and len(chain.suffixes) == 1
            and suffix is chain.suffixes[0]
        ):
            arg_kinds = [self._expr(a) for a in suffix.args]
            item_kind = arg_kinds[-1] if arg_kinds else NONE
            if name == "concat":
                item_kind = element(item_kind) if item_kind in COLLECTIONS else item_kind
            last = _single_chain(suffix.args[-1]) if suffix.args else None
            self._shovel_name(chain.head.text, item_kind, last)
            return kind
        if kind in COLLECTIONS:
            return self._collection_call(name, kind, suffix, suffix.block)
        arg_kinds = [self._expr(a) for a in suffix.args]
        if suffix.block is not None:
            self._block(suffix.block, [VAL if kind else NONE] * 2, loop=False)
        if kind in FIELDS:
            if name in _GREP_ON_TEXT and (suffix.args or name == "match?") and kind == VAL:
                self._op("grep")
            return VAL
        if name == "each_with_object" and suffix.block is not None:
            return NONE
        return VAL if (kind or any(arg_kinds)) else NONE

    def _shovel_name(self, name: str, item_kind: int, item: Chain | None) -> None:
        if name in self.str_names:
            if item_kind and self.loops:
                self._summarized(self.loops[-1])
            return
        self._append(name, item_kind, item)

    def _block(self, block: Block, kinds: list[int], *, loop: bool, classify: bool = False) -> int:
        params = {}
        names = block.params or ["_1", "it"]
        for idx, name in enumerate(names):
            params[name] = kinds[idx] if idx < len(kinds) else NONE
            if not block.params and kinds:
                params[name] = kinds[0]
        if loop:
            value, _ = self._loop_body(block.body, classify=classify, params=params)
            return value
        saved = {name: self.env.get(name) for name in params}
        self.env.update(params)
        try:
            return self._body(block.body)
        finally:
            for name, old in saved.items():
                if old is None:
                    self.env.pop(name, None)
                else:
                    self.env[name] = old

    def _collection_call(self, name: str, kind: int, suffix: Suffix, block: Block | None) -> int:
        item = element(kind)
        arg_kinds = [self._expr(a) for a in suffix.args]
        has_block = block is not None or _block_pass(suffix)
        # ``grouped.each { |key, records| }`` iterates (key, group) pairs
        pairwise = (
            kind == GROUPS
            and block is not None
            and len(block.params) >= 2
            and name not in _POSITIONAL_ITERATORS
        )
        params = [VAL, HIST] if pairwise else [item, NONE]
        symbol = _block_pass_symbol(suffix)
        if kind == GROUPS and symbol in {"size", "length", "count"}:
            self._op("count")  # ``groups.map(&:size)`` counts records per group
        if kind == GROUPS and symbol in {"first", "last"}:
            self._op("index")

        def run_block(kinds: list[int], *, loop: bool = True, classify: bool = False) -> int:
            if block is None:
                return NONE
            return self._block(block, kinds, loop=loop, classify=classify)

        if name in _FILTER:
            self._op("filter")
            run_block(params)
            return kind
        if name == "filter_map":
            self._op("filter")
            self._op("map")
            run_block([item])
            return DERIVED
        if name in _MAP or name == "transform_values":
            run_block(params if name in _MAP else [item])
            identity = block is not None and _returns_param(block)
            if not identity:
                self._op("map")
            return kind if identity else DERIVED
        if name == "sum":
            if has_block:
                self._op("map")
                run_block([item])
            return VAL
        if name in {"first", "last", "take"}:
            if suffix.args or name == "take":
                self._op("slice")
                self._op("peek")
                return kind
            self._op("index")
            return item
        if name in {"drop", "values_at"}:
            self._op("slice")
            return kind
        if name == "slice":
            is_slice, peek = _window(suffix.args)
            if is_slice:
                self._op("slice")
                if peek:
                    self._op("peek")
                return kind
            self._op("index")
            return item
        if name in {"each_slice", "each_cons"}:
            self._op("slice")
            run_block([kind], classify=False)
            return GROUPS
        if name in _COUNT:
            self._op("count")
            if has_block:
                self._op("filter")
                run_block([item])
            return VAL
        if name in _FIND_ITEM:
            self._op("find")
            run_block([item])
            return item
        if name in {"find_index", "index", "rindex"} and (has_block or suffix.args):
            self._op("find")
            run_block([item])
            return VAL
        if name in {"any?", "none?", "one?", "include?", "member?"}:
            if has_block or suffix.args:
                self._op("find")
                run_block([item])
            return VAL
        if name in {"all?", "empty?", "nil?", "blank?", "present?"}:
            run_block([item])
            return VAL
        if name in _SORT_SAME:
            self._op("sort")
            run_block([item, item])
            return kind
        if name in _SORT_ITEM:
            self._op("sort")
            run_block([item, item])
            return item if not suffix.args else kind
        if name in _GROUP:
            self._op("group")
            run_block([item, item])
            return DERIVED if name.startswith("tally") else GROUPS
        if name == "partition":
            self._op("partition")
            run_block([item])
            self._partition_receiver = kind
            return GROUPS
        if name in {"grep", "grep_v"}:
            self._op("grep")
            run_block([element(kind)])
            return kind
        if name == "join":
            self._op("summarize")
            return VAL
        if name in {"inject", "reduce"}:
            init = suffix.args[0] if suffix.args else None
            init_chain = _single_chain(init)
            texty = (
                init_chain is not None
                and init_chain.head is not None
                and (init_chain.head.kind == "str")
            )
            value = run_block([VAL, item], classify=False)
            if texty or (block is not None and _block_builds_text(block)):
                self._op("summarize")
            return join(VAL, value) if value else VAL
        if name == "each_with_object":
            # the memo object is what the call returns, filled from records
            run_block([item, arg_kinds[0] if arg_kinds else NONE], classify=True)
            return DERIVED
        if name in _EACH or name == "each_value":
            if block is None:
                return kind
            run_block(params if name in {"each", "reverse_each"} else [item, NONE], classify=True)
            return kind
        if name == "values":
            return kind
        if name == "keys":
            return DERIVED
        if name in _SAME or name in {"with_index", "each_entry"}:
            if block is not None:
                run_block([item, NONE], classify=True)
            return kind
        if name in {"to_h", "to_json", "inspect", "to_s", "hash", "to_set"}:
            return VAL
        if name in {"zip", "product", "transpose"}:
            return DERIVED
        if name in {"sample", "at", "fetch", "dig"}:
            self._op("index")
            if name == "dig":
                return self._dig(item, suffix.args[1:])
            return item
        if name in {"pop", "shift"}:
            self._op("index")
            return item
        if block is not None:
            run_block([item, NONE], loop=False)
        return VAL

    def _user_call(self, name: str, args: list[Expr], kinds: list[int] | None = None) -> int:
        if kinds is None:
            kinds = [self._expr(a) for a in args]
        result = NONE
        for stmt in self.defs.get(name, []):
            params = self.param_kinds.setdefault(id(stmt), {})
            for param, kind in zip(stmt.names, kinds, strict=False):
                if kind:
                    params[param] = join(params.get(param, NONE), kind)
            result = join(result, self.return_kinds.get(id(stmt), NONE))
        if result:
            self._mark()
        return result

    # -- fingerprint -------------------------------------------------------------------------

    def _shape(self, fields: bool = False) -> list[str]:
        """The normalized history-dependent statements (``fields``: keep record field keys)."""
        aliases = self._pure_aliases()
        bound = self._bound_names()
        placeholders = Placeholders()
        # the widest history span starting at each token (``ctx[:h] || []`` over ``ctx[:h]``)
        spans: dict[int, int] = {}
        for s, e in self.source_spans:
            spans[s] = max(e, spans.get(s, e))
        lines: list[str] = []
        self._emit(self.program, lines, aliases, bound, placeholders, spans, fields)
        return lines

    def _bound_names(self) -> set[str]:
        names: set[str] = set()
        for stmt in _walk_stmts(self.program):
            if stmt.kind == "assign":
                for target in stmt.targets:
                    chain = _single_chain(target)
                    if chain is not None and chain.head is not None:
                        names.add(chain.head.text)
            elif stmt.kind in {"def", "for"}:
                names.update(stmt.names)
                if stmt.kind == "def":
                    names.add(stmt.name)
        names.update(self.tokens[i].text for i in self.binding_tokens)
        return names | {"_1", "it"}

    def _pure_aliases(self) -> set[str]:
        """Names only ever assigned the history itself normalize to the history placeholder."""
        ok: dict[str, bool] = {}
        for stmt in _walk_stmts(self.program):
            if stmt.kind == "assign" and len(stmt.targets) == 1 and stmt.op in {"=", "||="}:
                chain = _single_chain(stmt.targets[0])
                if chain is None or chain.head is None or chain.suffixes:
                    continue
                name = chain.head.text
                ok[name] = ok.get(name, True) and self._is_source_expr(stmt.expr)
            elif stmt.kind == "assign":
                for target in stmt.targets:
                    chain = _single_chain(target)
                    if chain is not None and chain.head is not None:
                        ok[chain.head.text] = False
        return {name for name, is_alias in ok.items() if is_alias} | set(self.injected)

    def _is_source_expr(self, expr: Expr | None) -> bool:
        if expr is None or not expr.items:
            return False
        first = expr.items[0]
        last = expr.items[-1]
        if not isinstance(first, Chain) or not isinstance(last, Chain):
            return False
        return (first.start, last.end) in set(self.source_spans)

    def _emit(
        self,
        stmts: list[Stmt],
        out: list[str],
        aliases: set[str],
        bound: set[str],
        placeholders: Placeholders,
        spans: dict[int, int],
        fields: bool,
    ) -> None:
        for stmt in stmts:
            if id(stmt) not in self.dependent:
                continue
            if stmt.kind == "assign" and len(stmt.targets) == 1:
                chain = _single_chain(stmt.targets[0])
                if (
                    chain is not None
                    and chain.head is not None
                    and not chain.suffixes
                    and chain.head.text in aliases
                    and self._is_source_expr(stmt.expr)
                ):
                    continue
            excluded = self._excluded_spans(stmt)
            out.append(
                normalize_ruby(
                    self.tokens,
                    stmt.start,
                    stmt.end,
                    excluded,
                    spans,
                    aliases,
                    bound,
                    placeholders,
                    fields=fields,
                )
            )

    def _excluded_spans(self, stmt: Stmt) -> list[tuple[int, int]]:
        """Spans of nested statements that do not depend on history (left out of the shape)."""
        out: list[tuple[int, int]] = []
        for nested in _nested(stmt):
            if id(nested) in self.dependent:
                out.extend(self._excluded_spans(nested))
            elif 0 <= nested.start < nested.end:
                out.append((nested.start, nested.end))
        return out


def _binding_token_indices(tokens: list[Token]) -> frozenset[int]:
    """Indices of identifiers bound as block (``|a, b|``) or ``def`` parameters."""
    out: set[int] = set()
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        opens_block = tok.text in {"{", "do"} and tok.kind in {"op", "kw"}
        if opens_block and i + 1 < n and tokens[i + 1].kind == "op" and tokens[i + 1].text == "|":
            j = i + 2
            while j < n and not (tokens[j].kind == "op" and tokens[j].text == "|"):
                if tokens[j].kind in {"ident", "label"}:
                    out.add(j)
                j += 1
            i = j
        elif tok.kind == "kw" and tok.text == "def":
            j = i + 2
            while (
                j < n
                and tokens[j].kind != "nl"
                and not (tokens[j].kind == "op" and tokens[j].text == ")")
            ):
                if tokens[j].kind in {"ident", "label"}:
                    out.add(j)
                j += 1
            i = j
        i += 1
    return frozenset(out)


def _is_next_guard(stmt: Stmt) -> bool:
    return (
        stmt.kind == "if"
        and stmt.modifier
        and len(stmt.branches) == 1
        and any(s.kind == "next" for s in stmt.branches[0][1])
    ) or (
        stmt.kind == "if"
        and not stmt.modifier
        and len(stmt.branches) == 1
        and bool(stmt.branches[0][1])
        and stmt.branches[0][1][-1].kind == "next"
    )


def _diverge(a: Path, b: Path, start: int) -> bool:
    for (node_a, label_a), (node_b, label_b) in zip(a[start:], b[start:], strict=False):
        if node_a != node_b:
            return False
        if label_a != label_b:
            return True
    return False


def _block_pass(suffix: Suffix) -> bool:
    """``map(&:name)``: a block passed as a symbol."""
    for arg in suffix.args:
        if arg.items and isinstance(arg.items[0], Token) and arg.items[0].text == "&":
            return True
    return False


def _block_pass_symbol(suffix: Suffix) -> str | None:
    """``map(&:size)`` -> ``size``."""
    for arg in suffix.args:
        items = arg.items
        if len(items) == 2 and isinstance(items[0], Token) and items[0].text == "&":
            chain = items[1]
            if isinstance(chain, Chain):
                return _lit_text(chain)
    return None


def _returns_param(block: Block) -> bool:
    if not block.body or not block.params:
        return False
    last = block.body[-1]
    chain = _single_chain(last.expr) if last.kind == "expr" else None
    return (
        chain is not None
        and chain.head is not None
        and chain.head.text == block.params[0]
        and not chain.suffixes
    )


def _block_builds_text(block: Block) -> bool:
    if not block.body:
        return False
    last = block.body[-1]
    return last.kind == "expr" and _has_text(last.expr)


def _has_regex(expr: Expr) -> bool:
    return any(
        isinstance(item, Chain) and item.head is not None and item.head.kind == "regex"
        for item in expr.items
    )


def _mentions_name(expr: Expr | None, name: str) -> bool:
    if expr is None or not name:
        return False
    for item in expr.items:
        if isinstance(item, Chain):
            if item.head is not None and item.head.text == name:
                return True
            if item.head_kind == "group" and any(_mentions_name(s.expr, name) for s in item.inner):
                return True
    return False


def _command_args(items: list[Item], start: int) -> list[Expr]:
    args: list[Expr] = []
    current: list[Item] = []
    for item in items[start:]:
        if isinstance(item, Token) and item.kind == "op" and item.text == ",":
            if current:
                args.append(Expr(current, 0, 0))
            current = []
            continue
        if isinstance(item, Token) and item.kind in {"kw", "op"}:
            break
        current.append(item)
    if current:
        args.append(Expr(current, 0, 0))
    return args


def analyze_ruby(code: str, history_names: Iterable[str]) -> Finding:
    """Tokenize, parse and analyse; raises ``RubySyntaxError`` on structurally broken code."""
    tokens, program = parse(code)
    return RubyAnalyzer(tokens, program, history_names).run()

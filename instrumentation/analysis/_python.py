"""Python analyser: AST data flow from the conversation history to the ops applied to it.

Every value the program computes gets a *kind* (see ``_kinds``) describing its
relation to the history: the history or a sub-collection of its records, a
collection of derived values, groups of records, one record, or a value
computed from history. Ops are recognised only where the
operand has the right kind, which is what separates ``sorted(h)`` from
``sorted(prices)`` and ``"x" in m["content"]`` from ``"x" in query``.

The walk is flow-sensitive inside a function (a later ``m = other[0]`` ends
``m``'s life as a record) and repeated to a fixpoint across functions: a
parameter becomes history when some call site passes history, and a function
returns history when its return value is. Kinds only grow between passes, so the
fixpoint is reached in a few passes; the cap guards pathological programs.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from ._fingerprint import HISTORY_PLACEHOLDER, Placeholders, digest, serialize_python
from ._kinds import COLLECTIONS, DERIVED, GROUPS, HIST, NONE, REC, VAL, element, join
from ._model import HISTORY_KEY, OUTCOME_FIELD, OUTCOME_KEYS, RECORD_TOP_FIELDS, Finding
from ._python_depth import static_depth
from ._sketch import field_key, program_sketch

_MAX_PASSES: Final = 6

_Rename = Callable[[str], str | None]
_Replace = Callable[[ast.AST], str | None]
Path = tuple[tuple[int, str], ...]

# Receivers whose ``[key]``/``.get(key)`` with a *custom* history name is a source;
# the default key is accepted on any receiver because it is specific enough.
_CONTEXT_NAMES: Final = frozenset({"context", "ctx", "agent_context", "runtime_context"})

_STR_SEARCH_METHODS: Final = frozenset(
    {"startswith", "endswith", "find", "rfind", "index", "rindex", "count", "__contains__"}
)
_RE_FUNCS: Final = frozenset({"search", "match", "fullmatch", "findall", "finditer", "sub", "subn"})
_COPY_FUNCS: Final = frozenset({"list", "tuple", "iter", "copy", "deepcopy"})
# Called as ``module.name(...)`` or imported by name; meaningful over an iterable.
_STDLIB_ITERABLE_FUNCS: Final = frozenset(
    {
        "Counter", "defaultdict", "OrderedDict", "groupby", "islice", "filterfalse",
        "takewhile", "dropwhile", "reduce", "nlargest", "nsmallest", "copy", "deepcopy",
        "fnmatch", "fnmatchcase",
    }
)  # fmt: skip
_BUILTIN_ITERABLE_FUNCS: Final = _STDLIB_ITERABLE_FUNCS | {
    "len", "sorted", "max", "min", "reversed", "list", "tuple", "iter", "set", "frozenset",
    "filter", "map", "sum", "any", "all", "next", "dict", "enumerate", "zip", "str", "repr",
    "bool", "print",
}  # fmt: skip
# Functions whose first argument is a predicate or mapper and second the iterable.
_CALLABLE_FIRST: Final = frozenset({"filter", "map", "filterfalse", "takewhile", "dropwhile"})
_PREDICATE_CONSUMERS: Final = frozenset({"next", "any", "all"})
_APPEND_METHODS: Final = frozenset({"append", "add", "appendleft", "insert"})
_EXTEND_METHODS: Final = frozenset({"extend", "update"})


def _call_name(func: ast.expr) -> str:
    """``re.search`` -> ``search``, ``sorted`` -> ``sorted``; other callees -> ``""``."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_const(node: ast.expr | None, value: object) -> bool:
    return (
        isinstance(node, ast.Constant) and type(node.value) is type(value) and node.value == value
    )


def _is_empty_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.Call):
        return _call_name(node.func) in {"list", "tuple", "dict"} and not node.args
    return isinstance(node, ast.Constant) and node.value in (None, "")


def _negative(node: ast.expr | None) -> bool:
    """A slice bound counted from the end: ``-5``, ``-n``, ``len(h) - n``, ``max(0, len(h)-n)``."""
    if node is None:
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return bool(node.value < 0)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return any(isinstance(n, ast.Call) and _call_name(n.func) == "len" for n in ast.walk(node))
    if isinstance(node, ast.Call) and _call_name(node.func) == "max":
        return any(_negative(a) for a in node.args)
    return False


def _is_intlike(node: ast.expr) -> bool:
    """An index expression that selects a position (not a key): ints, names, arithmetic."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _is_intlike(node.operand)
    return isinstance(node, ast.Name | ast.BinOp | ast.Call)


def _loads_in_order(tree: ast.AST) -> Iterator[tuple[str, bool]]:
    """(name, is_load) in evaluation order: an assignment's value before its targets."""

    def visit(node: ast.AST) -> Iterator[tuple[str, bool]]:
        if isinstance(node, ast.Assign):
            yield from visit(node.value)
            for target in node.targets:
                yield from visit(target)
            return
        if isinstance(node, ast.AugAssign | ast.AnnAssign):
            if node.value is not None:
                yield from visit(node.value)
            yield from visit(node.target)
            return
        if isinstance(node, ast.For | ast.AsyncFor):
            yield from visit(node.iter)
            yield from visit(node.target)
            for stmt in [*node.body, *node.orelse]:
                yield from visit(stmt)
            return
        if isinstance(node, ast.comprehension):
            yield from visit(node.iter)
            yield from visit(node.target)
            for cond in node.ifs:
                yield from visit(cond)
            return
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            for gen in node.generators:
                yield from visit(gen)
            if isinstance(node, ast.DictComp):
                yield from visit(node.key)
                yield from visit(node.value)
            else:
                yield from visit(node.elt)
            return
        if isinstance(node, ast.Name):
            yield node.id, isinstance(node.ctx, ast.Load)
            return
        if isinstance(node, ast.arg):
            yield node.arg, False
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, False
        if isinstance(node, ast.alias):
            yield (node.asname or node.name).split(".")[0], False
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    yield from visit(tree)


@dataclass
class _Loop:
    """Evidence gathered inside the body of one loop over history records."""

    path: Path
    events_at_start: int
    # (container, branch path of the append, item is the record itself)
    appends: list[tuple[str, Path, bool]] = field(default_factory=list)


@dataclass
class _CompFilter:
    source: str
    condition: str
    negated: bool
    event: int


class _Scope:
    __slots__ = ("kinds", "locals")

    def __init__(self, local_names: frozenset[str] | None) -> None:
        self.kinds: dict[str, int] = {}
        # None marks the module scope, where every name is local.
        self.locals = local_names


def _local_names(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    names: set[str] = set()
    args = func.args
    for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        names.add(a.arg)
    if args.vararg:
        names.add(args.vararg.arg)
    if args.kwarg:
        names.add(args.kwarg.arg)
    if isinstance(func, ast.Lambda):
        return frozenset(names)
    declared_global: set[str] = set()
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global | ast.Nonlocal):
            declared_global.update(node.names)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            continue  # a nested scope's names are its own
        elif isinstance(
            node, ast.Lambda | ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
        ):
            continue
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(names - declared_global)


class PythonAnalyzer:
    """One analysis of one parsed module; use ``run()`` once."""

    def __init__(self, tree: ast.Module, history_names: Iterable[str]) -> None:
        self.tree = tree
        self.custom_names = frozenset(n for n in history_names if n != HISTORY_KEY)
        self.history_names = self.custom_names | {HISTORY_KEY}
        self.injected = self._injected_names()
        self.functions: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                # ``Query(h)`` runs ``__init__(self, h)``: the class name calls it
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        self.functions.setdefault(node.name, []).append(item)
        self.bound_names = {n for n, is_load in _loads_in_order(tree) if not is_load}
        self.imported = {
            (a.asname or a.name).split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for a in node.names
        }
        # Cross-pass facts: they only grow, which makes the passes converge.
        self.param_kinds: dict[int, dict[str, int]] = {}
        self.return_kinds: dict[int, int] = {}
        self.global_kinds: dict[str, int] = {}
        self.attr_kinds: dict[str, int] = {}
        self.str_names: set[str] = set()
        self.str_consts: dict[str, str] = {}
        self._reset_pass()

    # -- bookkeeping ---------------------------------------------------------

    def _reset_pass(self) -> None:
        self.events: list[str] = []
        self.removed_events: set[int] = set()
        self.accessed = False
        self.dependent: set[int] = set()
        self.stmt_stack: list[ast.stmt] = []
        self.scopes: list[_Scope] = [_Scope(None)]
        self.comp_scopes: list[dict[str, int]] = []
        self.loops: list[_Loop] = []
        self.path: Path = ()
        self.func_stack: list[int] = []
        self.comp_filters: list[_CompFilter] = []
        self.filter_calls: list[tuple[str, str, bool, int]] = []
        # record fields read, and what holds a record's outcome_summary (by node, by name)
        self.fields: set[str] = set()
        self.summary_nodes: set[int] = set()
        self.summary_names: set[str] = set()

    def _snapshot(self) -> tuple[object, ...]:
        return (
            {k: dict(v) for k, v in self.param_kinds.items()},
            dict(self.return_kinds),
            dict(self.global_kinds),
            dict(self.attr_kinds),
            len(self.str_names),
        )

    def _op(self, name: str) -> int:
        self.events.append(name)
        self._mark()
        return len(self.events) - 1

    def _mark(self) -> None:
        self.accessed = True
        for stmt in self.stmt_stack:
            self.dependent.add(id(stmt))

    def _injected_names(self) -> frozenset[str]:
        """History names the host injects: read before the program binds them, if ever."""
        first: dict[str, bool] = {}
        for name, is_load in _loads_in_order(self.tree):
            if name in self.history_names and name not in first:
                first[name] = is_load
        return frozenset(n for n, is_load in first.items() if is_load)

    # -- names -----------------------------------------------------------------

    def _lookup(self, name: str) -> int:
        for comp in reversed(self.comp_scopes):
            if name in comp:
                return comp[name]
        nested = False
        for scope in reversed(self.scopes):
            if scope.locals is not None:
                if name in scope.locals:
                    return scope.kinds.get(name, NONE)
                nested = True
                continue
            kind = scope.kinds.get(name, NONE)
            if nested:
                # A free variable of a function: whatever the module ever bound it
                # to, since the function may run after any module statement.
                kind = join(kind, self.global_kinds.get(name, NONE))
            if not kind and name in self.injected:
                kind = HIST
            return kind
        return NONE

    def _bind(self, name: str, kind: int, *, weak: bool = False) -> None:
        if self.comp_scopes and name in self.comp_scopes[-1]:
            self.comp_scopes[-1][name] = kind
            return
        scope = self.scopes[-1]
        if scope.locals is not None and name not in scope.locals:
            self.global_kinds[name] = join(self.global_kinds.get(name, NONE), kind)
            return
        new = join(scope.kinds.get(name, NONE), kind) if weak else kind
        if new:
            scope.kinds[name] = new
        else:
            scope.kinds.pop(name, None)
        if scope.locals is None and new:
            self.global_kinds[name] = join(self.global_kinds.get(name, NONE), new)

    # -- sources -----------------------------------------------------------------

    def _key_of(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.str_consts.get(node.id)
        return None

    def _is_history_key(self, key: str | None, receiver: ast.expr) -> bool:
        if key == HISTORY_KEY:
            return True
        return (
            key in self.custom_names
            and isinstance(receiver, ast.Name)
            and receiver.id in _CONTEXT_NAMES
        )

    def is_source(self, node: ast.expr) -> bool:
        """``context["conversation_history"]`` and its spellings (``.get``, attribute, getattr)."""
        if isinstance(node, ast.Subscript):
            return self._is_history_key(self._key_of(node.slice), node.value)
        if isinstance(node, ast.Attribute):
            return self._is_history_key(node.attr, node.value)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in {"get", "setdefault", "pop"}:
                return bool(node.args) and self._is_history_key(
                    self._key_of(node.args[0]), func.value
                )
            if isinstance(func, ast.Name) and func.id == "getattr" and len(node.args) >= 2:
                return self._is_history_key(self._key_of(node.args[1]), node.args[0])
        return False

    # -- statements ----------------------------------------------------------------

    def run(self) -> Finding:
        for _ in range(_MAX_PASSES):
            before = self._snapshot()
            self._reset_pass()
            self._body(self.tree.body)
            self._finish_partitions()
            if self._snapshot() == before:
                break
        ops = frozenset(e for i, e in enumerate(self.events) if i not in self.removed_events)
        if not self.accessed:
            return Finding(False, ops, None)
        return Finding(
            True,
            ops,
            digest(self._shape()),
            program_sketch(self._shape(True), ops),
            fields_read=frozenset(self.fields),
            static_depth=static_depth(self.tree, self.is_source, self.injected, self.functions),
        )

    def _body(self, stmts: Sequence[ast.stmt]) -> None:
        saved = self.path
        for stmt in stmts:
            self._stmt(stmt)
            # ``if cond: ...; continue`` guards the rest of a loop body: what follows
            # runs only when the guard did not fire, i.e. in its else branch.
            if (
                self.loops
                and isinstance(stmt, ast.If)
                and stmt.body
                and isinstance(stmt.body[-1], ast.Continue)
                and not stmt.orelse
            ):
                self.path = (*self.path, (id(stmt), "orelse"))
        self.path = saved

    def _stmt(self, stmt: ast.stmt) -> None:
        self.stmt_stack.append(stmt)
        try:
            self._stmt_inner(stmt)
        finally:
            self.stmt_stack.pop()

    def _stmt_inner(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Assign):
            self._assign(stmt.targets, stmt.value)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._assign([stmt.target], stmt.value)
        elif isinstance(stmt, ast.AugAssign):
            self._augassign(stmt)
        elif isinstance(stmt, ast.Expr):
            self._expr(stmt.value)
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            self._for(stmt)
        elif isinstance(stmt, ast.While):
            self._expr(stmt.test)
            self._branch(stmt, "body", stmt.body)
            self._branch(stmt, "body", stmt.body)
            self._branch(stmt, "orelse", stmt.orelse)
        elif isinstance(stmt, ast.If):
            self._expr(stmt.test)
            self._branch(stmt, "body", stmt.body)
            self._branch(stmt, "orelse", stmt.orelse)
        elif isinstance(stmt, ast.Return):
            kind = self._expr(stmt.value) if stmt.value is not None else NONE
            if self.func_stack and kind:
                key = self.func_stack[-1]
                self.return_kinds[key] = join(self.return_kinds.get(key, NONE), kind)
            self._loop_exit()
        elif isinstance(stmt, ast.Break):
            self._loop_exit()
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self._function(stmt)
        elif isinstance(stmt, ast.ClassDef):
            for deco in stmt.decorator_list:
                self._expr(deco)
            self._body(stmt.body)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                kind = self._expr(item.context_expr)
                if item.optional_vars is not None:
                    self._bind_target(item.optional_vars, kind)
            self._body(stmt.body)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            self._body(stmt.body)
            for handler in stmt.handlers:
                self._body(handler.body)
            self._body(stmt.orelse)
            self._body(stmt.finalbody)
        elif isinstance(stmt, ast.Match):
            kind = self._expr(stmt.subject)
            for case in stmt.cases:
                if kind == REC:
                    self._pattern_fields(case.pattern)
                for node in ast.walk(case.pattern):
                    if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
                        self._bind(node.name, element(kind) if kind in COLLECTIONS else kind)
                if case.guard is not None:
                    self._expr(case.guard)
                self._branch(case, "body", case.body)
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self._expr(child)

    def _branch(self, owner: ast.AST, label: str, body: Sequence[ast.stmt]) -> None:
        saved = self.path
        self.path = (*self.path, (id(owner), label))
        try:
            self._body(body)
        finally:
            self.path = saved

    def _loop_exit(self) -> None:
        """``break``/``return`` under a condition inside a loop over records is a find."""
        if self.loops and len(self.path) > len(self.loops[-1].path):
            self._op("find")

    def _function(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for deco in func.decorator_list:
            self._expr(deco)
        for default in [*func.args.defaults, *(d for d in func.args.kw_defaults if d)]:
            self._expr(default)
        scope = _Scope(_local_names(func))
        scope.kinds.update(self.param_kinds.get(id(func), {}))
        saved_loops, saved_path = self.loops, self.path
        self.loops, self.path = [], ()
        self.scopes.append(scope)
        self.func_stack.append(id(func))
        try:
            self._body(func.body)
        finally:
            self.func_stack.pop()
            self.scopes.pop()
            self.loops, self.path = saved_loops, saved_path

    def _assign(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        kind = self._expr(value)
        summary = self._is_summary(value)
        for target in targets:
            if isinstance(target, ast.Name):
                if summary:
                    self.summary_names.add(target.id)
                else:
                    self.summary_names.discard(target.id)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            for target in targets:
                if isinstance(target, ast.Name):
                    self.str_names.add(target.id)
                    self.str_consts[target.id] = value.value
        elif isinstance(value, ast.JoinedStr):
            for target in targets:
                if isinstance(target, ast.Name):
                    self.str_names.add(target.id)
        for target in targets:
            if (
                isinstance(target, ast.Tuple | ast.List)
                and isinstance(value, ast.Tuple | ast.List)
                and len(target.elts) == len(value.elts)
            ):
                for t, v in zip(target.elts, value.elts, strict=True):
                    self._bind_target(t, self._expr(v))
                continue
            if isinstance(target, ast.Subscript):
                self._keyed_store(target, value, kind)
            self._bind_target(target, kind, unpack=True)

    def _keyed_store(self, target: ast.Subscript, value: ast.expr, kind: int) -> None:
        """``d[rec["k"]] = ...``: accumulation per key is group; a plain store re-keys (map)."""
        key_kind = self._expr(target.slice)
        container = target.value
        if key_kind in (REC, VAL) and self._in_history_loop():
            container_text = ast.dump(container)
            accumulates = any(
                ast.dump(n) == container_text
                for n in ast.walk(value)
                if isinstance(n, ast.Name | ast.Attribute)
            )
            self._op("group" if accumulates else "map")
        if kind or key_kind:
            self._bind_container(container, DERIVED)

    def _bind_container(self, node: ast.expr, kind: int) -> None:
        """Weakly taint a container that received history-derived items."""
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Name):
            self._bind(node.id, kind, weak=True)
        elif isinstance(node, ast.Attribute):
            dotted = ast.unparse(node)
            self.attr_kinds[dotted] = join(self.attr_kinds.get(dotted, NONE), kind)

    def _bind_target(self, target: ast.expr, kind: int, *, unpack: bool = False) -> None:
        if isinstance(target, ast.Name):
            self._bind(target.id, kind)
        elif isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                if isinstance(elt, ast.Starred):
                    self._bind_target(elt.value, kind)
                else:
                    self._bind_target(elt, element(kind) if kind in COLLECTIONS else kind)
        elif isinstance(target, ast.Attribute):
            self._expr(target.value)
            dotted = ast.unparse(target)
            self.attr_kinds[dotted] = join(self.attr_kinds.get(dotted, NONE), kind)
        elif isinstance(target, ast.Subscript):
            if kind:
                self._bind_container(target.value, DERIVED)
        elif isinstance(target, ast.Starred):
            self._bind_target(target.value, kind)

    def _augassign(self, stmt: ast.AugAssign) -> None:
        kind = self._expr(stmt.value)
        target = stmt.target
        if isinstance(target, ast.Subscript):
            key_kind = self._expr(target.slice)
            if key_kind in (REC, VAL) and self._in_history_loop():
                self._op("group")
            if kind or key_kind:
                self._bind_container(target.value, DERIVED)
            return
        if not isinstance(target, ast.Name):
            if kind:
                self._bind_target(target, VAL)
            return
        loop = self.loops[-1] if self._in_history_loop() else None
        if isinstance(stmt.op, ast.Add) and loop is not None:
            if isinstance(stmt.value, ast.List | ast.Tuple) and kind:
                self._append(target.id, kind, stmt.value.elts[0] if stmt.value.elts else None)
                return
            if _is_const(stmt.value, 1):
                self._counted(loop)
                return
            textual = (
                target.id in self.str_names
                or isinstance(stmt.value, ast.JoinedStr)
                or (isinstance(stmt.value, ast.BinOp) and _mentions_str(stmt.value))
            )
            if kind and textual:
                self._op("summarize")
                self.str_names.add(target.id)
                if len(self.path) > len(loop.path):
                    self._op("filter")  # only some records make it into the text
        if kind:
            current = self._lookup(target.id)
            self._bind(target.id, join(current, kind if kind in COLLECTIONS else VAL))

    def _counted(self, loop: _Loop) -> None:
        self._op("count")
        if len(self.path) > len(loop.path):
            self._op("filter")

    def _in_history_loop(self) -> bool:
        return bool(self.loops)

    def _for(self, stmt: ast.For | ast.AsyncFor) -> None:
        iter_kind, items = self._iteration(stmt.iter)
        over_history = iter_kind in COLLECTIONS
        self._bind_items(stmt.target, iter_kind, items)
        if not over_history:
            self._body(stmt.body)
            self._body(stmt.body)  # a second time, for loop-carried aliases
            self._body(stmt.orelse)
            return
        loop = _Loop(path=self.path, events_at_start=len(self.events))
        self.loops.append(loop)
        try:
            self._body(stmt.body)
        finally:
            self.loops.pop()
        self._classify_loop(loop)
        self._body(stmt.orelse)

    def _classify_loop(self, loop: _Loop) -> None:
        """Turn the appends seen in a loop body into filter/map/partition, else iterate."""
        targets = {name for name, _, _ in loop.appends}
        partition = False
        if len(targets) >= 2:
            for a_name, a_path, _ in loop.appends:
                for b_name, b_path, _ in loop.appends:
                    if a_name != b_name and _diverge(a_path, b_path, len(loop.path)):
                        partition = True
        if partition:
            self._op("partition")
        for _, path, identity in loop.appends:
            if not identity:
                self._op("map")
            if not partition and len(path) > len(loop.path):
                self._op("filter")
        if len(self.events) == loop.events_at_start:
            self._op("iterate")

    def _iteration(self, node: ast.expr) -> tuple[int, list[int] | None]:
        """Kind of an iterable and, for ``enumerate``/``zip``/``.items()``, per-position kinds."""
        if isinstance(node, ast.Call):
            name = _call_name(node.func)
            if name == "enumerate" and isinstance(node.func, ast.Name) and node.args:
                kind = self._expr(node.args[0])
                for extra in node.args[1:]:
                    self._expr(extra)
                return kind, [NONE, element(kind)]
            if name == "zip" and isinstance(node.func, ast.Name):
                kinds = [self._expr(a) for a in node.args]
                best = NONE
                for k in kinds:
                    best = join(best, k)
                return best, [element(k) for k in kinds]
            if name in {"items", "values", "keys"} and isinstance(node.func, ast.Attribute):
                kind = self._expr(node.func.value)
                if kind == GROUPS and name != "keys":
                    return GROUPS, ([VAL, HIST] if name == "items" else None)
                return (DERIVED if kind else NONE), None
        kind = self._expr(node)
        if kind == GROUPS and isinstance(node, ast.Call) and _call_name(node.func) == "groupby":
            return kind, [VAL, HIST]  # (key, records of the group)
        return kind, None

    def _bind_items(self, target: ast.expr, kind: int, items: list[int] | None) -> None:
        if (
            items is not None
            and isinstance(target, ast.Tuple | ast.List)
            and len(items) == len(target.elts)
        ):
            for t, k in zip(target.elts, items, strict=True):
                self._bind_target(t, k)
            return
        self._bind_target(target, element(kind) if kind in COLLECTIONS else kind)

    def _append(self, container: str, kind: int, item: ast.expr | None) -> None:
        """Record ``container.append(item)`` inside a loop over records."""
        self._bind(container, HIST if kind == REC else DERIVED, weak=True)
        loop = self.loops[-1]
        identity = kind == REC and isinstance(item, ast.Name)
        loop.appends.append((container, self.path, identity))
        self._mark()

    # -- expressions ---------------------------------------------------------------

    def _expr(self, node: ast.expr | None, consumer: str = "") -> int:
        if node is None:
            return NONE
        kind = self._expr_inner(node, consumer)
        if kind:
            self._mark()
        return kind

    def _expr_inner(self, node: ast.expr, consumer: str) -> int:
        if self.is_source(node):
            self._mark()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._expr(child)
            return HIST
        if isinstance(node, ast.Name):
            return self._lookup(node.id) if isinstance(node.ctx, ast.Load) else NONE
        if isinstance(node, ast.Constant):
            return NONE
        if isinstance(node, ast.Attribute):
            dotted_kind = NONE
            if isinstance(node.value, ast.Name):
                dotted_kind = self.attr_kinds.get(f"{node.value.id}.{node.attr}", NONE)
            base = self._expr(node.value)
            if dotted_kind:
                return dotted_kind
            return VAL if base else NONE
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Call):
            return self._call(node, consumer)
        if isinstance(node, ast.BoolOp):
            kind = NONE
            for value in node.values:
                kind = join(kind, self._expr(value))
            return kind
        if isinstance(node, ast.IfExp):
            self._expr(node.test)
            return join(self._expr(node.body), self._expr(node.orelse))
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.BinOp):
            left, right = self._expr(node.left), self._expr(node.right)
            if isinstance(node.op, ast.Add) and left in COLLECTIONS and right in COLLECTIONS:
                return join(left, right)
            return VAL if (left or right) else NONE
        if isinstance(node, ast.UnaryOp):
            return VAL if self._expr(node.operand) else NONE
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            return self._comprehension(node, consumer)
        if isinstance(node, ast.Lambda):
            return self._lambda(node, NONE)
        if isinstance(node, ast.NamedExpr):
            kind = self._expr(node.value)
            self._bind(node.target.id, kind)
            if self._is_summary(node.value):
                self.summary_names.add(node.target.id)
            return kind
        if isinstance(node, ast.Starred | ast.Await | ast.YieldFrom):
            return self._expr(node.value)
        if isinstance(node, ast.Yield):
            kind = self._expr(node.value)
            if kind and self.loops:
                self._append("<yield>", kind, node.value)
            return kind
        kind = NONE
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                kind = join(kind, self._expr(child))
        if isinstance(node, ast.List | ast.Tuple | ast.Set) and kind in (REC, HIST):
            return HIST if kind == REC else DERIVED
        return VAL if kind else NONE

    def _subscript(self, node: ast.Subscript) -> int:
        base = self._expr(node.value)
        sl = node.slice
        if isinstance(sl, ast.Slice):
            for part in (sl.lower, sl.upper, sl.step):
                self._expr(part)
            if base not in COLLECTIONS:
                return VAL if base else NONE
            lower, upper, step = sl.lower, sl.upper, sl.step
            if step is not None and lower is None and upper is None:
                # h[::-1] reverses, h[::2] samples: order/sampling, not a window
                if not _negative(step):
                    self._op("slice")
                return base
            if lower is None and upper is None:
                return base  # h[:] is a copy
            self._op("slice")
            head = (lower is None or _is_const(lower, 0)) and upper is not None
            head = head and not _negative(upper)
            tail = lower is not None and _negative(lower) and upper is None
            if head or tail:
                self._op("peek")
            return base
        key_kind = self._expr(sl)
        if isinstance(node.ctx, ast.Load):
            self._read_key(node, node.value, base, sl)
        if base in COLLECTIONS:
            if not key_kind and _is_intlike(sl):
                self._op("index")
            return element(base)
        if base in (REC, VAL):
            return VAL
        return VAL if key_kind else NONE

    def _compare(self, node: ast.Compare) -> int:
        kinds = [self._expr(node.left)] + [self._expr(c) for c in node.comparators]
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            if isinstance(op, ast.In | ast.NotIn):
                right = kinds[i + 1]
                if right == VAL and not isinstance(operands[i + 1], ast.Dict):
                    self._op("grep")
                elif right in COLLECTIONS and not kinds[i]:
                    self._op("find")
        return VAL if any(kinds) else NONE

    def _lambda(self, node: ast.Lambda, arg_kind: int, *, second: int = NONE) -> int:
        scope = _Scope(_local_names(node))
        params = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        if params:
            if second and len(params) >= 2:
                scope.kinds[params[0]] = second  # reduce(lambda acc, rec: ...)
                scope.kinds[params[1]] = arg_kind
            else:
                scope.kinds[params[0]] = arg_kind
        scope.kinds = {k: v for k, v in scope.kinds.items() if v}
        self.scopes.append(scope)
        try:
            return self._expr(node.body)
        finally:
            self.scopes.pop()

    def _callable_arg(self, node: ast.expr, item_kind: int) -> int:
        """Evaluate a key/predicate/mapper applied to each item: lambda body or named def."""
        if (
            item_kind == REC
            and isinstance(node, ast.Call)
            and _call_name(node.func) == "itemgetter"
        ):
            for arg in node.args:
                key = self._key_of(arg)
                if key in RECORD_TOP_FIELDS:
                    self.fields.add(key)
        if isinstance(node, ast.Lambda):
            return self._lambda(node, item_kind)
        if isinstance(node, ast.Name) and node.id in self.functions and item_kind:
            for func in self.functions[node.id]:
                params = func.args.posonlyargs + func.args.args
                if params:
                    self._bind_param(func, params[0].arg, item_kind)
            return VAL
        return self._expr(node)

    def _bind_param(
        self, func: ast.FunctionDef | ast.AsyncFunctionDef, name: str, kind: int
    ) -> None:
        if not kind:
            return
        kinds = self.param_kinds.setdefault(id(func), {})
        kinds[name] = join(kinds.get(name, NONE), kind)

    def _call(self, node: ast.Call, consumer: str) -> int:
        func = node.func
        name = _call_name(func)
        args = node.args
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}

        if name not in self.functions and not self._receiver_tainted(func):
            result = self._known_call(node, name, args, keywords, consumer)
            if result is not None:
                return result

        receiver = NONE
        if isinstance(func, ast.Attribute):
            if func.attr in _APPEND_METHODS | _EXTEND_METHODS and args:
                return self._append_call(func.value, func.attr, args)
            receiver = self._expr(func.value)
            if func.attr == "get" and args:
                self._read_key(node, func.value, receiver, args[0])
            result = self._method_call(func, receiver, args, keywords)
            if result is not None:
                return result
        elif not isinstance(func, ast.Name):
            receiver = self._expr(func)

        arg_kinds = [self._expr(a) for a in args]
        kw_kinds = {k: self._expr(v) for k, v in keywords.items()}
        for kw in node.keywords:
            if kw.arg is None:
                self._expr(kw.value)
        result = self._user_call(name, func, arg_kinds, kw_kinds)
        if result is not None:
            return result
        tainted = receiver or any(arg_kinds) or any(kw_kinds.values())
        return VAL if tainted else NONE

    def _receiver_tainted(self, func: ast.expr) -> bool:
        """Whether ``a.b.c(...)`` runs on history-derived data (``h.count``, not ``re.search``)."""
        if not isinstance(func, ast.Attribute):
            return False
        base = func.value
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name):
            return bool(self._lookup(base.id))
        return not isinstance(base, ast.Constant | ast.JoinedStr)

    def _known_call(
        self,
        node: ast.Call,
        name: str,
        args: list[ast.expr],
        keywords: dict[str, ast.expr],
        consumer: str,
    ) -> int | None:
        """Builtins and stdlib functions with a meaning over collections; ``None`` if not one."""
        func = node.func
        if isinstance(func, ast.Attribute):
            if name == "join" and len(args) == 1 and not _is_path_module(func.value):
                self._expr(func.value)
                kind = self._expr(args[0], consumer="join")
                if kind in COLLECTIONS:
                    self._op("summarize")
                return VAL if kind else NONE
            if name in _RE_FUNCS and args:
                # re.search(pattern, text) or compiled.search(text)
                module_call = len(args) >= 2
                if not module_call:
                    self._expr(func.value)
                kinds = [self._expr(a) for a in args]
                text = kinds[1] if module_call else kinds[0]
                if text in (REC, VAL):
                    self._op("grep")
                return VAL if text else NONE
            if name not in _STDLIB_ITERABLE_FUNCS:
                return None
        elif name not in _BUILTIN_ITERABLE_FUNCS:
            return None
        if name in {"fnmatch", "fnmatchcase"}:
            kinds = [self._expr(a) for a in args]
            if kinds and kinds[0] in (REC, VAL):
                self._op("grep")
            return VAL if any(kinds) else NONE
        if name == "reduce":
            return self._reduce(args)
        coll_at = 1 if name in _CALLABLE_FIRST or name in {"nlargest", "nsmallest"} else 0
        if len(args) <= coll_at:
            return None
        coll_node = args[coll_at]
        coll = self._expr(coll_node, consumer=name)
        item = element(coll) if coll in COLLECTIONS else NONE
        others = NONE
        for i, a in enumerate(args):
            if i == coll_at:
                continue
            if (i == 0 and name in _CALLABLE_FIRST) or (i == 1 and name == "groupby"):
                self._callable_arg(a, item)
            else:
                others = join(others, self._expr(a))
        for k, v in keywords.items():
            if k == "key":
                self._callable_arg(v, item)
            else:
                others = join(others, self._expr(v))
        if coll not in COLLECTIONS:
            if name in _COPY_FUNCS or name in {"reversed", "sorted", "set", "frozenset"}:
                return coll
            return VAL if (coll or others) else NONE
        return self._collection_call(name, args, coll_node, coll, item)

    def _collection_call(
        self, name: str, args: list[ast.expr], coll_node: ast.expr, coll: int, item: int
    ) -> int:
        """A builtin/stdlib call whose iterable argument is history-derived."""
        if name == "len":
            self._op("count")
            return VAL
        if name in {"sorted", "nlargest", "nsmallest"}:
            self._op("sort")
            return coll
        if name in {"max", "min"}:
            self._op("sort")
            return item
        if name in _CALLABLE_FIRST and name != "map":
            event = self._op("filter")
            negated = name == "filterfalse"
            self.filter_calls.append((ast.dump(coll_node), ast.dump(args[0]), negated, event))
            return coll
        if name == "map":
            self._op("map")
            return DERIVED
        if name == "islice":
            self._op("slice")
            if len(args) == 2 or (len(args) >= 3 and _is_const(args[1], 0)):
                self._op("peek")
            return coll
        if name == "groupby":
            self._op("group")
            return GROUPS
        if name == "Counter":
            self._op("group")
            return DERIVED
        if name == "next":
            if isinstance(coll_node, ast.GeneratorExp | ast.ListComp):
                self._op("find")
                # next(m for m in h if ...) is a record; next(m["x"] for ...) a value
                return item if isinstance(coll_node.elt, ast.Name) else VAL
            self._op("index")
            return item
        if name == "any":
            self._op("find")
            return VAL
        if name in {"all", "sum", "str", "repr", "bool", "print"}:
            return VAL
        if name in {"dict", "enumerate", "zip", "defaultdict", "OrderedDict"}:
            return DERIVED
        return coll  # list, tuple, set, reversed, iter, copy: same records, same kind

    def _reduce(self, args: list[ast.expr]) -> int:
        """``functools.reduce`` building a string from records is a summary."""
        if len(args) < 2:
            for a in args:
                self._expr(a)
            return NONE
        coll = self._expr(args[1])
        init = args[2] if len(args) > 2 else None
        if init is not None:
            self._expr(init)
        if isinstance(args[0], ast.Lambda):
            self._lambda(args[0], element(coll), second=VAL)
        else:
            self._callable_arg(args[0], element(coll))
        if coll in COLLECTIONS:
            texty = (init is not None and _mentions_str(init)) or (
                isinstance(args[0], ast.Lambda) and _mentions_str(args[0].body)
            )
            if texty:
                self._op("summarize")
        return VAL if coll else NONE

    def _method_call(
        self,
        func: ast.Attribute,
        receiver: int,
        args: list[ast.expr],
        keywords: dict[str, ast.expr],
    ) -> int | None:
        """Methods with a meaning on history-derived receivers; ``None`` if not one."""
        method = func.attr
        if not receiver:
            if method == "write" and args and self._in_history_loop():
                if self._expr(args[0]):
                    self._op("summarize")
                    if len(self.path) > len(self.loops[-1].path):
                        self._op("filter")
                return NONE
            if method == "setdefault" and args:
                key_kind = self._expr(args[0])
                for a in args[1:]:
                    self._expr(a)
                if key_kind in (REC, VAL) and self._in_history_loop():
                    self._op("group")
                    self._bind_container(func.value, GROUPS)
                    return HIST
                return VAL if key_kind else NONE
            return None
        if receiver in COLLECTIONS:
            return self._collection_method(method, receiver, args, keywords)
        if method in {"get", "setdefault", "pop"}:
            for a in args:
                self._expr(a)
            return VAL
        if method in _STR_SEARCH_METHODS and args and receiver == VAL:
            self._op("grep")
            for a in args:
                self._expr(a)
            return VAL
        if method in {"items", "values", "keys"}:
            return DERIVED
        if method == "copy":
            return receiver
        return None

    def _collection_method(
        self, method: str, receiver: int, args: list[ast.expr], keywords: dict[str, ast.expr]
    ) -> int | None:
        item = element(receiver)
        if method == "sort":
            self._op("sort")
            for k, v in keywords.items():
                if k == "key":
                    self._callable_arg(v, item)
                else:
                    self._expr(v)
            return NONE
        if method in {"count", "index"} and args:
            self._op("count" if method == "count" else "find")
            for a in args:
                self._expr(a)
            return VAL
        if method == "copy":
            return receiver
        if method == "pop":
            for a in args:
                self._expr(a)
            self._op("index")
            return item
        if method in {"items", "values", "keys"}:
            return DERIVED
        if method == "get" and args:
            for a in args:
                self._expr(a)
            return item
        return None

    def _append_call(self, container: ast.expr, method: str, args: list[ast.expr]) -> int:
        """``out.append(x)`` / ``(a if c else b).append(x)`` / ``d[k].append(x)``."""
        kinds = [self._expr(a) for a in args]
        item_kind = kinds[-1] if method == "insert" else kinds[0]
        item = args[-1] if method == "insert" else args[0]
        if method in _EXTEND_METHODS:
            item_kind = element(item_kind) if item_kind in COLLECTIONS else item_kind
        if not item_kind:
            self._expr(container)
            return NONE
        if isinstance(container, ast.IfExp):
            self._expr(container.test)
            if self._in_history_loop():
                self._op("partition")
            for side in (container.body, container.orelse):
                self._bind_container(side, HIST if item_kind == REC else DERIVED)
            return NONE
        if isinstance(container, ast.Subscript):
            key_kind = self._expr(container.slice)
            self._expr(container.value)
            if key_kind in (REC, VAL) and self._in_history_loop():
                self._op("group")
            self._bind_container(container.value, GROUPS)
            return NONE
        if isinstance(container, ast.Call) and _call_name(container.func) == "setdefault":
            self._expr(container)
            if isinstance(container.func, ast.Attribute):
                self._bind_container(container.func.value, GROUPS)
            return NONE
        if isinstance(container, ast.Name) and self._in_history_loop():
            self._append(container.id, item_kind, item)
            return NONE
        self._bind_container(container, HIST if item_kind == REC else DERIVED)
        return NONE

    def _user_call(
        self, name: str, func: ast.expr, arg_kinds: list[int], kw_kinds: dict[str, int]
    ) -> int | None:
        if name not in self.functions:
            return None
        result = NONE
        for fdef in self.functions[name]:
            params = [a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args]]
            bound_method = isinstance(func, ast.Attribute) or fdef.name == "__init__"
            if bound_method and params and params[0] in {"self", "cls"}:
                params = params[1:]
            for param, kind in zip(params, arg_kinds, strict=False):
                self._bind_param(fdef, param, kind)
            for kw, kind in kw_kinds.items():
                self._bind_param(fdef, kw, kind)
            result = join(result, self.return_kinds.get(id(fdef), NONE))
        if result:
            self._mark()
        return result

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, consumer: str
    ) -> int:
        comp: dict[str, int] = {}
        first_kind = NONE
        record_names: set[str] = set()
        filter_events: list[tuple[ast.comprehension, int]] = []
        self.comp_scopes.append(comp)
        try:
            for gen in node.generators:
                iter_kind, items = self._iteration(gen.iter)
                for name_node in ast.walk(gen.target):
                    if isinstance(name_node, ast.Name):
                        comp[name_node.id] = NONE
                self._bind_items(gen.target, iter_kind, items)
                if iter_kind in COLLECTIONS:
                    first_kind = first_kind or iter_kind
                    if isinstance(gen.target, ast.Name):
                        record_names.add(gen.target.id)
                for cond in gen.ifs:
                    self._expr(cond)
                # next()/any()/all() take the condition as their predicate (a find)
                if gen.ifs and iter_kind in COLLECTIONS and consumer not in _PREDICATE_CONSUMERS:
                    filter_events.append((gen, self._op("filter")))
            identity = constant = False
            if isinstance(node, ast.DictComp):
                elt_kind = join(self._expr(node.key), self._expr(node.value))
            else:
                elt_kind = self._expr(node.elt)
                identity = isinstance(node.elt, ast.Name) and node.elt.id in record_names
                constant = isinstance(node.elt, ast.Constant)
        finally:
            self.comp_scopes.pop()
        if not first_kind:
            return VAL if elt_kind else NONE
        if consumer == "sum" and constant:
            self._op("count")
        elif not identity and not constant and consumer not in _PREDICATE_CONSUMERS:
            self._op("map")
        for gen, event in filter_events:
            if len(gen.ifs) == 1:
                base, negated = _condition(gen.ifs[0])
                self.comp_filters.append(_CompFilter(ast.dump(gen.iter), base, negated, event))
        return first_kind if identity else DERIVED

    def _finish_partitions(self) -> None:
        """Two filters over one source with complementary conditions form a partition."""
        pairs = [(f.source, f.condition, f.negated, f.event) for f in self.comp_filters]
        pairs += self.filter_calls
        for i, (src_a, cond_a, neg_a, ev_a) in enumerate(pairs):
            for src_b, cond_b, neg_b, ev_b in pairs[i + 1 :]:
                if src_a == src_b and cond_a == cond_b and neg_a != neg_b:
                    self.removed_events.update({ev_a, ev_b})
                    self.events.append("partition")

    # -- record fields ---------------------------------------------------------------

    def _read_key(self, node: ast.expr, container: ast.expr, kind: int, key_node: ast.expr) -> None:
        """``rec[key]`` or ``rec.get(key)``: a record field read (``outcome_summary``'s keys too).

        ``node`` is the whole read; when it reads ``outcome_summary`` it is remembered,
        so that ``rec["outcome_summary"]["ok"]`` and ``(rec.get(...) or {}).get("ok")``
        name the key inside.
        """
        key = self._key_of(key_node)
        if key is None:
            return
        if kind == REC and key in RECORD_TOP_FIELDS:
            self.fields.add(key)
            if key == OUTCOME_FIELD:
                self.summary_nodes.add(id(node))
        elif key in OUTCOME_KEYS and self._is_summary(container):
            self.fields.add(f"{OUTCOME_FIELD}.{key}")

    def _is_summary(self, node: ast.expr) -> bool:
        """A record's ``outcome_summary``: the read itself, a name holding it, ``… or {}``."""
        if id(node) in self.summary_nodes:
            return True
        if isinstance(node, ast.Name):
            return node.id in self.summary_names
        if isinstance(node, ast.NamedExpr):
            return self._is_summary(node.value)
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and node.values:
            return self._is_summary(node.values[0]) and all(
                _is_empty_literal(v) for v in node.values[1:]
            )
        return False

    def _pattern_fields(self, pattern: ast.pattern, summary: bool = False) -> None:
        """``match rec: case {"speaker": "user"}``: mapping-pattern keys are field reads."""
        if isinstance(pattern, ast.MatchOr):
            for alternative in pattern.patterns:
                self._pattern_fields(alternative, summary)
        elif isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
            self._pattern_fields(pattern.pattern, summary)
        elif isinstance(pattern, ast.MatchMapping):
            for key_node, value in zip(pattern.keys, pattern.patterns, strict=False):
                key = self._key_of(key_node)
                if key is None:
                    continue
                if summary:
                    if key in OUTCOME_KEYS:
                        self.fields.add(f"{OUTCOME_FIELD}.{key}")
                elif key in RECORD_TOP_FIELDS:
                    self.fields.add(key)
                    if key == OUTCOME_FIELD:
                        self._pattern_fields(value, summary=True)

    # -- fingerprint ---------------------------------------------------------------

    def _shape(self, fields: bool = False) -> list[str]:
        """The normalized history-dependent statements (``fields``: keep record field keys)."""
        aliases = self._pure_aliases()
        placeholders = Placeholders()
        keep = self.bound_names - self.imported

        def rename(identifier: str) -> str | None:
            if identifier in aliases or identifier in self.injected:
                return HISTORY_PLACEHOLDER
            if identifier in keep:
                return placeholders(identifier)
            return None

        keys = _field_key_nodes(self.tree) if fields else {}

        def replace(node: ast.AST) -> str | None:
            if isinstance(node, ast.expr) and self._is_defaulted_source(node):
                return HISTORY_PLACEHOLDER
            return keys.get(id(node))

        lines: list[str] = []
        self._emit(self.tree.body, lines, rename, replace, aliases)
        return lines

    def _is_defaulted_source(self, node: ast.expr) -> bool:
        if self.is_source(node):
            return True
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and node.values:
            return self.is_source(node.values[0]) and all(
                _is_empty_literal(v) for v in node.values[1:]
            )
        return False

    def _pure_aliases(self) -> set[str]:
        """Names only ever bound to the history itself: they normalize to the history."""
        ok: dict[str, bool] = {}
        handled: set[int] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                is_source = self._is_defaulted_source(node.value)
                for target in targets:
                    if isinstance(target, ast.Name):
                        handled.add(id(target))
                        ok[target.id] = ok.get(target.id, True) and is_source
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                if id(node) not in handled:
                    ok[node.id] = False
            elif isinstance(node, ast.arg):
                ok[node.arg] = False
        return {name for name, is_alias in ok.items() if is_alias}

    def _emit(
        self,
        stmts: Sequence[ast.stmt],
        out: list[str],
        rename: _Rename,
        replace: _Replace,
        aliases: set[str],
    ) -> None:
        for stmt in stmts:
            if id(stmt) not in self.dependent:
                continue
            if isinstance(stmt, ast.Assign) and all(
                isinstance(t, ast.Name) and t.id in aliases for t in stmt.targets
            ):
                continue  # ``h = context["conversation_history"] or []`` is not shape
            children = _child_bodies(stmt)
            if not children:
                out.append(serialize_python(stmt, rename=rename, replace=replace))
                continue
            header = _header_only(stmt)
            out.append(serialize_python(header, rename=rename, replace=replace) + "{")
            for body in children:
                self._emit(body, out, rename, replace, aliases)
                out.append("|")
            out.append("}")


_KEY_METHODS: Final = frozenset({"get", "pop", "setdefault"})


def _field_key_nodes(tree: ast.AST) -> dict[int, str]:
    """Record-field string keys (``r["speaker"]``, ``r.get("ok")``) by node id, as sketch tokens."""
    keys: dict[int, str] = {}
    for node in ast.walk(tree):
        key: ast.expr | None = None
        if isinstance(node, ast.Subscript):
            key = node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _KEY_METHODS
            and node.args
        ):
            key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            token = field_key(key.value)
            if token is not None:
                keys[id(key)] = token
    return keys


def _child_bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    bodies: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        value = getattr(stmt, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            bodies.append(value)
    if isinstance(stmt, ast.Try | ast.TryStar):
        bodies.extend(h.body for h in stmt.handlers)
    if isinstance(stmt, ast.Match):
        bodies.extend(c.body for c in stmt.cases)
    return bodies


def _header_only(stmt: ast.stmt) -> ast.stmt:
    """A shallow copy of a compound statement with its bodies emptied."""
    clone = type(stmt)()
    for name in stmt._fields:
        value = getattr(stmt, name, None)
        if name in {"body", "orelse", "finalbody", "handlers", "cases"}:
            value = []
        setattr(clone, name, value)
    return clone


def _diverge(a: Path, b: Path, start: int) -> bool:
    """Two branch paths split at the same ``if`` into different branches."""
    for (node_a, label_a), (node_b, label_b) in zip(a[start:], b[start:], strict=False):
        if node_a != node_b:
            return False
        if label_a != label_b:
            return True
    return False


def _mentions_str(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
        for n in ast.walk(node)
    )


def _is_path_module(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "path") or (
        isinstance(node, ast.Name) and node.id in {"os", "posixpath", "ntpath", "path"}
    )


def _condition(node: ast.expr) -> tuple[str, bool]:
    """Normalize a filter condition to (base, negated) so ``c`` and ``not c`` pair up."""
    negated = False
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
        negated = not negated
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op = node.ops[0]
        flip = {ast.NotEq: ast.Eq, ast.NotIn: ast.In, ast.IsNot: ast.Is}
        for neg, pos in flip.items():
            if isinstance(op, neg):
                node = ast.Compare(left=node.left, ops=[pos()], comparators=node.comparators)
                negated = not negated
                break
    return ast.dump(node), negated


# Generated code trips compile-time warnings ("invalid escape sequence" is a
# DeprecationWarning up to 3.11, a SyntaxWarning after) that would land in the
# host's stderr. The filters match only our own compile filename, so they are
# safe to install once and leave the host's warning policy alone.
_FILENAME: Final = "<recurscope-generated>"
for _category in (SyntaxWarning, DeprecationWarning):
    warnings.filterwarnings("ignore", category=_category, module=re.escape(_FILENAME))


def analyze_python(code: str, history_names: Iterable[str]) -> Finding:
    """Parse and analyse; ``SyntaxError``/``ValueError``/``RecursionError`` propagate."""
    tree = ast.parse(code, filename=_FILENAME)
    return PythonAnalyzer(tree, history_names).run()

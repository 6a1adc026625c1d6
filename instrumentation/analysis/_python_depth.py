"""Python static depth: the literal tail bound of every read of the history, if all have one.

A *read* is a place where the whole history is used: a source
(``context["conversation_history"]``) or a name that only ever holds it
(``h = context.get("conversation_history") or []``, ``list(h)``, the injected
global). Each read is classified by what is done to it right there:

- a tail window with a literal bound: ``h[-5:]`` (5), ``h[-5:-1]`` (5),
  ``h[-1]`` (1), ``h[len(h) - 3:]`` (3), ``h[::-1][:4]`` and
  ``list(reversed(h))[0]`` (the head of the reversal: 4, 1);
- not a read of records: ``len(h)``, ``bool(h)``, ``if h``/``not h``/``h and …``,
  ``h is None``, ``h == []``, and binding a name that only holds the history;
- passed to a ``def`` of the program: the parameter's own uses are classified;
- anything else reads without a literal tail bound: iteration, ``sorted(h)``,
  a head (``h[:5]``, ``h[0]``), a computed bound (``h[-n:]``), returning it.

The depth is the largest bound when every read has one, else ``None`` (also
when no record is read at all). What a window is then used for does not
matter: ``recent = h[-5:]`` bounds every use of ``recent`` by 5.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Final, TypeGuard

_Functions = Mapping[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]

_UNBOUNDED: Final = -1
"""A read without a literal tail bound."""
_NEUTRAL: Final = 0
"""A use that reads no record (``len``, a truth test, an alias)."""
_REVERSED: Final = -2
"""The history reversed (``h[::-1]``, ``reversed(h)``): its head is the tail."""

_COPIES: Final = frozenset({"list", "tuple"})
_CANDIDATES: Final = (
    ast.Name, ast.BoolOp, ast.IfExp, ast.NamedExpr, ast.Call, ast.Subscript, ast.Attribute,
)  # fmt: skip


def static_depth(
    tree: ast.AST,
    is_source: Callable[[ast.expr], bool],
    injected: frozenset[str],
    functions: _Functions,
) -> int | None:
    """The literal tail bound of all history reads, or ``None`` (see the module docstring)."""
    return _Depth(tree, is_source, injected, functions).run()


def _is_empty_literal(node: ast.expr) -> bool:
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in {"list", "tuple"} and not node.args
    return isinstance(node, ast.Constant) and node.value is None


def _int(node: ast.expr | None) -> int | None:
    """The value of an integer literal (``5``, ``-5``), else ``None``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _called(node: ast.AST | None, name: str) -> TypeGuard[ast.Call]:
    """``node`` is a call of the plain name ``name`` (``len(...)``)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _binds(node: ast.AST) -> str | None:
    """The name a binding other than an assignment introduces (parameter, def, import, …)."""
    if isinstance(node, ast.arg):
        return node.arg
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.alias):
        return (node.asname or node.name).split(".")[0]
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return node.name
    if isinstance(node, ast.MatchMapping):
        return node.rest
    return None


class _Depth:
    """One computation over one module; ``run()`` once."""

    def __init__(
        self,
        tree: ast.AST,
        is_source: Callable[[ast.expr], bool],
        injected: frozenset[str],
        functions: _Functions,
    ) -> None:
        self.is_source = is_source
        self.functions = functions
        # Name nodes that hold the history inside a def it was passed to
        self.param_nodes: set[int] = set()
        self.visited_params: set[tuple[int, str]] = set()
        self.parents: dict[int, ast.AST] = {}
        # expressions that may be the whole history, in one walk of the tree
        self.candidates: list[ast.expr] = []
        values: dict[str, list[ast.expr]] = {}
        stores: list[ast.Name] = []
        rebound: set[str] = set()
        stack = [tree]
        while stack:
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
                stack.append(child)
            if isinstance(node, _CANDIDATES):
                self.candidates.append(node)
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores.append(node)
            elif (name := _binds(node)) is not None:
                rebound.add(name)
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        values.setdefault(target.id, []).append(node.value)
            elif (
                isinstance(node, ast.AnnAssign | ast.NamedExpr)
                and isinstance(node.target, ast.Name)
                and node.value is not None
            ):
                values.setdefault(node.target.id, []).append(node.value)
        for store in stores:
            binder = self.parents.get(id(store))
            if not isinstance(binder, ast.Assign | ast.AnnAssign | ast.NamedExpr):
                rebound.add(store.id)  # a loop variable, a tuple target, ``x += …``, …
            elif isinstance(binder, ast.Assign) and store not in binder.targets:
                rebound.add(store.id)
        self.full_names = self._full_names(values, (set(values) | set(injected)) - rebound)
        # an injected name the program rebinds to something else: its reads are not followed
        self.lost = bool(injected - self.full_names)

    def run(self) -> int | None:
        if self.lost:
            return None
        bounds = self._reads()
        if not bounds or _UNBOUNDED in bounds:
            return None
        deepest = max(bounds)
        return deepest if deepest > 0 else None

    # -- which expressions are the whole history -------------------------------------------

    def _full_names(self, values: dict[str, list[ast.expr]], names: set[str]) -> frozenset[str]:
        """Names every binding of which is the whole history (greatest fixpoint)."""
        while True:
            self.full_names = frozenset(names)
            kept = {n for n in names if all(self._is_full(v) for v in values.get(n, []))}
            if kept == names:
                return frozenset(kept)
            names = kept

    def _is_full(self, node: ast.AST) -> bool:
        """``node`` evaluates to the whole history (a copy or an empty default included)."""
        if isinstance(node, ast.Name):
            return isinstance(node.ctx, ast.Load) and (
                node.id in self.full_names or id(node) in self.param_nodes
            )
        if not isinstance(node, ast.expr):
            return False
        if isinstance(node, ast.BoolOp):
            return (
                isinstance(node.op, ast.Or)
                and self._is_full(node.values[0])
                and all(_is_empty_literal(v) for v in node.values[1:])
            )
        if isinstance(node, ast.IfExp):
            sides = (node.body, node.orelse)
            return any(self._is_full(s) for s in sides) and all(
                self._is_full(s) or _is_empty_literal(s) for s in sides
            )
        if isinstance(node, ast.NamedExpr):
            return self._is_full(node.value)
        if isinstance(node, ast.Call) and not node.keywords:
            if isinstance(node.func, ast.Name) and node.func.id in _COPIES:
                return len(node.args) == 1 and self._is_full(node.args[0])
            if isinstance(node.func, ast.Attribute) and node.func.attr == "copy":
                return not node.args and self._is_full(node.func.value)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sl = node.slice
            whole = sl.lower is None and sl.upper is None and sl.step is None
            return whole and self._is_full(node.value)
        return self.is_source(node)

    # -- reads ---------------------------------------------------------------------------

    def _reads(self) -> list[int]:
        """The classification of every outermost whole-history expression of the program."""
        out: list[int] = []
        for node in self.candidates:
            if id(node) in self.param_nodes:
                continue  # classified where the def's parameter was followed
            parent = self.parents.get(id(node))
            if isinstance(parent, ast.Attribute):
                parent = self.parents.get(id(parent))  # ``h.copy()``: the call is the value
            if self._is_full(node) and (parent is None or not self._is_full(parent)):
                out.extend(self._use(node))
        return out

    def _use(self, node: ast.AST) -> list[int]:
        """What is done to the whole history ``node`` where it stands."""
        parent = self.parents.get(id(node))
        if parent is None:
            return [_UNBOUNDED]
        if isinstance(parent, ast.Assign | ast.AnnAssign) and parent.value is node:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            if all(isinstance(t, ast.Name) and t.id in self.full_names for t in targets):
                return [_NEUTRAL]  # an alias: its own uses are reads
            return [_UNBOUNDED]
        if isinstance(parent, ast.Subscript) and parent.value is node:
            bound = self._window(parent.slice)
            return self._reversed_use(parent) if bound == _REVERSED else [bound]
        if isinstance(parent, ast.Call):
            return self._call_use(node, parent)
        if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert) and parent.test is node:
            return [_NEUTRAL]
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            return [_NEUTRAL]
        if isinstance(parent, ast.BoolOp):
            last = parent.values[-1] is node
            if isinstance(parent.op, ast.And) and not last:
                return [_NEUTRAL]  # tested, and handed on only when empty
            return self._use(parent) if self._is_test(parent) else [_UNBOUNDED]
        if isinstance(parent, ast.Compare):
            return [_NEUTRAL if self._emptiness(parent) else _UNBOUNDED]
        return [_UNBOUNDED]

    def _is_test(self, node: ast.AST) -> bool:
        """Whether ``node``'s value is only tested for truth."""
        parent = self.parents.get(id(node))
        if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert):
            return parent.test is node
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            return True
        if isinstance(parent, ast.BoolOp):
            return self._is_test(parent)
        return _called(parent, "bool")

    @staticmethod
    def _emptiness(compare: ast.Compare) -> bool:
        """``h is None``, ``h == []``, ``h != ()``: a test that reads no record."""
        operands = [compare.left, *compare.comparators]
        for op in compare.ops:
            if isinstance(op, ast.Is | ast.IsNot):
                continue
            if isinstance(op, ast.Eq | ast.NotEq) and any(_is_empty_literal(o) for o in operands):
                continue
            return False
        return True

    def _window(self, sl: ast.expr) -> int:
        """The bound of ``h[sl]``: ``_UNBOUNDED``, ``_REVERSED`` or a record count."""
        if isinstance(sl, ast.Slice):
            step = _int(sl.step) if sl.step is not None else 1
            if step == -1 and sl.lower is None and sl.upper is None:
                return _REVERSED
            if step != 1:
                return _UNBOUNDED
            depth = self._from_end(sl.lower)
            upper = _int(sl.upper) if sl.upper is not None else None
            if depth is None or (sl.upper is not None and (upper is None or upper >= 0)):
                return _UNBOUNDED
            return depth
        depth = self._from_end(sl)
        return depth if depth is not None else _UNBOUNDED

    def _from_end(self, node: ast.expr | None) -> int | None:
        """``-k``, ``len(h) - k`` or ``max(0, len(h) - k)`` as ``k``; else ``None``."""
        if node is None:
            return None
        value = _int(node)
        if value is not None:
            return -value if value < 0 else None
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Sub)
            and _called(node.left, "len")
            and len(node.left.args) == 1
            and self._is_full(node.left.args[0])
        ):
            k = _int(node.right)
            return k if k is not None and k > 0 else None
        if _called(node, "max") and len(node.args) == 2:
            first, second = node.args
            if _int(first) == 0:
                return self._from_end(second)
            if _int(second) == 0:
                return self._from_end(first)
        return None

    def _reversed_use(self, node: ast.AST) -> list[int]:
        """The history reversed: a literal head of it (``[:k]``, ``[j]``) is a tail bound."""
        parent = self.parents.get(id(node))
        if _called(parent, "list") or _called(parent, "tuple"):
            return self._reversed_use(parent)
        if isinstance(parent, ast.Subscript) and parent.value is node:
            sl = parent.slice
            if isinstance(sl, ast.Slice):
                lower_ok = sl.lower is None or _int(sl.lower) == 0
                upper = _int(sl.upper)
                if lower_ok and sl.step is None and upper is not None and upper > 0:
                    return [upper]
                return [_UNBOUNDED]
            index = _int(sl)
            return [index + 1] if index is not None and index >= 0 else [_UNBOUNDED]
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name):
            if parent.func.id == "next" and parent.args and parent.args[0] is node:
                return [1]
            if parent.func.id == "islice" and len(parent.args) == 2 and parent.args[0] is node:
                stop = _int(parent.args[1])
                return [stop] if stop is not None and stop > 0 else [_UNBOUNDED]
        return [_UNBOUNDED]

    def _call_use(self, node: ast.AST, call: ast.Call) -> list[int]:
        func = call.func
        if isinstance(func, ast.Name) and func.id not in self.functions:
            if func.id in {"len", "bool"} and call.args == [node]:
                return [_NEUTRAL]
            if func.id == "reversed" and call.args == [node]:
                return self._reversed_use(call)
            return [_UNBOUNDED]
        if isinstance(func, ast.Name):
            return self._passed_to(func.id, node, call)
        return [_UNBOUNDED]

    def _passed_to(self, name: str, node: ast.AST, call: ast.Call) -> list[int]:
        """The history handed to a ``def`` of the program: its parameter's uses are the reads."""
        out: list[int] = []
        for fdef in self.functions.get(name, []):
            params = [a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args]]
            if fdef.name == "__init__" and params[:1] == ["self"]:
                params = params[1:]
            param = None
            for index, arg in enumerate(call.args):
                if arg is node and not any(isinstance(a, ast.Starred) for a in call.args[:index]):
                    param = params[index] if index < len(params) else None
            for kw in call.keywords:
                if kw.value is node:
                    kwonly = [a.arg for a in fdef.args.kwonlyargs]
                    param = kw.arg if kw.arg in params or kw.arg in kwonly else None
            if param is None:
                return [_UNBOUNDED]
            out.extend(self._param_reads(fdef, param))
        return out or [_UNBOUNDED]

    def _param_reads(self, fdef: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> list[int]:
        key = (id(fdef), param)
        if key in self.visited_params:
            return []  # a recursive call: the body's reads are counted once
        self.visited_params.add(key)
        uses: list[ast.Name] = []
        own = {id(a) for a in ast.walk(fdef.args)}
        for node in ast.walk(fdef):
            if isinstance(node, ast.Name) and node.id == param:
                if not isinstance(node.ctx, ast.Load):
                    return [_UNBOUNDED]  # rebound in the body: not followed
                uses.append(node)
            elif isinstance(node, ast.arg) and node.arg == param and id(node) not in own:
                return [_UNBOUNDED]  # shadowed by a nested def or lambda
        self.param_nodes.update(id(n) for n in uses)
        return [b for n in uses if not self._is_full(self.parents[id(n)]) for b in self._use(n)]

"""A forgiving structural parser for Ruby: statements, blocks and call chains.

Data-flow analysis needs to know which statement a token belongs to, which
block a record variable is bound in and which method a block is passed to —
not operator precedence. So an expression here is a flat list of *items*:
call chains (``h.select { |r| ... }.map(&:x)[0]``) and operator tokens between
them. Statements (assignment, ``if``/``unless``/``case``/loops, ``def``,
modifiers) and blocks (``{ |x| }``, ``do |x| end``) are real structure.
Anything that breaks that structure (an ``end`` too many, an unclosed
bracket) raises ``RubySyntaxError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ._ruby_lexer import RubySyntaxError, Token, tokenize

ASSIGN_OPS: Final = frozenset(
    {"=", "||=", "&&=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", "|=", "&=", "^="}
)
_MODIFIERS: Final = frozenset({"if", "unless", "while", "until", "rescue"})
_CLAUSE_KEYWORDS: Final = frozenset(
    {"end", "else", "elsif", "when", "in", "then", "rescue", "ensure", "do"}
)
_VALUE_KW: Final = frozenset({"self", "true", "false", "nil", "__method__"})
_CALL_KW: Final = frozenset({"super", "yield", "defined?"})
_CTRL_KW: Final = frozenset({"if", "unless", "while", "until", "case", "begin", "for", "def"})


@dataclass(slots=True, eq=False)
class Block:
    """``{ |params| body }`` or ``do |params| body end``; ``numbered`` when it has no params."""

    params: list[str]
    body: list[Stmt]
    start: int
    end: int


@dataclass(slots=True, eq=False)
class Suffix:
    """One link of a chain: ``.name(args) {block}`` (kind ``call``) or ``[args]`` (``index``)."""

    kind: str
    name: str
    args: list[Expr]
    parens: bool
    block: Block | None
    start: int
    end: int


@dataclass(slots=True, eq=False)
class Chain:
    """An operand: a head (name, literal, group, array, hash, lambda, control) and its suffixes.

    ``head_args``/``head_block`` belong to a head that is a call (``foo(x) { }``);
    ``inner`` holds a group's statements, or the parsed interpolations of a string.
    """

    head_kind: str
    head: Token | None
    head_args: list[Expr] | None = None
    head_block: Block | None = None
    inner: list[Stmt] = field(default_factory=list)
    elements: list[Expr] = field(default_factory=list)
    ctrl: Stmt | None = None
    suffixes: list[Suffix] = field(default_factory=list)
    start: int = 0
    end: int = 0


Item = Chain | Token


@dataclass(slots=True, eq=False)
class Expr:
    """A flat run of operands (chains) and operator/label tokens."""

    items: list[Item]
    start: int
    end: int


@dataclass(slots=True, eq=False)
class Stmt:
    """One statement.

    kind: ``expr``, ``assign``, ``if`` (also ``unless``, modifiers, ``case``
    branches), ``case``, ``while``, ``for``, ``def``, ``begin``, ``class``,
    ``return``, ``next``, ``break``, ``redo``.
    """

    kind: str
    start: int
    end: int = 0
    expr: Expr | None = None
    targets: list[Expr] = field(default_factory=list)
    op: str = ""
    # (condition or None for else/plain bodies, body)
    branches: list[tuple[Expr | None, list[Stmt]]] = field(default_factory=list)
    subject: Expr | None = None
    names: list[str] = field(default_factory=list)
    name: str = ""
    negated: bool = False
    modifier: bool = False


class Parser:
    """Recursive descent over a token list; ``program()`` once."""

    def __init__(self, tokens: list[Token]) -> None:
        self.t = tokens
        self.n = len(tokens)
        self.i = 0

    # -- token helpers -----------------------------------------------------------

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.t[j] if j < self.n else None

    def at(self, kind: str, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind and (not texts or tok.text in texts)

    def advance(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise RubySyntaxError("unexpected end of code")
        self.i += 1
        return tok

    def expect(self, kind: str, text: str, opened: Token | None) -> None:
        if self.at(kind, text):
            self.i += 1
            return
        where = f" opened at line {opened.line}" if opened is not None else ""
        found = self.peek()
        got = f"'{found.text}' at line {found.line}" if found else "end of code"
        raise RubySyntaxError(f"expected '{text}'{where}, found {got}")

    def skip_nl(self) -> None:
        while self.i < self.n and self.t[self.i].kind == "nl":
            self.i += 1

    # -- statements ----------------------------------------------------------------

    def program(self) -> list[Stmt]:
        body = self.body(frozenset())
        if self.i < self.n:
            tok = self.t[self.i]
            raise RubySyntaxError(f"unexpected '{tok.text}' at line {tok.line}")
        return body

    def body(self, terms: frozenset[str]) -> list[Stmt]:
        stmts: list[Stmt] = []
        while True:
            self.skip_nl()
            tok = self.peek()
            if tok is None:
                return stmts
            if tok.kind in {"kw", "op"} and tok.text in terms:
                return stmts
            if (tok.kind == "kw" and tok.text in _CLAUSE_KEYWORDS) or (
                tok.kind == "op" and tok.text in {")", "]", "}"}
            ):
                raise RubySyntaxError(f"unexpected '{tok.text}' at line {tok.line}")
            before = self.i
            stmts.append(self.statement())
            if self.i == before:  # never loop without progress on odd input
                raise RubySyntaxError(f"cannot parse '{tok.text}' at line {tok.line}")

    def statement(self) -> Stmt:
        start = self.i
        tok = self.peek()
        assert tok is not None
        if tok.kind == "kw" and tok.text in _CTRL_KW | {"class", "module"}:
            stmt = self.control()
        elif tok.kind == "kw" and tok.text in {"return", "next", "break", "redo", "retry"}:
            self.i += 1
            stmt = Stmt(tok.text, start)
            if not self.at_statement_end():
                stmt.expr = self.expr()
        elif tok.kind == "kw" and tok.text in {"alias", "undef", "BEGIN", "END"}:
            while self.i < self.n and self.t[self.i].kind != "nl":
                self.i += 1
            stmt = Stmt("expr", start, expr=Expr([], start, self.i))
        else:
            stmt = self.expression_statement()
        stmt.end = self.i
        while self.at("kw", *_MODIFIERS):
            kw = self.advance().text
            cond = self.expr()
            kind = "while" if kw in {"while", "until"} else "if"
            stmt = Stmt(
                kind,
                start,
                self.i,
                branches=[(cond, [stmt])],
                negated=kw in {"unless", "until"},
                modifier=True,
            )
            if kw == "rescue":
                stmt.branches = [(None, stmt.branches[0][1]), (cond, [])]
        return stmt

    def at_statement_end(self) -> bool:
        tok = self.peek()
        if tok is None or tok.kind == "nl":
            return True
        if tok.kind == "kw" and (tok.text in _MODIFIERS or tok.text in _CLAUSE_KEYWORDS):
            return True
        return tok.kind == "op" and tok.text in {")", "}", "]"}

    def expression_statement(self) -> Stmt:
        start = self.i
        expr = self.expr()
        for idx, item in enumerate(expr.items):
            if isinstance(item, Token) and item.kind == "op" and item.text in ASSIGN_OPS:
                targets = _split_commas(expr.items[:idx], expr.start)
                value = Expr(
                    expr.items[idx + 1 :], _item_start(expr.items, idx + 1, expr.end), expr.end
                )
                return Stmt("assign", start, self.i, expr=value, targets=targets, op=item.text)
        return Stmt("expr", start, self.i, expr=expr)

    def control(self) -> Stmt:
        tok = self.advance()
        start = self.i - 1
        kw = tok.text
        if kw in {"if", "unless"}:
            stmt = Stmt("if", start, negated=kw == "unless")
            cond = self.expr(stop=frozenset({"then"}))
            self.skip_then()
            stmt.branches.append((cond, self.body(frozenset({"elsif", "else", "end"}))))
            while self.at("kw", "elsif"):
                self.i += 1
                cond = self.expr(stop=frozenset({"then"}))
                self.skip_then()
                stmt.branches.append((cond, self.body(frozenset({"elsif", "else", "end"}))))
            if self.at("kw", "else"):
                self.i += 1
                stmt.branches.append((None, self.body(frozenset({"end"}))))
        elif kw in {"while", "until"}:
            stmt = Stmt("while", start, negated=kw == "until")
            cond = self.expr(no_do=True)
            if self.at("kw", "do"):
                self.i += 1
            stmt.branches.append((cond, self.body(frozenset({"end"}))))
        elif kw == "for":
            stmt = Stmt("for", start)
            while self.peek() is not None and not self.at("kw", "in"):
                name = self.advance()
                if name.kind == "ident":
                    stmt.names.append(name.text)
            self.expect("kw", "in", tok)
            stmt.subject = self.expr(no_do=True)
            if self.at("kw", "do"):
                self.i += 1
            stmt.branches.append((None, self.body(frozenset({"end"}))))
        elif kw == "case":
            stmt = Stmt("case", start)
            if not self.at_statement_end():
                stmt.subject = self.expr()
            self.skip_nl()
            while self.at("kw", "when", "in"):
                self.i += 1
                cond = self.expr(stop=frozenset({"then"}))
                self.skip_then()
                stmt.branches.append((cond, self.body(frozenset({"when", "in", "else", "end"}))))
            if self.at("kw", "else"):
                self.i += 1
                stmt.branches.append((None, self.body(frozenset({"end"}))))
        elif kw == "def":
            return self.definition(tok, start)
        elif kw in {"class", "module"}:
            stmt = Stmt("class", start)
            while self.peek() is not None and not self.at("nl"):
                self.i += 1
            stmt.branches = self.rescue_bodies(frozenset({"end"}))
        else:  # begin
            stmt = Stmt("begin", start)
            stmt.branches = self.rescue_bodies(frozenset({"end"}))
        self.expect("kw", "end", tok)
        stmt.end = self.i
        return stmt

    def skip_then(self) -> None:
        if self.at("kw", "then"):
            self.i += 1

    def rescue_bodies(self, terms: frozenset[str]) -> list[tuple[Expr | None, list[Stmt]]]:
        """A body with optional ``rescue``/``else``/``ensure`` clauses (begin, def, do-blocks)."""
        clause_terms = terms | {"rescue", "else", "ensure"}
        branches: list[tuple[Expr | None, list[Stmt]]] = [(None, self.body(clause_terms))]
        while self.at("kw", "rescue", "else", "ensure"):
            kw = self.advance().text
            cond = None
            if kw == "rescue" and not self.at_statement_end():
                cond = self.expr(stop=frozenset({"then"}))
            self.skip_then()
            branches.append((cond, self.body(clause_terms)))
        return branches

    def definition(self, tok: Token, start: int) -> Stmt:
        stmt = Stmt("def", start)
        name = self.advance()
        if self.at("op", ".") and name.kind in {"kw", "const", "ident"}:
            self.i += 1
            name = self.advance()
        stmt.name = name.text
        if self.at("op", "("):
            opened = self.advance()
            stmt.names = self.params(")", opened)
        elif not self.at("nl") and not self.at("op", "="):
            stmt.names = self.params("", tok)
        if self.at("op", "="):  # endless def: ``def name(x) = expr``
            self.i += 1
            body_start = self.i
            body = [Stmt("expr", body_start, expr=self.expr())]
            body[0].end = self.i
            stmt.branches = [(None, body)]
            stmt.end = self.i
            return stmt
        stmt.branches = self.rescue_bodies(frozenset({"end"}))
        self.expect("kw", "end", tok)
        stmt.end = self.i
        return stmt

    def params(self, closer: str, opened: Token) -> list[str]:
        """Parameter names up to ``closer`` (or the end of the line); defaults skipped."""
        names: list[str] = []
        depth = 0
        skipping = False
        while True:
            tok = self.peek()
            if tok is None:
                if closer:
                    raise RubySyntaxError(f"unclosed '(' of line {opened.line}")
                return names
            if not closer and tok.kind == "nl" and depth == 0:
                return names
            self.i += 1
            if tok.kind == "op" and tok.text in {"(", "[", "{"}:
                depth += 1
            elif tok.kind == "op" and tok.text in {")", "]", "}"}:
                if depth == 0 and tok.text == closer:
                    return names
                depth -= 1
            elif depth == 0 and tok.kind == "op" and tok.text == ",":
                skipping = False
            elif depth == 0 and tok.kind == "op" and tok.text == "=":
                skipping = True
            elif not skipping and tok.kind == "ident":
                names.append(tok.text)
            elif not skipping and tok.kind == "label":
                names.append(tok.text)
                skipping = True  # ``key: default``

    def block_params(self) -> list[str]:
        self.skip_nl()
        if self.at("op", "||"):
            self.i += 1
            return []
        if not self.at("op", "|"):
            return []
        opened = self.advance()
        names: list[str] = []
        skipping = False
        depth = 0
        while True:
            tok = self.peek()
            if tok is None:
                raise RubySyntaxError(f"unclosed block parameters of line {opened.line}")
            self.i += 1
            if tok.kind == "op" and tok.text == "|" and depth == 0:
                return names
            if tok.kind == "op" and tok.text in {"(", "["}:
                depth += 1
            elif tok.kind == "op" and tok.text in {")", "]"}:
                depth -= 1
            elif tok.kind == "op" and tok.text == ",":
                skipping = False
            elif tok.kind == "nl" and tok.text == ";":
                skipping = False  # block-local variables follow
            elif tok.kind == "op" and tok.text == "=":
                skipping = True
            elif not skipping and tok.kind in {"ident", "label"}:
                names.append(tok.text)

    # -- expressions -----------------------------------------------------------------

    def expr(
        self,
        *,
        no_do: bool = False,
        stop: frozenset[str] = frozenset(),
        in_brackets: bool = False,
        stop_at_comma: bool = False,
    ) -> Expr:
        start = self.i
        items: list[Item] = []
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok.kind == "nl":
                if in_brackets or (items and _continues(items[-1])):
                    self.i += 1
                    continue
                j = self.i
                while j < self.n and self.t[j].kind == "nl":
                    j += 1
                if (
                    items
                    and j < self.n
                    and self.t[j].kind == "op"
                    and self.t[j].text in {".", "&."}
                ):
                    self.i = j  # leading-dot method chain on the next line
                    self._postfix_onto(items, no_do)
                    continue
                break
            if tok.kind == "kw":
                if tok.text in {"and", "or", "not"}:
                    items.append(self.advance())
                    continue
                if tok.text in stop or tok.text in _CLAUSE_KEYWORDS:
                    break
                if tok.text in _MODIFIERS and items and not _is_operator(items[-1]):
                    break
            if tok.kind == "op":
                if tok.text in {")", "]", "}"}:
                    break
                if tok.text == "," and stop_at_comma:
                    break
                if tok.text in {"(", "[", "{", "->"} or (
                    tok.text == "::" and (not items or _is_operator(items[-1]))
                ):
                    # a spaced ``(``/``[`` after an operand (``puts [1]``) is an argument
                    items.append(self.operand(no_do))
                    continue
                items.append(self.advance())
                continue
            if tok.kind == "label":
                items.append(self.advance())
                continue
            items.append(self.operand(no_do))
        return Expr(items, start, self.i)

    def _postfix_onto(self, items: list[Item], no_do: bool) -> None:
        last = items[-1]
        if isinstance(last, Chain):
            self.postfix(last, no_do)
        else:
            chain = Chain("group", None, start=self.i)
            self.postfix(chain, no_do)
            items.append(chain)

    def operand(self, no_do: bool) -> Chain:
        start = self.i
        tok = self.advance()
        chain: Chain
        if tok.kind == "ident" or (tok.kind == "kw" and tok.text in _CALL_KW):
            chain = Chain("name", tok, start=start)
            if self.at("op", "(") and not self.t[self.i].spaced:
                chain.head_args = self.args(")")
        elif tok.kind == "const":
            chain = Chain("const", tok, start=start)
            if self.at("op", "(") and not self.t[self.i].spaced:
                chain.head_args = self.args(")")
        elif tok.kind in {"ivar", "gvar"}:
            chain = Chain("name", tok, start=start)
        elif tok.kind == "kw" and tok.text in _VALUE_KW:
            chain = Chain("lit", tok, start=start)
        elif tok.kind == "kw" and tok.text in _CTRL_KW:
            self.i -= 1
            chain = Chain("ctrl", tok, ctrl=self.control(), start=start)
        elif tok.kind in {"str", "regex", "symbol"}:
            chain = Chain("lit", tok, start=start)
            chain.inner = [s for part in tok.parts for s in _parse_tokens(list(part))]
        elif tok.kind == "num":
            chain = Chain("lit", tok, start=start)
        elif tok.kind == "op" and tok.text == "(":
            chain = Chain("group", tok, inner=self.body(frozenset({")"})), start=start)
            self.expect("op", ")", tok)
        elif tok.kind == "op" and tok.text == "[":
            self.i -= 1
            chain = Chain("array", tok, elements=self.args("]"), start=start)
        elif tok.kind == "op" and tok.text == "{":
            self.i -= 1
            chain = Chain("hash", tok, elements=self.args("}"), start=start)
        elif tok.kind == "op" and tok.text == "->":
            params: list[str] = []
            if self.at("op", "("):
                opened = self.advance()
                params = self.params(")", opened)
            elif self.at("ident"):
                params = self.params("", tok)
            block = self.block(no_do=False)
            if block is None:
                raise RubySyntaxError(f"lambda without a body at line {tok.line}")
            block.params = params + block.params
            chain = Chain("lambda", tok, head_block=block, start=start)
        elif tok.kind == "op" and tok.text == "::" and self.at("const"):
            chain = Chain("const", self.advance(), start=start)
        else:
            chain = Chain("lit", tok, start=start)
        self.postfix(chain, no_do)
        return chain

    def postfix(self, chain: Chain, no_do: bool) -> None:
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok.kind == "op" and tok.text in {".", "&.", "::"}:
                start = self.i
                self.i += 1
                self.skip_nl()
                name_tok = self.peek()
                if name_tok is None:
                    raise RubySyntaxError(f"method name expected after '.' at line {tok.line}")
                self.i += 1
                suffix = Suffix("call", name_tok.text, [], False, None, start, self.i)
                if name_tok.kind == "op" and name_tok.text == "(":  # ``.()`` is ``.call()``
                    self.i -= 1
                    suffix.name = "call"
                if self.at("op", "(") and not self.t[self.i].spaced:
                    suffix.args = self.args(")")
                    suffix.parens = True
                suffix.block = self.block(no_do)
                suffix.end = self.i
                chain.suffixes.append(suffix)
                continue
            if tok.kind == "op" and tok.text == "[" and not tok.spaced:
                start = self.i
                args = self.args("]")
                chain.suffixes.append(Suffix("index", "[]", args, True, None, start, self.i))
                continue
            if _takes_block(chain):
                block = self.block(no_do)
                if block is not None:
                    if chain.suffixes:
                        chain.suffixes[-1].block = block
                        chain.suffixes[-1].end = self.i
                    else:
                        chain.head_block = block
                    continue
            break
        chain.end = self.i

    def block(self, no_do: bool) -> Block | None:
        """A ``{ |x| ... }`` or ``do |x| ... end`` block at the cursor, if one starts here."""
        tok = self.peek()
        if tok is None:
            return None
        start = self.i
        if tok.kind == "op" and tok.text == "{":
            self.i += 1
            params = self.block_params()
            body = self.body(frozenset({"}"}))
            self.expect("op", "}", tok)
            return Block(params, body, start, self.i)
        if tok.kind == "kw" and tok.text == "do" and not no_do:
            self.i += 1
            params = self.block_params()
            branches = self.rescue_bodies(frozenset({"end"}))
            self.expect("kw", "end", tok)
            body = branches[0][1]
            if len(branches) > 1:
                body = [Stmt("begin", start, self.i, branches=branches)]
            return Block(params, body, start, self.i)
        return None

    def args(self, closer: str) -> list[Expr]:
        """Comma-separated expressions between the bracket at the cursor and ``closer``."""
        opened = self.advance()
        out: list[Expr] = []
        while True:
            self.skip_nl()
            tok = self.peek()
            if tok is None:
                raise RubySyntaxError(f"unclosed '{opened.text}' of line {opened.line}")
            if tok.kind == "op" and tok.text == closer:
                self.i += 1
                return out
            if tok.kind == "op" and tok.text == ",":
                self.i += 1
                continue
            before = self.i
            out.append(self.expr(in_brackets=True, stop_at_comma=True))
            if self.i == before:
                raise RubySyntaxError(f"unexpected '{tok.text}' at line {tok.line}")


def _continues(item: Item) -> bool:
    """A line ending in an operator, comma or label continues on the next line."""
    if isinstance(item, Chain):
        return False
    if item.kind == "label":
        return True
    if item.kind == "kw":
        return item.text in {"and", "or", "not"}
    return item.kind == "op" and item.text not in {")", "]", "}"}


def _is_operator(item: Item) -> bool:
    return isinstance(item, Token) and item.kind in {"op", "kw", "label"}


def _takes_block(chain: Chain) -> bool:
    """``foo {`` and ``x.each {`` take a block; ``[1] {`` or ``"s" {`` cannot."""
    if chain.suffixes:
        return chain.suffixes[-1].kind == "call" and chain.suffixes[-1].block is None
    if chain.head_block is not None:
        return False
    return chain.head_kind in {"name", "const"}


def _split_commas(items: list[Item], start: int) -> list[Expr]:
    parts: list[Expr] = []
    current: list[Item] = []
    for item in items:
        if isinstance(item, Token) and item.kind == "op" and item.text == ",":
            parts.append(Expr(current, start, start))
            current = []
        else:
            current.append(item)
    parts.append(Expr(current, start, start))
    return [p for p in parts if p.items]


def _item_start(items: list[Item], idx: int, default: int) -> int:
    if idx < len(items):
        item = items[idx]
        if isinstance(item, Chain):
            return item.start
    return default


def _parse_tokens(tokens: list[Token]) -> list[Stmt]:
    """Statements of an interpolation; broken interpolations are ignored, not fatal."""
    try:
        return Parser(tokens).program()
    except RubySyntaxError:
        return []


def parse(code: str) -> tuple[list[Token], list[Stmt]]:
    """Tokens and statements of ``code``; raises ``RubySyntaxError``."""
    tokens = tokenize(code)
    return tokens, Parser(tokens).program()

"""A Ruby tokenizer good enough for data-flow analysis of generated code.

No Ruby parser on PyPI is worth the dependency, and analysis needs far less
than a parser: identifiers, literals (so a history name in a string or comment
is not a read), interpolations (whose code *is* code), brackets and keywords.
The ambiguous spots of Ruby's grammar (``/`` as regex or division, ``%`` as
literal or modulo, ``<<`` as heredoc or append, ``:`` as symbol, label or
ternary) are resolved the way Ruby resolves them for ordinary code: by whether
the previous token ends a value and by surrounding spaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

KEYWORDS: Final = frozenset(
    {
        "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else",
        "elsif", "end", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not",
        "or", "redo", "rescue", "retry", "return", "self", "super", "then", "true", "undef",
        "unless", "until", "when", "while", "yield", "__method__", "BEGIN", "END",
    }
)  # fmt: skip

# Longest first, so ``**=`` wins over ``**`` over ``*``.
_OPERATORS: Final = (
    "**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||=", "&.",
    "**", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>", "=~", "!~", "..", "::", "->", "=>",
    "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=",
    "+", "-", "*", "/", "%", "=", "<", ">", "!", "&", "|", "^", "~", "?", ":", ",", ".",
    "(", ")", "[", "]", "{", "}",
)  # fmt: skip

_OPERATORS_BY_FIRST: Final = {
    first: tuple(op for op in _OPERATORS if op[0] == first)
    for first in {op[0] for op in _OPERATORS}
}

_VALUE_KEYWORDS: Final = frozenset({"end", "self", "true", "false", "nil", "__method__"})
_PAIRS: Final = {"(": ")", "[": "]", "{": "}", "<": ">"}


class RubySyntaxError(Exception):
    """The code is not Ruby we can read (unterminated literal, unbalanced ``end``...)."""


@dataclass(frozen=True, slots=True)
class Token:
    """One Ruby token.

    ``kind`` is one of ident, const, ivar, gvar, symbol, label, str, regex, num,
    kw, op, nl (``;`` and newlines). ``spaced`` says whitespace preceded it.
    ``parts`` holds the tokens of each ``#{...}`` interpolation of a str/regex.
    """

    kind: str
    text: str
    line: int
    spaced: bool = False
    parts: tuple[tuple[Token, ...], ...] = ()


def _ends_value(tok: Token | None) -> bool:
    if tok is None:
        return False
    if tok.kind in {"ident", "const", "ivar", "gvar", "num", "str", "symbol", "regex"}:
        return True
    if tok.kind == "kw":
        return tok.text in _VALUE_KEYWORDS
    return tok.kind == "op" and tok.text in {")", "]", "}"}


def _is_ident_start(ch: str) -> bool:
    return ch.isalpha() or ch == "_" or ord(ch) > 127


def _is_ident_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_" or ord(ch) > 127


class _Lexer:
    def __init__(self, src: str, line: int = 1) -> None:
        self.src = src
        self.i = 0
        self.line = line
        self.tokens: list[Token] = []
        self.spaced = False
        # heredocs whose body starts at the next newline:
        # (terminator, squiggly, interpolates, token index)
        self.pending: list[tuple[str, bool, bool, int]] = []

    def prev(self) -> Token | None:
        return self.tokens[-1] if self.tokens else None

    def add(self, kind: str, text: str, parts: tuple[tuple[Token, ...], ...] = ()) -> None:
        self.tokens.append(Token(kind, text, self.line, self.spaced, parts))
        self.spaced = False

    def value_expected(self) -> bool:
        """Whether the next token starts an operand (so ``/`` is a regex, ``%w`` a literal)."""
        prev = self.prev()
        if not _ends_value(prev):
            return True
        # ``puts /x/`` and ``foo %w[a]``: a command call's argument after a space
        assert prev is not None
        nxt = self.src[self.i + 1] if self.i + 1 < len(self.src) else " "
        return prev.kind == "ident" and self.spaced and not nxt.isspace() and nxt != "="

    def run(self) -> list[Token]:
        src, n = self.src, len(self.src)
        while self.i < n:
            ch = src[self.i]
            at_line_start = self.i == 0 or src[self.i - 1] == "\n"
            if ch in " \t\r\f\v":
                self.spaced = True
                self.i += 1
            elif ch == "\\" and src.startswith("\n", self.i + 1):
                self.i += 2
                self.line += 1
                self.spaced = True
            elif ch == "\n":
                self.add("nl", "\n")
                self.i += 1
                self.line += 1
                if self.pending:
                    self.read_heredocs()
            elif ch == "#":
                end = src.find("\n", self.i)
                self.i = n if end < 0 else end
            elif at_line_start and src.startswith("=begin", self.i):
                end = src.find("\n=end", self.i)
                if end < 0:
                    raise RubySyntaxError(f"unterminated =begin comment at line {self.line}")
                self.line += src.count("\n", self.i, end + 1)
                line_end = src.find("\n", end + 1)
                self.i = n if line_end < 0 else line_end
            elif at_line_start and src.startswith("__END__", self.i):
                break
            elif ch.isdigit():
                self.number()
            elif _is_ident_start(ch):
                self.word()
            elif ch == "@":
                j = self.i + 1
                while j < n and (src[j] == "@" or _is_ident_char(src[j])):
                    j += 1
                self.add("ivar", src[self.i : j])
                self.i = j
            elif ch == "$":
                j = self.i + 1
                if j < n and (_is_ident_char(src[j])):
                    while j < n and _is_ident_char(src[j]):
                        j += 1
                else:
                    j = min(n, j + 1)  # $~, $!, $0 ...
                self.add("gvar", src[self.i : j])
                self.i = j
            elif ch in "\"'`":
                self.string(ch, ch, interpolates=ch != "'", kind="str")
            elif ch == ":" and self.symbol_here():
                self.symbol()
            elif ch == "/" and self.value_expected():
                self.string("/", "/", interpolates=True, kind="regex")
                while self.i < n and src[self.i].isalpha():
                    self.i += 1
            elif (
                (ch == "%" and self.value_expected() and self.percent_literal())
                or (ch == "<" and src.startswith("<<", self.i) and self.heredoc_start())
                or (ch == "?" and self.char_literal())
            ):
                pass
            else:
                self.operator()
        if self.pending:
            raise RubySyntaxError(f"unterminated heredoc {self.pending[0][0]}")
        return self.tokens

    def number(self) -> None:
        src, n, j = self.src, len(self.src), self.i
        while j < n and (src[j].isalnum() or src[j] == "_"):
            j += 1
        # 1.5 but not 1..5 or 1.abs
        if j + 1 < n and src[j] == "." and src[j + 1].isdigit():
            j += 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
        self.add("num", src[self.i : j])
        self.i = j

    def word(self) -> None:
        src, n, j = self.src, len(self.src), self.i
        while j < n and _is_ident_char(src[j]):
            j += 1
        if j < n and src[j] in "?!" and not src.startswith("=", j + 1):
            j += 1
        text = src[self.i : j]
        prev = self.prev()
        after_dot = prev is not None and prev.kind == "op" and prev.text in {".", "&."}
        after_ternary = prev is not None and prev.kind == "op" and prev.text == "?"
        colon = j < n and src[j] == ":" and not src.startswith("::", j)
        # ``key: value`` is a label; ``a ? b :c`` keeps its colon (an op before it)
        if colon and not after_dot and not after_ternary:
            self.add("label", text)
            self.i = j + 1
            return
        if text == "defined" and src.startswith("?", j):
            text, j = "defined?", j + 1
        if after_dot:
            kind = "ident"  # ``.class``, ``.then``: method names, whatever they spell
        elif text in KEYWORDS:
            kind = "kw"
        elif text[0].isupper():
            kind = "const"
        else:
            kind = "ident"
        self.add(kind, text)
        self.i = j

    def symbol_here(self) -> bool:
        src, j = self.src, self.i + 1
        if j >= len(src) or src.startswith("::", self.i):
            return False
        nxt = src[j]
        if not (_is_ident_start(nxt) or nxt in "\"'"):
            return False
        prev = self.prev()
        # ``a ? b : c`` (spaced) is a ternary; ``x ? :a : :b`` and ``[:a]`` are symbols
        return not _ends_value(prev) or self.spaced

    def symbol(self) -> None:
        src, n, j = self.src, len(self.src), self.i + 1
        if src[j] in "\"'":
            self.i = j
            self.string(src[j], src[j], interpolates=src[j] == '"', kind="symbol")
            return
        while j < n and _is_ident_char(src[j]):
            j += 1
        if (
            j < n
            and src[j] in "?!="
            and not src.startswith("==", j)
            and not src.startswith("=>", j)
        ):
            j += 1
        self.add("symbol", src[self.i : j])
        self.i = j

    def char_literal(self) -> bool:
        """``?a`` is a one-character string when a value is expected."""
        src, j = self.src, self.i + 1
        if not self.value_expected() or j >= len(src) or src[j].isspace():
            return False
        if j + 1 < len(src) and _is_ident_char(src[j]) and _is_ident_char(src[j + 1]):
            return False
        self.add("str", src[j])
        self.i = j + 1
        return True

    def percent_literal(self) -> bool:
        src, n, j = self.src, len(self.src), self.i + 1
        kind_char = ""
        if j < n and src[j] in "qQwWiIrsx":
            kind_char = src[j]
            j += 1
        if j >= n or src[j].isalnum() or src[j].isspace():
            return False
        opener = src[j]
        closer = _PAIRS.get(opener, opener)
        self.i = j
        kind = {"r": "regex", "s": "symbol"}.get(kind_char, "str")
        self.string(
            opener, closer, interpolates=kind_char in {"", "Q", "W", "I", "r", "x"}, kind=kind
        )
        if kind == "regex":
            while self.i < n and src[self.i].isalpha():
                self.i += 1
        return True

    def string(self, opener: str, closer: str, *, interpolates: bool, kind: str) -> None:
        """Read a delimited literal starting at ``self.i`` (the opener)."""
        src, n = self.src, len(self.src)
        start_line = self.line
        j = self.i + 1
        depth = 1
        chunks: list[str] = []
        parts: list[tuple[Token, ...]] = []
        while True:
            if j >= n:
                raise RubySyntaxError(f"unterminated string starting at line {start_line}")
            c = src[j]
            if c == "\\":
                chunks.append(src[j : j + 2])
                if src.startswith("\n", j + 1):
                    self.line += 1
                j += 2
                continue
            if c == "\n":
                self.line += 1
            if interpolates and c == "#" and src.startswith("{", j + 1):
                end = self.interpolation_end(j + 2)
                parts.append(tuple(_Lexer(src[j + 2 : end], self.line).run()))
                self.line += src.count("\n", j, end)
                j = end + 1
                continue
            if c == closer and opener != closer:
                depth -= 1
                if depth == 0:
                    break
            elif c == opener and opener != closer:
                depth += 1
            elif c == closer:
                break
            chunks.append(c)
            j += 1
        self.add(kind, "".join(chunks), tuple(parts))
        self.i = j + 1

    def interpolation_end(self, j: int) -> int:
        """Index of the ``}`` closing an interpolation whose code starts at ``j``."""
        src, n = self.src, len(self.src)
        depth = 1
        while j < n:
            c = src[j]
            if c in "\"'":
                k = j + 1
                while k < n and src[k] != c:
                    k += 2 if src[k] == "\\" else 1
                j = k + 1
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        raise RubySyntaxError(f"unterminated interpolation at line {self.line}")

    def heredoc_start(self) -> bool:
        src, n = self.src, len(self.src)
        j = self.i + 2
        squiggly = j < n and src[j] in "~-"
        if squiggly:
            j += 1
        if j >= n:
            return False
        quote = src[j] if src[j] in "\"'`" else ""
        if not quote and not (src[j].isupper() or (squiggly and _is_ident_start(src[j]))):
            return False
        # ``a<<B`` appends; ``puts <<~EOS`` and ``x = <<~EOS`` open a heredoc
        if _ends_value(self.prev()) and not self.spaced:
            return False
        if quote:
            end = src.find(quote, j + 1)
            if end < 0:
                return False
            name, after = src[j + 1 : end], end + 1
        else:
            k = j
            while k < n and _is_ident_char(src[k]):
                k += 1
            name, after = src[j:k], k
        self.pending.append((name, squiggly, quote != "'", len(self.tokens)))
        self.add("str", "")  # body filled in when the line ends
        self.i = after
        return True

    def read_heredocs(self) -> None:
        src, n = self.src, len(self.src)
        for name, squiggly, interpolates, index in self.pending:
            body: list[str] = []
            start_line = self.line
            while True:
                if self.i >= n:
                    raise RubySyntaxError(f"unterminated heredoc {name} from line {start_line}")
                end = src.find("\n", self.i)
                line = src[self.i : n if end < 0 else end]
                self.i = n if end < 0 else end + 1
                self.line += 1
                if (line.strip() if squiggly else line) == name:
                    break
                body.append(line)
            text = "\n".join(body)
            parts: tuple[tuple[Token, ...], ...] = ()
            if interpolates:
                parts = tuple(
                    tuple(_Lexer(text[k + 2 : self_end(text, k + 2)], start_line).run())
                    for k in _interpolation_starts(text)
                )
            old = self.tokens[index]
            self.tokens[index] = Token("str", text, old.line, old.spaced, parts)
        self.pending = []

    def operator(self) -> None:
        src = self.src
        for op in _OPERATORS_BY_FIRST.get(src[self.i], ()):
            if src.startswith(op, self.i):
                kind = "nl" if op == ";" else "op"
                self.add(kind, op)
                self.i += len(op)
                return
        if src[self.i] == ";":
            self.add("nl", ";")
        else:
            self.add("op", src[self.i])  # stray character: kept, never fatal
        self.i += 1


def _interpolation_starts(text: str) -> list[int]:
    starts: list[int] = []
    k = text.find("#{")
    while k >= 0:
        if k == 0 or text[k - 1] != "\\":
            starts.append(k)
        k = text.find("#{", k + 2)
    return starts


def self_end(text: str, j: int) -> int:
    """End of an interpolation inside a heredoc body (unbalanced: end of text)."""
    depth = 1
    while j < len(text):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return len(text)


def tokenize(src: str) -> list[Token]:
    """Tokens of ``src``; comments dropped, ``;`` as ``nl``. Raises ``RubySyntaxError``."""
    return _Lexer(src).run()

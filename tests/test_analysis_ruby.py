"""Ruby analyser: tokenizer edge cases, sources, method-chain ops, hard negatives."""

from __future__ import annotations

import textwrap

import pytest

from recurscope.instrumentation.analysis import analyze_code
from recurscope.instrumentation.analysis._ruby_lexer import RubySyntaxError, tokenize
from recurscope.instrumentation.analysis._ruby_parser import parse


def ops_of(code: str, **kwargs: object) -> frozenset[str] | None:
    """The ops found, or None when the history is not accessed."""
    result = analyze_code(textwrap.dedent(code), "ruby", **kwargs)  # type: ignore[arg-type]
    assert result.method == "tokens", result.error
    return result.ops if result.accessed else None


def kinds(code: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in tokenize(code) if t.kind != "nl"]


# -- tokenizer ----------------------------------------------------------------------------


def test_comments_are_dropped() -> None:
    """A # comment disappears, including one naming the history."""
    assert kinds("x = 1 # context[:conversation_history]") == [
        ("ident", "x"),
        ("op", "="),
        ("num", "1"),
    ]


def test_block_comments_are_dropped() -> None:
    """=begin/=end comments disappear."""
    assert kinds("=begin\nconversation_history\n=end\nx") == [("ident", "x")]


def test_string_interpolation_is_code() -> None:
    """#{...} inside a double-quoted string is tokenized as code; single quotes are text."""
    tok = tokenize('"n=#{h.size}"')[0]
    assert tok.kind == "str"
    assert [t.text for t in tok.parts[0]] == ["h", ".", "size"]
    assert tokenize("'#{h.size}'")[0].parts == ()


def test_symbols_labels_and_ternaries() -> None:
    """:sym is a symbol, key: a label, and a spaced ternary colon an operator."""
    assert kinds("f(key: :sym)") == [
        ("ident", "f"),
        ("op", "("),
        ("label", "key"),
        ("symbol", ":sym"),
        ("op", ")"),
    ]
    assert ("op", ":") in kinds("a ? b : c")
    assert kinds("A::B")[1] == ("op", "::")


def test_regex_versus_division() -> None:
    """/.../ after an operator is a regex; between values it divides."""
    assert kinds("x = /ab+c/i")[2] == ("regex", "ab+c")
    assert kinds("x = a / b")[3] == ("op", "/")
    assert kinds("x = a/b")[3] == ("op", "/")


def test_percent_literals() -> None:
    """%w[] and %r{} are literals; a spaced % between values is modulo."""
    assert kinds("%w[a b]")[0] == ("str", "a b")
    assert kinds("%r{a/b}")[0] == ("regex", "a/b")
    assert kinds("x % 2")[1] == ("op", "%")


def test_heredoc_bodies_are_strings() -> None:
    """A heredoc body is one string token (with interpolations) and code resumes after it."""
    toks = kinds("t = <<~EOS\n  context[:conversation_history]\n  #{h.size}\nEOS\ny = 1\n")
    assert toks[2][0] == "str"
    assert ("ident", "y") in toks
    assert ("symbol", ":conversation_history") not in toks


def test_shovel_is_not_a_heredoc() -> None:
    """``lines << "x"`` appends; ``lines <<~EOS`` would open a heredoc."""
    assert kinds('lines << "x"')[1] == ("op", "<<")


@pytest.mark.parametrize(
    "code",
    ['x = "unterminated', "t = <<~EOS\nbody\n", "=begin\nnever closed\n", "x = '#{"],
)
def test_unterminated_literals_raise(code: str) -> None:
    """Unterminated strings, heredocs and =begin comments are syntax errors."""
    with pytest.raises(RubySyntaxError):
        tokenize(code)


@pytest.mark.parametrize(
    "code",
    ["def f\n  1\n", "x = [1, 2", "end", "foo(1))", "if x\n  y\n"],
)
def test_unbalanced_structure_raises(code: str) -> None:
    """Missing or extra end/brackets are syntax errors."""
    with pytest.raises(RubySyntaxError):
        parse(code)


def test_broken_ruby_is_failed_with_a_best_effort_answer() -> None:
    """Unparsable Ruby is 'failed' with the reason, and the textual fallback still answers."""
    result = analyze_code("h = context[:conversation_history]\nh.each do |r|\n  puts r\n", "ruby")
    assert result.method == "failed"
    assert result.error is not None and result.error.startswith("RubySyntaxError:")
    assert result.accessed


# -- sources --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "context[:conversation_history]",
        "context[:conversation_history] || []",
        'context["conversation_history"]',
        "context.fetch(:conversation_history, [])",
        "context.fetch(:conversation_history) { [] }",
        "context.dig(:conversation_history)",
        "@context[:conversation_history]",
        "conversation_history",
    ],
)
def test_every_history_source_is_access(source: str) -> None:
    """Each Ruby spelling of the history source counts as access and flows through an alias."""
    assert ops_of(f"h = {source}\nresult = h.size") == {"count"}


def test_custom_history_name() -> None:
    """A bare name is history only when listed in history_names."""
    code = "result = messages.select { |m| m[:speaker] == 'tool' }"
    assert ops_of(code) is None
    assert ops_of(code, history_names=["messages"]) == {"filter"}


def test_dig_with_an_index_reads_a_record() -> None:
    """context.dig(:conversation_history, -1, :args) indexes the last record."""
    assert ops_of("result = context.dig(:conversation_history, -1, :args)") == {"index"}


# -- hard negatives ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "# conversation_history\nresult = args.map(&:to_f).sum",
        'note = "conversation_history is empty"\nresult = note.size',
        "prompt = <<~P\n  use context[:conversation_history]\nP\nresult = prompt.lines.size",
        "history = []\n3.times { |i| history << i }\nresult = history.last(2)",
        "s = context[:conversation_summary] || ''\nresult = s.split.group_by(&:size)",
        "snap = { conversation_history: [] }\nresult = snap.keys",
        "result = [:conversation_history, :memory].map(&:to_s)",
        "result = context.key?(:conversation_history)",
        "orders = context[:orders] || []\nresult = orders.select { |o| o[:total] > 1 }.size",
    ],
)
def test_hard_negatives_are_not_access(code: str) -> None:
    """Comments, strings, heredocs, labels, symbols and other keys are not history reads."""
    assert ops_of(code) is None


def test_ops_only_in_statements_that_reach_history() -> None:
    """A select/map chain on other data next to a history read is not attributed to history."""
    code = """
    h = context[:conversation_history] || []
    names = args.select { |a| a.to_s.include?("x") }.map(&:upcase)
    result = { n: h.size, names: names.join(",") }
    """
    assert ops_of(code) == {"count"}


# -- ops ----------------------------------------------------------------------------------------

OP_CASES = [
    ("h.select { |r| r[:ok] }", {"filter"}),
    ("h.reject { |r| r[:ok] }", {"filter"}),
    ("h.filter_map { |r| r[:args] if r[:ok] }", {"filter", "map"}),
    ("h.map { |r| r[:method_name] }", {"map"}),
    ("h.map(&:to_h)", {"map"}),
    ("h.flat_map { |r| r[:args] }", {"map"}),
    ("h.first(3)", {"slice", "peek"}),
    ("h.last(3)", {"slice", "peek"}),
    ("h.take(2)", {"slice", "peek"}),
    ("h.drop(2)", {"slice"}),
    ("h[0..4]", {"slice", "peek"}),
    ("h[-3..]", {"slice", "peek"}),
    ("h[-3..-1]", {"slice", "peek"}),
    ("h[2..5]", {"slice"}),
    ("h[0, 2]", {"slice", "peek"}),
    ("h[1, 2]", {"slice"}),
    ("h.slice(0, 3)", {"slice", "peek"}),
    ("h.size", {"count"}),
    ("h.length", {"count"}),
    ("h.count { |r| r[:ok] }", {"count", "filter"}),
    ("h.find { |r| r[:ok] }", {"find"}),
    ("h.detect { |r| r[:ok] }", {"find"}),
    ("h.any? { |r| r[:ok] }", {"find"}),
    ("h.any?", set()),
    ("h.empty?", set()),
    ("h.sort_by { |r| r[:timestamp] }", {"sort"}),
    ("h.max_by { |r| r[:duration_ms] }", {"sort"}),
    ("h.reverse", set()),
    ("h.group_by { |r| r[:speaker] }", {"group"}),
    ("h.chunk_while { |a, b| a[:speaker] == b[:speaker] }", {"group"}),
    ("h.map { |r| r[:speaker] }.tally", {"map", "group"}),
    ("h.each_with_object(Hash.new(0)) { |r, acc| acc[r[:speaker]] += 1 }", {"group"}),
    ("h.partition { |r| r[:ok] }", {"partition"}),
    ("h.select { |r| r[:args].to_s.include?('refund') }", {"filter", "grep"}),
    ("h.select { |r| r[:method_name] =~ /^get/ }", {"filter", "grep"}),
    ("h.select { |r| r[:method_name].start_with?('get') }", {"filter", "grep"}),
    ("h.map { |r| r[:method_name] }.grep(/conv/)", {"map", "grep"}),
    ("h.map { |r| r[:method_name] }.join(', ')", {"map", "summarize"}),
    ("h.inject('') { |acc, r| acc + r[:method_name] }", {"summarize"}),
    ("h.each { |r| puts r }", {"iterate"}),
    ("h.each_with_index { |r, i| puts i }", {"iterate"}),
    ("h[0]", {"index"}),
    ("h.first", {"index"}),
    ("h.last[:args]", {"index"}),
    ("h.map { |r| r.dig(:outcome_summary, :ok) }", {"map"}),
    ("h", set()),
]


@pytest.mark.parametrize(("snippet", "expected"), OP_CASES)
def test_op_classification(snippet: str, expected: set[str]) -> None:
    """Each documented Ruby form maps to its documented ops."""
    assert ops_of(f"h = context[:conversation_history] || []\nresult = {snippet}") == expected


def test_chain_reports_every_link() -> None:
    """h.select{...}.map{...}.size reports filter, map and count."""
    code = "h = context[:conversation_history]\nresult = h.select { |r| r[:ok] }.map { |r| r[:x] }"
    assert ops_of(code + ".size") == {"filter", "map", "count"}


def test_do_end_blocks_and_trailing_chains() -> None:
    """select do ... end.map do ... end chains like brace blocks."""
    code = """
    h = context[:conversation_history] || []
    out = h.select do |r|
      r[:ok]
    end.map do |r|
      r[:method_name]
    end
    result = out.size
    """
    assert ops_of(code) == {"filter", "map", "count"}


def test_each_loop_forms() -> None:
    """In an each block: guarded append filters, transformed append maps, break finds."""
    head = "h = context[:conversation_history] || []\nout = []\n"
    guarded = "h.each do |r|\n  next unless r[:ok]\n  out << r\nend"
    assert ops_of(head + guarded) == {"filter"}
    mapped = "h.each do |r|\n  out << r[:call_id]\nend"
    assert ops_of(head + mapped) == {"map"}
    found = "h.reverse_each do |r|\n  break if r[:speaker] == 'user'\nend"
    assert ops_of(head + found) == {"find"}
    parted = (
        "a = []\nb = []\nh.each do |r|\n  if r[:ok]\n    a << r\n  else\n    b << r\n  end\nend"
    )
    assert ops_of(head + parted) == {"partition"}


def test_string_building_loop_is_summarize() -> None:
    """Appending interpolated record text to a string is summarize."""
    code = """
    report = ""
    (context[:conversation_history] || []).each do |r|
      report << "#{r[:call_id]}: #{r[:method_name]}\\n"
    end
    result = report
    """
    assert ops_of(code) == {"summarize"}


def test_partition_destructuring_gives_two_histories() -> None:
    """ok, bad = h.partition {...} makes both names history collections."""
    code = """
    ok, bad = (context[:conversation_history] || []).partition { |r| r[:ok] }
    result = bad.map { |r| r[:method_name] }
    """
    assert ops_of(code) == {"partition", "map"}


def test_grouped_records_are_collections() -> None:
    """Per-group size and first after group_by count and index records."""
    code = """
    h = context[:conversation_history] || []
    result = h.group_by { |r| r[:speaker] }.map { |who, recs| [who, recs.size, recs.first] }
    """
    assert ops_of(code) == {"group", "map", "count", "index"}


def test_def_parameter_receives_history() -> None:
    """A def called with history analyses its body with the parameter as history."""
    code = """
    def summarize(records)
      records.map { |r| r[:method_name] }.join("\\n")
    end

    result = summarize(context[:conversation_history] || [])
    """
    assert ops_of(code) == {"map", "summarize"}


def test_def_called_without_parentheses() -> None:
    """A command call ``summarize history`` also passes history to the def."""
    code = """
    def total(records)
      records.size
    end
    history = context[:conversation_history] || []
    result = total history
    """
    assert ops_of(code) == {"count"}


def test_field_join_inside_a_record_is_not_summarize() -> None:
    """Joining one record's args is field work, not a summary of the history."""
    code = """
    h = context[:conversation_history] || []
    result = h.map { |r| (r[:args] || []).join(", ") }
    """
    assert ops_of(code) == {"map"}


def test_case_when_regex_on_a_field_is_grep() -> None:
    """case field when /re/ matches record text against patterns."""
    code = """
    h = context[:conversation_history] || []
    result = h.map do |r|
      case r[:outcome_summary].to_s
      when /timeout/ then :timeout
      else :other
      end
    end
    """
    assert ops_of(code) == {"map", "grep"}

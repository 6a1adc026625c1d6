"""The labelled detector corpus: well-formed labels, the quality target, the CLI command."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from pathlib import Path

import pytest

from recurscope.cli.detector_eval import add_command
from recurscope.instrumentation.analysis import ALL_OPS
from recurscope.instrumentation.analysis.evaluate import (
    CorpusError,
    EvalReport,
    evaluate,
    format_markdown,
    load_labels,
)

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "data" / "detector-corpus"
TARGET = 0.95


def _reference_dir() -> Path | None:
    for candidate in (
        os.environ.get("RECURSCOPE_REFERENCE_DIR"),
        REPO.parent / "shared" / "reference",
        "/work/shared/reference",
    ):
        if candidate and (Path(candidate) / "recurgent" / "logs").is_dir():
            return Path(candidate)
    return None


REFERENCE = _reference_dir()
needs_reference = pytest.mark.skipif(REFERENCE is None, reason="reference logs absent")


@pytest.fixture(scope="module")
def own_corpus_report() -> EvalReport:
    return evaluate(CORPUS, None)


@pytest.fixture(scope="module")
def full_report() -> EvalReport:
    if REFERENCE is None:
        pytest.skip("reference logs absent")
    return evaluate(CORPUS, REFERENCE)


# -- labels -----------------------------------------------------------------------------------


def test_labels_are_well_formed() -> None:
    """labels.json validates: unique ids, known sorted ops, no ops without access."""
    entries = load_labels(CORPUS)
    assert len({e.id for e in entries}) == len(entries)
    for entry in entries:
        assert entry.ops <= ALL_OPS
        assert entry.accessed or not entry.ops
        assert entry.note.strip()
        assert entry.language in {"python", "ruby"}


def test_every_corpus_file_is_labelled_once() -> None:
    """Each program file has exactly one entry and each file entry names an existing file."""
    entries = load_labels(CORPUS)
    files = {e.source[len("file:") :] for e in entries if e.source.startswith("file:")}
    on_disk = {
        str(p.relative_to(CORPUS)) for p in [*CORPUS.glob("python/*.py"), *CORPUS.glob("ruby/*.rb")]
    }
    assert files == on_disk


def test_corpus_size_and_balance() -> None:
    """At least 45 Python and 20 Ruby programs of our own, with positives and negatives."""
    entries = [e for e in load_labels(CORPUS) if e.source.startswith("file:")]
    python = [e for e in entries if e.language == "python"]
    ruby = [e for e in entries if e.language == "ruby"]
    assert len(python) >= 45 and len(ruby) >= 20
    for group in (python, ruby):
        assert any(e.accessed for e in group) and any(not e.accessed for e in group)
    labelled_ops = set().union(*(e.ops for e in entries))
    assert labelled_ops == ALL_OPS - {"len"}  # every op has positives; len is runtime-only


def test_file_entries_match_their_files() -> None:
    """Our own programs have not changed since they were labelled."""
    for entry in load_labels(CORPUS):
        if entry.source.startswith("file:") and entry.code_sha256:
            code = (CORPUS / entry.source[len("file:") :]).read_text(encoding="utf-8")
            assert hashlib.sha256(code.encode()).hexdigest() == entry.code_sha256, entry.id


@needs_reference
def test_every_reference_program_is_labelled() -> None:
    """Every log entry with non-null code in the reference logs has a label."""
    assert REFERENCE is not None
    expected = set()
    for path in sorted((REFERENCE / "recurgent" / "logs").rglob("*.jsonl")):
        rel = path.relative_to(REFERENCE)
        for index, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if json.loads(line).get("code") is not None:
                expected.add(f"reference:{rel}#{index}")
    labelled = {e.source for e in load_labels(CORPUS) if e.source.startswith("reference:")}
    assert labelled == expected


# -- quality target ---------------------------------------------------------------------------


def test_target_on_our_own_programs(own_corpus_report: EvalReport) -> None:
    """Without the reference logs, accessed precision and recall still reach the target."""
    counts = own_corpus_report.counts("ours", "accessed")
    assert counts.precision is not None and counts.precision >= TARGET
    assert counts.recall is not None and counts.recall >= TARGET
    reasons = {s.reason for s in own_corpus_report.skipped}
    assert reasons <= {"reference folder absent"}
    assert all(s.id.startswith("ref/") for s in own_corpus_report.skipped)


def test_target_with_reference_logs(full_report: EvalReport) -> None:
    """With the reference logs, overall accessed precision and recall reach the target."""
    assert not full_report.skipped
    counts = full_report.counts("ours", "accessed")
    assert counts.precision is not None and counts.precision >= TARGET
    assert counts.recall is not None and counts.recall >= TARGET


def test_we_beat_the_baseline_on_ops(full_report: EvalReport) -> None:
    """Our micro-averaged op F1 is above the regex baseline's."""
    ours = full_report.counts("ours", "ops").f1
    baseline = full_report.counts("baseline", "ops").f1
    assert ours is not None and baseline is not None and ours > baseline


def test_report_formats() -> None:
    """The Markdown has the accessed and op tables; the JSON round-trips (corpus files only)."""
    own = evaluate(CORPUS, None)  # needs no reference logs
    text = format_markdown(own)
    assert "### Accessed" in text and "| overall |" in text and "| summarize |" in text
    doc = json.loads(own.to_json())
    assert doc["evaluated"] == own.evaluated > 0
    assert set(doc["scores"]) == {"ours", "baseline"}


# -- drift and errors -------------------------------------------------------------------------


def _write_corpus(root: Path, entries: list[dict[str, object]]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "labels.json").write_text(json.dumps({"entries": entries}), encoding="utf-8")
    return root


def test_drifted_reference_entry_is_skipped_and_named(tmp_path: Path) -> None:
    """A reference entry whose code changed is skipped with a drift reason, not scored."""
    log = tmp_path / "ref" / "logs" / "run.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text(json.dumps({"code": "x = context[:conversation_history]"}) + "\n")
    entry = {
        "id": "ref/run#0",
        "language": "ruby",
        "source": "reference:logs/run.jsonl#0",
        "code_sha256": "0" * 64,
        "accessed": True,
        "ops": [],
        "note": "n",
    }
    corpus = _write_corpus(tmp_path / "corpus", [entry])
    report = evaluate(corpus, tmp_path / "ref")
    assert report.evaluated == 0
    assert [(s.id, s.reason) for s in report.skipped] == [
        ("ref/run#0", "code hash drifted since labelling (relabel the entry)")
    ]
    good = dict(
        entry, code_sha256=hashlib.sha256(b"x = context[:conversation_history]").hexdigest()
    )
    corpus = _write_corpus(tmp_path / "corpus2", [good])
    assert evaluate(corpus, tmp_path / "ref").evaluated == 1


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ("not a list", "must be a list"),
        ([{"id": "a"}], "lacks"),
        (
            [{"id": "a", "language": "python", "source": "file:x.py", "accessed": False,
              "ops": ["map"], "note": "n"}],
            "ops given",
        ),
        (
            [{"id": "a", "language": "python", "source": "file:x.py", "accessed": True,
              "ops": ["bogus"], "note": "n"}],
            "unknown ops",
        ),
        (
            [{"id": "a", "language": "python", "source": "web:x", "accessed": True,
              "ops": [], "note": "n"}],
            "source must start",
        ),
    ],
)  # fmt: skip
def test_malformed_labels_raise_corpus_error(tmp_path: Path, entries: object, message: str) -> None:
    """Malformed labels raise CorpusError saying what is wrong."""
    (tmp_path / "labels.json").write_text(json.dumps(entries), encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        load_labels(tmp_path)


def test_missing_corpus_and_labels_raise_corpus_error(tmp_path: Path) -> None:
    """A missing folder or labels.json raises CorpusError with what to do."""
    with pytest.raises(CorpusError, match="--corpus"):
        load_labels(tmp_path / "nope")
    with pytest.raises(CorpusError, match="missing"):
        load_labels(tmp_path)
    (tmp_path / "labels.json").write_text("{", encoding="utf-8")
    with pytest.raises(CorpusError, match="not valid JSON"):
        load_labels(tmp_path)


# -- CLI -------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="recurscope")
    add_command(parser.add_subparsers(dest="command"))
    return parser


def test_command_help_ends_with_an_example() -> None:
    """detector-eval --help ends with an example line."""
    parser = _parser()
    sub = parser._subparsers._group_actions[0].choices["detector-eval"]  # type: ignore[union-attr]
    assert (
        sub.format_help().rstrip().splitlines()[-1].startswith("Example: recurscope detector-eval")
    )


def test_command_prints_markdown_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """The command prints the Markdown report and returns 0."""
    args = _parser().parse_args(["detector-eval", "--corpus", str(CORPUS), "--reference", "/nope"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "### Accessed" in out and "reference folder absent" in out


@pytest.mark.parametrize("flags", [["--format", "json"], ["--json"]])
def test_command_json(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """--format json (or the old --json) prints a parseable report."""
    args = _parser().parse_args(["detector-eval", "--corpus", str(CORPUS), *flags])
    assert args.func(args) == 0
    assert "scores" in json.loads(capsys.readouterr().out)


def test_command_missing_corpus_exits_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing corpus is a runtime failure: exit 1, the one error form, saying what to do."""
    args = _parser().parse_args(["detector-eval", "--corpus", str(tmp_path / "nope")])
    assert args.func(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("recurscope detector-eval: error: ") and "--corpus" in err


def test_reference_default_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """--reference defaults to $RECURSCOPE_REFERENCE_DIR when set."""
    monkeypatch.setenv("RECURSCOPE_REFERENCE_DIR", "/some/where")
    args = _parser().parse_args(["detector-eval"])
    assert args.reference == "/some/where"

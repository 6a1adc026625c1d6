"""``recurscope sessions`` and ``recurscope quarantine`` against real store files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from recurscope.cli import main
from recurscope.pipeline.ingest.files import ingest
from recurscope.pipeline.store.database import Store
from recurscope.pipeline.testing import add_synthetic_spans

HOSTILE = "\x1b[2J\x1b]0;pwned\x07line\nbreak\x00"


def _spec(session: str, number: int, *, at: float, **fields: Any) -> dict[str, Any]:
    return {"session": session, "at": at, "trace": f"t-{session}", "span": f"s-{number}", **fields}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """Three sessions (one hostile id, one simulated) and a file with quarantined lines."""
    db = tmp_path / "store.duckdb"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('not json\n{"resourceSpans": [{"scopeSpans": [{"spans": [{}]}]}]}\n')
    specs = [
        _spec("alpha", 1, at=0),
        _spec("alpha", 2, at=60),
        _spec(HOSTILE, 3, at=120),
        _spec("sim", 4, at=30, kind="call", resource={"recurscope.origin": "simulated"}),
    ]
    with Store.open(db) as opened:
        add_synthetic_spans(opened.connection, sessions=0, specs=specs)
        ingest([str(bad)], opened)
    return db


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sessions_lists_newest_first_with_origin(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "sessions", "--db", str(store))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("LAST SPAN (UTC)") and len(lines) == 4
    assert lines[2].endswith("alpha") and lines[3].endswith("sim")
    assert "simulated" in lines[3]
    assert "\x1b" not in out and "\x00" not in out  # the hostile id is shown escaped
    assert "\\x1b[2J" in lines[1]


def test_sessions_json_and_filters(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "sessions", "--db", str(store), "--origin", "simulated", "--format", "json"
    )
    assert code == 0
    rows = json.loads(out)
    assert [r["session_id"] for r in rows] == ["sim"] and rows[0]["origins"] == ["simulated"]
    code, out, err = run(capsys, "sessions", "--db", str(store), "--limit", "1")
    assert code == 0 and len(out.splitlines()) == 2
    assert "showing the 1 most recent" in err


def test_sessions_that_match_nothing_say_why_and_exit_1(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "sessions", "--db", str(store), "--service", "nope")
    assert code == 1 and out == ""
    assert err.startswith("recurscope sessions: ") and "nope" in err
    code, _, err = run(
        capsys, "sessions", "--db", str(store), "--since", "2026-03-02", "--until", "2026-03-01"
    )
    assert code != 0 and "--since" in err


def test_sessions_without_a_store_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "sessions", "--db", str(tmp_path / "none.duckdb"))
    assert code == 1 and "recurscope sessions: error: No store at" in err
    assert not (tmp_path / "none.duckdb").exists()


def test_quarantine_counts_by_source_and_reason_then_lists(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "quarantine", "--db", str(store))
    assert code == 0, err
    summary, _, records = out.partition("\n\n")
    assert "invalid_json" in summary and str(store.parent / "bad.jsonl") in summary
    assert "(total)" in summary
    assert "line 1" in records and "excerpt: not json" in records
    code, out, _ = run(capsys, "quarantine", "--db", str(store), "--format", "json")
    payload = json.loads(out)
    total = sum(c["records"] for c in payload["summary"])
    assert total == len(payload["records"]) >= 2


def test_quarantine_source_accepts_a_relative_path_and_unknown_filters_exit_1(
    store: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(store.parent)
    code, out, _ = run(capsys, "quarantine", "--db", str(store), "--source", "bad.jsonl")
    assert code == 0 and "bad.jsonl" in out
    code, out, err = run(capsys, "quarantine", "--db", str(store), "--reason", "made_up")
    assert code == 1 and out == "" and "made_up" in err


def test_an_empty_quarantine_is_good_news(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "clean.duckdb"
    with Store.open(db) as opened:
        add_synthetic_spans(opened.connection, sessions=1)
    code, out, err = run(capsys, "quarantine", "--db", str(db))
    assert code == 0 and out == "" and "no quarantine records" in err


@pytest.mark.integration
def test_both_commands_run_as_the_installed_command(store: Path) -> None:
    for command in ("sessions", "quarantine"):
        done = subprocess.run(
            [sys.executable, "-m", "recurscope.cli", command, "--db", str(store)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr

"""End to end through real processes: agent loop -> spans file -> ingest -> evidence -> report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.integration


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )


def test_spans_from_the_example_become_evidence_and_a_report(tmp_path: Path) -> None:
    """ingest refreshes the evidence tables, and report reads them into a verdict."""
    spans = tmp_path / "spans.jsonl"
    db = tmp_path / "store.duckdb"
    loop = run(
        str(ROOT / "examples" / "agent_loop.py"),
        "--out",
        str(spans),
        "--sessions",
        "3",
        cwd=tmp_path,
    )
    assert loop.returncode == 0, loop.stderr

    ingest = run("-m", "recurscope.cli", "ingest", "--db", str(db), str(spans), cwd=tmp_path)
    assert ingest.returncode == 0, ingest.stderr
    assert "accepted" in ingest.stdout

    con = duckdb.connect(str(db), read_only=True)
    try:
        sessions = con.execute("select count(*) from sessions").fetchone()
        calls = con.execute(
            "select count(*), sum(case when accessed then 1 else 0 end) from calls"
        ).fetchone()
        same_role = con.execute("select count(*) from delegations where same_role").fetchone()
    finally:
        con.close()
    assert sessions == (3,)
    assert calls is not None and calls[0] == 3 * 7 and calls[1] > 0
    assert same_role == (3,)

    again = run("-m", "recurscope.cli", "ingest", "--db", str(db), str(spans), cwd=tmp_path)
    assert again.returncode == 0, again.stderr

    report = run(
        "-m",
        "recurscope.cli",
        "report",
        "--db",
        str(db),
        "--format",
        "json",
        "--prereg",
        str(ROOT / "data" / "preregistration.toml"),
        cwd=tmp_path,
    )
    assert report.returncode == 0, report.stderr
    data = json.loads(report.stdout)
    # Three sessions cannot meet the evidence window: both verdicts say so, by field.
    assert [v["outcome"] for v in data["verdicts"]] == ["insufficient_evidence"] * 2
    assert all("window is not met" in v["reason"] for v in data["verdicts"])
    assert data["window"]["sessions"] == 3 and data["window"]["met"] is False
    markdown = run(
        "-m",
        "recurscope.cli",
        "report",
        "--db",
        str(db),
        "--format",
        "md",
        "--prereg",
        str(ROOT / "data" / "preregistration.toml"),
        cwd=tmp_path,
    )
    assert markdown.returncode == 0 and "ContextView" in markdown.stdout

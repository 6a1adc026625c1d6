"""What a user sees across commands: failures create nothing, summaries name what matters.

Each test runs the real ``recurscope`` command in a subprocess, in a folder of its own, the
way an outside user found these faults: a failed ``ingest`` or ``serve`` left files behind,
an ingest with quarantined records exited 0 without naming them, ``prune`` reported a size
the file did not have and was silent about an unknown session, and after ``recurscope demo``
a plain ``recurscope report`` found no store.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from recurscope.pipeline.testing import synthetic_lines, write_jsonl

ROOT = Path(__file__).resolve().parents[1]
RECURSCOPE = [sys.executable, "-m", "recurscope.cli"]


def recurscope(cwd: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RECURSCOPE_DB"}
    return subprocess.run(
        [*RECURSCOPE, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def tree(folder: Path) -> set[str]:
    """Every file and folder below ``folder``, as relative paths."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def session_lines(session: str, spans: int, *, seed: int) -> bytes:
    """OTLP JSON lines whose spans all belong to ``session``."""
    return b"".join(
        line.replace(b'"stringValue":"c1"', f'"stringValue":"{session}"'.encode())
        for line in synthetic_lines(spans, spans_per_line=10, seed=seed)
    )


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A TCP port on 127.0.0.1 that something else listens on."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


# -- 1, 2: a failed command creates nothing ----------------------------------------------------


class TestFailuresCreateNothing:
    def test_ingest_of_a_missing_path_creates_no_store_and_names_the_path_once(
        self, tmp_path: Path
    ) -> None:
        """`ingest nope.jsonl` exits 1, says what to do, names the path once, writes no file."""
        result = recurscope(tmp_path, "ingest", "nope.jsonl")
        assert result.returncode == 1
        error = next(line for line in result.stderr.splitlines() if "nope.jsonl" in line)
        assert error.count("nope.jsonl") == 1, error
        assert "no such file or directory" in error and "check the path" in error
        assert tree(tmp_path) == set()

    def test_ingest_of_an_empty_folder_or_unmatched_glob_creates_nothing(
        self, tmp_path: Path
    ) -> None:
        """A folder without files and a glob matching nothing fail without creating a store."""
        (tmp_path / "empty").mkdir()
        result = recurscope(tmp_path, "ingest", "--db", "out/s.duckdb", "empty", "none-*.json")
        assert result.returncode == 1
        assert "no file matches this pattern" in result.stderr
        assert tree(tmp_path) == {"empty"}

    def test_ingest_of_a_missing_path_leaves_an_existing_store_unchanged(
        self, tmp_path: Path
    ) -> None:
        """With a store already there, a failed ingest adds no file beside it."""
        write_jsonl(tmp_path / "a.jsonl", 20)
        assert recurscope(tmp_path, "ingest", "a.jsonl").returncode == 0
        before = tree(tmp_path)
        assert recurscope(tmp_path, "ingest", "missing.jsonl").returncode == 1
        assert tree(tmp_path) == before

    def test_serve_on_a_busy_port_creates_no_store_or_spool(
        self, tmp_path: Path, busy_port: int
    ) -> None:
        """`serve --port BUSY` exits 1 naming the port; the folder stays empty."""
        result = recurscope(tmp_path, "serve", "--port", str(busy_port), "--no-grpc")
        assert result.returncode == 1
        assert f"127.0.0.1:{busy_port}" in result.stderr and "--port" in result.stderr
        assert tree(tmp_path) == set()

    def test_serve_on_a_busy_grpc_port_creates_nothing(
        self, tmp_path: Path, busy_port: int
    ) -> None:
        """A taken gRPC port fails before the store and the spool exist."""
        result = recurscope(tmp_path, "serve", "--port", "0", "--grpc-port", str(busy_port))
        assert result.returncode == 1 and "--grpc-port" in result.stderr
        assert tree(tmp_path) == set()

    def test_serve_with_a_file_that_is_not_a_store_creates_no_spool(self, tmp_path: Path) -> None:
        """A --db that is not a DuckDB file fails at start, before a spool is made beside it."""
        (tmp_path / "notes.duckdb").write_text("not a database\n")
        result = recurscope(tmp_path, "serve", "--port", "0", "--no-grpc", "--db", "notes.duckdb")
        assert result.returncode == 1
        assert tree(tmp_path) == {"notes.duckdb"}


# -- 3: the ingest summary names the sources worth a look ----------------------------------------


class TestIngestSummary:
    @pytest.fixture
    def sources(self, tmp_path: Path) -> Path:
        """Nine files: three clean, five with a bad line each (one with two), one empty."""
        folder = tmp_path / "traces"
        folder.mkdir()
        for index in range(3):
            write_jsonl(folder / f"clean-{index}.jsonl", 20, seed=index)
        for index in range(5):
            path = write_jsonl(folder / f"bad-{index}.jsonl", 20, seed=10 + index)
            with path.open("ab") as handle:
                handle.write(b"this is not json\n" * (2 if index == 0 else 1))
        (folder / "empty.jsonl").write_bytes(b"")
        return folder

    def test_quarantined_and_empty_sources_are_named_and_the_exit_code_is_0(
        self, tmp_path: Path, sources: Path
    ) -> None:
        """Each file with quarantined records is named with its count and top reason, the
        empty file is reported as empty, the summary line keeps its form, and the command
        exits 0 (the good records are stored)."""
        result = recurscope(tmp_path, "ingest", "--db", "s.duckdb", "traces")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert re.fullmatch(
            r"ingested 9 sources into s\.duckdb: 160 spans accepted, 6 quarantined, "
            r"0 duplicates skipped in [\d.]+ s \([\d,]+ records/s\)",
            lines[0],
        ), lines[0]
        bad_0 = "  traces/bad-0.jsonl: 2 of 22 records quarantined (top reason: invalid_json, 2)"
        assert bad_0 in lines
        for index in range(1, 5):
            assert (
                f"  traces/bad-{index}.jsonl: 1 of 21 records quarantined "
                "(top reason: invalid_json, 1)" in lines
            )
        assert "  traces/empty.jsonl: empty (0 bytes), nothing to read" in lines
        assert not any("clean-" in line for line in lines)
        assert lines[-1] == "  see the quarantined records: recurscope quarantine --db s.duckdb"
        assert "SELECT" not in result.stdout + result.stderr

    def test_the_pointer_command_lists_those_records(self, tmp_path: Path, sources: Path) -> None:
        """The command the summary points to runs and shows the quarantined records."""
        assert recurscope(tmp_path, "ingest", "--db", "s.duckdb", "traces").returncode == 0
        shown = recurscope(tmp_path, "quarantine", "--db", "s.duckdb")
        assert shown.returncode == 0, shown.stderr
        assert "invalid_json" in shown.stdout and "bad-3.jsonl" in shown.stdout


# -- 4: prune says what it did, and what it did not ---------------------------------------------


class TestPrune:
    @pytest.fixture
    def store(self, tmp_path: Path) -> Path:
        (tmp_path / "spans.jsonl").write_bytes(
            session_lines("alice-7Q2", 40, seed=1) + session_lines("bob-4K9", 40, seed=2)
        )
        assert recurscope(tmp_path, "ingest", "--db", "s.duckdb", "spans.jsonl").returncode == 0
        return tmp_path / "s.duckdb"

    def test_the_size_reported_after_a_rewrite_is_the_size_on_disk(self, store: Path) -> None:
        """`prune --session` reports the bytes the file (and any WAL) has once it is done."""
        result = recurscope(store.parent, "prune", "--db", store.name, "--session", "alice-7Q2")
        assert result.returncode == 0, result.stderr
        found = re.search(
            r"rewrote the file: ([\d,]+) bytes before, ([\d,]+) on disk now", result.stdout
        )
        assert found, result.stdout
        wal = store.with_name(store.name + ".wal")
        on_disk = store.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
        assert int(found.group(2).replace(",", "")) == on_disk
        assert "--rewrite" not in result.stdout

    def test_an_unknown_session_exits_1_and_names_known_ones(self, store: Path) -> None:
        """An id with nothing to delete says so, lists sessions that exist, deletes nothing."""
        before = store.read_bytes()
        result = recurscope(store.parent, "prune", "--db", store.name, "--session", "alice")
        assert result.returncode == 1
        assert "no spans of session 'alice'" in result.stderr
        assert "'alice-7Q2'" in result.stderr and "recurscope sessions" in result.stderr
        assert result.stdout == ""
        assert store.read_bytes() == before

    def test_an_unknown_session_in_a_dry_run_exits_1_too(self, store: Path) -> None:
        """--dry-run of an unknown session is the same mistake, reported the same way."""
        result = recurscope(
            store.parent, "prune", "--db", store.name, "--session", "carol", "--dry-run"
        )
        assert result.returncode == 1 and "no spans of session 'carol'" in result.stderr

    def test_a_date_prune_without_rewrite_suggests_rewrite_only_when_it_deleted(
        self, store: Path
    ) -> None:
        """--before deletes without rewriting (the tip says how to); nothing deleted, no tip."""
        nothing = recurscope(store.parent, "prune", "--db", store.name, "--before", "2000-01-01")
        assert nothing.returncode == 0 and "--rewrite" not in nothing.stdout
        everything = recurscope(store.parent, "prune", "--db", store.name, "--before", "2100-01-01")
        assert everything.returncode == 0
        assert "add --rewrite" in everything.stdout


# -- 5: after the demo, the plain commands work; make clean removes the demo ---------------------


@pytest.mark.slow
class TestDemo:
    @pytest.fixture(scope="class")
    @classmethod
    def demo_folder(cls, tmp_path_factory: pytest.TempPathFactory) -> Path:
        folder = tmp_path_factory.mktemp("demo")
        result = recurscope(folder, "demo", "--prepare-only", "--sessions", "40", timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        (folder / "demo.out").write_text(result.stdout)
        return folder

    def test_plain_report_sessions_and_the_printed_command_work_after_the_demo(
        self, demo_folder: Path
    ) -> None:
        """`recurscope report --include-simulated` and `sessions` find the demo without --db,
        and the report command the demo prints runs as printed."""
        report = recurscope(demo_folder, "report", "--include-simulated")
        assert report.returncode == 0, report.stderr
        assert "including simulated spans" in report.stdout
        sessions = recurscope(demo_folder, "sessions")
        assert sessions.returncode == 0, sessions.stderr
        assert "simulated" in sessions.stdout
        printed = (demo_folder / "demo.out").read_text()
        command = next(
            line.split(": ", 1)[1] for line in printed.splitlines() if "recurscope report" in line
        )
        assert "--include-simulated" in command
        argv = command.split()[1:]
        again = recurscope(demo_folder, *argv)
        assert again.returncode == 0, again.stderr

    def test_the_demo_never_replaces_observed_data(self, tmp_path: Path) -> None:
        """A default store with observed spans is kept; the error says how to run the demo."""
        write_jsonl(tmp_path / "a.jsonl", 10)
        assert recurscope(tmp_path, "ingest", "a.jsonl").returncode == 0
        before = (tmp_path / "data" / "recurscope.duckdb").read_bytes()
        result = recurscope(tmp_path, "demo", "--prepare-only", "--sessions", "5")
        assert result.returncode != 0
        assert "not simulated" in result.stderr and "--db data/demo.duckdb" in result.stderr
        assert (tmp_path / "data" / "recurscope.duckdb").read_bytes() == before
        assert not (tmp_path / "data" / "demo-spans").exists()

    def test_make_clean_removes_every_demo_file(self, demo_folder: Path) -> None:
        """`make clean` leaves no demo data: store, snapshot, access folder, spans, quality."""
        venv = demo_folder / "venv"
        (venv / "bin").mkdir(parents=True)
        python = venv / "bin" / "python"
        python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        python.chmod(0o755)
        result = subprocess.run(
            ["make", "-s", "-f", str(ROOT / "Makefile"), "clean", f"VENV={venv}"],
            cwd=demo_folder,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert "removed data/recurscope.duckdb" in result.stdout
        assert tree(demo_folder / "data") == set()
        assert not venv.exists()

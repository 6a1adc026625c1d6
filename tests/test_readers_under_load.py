"""Every command that only reads goes through the snapshot reader: no lock error under load.

A real ``recurscope serve`` stores spans that the OTel SDK keeps exporting
(recurscope spans from the instrumentation, two roles), while ``report``,
``compare``, ``export``, ``sessions`` and ``quarantine`` run again and again as
separate processes. Each
must succeed without ever printing a lock error: while the receiver holds
the store they read its latest snapshot and say so.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from recurscope.pipeline.testing import ReceiverProcess

LOCK_ERROR = re.compile(r"could not set lock|conflicting lock", re.IGNORECASE)
LOCK_WORD = re.compile(r"\block", re.IGNORECASE)

ROUNDS = 6


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from recurscope.cli import main; sys.exit(main())",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _send(endpoint: str, stop: threading.Event, sent: list[int]) -> None:
    from recurscope.instrumentation import History, Recorder, configure

    telemetry = configure("otlp", endpoint=endpoint, service_name="load", batch=False)
    try:
        n = 0
        while not stop.is_set() and n < 2000:
            recorder = Recorder(
                f"load-{n}", history=History(), tracer_provider=telemetry.tracer_provider
            )
            for role in ("planner", "writer"):
                with recorder.call("step", role=role, code="result = history[-3:]"):
                    pass
            recorder.plan_trim([{"role": "user", "content": "word " * 80}], budget=20)
            n += 1
            sent.append(n)
    finally:
        telemetry.shutdown()


def _roles_stored(db: Path) -> int:
    """Distinct roles in the evidence readers see (0 before the first refresh)."""
    from recurscope.pipeline.errors import PipelineError
    from recurscope.pipeline.store.locking import read_connection

    try:
        with read_connection(db) as view:
            con = view.connection
            if "calls" not in {r[0] for r in con.execute("SHOW TABLES").fetchall()}:
                return 0
            row = con.execute("SELECT count(DISTINCT role) FROM calls").fetchone()
            return int(row[0]) if row else 0
    except PipelineError:
        return 0


@pytest.mark.integration
@pytest.mark.slow
def test_read_commands_never_meet_a_lock_while_serve_writes(tmp_path: Path) -> None:
    """report, compare, export, sessions and quarantine succeed in a loop beside a busy receiver."""
    db = tmp_path / "busy.duckdb"
    stop = threading.Event()
    sent: list[int] = []
    with ReceiverProcess(db) as server:
        sender = threading.Thread(target=_send, args=(server.endpoint, stop, sent))
        sender.start()
        try:
            deadline = time.monotonic() + 90
            while _roles_stored(db) < 2 and time.monotonic() < deadline:
                time.sleep(0.2)
            failures = []
            for round_ in range(ROUNDS):
                for args in (
                    ("report", "--db", str(db), "--format", "json"),
                    ("compare", "--db", str(db), "--by", "role"),
                    ("export", "--db", str(db), "--out", str(tmp_path / f"export-{round_}")),
                    ("sessions", "--db", str(db), "--format", "json"),
                    ("quarantine", "--db", str(db), "--summary"),
                ):
                    result = _cli(*args, cwd=tmp_path)
                    # DuckDB's lock errors, anywhere; the word "lock" in what the command says
                    # (not in the report's own text: a pre-registration may speak of clocks)
                    if (
                        result.returncode != 0
                        or LOCK_ERROR.search(result.stdout + result.stderr)
                        or LOCK_WORD.search(result.stderr)
                    ):
                        failures.append((args[0], result.returncode, result.stderr[-500:]))
            assert not failures, failures
        finally:
            stop.set()
            sender.join(timeout=60)
        assert server.stop() == 0
    assert sent, "the exporter sent nothing"

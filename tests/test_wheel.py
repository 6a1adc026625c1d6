"""A built wheel with the [pipeline] extra works in an empty directory, far from the repository.

What an outside tester does: build the wheel, install it into a fresh
virtual environment, and in an empty temporary directory record spans,
ingest them, read the verdict and measure the detector. Nothing may depend
on the repository being the working directory: the pre-registration and
the labelled detector corpus ship as package data, and the
pre-registration's integrity comes from its registered hash, not from the
install's file times.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.slow, pytest.mark.integration]

PIP_WHEEL = (sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps")

RECORD = r"""
from recurscope.instrumentation import History, Recorder, configure

telemetry = configure("file", path="spans.jsonl", service_name="wheel-check")
for n in range(6):
    history = History()
    history.record(call_id=f"u{n}", speaker="user", method_name="ask", args=["refund order 7"])
    recorder = Recorder(f"s{n}", history=history, tracer_provider=telemetry.tracer_provider)
    code = "errors = [r for r in history if 'refund' in str(r['args'])]"
    with recorder.call("look", role="planner", code=code):
        pass
telemetry.shutdown()
"""


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECURSCOPE_")}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(list(args), capture_output=True, text=True, timeout=600, cwd=cwd, env=env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout, installed with [pipeline] into a fresh venv."""
    where = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [*PIP_WHEEL, "--wheel-dir", str(where / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (where / "dist").glob("recurscope-*.whl")
    env_dir = where / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", f"{wheel}[pipeline]"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    return python


def test_record_ingest_report_and_detector_eval_in_an_empty_directory(
    installed: Path, tmp_path: Path
) -> None:
    work = tmp_path / "empty"
    work.mkdir()
    recurscope = str(installed.parent / "recurscope")

    help_text = _run(installed, recurscope, "--help", cwd=work)
    assert help_text.returncode == 0 and "needs the [pipeline] extra" not in help_text.stdout

    recorded = _run(installed, str(installed), "-c", RECORD, cwd=work)
    assert recorded.returncode == 0, recorded.stderr[-2000:]

    ingest = _run(installed, recurscope, "ingest", "--db", "store.duckdb", "spans.jsonl", cwd=work)
    assert ingest.returncode == 0, ingest.stderr[-2000:]

    report = _run(
        installed, recurscope, "report", "--db", "store.duckdb", "--format", "json", cwd=work
    )
    assert report.returncode == 0, report.stderr[-2000:]
    data = json.loads(report.stdout)
    pre = data["preregistration"]
    assert "site-packages" in pre["path"], pre["path"]  # the shipped file, found from anywhere
    assert pre["interval"] == "studentized" and pre["version"] >= 2
    # Spans recorded now, after registration: a fresh install's file times flag nothing.
    assert not pre["registered_after_start"] and not pre["modified_after_start"]
    assert data["window"]["sessions"] == 6
    assert data["detector_quality_source"] == "measured now on the labelled corpus"
    row = next(r for r in data["primary"] if r["name"] == "contextview_shaped_share")
    assert row["detector"] is not None
    # The clustering's known error comes from the shipped record of its blind runs.
    known = data["boilerplate"]["known_error"]
    assert known is not None and known["scheme"] == data["boilerplate"]["sketch_scheme"]
    assert known["sets"] and known["precision"] is not None

    markdown = _run(installed, recurscope, "report", "--db", "store.duckdb", cwd=work)
    assert markdown.returncode == 0
    assert "Amended pre-registration (version" in markdown.stdout
    assert "detector quality not measured" not in markdown.stdout.lower()
    assert "Known error of the clustering (its " in markdown.stdout

    evaluation = _run(installed, recurscope, "detector-eval", "--json", cwd=work)
    assert evaluation.returncode == 0, evaluation.stderr[-2000:]
    scores = json.loads(evaluation.stdout)["scores"]["ours"]["overall"]
    assert scores

    # Nothing was written outside the working directory's own files.
    assert sorted(p.name for p in work.iterdir() if not p.name.startswith("store")) == [
        "spans.jsonl"
    ]

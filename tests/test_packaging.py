"""The distribution: a wheel install of the base package is the light instrumentation alone."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import importlib.util, json
from recurscope.instrumentation import Recorder, History, MissingExtraError, configure, semconv
from recurscope.instrumentation import __file__ as where
import recurscope.instrumentation as inst
assert "site-packages" in where, where
missing = [m for m in ("opentelemetry.sdk", "grpc", "duckdb", "streamlit", "polars")
           if importlib.util.find_spec(m) is not None]
try:
    configure("file")
    extra = None
except MissingExtraError as exc:
    extra = str(exc)
rec = Recorder("s1", history=History())
with rec.call("m", role="r", code="x = 1") as call:
    recording = call.recording
registry = json.loads(
    (__import__("pathlib").Path(inst.__file__).parent / "semconv_registry.json").read_text())
typed = (__import__("pathlib").Path(inst.__file__).parent / "py.typed").exists()
print(json.dumps({"heavy": missing, "extra": extra, "recording": recording,
                  "registry": registry["version"], "typed": typed}))
"""


@pytest.mark.slow
@pytest.mark.integration
def test_base_wheel_install_is_instrumentation_only(tmp_path: Path) -> None:
    """pip install recurscope (no extras) brings the API and tiktoken, not the SDK, gRPC, DuckDB or Streamlit."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr[-2000:]
    probe = subprocess.run(
        [str(python), "-c", PROBE], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert probe.returncode == 0, probe.stderr[-2000:]
    import json

    result = json.loads(probe.stdout.strip().splitlines()[-1])
    assert result["heavy"] == []
    assert result["extra"] is not None and "recurscope[sdk]" in result["extra"]
    assert result["recording"] is False
    assert result["typed"] is True and result["registry"]


def test_editable_install_maps_the_folders() -> None:
    """The top-level folders import as recurscope.instrumentation / .pipeline / .dashboards."""
    import recurscope.dashboards
    import recurscope.instrumentation
    import recurscope.pipeline

    assert Path(recurscope.instrumentation.__file__).parent == ROOT / "instrumentation"
    assert Path(recurscope.pipeline.__file__).parent == ROOT / "pipeline"
    assert Path(recurscope.dashboards.__file__).parent == ROOT / "dashboards"
    assert sys.modules["recurscope.instrumentation"].__name__ == "recurscope.instrumentation"


def test_every_package_folder_is_listed_in_pyproject() -> None:
    """A new subpackage must be listed in pyproject.toml, or wheels silently lack it."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = set()
    for top in ("instrumentation", "pipeline", "dashboards", "recurscope"):
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top).parts
            base = "recurscope" if top == "recurscope" else f"recurscope.{top}"
            found.add(".".join((base, *rel)))
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    # The others are data-only folders (no __init__.py), listed so setuptools ships
    # their files as package data: each must exist and hold files.
    for name in sorted(listed - found):
        parts = name.split(".")[1:]
        folder = ROOT.joinpath(*parts) if parts[0] != "data" else ROOT / "data"
        assert folder.is_dir() and any(f.is_file() for f in folder.iterdir()), name

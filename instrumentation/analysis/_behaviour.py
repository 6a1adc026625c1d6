"""Behavioural sketches: run a history program on fixed probe histories, hash what reaches its answer.

Two re-spellings of one history program give the same answers; a program
that computes something else from the same fields (the oldest three instead of
the newest three, a sum instead of an average) does not. So instead of reading
the code, this runs it — on three fixed synthetic histories (:mod:`._probes`),
in a separate, limited process per language (``_sandbox_py.py``,
``_sandbox.rb``) — and takes as features which probe records, fields and
values its answers contain, the numbers and truth values it computes, and
which probes it fails on. The answer's wording and shape drop out: only tokens
that come from a probe (or are numbers) count. The features are hashed with
the same MinHash as the static sketch (:func:`._sketch.minhash`), so the
clustering SQL is unchanged. Identifiers, literals and text of the program
never enter: a feature names a probe record (``0:rec:0.04``), a probe value
(``1:method:beta_op``; a program's own literal is put into a probe and found
again as the probe's ``lit:<k>``, never as its text) or a number.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ._probes import atoms, input_keys, literals, probes, record_keys
from ._sketch import encode, minhash

SCHEME: Final = "behaviour-minhash-affine32-64-v1"
_HERE: Final = Path(__file__).parent
_PY_RUNNER: Final = _HERE / "_sandbox_py.py"
_RB_RUNNER: Final = _HERE / "_sandbox.rb"
_MEMORY: Final = 1 << 30
_PER_PROGRAM_SECONDS: Final = 4.0


class SandboxUnavailable(RuntimeError):
    """The language's interpreter is not installed (Ruby for Recurgent logs)."""


def _limit() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _command(language: str) -> list[str]:
    if language == "python":
        return [sys.executable, "-I", "-S", str(_PY_RUNNER)]
    ruby = shutil.which("ruby")
    if ruby is None:
        raise SandboxUnavailable(
            "a behavioural sketch of Ruby code needs the `ruby` interpreter on PATH "
            "(Debian: apt-get install ruby)"
        )
    return [ruby, "--disable-gems", str(_RB_RUNNER)]


def run(codes: Sequence[str], language: str) -> list[list[dict[str, Any]]]:
    """Each program's outcome on each of its probes (``{"ok", "value"|"error"}``).

    One process runs the batch; if it dies (a program exhausted a limit), each
    program is run alone so one program's crash is only its own answer.
    """
    items = [{"code": code, "probes": _probes_for(code, language)} for code in codes]
    if not items:
        return []
    outcomes = _batch(items, language)
    if outcomes is not None:
        return outcomes
    alone = []
    for item in items:
        single = _batch([item], language)
        alone.append(single[0] if single else [{"ok": False, "error": "Crashed"}] * len(item["probes"]))
    return alone


def _batch(items: list[dict[str, Any]], language: str) -> list[list[dict[str, Any]]] | None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    try:
        done = subprocess.run(
            _command(language),
            input=json.dumps({"items": items}),
            capture_output=True,
            text=True,
            timeout=10 + _PER_PROGRAM_SECONDS * len(items),
            preexec_fn=_limit,
            env=env,
            cwd="/",
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    lines = done.stdout.splitlines()
    if len(lines) != len(items):
        return None
    try:
        return [json.loads(line) for line in lines]
    except json.JSONDecodeError:
        return None


def _probes_for(code: str, language: str) -> list[dict[str, Any]]:
    return probes(literals(code, language), record_keys(code), input_keys(code))


def features(code: str, language: str, outcome: list[dict[str, Any]]) -> set[str]:
    """The behaviour features of one program's outcomes on its probes.

    A number or truth value that every probe's answer has alike (a window size,
    ``"checked": 5``, ``"has_goal": true``) is the program's constant, not
    something it read: the probes differ in every count they can be asked, so
    it is dropped.
    """
    lits = literals(code, language)
    per_probe: list[set[str]] = []
    for p, (probe, result) in enumerate(zip(_probes_for(code, language), outcome, strict=True)):
        if result.get("ok"):
            per_probe.append({a.split(":", 1)[1] for a in atoms(result.get("value"), probe, p)})
        else:
            per_probe.append({"error"})
    constants = set.intersection(*per_probe) if per_probe else set()
    constants = {a for a in constants if a.startswith(("num:", "bool:"))}
    found: set[str] = set()
    for p, answer in enumerate(per_probe):
        kept = answer - constants
        found |= {f"{p}:{a}" for a in (kept or {"empty"})}
    return found


def sketches(codes: Sequence[str], language: str) -> list[str]:
    """The behavioural sketch of each program (batched: one sandbox process per call)."""
    outcomes = run(codes, language)
    return [encode(minhash(features(c, language, o))) for c, o in zip(codes, outcomes, strict=True)]

"""Behavioural sketches: run a history program on fixed probe histories, hash what reaches its answer.

Two re-spellings of one history program give the same answers; a program
that computes something else from the same fields (the oldest three instead of
the newest three, a sum instead of an average) does not. So instead of reading
the code, this runs it — on four fixed synthetic histories (:mod:`._probes`),
in a separate, limited process per language (``_sandbox_py.py``,
``_sandbox.rb``) that stays up between programs — and takes as features which
probe records and values its answers contain, the numbers and truth values it
computes, and which probes it fails on. The answer's wording and shape drop
out: only tokens that come from a probe (or are numbers) count. The features
are hashed with the static sketch's MinHash (:func:`._sketch.minhash`), so the
clustering SQL is unchanged.

Identifiers, literals and text of the program never enter: a feature names a
probe record (``0:rec:0.04``), a probe value (``1:method:beta_op``; a literal
the program compares with renames a probe value and is found again as that
value) or a number. What a re-spelling adds around the same answer does not
count: a record's own fields shown beside it are the record, and the input
echoed back, a count of the records shown, outcome words and the history's
size are dropped (:func:`_undecorated`); a named record and a specific number
count twice (:func:`_telling`).

The program also runs on edits of each probe (:mod:`._mutations`: a record
dropped, an outcome flipped, the times stretched, ...), and which edits
change its answer, and whether only its numbers move and which way, is its
footprint (:func:`footprint`): the same for a duration in seconds and in
minutes, a rate and its percent, a count with or without a label. The
sketch is the answers' MinHash followed by the footprint's; both also hold
which of 54 typed texts (a tag, a version, a size, a query, ...) added to a
record change the answer (:func:`typed_features`), so two programs that read
the same records for different kinds of text are apart. Two sketches
whose footprints agree at least 0.95 and answers at least 0.1 are as similar
as their footprints (:func:`._sketch.similarity`); a footprint needs at
least five edits that change the answer (:data:`FOOTPRINT_MIN_EDITS`). The
scheme is ``behaviour-minhash-affine32-64-v16`` (pre-registration version
21; v15, version 20, planted what a program searches texts for once, not
also an earlier, other match (:func:`._probes._second_example`), and kept
a footprint of fewer than five edits; v14,
version 19, had no trigger leaving a field without a value or giving it
another type (:func:`._mutations._kinds`), no typed text of a numbered
list, a link, emphasis, a table, a block quote or HTML, and its typed
texts did not name the record they edit; v13,
version 18, had no typed texts (:func:`typed_features`); v12,
version 17, sketched a program whose answers are all alike by those answers,
and had no composed edits; v11,
version 16, also ran the triggers for a program that gives no answer at
all; v10,
version 15, had no trigger copying another record's value, making an
outcome field disagree or giving a text a shape; v9, version 14, gave a program whose answers are all empty its static sketch
without running its edits or triggers (:func:`trigger_features`); v8, version
13, planted nothing a program searches texts for (:func:`._probes.needles`);
v7, version 12, had no probe with links, quoted phrases, a blank reply, boolean keyword
arguments or a failure without a message; v6, version 11, had no probe with records out of time order, at one time, with a call id
used twice, a nil keyword argument or a child called with its parent's
arguments; v5, version 10, had footprints of how an edit moved the answer only, and probes without
numeric record keyword arguments for a parameter's default or records without
a need; v4, version 9, had no footprint; v3, version 8, weighed every feature alike; v2, version
7, counted every token of the answer; v1, version 6, had the probes before
their mending).

When every answer is empty, or every probe gets the same answer ("Nothing
ran after a stop request."), the program looks for something no probe holds
(a parent missing from the history, an error citing its own argument): it
runs on the edits and on triggers that each make one relation between fields
true (:func:`._mutations.triggers`), and which of them change its answer is
its sketch (:func:`trigger_features`); when none does, which of 256 composed
edits do (:func:`._mutations.composed`: one to three field edits drawn from
a fixed grammar, so two things at once can be true). When that says nothing either, or
the answers fail, or its language's interpreter is missing, the program
keeps its static sketch (scheme v3); the two kinds of feature never
share a word, so a static and a behavioural sketch never match by chance.
``RECURSCOPE_SKETCH=static`` turns the sandbox off (every sketch static);
``RECURSCOPE_SKETCH=answers`` runs the probes but not their edits (no footprint).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import math
import os
import re
import select
import shutil
import subprocess
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import IO, Any, Final

from .._forks import fresh_after_fork
from ._mutations import (
    KINDS_PREFIX,
    RECORD_EDITS,
    TRIGGER_PROBE,
    composed,
    mutations,
    triggers,
    typed,
)
from ._probes import (
    FOCUS,
    atoms,
    input_keys,
    literals,
    needles,
    own_values,
    probes,
    record_keys,
    trigger_texts,
)
from ._sketch import encode, minhash

SCHEME: Final = "behaviour-minhash-affine32-64-v16"
_HERE: Final = Path(__file__).parent
_PY_RUNNER: Final = _HERE / "_sandbox_py.py"
_RB_RUNNER: Final = _HERE / "_sandbox.rb"
_ANSWER_SECONDS: Final = 15.0
"""How long the parent waits for one program's answers (the runner gives it 3 s of runs, and 4 s more for edits)."""
_CACHE_MAX: Final = 4096
_EXIT_WAIT: Final = 0.5
"""At exit, how long a sandbox's run in progress may finish before its process is stopped."""
ENV_SWITCH: Final = "RECURSCOPE_SKETCH"

log = logging.getLogger(__name__)


class _Worker:
    """One sandbox process for one language, started on first use and restarted after a failure."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._pid = 0
        self._sent: set[str] = set()  # probe sets this process already holds

    def command(self) -> list[str] | None:
        if self.language == "python":
            # An embedding host's sys.executable may not be a Python (uwsgi, a game engine).
            python = sys.executable
            if not python or not Path(python).name.lower().startswith("python"):
                python = shutil.which("python3") or ""
            return [python, "-I", "-S", str(_PY_RUNNER)] if python else None
        ruby = shutil.which("ruby")
        return None if ruby is None else [ruby, "--disable-gems", str(_RB_RUNNER)]

    def ask(self, code: str, probe_set: _ProbeSet, edit: bool = False) -> Any:
        """The runner's answers for one program, or None (no interpreter, a crash, a timeout)."""
        with self._lock:
            for _ in range(2):  # once more, with the probes, if the process forgot them
                answer = self._exchange(code, probe_set, edit)
                if isinstance(answer, list) or (isinstance(answer, dict) and "outcome" in answer):
                    return answer
                if answer != {"error": "unknown probes"}:
                    return None
                self._sent.discard(probe_set.key)
            return None

    def _exchange(self, code: str, probe_set: _ProbeSet, edit: bool) -> Any:
        try:
            proc = self._ensure()
            if proc is None or proc.stdin is None or proc.stdout is None:
                return None
            request = json.dumps({"code": code, "key": probe_set.key, "edit": edit})
            if probe_set.key not in self._sent:
                request = f'{request[:-1]}, "probes": {probe_set.json}}}'
            proc.stdin.write(request + "\n")
            proc.stdin.flush()
            self._sent.add(probe_set.key)
            line = _read_line(proc.stdout, _ANSWER_SECONDS)
        except (OSError, ValueError):
            line = None
        if line is None:
            self._stop()
            return None
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            self._stop()
            return None

    def _ensure(self) -> subprocess.Popen[str] | None:
        if self._proc is not None and (self._pid != os.getpid() or self._proc.poll() is not None):
            self._proc = None  # forked into another process, or the runner died
        if self._proc is None:
            command = self.command()
            if command is None:
                return None
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"},
                cwd="/",
                close_fds=True,
            )
            self._pid = os.getpid()
            self._sent = set()
        return self._proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and self._pid == os.getpid():
            try:
                proc.kill()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass

    def close(self, wait: float = -1) -> None:
        """Stop the process; ``wait`` seconds at most for a run in progress (-1: as long as it takes).

        At exit the recorder's background thread may be in the middle of a
        program (``recorder._Prefetch``): the process is stopped after
        ``wait`` seconds either way, and that thread, a daemon, reads its end.
        """
        locked = self._lock.acquire(timeout=wait)
        try:
            self._stop()
        finally:
            if locked:
                self._lock.release()


def _read_line(stream: IO[str], seconds: float) -> str | None:
    ready, _, _ = select.select([stream], [], [], seconds)
    if not ready:
        return None
    line = stream.readline()
    return line or None


_WORKERS: Final = {"python": _Worker("python"), "ruby": _Worker("ruby")}
_CACHE: OrderedDict[tuple[str, str], str | None] = OrderedDict()
_CACHE_LOCK: Final = threading.Lock()
_WARNED: set[str] = set()
# A forked child starts its own sandbox (``_ensure``); its locks must be free there.
fresh_after_fork(_CACHE_LOCK, *(worker._lock for worker in _WORKERS.values()))


@atexit.register
def _close_workers() -> None:
    for worker in _WORKERS.values():
        worker.close(wait=_EXIT_WAIT)


def available(language: str) -> bool:
    """Whether programs in ``language`` can be run (Ruby needs ``ruby`` on PATH)."""
    worker = _WORKERS.get(language)
    return worker is not None and worker.command() is not None


class _ProbeSet:
    """The probes for one combination of literals, keys and inputs, built and encoded once."""

    __slots__ = ("_own", "edits", "json", "key", "probes")

    def __init__(
        self, items: list[dict[str, Any]], edited: bool = True, texts: tuple[str, ...] | None = None
    ) -> None:
        self.probes = items
        self.edits = [mutations(probe) if edited else [] for probe in items]
        if edited:
            self.edits[TRIGGER_PROBE] += typed(items[TRIGGER_PROBE])  # scheme v14
        # and the triggers (scheme v10), for a program whose answers are all empty
        if texts is not None:
            self.edits[TRIGGER_PROBE] += triggers(items[TRIGGER_PROBE], texts)
            self.edits[TRIGGER_PROBE] += composed(items[TRIGGER_PROBE], texts)  # scheme v13
        sent = [
            {**probe, "mutations": [ops for _, ops in edits]} if edits else probe
            for probe, edits in zip(items, self.edits, strict=True)
        ]
        self.json = json.dumps(sent, separators=(",", ":"))
        self.key = hashlib.sha1(self.json.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        self._own: list[dict[str, frozenset[str]]] | None = None

    @property
    def own(self) -> list[dict[str, frozenset[str]]]:
        """Per probe, each record's own field values (:func:`._probes.own_values`)."""
        if self._own is None:
            self._own = [own_values(probe) for probe in self.probes]
        return self._own


@lru_cache(maxsize=512)
def _probe_set(
    lits: tuple[tuple[str, str], ...],
    keys: tuple[str, ...],
    inputs: tuple[tuple[str, str | None], ...],
    texts: tuple[tuple[str, str], ...],
    edited: bool,
    held: tuple[str, ...] | None = None,
) -> _ProbeSet:
    return _ProbeSet(probes(lits, keys, dict(inputs), texts), edited, held)


def _probes_for(
    code: str, language: str, edited: bool = True, triggered: bool = False
) -> _ProbeSet:
    """The probes for a program; ``triggered``: with the triggers among their edits."""
    return _probe_set(
        tuple(literals(code, language)),
        tuple(record_keys(code)),
        tuple(sorted(input_keys(code).items())),
        tuple(needles(code, language)),
        edited,
        trigger_texts(code, language) if triggered else None,
    )


class Outcome(list[dict[str, Any]]):
    """A program's answer on each probe (``{"ok", "value"|"error"}``), and which edits of each probe changed it."""

    changed: list[str]


def run(
    code: str, language: str, probe_set: _ProbeSet | None = None, edit: bool = False
) -> Outcome | None:
    """The program's outcome on each probe, or None if it could not run.

    ``edit``: also run it on the probe set's edits (``outcome.changed``).
    """
    worker = _WORKERS.get(language)
    if worker is None:
        return None
    probe_set = probe_set or _probes_for(code, language)
    answer = worker.ask(code, probe_set, edit)
    if isinstance(answer, dict):
        changed, answer = answer.get("changed"), answer.get("outcome")
    else:
        changed = None
    if not isinstance(answer, list) or len(answer) != len(probe_set.probes):
        return None
    outcome = Outcome(answer)
    outcome.changed = (
        [str(c) for c in changed]
        if isinstance(changed, list) and len(changed) == len(answer)
        else ["" for _ in answer]
    )
    return outcome


_READS_INPUT: Final = re.compile(r"\b(?:kwargs|args|params|inputs|options)\b|\[\s*[\"':]?input\b")
"""A program that takes an input (the probes give it the focus method's name)."""


def features(
    code: str,
    language: str,
    outcome: Sequence[dict[str, Any]],
    probe_set: _ProbeSet | None = None,
) -> set[str]:
    """The behaviour features of one program's outcomes on its probes.

    A number or truth value that every probe's answer has alike (a window size,
    ``"checked": 5``, ``"has_goal": true``) is the program's constant, not
    something it read: the probes differ in every count they can be asked, so
    it is dropped. So are an answer's decorations (:func:`_undecorated`).
    """
    probe_set = probe_set or _probes_for(code, language)
    per_probe: list[set[str]] = []
    for probe, own, result in zip(probe_set.probes, probe_set.own, outcome, strict=True):
        if isinstance(result, dict) and result.get("ok"):
            per_probe.append(atoms(result.get("value"), probe, own))
        else:
            per_probe.append({"error"})
    constants = set.intersection(*per_probe) if per_probe else set()
    constants = {a for a in constants if a.startswith(("num:", "bool:"))}
    echoes = _READS_INPUT.search(code) is not None
    found: set[str] = set()
    for p, (probe, answer) in enumerate(zip(probe_set.probes, per_probe, strict=True)):
        kept = _undecorated(answer - constants or {"empty"}, len(probe["history"]), echoes)
        found |= {f"{p}:{a}" for a in kept}
        found |= {f"{p}:{a}*2" for a in kept if _telling(a)}
    return found


def _telling(atom: str) -> bool:
    """Whether an answer's atom is specific evidence, counted twice (scheme v4).

    A record named (``rec:1.04``) and a specific number (a non-integer, or 100
    or more: a rate, a mean, a duration, a timestamp difference) are hard to
    hit by chance, so two programs that share one agree on something; a
    small whole number (a count, an index) or a shared value (a method, a
    speaker) comes up in many unrelated answers and counts once.
    """
    if atom.startswith("rec:"):
        return True
    if not atom.startswith("num:"):
        return False
    try:
        value = float(atom[4:].split("#", 1)[0])
    except ValueError:
        return False
    return math.isfinite(value) and (abs(value) >= 100 or not value.is_integer())


def _undecorated(answer: set[str], history_size: int, echoes: bool) -> set[str]:
    """One probe's answer without what a re-spelling adds around the same result.

    - the input echoed back: a program that takes an input and shows the
      method it was asked about (one copy of the focus method);
    - a count of the records the answer shows (``"3 found: ..."``);
    - outcome words (``ok``, ``error``) not part of a record shown;
    - the history's size beside something else (``"14 of 24 ok"``): it is the
      probe's, not what the program computed, unless it is all the answer says.

    An answer left with nothing says ``empty``.
    """
    kept = set(answer)
    if echoes:
        _drop_one(kept, f"method:{FOCUS}")
    shown = sum(a.startswith("rec:") for a in kept)
    if shown:
        _drop_one(kept, f"num:{shown}")
    kept = {a for a in kept if not a.startswith("status:")} or {"empty"}
    if len(kept) > 1:
        _drop_one(kept, f"num:{history_size}")
    return kept


def _drop_one(answer: set[str], atom: str) -> None:
    """Remove the highest copy of ``atom`` (``x``, ``x#2``, … as :func:`._probes.atoms` counts them)."""
    if atom not in answer:
        return
    copies = 1
    while f"{atom}#{copies + 1}" in answer:
        copies += 1
    answer.discard(atom if copies == 1 else f"{atom}#{copies}")


def informative(found: set[str]) -> bool:
    """Whether some probe's answer says something (not every one empty or failing)."""
    return any(not f.endswith((":empty", ":error")) for f in found)


_MARKS: Final = {"1": ("*",), "x": ("*",), "+": ("+",), "-": ("-",), "b": ("+", "-")}
"""A runner's mark for an edit (:mod:`._mutations`) as footprint features: changed beyond its numbers, up, down."""


def constant(outcome: Outcome) -> bool:
    """Whether every probe gave the same answer (``"Nothing ran after a stop request."``): it says nothing of the history."""
    values = [
        json.dumps(r.get("value"), sort_keys=True, default=str) for r in outcome if r.get("ok")
    ]
    return len(values) == len(outcome) > 1 and len(set(values)) == 1


def footprint(outcome: Outcome, probe_set: _ProbeSet) -> set[str]:
    """Which edits of which probe change the program's answer (``2:drop.14``), and how (``2:drop.14=+``).

    An edit that changes the answer gives two features: that it changes it,
    and how (only its numbers, up or down; or more). Two spellings that
    disagree on how (one reports a count beside a share, so its numbers move
    both ways) still share the first. An edit that leaves the answer alike, or
    whose effect is unknown (the run ran out of time), adds nothing. A program whose answer changes whatever
    record is dropped or flipped depends on every record: its footprint says
    nothing that tells it from another such program (a dump of the history
    with one field more or less), so it has none; nor has one that fewer than
    :data:`FOOTPRINT_MIN_EDITS` edits change (scheme v16).
    """
    found: set[str] = set()
    selects = False
    edits = 0
    for p, name, mark in _marked(outcome, probe_set):
        if name.startswith(_TYPED):
            continue  # the typed texts are the answers' features (scheme v14)
        signs = _MARKS.get(mark, ())
        found |= {f"{p}:{name}={sign}" for sign in signs} | ({f"{p}:{name}"} if signs else set())
        selects = selects or (mark == "0" and name.startswith(RECORD_EDITS))
        edits += bool(signs)
    return found if selects and edits >= FOOTPRINT_MIN_EDITS else set()


FOOTPRINT_MIN_EDITS: Final = 5
"""The fewest edits that change the answer for a footprint to count (scheme v16, ``[boilerplate] footprint_min_edits``).

A footprint of a few edits (the records that hold the one text a program
looks for) is shared by every program that reads those records, whatever
it computes from them; such a program is sketched by its answers alone.
"""


def _marked(outcome: Outcome, probe_set: _ProbeSet) -> Iterator[tuple[int, str, str]]:
    """(probe, edit name, the runner's mark) for every edit of every probe whose marks all came back."""
    for p, (edits, marks) in enumerate(zip(probe_set.edits, outcome.changed, strict=True)):
        if len(marks) == len(edits):
            for (name, _), mark in zip(edits, marks, strict=True):
                yield p, name, mark


def behaviour_sketch(code: str, language: str, edited: bool = True) -> str | None:
    """The behavioural sketch of a program, or None when its answers say nothing or it could not run.

    The answers' MinHash, followed by the footprint's (:func:`footprint`) when
    some edit changes an answer; ``edited=False`` skips the edits (answers only).
    A program whose answers are all empty, or all the same (:func:`constant`,
    scheme v13), is sketched by what it looks for (:func:`trigger_features`).
    """
    probe_set = _probes_for(code, language, edited)
    outcome = run(code, language, probe_set)
    if outcome is None:
        return None
    found = features(code, language, outcome, probe_set)
    if not informative(found) or constant(outcome):
        looked_for = trigger_features(code, language, outcome, found) if edited else set()
        return encode(minhash(looked_for)) if looked_for else None
    steps: set[str] = set()
    if edited:
        again = run(code, language, probe_set, edit=True)
        if again is not None and list(again) == list(outcome):
            kinds = typed_features(again, probe_set)
            steps = footprint(again, probe_set)
            found |= kinds
            steps |= kinds if steps else set()
    return encode(minhash(found)) + (encode(minhash(steps)) if steps else "")


_TYPED: Final = "typed."


def typed_features(outcome: Outcome, probe_set: _ProbeSet) -> set[str]:
    """Which typed texts (:func:`._mutations.typed`) change the answer (``2:typed.7.content.user``; scheme v14).

    A program that extracts tags from contents and one that extracts version
    numbers from them may answer alike on every probe (each finds what the
    probe planted for it); they react to different kinds of text. An edit the
    program fails on is left out (it says how it is guarded).
    """
    return {
        f"{p}:{name}"
        for p, name, mark in _marked(outcome, probe_set)
        if name.startswith(_TYPED) and (mark in _MARKS or mark == "N") and mark != "x"
    }


_COMPOSED: Final = f"t:{TRIGGER_PROBE}:z"
"""The features of composed edits (:func:`._mutations.composed`, scheme v13)."""


def trigger_features(code: str, language: str, outcome: Outcome, found: set[str]) -> set[str]:
    """What a program whose every answer is empty looks for: the edits and triggers that give it one.

    Such a program looks for something no probe holds (a parent missing from
    the history, an error citing its own argument, a call made twice). Its
    edits (:mod:`._mutations`) and triggers (:func:`._mutations.triggers`) make
    one such thing true at a time; each that changes its answer, whichever
    way (a list that gains a record, a count that goes up), is a feature
    (``t:2:parent.missing.fail``), and a second one when the answer now names
    the record the trigger edited (``t:2:parent.missing.fail@``: the record
    itself, not its parent or a total). Empty when none does, when every
    record edit does (the answer shows the history's size), or when it
    could not run (scheme v10); and without running anything when no probe
    gave an answer at all (``None``: a program that only prints costs no
    edits). When no edit or trigger changes the answer, the composed edits
    (:func:`._mutations.composed`, ``t:2:z17``) that do are the features
    (scheme v13): a program that looks for two things at once, or for one no
    trigger names, still says what it looks for.
    """
    if not any(r.get("ok") and r.get("value") is not None for r in outcome):
        return set()  # no answer at all (it prints, or fails on every probe): nothing to edit
    probe_set = _probes_for(code, language, triggered=True)
    again = run(code, language, probe_set, edit=True)
    if again is None or list(again) != list(outcome):
        return set()
    steps: set[str] = set()
    selects = False
    for p, name, mark in _marked(again, probe_set):
        if mark == "x" and name.startswith(("z", _TYPED, KINDS_PREFIX)):
            continue  # an edit the program fails on says how it is guarded, not what it looks for
        if mark in _MARKS or mark == "N":
            steps.add(f"t:{p}:{name}")
        if mark == "N":
            steps.add(f"t:{p}:{name}@")
        selects = selects or (mark == "0" and name.startswith(RECORD_EDITS))
    named = {s for s in steps if not s.startswith(_COMPOSED)}
    steps = named or steps  # the composed edits only when no named edit changes the answer
    if not selects or not steps:
        return set()
    return steps | {f"t:{f}" for f in found if f.endswith(":error")}


def program_sketch(code: str, language: str, static: str | None) -> str | None:
    """The sketch a span carries: behavioural when the program's answers say something, else ``static``.

    Only a program that reads the history (``static`` is not None) is run.
    Never raises; remembers its answers. ``RECURSCOPE_SKETCH=static`` skips the
    sandbox; ``RECURSCOPE_SKETCH=answers`` skips the footprint's edits (a
    sketch of the answers alone still matches a full one on its answers).
    """
    switch = os.environ.get(ENV_SWITCH, "").strip().lower()
    if static is None or switch == "static":
        return static
    key = (language, code)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key] or static
    try:
        if not available(language):
            if language not in _WARNED:
                _WARNED.add(language)
                log.warning(
                    "no interpreter for %s programs: their sketches stay static "
                    "(install ruby for behavioural sketches of Recurgent logs)",
                    language,
                )
            sketch = None
        else:
            sketch = behaviour_sketch(code, language, edited=switch != "answers")
    except Exception:  # the host runtime never sees a sketch failure
        log.debug("behavioural sketch failed", exc_info=True)
        sketch = None
    with _CACHE_LOCK:
        _CACHE[key] = sketch
        while len(_CACHE) > _CACHE_MAX:
            _CACHE.popitem(last=False)
    return sketch or static

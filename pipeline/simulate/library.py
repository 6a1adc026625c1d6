"""The programs the simulator's scripted model writes.

Two sources, both plain Python that sets ``result`` and really runs against
the observed history view:

- **The library** (``programs/library.toml``, shipped in the wheel): habit
  families — shapes that sessions share, each with a canonical spelling that
  sessions repeat *literally* and re-spellings the way models vary them
  (renamed variables, a loop for a comprehension, an added output field, a
  guard) — and programs that never touch history. :func:`load_library`
  reads it into :class:`Program` records.
- **A session's own programs** (:func:`own_program`): ad hoc shapes composed
  from an *own family* (which end of the history it reads × what it
  computes) and session-specific fields and literals. :class:`OwnFamilies`
  hands each family to at most :data:`OWN_FAMILY_SESSIONS` sessions of a
  simulation, so an own shape never recurs in the five sessions that make
  boilerplate (``docs/scenarios.md`` says why and how far that holds).

Never used to evaluate the boilerplate clusterer (see ``programs/README.md``).
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

__all__ = [
    "ENDS",
    "OWN_CONTEXTVIEW",
    "OWN_FAMILIES",
    "OWN_FAMILY_SESSIONS",
    "OWN_SIMPLE",
    "OwnFamilies",
    "Program",
    "load_library",
    "own_program",
]

OWN_FAMILY_SESSIONS: Final = 4
"""Sessions an own family is handed to before it is reused: the pre-registration's S.

A shape in at most S sessions recurs in at most S - 1 *other* sessions, one
short of the S others that make boilerplate.
"""

ENDS: Final = ("all", "tail", "head")
"""Which end of the history an own program reads: all of it, the newest k, the oldest k."""

OWN_SIMPLE: Final = ("count", "sum", "max", "any", "all", "first", "sizes", "share")
"""What an own simple-access program computes (one of these per own family)."""

OWN_CONTEXTVIEW: Final = ("grep", "partition", "group", "summarize")
"""What an own ContextView-shaped program computes."""

OWN_FAMILIES: Final[tuple[tuple[str, str], ...]] = (
    *((end, kind) for end in ENDS for kind in OWN_CONTEXTVIEW),
    ("all", "count"), ("all", "sum"), ("all", "first"), ("all", "sizes"), ("all", "share"),
    ("all", "any"), ("tail", "sizes"), ("tail", "share"), ("tail", "count"), ("tail", "any"),
    ("head", "sum"), ("head", "sizes"), ("head", "count"), ("head", "any"),
)  # fmt: skip
"""The own families handed out: 12 ContextView-shaped, 14 simple.

Chosen before any scenario ran so that no two programs of different families
were within similarity 0.68 of each other under the sketch of 2026-12-01
(25 programs a family, every pair compared: the largest was 0.67; the
pre-registered clusters join at 0.7). Other combinations of :data:`ENDS`
and :data:`OWN_SIMPLE` came closer than that to one of these and are left
out.
"""


@dataclass(frozen=True, slots=True)
class Program:
    """One program the scripted model may write.

    Fields: ``id`` (unique), ``family`` (the shape; a family's programs are
    re-spellings), ``code`` (sets ``result``), ``reads_history``,
    ``contextview`` (grep, partition/group or summarize over history
    records), ``habit`` (a family sessions share), ``canonical`` (the
    spelling sessions repeat literally), ``variant`` (how it differs from the
    canonical spelling). Invariant: ``contextview`` implies ``reads_history``.
    """

    id: str
    family: str
    code: str
    reads_history: bool
    contextview: bool = False
    habit: bool = False
    canonical: bool = False
    variant: str = ""


@dataclass(frozen=True)
class Library:
    """The loaded library: every program, and the views the planner draws from."""

    programs: tuple[Program, ...]

    def canonical(self, *, contextview: bool) -> tuple[Program, ...]:
        """The canonical spelling of each habit family of that kind."""
        return tuple(
            p for p in self.programs if p.habit and p.canonical and p.contextview is contextview
        )

    def respellings(self, family: str) -> tuple[Program, ...]:
        """A habit family's spellings other than the canonical one."""
        return tuple(p for p in self.programs if p.family == family and not p.canonical)

    def no_history(self) -> tuple[Program, ...]:
        """Programs that never touch history."""
        return tuple(p for p in self.programs if not p.reads_history)

    def by_id(self, program_id: str) -> Program:
        for program in self.programs:
            if program.id == program_id:
                return program
        raise KeyError(f"no program {program_id!r} in the simulator's library")


@cache
def load_library() -> Library:
    """Read ``programs/library.toml`` (shipped with the package); checked for consistency."""
    text = (
        resources.files("recurscope.pipeline.simulate")
        .joinpath("programs", "library.toml")
        .read_text(encoding="utf-8")
    )
    entries = tomllib.loads(text)["program"]
    programs = tuple(
        Program(
            id=entry["id"],
            family=entry["family"],
            code=entry["code"].strip("\n") + "\n",
            reads_history=bool(entry["reads_history"]),
            contextview=bool(entry.get("contextview", False)),
            habit=bool(entry.get("habit", False)),
            canonical=bool(entry.get("canonical", False)),
            variant=entry.get("variant", ""),
        )
        for entry in entries
    )
    ids = [p.id for p in programs]
    if len(set(ids)) != len(ids):
        raise ValueError("programs/library.toml: program ids must be unique")
    for program in programs:
        if program.contextview and not program.reads_history:
            raise ValueError(f"program {program.id}: contextview needs reads_history")
    return Library(programs)


# --------------------------------------------------------------------------
# A session's own programs


class OwnFamilies:
    """Hands own families to sessions, each to at most :data:`OWN_FAMILY_SESSIONS` sessions.

    One per simulation, consulted in session order, so the assignment is a
    function of the seed. When every family of a kind is taken, the least
    used one is handed out again (``reused`` counts those): beyond that size
    own shapes may recur in five sessions.
    """

    def __init__(self) -> None:
        self._used: dict[tuple[str, str], int] = {}
        self.reused = 0

    def take(self, rng: random.Random, *, contextview: bool) -> tuple[str, str]:
        """An (end, computation) family for one session's own programs of that kind."""
        families = [f for f in OWN_FAMILIES if (f[1] in OWN_CONTEXTVIEW) is contextview]
        free = [f for f in families if self._used.get(f, 0) < OWN_FAMILY_SESSIONS]
        if free:
            chosen = rng.choice(free)
        else:
            self.reused += 1
            low = min(self._used.get(f, 0) for f in families)
            chosen = rng.choice([f for f in families if self._used.get(f, 0) == low])
        self._used[chosen] = self._used.get(chosen, 0) + 1
        return chosen


_FIELDS: Final = (
    ("speaker", ("user", "agent", "tool")),
    ("method_name", ("task", "code_action", "python_interpreter", "final_answer")),
)
_WORDS: Final = ("report", "total", "error", "draft", "region", "invoice", "status")


def _source(end: str, rng: random.Random) -> str:
    k = rng.randint(3, 9)
    if end == "tail":
        return f"conversation_history[-{k}:]"
    if end == "head":
        return f"conversation_history[:{k}]"
    return "conversation_history"


def own_program(family: tuple[str, str], rng: random.Random) -> str:
    """A program of an own ``(end, computation)`` family, with fields and literals from ``rng``.

    Names, fields, literals and the bound k vary; what the program computes
    and which end of the history it reads are the family's.
    """
    end, kind = family
    src = _source(end, rng)
    field, values = rng.choice(_FIELDS)
    value = rng.choice(values)
    r = rng.choice(("r", "rec", "item", "x", "entry"))
    out = rng.choice(("picked", "vals", "out", "res", "sel"))
    if kind == "count":
        return (
            f'{out} = [{r} for {r} in {src} if {r}["{field}"] == "{value}"]\nresult = len({out})\n'
        )
    if kind == "sum":
        return f'result = sum({r}["depth"] or 0 for {r} in {src} if {r}["{field}"] != "{value}")\n'
    if kind == "max":
        return (
            f'{out} = max({src}, key=lambda {r}: str({r}["{field}"]), default=None)\n'
            f'result = {out}["call_id"] if {out} else None\n'
        )
    if kind == "any":
        return f'result = any({r}["{field}"] == "{value}" for {r} in {src})\n'
    if kind == "all":
        return f'result = all({r}["{field}"] != "{value}" for {r} in {src})\n'
    if kind == "first":
        return f'result = next(({r}["call_id"] for {r} in {src} if {r}["{field}"] == "{value}"), None)\n'
    if kind == "sizes":
        return f'result = sum(len(str({r}["args"])) for {r} in {src})\n'
    if kind == "share":
        return (
            f'{out} = [{r} for {r} in {src} if {r}["{field}"] == "{value}"]\n'
            f"result = round(len({out}) / max(1, len(conversation_history)), 2)\n"
        )
    word = rng.choice(_WORDS)
    if kind == "grep":
        return (
            f'{out} = [{r}["call_id"] for {r} in {src} if "{word}" in str({r}["outcome_summary"])]\n'
            f"result = {out}\n"
        )
    if kind == "partition":
        return (
            "yes, no = [], []\n"
            f"for {r} in {src}:\n"
            f'    (yes if {r}["{field}"] == "{value}" else no).append({r}["call_id"])\n'
            'result = {"match": yes, "other": no}\n'
        )
    if kind == "group":
        return (
            "tally = {}\n"
            f"for {r} in {src}:\n"
            f'    tally[{r}["{field}"]] = tally.get({r}["{field}"], 0) + 1\n'
            "result = tally\n"
        )
    if kind == "summarize":
        return f'result = " / ".join(f"{{{r}[\'{field}\']}}" for {r} in {src})\n'
    raise ValueError(f"unknown own family {family!r}")

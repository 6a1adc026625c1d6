"""What a behavioural sketch costs the first time a program is seen, against its static analysis.

    python bench/sketch_bench.py [--rounds 3] [--sets dev heldout ...]

Every program of the labelled clone families (Python and Ruby) is sketched
with caches cleared, three ways, interleaved so machine noise hits all alike:

- the static analysis (``analyze_code``: parse, ops, fingerprint, v3 sketch),
  the baseline;
- the static analysis plus the behavioural sketch (``program_sketch``: the
  program run on the four probes in the warm sandbox process), what the
  recorder and the Recurgent ingest pay per new program;
- the same with a cold sandbox (the process started for the first program).

It prints milliseconds per program and the ratios to the baseline. A program
seen again costs a dict lookup either way (bench/instrumentation_bench.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recurscope.instrumentation.analysis import (  # noqa: E402
    _behaviour,
    analyze_code,
    clear_cache,
    program_sketch,
)

SETS = ("dev", "heldout", "heldout-2", "heldout-3", "heldout-4", "heldout-5")


def programs(sets: tuple[str, ...] = SETS) -> list[tuple[str, str]]:
    out = []
    for name in sets:
        root = ROOT / "data" / "clone-families" / name
        index = root / "families.json"
        if not index.exists():
            continue
        for entry in json.loads(index.read_text(encoding="utf-8"))["entries"]:
            code = (root / entry["source"].removeprefix("file:")).read_text(encoding="utf-8")
            out.append((code, entry["language"]))
    return out


def static(items: list[tuple[str, str]]) -> float:
    clear_cache()
    start = time.perf_counter()
    for code, language in items:
        analyze_code(code, language)
    return time.perf_counter() - start


def behavioural(items: list[tuple[str, str]], cold: bool) -> float:
    clear_cache()
    _behaviour._CACHE.clear()
    if cold:
        _behaviour._close_workers()
    start = time.perf_counter()
    for code, language in items:
        program_sketch(code, language, analyze_code(code, language).sketch)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--sets",
        nargs="+",
        default=list(SETS),
        help="clone-family sets to sketch (heldout-12 to heldout-14 hold most of the programs "
        "whose answers are all empty, which run the triggers)",
    )
    args = parser.parse_args()
    items = programs(tuple(args.sets))
    if not items:
        print("no clone families found under data/clone-families", file=sys.stderr)
        return 1
    langs = {lang: sum(1 for _, other in items if other == lang) for lang in ("python", "ruby")}
    if not _behaviour.available("ruby"):
        print("ruby is not installed: Ruby programs keep static sketches", file=sys.stderr)
    behavioural(items, cold=False)  # warm the sandbox processes
    print(
        f"{len(items)} programs ({langs['python']} Python, {langs['ruby']} Ruby), "
        f"median of {args.rounds} rounds"
    )
    print("| programs | per new program | ms | ratio to static analysis |")
    print("| --- | --- | ---: | ---: |")
    for label, group in (
        ("all", items),
        ("Python", [i for i in items if i[1] == "python"]),
        ("Ruby", [i for i in items if i[1] == "ruby"]),
    ):
        base, warm, cold = [], [], []
        for _ in range(args.rounds):
            base.append(static(group))
            warm.append(behavioural(group, cold=False))
            cold.append(behavioural(group, cold=True))
        n = len(group)
        b, w, c = statistics.median(base), statistics.median(warm), statistics.median(cold)
        print(f"| {label} | static analysis (baseline) | {1000 * b / n:.2f} | 1.00 |")
        print(
            f"| {label} | + behavioural sketch, warm sandbox | {1000 * w / n:.2f} | {w / b:.1f} |"
        )
        print(
            f"| {label} | + behavioural sketch, sandbox started for the batch "
            f"| {1000 * c / n:.2f} | {c / b:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

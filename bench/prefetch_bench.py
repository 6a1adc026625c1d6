"""What ``stop()`` costs the host for a program it has not seen before, with and without the prefetch.

    python bench/prefetch_bench.py [--programs 40] [--work 0.3] [--rounds 3]

A call started with its code queues the program's facts (static analysis and
behavioural sketch, which runs the program in the sandbox) on a background
thread (``recorder._Prefetch``); ``stop()`` then finds them ready. The
baseline is the same call with nothing queued (``_PREFETCH_MAX = 0``), so
``stop()`` works the facts out on the host's thread, as before the prefetch.

Each measurement clears every cache first (so each program is new to the
process), starts a call with the program, sleeps ``--work`` seconds (the
model and the program running: the time the prefetch can hide behind) and
times ``stop()``. Programs are the labelled clone families' (Python and Ruby,
alternating), and the two sides alternate program by program, so machine
noise hits both alike. Prints the median and 90th percentile of ``stop()``
per side and their ratio (prefetched / baseline).
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

from recurscope.instrumentation import Recorder  # noqa: E402
from recurscope.instrumentation import recorder as recorder_module  # noqa: E402
from recurscope.instrumentation.analysis import _behaviour, clear_cache  # noqa: E402
from recurscope.instrumentation.testing import capture_spans  # noqa: E402


def programs(count: int) -> list[tuple[str, str]]:
    """``count`` labelled programs, Python and Ruby alternating."""
    by_language: dict[str, list[tuple[str, str]]] = {"python": [], "ruby": []}
    for name in ("dev", "heldout", "heldout-2", "heldout-3"):
        root = ROOT / "data" / "clone-families" / name
        for entry in json.loads((root / "families.json").read_text(encoding="utf-8"))["entries"]:
            code = (root / entry["source"].removeprefix("file:")).read_text(encoding="utf-8")
            by_language[entry["language"]].append((code, entry["language"]))
    mixed = [
        p for pair in zip(by_language["python"], by_language["ruby"], strict=False) for p in pair
    ]
    return mixed[:count]


def forget() -> None:
    recorder_module._CODE_CACHE.clear()
    clear_cache()
    with _behaviour._CACHE_LOCK:
        _behaviour._CACHE.clear()


def stop_seconds(code: str, language: str, work: float, *, prefetch: bool) -> float:
    """Time of ``stop()`` for a call of a new program that ran ``work`` seconds."""
    forget()
    recorder_module._PREFETCH_MAX = 64 if prefetch else 0
    recorder = Recorder("bench")
    call = recorder.start_call("run", role="bench", code=code, language=language)
    time.sleep(work)
    started = time.perf_counter()
    call.stop()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=40)
    parser.add_argument("--work", type=float, default=0.3, help="seconds a call runs (0.3)")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    items = programs(options.programs)
    with capture_spans():
        stop_seconds(*items[0], 0.0, prefetch=False)  # start both sandboxes: warm, as in a host
        stop_seconds(*items[1], 0.0, prefetch=False)
        side: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(options.rounds):
            for n, (code, language) in enumerate(items):
                order = (True, False) if n % 2 else (False, True)
                for prefetch in order:
                    side[prefetch].append(
                        stop_seconds(code, language, options.work, prefetch=prefetch)
                    )
    recorder_module._PREFETCH_MAX = 64

    def summary(values: list[float]) -> tuple[float, float]:
        ordered = sorted(values)
        return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]

    base, p90_base = summary(side[False])
    fetched, p90_fetched = summary(side[True])
    print(f"{len(items)} new programs x {options.rounds} rounds, calls running {options.work:g} s")
    print(
        f"stop() at the host, baseline (facts worked out at stop): median {base * 1e3:.2f} ms, p90 {p90_base * 1e3:.2f} ms"
    )
    print(
        f"stop() at the host, prefetched while the call ran:       median {fetched * 1e3:.2f} ms, p90 {p90_fetched * 1e3:.2f} ms"
    )
    print(
        f"ratio (prefetched / baseline): median {fetched / base:.3f}, p90 {p90_fetched / p90_base:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

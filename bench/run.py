"""Run the instrumentation benchmarks and print ratios (see docs/benchmarks.md).

python bench/run.py            # full sizes (about a minute)
python bench/run.py --quick    # smaller sizes
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instrumentation_bench import (
    bench_call_overhead,
    bench_planning,
    bench_view_filter,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    options = parser.parse_args()
    results = [
        *bench_call_overhead(),
        bench_view_filter(),
        *bench_planning(turns=300 if options.quick else 1000),
    ]
    print(f"{'benchmark':<62} {'ratio':>8}  target")
    for r in results:
        print(f"{r.name:<62} {r.ratio:>8.3f}  {r.target}")
        if r.detail:
            print(f"    {r.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

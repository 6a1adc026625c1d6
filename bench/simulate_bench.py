"""Simulator speed: fast-path spans per second, as a ratio to a bare OTel SDK span (same run).

``recurscope simulate --fast`` records planned sessions through the
``Recorder`` — a need per task, a trim planning per step (tokens), a call
span per code action whose program really runs against the observed view,
managed-agent delegations — and writes them to an OTLP JSON lines file after
placing each session in time. This measures that end to end, spans per
second, against the floor any recording pays: a bare SDK span with twenty
attributes through a ``SimpleSpanProcessor`` into an exporter that drops
it (so the SDK's own cost per span, and nothing else). The agent engine
(smolagents ``CodeAgent`` s) is measured the same way on fewer sessions.
Each side is the best of ``--repeats`` runs.

    .venv/bin/python bench/simulate_bench.py            # 120 sessions fast, 12 on agents
    .venv/bin/python bench/simulate_bench.py --quick    # 30 and 4
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from recurscope.pipeline.simulate import scenario, simulate


class _Drop(SpanExporter):
    def export(self, spans: Sequence[object]) -> SpanExportResult:
        return SpanExportResult.SUCCESS


def bare_spans_per_second(count: int = 20_000) -> float:
    """A bare SDK span with 20 attributes, simple processor, dropping exporter."""
    provider = TracerProvider(resource=Resource.create({"service.name": "bench"}))
    provider.add_span_processor(SimpleSpanProcessor(_Drop()))
    tracer = provider.get_tracer("bench")
    attributes = {f"recurscope.bench.a{i}": i for i in range(20)}
    started = time.perf_counter()
    for _ in range(count):
        tracer.start_span("recurscope.call", attributes=attributes).end()
    elapsed = time.perf_counter() - started
    provider.shutdown()
    return count / elapsed


def simulated_spans_per_second(sessions: int, *, fast: bool, folder: Path) -> float:
    """Spans per second of one simulation of ``sessions`` sessions of ``justified``, to a file."""
    started = time.perf_counter()
    report = simulate(
        scenario("justified"), sessions=sessions, seed=1, out=folder / "bench.jsonl", fast=fast
    )
    return float(report.spans) / (time.perf_counter() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sessions")
    parser.add_argument("--repeats", type=int, default=3, help="runs per side (best kept)")
    parser.add_argument("--no-agents", action="store_true", help="skip the smolagents engine")
    options = parser.parse_args(argv)
    fast_sessions, agent_sessions = (30, 4) if options.quick else (120, 12)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        simulate(scenario("justified"), sessions=2, seed=1, out=folder / "warm.jsonl", fast=True)
        bare = fast = agents = 0.0
        for _ in range(options.repeats):
            bare = max(bare, bare_spans_per_second())
            fast = max(fast, simulated_spans_per_second(fast_sessions, fast=True, folder=folder))
            if not options.no_agents:
                agents = max(
                    agents, simulated_spans_per_second(agent_sessions, fast=False, folder=folder)
                )
    print(f"bare SDK span (20 attributes, dropped): {bare:,.0f} spans/s")
    print(
        f"simulate --fast ({fast_sessions} sessions of justified, to a file): {fast:,.0f} spans/s"
        f" = {fast / bare:.3f} of a bare span ({bare / fast:.0f} bare spans' time per span)"
    )
    if agents:
        print(
            f"simulate on smolagents agents ({agent_sessions} sessions): {agents:,.0f} spans/s"
            f" = {agents / bare:.4f} of a bare span; --fast is {fast / agents:.1f}x faster"
        )
    print(f"a million spans with --fast: about {1_000_000 / fast / 60:.1f} minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

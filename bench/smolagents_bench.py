"""Per-step overhead of the smolagents integration: the same scripted CodeAgent, with and without.

python bench/smolagents_bench.py                  # 40 steps a run, best of 7 (about 10 s)
python bench/smolagents_bench.py --quick          # smaller (a few seconds)

Both sides run a real ``CodeAgent`` (``LocalPythonExecutor``, logging off)
driven by a scripted model that answers instantly, so the baseline is
smolagents' own loop with nothing else: the worst case for a relative
overhead. The instrumented side records every span into an SDK provider
whose exporter drops them (the SDK's cost is counted, a backend's is not),
plans a goal-aware trim every step (tiktoken counts) and binds the history
view. Every run's code is new text (as a model's would be), so static
analysis is paid on first sight and never served from its cache. Plain and
instrumented runs alternate; each side's figure is its best run. Because a
real model call dominates a real step, the overhead is also shown against
steps that add a model latency of 50 ms to 2 s (computed from the measured
figures, not slept).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.trace import NoOpTracerProvider
from smolagents import CodeAgent, Model
from smolagents.models import ChatMessage, MessageRole
from smolagents.monitoring import LogLevel, TokenUsage

from recurscope.instrumentation import TokenCounter
from recurscope.instrumentation.integrations.smolagents import instrument_agent

LATENCIES_MS = (50, 500, 2000)
TARGET = 0.05


class DropExporter(SpanExporter):
    """Accepts spans and drops them: measures the SDK, not a backend."""

    def export(self, spans: Sequence[Any]) -> SpanExportResult:
        return SpanExportResult.SUCCESS


class ScriptedModel(Model):  # type: ignore[misc]
    """Replies with the next recorded output, instantly."""

    def __init__(self, outputs: Sequence[str]) -> None:
        super().__init__(model_id="scripted-model")
        self.outputs = list(outputs)
        self.calls = 0

    def generate(self, messages: list[Any], *args: Any, **kwargs: Any) -> Any:
        text = self.outputs[self.calls]
        self.calls += 1
        return ChatMessage(
            role=MessageRole.ASSISTANT, content=text, token_usage=TokenUsage(len(messages), 1)
        )


_nonces = itertools.count()
STAND_IN = [{"speaker": "agent", "method_name": "code_action", "args": []}] * 3


def script(steps: int) -> list[str]:
    """``steps`` code actions, new text each time; every third one reads the history.

    The reads take constant time (a slice, an index, ``len``), so they cost the
    same over the stand-in list as over the real, growing history.
    """
    run = next(_nonces)
    outputs = []
    for i in range(steps - 1):
        if i % 3 == 2:
            body = (
                f"recent_{run}_{i} = conversation_history[-3:]\n"
                f"print(len(conversation_history), recent_{run}_{i}[-1]['method_name'])"
            )
        else:
            body = f"value_{run}_{i} = {i} * {run} + 7\nprint('step', value_{run}_{i})"
        outputs.append(f"Thought: step {i}.\n<code>\n{body}\n</code>")
    outputs.append(f"Thought: done.\n<code>\nfinal_answer({run})\n</code>")
    return outputs


Options = dict[str, Any] | None


def run_once(steps: int, options: Options) -> float:
    """Seconds per step of one run (agent construction excluded); ``None``: uninstrumented."""
    agent = CodeAgent(
        tools=[],
        model=ScriptedModel(script(steps)),
        verbosity_level=LogLevel.OFF,
        max_steps=steps + 1,
    )
    if options is not None:
        instrument_agent(agent, session_id="bench", **options)
    else:
        # Without instrumentation there is no history: a plain list stands in,
        # so that both sides' code does the same (constant-time) reads.
        agent.python_executor.send_variables({"conversation_history": STAND_IN})
    gc.collect()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        agent.run("Run the scripted steps.")
        return (time.perf_counter() - start) / steps
    finally:
        if gc_was:
            gc.enable()


@dataclass
class StepOverhead:
    name: str
    steps: int
    plain: float  # seconds per step, best run
    instrumented: float

    @property
    def overhead(self) -> float:
        return self.instrumented - self.plain

    @property
    def ratio(self) -> float:
        return self.instrumented / self.plain

    def with_latency(self, seconds: float) -> float:
        """Overhead as a share of a step that also waits ``seconds`` for its model."""
        return self.overhead / (self.plain + seconds)


def variants(provider: TracerProvider) -> dict[str, dict[str, Any]]:
    """The default configuration first, then cheaper ones a deployment may choose."""
    return {
        "default (spans, trim planned in tokens)": {"tracer_provider": provider, "budget": 8000},
        "trim planned in bytes": {
            "tracer_provider": provider,
            "budget": 8000,
            "token_counter": TokenCounter("bytes"),
        },
        "no trim planning (budget=None)": {"tracer_provider": provider, "budget": None},
        "telemetry off (no-op provider)": {"tracer_provider": NoOpTracerProvider(), "budget": 8000},
    }


def bench_smolagents(steps: int = 40, repeats: int = 7) -> list[StepOverhead]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(DropExporter()))
    TokenCounter()  # load the tokenizer before timing (once per process)
    configurations: dict[str, Options] = {"plain": None, **variants(provider)}
    best = dict.fromkeys(configurations, float("inf"))
    for options in configurations.values():  # warm imports, templates and caches
        run_once(steps, options)
    for _ in range(repeats):
        for name, options in configurations.items():
            best[name] = min(best[name], run_once(steps, options))
    provider.shutdown()
    plain = best.pop("plain")
    return [StepOverhead(name, steps, plain, seconds) for name, seconds in best.items()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--steps", type=int, default=None, help="steps per run (default 40)")
    parser.add_argument("--repeats", type=int, default=None, help="runs per side (default 7)")
    options = parser.parse_args(argv)
    steps = options.steps or (12 if options.quick else 40)
    repeats = options.repeats or (3 if options.quick else 7)
    results = bench_smolagents(steps, repeats)
    print(f"smolagents CodeAgent, scripted model, {steps} steps a run, best of {repeats} runs")
    print(f"uninstrumented step: {results[0].plain * 1e6:.1f} us")
    header = "".join(f"  +{ms} ms model" for ms in LATENCIES_MS)
    print(f"{'configuration':<42}{'step us':>9}{'overhead us':>13}{'ratio':>7}{header}")
    for r in results:
        shares = "".join(f"{r.with_latency(ms / 1000):>15.2%}" for ms in LATENCIES_MS)
        print(
            f"{r.name:<42}{r.instrumented * 1e6:>9.1f}{r.overhead * 1e6:>13.1f}"
            f"{r.ratio:>7.2f}{shares}"
        )
    print(f"target: overhead <= {TARGET:.0%} of step time")
    return 0


if __name__ == "__main__":
    sys.exit(main())

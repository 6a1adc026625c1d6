"""The fast engine: the same planned sessions, recorded through the ``Recorder`` without smolagents.

For millions of spans. Each session does what the smolagents engine's agents
do, with the instrumentation's own entry points and no agent framework: a
:class:`~recurscope.instrumentation.Recorder` per agent (lead, ``helper``,
``researcher``; one session), a need recorded for every task before its
message, a trim planned before every step (the lead's memory as smolagents
would send it: the orientation is the system prompt, plus the task while the
memory holds one), one call span per code action whose program really runs
(``exec``) against the call's observed history view, delegations as
``managed_agent`` calls of the managed agent's recorder under the calling
call, and the structured history records the integration would write. No
span is built by hand. Differences from the agent engine, none of which a
criterion reads: a shorter system prompt, no smolagents interpreter (plain
Python runs the programs), and message texts shaped like smolagents' rather
than produced by it.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from typing import Any, Final

from opentelemetry.sdk.trace import TracerProvider

from recurscope.instrumentation import (
    CallHandle,
    History,
    HistoryRecord,
    NeedTracker,
    Recorder,
    TokenCounter,
    plan_trim,
)

from .plan import HELPER, MAX_PRINT, RESEARCHER, RESEARCHER_ROLE, SessionPlan, StepPlan, summarize

__all__ = ["SYSTEM_PROMPT", "run_session"]

SYSTEM_PROMPT: Final = (
    "You are an expert assistant who can solve any task using code blobs. You will be given "
    "a task to solve as best you can. To do so, you have been given access to a list of tools "
    "and a team of managed agents. Solve the task in a cycle of Thought, Code, and Observation "
    "sequences: write a Thought explaining your reasoning, then Python code between <code> and "
    "</code>, then read the Observation: what was printed. Finish with final_answer(result). "
    "Managed agents: helper (solves sub-problems of the same kind) and researcher (looks facts "
    "up in the records); call them like functions with task='...'."
)
"""The fast path's system prompt (smolagents' is about 2,100 tokens; only the budget's base moves)."""

_SUBAGENT_PROMPT: Final = "You are a managed agent. " + SYSTEM_PROMPT


class _Final(Exception):
    """Raised by ``final_answer`` to end a program, as smolagents does."""

    def __init__(self, value: Any) -> None:
        super().__init__("final answer")
        self.value = value


def _final_answer(value: Any) -> None:
    raise _Final(value)


class _Agent:
    """One agent of the tree: its recorder (history, need tracker) and its memory as messages."""

    def __init__(
        self,
        plan: SessionPlan,
        provider: TracerProvider,
        counter: TokenCounter,
        role: str,
        system: str,
        ids: Callable[[], str],
    ) -> None:
        self.role = role
        self.new_id = ids
        self.recorder = Recorder(
            plan.session_id,
            prompt_version=plan.prompt_version,
            tracer_provider=provider,
            capture_content=False,
            model=plan.model,
            token_counter=counter,
        )
        self.system = {"role": "system", "content": system}
        self.messages: list[dict[str, Any]] = []
        self.tasks = 0
        self.first_task_messages = 0

    def new_memory(self) -> None:
        self.messages = []
        self.tasks = 0
        self.recorder.history = History()  # a new memory: a new history and goal state
        self.recorder.need_tracker = NeedTracker()

    def give_task(self, text: str, depth: int, parent: str | None) -> None:
        """A task enters memory: its need (before its message), its message and its record."""
        self.recorder.record_need(text, self.messages, role=self.role)
        self.messages.append({"role": "user", "content": f"New task:\n{text}"})
        self.tasks += 1
        if self.tasks == 1:
            self.first_task_messages = len(self.messages)
        self.recorder.history.append(
            HistoryRecord.create(
                call_id=self.new_id(),
                speaker="user",
                method_name="task",
                args=[text],
                parent_call_id=parent,
                depth=depth,
            )
        )

    def plan(self, budget: int, session: _Session) -> None:
        """Plan the memory before a step, as the integration does."""
        offset = self.first_task_messages if self.tasks == 1 else 0
        boundary = self.recorder.need_tracker.boundary
        if boundary is not None:
            boundary -= offset
            if boundary <= 0:
                boundary = None
        self.recorder.plan_trim(
            self.messages[offset:],
            budget=budget,
            orientation=[self.system, *self.messages[:offset]],
            strategy=session.plan.run.strategy,
            boundary=boundary,
            summarizer=summarize if session.plan.run.compaction else None,
            applied=False,
            mark_compacted=False,
            role=self.role,
        )


class _Session:
    """One planned session: the lead, its two managed agents, the budget; :meth:`run` records it."""

    def __init__(
        self, plan: SessionPlan, provider: TracerProvider, counter: TokenCounter, room: int
    ) -> None:
        self.plan = plan
        run = plan.run
        # One id sequence for the tree, as the integration keeps: call ids are unique per session.
        sequence = itertools.count(1)

        def ids() -> str:
            return f"{plan.session_id}:{next(sequence)}"

        self.lead = _Agent(plan, provider, counter, run.lead_role, SYSTEM_PROMPT, ids)
        self.managed = {
            HELPER: _Agent(plan, provider, counter, run.lead_role, _SUBAGENT_PROMPT, ids),
            RESEARCHER: _Agent(plan, provider, counter, RESEARCHER_ROLE, _SUBAGENT_PROMPT, ids),
        }
        orientation = plan_trim([], budget=0, orientation=[self.lead.system], counter=counter)
        self.budget = orientation.orientation_size + room

    def run(self) -> None:
        for index, task in enumerate(self.plan.tasks):
            if index == 0:
                self.lead.new_memory()
            self.lead.give_task(task.text, 0, None)
            for step in task.steps:
                self.lead.plan(self.budget, self)
                self.step(self.lead, step.model_output(), step.code(), step)

    def step(self, agent: _Agent, output: str, code: str, step: StepPlan | None) -> Any:
        """One code action: the call span, the program run against its view, the memory and records."""
        recorder = agent.recorder
        # A managed agent's code action runs inside the caller's call: a delegation of it.
        call = recorder.start_call(
            "code_action",
            role=agent.role,
            code=code,
            call_id=agent.new_id(),
            delegation_kind=None if agent is self.lead else "managed_agent",
        )
        printed, value, error = self.execute(code, call, step)
        if error is None:
            call.stop(outcome={"is_final_answer": isinstance(value, _FinalValue)})
        else:
            call.stop(status="error")
        final = isinstance(value, _FinalValue)
        output_value = value.value if isinstance(value, _FinalValue) else None
        observation = f"Execution logs:\n{printed[:MAX_PRINT]}\nLast output from code snippet:\n{output_value}"
        agent.messages.append({"role": "assistant", "content": output})
        agent.messages.append({"role": "assistant", "content": f"Calling tools:\n{code!r}"})
        agent.messages.append({"role": "tool", "content": f"Observation:\n{observation}"})
        record = HistoryRecord.create(
            call_id=call.call_id,
            speaker="agent",
            method_name="code_action",
            outcome_summary={
                "status": "error" if error is not None else "ok",
                "output": _plain(output_value),
                "error": error,
                "is_final_answer": final,
            },
            parent_call_id=call.parent.call_id if call.parent is not None else None,
            depth=call.depth,
        )
        history = recorder.history
        history.append(record)
        history.append(
            HistoryRecord.create(
                call_id=agent.new_id(),
                speaker="tool",
                method_name="python_interpreter",
                outcome_summary={"observations": observation, "error": error},
                parent_call_id=record.call_id,
                depth=record.depth,
            )
        )
        if final:
            history.append(
                HistoryRecord.create(
                    call_id=agent.new_id(),
                    speaker="agent",
                    method_name="final_answer",
                    outcome_summary={"output": _plain(output_value)},
                    parent_call_id=record.call_id,
                    depth=record.depth,
                )
            )
        return output_value

    def execute(
        self, code: str, call: CallHandle, step: StepPlan | None
    ) -> tuple[str, Any, str | None]:
        buffer = io.StringIO()
        scope: dict[str, Any] = {
            "conversation_history": call.view,
            "final_answer": _final_answer,
            "print": lambda *a, **k: print(*a, file=buffer),
        }
        if step is not None and step.managed is not None:
            scope[step.managed] = self.delegation(step, call)
        try:
            exec(compile(code, "<simulated>", "exec"), scope)  # the generated program
        except _Final as done:
            return buffer.getvalue(), _FinalValue(done.value), None
        except Exception as exc:  # generated code fails sometimes; the agent goes on
            return buffer.getvalue(), None, f"{type(exc).__name__}: {exc}"
        return buffer.getvalue(), None, None

    def delegation(self, step: StepPlan, caller: CallHandle) -> Callable[..., Any]:
        name = step.managed
        assert name is not None and step.managed_program is not None
        agent = self.managed[name]
        program = step.managed_program

        def call_agent(task: str = "", **_: Any) -> Any:
            agent.new_memory()
            agent.give_task(task, caller.depth + 1, caller.call_id)
            agent.plan(self.budget, self)
            output = f"Thought: on it.\n<code>\n{program}</code>"
            value = self.step(agent, output, program, None)
            _record_managed(self.lead, name, agent.role, task, value, caller)
            return f"Here is the final answer from your managed agent '{name}':\n{value}"

        return call_agent


class _FinalValue:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)[:MAX_PRINT]


def _record_managed(
    lead: _Agent, name: str, role: str, task: str, value: Any, caller: CallHandle
) -> None:
    """The managed agent's call, in the caller's history (as the integration records it)."""
    lead.recorder.history.append(
        HistoryRecord.create(
            call_id=lead.new_id(),
            speaker="agent",
            method_name=name,
            kwargs={"task": task},
            outcome_summary={"status": "ok", "output": _plain(value), "error": None},
            parent_call_id=caller.call_id,
            depth=caller.depth + 1,
            role=role,
        )
    )


def run_session(
    plan: SessionPlan,
    provider: TracerProvider,
    counter: TokenCounter,
    *,
    room: int,
) -> int:
    """Record one planned session through the ``Recorder``; returns 0 (no step beyond the plan)."""
    _Session(plan, provider, counter, room).run()
    return 0

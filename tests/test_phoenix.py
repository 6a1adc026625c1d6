"""Export to an existing backend: Arize Phoenix receives our spans over OTLP and gives them back.

Phoenix (``arize-phoenix``, in the dev extra) runs as a subprocess, fully
offline: a temporary working directory (SQLite), free ports, telemetry, the
assistant, MCP, sandboxes and every external resource switched off, and a
dead proxy so that any download it still tried would fail at once instead
of fetching anything. Spans go out through our own ``configure("otlp")``
and ``configure("otlp-grpc")`` and are read back through Phoenix's REST API
(``GET /v1/projects/{project}/spans``), not its Python client: importing
``phoenix.client`` imports the whole server (about 11 s, thousands of
modules) into the test process. For the same reason Phoenix's pytest plugin
(entry point ``phoenix``) stays off, ``-p no:phoenix`` in pyproject's
``addopts``: loaded, it adds that import to every pytest start.

Phoenix keeps span attributes only (resource and scope attributes are
dropped) and turns ``openinference.span.kind`` into its span kind, so this
is also where the run id on every span, the kinds, the content-gated
``input.value`` / ``output.value`` and the one-trace-per-session parent are
seen the way a Phoenix user sees them.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from recurscope.instrumentation import Recorder, TokenCounter, configure
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.config import Exporter

pytestmark = [pytest.mark.slow, pytest.mark.integration]

STARTUP_TIMEOUT = 180.0  # first start runs Phoenix's migrations on a fresh SQLite file
ARRIVAL_TIMEOUT = 60.0  # Phoenix inserts received spans in the background
# Anything Phoenix would fetch from the internet goes to this closed port instead.
DEAD_PROXY = "http://127.0.0.1:9"

# Only what these settings leave on can reach the network; each one is a documented switch.
OFFLINE_ENV = {
    "PHOENIX_TELEMETRY_ENABLED": "false",
    "PHOENIX_ALLOW_EXTERNAL_RESOURCES": "false",  # no web fonts, no WASM sandbox download
    "PHOENIX_ALLOWED_SANDBOX_PROVIDERS": "NONE",
    "PHOENIX_DISABLE_AGENT_ASSISTANT": "true",
    "PHOENIX_ENABLE_MCP_SERVER": "false",
    "PHOENIX_AGENTS_DISABLE_WEB_ACCESS": "true",
    "PHOENIX_AGENTS_DISABLE_GITHUB": "true",
    "PHOENIX_DB_LOGGING_LEVEL": "warning",
    "PHOENIX_LOG_MIGRATIONS": "false",
    "HTTP_PROXY": DEAD_PROXY,
    "HTTPS_PROXY": DEAD_PROXY,
    "ALL_PROXY": DEAD_PROXY,
    "http_proxy": DEAD_PROXY,
    "https_proxy": DEAD_PROXY,
    "all_proxy": DEAD_PROXY,
    "NO_PROXY": "127.0.0.1,localhost,::1",
    "no_proxy": "127.0.0.1,localhost,::1",
    "HF_HUB_OFFLINE": "1",
}

READS_HISTORY = (
    'h = context["conversation_history"]\nresult = [r for r in h if "add" in r["method_name"]]\n'
)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class PhoenixServer:
    """A running Phoenix: where to send OTLP and where to read spans back."""

    http_port: int
    grpc_port: int
    log: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def get(self, path: str) -> Any:
        request = urllib.request.Request(
            self.base_url + path, headers={"accept": "application/json"}
        )
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=10) as response:
            return json.load(response)

    def spans(self, project: str) -> list[dict[str, Any]]:
        """Every span of ``project``, following Phoenix's cursor."""
        spans: list[dict[str, Any]] = []
        cursor = ""
        while True:
            page = self.get(f"/v1/projects/{project}/spans?limit=1000{cursor}")
            spans.extend(page["data"])
            if not page.get("next_cursor") or not page["data"]:
                return spans
            cursor = f"&cursor={page['next_cursor']}"

    def wait_for_spans(self, project: str, count: int) -> list[dict[str, Any]]:
        deadline = time.monotonic() + ARRIVAL_TIMEOUT
        spans: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            try:
                spans = self.spans(project)
            except urllib.error.HTTPError as error:
                if error.code != 404:  # the project appears with its first span
                    raise
            if len(spans) >= count:
                return spans
            time.sleep(0.25)
        raise AssertionError(f"Phoenix holds {len(spans)} of {count} spans of {project}")


def _wait_until_up(process: subprocess.Popen[bytes], server: PhoenixServer) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"Phoenix exited ({process.returncode}):\n{_tail(server.log)}")
        try:
            server.get("/v1/projects")
            with socket.create_connection(("127.0.0.1", server.grpc_port), timeout=1):
                return
        except (OSError, urllib.error.URLError, ValueError):
            time.sleep(0.25)
    raise AssertionError(f"Phoenix did not start in {STARTUP_TIMEOUT:.0f} s:\n{_tail(server.log)}")


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="module")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PhoenixServer]:
    """Phoenix serving OTLP/HTTP and OTLP/gRPC from a throwaway working directory."""
    try:
        metadata.version("arize-phoenix")
    except metadata.PackageNotFoundError:
        pytest.skip("arize-phoenix is not installed (it comes with: pip install -e '.[dev]')")
    workdir = tmp_path_factory.mktemp("phoenix")
    server = PhoenixServer(free_port(), free_port(), workdir / "phoenix.log")
    # Phoenix's own settings come from us only; its server instrumentation exports nowhere.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PHOENIX_", "OTEL_"))}
    env.update(OFFLINE_ENV)
    # PHOENIX_HOST binds the HTTP port only; gRPC listens on every interface (Phoenix's choice).
    env.update(
        PHOENIX_WORKING_DIR=str(workdir),
        PHOENIX_HOST="127.0.0.1",
        PHOENIX_PORT=str(server.http_port),
        PHOENIX_GRPC_PORT=str(server.grpc_port),
    )
    with server.log.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "phoenix.server.main", "serve"],
            cwd=workdir,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    try:
        _wait_until_up(process, server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def record_session(recorder: Recorder) -> None:
    """Two turns of a code-writing agent: needs, trims, history-reading calls, a delegation."""
    history = recorder.history
    orientation = [{"role": "system", "content": "You are a calculator agent."}]
    messages: list[dict[str, str]] = []
    turns = [
        ("keep a running total", "Add 5.", "add", "result = 5\n"),
        ("switch: list what I asked so far", "Which calls added?", "recap", READS_HISTORY),
    ]
    for need, user, method, code in turns:
        recorder.record_need(need, messages)
        messages.append({"role": "user", "content": user + " " + "x" * 150})
        plan = recorder.plan_trim(messages, orientation=orientation, budget=200)
        plan.apply(messages, orientation)
        with recorder.call(method, role="calculator", code=code, args=[5]) as call:
            exec(code, {"context": {"conversation_history": call.view}})
            with call.delegate("calculator", method="sqrt", args=[25]) as child:
                history.append(child.to_record(outcome_summary={"ok": True}, speaker="tool"))
            history.append(call.to_record(outcome_summary={"ok": True, "value": 5}, args=[5]))
        messages.append({"role": "assistant", "content": "y" * 150})


def as_plain(value: Any) -> Any:
    """An SDK attribute value as JSON gives it back (tuples become lists)."""
    return list(value) if isinstance(value, tuple) else value


def hex_id(value: int, digits: int) -> str:
    return format(value, f"0{digits}x")


@pytest.mark.parametrize("exporter", ["otlp", "otlp-grpc"])
def test_phoenix_gives_our_spans_back_intact(phoenix: PhoenixServer, exporter: Exporter) -> None:
    """Ids, parents, names and attributes survive; run, kinds, content and traces read right."""
    project = f"recurscope-{exporter}"
    endpoint = (
        f"{phoenix.base_url}/v1/traces"
        if exporter == "otlp"
        else f"http://127.0.0.1:{phoenix.grpc_port}"
    )
    telemetry = configure(
        exporter,
        endpoint=endpoint,
        service_name="phoenix-test-host",
        run_id=f"run-{exporter}",
        # Phoenix files spans by this resource attribute: one project per exporter.
        resource_attributes={"openinference.project.name": project},
    )
    sent = InMemorySpanExporter()  # the truth: what the SDK handed to the OTLP exporter
    telemetry.tracer_provider.add_span_processor(SimpleSpanProcessor(sent))
    for session_id, capture in ((f"{exporter}-plain", False), (f"{exporter}-content", True)):
        recorder = Recorder(
            session_id,
            prompt_version="phoenix-v1",
            model="scripted",
            tracer_provider=telemetry.tracer_provider,
            token_counter=TokenCounter("bytes"),
            capture_content=capture,
        )
        with recorder.session():
            record_session(recorder)
    telemetry.shutdown()
    assert telemetry.export_failures == 0, _tail(phoenix.log)

    expected: list[ReadableSpan] = list(sent.get_finished_spans())
    per_session = 1 + 2 * (1 + 1 + 2)  # the session span, then 2 x (need, trim, call, delegation)
    assert len(expected) == 2 * per_session
    received = {s["context"]["span_id"]: s for s in phoenix.wait_for_spans(project, len(expected))}

    # Identity: every span, once, with its trace, parent and name.
    assert set(received) == {hex_id(s.context.span_id, 16) for s in expected}
    for span in expected:
        got = received[hex_id(span.context.span_id, 16)]
        assert got["name"] == span.name
        assert got["context"]["trace_id"] == hex_id(span.context.trace_id, 32)
        parent = hex_id(span.parent.span_id, 16) if span.parent is not None else None
        assert got["parent_id"] == parent, span.name
        attributes = dict(span.attributes or {})
        # (b) Phoenix turns our OpenInference kind into its span kind.
        kind = attributes.pop(sc.OPENINFERENCE_SPAN_KIND)
        assert got["span_kind"] == kind == ("AGENT" if span.name == sc.SPAN_CALL else "CHAIN")
        # Every attribute we set comes back unchanged (Phoenix adds its own, e.g. session.id).
        for key, value in attributes.items():
            assert got["attributes"].get(key) == as_plain(value), (span.name, key)
        # (a) The run survives although Phoenix drops the resource.
        assert got["attributes"][sc.RUN_ID] == f"run-{exporter}"
        assert sc.SERVICE_INSTANCE_ID not in got["attributes"]

    by_session: dict[str, list[dict[str, Any]]] = {}
    for got in received.values():
        by_session.setdefault(got["attributes"][sc.GEN_AI_CONVERSATION_ID], []).append(got)
    assert sorted(by_session) == sorted((f"{exporter}-content", f"{exporter}-plain"))
    content_keys = {sc.INPUT_VALUE, sc.OUTPUT_VALUE, sc.INPUT_MIME_TYPE, sc.OUTPUT_MIME_TYPE}
    for session_id, spans in by_session.items():
        # (d) One trace per session, rooted at the session span; calls still nest as delegations.
        roots = [s for s in spans if s["parent_id"] is None]
        assert [r["name"] for r in roots] == [sc.SPAN_SESSION]
        assert {s["context"]["trace_id"] for s in spans} == {roots[0]["context"]["trace_id"]}
        names = {s["context"]["span_id"]: s["name"] for s in spans}
        for span in spans:
            depth = span["attributes"].get(sc.CALL_DEPTH)
            if depth == 1:
                assert names[span["parent_id"]] == sc.SPAN_CALL
            elif span is not roots[0]:
                assert span["parent_id"] == roots[0]["context"]["span_id"], span["name"]
        # (c) Content only where capture was on, and only on calls.
        calls = [s for s in spans if s["name"] == sc.SPAN_CALL]
        others = [s for s in spans if s["name"] != sc.SPAN_CALL]
        assert all(content_keys.isdisjoint(s["attributes"]) for s in others)
        if session_id.endswith("-plain"):
            assert all(content_keys.isdisjoint(s["attributes"]) for s in calls)
            assert all(sc.CODE_CONTENT not in s["attributes"] for s in calls)
        else:
            for call in calls:
                request = json.loads(call["attributes"][sc.INPUT_VALUE])
                assert request["method"] == call["attributes"][sc.CALL_METHOD]
                assert json.loads(call["attributes"][sc.OUTPUT_VALUE])["ok"] is True
                assert call["attributes"][sc.INPUT_MIME_TYPE] == "application/json"

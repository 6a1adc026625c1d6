"""`recurscope validate`: golden spans pass, broken spans fail with the right problem."""

from __future__ import annotations

import argparse
import base64
import copy
import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from recurscope.cli.validate import add_command
from recurscope.instrumentation import Recorder
from recurscope.instrumentation import semconv as sc
from recurscope.instrumentation.testing import capture_spans
from recurscope.pipeline.decode.validate import (
    VOCABULARIES,
    ValidationReport,
    registry,
    validate_bytes,
    validate_file,
)
from recurscope.pipeline.testing import otlp_json_from_proto

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "docs" / "golden-spans"
FIXTURES = Path(__file__).parent / "fixtures"


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def span_of(request: dict[str, Any]) -> dict[str, Any]:
    span: dict[str, Any] = request["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    return span


def set_attr(request: dict[str, Any], key: str, value: dict[str, Any] | None) -> dict[str, Any]:
    """A copy of a one-span request with attribute ``key`` set (or removed when None)."""
    changed = copy.deepcopy(request)
    span = span_of(changed)
    span["attributes"] = [a for a in span["attributes"] if a["key"] != key]
    if value is not None:
        span["attributes"].append({"key": key, "value": value})
    return changed


def check(request: dict[str, Any]) -> ValidationReport:
    return validate_bytes(json.dumps(request).encode(), source="test.json")


def problems(report: ValidationReport) -> list[tuple[str, str]]:
    return [(p.kind, p.attribute) for s in report.spans for p in s.problems]


class TestGolden:
    @pytest.mark.parametrize("name", ["call", "delegation", "trim", "boundary_shift", "session"])
    def test_golden_spans_validate_clean(self, name: str) -> None:
        """Each golden example span passes with no problem at all."""
        report = validate_file(GOLDEN / f"{name}.json")
        assert report.ok, report.to_text()
        assert len(report.spans) == 1 and not report.spans[0].problems

    def test_every_span_kind_has_a_golden_example(self) -> None:
        """Call, delegation, trim, boundary shift and session are all covered."""
        names = {
            span_of(golden(n))["name"]
            for n in ("call", "delegation", "trim", "boundary_shift", "session")
        }
        assert names == registry().spans
        assert any(
            a["key"] == sc.CALL_PARENT_ID for a in span_of(golden("delegation"))["attributes"]
        )

    def test_the_instrumentation_validates_clean(self) -> None:
        """Spans the Python instrumentation emits (the reference runtime) pass."""
        with capture_spans(run_id="r1") as spans:
            recorder = Recorder("s-1", prompt_version="v1", model="m", capture_content=True)
            recorder.start_session()
            code = "h = context['conversation_history']\nresult = [m for m in h if m['speaker'] == 'user']\n"
            with recorder.call("ask", role="planner", code=code, args=[1]) as call:
                with recorder.delegate("planner", method="sub", code="result = 1"):
                    pass
                recorder.record_need("first", 0)
                recorder.record_need("second goal entirely", 2)
                recorder.plan_trim(
                    [{"role": "user", "content": "x " * 200}, {"role": "user", "content": "y"}],
                    budget=20,
                )
                call.stop(outcome={"ok": True})
            recorder.close()
            request = otlp_json_from_proto(encode_spans(list(spans)))
        report = check(request)
        assert report.ok, report.to_text()
        assert {s.name for s in report.spans} == registry().spans


class TestBroken:
    def test_missing_required(self) -> None:
        """A required attribute that is absent fails the span."""
        report = check(set_attr(golden("call"), sc.HISTORY_ACCESSED, None))
        assert not report.ok
        assert problems(report) == [("missing", sc.HISTORY_ACCESSED)]

    def test_missing_resource_run(self) -> None:
        """service.instance.id is required on the resource."""
        request = golden("trim")
        request["resourceSpans"][0]["resource"]["attributes"] = []
        assert problems(check(request)) == [("missing", sc.SERVICE_INSTANCE_ID)]

    @pytest.mark.parametrize(
        ("key", "value", "shown"),
        [
            (sc.CALL_DEPTH, {"stringValue": "1"}, "stringValue"),
            (sc.HISTORY_ACCESSED, {"stringValue": "true"}, "stringValue"),
            (sc.HISTORY_SIZE, {"doubleValue": 8.0}, "doubleValue"),
            (sc.CALL_ROLE, {"intValue": "3"}, "intValue"),
            (sc.HISTORY_OPS, {"stringValue": "filter"}, "stringValue"),
            (
                sc.HISTORY_OPS,
                {"arrayValue": {"values": [{"intValue": "1"}]}},
                "arrayValue of intValue",
            ),
        ],
    )
    def test_mistyped(self, key: str, value: dict[str, Any], shown: str) -> None:
        """The OTLP value kind must match the registry type."""
        report = check(set_attr(golden("call"), key, value))
        (problem,) = report.spans[0].problems
        assert (problem.kind, problem.attribute) == ("mistyped", key)
        assert shown in problem.detail

    def test_unknown_attribute_suggests_the_closest_name(self) -> None:
        """A recurscope.* name outside the registry fails, naming the likely intent."""
        request = set_attr(golden("call"), "recurscope.history.acessed", {"boolValue": True})
        (problem,) = check(request).spans[0].problems
        assert problem.kind == "unknown"
        assert problem.detail.endswith("did you mean recurscope.history.accessed?")

    def test_foreign_attributes_are_fine(self) -> None:
        """Names outside recurscope. (http.*, a vendor's own) are not checked."""
        request = set_attr(golden("call"), "acme.retries", {"intValue": "2"})
        assert check(request).ok

    @pytest.mark.parametrize(
        ("name", "key", "value", "hint"),
        [
            ("trim", sc.TRIM_PHASE, {"stringValue": "fit"}, "did you mean fits?"),
            ("trim", sc.TRIM_STRATEGY, {"stringValue": "tail"}, "goal_aware"),
            (
                "boundary_shift",
                sc.GOAL_REASON,
                {"stringValue": "new-goal"},
                "did you mean new_goal?",
            ),
            ("call", sc.HISTORY_DETECTION, {"stringValue": "regex"}, "runtime"),
            (
                "call",
                sc.HISTORY_OPS,
                {"arrayValue": {"values": [{"stringValue": "filter"}, {"stringValue": "grepp"}]}},
                "did you mean grep?",
            ),
            ("trim", sc.TRIM_COMPACTION_ERROR, {"stringValue": "boom"}, "does not match"),
        ],
    )
    def test_out_of_vocabulary(self, name: str, key: str, value: dict[str, Any], hint: str) -> None:
        """Enum-like values outside their vocabulary fail, with a suggestion when close."""
        report = check(set_attr(golden(name), key, value))
        found = [p for p in report.spans[0].problems if p.kind == "vocabulary"]
        assert [p.attribute for p in found] == [key] and hint in found[0].detail

    def test_compaction_error_pattern_accepts_exception_types(self) -> None:
        """error:<ExceptionType> is the documented shape of a failed compaction."""
        request = set_attr(
            golden("trim"), sc.TRIM_COMPACTION_ERROR, {"stringValue": "error:TimeoutError"}
        )
        assert check(request).ok

    def test_unknown_span_name(self) -> None:
        """A recurscope.* span name outside the registry fails with a suggestion."""
        request = golden("call")
        span_of(request)["name"] = "recurscope.cal"
        (problem,) = check(request).spans[0].problems
        assert problem.kind == "unknown" and "did you mean recurscope.call?" in problem.detail

    def test_delegation_needs_its_attributes(self) -> None:
        """A call with a parent_id must say how it was delegated (conditional rule)."""
        request = set_attr(golden("delegation"), sc.DELEGATION_SAME_ROLE, None)
        assert problems(check(request)) == [("missing", sc.DELEGATION_SAME_ROLE)]

    def test_tokens_need_an_encoding(self) -> None:
        """A trim in tokens must name its encoding (conditional rule)."""
        request = set_attr(golden("trim"), sc.TRIM_ENCODING, None)
        assert problems(check(request)) == [("missing", sc.TRIM_ENCODING)]

    def test_misplaced_is_a_warning(self) -> None:
        """A registry attribute on the wrong span kind warns without failing."""
        request = set_attr(golden("call"), sc.TRIM_PHASE, {"stringValue": "fits"})
        report = check(request)
        assert report.ok
        assert problems(report) == [("misplaced", sc.TRIM_PHASE)]

    def test_other_spans_are_skipped(self) -> None:
        """Spans of other instrumentation are counted, not checked."""
        request = golden("call")
        request["resourceSpans"][0]["scopeSpans"][0]["spans"].append(
            {**span_of(request), "name": "HTTP GET", "attributes": []}
        )
        report = check(request)
        assert report.ok and report.skipped == 1 and len(report.spans) == 1


class TestFormats:
    def test_protobuf(self) -> None:
        """Binary OTLP is checked with the same value kinds."""
        request = copy.deepcopy(golden("call"))
        for key in ("traceId", "spanId"):
            span_of(request)[key] = base64.b64encode(bytes.fromhex(span_of(request)[key])).decode()
        proto = json_format.ParseDict(request, ExportTraceServiceRequest())
        report = validate_bytes(proto.SerializeToString(), source="x.pb")
        assert report.format == "otlp-proto" and report.ok
        assert report.spans[0].span_id == span_of(golden("call"))["spanId"]

    def test_gzip_and_json_lines(self) -> None:
        """Gzip is undone and JSON lines are checked line by line, positions kept."""
        lines = [json.dumps(golden(n)) for n in ("call", "trim")]
        lines[1] = json.dumps(set_attr(golden("trim"), sc.TRIM_PHASE, None))
        report = validate_bytes(gzip.compress("\n".join(lines).encode()), source="x.jsonl.gz")
        assert [s.ok for s in report.spans] == [True, False]
        assert report.spans[1].position.line == 2

    def test_go_stdouttrace(self) -> None:
        """A Go runtime's stdouttrace dump is validated after conversion (kinds kept)."""
        report = validate_file(FIXTURES / "console" / "go_stdouttrace_pretty.json")
        assert report.format == "otel_go_stdouttrace"
        assert report.ok, report.to_text()
        assert report.skipped == 1

    def test_recurgent_log_shows_what_the_runtime_lacks(self) -> None:
        """Converted Recurgent spans miss what the runtime never logs (eviction, retention)."""
        report = validate_file(FIXTURES / "recurgent" / "delegation.jsonl")
        assert report.format == "recurgent_jsonl" and not report.ok
        missing = {attr for kind, attr in problems(report) if kind == "missing"}
        assert {sc.HISTORY_EVICTED, sc.HISTORY_RETENTION, sc.HISTORY_RECORDS_READ} <= missing
        assert not [k for k, _ in problems(report) if k in ("unknown", "mistyped", "vocabulary")]

    def test_unreadable_records_fail(self) -> None:
        """A record that cannot be read makes the file fail."""
        report = validate_bytes(
            b"{not json\n" + json.dumps(golden("call")).encode(), source="x.jsonl"
        )
        assert not report.ok and len(report.unreadable) == 1 and report.spans[0].ok

    def test_nothing_to_validate_fails(self) -> None:
        """A file without recurscope spans is not a pass."""
        request = golden("call")
        span_of(request)["name"] = "HTTP GET"
        report = check(request)
        assert not report.ok and "no recurscope spans" in report.to_text()


class TestVocabularies:
    def test_values_are_the_registry_words(self) -> None:
        """Every closed vocabulary value appears, quoted, in its attribute's registry brief."""
        attributes = registry().attributes
        for key, allowed in VOCABULARIES.items():
            if key == sc.HISTORY_OPS:
                continue  # ALL_OPS is the analyser's own list (the brief ends in "...")
            words = set(re.findall(r"``([^`]+)``", attributes[key]["brief"]))
            assert allowed <= words, (key, allowed - words)


class TestCommand:
    def run(self, *argv: str) -> int:
        parser = argparse.ArgumentParser()
        add_command(parser.add_subparsers())
        args = parser.parse_args(["validate", *argv])
        code: int = args.func(args)
        return code

    def test_exit_codes(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """0 when every span passes, 1 when one fails; the failing attribute is printed."""
        good = GOLDEN / "call.json"
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(set_attr(golden("call"), sc.CALL_METHOD, None)))
        assert self.run(str(good)) == 0
        assert self.run(str(good), str(bad)) == 1
        out = capsys.readouterr().out
        assert "FAIL recurscope.call" in out and sc.CALL_METHOD in out

    @pytest.mark.parametrize("flags", [["--format", "json"], ["--json"]])
    def test_json_output(self, flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
        """--format json (or the old --json) prints one machine-readable report per file."""
        assert self.run(*flags, str(GOLDEN / "trim.json")) == 0
        (report,) = json.loads(capsys.readouterr().out)
        assert report["ok"] and report["checked"] == 1

    def test_input_format(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--input-format names what the file holds; the text report says what was read."""
        assert self.run("--input-format", "otlp-json", str(GOLDEN / "trim.json")) == 0
        captured = capsys.readouterr()
        assert "(otlp-json)" in captured.out and captured.err == ""

    def test_old_format_flag_reads_the_input_with_a_warning(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The old --format otlp-json still works and prints one line naming --input-format."""
        assert self.run("--format", "otlp-json", str(GOLDEN / "trim.json")) == 0
        (line,) = capsys.readouterr().err.splitlines()
        assert "--input-format otlp-json" in line

    def test_missing_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A file that cannot be opened is an error in the one form, not a crash."""
        assert self.run(str(tmp_path / "nope.json")) == 1
        assert capsys.readouterr().err.startswith("recurscope validate: error: ")

    def test_help_ends_with_an_example(self) -> None:
        """The help text ends with an example command line."""
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        add_command(sub)
        epilog = sub.choices["validate"].epilog
        assert epilog is not None and epilog.startswith("Example: recurscope validate")


class TestRobustness:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.binary(max_size=400))
    def test_any_bytes_give_a_report(self, data: bytes) -> None:
        """Whatever the input, validate answers with a report and never raises."""
        report = validate_bytes(data, source="fuzz.bin")
        assert isinstance(report.ok, bool)
        report.to_text()
        json.dumps(report.as_json())

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        path=st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=5),
        value=st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
            lambda c: (
                st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=12), c, max_size=3)
            ),
            max_leaves=8,
        ),
    )
    def test_mutated_golden_spans_give_a_report(self, path: list[int], value: Any) -> None:
        """A golden span with any node replaced by any JSON value is judged, never a crash."""

        def mutate(obj: Any, steps: list[int]) -> Any:
            if not steps or not isinstance(obj, dict | list) or not obj:
                return value
            if isinstance(obj, dict):
                key = list(obj)[steps[0] % len(obj)]
                return {**obj, key: mutate(obj[key], steps[1:])}
            index = steps[0] % len(obj)
            return [*obj[:index], mutate(obj[index], steps[1:]), *obj[index + 1 :]]

        report = check(mutate(golden("call"), path))
        report.to_text()

    def test_corrupt_gzip(self) -> None:
        """A broken gzip file is one unreadable record, not a crash."""
        report = validate_bytes(gzip.compress(b'{"resourceSpans": []}')[:-12] + b"\x00" * 12)
        assert not report.ok and report.unreadable

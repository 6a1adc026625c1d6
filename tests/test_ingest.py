"""`recurscope ingest`: sources, detection, idempotence, growth, bad input, CLI."""

from __future__ import annotations

import argparse
import gzip
import io
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recurscope.cli.ingest import add_command, run_ingest_command
from recurscope.pipeline import IngestError, IngestReport, Store, ingest
from recurscope.pipeline.records import DecodeLimits
from recurscope.pipeline.testing import otlp_json_from_proto, sdk_request, synthetic_lines
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep

FIXTURES = Path(__file__).parent / "fixtures" / "otlp"


def lines(spans: int, *, per_line: int = 10, seed: int = 0) -> bytes:
    """OTLP JSON lines holding ``spans`` distinct spans (ids depend on ``seed``)."""
    return b"".join(synthetic_lines(spans, spans_per_line=per_line, seed=seed))


@pytest.fixture
def fresh_store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "store.duckdb") as store:
        yield store


def reconciled(store: Store) -> None:
    """Every ingest_log row satisfies records = accepted + quarantined + duplicates."""
    bad = store.query(
        "SELECT IngestId, RecordsRead, SpansAccepted, RowsQuarantined, DuplicatesSkipped "
        "FROM ingest_log WHERE RecordsRead <> SpansAccepted + RowsQuarantined + DuplicatesSkipped"
    )
    assert bad == []
    (spans,) = store.query("SELECT count(*) FROM otel_traces")
    (accepted,) = store.query("SELECT coalesce(sum(SpansAccepted), 0) FROM ingest_log")
    assert spans == accepted
    (rows,) = store.query("SELECT count(*) FROM quarantine")
    (quarantined,) = store.query("SELECT coalesce(sum(RowsQuarantined), 0) FROM ingest_log")
    assert rows == quarantined


def span_count(store: Store) -> int:
    value = store.scalar("SELECT count(*) FROM otel_traces")
    assert isinstance(value, int)
    return value


# -- sources ---------------------------------------------------------------------


class TestSources:
    def test_files_directories_globs_and_stdin(self, tmp_path: Path, fresh_store: Store) -> None:
        """A directory is read recursively (hidden entries skipped), globs expand, - is stdin."""
        tree = tmp_path / "traces"
        (tree / "nested").mkdir(parents=True)
        (tree / "a.jsonl").write_bytes(lines(20, seed=1))
        (tree / "nested" / "b.json.gz").write_bytes(gzip.compress(lines(5, seed=2)))
        (tree / "nested" / "c.pb").write_bytes(sdk_request(4).SerializeToString())
        (tree / ".hidden.jsonl").write_bytes(lines(7, seed=3))
        (tmp_path / "g1.jsonl").write_bytes(lines(3, seed=4))
        (tmp_path / "g2.jsonl").write_bytes(lines(3, seed=5))
        report = ingest(
            [tree, str(tmp_path / "g*.jsonl"), "-"],
            fresh_store,
            stdin=io.BytesIO(lines(2, seed=6)),
        )
        assert [s.status for s in report.sources] == ["ok"] * 6
        assert report.spans_accepted == 20 + 5 + 4 + 3 + 3 + 2
        assert report.exit_code == 0
        assert report.sources[-1].source == "<stdin>"
        formats = {Path(s.source).name: s.format for s in report.sources}
        assert formats["c.pb"] == "otlp-proto" and formats["b.json.gz"] == "otlp-json"
        reconciled(fresh_store)

    def test_missing_paths_fail_without_stopping_the_others(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """A path that names nothing is a failed source; the rest still land; exit code is 1."""
        (tmp_path / "ok.jsonl").write_bytes(lines(3))
        report = ingest(
            [tmp_path / "nope.jsonl", tmp_path / "ok.jsonl", str(tmp_path / "*.none")],
            fresh_store,
        )
        assert [s.status for s in report.sources] == ["failed", "ok", "failed"]
        assert "no such file" in (report.sources[0].note or "")
        assert "no file matches" in (report.sources[2].note or "")
        assert report.spans_accepted == 3 and report.exit_code == 1
        with pytest.raises(IngestError, match=r"nope\.jsonl"):
            report.raise_on_failure()

    def test_the_store_file_itself_is_never_ingested(self, tmp_path: Path) -> None:
        """Ingesting the folder that holds the DuckDB file skips the store and its WAL."""
        (tmp_path / "spans.jsonl").write_bytes(lines(4))
        with Store.open(tmp_path / "store.duckdb") as store:
            report = ingest([tmp_path], store)
        assert [Path(s.source).name for s in report.sources] == ["spans.jsonl"]

    def test_unknown_format_name_raises_the_named_error(self, fresh_store: Store) -> None:
        """--format with an unregistered name is an IngestError listing the choices."""
        with pytest.raises(IngestError, match="otlp-json"):
            ingest(["-"], fresh_store, format="zipkin", stdin=io.BytesIO(b""))

    def test_format_override_and_detection_by_content(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """Content decides the format whatever the extension; --format overrides detection."""
        proto = tmp_path / "spans.dat"
        proto.write_bytes(sdk_request(3).SerializeToString())
        as_json = tmp_path / "spans.bin"
        as_json.write_bytes(lines(2))
        report = ingest([proto, as_json], fresh_store)
        assert [s.format for s in report.sources] == ["otlp-proto", "otlp-json"]
        forced = ingest([tmp_path / "spans.bin"], fresh_store, format="otlp-proto")
        # Unchanged since the last run: skipped by checksum even with a new format.
        assert forced.sources[0].status == "unchanged"

    def test_unrecognized_content_is_quarantined_and_exit_code_is_1(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """A file that is neither format is one quarantined record; nothing read means exit 1."""
        odd = tmp_path / "notes.txt"
        odd.write_text("hello, not telemetry\n")
        report = ingest([odd], fresh_store)
        assert report.rows_quarantined == 1 and report.nothing_read
        assert report.exit_code == 1
        assert fresh_store.query("SELECT Reason FROM quarantine") == [("unrecognized_format",)]

    def test_empty_file_reads_nothing_and_is_fine(self, tmp_path: Path, fresh_store: Store) -> None:
        """An empty file is read (zero records) and is not an error."""
        empty = tmp_path / "empty.jsonl"
        empty.write_bytes(b"")
        report = ingest([empty], fresh_store)
        assert report.records_read == 0 and report.exit_code == 0

    def test_real_sdk_protobuf_and_json_file_exporter_output(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """Files written by the real OTel SDK exporters land with the SDK's ids."""
        from opentelemetry.exporter.otlp.json.file import FileSpanExporter
        from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
            InMemorySpanExporter,
        )

        jsonl = tmp_path / "exported.jsonl"
        memory = InMemorySpanExporter()
        file_exporter = FileSpanExporter(jsonl)
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(file_exporter))
        provider.add_span_processor(SimpleSpanProcessor(memory))
        tracer = provider.get_tracer("recurscope.test")
        for index in range(5):
            with tracer.start_as_current_span(f"call-{index}") as current:
                current.set_attribute("recurscope.history.ops", ["grep", "partition"])
        provider.shutdown()
        finished = memory.get_finished_spans()
        (tmp_path / "exported.pb").write_bytes(encode_spans(finished).SerializeToString())

        report = ingest([jsonl, tmp_path / "exported.pb"], fresh_store)
        assert [s.spans_accepted for s in report.sources] == [5, 0]
        assert report.sources[1].duplicates_skipped == 5
        expected = {(f"{s.context.trace_id:032x}", f"{s.context.span_id:016x}") for s in finished}
        stored = set(fresh_store.query("SELECT TraceId, SpanId FROM otel_traces"))
        assert stored == expected
        ops = fresh_store.query(
            "SELECT DISTINCT SpanAttributes['recurscope.history.ops'] FROM otel_traces"
        )
        assert ops == [('["grep","partition"]',)]

    def test_concatenated_protobuf_requests_in_one_file(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """Protobuf requests written back to back in one file all land (protobuf merges them)."""
        first, second = sdk_request(2, service_name="a"), sdk_request(3, service_name="b")
        path = tmp_path / "two.pb"
        path.write_bytes(first.SerializeToString() + second.SerializeToString())
        report = ingest([path], fresh_store)
        assert report.spans_accepted == 5
        services = fresh_store.query(
            "SELECT ServiceName, count(*) FROM otel_traces GROUP BY 1 ORDER BY 1"
        )
        assert services == [("a", 2), ("b", 3)]

    def test_pretty_printed_document(self, fresh_store: Store) -> None:
        """A whole pretty-printed JSON document is one request, not many broken lines."""
        report = ingest([FIXTURES / "pretty.json"], fresh_store)
        assert (report.spans_accepted, report.rows_quarantined) == (3, 0)


# -- idempotence and growth -------------------------------------------------------------


class TestIncremental:
    @pytest.mark.parametrize("kind", ["jsonl", "gzip", "proto", "document", "no-final-newline"])
    def test_the_same_file_twice_adds_nothing(
        self, tmp_path: Path, fresh_store: Store, kind: str
    ) -> None:
        """A second ingest of an unchanged file adds no spans, no quarantine and no duplicates."""
        path = tmp_path / f"spans.{kind}"
        payload = {
            "jsonl": lines(30),
            "gzip": gzip.compress(lines(30)),
            "proto": sdk_request(30).SerializeToString(),
            "document": json.dumps(otlp_json_from_proto(sdk_request(30)), indent=2).encode(),
            "no-final-newline": lines(30).rstrip(b"\n"),
        }[kind]
        path.write_bytes(payload + b"")
        first = ingest([path], fresh_store)
        second = ingest([path], fresh_store)
        assert first.spans_accepted == 30
        assert second.sources[0].status == "unchanged"
        assert (second.spans_accepted, second.rows_quarantined, second.duplicates_skipped) == (
            0,
            0,
            0,
        )
        assert span_count(fresh_store) == 30
        reconciled(fresh_store)

    def test_a_grown_jsonl_file_is_read_from_where_the_last_run_stopped(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """Appended lines are the only ones read: the run resumes at the old end of file."""
        path = tmp_path / "grow.jsonl"
        path.write_bytes(lines(40, seed=1))
        old_size = path.stat().st_size
        ingest([path], fresh_store)
        with path.open("ab") as handle:
            handle.write(lines(25, seed=2))
        report = ingest([path], fresh_store)
        (source,) = report.sources
        assert source.resumed_from == old_size
        assert (source.records_read, source.spans_accepted, source.duplicates_skipped) == (
            25,
            25,
            0,
        )
        assert source.bytes_read == path.stat().st_size - old_size
        assert span_count(fresh_store) == 65
        ((offset, line),) = fresh_store.query(
            "SELECT ResumeOffset, ResumeLine FROM ingest_log ORDER BY IngestId DESC LIMIT 1"
        )
        assert offset == path.stat().st_size and line == 7
        reconciled(fresh_store)

    def test_a_changed_prefix_means_reread_everything_and_dedupe(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """If already-read bytes changed, the whole file is re-read; stored spans are duplicates."""
        path = tmp_path / "rewritten.jsonl"
        original = lines(30, seed=1)
        path.write_bytes(original)
        ingest([path], fresh_store)
        # Same length, different first line, plus growth: the checksum catches it.
        first_end = original.index(b"\n") + 1
        replacement = lines(10, seed=9)
        path.write_bytes(replacement + original[first_end:] + lines(5, seed=3))
        report = ingest([path], fresh_store)
        (source,) = report.sources
        assert source.resumed_from is None
        assert "changed" in (source.note or "")
        assert (source.spans_accepted, source.duplicates_skipped) == (15, 20)
        reconciled(fresh_store)

    def test_an_unterminated_last_line_is_retried_when_completed(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """A cut-off last line is quarantined but the resume point stays before it."""
        path = tmp_path / "live.jsonl"
        complete = lines(10, seed=1)
        pending = lines(10, seed=2)
        path.write_bytes(complete + pending[:50])
        first = ingest([path], fresh_store)
        assert (first.spans_accepted, first.rows_quarantined) == (10, 1)
        assert fresh_store.query("SELECT Reason, Line FROM quarantine") == [("truncated_json", 2)]
        path.write_bytes(complete + pending)
        second = ingest([path], fresh_store)
        assert second.sources[0].resumed_from == len(complete)
        assert (second.spans_accepted, second.rows_quarantined) == (10, 0)
        reconciled(fresh_store)

    def test_a_crash_mid_ingest_resumes_from_the_last_committed_batch(
        self, tmp_path: Path, fresh_store: Store, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Batches commit with their resume point: a rerun after a crash loses and repeats none."""
        from recurscope.pipeline.store import database as store_module

        path = tmp_path / "big.jsonl"
        path.write_bytes(lines(100, per_line=10))
        real_write = store_module.IngestRun.write_prepared
        calls = 0

        def crash_on_third(self: store_module.IngestRun, *args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            if calls == 3:
                raise KeyboardInterrupt
            return real_write(self, *args, **kwargs)

        monkeypatch.setattr(store_module.IngestRun, "write_prepared", crash_on_third)
        with pytest.raises(KeyboardInterrupt):
            ingest([path], fresh_store, batch_size=20)
        monkeypatch.undo()
        # Two batches of about 20 spans landed, whole lines each.
        stored = span_count(fresh_store)
        assert 20 <= stored <= 60 and stored % 10 == 0
        report = ingest([path], fresh_store, batch_size=20)
        assert report.sources[0].resumed_from is not None
        assert (report.spans_accepted, report.duplicates_skipped) == (100 - stored, 0)
        assert span_count(fresh_store) == 100

    def test_a_shrunk_file_is_reread_from_the_start(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """A file now shorter than what was already read (rotated) is read again from 0."""
        path = tmp_path / "rotated.jsonl"
        path.write_bytes(lines(40, seed=1))
        ingest([path], fresh_store)
        path.write_bytes(lines(10, seed=2))
        report = ingest(str(path), fresh_store)  # a lone path works too
        (source,) = report.sources
        assert source.resumed_from is None and "smaller" in (source.note or "")
        assert source.spans_accepted == 10

    def test_stdin_is_never_resumed_but_dedupes(self, fresh_store: Store) -> None:
        """Piping the same spans twice adds them once; the second run counts duplicates."""
        data = lines(12)
        ingest(["-"], fresh_store, stdin=io.BytesIO(data))
        report = ingest(["-"], fresh_store, stdin=io.BytesIO(data))
        assert (report.spans_accepted, report.duplicates_skipped) == (0, 12)
        assert report.exit_code == 0


# -- bad input ------------------------------------------------------------------------


class TestBadInput:
    def test_bad_lines_are_quarantined_and_good_spans_land(self, fresh_store: Store) -> None:
        """Truncated, invalid, wrong-typed, bad-id and non-UTF-8 lines quarantine; others land."""
        report = ingest([FIXTURES / "bad_lines.jsonl"], fresh_store)
        (source,) = report.sources
        assert (source.spans_accepted, source.rows_quarantined, source.records_read) == (3, 5, 8)
        assert fresh_store.query("SELECT Line, Reason FROM quarantine ORDER BY Line") == [
            (2, "truncated_json"),
            (3, "invalid_json"),
            (5, "invalid_id"),
            (6, "wrong_type"),
            (7, "invalid_utf8"),
        ]
        assert report.exit_code == 0
        reconciled(fresh_store)

    def test_negative_duration_and_unstorable_times_are_quarantined(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """End before start and times past 2262 are quarantined with their reasons."""

        def one(trace: str, start: str, end: str) -> bytes:
            request = {
                "resourceSpans": [
                    {
                        "scopeSpans": [
                            {
                                "spans": [
                                    {
                                        "traceId": trace * 32,
                                        "spanId": trace * 16,
                                        "startTimeUnixNano": start,
                                        "endTimeUnixNano": end,
                                    }
                                ]
                            }
                        ]
                    }
                ]
            }
            return json.dumps(request).encode() + b"\n"

        path = tmp_path / "times.jsonl"
        path.write_bytes(
            one("a", "2000", "1000")
            + one("b", str(2**63), str(2**63 + 5))
            + one("c", "1000", "2000")
            + one("d", "0", "10")
        )
        report = ingest([path], fresh_store)
        assert (report.spans_accepted, report.rows_quarantined) == (1, 3)
        assert fresh_store.query("SELECT Reason FROM quarantine ORDER BY TraceId") == [
            ("negative_duration",),
            ("timestamp_out_of_range",),
            ("missing_timestamp",),
        ]

    def test_a_truncated_gzip_keeps_the_spans_before_the_cut(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """Spans decompressed before a gzip file ends early land; the rest is one quarantine row."""
        data = gzip.compress(lines(2000, per_line=10), compresslevel=1)
        path = tmp_path / "cut.jsonl.gz"
        path.write_bytes(data[: len(data) * 2 // 3])
        report = ingest([path], fresh_store)
        (source,) = report.sources
        assert 0 < source.spans_accepted < 2000
        reasons = fresh_store.query("SELECT Reason FROM quarantine")
        assert ("truncated_gzip",) in reasons
        reconciled(fresh_store)

    def test_corrupt_gzip_is_quarantined(self, tmp_path: Path, fresh_store: Store) -> None:
        """A gzip header followed by garbage is one corrupt_gzip record, not a crash."""
        path = tmp_path / "corrupt.gz"
        path.write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 6 + b"garbage" * 50)
        report = ingest([path], fresh_store)
        assert fresh_store.query("SELECT Reason FROM quarantine") == [("corrupt_gzip",)]
        assert report.nothing_read

    def test_a_gzip_bomb_stops_at_the_cap(self, tmp_path: Path, fresh_store: Store) -> None:
        """Decompression stops at max_decompressed_bytes; spans before the cap still land."""
        path = tmp_path / "bomb.jsonl.gz"
        path.write_bytes(gzip.compress(lines(50, per_line=10) + b" " * 20_000_000))
        limits = DecodeLimits(max_decompressed_bytes=5_000_000)
        report = ingest([path], fresh_store, limits=limits)
        assert report.spans_accepted == 50
        assert fresh_store.query("SELECT Reason FROM quarantine") == [("decompression_limit",)]

    def test_an_oversized_line_is_skipped_in_bounded_memory(
        self, tmp_path: Path, fresh_store: Store
    ) -> None:
        """A line over max_record_bytes is quarantined, never held whole; later lines land."""
        path = tmp_path / "huge-line.jsonl"
        path.write_bytes(
            lines(5, seed=1) + b'{"x":"' + b"a" * 3_000_000 + b'"}\n' + lines(5, seed=2)
        )
        report = ingest([path], fresh_store, limits=DecodeLimits(max_record_bytes=100_000))
        assert (report.spans_accepted, report.rows_quarantined) == (10, 1)
        ((reason, line, excerpt),) = fresh_store.query(
            "SELECT Reason, Line, Excerpt FROM quarantine"
        )
        assert reason == "record_too_large" and line == 2
        assert isinstance(excerpt, str) and len(excerpt) <= 4096

    @settings(
        max_examples=80,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        data=st.one_of(
            st.binary(max_size=600),
            st.builds(
                lambda good, noise, cut: (good + noise)[: max(cut, 0)] if cut else good + noise,
                st.sampled_from(
                    [lines(3), gzip.compress(lines(3)), sdk_request(2).SerializeToString()]
                ),
                st.binary(max_size=80),
                st.integers(min_value=0, max_value=900),
            ),
        ),
        as_file=st.booleans(),
        fmt=st.sampled_from(["auto", "otlp-json", "otlp-proto"]),
    )
    def test_any_bytes_never_raise_and_the_counts_reconcile(
        self, tmp_path: Path, data: bytes, as_file: bool, fmt: str
    ) -> None:
        """Ingesting arbitrary bytes (stdin or file, any format) raises nothing; counts reconcile."""
        with Store.open(":memory:") as store:
            if as_file:
                path = tmp_path / "fuzz.bin"
                path.write_bytes(data)
                report = ingest([path], store, format=fmt)
            else:
                report = ingest(["-"], store, format=fmt, stdin=io.BytesIO(data))
            for source in report.sources:
                assert source.status == "ok"
                assert source.records_read == (
                    source.spans_accepted + source.rows_quarantined + source.duplicates_skipped
                )
            reconciled(store)


# -- command line ------------------------------------------------------------------------


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="recurscope")
    add_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    code = args.func(args)
    assert isinstance(code, int)
    return code


class TestCommandLine:
    def test_help_describes_the_command_and_ends_with_an_example(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`recurscope ingest --help` exits 0 and its last line is an example."""
        with pytest.raises(SystemExit) as caught:
            cli("ingest", "--help")
        assert caught.value.code == 0
        out = capsys.readouterr().out
        assert out.rstrip().splitlines()[-1].startswith("Example: recurscope ingest")
        for flag in ("--db", "--input-format", "--max-record-bytes", "--progress", "otlp-proto"):
            assert flag in out
        assert run_ingest_command.__doc__

    def test_summary_line_and_exit_code(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The command prints one summary line and returns 0 after a successful ingest."""
        (tmp_path / "a.jsonl").write_bytes(lines(7))
        db = tmp_path / "cli.duckdb"
        assert cli("ingest", "--db", str(db), str(tmp_path / "a.jsonl")) == 0
        out = capsys.readouterr().out
        assert "7 spans accepted" in out and "0 quarantined" in out and "records/s" in out
        assert out.count("\n") == 1

    def test_env_var_names_the_store(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Without --db, RECURSCOPE_DB names the store."""
        monkeypatch.setenv("RECURSCOPE_DB", str(tmp_path / "env.duckdb"))
        (tmp_path / "a.jsonl").write_bytes(lines(2))
        assert cli("ingest", str(tmp_path / "a.jsonl")) == 0
        assert (tmp_path / "env.duckdb").exists()
        assert str(tmp_path / "env.duckdb") in capsys.readouterr().out

    def test_nothing_readable_exits_1_with_a_message(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Missing inputs exit 1 and say which path failed."""
        code = cli("ingest", "--db", str(tmp_path / "x.duckdb"), str(tmp_path / "missing.jsonl"))
        assert code == 1
        assert "missing.jsonl" in capsys.readouterr().err

    def test_size_flags_accept_units(self, tmp_path: Path) -> None:
        """Limit flags take sizes like 64MiB; bad sizes are usage errors."""
        (tmp_path / "a.jsonl").write_bytes(lines(2))
        assert (
            cli(
                "ingest",
                "--db",
                str(tmp_path / "x.duckdb"),
                "--max-record-bytes",
                "64KiB",
                str(tmp_path / "a.jsonl"),
            )
            == 0
        )
        with pytest.raises(SystemExit):
            cli("ingest", "--max-record-bytes", "lots", str(tmp_path / "a.jsonl"))

    def test_forced_progress_bar_goes_to_stderr(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--progress draws a bar on stderr even when it is not a terminal."""
        (tmp_path / "a.jsonl").write_bytes(lines(50))
        assert (
            cli(
                "ingest",
                "--progress",
                "--db",
                str(tmp_path / "x.duckdb"),
                str(tmp_path / "a.jsonl"),
            )
            == 0
        )
        captured = capsys.readouterr()
        assert "spans" in captured.err and "a.jsonl" in captured.err
        assert "50 spans accepted" in captured.out

    def test_a_timestamp_of_5000_digits_is_quarantined_and_its_neighbours_land(
        self, tmp_path: Path
    ) -> None:
        """The command, run as a process, quarantines the span and exits 0 without a traceback."""

        def line(span_id: str, start: str) -> bytes:
            span = {
                "traceId": "5b8efff798038103d269b633813fc60c",
                "spanId": span_id,
                "name": "s",
                "startTimeUnixNano": start,
                "endTimeUnixNano": "1700000000000001000",
            }
            request = {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}
            return json.dumps(request).encode() + b"\n"

        path = tmp_path / "huge.jsonl"
        path.write_bytes(
            line("00000000000000a1", "1700000000000000000")
            + line("00000000000000a2", "9" * 5000)
            + line("00000000000000a3", "1700000000000000000")
        )
        db = tmp_path / "cli.duckdb"
        result = subprocess.run(
            [sys.executable, "-m", "recurscope.cli", "ingest", "--db", str(db), str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        # Exit 0: every source was read, quarantined records included (docs/ingest.md).
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        assert "2 spans accepted" in result.stdout and "1 quarantined" in result.stdout
        with Store.open(db, read_only=True) as store:
            assert store.query("SELECT SpanId FROM otel_traces ORDER BY SpanId") == [
                ("00000000000000a1",),
                ("00000000000000a3",),
            ]
            ((reason, line_number, span_id, detail),) = store.query(
                "SELECT Reason, Line, SpanId, Detail FROM quarantine"
            )
        assert (reason, line_number, span_id) == ("invalid_value", 2, "00000000000000a2")
        assert isinstance(detail, str) and "5000 digits" in detail

    def test_no_progress_bar_when_stderr_is_not_a_terminal(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """By default the bar only appears on a terminal; captured stderr stays clean."""
        (tmp_path / "a.jsonl").write_bytes(lines(5))
        assert cli("ingest", "--db", str(tmp_path / "x.duckdb"), str(tmp_path / "a.jsonl")) == 0
        assert capsys.readouterr().err == ""

    @pytest.mark.integration
    def test_a_locked_store_is_a_clear_message_not_a_traceback(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """When another process writes the store, the command exits 1 naming it."""
        db = tmp_path / "locked.duckdb"
        Store.open(db).close()
        holder = subprocess.Popen(
            [
                sys.executable,
                "-c",
                textwrap.dedent(
                    """
                    import sys, duckdb
                    con = duckdb.connect(sys.argv[1])
                    print("ready", flush=True)
                    sys.stdin.readline()
                    """
                ),
                str(db),
                "recurscope",
                "ingest",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "ready"
        try:
            (tmp_path / "a.jsonl").write_bytes(lines(2))
            assert cli("ingest", "--db", str(db), str(tmp_path / "a.jsonl")) == 1
        finally:
            holder.stdin.write("\n")
            holder.stdin.flush()
            holder.wait(timeout=30)
        err = capsys.readouterr().err
        assert f"recurscope ingest (pid {holder.pid}) is writing" in err
        assert "Traceback" not in err and "IO Error" not in err


# -- scale ----------------------------------------------------------------------------------

MEASURE = textwrap.dedent(
    """
    import json, resource, sys, time
    from recurscope.pipeline import Store, ingest
    from recurscope.pipeline.store import database as store_module
    # Python heap after each committed batch: flat if nothing accumulates.
    blocks = []
    write = store_module.IngestRun.write_prepared

    def counting_write(self, *args, **kwargs):
        result = write(self, *args, **kwargs)
        blocks.append(sys.getallocatedblocks())
        return result

    store_module.IngestRun.write_prepared = counting_write
    started = time.perf_counter()
    with Store.open(sys.argv[2]) as store:
        # Both sizes with the decoder worker, so the peaks compare like with like.
        report = ingest([sys.argv[1]], store, parallel_after=0)
    # VmHWM starts afresh at exec (ru_maxrss keeps the forking parent's size);
    # the decoder worker, if one ran, has exited: ru_maxrss of children is its own.
    with open("/proc/self/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    workers_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({
        "spans": report.spans_accepted,
        "seconds": time.perf_counter() - started,
        "max_rss_mb": (peak_kb + workers_kb) / 1024,
        "blocks": blocks,
    }))
    """
)


def measure(path: Path, db: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), str(db)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    measured: dict[str, Any] = json.loads(result.stdout)
    return measured


@pytest.mark.slow
def test_memory_stays_bounded_on_a_large_file(tmp_path: Path) -> None:
    """200k spans stream in batches: the Python heap stays flat and peak RSS stays near 20k's."""
    from recurscope.pipeline.testing import write_jsonl

    small = write_jsonl(tmp_path / "small.jsonl", 20_000)
    large = write_jsonl(tmp_path / "large.jsonl", 200_000)
    small_run = measure(small, tmp_path / "small.duckdb")
    large_run = measure(large, tmp_path / "large.duckdb")
    assert small_run["spans"] == 20_000 and large_run["spans"] == 200_000
    file_mb = large.stat().st_size / 1e6
    print(
        f"\n200k spans ({file_mb:.0f} MB): {large_run['spans'] / large_run['seconds']:,.0f} "
        f"spans/s, peak RSS {large_run['max_rss_mb']:.0f} MB "
        f"(20k spans: {small_run['max_rss_mb']:.0f} MB)"
    )
    # Nothing accumulates from batch to batch (about 20 batches of 10,000 spans)...
    blocks = large_run["blocks"]
    assert 17 <= len(blocks) <= 23, len(blocks)
    assert max(blocks) - blocks[0] < 0.02 * blocks[0], blocks
    # ...and the process never held the file's spans: as Python objects they
    # would take well over a gigabyte. (DuckDB's caches account for the rest.)
    assert large_run["max_rss_mb"] - small_run["max_rss_mb"] < 250, (small_run, large_run)


def test_report_totals_add_up() -> None:
    """IngestReport sums its sources and treats all-failed as nothing read."""
    from recurscope.pipeline import SourceReport

    report = IngestReport(
        (
            SourceReport("a", "ok", records_read=3, spans_accepted=2, rows_quarantined=1),
            SourceReport("b", "failed", note="gone"),
        ),
        seconds=1.0,
    )
    assert (report.records_read, report.spans_accepted, report.rows_quarantined) == (3, 2, 1)
    assert report.exit_code == 1 and not report.nothing_read
    assert IngestReport((), 0.0).nothing_read


class TestDetails:
    """``IngestReport.details_lines()``: what the summary names beneath its one line."""

    def test_sources_with_quarantined_records_are_named_with_their_top_reason(
        self, tmp_path: Path, fresh_store: Store, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A file with bad lines is named (relative to the current directory), with how many
        of its records were quarantined and the most frequent reason; clean files are not."""
        monkeypatch.chdir(tmp_path)
        (tmp_path / "clean.jsonl").write_bytes(lines(5, seed=1))
        (tmp_path / "bad.jsonl").write_bytes(
            lines(5, seed=2) + b"not json\n" * 2 + b'{"resourceSpans": [{"scopeSpans": 7}]}\n'
        )
        report = ingest([tmp_path / "clean.jsonl", tmp_path / "bad.jsonl"], fresh_store)
        (source,) = [s for s in report.sources if s.rows_quarantined]
        assert source.quarantine_reasons[0] == ("invalid_json", 2)
        details = report.details_lines()
        assert details[0].startswith(
            "  bad.jsonl: 3 of 8 records quarantined (top reason: invalid_json, 2; 1 other reason)"
        )
        assert not any("clean.jsonl" in line for line in details)
        assert (
            details[-1]
            == f"  see the quarantined records: recurscope quarantine --db {fresh_store.path}"
        )
        assert report.exit_code == 0  # some quarantined: still a successful ingest

    def test_empty_sources_are_reported_as_such(self, tmp_path: Path, fresh_store: Store) -> None:
        """A 0-byte file is 'empty'; a file of blank lines has bytes but no records."""
        (tmp_path / "empty.jsonl").write_bytes(b"")
        (tmp_path / "blank.jsonl").write_bytes(b"  \n\n")
        report = ingest([tmp_path / "empty.jsonl", tmp_path / "blank.jsonl"], fresh_store)
        details = report.details_lines()
        assert any(
            line.endswith("empty.jsonl: empty (0 bytes), nothing to read") for line in details
        )
        assert any(line.endswith("blank.jsonl: no records in 4 bytes") for line in details)
        assert not any("quarantine" in line for line in details)

    def test_a_long_list_is_cut_and_counted(self) -> None:
        """Past ``limit`` sources the rest are counted in one line, before the pointer."""
        from recurscope.pipeline import SourceReport

        sources = tuple(
            SourceReport(
                f"/elsewhere/f{i}.jsonl",
                "ok",
                records_read=2,
                spans_accepted=1,
                rows_quarantined=1,
                quarantine_reasons=(("invalid_json", 1),),
            )
            for i in range(5)
        )
        details = IngestReport(sources, 1.0, "s.duckdb").details_lines(limit=3)
        assert details[:3] == [
            f"  /elsewhere/f{i}.jsonl: 1 of 2 records quarantined (top reason: invalid_json, 1)"
            for i in range(3)
        ]
        assert details[3:] == [
            "  ... and 2 more sources like these",
            "  see the quarantined records: recurscope quarantine --db s.duckdb",
        ]

    def test_missing_path_messages_do_not_repeat_the_path(self, tmp_path: Path) -> None:
        """The notes of paths that name nothing say what is wrong without the path itself
        (the command prints the path in front of them)."""
        (tmp_path / "hollow").mkdir()
        with Store.open(":memory:") as store:
            report = ingest(["nope.jsonl", str(tmp_path / "hollow"), "zz-*.jsonl"], store)
        notes = [s.note or "" for s in report.sources]
        assert notes[0].startswith("no such file or directory (relative to ")
        assert notes[0].endswith("; check the path")
        assert notes[1] == "no files in this directory (hidden ones are skipped)"
        assert notes[2] == "no file matches this pattern"
        for source, note in zip(report.sources, notes, strict=True):
            assert source.source not in note

    def test_nothing_to_read_leaves_a_deferred_store_unopened(self, tmp_path: Path) -> None:
        """ingest() of paths that name nothing never uses the store, so a store opened for
        writing that did not exist yet is never created."""
        from recurscope.pipeline.store.locking import open_for_writing

        db = tmp_path / "data" / "s.duckdb"
        with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
            report = ingest([tmp_path / "missing.jsonl"], session.store)
            assert not session.store.opened
        assert report.exit_code == 1
        assert list(tmp_path.iterdir()) == []

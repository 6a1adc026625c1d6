"""The verdict report (Markdown and JSON), comparisons, and their CLI commands."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest

from recurscope.cli import compare as compare_cli
from recurscope.cli import report as report_cli
from recurscope.pipeline.errors import PipelineError
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence.views import EvidenceFilter
from recurscope.pipeline.testing import (
    create_otel_traces_table,
    insert_span_specs,
    insert_synthetic_spans,
)
from recurscope.pipeline.verdict import compare as compare_module
from recurscope.pipeline.verdict import report as report
from recurscope.pipeline.verdict.selection import describe_empty_selection

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "preregistration.toml"
START = datetime(2026, 12, 6, 9, 0)  # after the shipped file's registered_at


@pytest.fixture(scope="module")
def prereg_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped pre-registration, last modified before the synthetic data begins."""
    path = tmp_path_factory.mktemp("prereg") / "preregistration.toml"
    path.write_text(SHIPPED.read_text())
    before = datetime(2026, 11, 30).timestamp()
    os.utime(path, (before, before))
    return path


@pytest.fixture(scope="module")
def spans_db() -> Iterator[duckdb.DuckDBPyConnection]:
    """300 sessions over four days and 30 runs, refreshed: the window is met."""
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_synthetic_spans(
        con, sessions=300, seed=21, start=START, spacing_seconds=1200, sessions_per_run=10
    )
    evidence.refresh(con)
    yield con
    con.close()


@pytest.fixture(scope="module")
def headline(spans_db: duckdb.DuckDBPyConnection, prereg_path: Path) -> report.Report:
    return report.build_report(
        spans_db, prereg_path, detector_quality_path=None, include_simulated=True
    )


class TestBuildReport:
    def test_markdown_shows_both_verdicts_and_the_preregistration_hash(
        self, headline: report.Report
    ) -> None:
        """The pasteable report names each primitive's verdict and embeds the file's SHA-256."""
        text = headline.to_markdown()
        assert "| ContextView | **" in text and "| recurse(...) | **" in text
        assert headline.preregistration.sha256 in text
        assert "98.75% intervals" in text
        assert "## Method" in text and "session-level bootstrap" in text

    def test_the_banner_names_the_latest_amendment_and_counts_the_rest(
        self, headline: report.Report
    ) -> None:
        """One amendment up front; all of them, each with its rationale, under Method."""
        text = headline.to_markdown()
        amendments = headline.preregistration.amendments
        banner = next(line for line in text.splitlines() if "Amended pre-registration" in line)
        assert f"latest, v{amendments[-1].version} (" in banner
        assert f"{len(amendments) - 1} earlier amendments (v{amendments[0].version}" in banner
        assert amendments[0].changes not in banner
        assert all(f"**Amendment {a.version}**" in text for a in amendments)

    def test_the_window_is_met_and_not_flagged(self, headline: report.Report) -> None:
        """Enough sessions, days and runs, and a pre-registration fixed before the data."""
        assert headline.window.met and headline.window.sessions == 300
        assert not headline.preregistration.registered_after_start
        assert not headline.preregistration.modified_after_start
        assert not headline.scope.exploratory
        # The synthetic spans say they are simulated: that is the only caveat.
        assert all(
            v.caveats == ("computed from simulated or replayed spans: a demonstration",)
            for v in headline.verdicts
        )
        assert headline.window.simulated_spans == headline.window.spans > 0
        assert "Not observed evidence" in headline.to_markdown()

    def test_primary_rows_carry_thresholds_and_bonferroni_intervals(
        self, headline: report.Report
    ) -> None:
        """Each primary criterion has its threshold, a 98.75% interval and a position."""
        assert [r.name for r in headline.primary] == [
            "contextview_shaped_share",
            "boilerplate_share",
            "same_role_share",
            "goal_overflow_share",
        ]
        for row in headline.primary:
            assert row.threshold is not None and row.confidence == pytest.approx(0.9875)
            assert row.lower is not None and row.upper is not None
            assert row.lower <= (row.estimate or 0) <= row.upper
            assert row.side in ("above", "below", "straddles")

    def test_verdicts_follow_the_rows(self, headline: report.Report) -> None:
        """A primitive is justified exactly when all its primary rows are above threshold."""
        for verdict in headline.verdicts:
            sides = {r.side for r in headline.primary if r.primitive == verdict.primitive}
            assert (verdict.outcome == "justified") == (sides == {"above"})

    def test_json_round_trips(self, headline: report.Report) -> None:
        """Report.from_json(report.to_json()) is the same report."""
        assert report.Report.from_json(headline.to_json()) == headline

    def test_json_keys_are_stable(self, headline: report.Report) -> None:
        """Machine readers can rely on these top-level and row keys."""
        data = json.loads(headline.to_json())
        assert list(data) == [
            "schema",
            "generated_at",
            "database",
            "scope",
            "preregistration",
            "window",
            "verdicts",
            "primary",
            "descriptive",
            "clusters",
            "sampling",
            "detector_quality_source",
            "notes",
            "boilerplate",
            "history_needs",
        ]
        assert data["schema"] == report.REPORT_SCHEMA
        sweep = data["boilerplate"]["sweep"]
        assert [p["similarity"] for p in sweep] == [None, 0.5, 0.6, 0.7, 0.8, 0.9]
        assert {"name", "estimate", "lower", "upper", "threshold", "sessions", "detector"} <= set(
            data["primary"][0]
        )

    def test_descriptive_measures_include_trim_pressure_and_op_mix(
        self, headline: report.Report
    ) -> None:
        """Reliance, trim pressure, shifts per session, re-emits and op mix, with intervals."""
        names = [r.name for r in headline.descriptive]
        assert names[:5] == [
            "boilerplate_share_exact",  # beside the clustered primary boilerplate_share
            "history_reliance",
            "trim_pressure",
            "boundary_shifts_per_session",
            "same_task_reemit_share",
        ]
        assert "op_mix.slice" in names and "op_mix.sort" not in names  # unused ops left out
        assert all(r.threshold is None and r.confidence == 0.95 for r in headline.descriptive)

    def test_the_clustered_share_comes_with_its_known_error(self, headline: report.Report) -> None:
        """The registered scheme's blind runs, pooled, beside the clustered boilerplate_share."""
        info = headline.boilerplate
        assert info is not None and info.known_error is not None
        assert info.known_error.scheme == info.sketch_scheme != ""
        assert info.known_error.sets and not info.known_error.meets_targets
        markdown = headline.to_markdown()
        line = next(x for x in markdown.splitlines() if "Known error of the clustering" in x)
        assert f"pairwise precision {info.known_error.precision:.1%}" in line
        assert markdown.index("boilerplate_share_exact, exact") < markdown.index(line)

    def test_clusters_show_example_code_when_content_was_captured(
        self, headline: report.Report
    ) -> None:
        """Top boilerplate shapes come with a code example from a captured call."""
        assert headline.clusters and headline.clusters[0].is_boilerplate
        assert any(c.example_code for c in headline.clusters)
        assert "```python" in headline.to_markdown()

    def test_detector_quality_is_shown_next_to_detection_dependent_estimates(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path, tmp_path: Path
    ) -> None:
        """P/R from the detector-eval JSON sits beside the estimates that depend on detection."""
        quality = tmp_path / "detector-quality.json"
        quality.write_text(
            json.dumps(
                {
                    "metrics": {
                        "accessed": {"precision": 0.97, "recall": 0.93, "support": 120},
                        "contextview_shaped": {"precision": 0.91, "recall": 0.88},
                        "ops": {"grep": {"precision": 0.9, "recall": 0.8}},
                    }
                }
            )
        )
        result = report.build_report(
            spans_db, prereg_path, detector_quality_path=quality, include_simulated=True
        )
        rows = {r.name: r for r in (*result.primary, *result.descriptive)}
        assert rows["contextview_shaped_share"].detector == report.DetectorInfo(
            "contextview_shaped", 0.91, 0.88, None
        )
        assert rows["boilerplate_share"].detector is not None
        assert rows["same_role_share"].detector is None
        assert rows["op_mix.grep"].detector is not None
        assert "P 0.91 · R 0.88" in result.to_markdown()  # no counts, so no exact bounds

    def test_reads_the_detector_eval_json_layout(self, tmp_path: Path) -> None:
        """`recurscope detector-eval --format json` output: scores.ours.overall, op:<name> metrics."""
        quality = tmp_path / "detector-quality.json"
        counts = {"tp": 9, "fp": 1, "fn": 1, "precision": 0.9, "recall": 0.9, "f1": 0.9}
        quality.write_text(
            json.dumps(
                {
                    "scores": {
                        "baseline": {"overall": {"accessed": {**counts, "precision": 0.5}}},
                        "ours": {"overall": {"accessed": counts, "op:grep": counts}},
                    }
                }
            )
        )
        found = report.load_detector_quality(quality)
        assert found is not None
        accessed = found["accessed"]
        assert (accessed.precision, accessed.recall, accessed.support) == (0.9, 0.9, 10)
        # 9 of 10 with an exact interval on both sides: [0.555, 0.997]
        assert accessed.precision_lower == pytest.approx(0.5550, abs=1e-3)
        assert accessed.recall_upper == pytest.approx(0.9975, abs=1e-3)
        assert found["ops.grep"].recall == 0.9
        assert report.load_detector_quality(tmp_path / "absent.json") is None

    def test_missing_detector_quality_is_said_not_failed(self, headline: report.Report) -> None:
        """Without the JSON the report says detector quality was not measured."""
        row = headline.primary[0]
        assert row.detector is None and row.detector_note == "detector quality not measured"
        assert "detector quality not measured" in headline.to_markdown()

    def test_reproducible(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path, headline: report.Report
    ) -> None:
        """The same data and pre-registration give the same intervals to the last digit."""
        again = report.build_report(
            spans_db, prereg_path, detector_quality_path=None, include_simulated=True
        )
        assert again.primary == headline.primary and again.descriptive == headline.descriptive


class TestViewsAndFlags:
    def test_a_filtered_view_is_labelled_exploratory(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """--role narrows the data, so the verdicts are marked as not the headline."""
        result = report.build_report(
            spans_db,
            prereg_path,
            role="planner",
            detector_quality_path=None,
            include_simulated=True,
        )
        assert result.scope.exploratory and result.scope.role == "planner"
        assert all("exploratory" in " ".join(v.caveats) for v in result.verdicts)
        assert "(exploratory view)" in result.to_markdown()

    def test_a_short_window_is_insufficient_and_says_what_is_missing(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """One day of data fails the days gate whatever the estimates are."""
        result = report.build_report(
            spans_db,
            prereg_path,
            until=START.replace(hour=0),
            detector_quality_path=None,
            include_simulated=True,
        )
        assert not result.window.met
        assert all(v.outcome == "insufficient_evidence" for v in result.verdicts)
        assert "more distinct days" in result.to_markdown()

    def test_a_preregistration_registered_after_the_data_is_flagged(
        self, prereg_path: Path, tmp_path: Path
    ) -> None:
        """Data that began before registered_at marks every verdict."""
        con = duckdb.connect()
        create_otel_traces_table(con)
        insert_synthetic_spans(con, sessions=20, seed=1, start=datetime(2026, 3, 2))
        evidence.refresh(con)
        result = report.build_report(
            con, prereg_path, detector_quality_path=None, include_simulated=True
        )
        assert result.preregistration.registered_after_start
        assert "**flagged**" in result.to_markdown()
        assert all("pre-registration" in " ".join(v.caveats) for v in result.verdicts)

    def test_head_sampled_spans_mark_the_verdict(self, prereg_path: Path) -> None:
        """A sampling probability on the resource is reported and marks the verdict."""
        con = duckdb.connect()
        create_otel_traces_table(con)
        insert_span_specs(
            con,
            [
                {
                    "kind": "call",
                    "span": "a",
                    "accessed": True,
                    "history_size": 2,
                    "resource": {"sampling.probability": 0.1},
                },
            ],
        )
        evidence.refresh(con)
        result = report.build_report(
            con, prereg_path, detector_quality_path=None, include_simulated=True
        )
        assert result.sampling.sampled and result.sampling.min_probability == 0.1
        assert all("sampled" in " ".join(v.caveats) for v in result.verdicts)
        assert "head-sampling" in result.to_markdown()

    def test_works_on_a_read_only_file(self, tmp_path: Path, prereg_path: Path) -> None:
        """The report never writes: a read-only connection is enough."""
        path = str(tmp_path / "ro.duckdb")
        con = duckdb.connect(path)
        create_otel_traces_table(con)
        insert_synthetic_spans(con, sessions=30, seed=2, start=START)
        evidence.refresh(con)
        con.close()
        reader = duckdb.connect(path, read_only=True)
        result = report.build_report(
            reader, prereg_path, detector_quality_path=None, include_simulated=True
        )
        assert result.window.sessions == 30

    def test_dates_parse_with_inclusive_until_days(self) -> None:
        """--until 2026-12-07 includes that whole day."""
        assert report.parse_when("2026-12-07", end=True) == datetime(2026, 12, 8)
        assert report.parse_when("2026-12-07T10:00:00Z") == datetime(2026, 12, 7, 10)
        with pytest.raises(PipelineError, match="not a date"):
            report.parse_when("yesterday")

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("2026-01-31", datetime(2026, 1, 31)),
            ("2026-01-31T12:00:00Z", datetime(2026, 1, 31, 12)),
            ("2026-01-31T13:00:00+01:00", datetime(2026, 1, 31, 12)),
            ("2026-01-31T12:00", datetime(2026, 1, 31, 12)),
            ("30d", datetime(2026, 1, 1)),
            ("2w", datetime(2026, 1, 17)),
            ("12h", datetime(2026, 1, 30, 12)),
            ("90m", datetime(2026, 1, 30, 22, 30)),
        ],
    )
    def test_one_date_grammar(self, text: str, expected: datetime) -> None:
        """Dates, datetimes (naive = UTC) and ages (now minus that) all become naive UTC."""
        now = datetime(2026, 1, 31, tzinfo=UTC)
        assert report.parse_when(text, now=now) == expected
        # An age or a datetime is an instant; only a bare date stretches to its day's end.
        stretched = len(text) == 10
        assert report.parse_when(text, end=True, now=now) == (
            expected + timedelta(days=1) if stretched else expected
        )


class TestCompare:
    def test_prompt_versions_differ_in_history_reliance(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """The generator's v7 prompt reads history more: the interval excludes zero."""
        result = compare_module.compare(
            spans_db,
            "recurscope.prompt.version",
            groups=("tool-builder-v7", "tool-builder-v6"),
            preregistration_path=prereg_path,
            include_simulated=True,
        )
        rows = {d.criterion: d for d in result.differences}
        reliance = rows["history_reliance"]
        assert reliance.difference is not None and reliance.difference > 0.1
        assert reliance.excludes_zero
        assert "trim_pressure" in rows

    def test_strategy_compares_only_trim_criteria(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """Strategy lives on plannings: call criteria cannot differ and are skipped."""
        result = compare_module.compare(
            spans_db, "strategy", preregistration_path=prereg_path, include_simulated=True
        )
        assert {d.criterion for d in result.differences} == {"goal_overflow_share", "trim_pressure"}
        assert "contextview_shaped_share" in result.skipped
        assert "Not compared" in result.to_markdown()

    def test_compaction_comes_with_its_selection_caveat(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """Grouping by compaction use warns that never-trimmed sessions land in 'off'."""
        result = compare_module.compare(
            spans_db,
            "recurscope.trim.compaction.used",
            preregistration_path=prereg_path,
            include_simulated=True,
        )
        assert (result.group_a, result.group_b) == ("on", "off")
        assert result.sessions_a + result.sessions_b == 300
        assert any("never trimmed" in note for note in result.notes)

    def test_a_date_split_compares_before_and_after(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """--split-date forms the groups from span times; the same data shows no difference."""
        result = compare_module.compare(
            spans_db,
            "date",
            split_date=START.replace(hour=0) + timedelta(days=1),
            preregistration_path=prereg_path,
            include_simulated=True,
        )
        assert (result.group_a, result.group_b) == ("before", "after")
        pressure = next(d for d in result.differences if d.criterion == "trim_pressure")
        assert pressure.lower is not None and pressure.upper is not None
        assert pressure.lower < 0 < pressure.upper
        assert json.loads(json.dumps(result.to_dict()))["exploratory"] is True

    def test_a_date_split_puts_each_session_on_one_side(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """A session crossing the split counts once, on the side of its first span."""
        crossing = START.replace(minute=30)  # inside the first sessions' spans
        result = compare_module.compare(
            spans_db,
            "date",
            split_date=crossing,
            preregistration_path=prereg_path,
            include_simulated=True,
        )
        assert result.sessions_a + result.sessions_b == 300
        firsts = spans_db.execute(
            "SELECT count(*) FROM (SELECT session_id, min(started_at) AS first FROM calls "
            "GROUP BY session_id) WHERE first < ?",
            [crossing],
        ).fetchone()
        assert firsts is not None and result.sessions_a == firsts[0]

    def test_an_empty_side_of_a_date_split_is_an_error(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """A split before all data leaves 'before' empty: an error naming both counts."""
        with pytest.raises(PipelineError, match="0 before, 300 after"):
            compare_module.compare(
                spans_db,
                "date",
                split_date=datetime(2020, 1, 1),
                preregistration_path=prereg_path,
                include_simulated=True,
            )

    def test_unknown_dimension_lists_the_known_ones(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        """A typo in --by gets the list of dimensions."""
        with pytest.raises(PipelineError, match="prompt_version"):
            compare_module.compare(
                spans_db, "colour", preregistration_path=prereg_path, include_simulated=True
            )


def _store_file(path: Path) -> None:
    """A real store file (schema from pipeline/store/database.py) holding synthetic spans."""
    from recurscope.pipeline.store.database import Store

    staging = duckdb.connect()
    create_otel_traces_table(staging)
    insert_synthetic_spans(
        staging, sessions=150, seed=4, start=START, spacing_seconds=2400, sessions_per_run=5
    )
    spans = staging.sql("SELECT * FROM otel_traces").to_arrow_table()
    with Store.open(path) as store:
        con = store.connection
        con.register("staged_spans", spans)
        con.execute(
            "INSERT INTO otel_traces BY NAME SELECT *, "
            "map([]::VARCHAR[], []::VARCHAR[]) AS ScopeAttributes, 0 AS IngestId "
            "FROM staged_spans"
        )
        con.unregister("staged_spans")
        evidence.refresh(con)


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "recurscope.duckdb"
    _store_file(path)
    return path


class TestCli:
    @staticmethod
    def _parser() -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(prog="recurscope")
        sub = parser.add_subparsers(dest="command")
        report_cli.add_command(sub)
        compare_cli.add_command(sub)
        return parser

    def test_every_command_has_help_ending_with_an_example(self) -> None:
        """report and compare document themselves with an example last."""
        parser = self._parser()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        for name in ("report", "compare"):
            help_text = sub.choices[name].format_help().rstrip()
            assert "example: recurscope " + name in help_text
            assert help_text.splitlines()[-1].strip().startswith("recurscope " + name) or (
                help_text.splitlines()[-1].strip().startswith("example:")
            )

    def test_report_writes_json_from_a_read_only_store(
        self, store_path: Path, prereg_path: Path, tmp_path: Path
    ) -> None:
        """recurscope report --format json --out FILE writes a machine-readable verdict."""
        out = tmp_path / "verdict.json"
        args = self._parser().parse_args(
            [
                "report",
                "--db",
                str(store_path),
                "--prereg",
                str(prereg_path),
                "--include-simulated",
                "--format",
                "json",
                "--out",
                str(out),
            ]
        )
        assert args.func(args) == 0
        data = json.loads(out.read_text())
        assert data["window"]["sessions"] == 150
        assert {v["primitive"] for v in data["verdicts"]} == {"contextview", "recurse"}

    def test_report_markdown_to_stdout(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The default format is Markdown on standard output."""
        args = self._parser().parse_args(
            [
                "report",
                "--db",
                str(store_path),
                "--prereg",
                str(prereg_path),
                "--include-simulated",
                "--since",
                "2026-12-02",
            ]
        )
        assert args.func(args) == 0
        assert "# recurscope verdict (exploratory view)" in capsys.readouterr().out

    def test_compare_from_the_cli(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """recurscope compare --by strategy prints the difference table."""
        args = self._parser().parse_args(
            [
                "compare",
                "--db",
                str(store_path),
                "--prereg",
                str(prereg_path),
                "--include-simulated",
                "--by",
                "strategy",
            ]
        )
        assert args.func(args) == 0
        assert "| `trim_pressure` |" in capsys.readouterr().out

    def test_a_missing_database_is_a_message_not_a_traceback(
        self, tmp_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A wrong --db explains itself in the one error form and exits 1 (a runtime failure)."""
        args = self._parser().parse_args(
            [
                "report",
                "--db",
                str(tmp_path / "nope.duckdb"),
                "--prereg",
                str(prereg_path),
                "--include-simulated",
            ]
        )
        assert args.func(args) == 1
        assert capsys.readouterr().err.startswith("recurscope report: error: No store at ")

    def _run(self, store_path: Path, prereg_path: Path, *argv: str) -> int:
        args = self._parser().parse_args(
            [argv[0], "--db", str(store_path), "--prereg", str(prereg_path), *argv[1:]]
        )
        code: int = args.func(args)
        return code

    def test_an_unknown_role_names_the_known_roles(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """report --role with a role no session has exits 1 naming the roles present, no report."""
        code = self._run(store_path, prereg_path, "report", "--include-simulated", "--role", "nope")
        assert code == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith("recurscope report: error: no sessions with role 'nope'")
        assert "roles present" in captured.err and "'planner' (" in captured.err

    def test_a_window_past_the_data_says_where_the_data_is(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A --since after the last span exits 1 and says when the spans run."""
        code = self._run(
            store_path, prereg_path, "report", "--include-simulated", "--since", "2030-01-01"
        )
        assert code == 1
        err = capsys.readouterr().err
        assert "no sessions from 2030-01-01 00:00:00 UTC on" in err and "spans run from" in err

    def test_observed_only_says_how_to_include_simulated(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A filtered view of a simulated-only store names the origins and --include-simulated."""
        assert self._run(store_path, prereg_path, "report", "--role", "planner") == 1
        err = capsys.readouterr().err
        assert "origin 'observed'" in err and "'simulated'" in err and "--include-simulated" in err

    def test_the_unfiltered_headline_of_an_empty_window_is_still_a_report(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Without filters, no observed session is the pre-registered answer: exit 0, a report."""
        assert self._run(store_path, prereg_path, "report") == 0
        assert "# recurscope verdict" in capsys.readouterr().out

    def test_compare_with_an_unknown_service_says_so(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """compare with a filter that selects nothing exits 1 naming the services present."""
        code = self._run(
            store_path, prereg_path, "compare", "--include-simulated", "--by", "role",
            "--service", "nope",
        )  # fmt: skip
        assert code == 1
        err = capsys.readouterr().err
        assert err.startswith("recurscope compare: error: Nothing to compare: no sessions of ")
        assert "services present" in err

    def test_since_after_until_is_a_usage_error(
        self, store_path: Path, prereg_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--since after --until exits 2 before opening the store."""
        code = self._run(
            store_path, prereg_path, "report", "--since", "2026-12-05", "--until", "2026-12-01"
        )
        assert code == 2
        assert "--since must be before --until" in capsys.readouterr().err


class TestEmptySelection:
    """describe_empty_selection: one sentence saying what was asked and what exists."""

    def test_a_selection_with_sessions_is_not_empty(
        self, spans_db: duckdb.DuckDBPyConnection
    ) -> None:
        """A filter that keeps a session gets '' (nothing to explain)."""
        assert describe_empty_selection(spans_db, EvidenceFilter(role="planner")) == ""

    def test_unknown_values_list_what_exists(self, spans_db: duckdb.DuckDBPyConnection) -> None:
        """Each value no session has is named with the values present and their sessions."""
        text = describe_empty_selection(spans_db, EvidenceFilter(role="nope", prompt_version="v99"))
        assert text.startswith("no sessions with role 'nope' (roles present, with their sessions:")
        assert "no sessions with prompt version 'v99' (prompt versions present" in text

    def test_filters_that_select_apart_but_not_together(
        self, spans_db: duckdb.DuckDBPyConnection
    ) -> None:
        """Filters that each select sessions, but none together, say how many each selects."""
        # The first ten minutes hold one session, on prompt version v7.
        together = EvidenceFilter(until=START.replace(minute=10), prompt_version="tool-builder-v6")
        text = describe_empty_selection(spans_db, together)
        assert text.startswith("no session passes every filter at once")
        assert f"1 before {START:%Y-%m-%d} 09:10:00 UTC" in text
        assert "with prompt version 'tool-builder-v6'" in text

    def test_hostile_values_are_printable(self, spans_db: duckdb.DuckDBPyConnection) -> None:
        """Escapes and newlines in an asked value are shown escaped, never printed raw."""
        text = describe_empty_selection(spans_db, EvidenceFilter(service="x\x1b[31m\nred"))
        assert "\x1b" not in text and "\n" not in text

    def test_a_window_outside_the_preregistered_one_names_it(
        self, spans_db: duckdb.DuckDBPyConnection
    ) -> None:
        """A --since past the pre-registered window's end says so; without one, the window is empty."""
        inverted = EvidenceFilter(since=datetime(2027, 1, 1), until=datetime(2026, 12, 2))
        text = describe_empty_selection(
            spans_db, inverted, preregistered=(None, datetime(2026, 12, 2))
        )
        assert "outside the pre-registered window (before 2026-12-02 00:00:00 UTC)" in text
        assert "(since must be before until)" in describe_empty_selection(spans_db, inverted)

    def test_an_empty_store_says_how_to_fill_it(self) -> None:
        """A store without recurscope spans points at ingest and serve."""
        con = duckdb.connect()
        create_otel_traces_table(con)
        assert "recurscope ingest" in describe_empty_selection(con, EvidenceFilter(role="x"))


def test_compare_refuses_by_together_with_a_split_date(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--by beside --split-date is a mistake said aloud (exit 2), not silently ignored."""
    from recurscope.cli import main

    assert main(["compare", "--by", "role", "--split-date", "2026-12-02"]) == 2
    assert "not both" in capsys.readouterr().err


def test_detector_quality_carries_exact_intervals(tmp_path: Path) -> None:
    """tp/fp/fn counts give Clopper–Pearson bounds for precision and recall, shown in the report."""
    path = tmp_path / "quality.json"
    path.write_text(
        json.dumps(
            {"scores": {"ours": {"overall": {"accessed": {
                "tp": 36, "fp": 0, "fn": 2, "precision": 1.0, "recall": 36 / 38,
            }}}}}
        )
    )  # fmt: skip
    info = report.load_detector_quality(path)
    assert info is not None
    accessed = info["accessed"]
    assert accessed.support == 38
    assert accessed.precision_lower == pytest.approx(0.9026, abs=1e-4)
    assert accessed.recall_lower is not None and accessed.recall_lower < 36 / 38 < 1.0
    assert report.detector_summary(accessed).startswith("P 1.00 [0.90, 1.00] · R 0.95 [")


def test_an_undecided_verdict_comes_with_a_collection_plan() -> None:
    """Missing sessions become 'about N more sessions over about D more days at today's rate'."""
    from recurscope.pipeline.verdict.rule import (
        Verdict,
        default_preregistration_path,
        load_preregistration,
    )

    prereg = load_preregistration(default_preregistration_path())
    undecided = Verdict("recurse", "insufficient_evidence", "window not met", None, ())
    plan = report.collection_plan(undecided, prereg, sessions=40, days=5, runs=24)
    assert plan == (
        "about 60 more sessions over about 8 more days at today's rate (8.0 sessions a day)"
    )
    straddling = Verdict("recurse", "insufficient_evidence", "straddles", 500, ())
    assert "about 500 more sessions over about 63 more days" in report.collection_plan(
        straddling, prereg, sessions=120, days=15, runs=10
    )
    assert "from at least 10 more runs" in report.collection_plan(
        straddling, prereg, sessions=120, days=15, runs=10
    )
    decided = Verdict("recurse", "justified", "all above", None, ())
    assert report.collection_plan(decided, prereg, sessions=40, days=5, runs=24) == ""


def test_identical_sessions_give_a_zero_width_caveat(tmp_path: Path) -> None:
    """Sessions that all look the same have no bootstrap spread: the verdict says so."""
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_span_specs(
        con,
        [
            {"kind": "call", "span": f"c{n}", "session": f"s{n}", "trace": f"t{n}",
             "role": "planner", "accessed": True, "ops": ["grep"], "history_size": 3,
             "contextview_shaped": True, "fingerprint": "a" * 16, "at": n * 60}
            for n in range(12)
        ],
    )  # fmt: skip
    evidence.refresh(con, full=True)
    result = report.build_report(con, SHIPPED, detector_quality_path=None, include_simulated=True)
    contextview = next(v for v in result.verdicts if v.primitive == "contextview")
    assert any(
        "contextview_shaped_share has a zero-width interval" in c for c in contextview.caveats
    )
    recurse = next(v for v in result.verdicts if v.primitive == "recurse")
    assert not any("zero-width" in c for c in recurse.caveats)  # no data there: no interval at all


@pytest.fixture(scope="module")
def mixed() -> Iterator[duckdb.DuckDBPyConnection]:
    """120 sessions: the first 60 relabelled observed (no origin attribute), 60 simulated."""
    con = duckdb.connect()
    create_otel_traces_table(con)
    insert_synthetic_spans(
        con, sessions=120, seed=5, start=START, spacing_seconds=1800, sessions_per_run=6
    )
    sessions = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT SpanAttributes['gen_ai.conversation.id'] AS s FROM otel_traces "
            "WHERE s IS NOT NULL ORDER BY s LIMIT 60"
        ).fetchall()
    ]
    con.execute(
        "UPDATE otel_traces SET ResourceAttributes = map_from_entries(list_filter("
        "map_entries(ResourceAttributes), lambda e: e.key <> 'recurscope.origin')) "
        "WHERE SpanAttributes['gen_ai.conversation.id'] IN (SELECT unnest(?))",
        [sessions],
    )
    evidence.refresh(con, full=True)
    yield con
    con.close()


class TestOrigin:
    """The headline is observed evidence; simulated spans only when asked for, and said so."""

    def test_the_default_report_counts_observed_sessions_only(
        self, mixed: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        result = report.build_report(mixed, prereg_path, detector_quality_path=None)
        assert result.window.sessions == 60
        assert result.window.non_observed_spans == 0
        assert set(result.scope.excluded_spans) == {"simulated"}
        assert result.scope.excluded_spans["simulated"] > 0
        text = result.to_markdown()
        assert "**Observed spans only:**" in text and "--include-simulated" in text
        assert "Not observed evidence" not in text
        assert text.startswith("# recurscope verdict\n")
        assert not any("demonstration" in " ".join(v.caveats) for v in result.verdicts)

    def test_include_simulated_says_so_in_the_title_and_caveats(
        self, mixed: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        result = report.build_report(
            mixed, prereg_path, detector_quality_path=None, include_simulated=True
        )
        assert result.window.sessions == 120 and result.scope.excluded_spans == {}
        text = result.to_markdown()
        assert text.startswith("# recurscope verdict — including simulated spans (a demonstration)")
        assert all("demonstration" in " ".join(v.caveats) for v in result.verdicts)
        assert report.Report.from_json(result.to_json()) == result

    def test_a_simulated_only_store_has_no_observed_evidence(
        self, spans_db: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        result = report.build_report(spans_db, prereg_path, detector_quality_path=None)
        assert result.window.sessions == 0 and not result.window.met
        assert all(v.outcome == "insufficient_evidence" for v in result.verdicts)
        assert "**Observed spans only:**" in result.to_markdown()

    def test_compare_leaves_simulated_spans_out_unless_asked(
        self, mixed: duckdb.DuckDBPyConnection, prereg_path: Path
    ) -> None:
        observed = compare_module.compare(
            mixed, "date", split_date=START + timedelta(days=1), preregistration_path=prereg_path
        )
        both = compare_module.compare(
            mixed,
            "date",
            split_date=START + timedelta(days=1),
            preregistration_path=prereg_path,
            include_simulated=True,
        )
        assert observed.sessions_a + observed.sessions_b == 60
        assert both.sessions_a + both.sessions_b == 120
        assert any("Observed spans only" in n for n in observed.notes)
        assert any("a demonstration" in n for n in both.notes)

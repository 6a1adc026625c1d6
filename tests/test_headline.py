"""Headline intervals kept by writers: used only when exactly valid, never changing a report."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import duckdb
import pytest

from recurscope.instrumentation.analysis._sketch import encode, minhash
from recurscope.pipeline.evidence import models as evidence
from recurscope.pipeline.evidence.views import EvidenceView
from recurscope.pipeline.store.locking import open_for_writing, read_connection
from recurscope.pipeline.testing import add_synthetic_spans
from recurscope.pipeline.verdict import report as report_module
from recurscope.pipeline.verdict.headline import (
    HEADLINE_SWEEP_TABLE,
    HEADLINE_TABLE,
    load_headline_intervals,
    load_headline_sweep,
    store_headline_intervals,
)
from recurscope.pipeline.verdict.report import Report, build_report
from recurscope.pipeline.verdict.rule import default_preregistration_path, load_preregistration
from recurscope.pipeline.verdict.upkeep import EvidenceUpkeep

# Near-duplicate programs (sketches that cluster at 0.5 but not at 0.9), so the
# kept boilerplate sweep has something to differ on.
_NEAR = [
    {f"feature-{i}" for i in range(20)} | {f"variant-{n}-{i}" for i in range(n)} for n in range(4)
]
_SKETCHED = [
    {"kind": "call", "span": f"k{n}", "session": f"sketched-{n}", "role": "planner",
     "accessed": True, "ops": ["filter"], "fingerprint": f"{n % 4:016x}",
     "sketch": encode(minhash(_NEAR[n % 4])), "language": "python", "history_size": 4}
    for n in range(24)
]  # fmt: skip


def _store(db: Path, sessions: int = 150) -> None:
    with open_for_writing(db, kind="test", upkeep=EvidenceUpkeep()) as session:
        add_synthetic_spans(session.store.connection, sessions=sessions, seed=11, specs=_SKETCHED)
        session.after_write()  # spans changed: closing refreshes and keeps the headline


def _report(db: Path, prereg: Path | None = None, *, computed: bool = False) -> Report:
    original = report_module.load_headline_intervals
    if computed:
        report_module.load_headline_intervals = lambda *_: None  # type: ignore[assignment]
    try:
        with read_connection(db) as view:
            result = build_report(
                view.connection,
                prereg or default_preregistration_path(),
                detector_quality_path=None,
            )
    finally:
        report_module.load_headline_intervals = original  # type: ignore[assignment]
    return dataclasses.replace(result, generated_at="")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("headline") / "store.duckdb"
    _store(path)
    return path


def test_a_writer_keeps_the_headline_intervals_when_it_lets_go(db: Path) -> None:
    """Closing a writer session after new spans refreshes the evidence and stores the intervals."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        criteria = {r[0] for r in con.execute(f"SELECT criterion FROM {HEADLINE_TABLE}").fetchall()}
    finally:
        con.close()
    assert {"contextview_shaped_share", "same_role_share", "trim_pressure"} <= criteria


def test_a_report_from_kept_intervals_equals_one_computed_afresh(db: Path) -> None:
    """Kept or computed, the report is the same to the last digit (the sweep included)."""
    kept = _report(db)
    assert kept == _report(db, computed=True)
    sweep = kept.boilerplate.sweep if kept.boilerplate else ()
    assert [p.similarity for p in sweep] == [None, 0.5, 0.6, 0.7, 0.8, 0.9]
    assert len({p.clusters for p in sweep}) > 1  # the near-duplicates cluster differently


def test_a_writer_keeps_the_boilerplate_sweep_with_the_same_key(db: Path, tmp_path: Path) -> None:
    """The sweep is kept beside the intervals and read only under the same pre-registration."""
    prereg = load_preregistration(default_preregistration_path())
    with (
        read_connection(db) as view,
        EvidenceView(
            view.connection,
            min_other_sessions=prereg.min_other_sessions,
            clusters=prereg.clusters,
        ) as ev,
    ):
        kept = load_headline_sweep(ev, prereg)
        rows = ev.query(f"SELECT count(*) FROM {HEADLINE_SWEEP_TABLE}")[0][0]
        other = tmp_path / "prereg.toml"
        text = default_preregistration_path().read_text(encoding="utf-8")
        other.write_text(text.replace("resamples = 2000", "resamples = 500"), encoding="utf-8")
        assert load_headline_sweep(ev, load_preregistration(other)) is None
    assert rows == 6 and kept is not None and kept[0].similarity is None  # exact + 0.5..0.9


def test_kept_intervals_are_ignored_under_another_preregistration(db: Path, tmp_path: Path) -> None:
    """A different pre-registration file (another hash) never reads intervals kept for the shipped one."""
    other = tmp_path / "prereg.toml"
    text = default_preregistration_path().read_text(encoding="utf-8")
    other.write_text(text.replace("resamples = 2000", "resamples = 500"), encoding="utf-8")
    prereg = load_preregistration(other)
    with (
        read_connection(db) as view,
        EvidenceView(view.connection, min_other_sessions=prereg.min_other_sessions) as ev,
    ):
        assert load_headline_intervals(ev, prereg) is None
    assert _report(db, other).primary[0].resamples <= 500


def test_kept_intervals_are_ignored_after_a_newer_refresh(db: Path, tmp_path: Path) -> None:
    """Evidence refreshed since (without keeping the headline) makes readers compute."""
    db = Path(shutil.copy(db, tmp_path / "copy.duckdb"))
    con = duckdb.connect(str(db))
    try:
        evidence.refresh(con, full=True)
    finally:
        con.close()
    prereg = load_preregistration(default_preregistration_path())
    with (
        read_connection(db) as view,
        EvidenceView(view.connection, min_other_sessions=prereg.min_other_sessions) as ev,
    ):
        assert ev.stored_session_models
        assert load_headline_intervals(ev, prereg) is None


def test_storing_needs_current_evidence(tmp_path: Path, db: Path) -> None:
    """With spans the evidence has not seen, nothing is kept (readers compute from spans)."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    try:
        con.execute(
            "INSERT INTO otel_traces SELECT * REPLACE (SpanId || 'x' AS SpanId) FROM otel_traces "
            "WHERE SpanName = 'recurscope.call' LIMIT 3"
        )
        assert store_headline_intervals(con) is False
    finally:
        con.close()

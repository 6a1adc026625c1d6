"""The headline verdict's intervals, kept by writers beside the evidence.

The verdict's intervals come from a session bootstrap (2,000 resamples of
every session): about a second per 20,000 sessions. Readers — the dashboard,
``recurscope report`` — would pay that on every look. Writers (``ingest``,
``serve``, any :func:`~recurscope.pipeline.store.locking.open_for_writing` session)
already refresh the evidence before they let go; right after, they compute
the intervals of the *headline* scope (the whole store, unfiltered, under the
pre-registration at hand) and store them in ``headline_intervals``, with the
boilerplate sweep of the same scope (the shapes re-clustered at each
similarity, :func:`~recurscope.pipeline.evidence.clusters.boilerplate_sweep`)
in ``headline_sweep``.

A reader uses the stored intervals only when they are exactly what it would
compute: same pre-registration (SHA-256 of the file, which fixes thresholds,
resamples, seed and confidence), same evidence (the refresh they were
computed after is the latest, by the same SQL), same method
(:data:`HEADLINE_VERSION`). Otherwise it computes them itself. Filtered
(exploratory) views and pre-registrations with a bounded window always
compute.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Final

import duckdb

from ..evidence.clusters import DEFAULT_CLUSTERS, SweepPoint, boilerplate_sweep
from ..evidence.models import REFRESH_LOG, models_version
from ..evidence.views import EvidenceFilter, EvidenceView
from .stats import Interval

if TYPE_CHECKING:
    from .rule import Preregistration

__all__ = [
    "HEADLINE_SWEEP_TABLE",
    "HEADLINE_TABLE",
    "HEADLINE_VERSION",
    "load_headline_intervals",
    "load_headline_sweep",
    "store_headline_intervals",
]

HEADLINE_TABLE: Final = "headline_intervals"
"""One row per criterion: the headline's interval and the key it is valid for."""

HEADLINE_SWEEP_TABLE: Final = "headline_sweep"
"""One row per similarity of the boilerplate sweep (NULL: exact fingerprints), same key."""

HEADLINE_VERSION: Final = 3
"""Bumped whenever what is kept or how it is computed changes (method, estimator, sweep)."""

_log = logging.getLogger(__name__)

_COLUMNS: Final = (
    "criterion",
    "estimate",
    "lower",
    "upper",
    "confidence",
    "numerator",
    "denominator",
    "sessions",
    "sessions_total",
    "resamples",
)


def _latest_refresh(view: EvidenceView) -> int | None:
    rows = view.query(f"SELECT max(seq) FROM {REFRESH_LOG}")
    return None if not rows or rows[0][0] is None else int(rows[0][0])


def _key(prereg: Preregistration, refresh_seq: int | None) -> tuple[object, ...]:
    return (HEADLINE_VERSION, prereg.sha256, refresh_seq, models_version())


def load_headline_intervals(
    view: EvidenceView, prereg: Preregistration
) -> dict[str, Interval] | None:
    """The stored headline intervals when they match ``prereg`` and the latest refresh."""
    if prereg.window.start is not None or prereg.window.end is not None:
        return None
    try:
        latest = _latest_refresh(view)
        rows = view.records(
            f"SELECT * FROM {HEADLINE_TABLE} WHERE key_version = ? AND prereg_sha256 = ? "
            "AND refresh_seq = ? AND models_version = ?",
            list(_key(prereg, latest)),
        )
    except duckdb.Error:
        return None  # no table yet (an older store, or no writer since)
    if not rows:
        return None
    return {
        str(row["criterion"]): Interval(
            estimate=row["estimate"],
            lower=row["lower"],
            upper=row["upper"],
            confidence=float(row["confidence"]),
            numerator=float(row["numerator"]),
            denominator=float(row["denominator"]),
            sessions=int(row["sessions"]),
            sessions_total=int(row["sessions_total"]),
            resamples=int(row["resamples"]),
            method=prereg.interval,  # the key holds the file's hash, and so its method
        )
        for row in rows
    }


def load_headline_sweep(view: EvidenceView, prereg: Preregistration) -> list[SweepPoint] | None:
    """The stored headline boilerplate sweep when it matches ``prereg`` and the latest refresh."""
    if prereg.window.start is not None or prereg.window.end is not None:
        return None
    try:
        latest = _latest_refresh(view)
        rows = view.query(
            "SELECT similarity, boilerplate_calls, reading_calls, clusters, boilerplate_clusters "
            f"FROM {HEADLINE_SWEEP_TABLE} WHERE key_version = ? AND prereg_sha256 = ? "
            "AND refresh_seq = ? AND models_version = ? ORDER BY similarity NULLS FIRST",
            list(_key(prereg, latest)),
        )
    except duckdb.Error:
        return None
    if not rows:
        return None
    return [
        SweepPoint(
            similarity=None if r[0] is None else float(r[0]),
            boilerplate_calls=int(r[1]),
            reading_calls=int(r[2]),
            clusters=int(r[3]),
            boilerplate_clusters=int(r[4]),
        )
        for r in rows
    ]


def headline_sweep(view: EvidenceView, prereg: Preregistration) -> list[SweepPoint]:
    """The boilerplate sweep of the view's scope: its shapes re-clustered at each similarity."""
    reading = view.query("SELECT coalesce(sum(history_reading_calls), 0) FROM sessions")[0][0]
    shapes = view.arrow(
        "SELECT session_id, fingerprint, sketch, example_language, first_seen, calls "
        "FROM session_fingerprints"
    )
    return boilerplate_sweep(
        shapes, int(reading), prereg.min_other_sessions, prereg.clusters or DEFAULT_CLUSTERS
    )


def store_headline_intervals(
    con: duckdb.DuckDBPyConnection, preregistration: str | Path | None = None
) -> bool:
    """Compute the headline intervals and store them; ``False`` when there is no headline to keep.

    Call on a writable connection right after an evidence refresh. Nothing
    is stored when the pre-registration cannot be read, bounds the window
    (the headline is then a filtered view), or the evidence tables are not
    current; readers then compute the intervals themselves.
    """
    from .report import compute_intervals
    from .rule import (
        PreregistrationError,
        default_preregistration_path,
        load_preregistration,
    )

    try:
        prereg = load_preregistration(preregistration or default_preregistration_path())
    except PreregistrationError as error:
        _log.info("headline intervals not kept: %s", error)
        return False
    if prereg.window.start is not None or prereg.window.end is not None:
        return False
    with EvidenceView(
        con,
        EvidenceFilter(),
        min_other_sessions=prereg.min_other_sessions,
        clusters=prereg.clusters,
    ) as view:
        if view.stale_reason or not view.stored_session_models:
            return False
        latest = _latest_refresh(view)
        intervals = compute_intervals(prereg, view.session_matrix())
        sweep = headline_sweep(view, prereg)
    key = _key(prereg, latest)
    rows = [
        (
            name,
            i.estimate,
            i.lower,
            i.upper,
            i.confidence,
            i.numerator,
            i.denominator,
            i.sessions,
            i.sessions_total,
            i.resamples,
            *key,
        )
        for name, i in sorted(intervals.items())
    ]
    cur = con.cursor()
    try:
        cur.execute("BEGIN TRANSACTION")
        cur.execute(
            f"""
            CREATE OR REPLACE TABLE {HEADLINE_TABLE} (
                criterion VARCHAR NOT NULL,
                estimate DOUBLE,
                lower DOUBLE,
                upper DOUBLE,
                confidence DOUBLE NOT NULL,
                numerator DOUBLE NOT NULL,
                denominator DOUBLE NOT NULL,
                sessions BIGINT NOT NULL,
                sessions_total BIGINT NOT NULL,
                resamples BIGINT NOT NULL,
                key_version BIGINT NOT NULL,      -- HEADLINE_VERSION
                prereg_sha256 VARCHAR NOT NULL,   -- the pre-registration file's hash
                refresh_seq BIGINT,               -- the evidence refresh they follow
                models_version VARCHAR NOT NULL   -- the evidence SQL's hash
            )
            """
        )
        if rows:
            placeholders = ", ".join("?" for _ in range(len(_COLUMNS) + 4))
            cur.executemany(f"INSERT INTO {HEADLINE_TABLE} VALUES ({placeholders})", rows)
        cur.execute(
            f"""
            CREATE OR REPLACE TABLE {HEADLINE_SWEEP_TABLE} (
                similarity DOUBLE,                -- NULL: exact fingerprints
                boilerplate_calls BIGINT NOT NULL,
                reading_calls BIGINT NOT NULL,
                clusters BIGINT NOT NULL,
                boilerplate_clusters BIGINT NOT NULL,
                key_version BIGINT NOT NULL,
                prereg_sha256 VARCHAR NOT NULL,
                refresh_seq BIGINT,
                models_version VARCHAR NOT NULL
            )
            """
        )
        cur.executemany(
            f"INSERT INTO {HEADLINE_SWEEP_TABLE} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    p.similarity,
                    p.boilerplate_calls,
                    p.reading_calls,
                    p.clusters,
                    p.boilerplate_clusters,
                    *key,
                )
                for p in sweep
            ],
        )
        cur.execute("COMMIT")
    except BaseException:
        cur.execute("ROLLBACK")
        raise
    finally:
        cur.close()
    return True

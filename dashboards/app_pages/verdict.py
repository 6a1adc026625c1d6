"""Verdict: both primitives at a glance, each primary criterion against its threshold."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui
from recurscope.pipeline.verdict.document import AmendmentInfo
from recurscope.pipeline.verdict.markdown import known_error_text
from recurscope.pipeline.verdict.report import (
    OUTCOME_LABELS,
    CriterionRow,
    Report,
    detector_summary,
)

OUTCOME_STYLE = {
    "justified": ("green", ":material/check_circle:"),
    "not_justified": ("blue", ":material/cancel:"),
    "insufficient_evidence": ("orange", ":material/help:"),
}


def detector_text(row: CriterionRow) -> str:
    if row.detector is None:
        return row.detector_note or "—"
    summary: str = detector_summary(row.detector)
    return summary


def criteria_frame(rows: tuple[CriterionRow, ...]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "criterion": [r.name for r in rows],
            "primitive": [r.primitive for r in rows],
            "estimate": [r.estimate for r in rows],
            "lower": [r.lower for r in rows],
            "upper": [r.upper for r in rows],
            "threshold": [r.threshold for r in rows],
            "position": [r.side.replace("_", " ") for r in rows],
            # Detector quality next to the estimate it qualifies, before the counts.
            "detector": [detector_text(r) for r in rows],
            "sessions": [r.sessions for r in rows],
            "numerator": [r.numerator for r in rows],
            "denominator": [r.denominator for r in rows],
            "definition": [r.definition for r in rows],
        },
        schema_overrides={
            "estimate": pl.Float64,
            "lower": pl.Float64,
            "upper": pl.Float64,
            "threshold": pl.Float64,
        },
    )


def forest_plot(frame: pl.DataFrame, confidence: float) -> alt.LayerChart:
    """Estimate and adjusted interval per criterion, with its threshold as a red tick."""
    base = alt.Chart(frame).encode(
        y=alt.Y("criterion:N", sort=None, title=None, axis=alt.Axis(labelLimit=260)),
    )
    scale = alt.Scale(domain=[0, 1])
    interval = base.mark_rule(strokeWidth=3).encode(
        x=alt.X("lower:Q", scale=scale, title=f"share ({confidence:.2%} interval)"),
        x2="upper:Q",
        color=alt.Color(
            "primitive:N",
            title="primitive",
            scale=alt.Scale(domain=["contextview", "recurse"], range=["#1f77b4", "#9467bd"]),
            legend=alt.Legend(
                labelExpr="datum.label == 'contextview' ? 'ContextView' : 'recurse(...)'"
            ),
        ),
    )
    point = base.mark_point(filled=True, size=90).encode(
        x="estimate:Q",
        color="primitive:N",
        tooltip=[
            "criterion",
            alt.Tooltip("estimate:Q", format=".3f"),
            alt.Tooltip("lower:Q", format=".3f"),
            alt.Tooltip("upper:Q", format=".3f"),
            alt.Tooltip("threshold:Q", format=".2f"),
            "sessions",
            "detector",
        ],
    )
    threshold = base.mark_tick(color="#d62728", thickness=3, size=26).encode(
        x="threshold:Q", tooltip=[alt.Tooltip("threshold:Q", format=".2f")]
    )
    chart: alt.LayerChart = (interval + point + threshold).properties(
        height=60 * max(frame.height, 1)
    )
    return chart


def headline(report: Report) -> None:
    columns = st.columns(len(report.verdicts))
    for column, verdict in zip(columns, report.verdicts, strict=True):
        color, icon = OUTCOME_STYLE.get(verdict.outcome, ("gray", ":material/help:"))
        label = OUTCOME_LABELS.get(verdict.outcome, verdict.outcome)
        with column.container(border=True):
            st.markdown(f"#### {verdict.label}")
            st.markdown(f"### :{color}[{icon} {label}]")
            st.write(verdict.reason)
            if verdict.plan:
                st.caption(
                    f"Plan: {verdict.plan} (at today's estimates; a planning figure, not a "
                    "power analysis)."
                )
            for caveat in verdict.caveats:
                st.caption(f":material/warning: {ui.escape(caveat)}")


def gates(report: Report) -> None:
    window = report.window
    st.subheader("Evidence window", anchor=False)
    columns = st.columns(4)
    for column, (label, have, need) in zip(
        columns,
        (
            ("Sessions", window.sessions, window.min_sessions),
            ("Days", window.days, window.min_days),
            ("Runs", window.runs, window.min_runs),
            ("Seeds", window.seeds, window.min_seeds),
        ),
        strict=True,
    ):
        applies = not (label == "Seeds" and window.seeds == 0)
        if not applies:
            column.metric(label, "—", help="Applies only when spans carry recurscope.seed.")
            continue
        met = have >= need
        column.metric(
            label,
            f"{have:,}",
            delta=f"met (≥ {need:,})" if met else f"{need - have:,} more needed",
            delta_color="normal" if met else "inverse",
            delta_arrow="off",
            border=True,
        )
    span = f"{(window.first_span_at or '—')[:19]} → {(window.last_span_at or '—')[:19]}"
    st.caption(f"{window.spans:,} evidence spans, {span} (UTC).")


def amendments(made: Sequence[AmendmentInfo]) -> None:
    """The latest amendment in full; the earlier ones, newest first, folded under one expander."""
    if not made:
        return
    *earlier, latest = sorted(made, key=lambda a: a.version)
    st.info(
        f"**Amended: version {latest.version}** "
        f"({(latest.registered_at or 'undated')[:10]}): {ui.escape(latest.changes)}.",
        icon=":material/edit_note:",
    )
    with st.expander(f"Why version {latest.version}"):
        st.markdown(ui.escape(latest.rationale))
    if not earlier:
        return
    with st.expander(f"{len(earlier)} earlier amendment{'s' if len(earlier) > 1 else ''}"):
        for amendment in reversed(earlier):
            st.markdown(
                f"**Version {amendment.version}** "
                f"({(amendment.registered_at or 'undated')[:10]}): "
                f"{ui.escape(amendment.changes)}."
            )
            st.caption(ui.escape(amendment.rationale))


def preregistration(report: Report) -> None:
    pre = report.preregistration
    st.subheader("Pre-registration", anchor=False)
    flagged = pre.registered_after_start or pre.modified_after_start
    cols = st.columns([3, 2])
    cols[0].markdown(f"SHA-256 `{pre.sha256}`")
    cols[0].caption(
        f"{ui.escape(pre.path)} · registered {(pre.registered_at or '—')[:19]} · last changed "
        f"{(pre.modified_at or '—')[:19]} · window's first span "
        f"{(pre.window_first_span_at or '—')[:19]}"
    )
    if flagged:
        cols[1].error(
            "Integrity flag: the pre-registration was registered or changed after the evidence "
            "window began.",
            icon=":material/flag:",
        )
    else:
        cols[1].success(
            "Integrity: fixed before the window's first span.", icon=":material/verified:"
        )
    amendments(pre.amendments)
    with st.expander("Decision rule and statistics"):
        st.markdown(
            f"{pre.correction.title()} over m = {pre.comparisons} primary criteria at alpha "
            f"{pre.alpha:g}: primary intervals at {pre.adjusted_confidence:.2%} "
            f"({pre.interval}), descriptive at {pre.descriptive_confidence:.0%}; "
            f"{pre.resamples:,} session-bootstrap resamples, seed {pre.seed}; "
            f"boilerplate S = {pre.min_other_sessions}."
        )
        st.text(pre.rule.strip())


with ui.page(
    "Verdict",
    "Are recursion primitives (ContextView over history, recurse(...)) justified yet? "
    "The same verdict `recurscope report` prints, from the same functions.",
) as ctx:
    report = ctx.load(
        queries.verdict_data,
        ctx.filters,
        ctx.settings.preregistration,
        ctx.settings.detector_quality,
        ctx.settings.db,
    )

headline(report)

st.subheader("Primary criteria", anchor=False)
primary = criteria_frame(report.primary)
confidence = report.preregistration.adjusted_confidence
plotted = primary.filter(pl.col("estimate").is_not_null())
if plotted.is_empty():
    st.info("No primary criterion has data yet.")
else:
    st.altair_chart(forest_plot(plotted, confidence), width="stretch")
    st.caption(
        f"Dot: estimate (ratio of per-session sums). Bar: {confidence:.2%} session-bootstrap "
        "interval (Bonferroni-adjusted). Red tick: pre-registered threshold. A primitive is "
        "justified when every lower bound clears its threshold."
    )
ui.table(
    primary.drop("primitive"),
    name="primary-criteria",
    caption="detector: precision (P) and recall (R) of history-access detection on the "
    "labelled corpus with 95% exact (Clopper–Pearson) intervals, n = labelled positives, "
    "beside every estimate that depends on detection.",
    column_config={
        "estimate": st.column_config.NumberColumn(format="%.3f"),
        "lower": st.column_config.NumberColumn(format="%.3f"),
        "upper": st.column_config.NumberColumn(format="%.3f"),
        "threshold": st.column_config.NumberColumn(format="%.2f"),
    },
)

if report.boilerplate is not None and any(r.name == "boilerplate_share" for r in report.primary):
    info = report.boilerplate
    st.caption(
        "boilerplate_share counts near-duplicate clusters. "
        + known_error_text(info.known_error, info.sketch_scheme, info.similarity is not None)
    )

gates(report)
preregistration(report)

st.subheader("Descriptive measures", anchor=False)
ui.table(
    criteria_frame(report.descriptive).drop("threshold", "position"),
    name="descriptive-measures",
    height=36 * (len(report.descriptive) + 1) + 3,
    caption=f"{report.preregistration.descriptive_confidence:.0%} intervals; they take no part "
    "in the decision.",
    column_config={
        "estimate": st.column_config.NumberColumn(format="%.3f"),
        "lower": st.column_config.NumberColumn(format="%.3f"),
        "upper": st.column_config.NumberColumn(format="%.3f"),
    },
)

for note in (*report.sampling.notes, *report.notes):
    st.caption(f":material/info: {ui.escape(note)}")

st.subheader("Copy as Markdown", anchor=False)
markdown = report.to_markdown()
left, right = st.columns(2)
left.download_button(
    "Download report (Markdown)",
    markdown,
    file_name="recurscope-verdict.md",
    mime="text/markdown",
    icon=":material/description:",
    width="stretch",
)
right.download_button(
    "Download report (JSON)",
    report.to_json(),
    file_name="recurscope-verdict.json",
    mime="application/json",
    icon=":material/data_object:",
    width="stretch",
)
with st.expander("Report as Markdown (copy button at the top right)"):
    st.code(markdown, language="markdown")

"""Compare: one criterion at a time, group A against group B, with a session-bootstrap interval."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui
from recurscope.pipeline.verdict.compare import DIMENSIONS

LABELS = {
    "strategy": "trim strategy",
    "prompt_version": "prompt version",
    "model": "model",
    "service_version": "service version",
    "service": "service",
    "role": "role",
    "compaction": "compaction (on/off per session)",
    "date": "date split (before/after a day)",
}

with ui.page(
    "Compare",
    "Prompt version A vs B, model vs model, trim strategy vs strategy, does compaction reduce "
    "trimming? Pick an attribute and two groups: each criterion's difference A − B comes with "
    "a 95% session-bootstrap interval. Comparisons are exploratory; they never produce a verdict.",
) as ctx:
    by = st.selectbox(
        "Compare by",
        queries.COMPARE_DIMENSIONS,
        format_func=lambda d: LABELS.get(d, d),
        key="compare_by",
    )
    split: datetime | None = None
    groups: tuple[str, str] | None = None
    if by == "date":
        first, last = ctx.overview.first_day, ctx.overview.last_day
        if first is None or last is None or first == last:
            st.info("A date split needs evidence on at least two days.")
            st.stop()
        day = st.date_input(
            "Split at the start of",
            value=first + (last - first) / 2 + timedelta(days=1) if last > first else last,
            min_value=first + timedelta(days=1),
            max_value=last,
            key="compare_split",
        )
        split = datetime.combine(day, time())
    else:
        values = ctx.load(queries.compare_groups, by, ctx.filters)
        names = [v for v, _ in values]
        sessions = dict(values)
        if len(names) < 2:
            st.info(
                f"Comparing by {LABELS[by]} needs two groups; the data has "
                f"{len(names)} value(s) for it."
            )
            st.stop()
        cols = st.columns(2)
        group_a = cols[0].selectbox(
            "Group A",
            names,
            index=0,
            key=f"compare_a_{by}",
            format_func=lambda v: f"{v} ({sessions.get(v, 0):,} sessions)",
        )
        rest = [n for n in names if n != group_a]
        group_b = cols[1].selectbox(
            "Group B",
            rest,
            index=0,
            key=f"compare_b_{by}",
            format_func=lambda v: f"{v} ({sessions.get(v, 0):,} sessions)",
        )
        groups = (group_a, group_b)
    with st.spinner("Bootstrapping sessions…"):
        result = ctx.load(
            queries.compare_data, by, ctx.filters, groups, split, ctx.settings.preregistration
        )

note = DIMENSIONS[by].note if by in DIMENSIONS else ""
summary = st.columns(3)
summary[0].metric(f"A: {ui.escape(result.group_a)}", f"{result.sessions_a:,} sessions", border=True)
summary[1].metric(f"B: {ui.escape(result.group_b)}", f"{result.sessions_b:,} sessions", border=True)
summary[2].metric(
    "Differences excluding 0",
    f"{sum(d.excludes_zero for d in result.differences)} of {len(result.differences)}",
    border=True,
)
frame = pl.DataFrame(
    [
        {
            "criterion": d.criterion,
            "A": d.estimate_a,
            "B": d.estimate_b,
            "difference (A − B)": d.difference,
            "lower": d.lower,
            "upper": d.upper,
            "sessions A": d.sessions_a,
            "sessions B": d.sessions_b,
            "excludes 0": d.excludes_zero,
        }
        for d in result.differences
    ],
    schema_overrides={
        "A": pl.Float64,
        "B": pl.Float64,
        "difference (A − B)": pl.Float64,
        "lower": pl.Float64,
        "upper": pl.Float64,
    },
)
RATES = {"boundary_shifts_per_session"}  # counts per session, not shares: table only
plotted = (
    frame.filter(pl.col("difference (A − B)").is_not_null() & ~pl.col("criterion").is_in(RATES))
    .rename({"difference (A − B)": "difference"})
    .with_columns(
        pl.when(pl.col("excludes 0"))
        .then(pl.lit("excludes 0"))
        .otherwise(pl.lit("includes 0"))
        .alias("interval")
    )
)
if plotted.is_empty():
    st.info("No criterion has data in both groups.")
else:
    base = alt.Chart(plotted).encode(
        y=alt.Y("criterion:N", sort=None, title=None, axis=alt.Axis(labelLimit=260))
    )
    zero = (
        alt.Chart(pl.DataFrame({"x": [0.0]}))
        .mark_rule(color="#888", strokeDash=[4, 4])
        .encode(x="x:Q")
    )
    chart = (
        base.mark_rule(strokeWidth=3).encode(
            x=alt.X("lower:Q", title="difference A − B (95% interval)"),
            x2="upper:Q",
            color=alt.Color(
                "interval:N",
                title="95% interval",
                scale=alt.Scale(domain=["excludes 0", "includes 0"], range=["#d62728", "#1f77b4"]),
            ),
        )
        + base.mark_point(filled=True, size=90).encode(
            x="difference:Q",
            color="interval:N",
            tooltip=[
                "criterion",
                alt.Tooltip("A:Q", format=".3f"),
                alt.Tooltip("B:Q", format=".3f"),
                alt.Tooltip("difference:Q", format="+.3f"),
                alt.Tooltip("lower:Q", format="+.3f"),
                alt.Tooltip("upper:Q", format="+.3f"),
            ],
        )
        + zero
    ).properties(height=45 * plotted.height + 30)
    st.altair_chart(chart, width="stretch")
    st.caption(
        "Shares only; boundary shifts per session (a count) is in the table below. Red: the "
        "interval excludes 0 — exploratory, not a verdict."
    )
ui.table(
    frame,
    name=f"compare-{by}",
    column_config={
        c: st.column_config.NumberColumn(format="%.3f")
        for c in ("A", "B", "difference (A − B)", "lower", "upper")
    },
)
if result.skipped:
    st.caption(
        "Not compared (the attribute does not live on their rows): "
        + ", ".join(ui.escape(s) for s in result.skipped)
    )
for line in (note, *result.notes):
    if line:
        st.caption(f":material/info: {ui.escape(line)}")
st.caption(
    f"Session bootstrap, {result.resamples:,} resamples, seed {result.seed}. The same sessions "
    "are drawn for both groups, so a session in both stays paired with itself."
)
with st.expander("As Markdown"):
    st.code(result.to_markdown(), language="markdown")

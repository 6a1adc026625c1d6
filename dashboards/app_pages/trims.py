"""Trims: how often history trimming fires, what it removes, and with which strategy."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui

PHASES = ["fits", "pre_boundary", "goal_overflow", "no_boundary"]
PHASE_COLORS = ["#c7e9c0", "#9ecae1", "#d62728", "#fdae6b"]

with ui.page(
    "Trims",
    "Every planning of the model's context is recorded, fitting or not: trim pressure is the "
    "share of plannings that had to trim. goal_overflow means the current goal's own turns "
    "exceeded the budget.",
) as ctx:
    data = ctx.load(queries.trims_data, ctx.filters)

totals = data.totals
cols = st.columns(5)
cols[0].metric("Plannings", f"{totals['plannings'] or 0:,}", border=True)
cols[1].metric(
    "Trim pressure", ui.pct(ui.ratio(totals["trimmed"], totals["plannings"])), border=True
)
cols[2].metric(
    "Goal overflow",
    ui.pct(ui.ratio(totals["goal_overflow"], totals["boundary_trims"])),
    help="goal_overflow trims / trims with a goal boundary (the verdict's goal_overflow_share, "
    "before the session bootstrap).",
    border=True,
)
cols[3].metric("Stale asks dropped", f"{totals['stale_asks_dropped'] or 0:,}", border=True)
cols[4].metric(
    "Compaction failures",
    f"{totals['compaction_failed'] or 0:,}",
    help=f"of {totals['compaction_used'] or 0:,} plannings that used a summarizer",
    border=True,
)
if not totals["plannings"]:
    st.info("No plannings match the filters.")
    st.stop()

st.subheader("Trim pressure over turns", anchor=False)
st.altair_chart(
    alt.Chart(data.by_turn)
    .mark_line(point=True)
    .encode(
        x=alt.X(
            "turn:Q", title="planning within the session (turn; the last point pools later turns)"
        ),
        y=alt.Y("trim_pressure:Q", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("strategy:N"),
        tooltip=["strategy", "turn", "plannings", alt.Tooltip("trim_pressure:Q", format=".1%")],
    )
    .properties(height=260),
    width="stretch",
)

left, right = st.columns(2)
with left:
    st.subheader("Phase mix by strategy", anchor=False)
    st.altair_chart(
        alt.Chart(data.phases)
        .mark_bar()
        .encode(
            y=alt.Y("strategy:N", title=None),
            x=alt.X("plannings:Q", stack="normalize", axis=alt.Axis(format="%"), title="plannings"),
            color=alt.Color(
                "phase:N", scale=alt.Scale(domain=PHASES, range=PHASE_COLORS), sort=PHASES
            ),
            tooltip=["strategy", "phase", "plannings"],
        )
        .properties(height=50 * max(data.by_strategy["strategy"].n_unique(), 2)),
        width="stretch",
    )
with right:
    st.subheader("Removed: dropped vs summarized", anchor=False)
    sizes = data.by_strategy.select("strategy", "unit", "dropped_size", "summarized_size").unpivot(
        index=["strategy", "unit"], variable_name="what", value_name="size"
    )
    st.altair_chart(
        alt.Chart(sizes.with_columns(pl.col("what").str.replace("_size", "")))
        .mark_bar()
        .encode(
            y=alt.Y("strategy:N", title=None),
            x=alt.X("size:Q", title="size removed (in each planning's unit)"),
            color=alt.Color("what:N", title=None),
            tooltip=["strategy", "unit", "what", "size"],
        )
        .properties(height=50 * max(data.by_strategy["strategy"].n_unique(), 2)),
        width="stretch",
    )
    st.caption("Sizes are tokens or bytes, as each planning's unit says (column `unit` below).")

st.subheader("By strategy", anchor=False)
ui.table(
    data.by_strategy,
    name="trims-by-strategy",
    column_config={"trim_pressure": st.column_config.NumberColumn(format="percent")},
)
with st.expander("Trim pressure by day"):
    st.altair_chart(
        alt.Chart(data.by_day)
        .mark_line(point=True)
        .encode(
            x=ui.day_x(),
            y=alt.Y("trim_pressure:Q", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
            color="strategy:N",
            tooltip=[
                "day:T",
                "strategy",
                "plannings",
                alt.Tooltip("trim_pressure:Q", format=".1%"),
            ],
        )
        .properties(height=220),
        width="stretch",
    )
    ui.table(data.by_day, name="trims-by-day")

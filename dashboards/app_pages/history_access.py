"""History access: how often generated code reads the conversation history, and how."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui

with ui.page(
    "History access",
    "Which calls read the conversation history, with which operations, and how many records — "
    "detected statically in the generated code and observed at run time.",
) as ctx:
    data = ctx.load(queries.history_access_data, ctx.filters)

totals = data.totals
reliance = ui.ratio(totals["reading_calls_with_history"], totals["calls_with_history"])
shaped = ui.ratio(totals["contextview_shaped_calls"], totals["history_reading_calls"])
cols = st.columns(4)
cols[0].metric("Calls", f"{totals['calls'] or 0:,}", border=True)
cols[1].metric("History-reading calls", f"{totals['history_reading_calls'] or 0:,}", border=True)
cols[2].metric(
    "History reliance",
    ui.pct(reliance),
    help="History-reading calls / calls whose history was non-empty when they started.",
    border=True,
)
cols[3].metric(
    "ContextView-shaped",
    ui.pct(shaped),
    help="History-reading calls that re-implement grep, partition/group or summarize.",
    border=True,
)
if not totals["calls"]:
    st.info("No calls match the filters.")
    st.stop()

st.subheader("Access rate over time", anchor=False)
by_day = data.by_day.with_columns(
    (pl.col("contextview_shaped_calls") / pl.col("history_reading_calls")).alias(
        "contextview_shaped_share"
    )
)
long = by_day.unpivot(
    on=["history_reliance", "contextview_shaped_share"],
    index=["day", "calls"],
    variable_name="measure",
    value_name="share",
)
st.altair_chart(
    alt.Chart(long)
    .mark_line(point=True)
    .encode(
        x=ui.day_x(),
        y=alt.Y("share:Q", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(
            "measure:N",
            title=None,
            scale=alt.Scale(
                domain=["history_reliance", "contextview_shaped_share"],
                range=["#1f77b4", "#d62728"],
            ),
            legend=alt.Legend(
                labelExpr="datum.label == 'history_reliance' ? 'history reliance' : 'ContextView-shaped share'"
            ),
        ),
        tooltip=["day:T", "measure", alt.Tooltip("share:Q", format=".1%"), "calls"],
    )
    .properties(height=260),
    width="stretch",
)

left, right = st.columns(2)
with left:
    st.subheader("By role", anchor=False)
    st.altair_chart(
        alt.Chart(data.by_role)
        .mark_bar()
        .encode(
            y=alt.Y("role:N", sort="-x", title=None),
            x=alt.X("history_reliance:Q", axis=alt.Axis(format="%"), title="history reliance"),
            tooltip=[
                "role",
                "calls",
                "history_reading_calls",
                alt.Tooltip("history_reliance:Q", format=".1%"),
                alt.Tooltip("contextview_shaped_share:Q", format=".1%"),
            ],
        )
        .properties(height=40 * max(data.by_role.height, 2)),
        width="stretch",
    )
with right:
    st.subheader("Operation mix", anchor=False)
    if data.op_mix.is_empty():
        st.caption("No operations recorded.")
    else:
        st.altair_chart(
            alt.Chart(data.op_mix)
            .mark_bar()
            .encode(
                y=alt.Y("op:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
                x=alt.X(
                    "share:Q", axis=alt.Axis(format="%"), title="share of history-reading calls"
                ),
                color=alt.Color(
                    "op_class:N",
                    title="class",
                    scale=alt.Scale(domain=["contextview", "simple"], range=["#d62728", "#1f77b4"]),
                ),
                tooltip=["op", "op_class", "calls", alt.Tooltip("share:Q", format=".1%")],
            )
            .properties(height=26 * max(data.op_mix.height, 2)),
            width="stretch",
        )
        st.caption("Red: shapes a ContextView would replace (grep, partition, group, summarize).")

st.subheader("Records read per history-reading call", anchor=False)
stats = data.records_read_stats
if data.records_read.is_empty():
    st.caption("No call recorded how many records it read (runtime observation was off).")
else:
    cols = st.columns(4)
    for column, key in zip(cols, ("median", "p90", "p99", "max"), strict=True):
        column.metric(key, f"{stats[key]:,}" if stats[key] is not None else "—")
    st.altair_chart(
        alt.Chart(data.records_read)
        .mark_bar()
        .encode(
            x=alt.X(
                "bucket:N", sort=None, title="records read (bucket)", axis=alt.Axis(labelAngle=0)
            ),
            y=alt.Y("calls:Q"),
            tooltip=["bucket", "calls"],
        )
        .properties(height=220),
        width="stretch",
    )
    st.caption(
        "Records the observed view saw the code read, per history-reading call. 0: the code "
        "reads history (found statically) but touched no record at run time, e.g. len(history) "
        "or a loop over an empty slice."
    )

st.subheader("Who detected the access", anchor=False)
left, right = st.columns(2)
with left:
    ui.table(
        data.detection,
        name="detection-sources",
        caption="Per history-reading call: both = the observed view saw reads at run time and "
        "the static analysis found them; static = only the analysis (nothing read at run "
        "time); runtime = only the view.",
    )
with right:
    if data.agreement.is_empty():
        st.caption(
            "No call carries the runtime's own detection (it exists for converted native logs, "
            "e.g. Recurgent's `history_access_detected`)."
        )
    else:
        ui.table(
            data.agreement,
            name="runtime-vs-recurscope",
            caption="The runtime's own detection (native logs) next to ours, call by call.",
        )

with st.expander("Per role and per day (tables)"):
    ui.table(data.by_role, name="access-by-role")
    ui.table(data.by_day, name="access-by-day")

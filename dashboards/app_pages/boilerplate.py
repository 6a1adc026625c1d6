"""Boilerplate: history code shapes that recur across sessions (a missing affordance?)."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui
from recurscope.pipeline.verdict.rule import PreregistrationError, load_preregistration

with ui.page(
    "Boilerplate",
    "Code shapes (fingerprints of the normalized history-processing statements) that the model "
    "writes again and again. A shape used in at least S other sessions than any one (S is "
    "pre-registered) is boilerplate: a hint of a missing runtime affordance.",
) as ctx:
    try:
        s_value = load_preregistration(ctx.settings.preregistration).min_other_sessions
    except PreregistrationError as error:
        st.error(ui.escape(error))
        st.stop()
    data = ctx.load(queries.boilerplate_data, ctx.filters, s_value)

clusters = data.clusters
share = ui.ratio(data.boilerplate_calls, data.reading_calls)
cols = st.columns(4)
cols[0].metric("Code shapes", f"{data.shapes:,}", border=True)
cols[1].metric(
    "Boilerplate shapes",
    f"{data.boilerplate_shapes:,}",
    help=f"Recurring in at least S = {data.min_other_sessions} other sessions.",
    border=True,
)
cols[2].metric("History-reading calls", f"{data.reading_calls:,}", border=True)
cols[3].metric(
    "Boilerplate share",
    ui.pct(share),
    help="History-reading calls whose shape is boilerplate / history-reading calls "
    "(the verdict's boilerplate_share, before the session bootstrap).",
    border=True,
)
if clusters.is_empty():
    st.info("No history-reading call carries a code fingerprint for this selection.")
    st.stop()

st.subheader("How widely each shape recurs", anchor=False)
top = clusters.head(30).with_columns(
    pl.col("fingerprint").str.slice(0, 12).alias("shape"),
    pl.when(pl.col("is_boilerplate"))
    .then(pl.lit("boilerplate"))
    .otherwise(pl.lit("rare"))
    .alias("status"),
)
st.altair_chart(
    alt.Chart(top)
    .mark_bar()
    .encode(
        x=alt.X("sessions:Q", title="sessions using the shape", axis=alt.Axis(tickCount=10)),
        y=alt.Y("shape:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
        color=alt.Color(
            "status:N",
            scale=alt.Scale(domain=["boilerplate", "rare"], range=["#d62728", "#9ecae1"]),
            title=None,
        ),
        tooltip=["fingerprint", "calls", "sessions", "other_sessions", "contextview_shaped_calls"],
    )
    .properties(height=18 * top.height + 40),
    width="stretch",
)
st.caption(
    f"The {top.height} most widespread shapes; a shape is boilerplate when used in at least "
    f"{data.min_other_sessions + 1} sessions (S = {data.min_other_sessions} others)."
)

st.subheader("Clusters", anchor=False)
if data.shapes > clusters.height:
    st.caption(f"The {clusters.height:,} most widespread of {data.shapes:,} shapes.")
listing = clusters.select(
    "fingerprint",
    "is_boilerplate",
    "calls",
    "sessions",
    "contextview_ops",
    "contextview_shaped_calls",
    "first_seen",
    "last_seen",
    pl.col("example_code").is_not_null().alias("has_example"),
)
event = st.dataframe(
    listing,
    hide_index=True,
    on_select="rerun",
    selection_mode="single-row",
    key="cluster_table",
    column_config={
        "contextview_ops": st.column_config.ListColumn("ContextView-shaped ops"),
        "contextview_shaped_calls": st.column_config.NumberColumn("ContextView-shaped calls"),
        "is_boilerplate": st.column_config.CheckboxColumn("boilerplate"),
        "has_example": st.column_config.CheckboxColumn("example"),
        "first_seen": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
        "last_seen": st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm"),
    },
)
st.download_button(
    "Download CSV",
    ui.csv_bytes(listing),
    file_name="recurscope-clusters.csv",
    mime="text/csv",
    icon=":material/download:",
)

selected = event.selection.rows if event is not None else []
row = clusters.row(selected[0] if selected else 0, named=True)
st.subheader("Example", anchor=False)
st.markdown(
    f"Shape {ui.escape(row['fingerprint'])} — {row['calls']:,} calls in {row['sessions']:,} sessions, "
    f"first {row['first_seen']:%Y-%m-%d %H:%M}, last {row['last_seen']:%Y-%m-%d %H:%M}."
)
if row["contextview_ops"]:
    st.markdown(
        "Re-implements ContextView-shaped operations: "
        + ", ".join(ui.escape(op) for op in row["contextview_ops"])
    )
if row["example_code"]:
    language = (row["example_language"] or "python").lower()
    st.code(row["example_code"], language=language if language in ("python", "ruby") else None)
    st.caption(
        f"From session {ui.escape(row['example_session_id'])} (content capture was on there)."
    )
else:
    st.caption(
        "No example program: content capture was off for every call of this shape (the "
        "fingerprint and operations are recorded without the code)."
    )
st.caption("Select a row in the table to see another cluster.")

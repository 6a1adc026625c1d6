"""Boilerplate: history code that recurs across sessions, re-spellings included."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui
from recurscope.pipeline.verdict.markdown import known_error_text
from recurscope.pipeline.verdict.rule import PreregistrationError

# Up to this many shapes the sweep is computed when the page opens; above, on request.
SWEEP_AUTO_SHAPES = 5_000
SWEEP_KEY = "boilerplate_sweep"

with ui.page(
    "Boilerplate",
    "History-processing code that the model writes again and again. Programs are grouped into "
    "near-duplicate clusters by a content-free sketch of what each program does: it is run on "
    "fixed synthetic histories and the sketch hashes which of their records and values reach "
    "its answer (a re-spelled program lands with its original); a cluster used in at least S other "
    "sessions than any one (S and the similarity are pre-registered) is boilerplate: a hint "
    "of a missing runtime affordance.",
) as ctx:
    preregistration = str(ctx.settings.preregistration)
    try:
        data = ctx.load(queries.boilerplate_data, ctx.filters, preregistration)
    except PreregistrationError as error:
        st.error(ui.escape(error))
        st.stop()
    # The sweep's toggle is drawn at the bottom; its state is read here, while the store is open.
    sweep_wanted = bool(st.session_state.get(SWEEP_KEY, data.shapes <= SWEEP_AUTO_SHAPES))
    sweep = (
        ctx.load(queries.boilerplate_sweep_data, ctx.filters, preregistration)
        if sweep_wanted and not data.clusters.is_empty()
        else None
    )

clusters = data.clusters
share = ui.ratio(data.boilerplate_calls, data.reading_calls)
exact_share = ui.ratio(data.exact_boilerplate_calls, data.reading_calls)
cols = st.columns(5)
cols[0].metric(
    "Code shapes",
    f"{data.shapes:,}",
    help="Distinct exact fingerprints of history-processing code.",
    border=True,
)
cols[1].metric(
    "Clusters",
    f"{data.cluster_count:,}",
    help=f"Near-duplicate clusters of those shapes at similarity ≥ {data.similarity:g}.",
    border=True,
)
cols[2].metric(
    "Boilerplate clusters",
    f"{data.boilerplate_clusters:,}",
    help=f"Clusters recurring in at least S = {data.min_other_sessions} other sessions.",
    border=True,
)
cols[3].metric(
    "Boilerplate share",
    ui.pct(share),
    help="History-reading calls whose cluster is boilerplate / history-reading calls "
    "(the verdict's boilerplate_share, before the session bootstrap).",
    border=True,
)
cols[4].metric(
    "Exact-hash share",
    ui.pct(exact_share),
    help="The same share with exact fingerprints as the unit (pre-registration v1-2): "
    "re-spellings count as different programs. Shown beside the clustered share, never "
    "instead.",
    border=True,
)
registration = (
    f"pre-registration version {data.preregistration_version}"
    if data.registered
    else f"the default: pre-registration version {data.preregistration_version} registers "
    "no clustering"
)
st.caption(
    f"Clusters: first-fit leader clustering of MinHash sketches at similarity ≥ "
    f"{data.similarity:g} ({registration}; LSH {data.band_count} bands × {data.band_rows} "
    f"rows). Every member is within the threshold of its cluster's leader, so clusters "
    f"do not chain. Exact-hash boilerplate: {data.exact_boilerplate_shapes:,} shapes, "
    f"{data.exact_boilerplate_calls:,} of {data.reading_calls:,} history-reading calls."
    + (
        f" {data.sketchless_shapes:,} shapes carry no sketch (recorded before sketches "
        "existed, or malformed) and are clusters of their own."
        if data.sketchless_shapes
        else ""
    )
)
st.info(known_error_text(data.known_error, data.sketch_scheme), icon=":material/rule:")
if clusters.is_empty():
    st.info("No history-reading call carries a code fingerprint for this selection.")
    st.stop()

st.subheader("How widely each cluster recurs", anchor=False)
top = clusters.head(30).with_columns(
    pl.col("cluster_id").str.slice(0, 12).alias("cluster"),
    pl.when(pl.col("is_boilerplate"))
    .then(pl.lit("boilerplate"))
    .otherwise(pl.lit("rare"))
    .alias("status"),
)
st.altair_chart(
    alt.Chart(top)
    .mark_bar()
    .encode(
        x=alt.X("sessions:Q", title="sessions using the cluster", axis=alt.Axis(tickCount=10)),
        y=alt.Y("cluster:N", sort="-x", title=None, axis=alt.Axis(labelOverlap=False)),
        color=alt.Color(
            "status:N",
            scale=alt.Scale(domain=["boilerplate", "rare"], range=["#d62728", "#9ecae1"]),
            title=None,
        ),
        tooltip=[
            alt.Tooltip("cluster_id:N", title="cluster"),
            "shapes:Q",
            "calls:Q",
            "sessions:Q",
            "other_sessions:Q",
            alt.Tooltip("min_similarity:Q", title="least similarity", format=".2f"),
            "contextview_shaped_calls:Q",
        ],
    )
    .properties(height=18 * top.height + 40),
    width="stretch",
)
st.caption(
    f"The {top.height} most widespread clusters (labelled by their first 12 hex digits); a "
    f"cluster is boilerplate when its shapes are used in at least "
    f"{data.min_other_sessions + 1} sessions (S = {data.min_other_sessions} others)."
)

st.subheader("Clusters", anchor=False)
if data.cluster_count > clusters.height:
    st.caption(f"The {clusters.height:,} most widespread of {data.cluster_count:,} clusters.")
listing = clusters.select(
    "cluster_id",
    "is_boilerplate",
    "shapes",
    "calls",
    "sessions",
    "min_similarity",
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
        "cluster_id": st.column_config.TextColumn(
            "cluster", help="The fingerprint of the cluster's first shape (its leader)."
        ),
        "is_boilerplate": st.column_config.CheckboxColumn("boilerplate"),
        "shapes": st.column_config.NumberColumn("shapes", help="Exact fingerprints in it."),
        "min_similarity": st.column_config.NumberColumn(
            "least similarity",
            help="The least similar member to the leader (1.00: identical sketches).",
            format="%.2f",
        ),
        "contextview_ops": st.column_config.ListColumn("ContextView-shaped ops"),
        "contextview_shaped_calls": st.column_config.NumberColumn("ContextView-shaped calls"),
        "first_seen": st.column_config.DatetimeColumn("first seen", format="YYYY-MM-DD HH:mm"),
        "last_seen": st.column_config.DatetimeColumn("last seen", format="YYYY-MM-DD HH:mm"),
        "has_example": st.column_config.CheckboxColumn("example"),
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
st.subheader("One cluster", anchor=False)
st.markdown(
    f"Cluster {ui.escape(row['cluster_id'])} — {row['shapes']:,} shapes, {row['calls']:,} calls "
    f"in {row['sessions']:,} sessions, first {row['first_seen']:%Y-%m-%d %H:%M}, last "
    f"{row['last_seen']:%Y-%m-%d %H:%M}"
    + (
        f"; least similarity to the leader {row['min_similarity']:.2f}."
        if row["min_similarity"] is not None
        else "."
    )
)
if row["contextview_ops"]:
    st.markdown(
        "Re-implements ContextView-shaped operations: "
        + ", ".join(ui.escape(op) for op in row["contextview_ops"])
    )
members = data.members.filter(pl.col("cluster_id") == row["cluster_id"]).drop("cluster_id")
st.dataframe(
    members,
    hide_index=True,
    key="member_table",
    column_config={
        "fingerprint": st.column_config.TextColumn("shape (fingerprint)"),
        "is_leader": st.column_config.CheckboxColumn("leader"),
        "similarity": st.column_config.NumberColumn(
            "similarity to leader", help="Share of equal MinHash words.", format="%.2f"
        ),
        "first_seen": st.column_config.DatetimeColumn("first seen", format="YYYY-MM-DD HH:mm"),
        "last_seen": st.column_config.DatetimeColumn("last seen", format="YYYY-MM-DD HH:mm"),
        "has_example": st.column_config.CheckboxColumn("example"),
    },
)
if row["example_code"]:
    language = (row["example_language"] or "python").lower()
    st.code(row["example_code"], language=language if language in ("python", "ruby") else None)
    st.caption(
        f"Shape {ui.escape(row['example_fingerprint'])} from session "
        f"{ui.escape(row['example_session_id'])} (content capture was on there)."
    )
else:
    st.caption(
        "No example program: content capture was off for every call of this cluster (the "
        "fingerprint, sketch and operations are recorded without the code)."
    )
st.caption("Select a row in the Clusters table to see another cluster.")

st.subheader("The share at other thresholds", anchor=False)
st.caption(
    "The boilerplate share with this selection's shapes re-clustered from scratch at each "
    "similarity, beside the exact-hash share: the registered threshold was fixed before any "
    "verdict was looked at, and this shows how much the answer depends on it. Points, not "
    "verdicts."
)
st.toggle(
    "Compute the sweep",
    value=data.shapes <= SWEEP_AUTO_SHAPES,
    key=SWEEP_KEY,
    help=f"On by default up to {SWEEP_AUTO_SHAPES:,} shapes: it clusters them five times.",
)
if sweep is not None:
    points = sweep.points.with_columns(
        pl.when(pl.col("similarity").is_null())
        .then(pl.lit("exact hash"))
        .otherwise(pl.format("≥ {}", pl.col("similarity").round(2)))
        .alias("unit"),
        (pl.col("similarity") == sweep.similarity).fill_null(False).alias("registered"),
    )
    clustered = points.filter(pl.col("similarity").is_not_null())
    exact_value = points.filter(pl.col("similarity").is_null())["share"]
    line = (
        alt.Chart(clustered)
        .mark_line(point=True)
        .encode(
            x=alt.X("similarity:Q", title="similarity threshold", scale=alt.Scale(zero=False)),
            y=alt.Y("share:Q", title="boilerplate share", axis=alt.Axis(format="%")),
            tooltip=[
                "unit:N",
                alt.Tooltip("share:Q", format=".1%"),
                "boilerplate_calls:Q",
                "reading_calls:Q",
                "clusters:Q",
                "boilerplate_clusters:Q",
            ],
        )
    )
    layers = [
        line,
        alt.Chart(pl.DataFrame({"x": [sweep.similarity]}))
        .mark_rule(strokeDash=[4, 4])
        .encode(x="x:Q"),
    ]
    if exact_value.len() and exact_value[0] is not None:
        layers.append(
            alt.Chart(pl.DataFrame({"y": [exact_value[0]]})).mark_rule(color="#888").encode(y="y:Q")
        )
    st.altair_chart(alt.layer(*layers), width="stretch")
    st.caption(
        f"Dashed: the registered threshold ({sweep.similarity:g}). Grey: the exact-hash share."
    )
    st.dataframe(
        points.select(
            "unit",
            "registered",
            "share",
            "boilerplate_calls",
            "reading_calls",
            "clusters",
            "boilerplate_clusters",
        ),
        hide_index=True,
        key="sweep_table",
        column_config={
            "share": st.column_config.NumberColumn("share", format="percent"),
            "registered": st.column_config.CheckboxColumn("registered"),
        },
    )

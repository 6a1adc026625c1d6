"""Sessions: one conversation, call by call, with its trims and goal boundary shifts."""

from __future__ import annotations

import altair as alt
import streamlit as st

from recurscope.dashboards import queries, ui

with ui.page(
    "Sessions",
    "Pick a session (gen_ai.conversation.id) to see its calls, plannings and boundary shifts "
    "in time order, with each call's history-access evidence.",
) as ctx:
    search = st.text_input(
        "Find a session by id", key="session_search", placeholder="part of a session id"
    )
    listing = ctx.load(queries.session_list, ctx.filters, search.strip())
    options = listing["session_id"].to_list() if not listing.is_empty() else []
    wanted = st.query_params.get("session")
    if wanted and wanted not in options:
        options.insert(0, wanted)
    chosen = st.session_state.get("session_pick")
    if chosen not in options:
        chosen = options[0] if options else None
    detail = ctx.load(queries.session_detail, chosen) if chosen is not None else None

if chosen is None or detail is None:
    st.info("No session matches the filters and the search.")
    st.stop()

st.selectbox(
    f"Session ({len(options):,} shown, most recent first)",
    options,
    index=options.index(chosen),
    key="session_pick",
)
if detail.summary is None:
    st.warning(f"No session {ui.escape(chosen)} in the evidence.")
    st.stop()

s = detail.summary
top = st.columns(3)
top[0].metric("Calls", f"{s['calls']:,}", border=True)
top[1].metric("Calls reading history", f"{s['history_reading_calls']:,}", border=True)
top[2].metric(
    "ContextView-shaped reads",
    f"{s['contextview_shaped_calls']:,}",
    help="History-reading calls that re-implement grep, partition/group or summarize.",
    border=True,
)
bottom = st.columns(3)
bottom[0].metric(
    "Delegations",
    f"{s['delegations']:,}",
    help=f"{s['same_role_delegations']} back to the caller's (or an ancestor's) role",
    border=True,
)
bottom[1].metric(
    "Plannings that trimmed", f"{s['trimmed_plannings']:,} of {s['plannings']:,}", border=True
)
bottom[2].metric("Boundary shifts", f"{s['boundary_shifts']:,}", border=True)
st.caption(
    f"{s['first_span_at']:%Y-%m-%d %H:%M:%S} → {s['last_span_at']:%Y-%m-%d %H:%M:%S} (UTC) · service {ui.escape(s['service_name'])} · "
    f"prompt {ui.escape(s['prompt_version'])} · model {ui.escape(s['model'])} · "
    f"{s['runs']} run(s) over {s['days']} day(s)"
)

st.subheader("Timeline", anchor=False)
st.altair_chart(
    alt.Chart(detail.timeline)
    .mark_point(filled=True, size=110)
    .encode(
        x=alt.X("started_at:T", title="time (UTC)", axis=alt.Axis(format="%H:%M:%S")),
        y=alt.Y("kind:N", title=None, sort=["call", "trim", "boundary shift"]),
        color=alt.Color(
            "detail:N",
            title=None,
            scale=alt.Scale(
                domain=[
                    "ContextView-shaped read",
                    "reads history",
                    "no history read",
                    "trimmed",
                    "fits",
                    "goal changed marker",
                    "no marker",
                ],
                range=["#d62728", "#ff7f0e", "#c7c7c7", "#1f77b4", "#aec7e8", "#9467bd", "#dadaeb"],
            ),
        ),
        shape=alt.Shape("kind:N", legend=None),
        tooltip=[
            "started_at:T",
            "kind",
            "label",
            "detail",
            alt.Tooltip("duration_ms:Q", format=".1f"),
        ],
    )
    .properties(height=200),
    width="stretch",
)

st.subheader("Calls and their access evidence", anchor=False)
ui.table(
    detail.calls,
    name="session-calls",
    column_config={
        "ops": st.column_config.ListColumn("ops"),
        "code_content": st.column_config.TextColumn("code (when captured)", width="large"),
    },
)
st.subheader("Plannings", anchor=False)
ui.table(detail.trims, name="session-trims")
st.subheader("Boundary shifts", anchor=False)
ui.table(detail.shifts, name="session-shifts")
with st.expander("Where and when it ran"):
    ui.table(detail.activity, name="session-activity")

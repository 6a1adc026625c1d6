"""Goal boundaries: when users switch goals, and when the model re-emits the same need."""

from __future__ import annotations

import altair as alt
import streamlit as st

from recurscope.dashboards import queries, ui

REASONS = ["first_need", "new_goal", "same_task_reemit", "resumed_goal", "escalation"]
COLORS = ["#c7e9c0", "#1f77b4", "#d62728", "#9467bd", "#ff7f0e"]

with ui.page(
    "Goal boundaries",
    "Each recorded need moves the goal boundary the trim planner protects. A same-task "
    "re-emit moves it without a new goal (lossy); a resumed goal returns to an earlier one.",
) as ctx:
    data = ctx.load(queries.goals_data, ctx.filters)

totals = data.totals
cols = st.columns(4)
cols[0].metric("Boundary shifts", f"{totals['shifts'] or 0:,}", border=True)
cols[1].metric(
    "Per session",
    f"{(totals['shifts'] or 0) / totals['sessions_in_view']:.2f}"
    if totals["sessions_in_view"]
    else "—",
    help="Boundary shifts / sessions in view (the report's boundary_shifts_per_session).",
    border=True,
)
cols[2].metric(
    "Same-task re-emits",
    ui.pct(ui.ratio(totals["same_task_reemits"], totals["later_needs"])),
    help="same_task_reemit shifts / shifts after the first need.",
    border=True,
)
cols[3].metric("'Goal changed' markers", f"{totals['changed_markers'] or 0:,}", border=True)
if not totals["shifts"]:
    st.info("No boundary shifts match the filters.")
    st.stop()

st.subheader("Boundary shifts over time, by reason", anchor=False)
st.altair_chart(
    alt.Chart(ui.with_day_label(data.by_day))
    .mark_bar()
    .encode(
        x=ui.day_band(data.by_day),
        y=alt.Y("shifts:Q", title="boundary shifts"),
        color=alt.Color("reason:N", scale=alt.Scale(domain=REASONS, range=COLORS), sort=REASONS),
        tooltip=["day_label", "reason", "shifts", "changed_markers"],
    )
    .properties(height=260),
    width="stretch",
)
left, right = st.columns(2)
with left:
    ui.table(
        data.reasons,
        name="shifts-by-reason",
        caption="Mean similarity: of each need to the previous one (0–1).",
        column_config={"mean_similarity": st.column_config.NumberColumn(format="%.2f")},
    )
with right:
    ui.table(
        data.sessions,
        name="sessions-by-shifts",
        caption="Sessions with the most shifts (open one on the Sessions page).",
        height=300,
    )

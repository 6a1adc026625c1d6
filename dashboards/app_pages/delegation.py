"""Delegation: same-role decomposition (what recurse(...) would replace) and its depth."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui


def dot_text(value: object, limit: int = 40) -> str:
    """Span text inside a quoted DOT label: no quotes, backslashes or line breaks survive."""
    text = " ".join(str(value or "").split())
    text = text.replace("\\", "/").replace('"', "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def dot_tree(calls: pl.DataFrame) -> str:
    """Graphviz DOT of one trace's calls, caller -> callee, same-role edges in red."""
    lines = [
        "digraph delegation {",
        "  rankdir=LR;",
        '  node [shape=box, style="rounded,filled", fillcolor="#f0f2f6", fontname="sans-serif"];',
    ]
    ids = {span: f"n{i}" for i, span in enumerate(calls["span_id"].to_list())}
    for row in calls.iter_rows(named=True):
        label = f"{dot_text(row['role'])}\\n{dot_text(row['method'])}"
        fill = "#fde0dd" if row["same_role"] else "#f0f2f6"
        lines.append(f'  {ids[row["span_id"]]} [label="{label}", fillcolor="{fill}"];')
    for row in calls.iter_rows(named=True):
        parent = row["caller_span_id"] or row["parent_span_id"]
        if parent not in ids:
            continue
        color = "#d62728" if row["same_role"] else "#555555"
        lines.append(
            f"  {ids[parent]} -> {ids[row['span_id']]} "
            f'[color="{color}", label="{dot_text(row["kind"], 20)}"];'
        )
    lines.append("}")
    return "\n".join(lines)


with ui.page(
    "Delegation",
    "Calls that delegate to another call. A delegation back to the caller's own role (or an "
    "ancestor's) is same-role decomposition: what recurse(...) would express directly.",
) as ctx:
    data = ctx.load(queries.delegation_data, ctx.filters)
    traces = data.traces
    trace_id = None
    if not traces.is_empty():
        options = traces["trace_id"].to_list()
        labels = {
            r["trace_id"]: f"{r['trace_id'][:12]}… — {r['delegations']} delegations, depth "
            f"{r['max_depth']}, session {r['session_id']}"
            for r in traces.iter_rows(named=True)
        }
        trace_id = st.session_state.get("delegation_trace")
        if trace_id not in labels:
            trace_id = options[0]
        tree = ctx.load(queries.delegation_tree, trace_id)

totals = data.totals
share = ui.ratio(totals["same_role"], totals["classified"])
cols = st.columns(4)
cols[0].metric("Delegations", f"{totals['delegations'] or 0:,}", border=True)
cols[1].metric(
    "Same-role share",
    ui.pct(share),
    help="Same-role delegations / delegations whose same-role status is known "
    "(the verdict's same_role_share, before the session bootstrap).",
    border=True,
)
cols[2].metric("Deepest chain", f"{totals['max_depth'] or 0}", border=True)
cols[3].metric(
    "Caller not found",
    f"{totals['orphans'] or 0:,}",
    help="Delegations whose calling span is missing (sampled out or not exported); their "
    "same-role status is unknown unless the runtime sent it.",
    border=True,
)
if not totals["delegations"]:
    st.info("No delegations match the filters.")
    st.stop()

left, right = st.columns(2)
with left:
    st.subheader("Same-role share by day", anchor=False)
    st.altair_chart(
        alt.Chart(data.by_day)
        .mark_line(point=True)
        .encode(
            x=ui.day_x(),
            y=alt.Y("same_role_share:Q", axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
            tooltip=["day:T", "delegations", alt.Tooltip("same_role_share:Q", format=".1%")],
        )
        .properties(height=240),
        width="stretch",
    )
with right:
    st.subheader("Depth", anchor=False)
    depth = data.depth.with_columns((pl.col("delegations") - pl.col("same_role")).alias("other"))
    st.altair_chart(
        alt.Chart(
            depth.unpivot(
                on=["same_role", "other"], index="depth", variable_name="kind", value_name="n"
            )
        )
        .mark_bar()
        .encode(
            x=alt.X("depth:O", title="depth", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("n:Q", title="delegations"),
            color=alt.Color(
                "kind:N",
                scale=alt.Scale(domain=["same_role", "other"], range=["#d62728", "#9ecae1"]),
                title=None,
            ),
            tooltip=["depth", "kind", "n"],
        )
        .properties(height=240),
        width="stretch",
    )

left, right = st.columns(2)
with left:
    ui.table(data.by_role, name="delegations-by-role", caption="By target role.")
with right:
    ui.table(data.kinds, name="delegations-by-kind", caption="By delegation kind.")

st.subheader("Delegation tree of one trace", anchor=False)
if trace_id is not None:
    st.selectbox(
        "Trace (most delegations first)",
        options,
        index=options.index(trace_id),
        format_func=lambda t: labels.get(t, t),
        key="delegation_trace",
    )
    st.graphviz_chart(dot_tree(tree))
    st.caption("Red edges and boxes: same-role delegation. Edge label: delegation kind.")
    ui.table(tree, name="delegation-tree")

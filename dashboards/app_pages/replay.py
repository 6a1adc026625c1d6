"""Replay: what each trim strategy would have done to real conversations, one by one."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui

TABLE_KEY = "replay_conversations"
STRATEGY_ORDER = ["goal_aware", "goal_return", "head_tail", "drop_oldest"]


def _listing(conversations: pl.DataFrame) -> pl.DataFrame:
    """One row per conversation: its returns and, per strategy (compaction off), the share
    of the returned-to goals' earlier turns its plans removed."""
    if conversations.is_empty():
        return conversations
    base = conversations.group_by("conversation", maintain_order=True).agg(
        pl.col("plannings").max().alias("turns"),
        pl.col("returns").max(),
        pl.col("returned_goal_size").max(),
    )
    off = conversations.filter(pl.col("compaction") == "off").with_columns(
        pl.when(pl.col("returned_goal_size") > 0)
        .then(100 * pl.col("returned_goal_removed") / pl.col("returned_goal_size"))
        .otherwise(None)
        .alias("removed_share")
    )
    if off.is_empty():
        return base
    wide = off.pivot(on="strategy", index="conversation", values="removed_share")
    order = [s for s in STRATEGY_ORDER if s in wide.columns]
    order += sorted(c for c in wide.columns if c not in order and c != "conversation")
    return base.join(wide.select("conversation", *order), on="conversation", how="left")


with ui.page(
    "Replay",
    "What each trim strategy would have done to replayed conversations (`recurscope replay`): "
    "turn by turn, the stale ask, the current goal's first turn, the earlier turns of a goal "
    "the user came back to, and tokens dropped vs summarized. Replayed spans never count "
    "toward the verdict: every conversation is replayed once per strategy.",
) as ctx:
    data = ctx.load(queries.replay_data, ctx.filters)
    listing = _listing(data.conversations)
    state = st.session_state.get(TABLE_KEY)
    rows = list(state["selection"]["rows"]) if state and "selection" in state else []
    chosen = (
        str(listing["conversation"][rows[0] if rows and rows[0] < listing.height else 0])
        if not listing.is_empty()
        else None
    )
    turns = ctx.load(queries.replay_turns, ctx.filters, chosen) if chosen is not None else None

strategies = data.strategies
if strategies.is_empty():
    st.info(
        "No replayed conversations in view. Replay your own chats through every strategy: "
        "`recurscope replay chats.jsonl --budget 2000 --out replay.jsonl`, then "
        "`recurscope ingest replay.jsonl` (replayed spans show when *Include simulated spans* "
        "is on in the sidebar)."
    )
    st.stop()

rank = {name: n for n, name in enumerate(STRATEGY_ORDER)}
strategies = strategies.sort(
    pl.col("strategy").replace_strict(rank, default=len(rank)), "strategy", "compaction"
)
totals = strategies.select(pl.col("plannings").sum(), pl.col("returns").max()).row(0, named=True)
cols = st.columns(4)
cols[0].metric("Conversations", f"{data.conversations['conversation'].n_unique():,}", border=True)
cols[1].metric(
    "Strategies × compaction",
    f"{strategies.height:,}",
    help="Each conversation is one session per strategy and compaction setting.",
    border=True,
)
cols[2].metric("Plannings", f"{totals['plannings'] or 0:,}", border=True)
cols[3].metric(
    "Returns",
    f"{totals['returns'] or 0:,}",
    help="User turns that came back to an earlier goal (each strategy plans every one of them).",
    border=True,
)

with_share = strategies.with_columns(
    pl.when(pl.col("returned_goal_size") > 0)
    .then(pl.col("returned_goal_removed") / pl.col("returned_goal_size"))
    .otherwise(None)
    .alias("returned_goal_removed_share")
)
LABELS = {
    "dropped_size": "dropped",
    "summarized_size": "summarized",
    "stale_asks_dropped": "stale asks dropped",
    "goal_first_turns_removed": "goal 1st turn removed",
    "returned_goal_size": "returned-to context",
    "returned_goal_removed": "of it removed",
}
st.subheader("What each strategy removed", anchor=False)
ui.table(
    with_share,
    name="replay-strategies",
    caption="Sizes in the replay's unit (tokens unless --encoding bytes). Stale asks dropped and "
    "goal first turns removed count plannings; returned-goal removed is how much of the "
    "returned-to goals' earlier turns the plans removed (dropped or summarized).",
    column_config={
        **{
            c: st.column_config.NumberColumn(label, format="localized")
            for c, label in LABELS.items()
        },
        "returned_goal_removed_share": st.column_config.NumberColumn(
            "share removed", format="percent"
        ),
    },
)
share_chart = (
    alt.Chart(with_share.drop_nulls("returned_goal_removed_share"))
    .encode(
        y=alt.Y("strategy:N", sort=STRATEGY_ORDER, title=None),
        x=alt.X(
            "returned_goal_removed_share:Q",
            axis=alt.Axis(format="%"),
            scale=alt.Scale(domain=[0, 1]),
            title="share of the returned-to goals' earlier turns removed",
        ),
        yOffset="compaction:N",
        tooltip=[
            "strategy",
            "compaction",
            "returns",
            alt.Tooltip("returned_goal_removed_share:Q", format=".1%"),
        ],
    )
    .properties(height=60 * max(strategies["strategy"].n_unique(), 2))
)
st.altair_chart(
    share_chart.mark_bar().encode(
        color=alt.Color("compaction:N", scale=alt.Scale(domain=["off", "on"]))
    )
    # The share written beside each bar, so a strategy that removes nothing reads "0%",
    # not as a missing bar.
    + share_chart.mark_text(align="left", dx=4, fontSize=11).encode(
        text=alt.Text("returned_goal_removed_share:Q", format=".0%")
    ),
    width="stretch",
)

st.subheader("Conversation by conversation", anchor=False)
st.caption(
    "One row per conversation (the ones with the most returned-to context first): per "
    "strategy, the share of the returned-to goals' earlier turns removed, without compaction. "
    "Select a row to see that conversation turn by turn."
)
share_columns = {
    name: st.column_config.NumberColumn(f"{name} removed", format="%.0f%%")
    for name in listing.columns
    if name not in ("conversation", "turns", "returns", "returned_goal_size")
}
st.dataframe(
    listing,
    hide_index=True,
    on_select="rerun",
    selection_mode="single-row",
    key=TABLE_KEY,
    column_config={
        "conversation": st.column_config.TextColumn("conversation"),
        "turns": st.column_config.NumberColumn("user turns", format="localized"),
        "returned_goal_size": st.column_config.NumberColumn(
            "returned-to context",
            help="Size of the returned-to goals' earlier turns, summed "
            "over the conversation's returns.",
            format="localized",
        ),
        **share_columns,
    },
)
if chosen is not None and turns is not None:
    st.subheader(f"Conversation {ui.escape(chosen)}, turn by turn", anchor=False)
    ui.table(
        turns,
        name="replay-turns",
        caption="Every planning of this conversation, each strategy and compaction setting side "
        "by side: the turn's goal switch as the detector (or an annotation) decided it.",
        column_config={
            "switch": st.column_config.TextColumn("goal switch"),
            "trimmed": st.column_config.CheckboxColumn("trimmed"),
            "dropped_size": st.column_config.NumberColumn("dropped", format="localized"),
            "summarized_size": st.column_config.NumberColumn("summarized", format="localized"),
            "stale_ask_dropped": st.column_config.CheckboxColumn("stale ask dropped"),
            "goal_first_turn_removed": st.column_config.CheckboxColumn("goal 1st turn removed"),
            "returned_goal_size": st.column_config.NumberColumn(
                "returned-to context", format="localized"
            ),
            "returned_goal_removed": st.column_config.NumberColumn(
                "of it removed", format="localized"
            ),
        },
    )

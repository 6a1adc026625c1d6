"""History needs: which record fields generated code reads, and how far back it reads."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from recurscope.dashboards import queries, ui
from recurscope.pipeline.verdict.rule import PreregistrationError

UNITS = (
    ("records", "depth_records", "records back from the newest"),
    ("seconds", "depth_seconds", "seconds before the call"),
    ("tokens", "depth_tokens", "tokens of history between"),
)

with ui.page(
    "History needs",
    "The design record's open questions 1 and 2, from the evidence: which fields of a history "
    "record generated code actually reads (static analysis), and how far back the records it "
    "reads lie (the runtime view, else a literal bound in the code). Descriptive: these "
    "measures decide no verdict.",
) as ctx:
    try:
        data = ctx.load(queries.history_needs_data, ctx.filters, str(ctx.settings.preregistration))
    except PreregistrationError as error:
        st.error(ui.escape(error))
        st.stop()

info = data.info
known_depth = info.depth_runtime + info.depth_static
cols = st.columns(4)
cols[0].metric("History-reading calls", f"{info.reading_calls:,}", border=True)
cols[1].metric(
    "Fields known",
    f"{info.calls_with_fields:,}",
    help="History-reading calls whose code static analysis found record fields in.",
    border=True,
)
cols[2].metric(
    "Depth known",
    f"{known_depth:,}",
    help=f"{info.depth_runtime:,} from the runtime view, {info.depth_static:,} from a literal "
    "bound in the code.",
    border=True,
)
cols[3].metric(
    "Reads into evicted history",
    f"{info.hit_eviction:,}",
    help="Calls that read back to the oldest record held after the session's retention had "
    "evicted older records: they may have wanted what was gone.",
    border=True,
)
if not info.reading_calls:
    st.info("No history-reading calls match the filters.")
    st.stop()

st.subheader("1. Which record fields does code read?", anchor=False)
if not info.calls_with_fields:
    st.info(
        "No history-reading call here records the fields it reads "
        "(`recurscope.history.fields_read`, set by this version's instrumentation and "
        "Recurgent ingest)."
    )
else:
    fields = pl.DataFrame(
        [
            {
                "field": row.field,
                "v1": row.v1,
                "calls": row.calls,
                "share": row.share,
                "sessions": row.sessions,
            }
            for row in info.fields
        ],
        schema={
            "field": pl.String,
            "v1": pl.Boolean,
            "calls": pl.Int64,
            "share": pl.Float64,
            "sessions": pl.Int64,
        },
    )
    st.altair_chart(
        alt.Chart(fields.with_columns(pl.col("share").fill_null(0.0)))
        .mark_bar()
        .encode(
            x=alt.X(
                "share:Q",
                title="share of calls (fields known) reading it",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            y=alt.Y("field:N", sort=None, title=None, axis=alt.Axis(labelOverlap=False)),
            color=alt.condition(alt.datum.calls > 0, alt.value("#1f77b4"), alt.value("#d62728")),
            tooltip=["field:N", "calls:Q", alt.Tooltip("share:Q", format=".1%"), "sessions:Q"],
        )
        .properties(height=20 * fields.height + 40),
        width="stretch",
    )
    # Code spans show their text literally (no links, images or HTML), so names
    # only lose backticks; Markdown escapes would show as backslashes there.
    never = ", ".join(f"`{name.replace('`', chr(39))}`" for name in info.never_read) or "none"
    st.caption(
        f"Over {info.calls_with_fields:,} calls in {info.sessions_with_fields:,} sessions. "
        f"V1 fields and outcome keys never read here: {never}."
    )
    st.dataframe(
        fields,
        hide_index=True,
        key="field_table",
        column_config={
            "v1": st.column_config.CheckboxColumn("V1", help="A V1 record field or outcome key."),
            "share": st.column_config.NumberColumn("share", format="percent"),
        },
    )
    if info.by_group:
        groups = pl.DataFrame(
            [
                {
                    "by": g.dimension,
                    "group": g.group,
                    "field": g.field,
                    "calls": g.calls,
                    "group_calls": g.group_calls,
                    "share": g.share,
                }
                for g in info.by_group
            ]
        )
        dimension = st.segmented_control(
            "By",
            ["role", "prompt_version"],
            default="role",
            key="needs_by",
            format_func=lambda d: "role" if d == "role" else "prompt version",
        )
        chosen = groups.filter(pl.col("by") == (dimension or "role"))
        st.altair_chart(
            alt.Chart(chosen)
            .mark_rect()
            .encode(
                x=alt.X("field:N", title=None, axis=alt.Axis(labelAngle=-30, labelLimit=240)),
                y=alt.Y("group:N", title=None),
                color=alt.Color(
                    "share:Q", scale=alt.Scale(domain=[0, 1]), legend=alt.Legend(format="%")
                ),
                tooltip=[
                    "group:N",
                    "field:N",
                    "calls:Q",
                    "group_calls:Q",
                    alt.Tooltip("share:Q", format=".1%"),
                ],
            ),
            width="stretch",
        )
        st.caption("Share of each group's calls (fields known) reading the field.")

st.subheader("2. How far back do the records code reads lie?", anchor=False)
if not known_depth:
    st.info(
        "No history-reading call here has a known read depth (the runtime view's "
        "`recurscope.history.read_depth`, or a literal bound such as `[-5:]` in the code)."
    )
else:
    quantiles = pl.DataFrame(
        [
            {
                "unit": row.unit,
                "calls": row.calls,
                "sessions": row.sessions,
                "median": row.median,
                "p90": row.p90,
                "p99": row.p99,
                "max": row.max,
            }
            for row in info.depth
        ],
        schema={
            "unit": pl.String,
            "calls": pl.Int64,
            "sessions": pl.Int64,
            "median": pl.Float64,
            "p90": pl.Float64,
            "p99": pl.Float64,
            "max": pl.Float64,
        },
    )
    st.dataframe(quantiles, hide_index=True, key="depth_table")
    st.caption(
        "Nearest-rank quantiles over calls: p99 = N means 99% of reads fall within N. "
        f"Reads that reached the oldest record held: {info.reached_oldest:,} of "
        f"{known_depth:,}; after evictions: {info.hit_eviction:,}."
        + (
            f" Where the code had a literal bound and the view watched ({info.static_checked:,}"
            f" calls), the run read beyond it in {info.static_exceeded:,}."
            if info.static_checked
            else ""
        )
    )
    if info.retention:
        st.dataframe(
            pl.DataFrame(
                [
                    {
                        "retention": r.retention,
                        "reading calls": r.calls,
                        "sessions": r.sessions,
                        "depth p99 (records)": r.depth_p99,
                        "reached the oldest held": r.reached_oldest,
                        "after evictions": r.hit_eviction,
                    }
                    for r in info.retention
                ]
            ),
            hide_index=True,
            key="retention_table",
        )
        st.caption(
            "By retention policy (`recurscope.history.retention`): reads that reached the "
            "oldest record held, and those after the session's retention had evicted older "
            "records."
        )
    p99 = {row.unit: row.p99 for row in info.depth}
    tabs = st.tabs([label for label, _, _ in UNITS])
    for tab, (unit, column, title) in zip(tabs, UNITS, strict=True):
        values = data.depths.filter(pl.col(column).is_not_null()).select("role", column)
        with tab:
            if values.is_empty():
                st.caption(f"No call here has its depth in {unit}.")
                continue
            bars = (
                alt.Chart(values)
                .mark_bar()
                .encode(
                    x=alt.X(f"{column}:Q", bin=alt.Bin(maxbins=40), title=title),
                    y=alt.Y("count():Q", title="calls"),
                    color=alt.Color("role:N", title="role"),
                    tooltip=["role:N", "count():Q"],
                )
            )
            layers = [bars]
            if p99.get(unit) is not None:
                layers.append(
                    alt.Chart(pl.DataFrame({"x": [p99[unit]]}))
                    .mark_rule(strokeDash=[4, 4], color="#444")
                    .encode(x="x:Q")
                )
            st.altair_chart(alt.layer(*layers), width="stretch")
            st.caption(f"Dashed: p99 ({unit}).")
    if data.depth_rows_total > data.depths.height:
        st.caption(
            f"Histograms draw the newest {data.depths.height:,} of {data.depth_rows_total:,} "
            "calls; the quantiles cover all of them."
        )

with st.expander("The answer as Markdown, to paste into the design record"):
    st.code(data.markdown, language="markdown")

"""Data: what was ingested, what was refused and why, and the store itself."""

from __future__ import annotations

import streamlit as st

from recurscope.dashboards import queries, ui
from recurscope.pipeline.store.database import SCHEMA_VERSION

with ui.page(
    "Data",
    "Sources read into the store, the ingest log, quarantined records with their reasons, "
    "evidence refreshes, and the store's size and schema.",
) as ctx:
    data = ctx.load(queries.data_page_data, ctx.settings.db)

overview = ctx.overview
cols = st.columns(5)
cols[0].metric("Spans stored", f"{overview.spans:,}", border=True)
cols[1].metric("Evidence spans", f"{overview.evidence_spans:,}", border=True)
cols[2].metric("Sessions", f"{overview.sessions:,}", border=True)
cols[3].metric(
    "Store size",
    ui.file_size(data.store_bytes + data.wal_bytes),
    help=f"file {ui.file_size(data.store_bytes)}, write-ahead log {ui.file_size(data.wal_bytes)}, "
    f"snapshot {ui.file_size(data.snapshot_bytes)}",
    border=True,
)
cols[4].metric(
    "Schema version",
    data.schema_version or "—",
    help=f"this recurscope reads up to version {SCHEMA_VERSION}",
    border=True,
)
st.caption(
    f"Store {ui.escape(ui.stored_path(ctx.settings.db))} · last evidence refresh "
    f"{overview.last_refresh_at or '—'} (UTC)"
)
if overview.non_observed_spans:
    st.caption(
        f":material/science: Origin: {overview.simulated_spans:,} simulated, "
        f"{overview.replayed_spans:,} replayed, "
        f"{overview.evidence_spans - overview.non_observed_spans:,} observed evidence spans."
    )

st.subheader("Sources", anchor=False)
ui.table(data.sources, name="sources", caption="One row per file or receiver, newest first.")

st.subheader("Quarantine", anchor=False)
if data.quarantine_by_reason.is_empty():
    st.success("Nothing was quarantined.", icon=":material/check:")
else:
    ui.table(
        data.quarantine_by_reason,
        name="quarantine-by-reason",
        caption="Records refused at ingest, by source and reason (docs/ingest.md lists them).",
    )
    with st.expander(f"Latest quarantined records ({data.quarantine_sample.height:,} shown)"):
        ui.table(data.quarantine_sample, name="quarantine")

st.subheader("Ingest log", anchor=False)
ui.table(data.ingest_log, name="ingest-log", height=300)

left, right = st.columns(2)
with left:
    st.subheader("Evidence refreshes", anchor=False)
    ui.table(data.refreshes, name="evidence-refreshes")
with right:
    st.subheader("Tables", anchor=False)
    ui.table(data.tables, name="tables", caption="Estimated row counts.")

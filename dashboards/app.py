"""The recurscope dashboard: ``recurscope dashboard`` runs this with ``streamlit run``.

The entrypoint sets the page up, draws the shared filters in the sidebar and
hands over to the page chosen in the navigation (``app_pages/``). Every page
only reads, through :mod:`recurscope.dashboards.ui`.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from recurscope.dashboards import ui

PAGES = Path(__file__).with_name("app_pages")

st.set_page_config(
    page_title="recurscope",
    # No page_icon: a Material icon favicon is fetched from Google's font CDN,
    # and the dashboard must not call out of the machine.
    layout="wide",
    menu_items={"About": "recurscope: evidence on whether recursion primitives are justified."},
)

navigation = st.navigation(
    {
        "Decision": [
            st.Page(PAGES / "verdict.py", title="Verdict", icon=":material/gavel:", default=True),
            st.Page(PAGES / "compare.py", title="Compare", icon=":material/compare_arrows:"),
        ],
        "Evidence": [
            st.Page(
                PAGES / "history_access.py", title="History access", icon=":material/manage_search:"
            ),
            st.Page(PAGES / "history_needs.py", title="History needs", icon=":material/history:"),
            st.Page(PAGES / "boilerplate.py", title="Boilerplate", icon=":material/content_copy:"),
            st.Page(PAGES / "delegation.py", title="Delegation", icon=":material/account_tree:"),
            st.Page(PAGES / "trims.py", title="Trims", icon=":material/content_cut:"),
            st.Page(PAGES / "goals.py", title="Goal boundaries", icon=":material/flag:"),
            st.Page(PAGES / "replay.py", title="Replay", icon=":material/replay:"),
        ],
        "Drill down": [
            st.Page(PAGES / "sessions.py", title="Sessions", icon=":material/forum:"),
            st.Page(PAGES / "data.py", title="Data", icon=":material/database:"),
        ],
    }
)
overview = ui.sidebar_overview()
if overview is not None:
    ui.render_filters(overview)
navigation.run()

"""The Replay page, on a store that holds real `recurscope replay` output.

The sample conversations (data/replay-samples) are replayed through every
strategy by the command, ingested by the command, and the page is read with
Streamlit's AppTest: its numbers are the command's own table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from recurscope.cli import main
from recurscope.dashboards.ui import escape
from recurscope.pipeline.replay.replay import STRATEGIES

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboards" / "app.py"
SAMPLES = ROOT / "data" / "replay-samples"
HOSTILE = "<script>alert(1)</script> **bold** `tick` 'q'; drop table trims; --"


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replay")
    out, db = folder / "replay.jsonl", folder / "store.duckdb"
    assert (
        main(["replay", str(SAMPLES), "--budget", "400", "--out", str(out), "--no-progress"]) == 0
    )
    assert main(["ingest", str(out), "--db", str(db)]) == 0
    # A conversation whose id is hostile text: data on the page, never markup or SQL.
    hostile = folder / "hostile.jsonl"
    messages = [
        {"role": "user", "content": "Plan a trip to Oaxaca. " * 30},
        {"role": "assistant", "content": "Here is a plan. " * 30},
        {"role": "user", "content": "Now fix my test. " * 30},
    ]
    hostile.write_text(json.dumps({"id": HOSTILE, "messages": messages}) + "\n")
    hostile_out = folder / "hostile-replay.jsonl"
    assert main(["replay", str(hostile), "--budget", "200", "--out", str(hostile_out)]) == 0
    assert main(["ingest", str(hostile_out), "--db", str(db)]) == 0
    return db


def _page(db: Path, monkeypatch: pytest.MonkeyPatch, *, include: bool = True) -> AppTest:
    monkeypatch.setenv("RECURSCOPE_DB", str(db))
    monkeypatch.setenv("RECURSCOPE_DETECTOR_QUALITY", "")
    monkeypatch.setenv("RECURSCOPE_INCLUDE_SIMULATED", "1" if include else "")
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    app.switch_page("app_pages/replay.py")
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def test_the_page_shows_the_commands_table_and_one_conversation(
    replayed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _page(replayed, monkeypatch)
    assert [t.value for t in app.title] == ["Replay"]
    strategies = app.dataframe[0].value
    assert set(strategies["strategy"]) == set(STRATEGIES)
    assert len(strategies) == 2 * len(STRATEGIES)
    by = {(r["strategy"], r["compaction"]): r for r in strategies.to_dict("records")}
    # The command's own totals (docs/replay.md: 13 sessions, 70 plannings, 14 returns each),
    # plus the hostile conversation's one session and two plannings.
    assert {r["sessions"] for r in by.values()} == {13 + 1}
    assert {r["plannings"] for r in by.values()} == {70 + 2}
    assert {r["returns"] for r in by.values()} == {14}
    assert by["goal_aware", "off"]["returned_goal_removed"] == 730
    assert by["goal_aware", "off"]["returned_goal_size"] == 2356
    assert by["goal_return", "off"]["returned_goal_removed"] == 0
    assert by["head_tail", "on"]["summarized_size"] > by["head_tail", "off"]["summarized_size"] == 0
    # One row per conversation, most returned-to context first, one share column per strategy.
    listing = app.dataframe[1].value
    assert listing["conversation"].is_unique and len(listing) == 14
    assert HOSTILE in set(listing["conversation"])
    assert set(STRATEGIES) <= set(listing.columns)
    assert list(listing["returned_goal_size"]) == sorted(
        listing["returned_goal_size"], reverse=True
    )
    turns = app.dataframe[2].value
    first = listing["conversation"].iloc[0]
    assert any(f"Conversation {escape(first)}," in s.value for s in app.subheader)
    assert len(turns) == listing["turns"].iloc[0] * 2 * len(STRATEGIES)
    # Selecting another conversation shows that one.
    app.session_state["replay_conversations"] = {"selection": {"rows": [2], "columns": []}}
    app.run()
    assert not app.exception
    third = listing["conversation"].iloc[2]
    assert any(f"Conversation {escape(third)}," in s.value for s in app.subheader)
    assert len(app.dataframe[2].value) == listing["turns"].iloc[2] * 2 * len(STRATEGIES)


def test_replayed_spans_stay_out_until_included(
    replayed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _page(replayed, monkeypatch, include=False)
    assert any("No replayed conversations in view" in i.value for i in app.info)
    assert not app.dataframe


def test_a_hostile_conversation_id_is_text(replayed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _page(replayed, monkeypatch)
    listing = app.dataframe[1].value
    position = int(listing.index[listing["conversation"] == HOSTILE][0])
    app.session_state["replay_conversations"] = {"selection": {"rows": [position], "columns": []}}
    app.run()
    assert not app.exception
    assert any(f"Conversation {escape(HOSTILE)}," in s.value for s in app.subheader)
    assert len(app.dataframe[2].value) == 2 * 2 * len(STRATEGIES)  # two user turns

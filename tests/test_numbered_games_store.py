"""Campaigns and match series share one SQL shape (:mod:`dogfight.storage.numbered_games`:
a listed head row and its numbered games), and a database made before they shared it
opens as it is: its tables are built here with the definitions written before, filled,
then read and written on by today's stores -- and today's stores write the very tables
the old definitions make."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import Engine, create_engine, text

from dogfight.campaign.record import MissionResult, start
from dogfight.campaign.spec import load_campaign
from dogfight.campaign.store import CampaignRow, CampaignStore, MissionRow
from dogfight.catalog import load_catalog
from dogfight.server.db.series_store import SeriesGameRow, SeriesRow, SeriesStore
from dogfight.storage.numbered_games import NumberedGame
from dogfight.storage.sql import Listed

OLD = (
    """CREATE TABLE campaigns (
        id VARCHAR(40) NOT NULL, title VARCHAR(200) NOT NULL, created FLOAT NOT NULL,
        source TEXT NOT NULL, record JSON NOT NULL, version INTEGER NOT NULL,
        PRIMARY KEY (id))""",
    """CREATE TABLE campaign_missions (
        campaign_id VARCHAR(40) NOT NULL, number INTEGER NOT NULL, game_id VARCHAR(40),
        setup JSON, result JSON, PRIMARY KEY (campaign_id, number))""",
    """CREATE TABLE series (
        id VARCHAR(40) NOT NULL, title VARCHAR(200) NOT NULL, created FLOAT NOT NULL,
        template JSON NOT NULL, sides JSON NOT NULL, games INTEGER NOT NULL,
        scoring VARCHAR(20) NOT NULL, PRIMARY KEY (id))""",
    """CREATE TABLE series_games (
        series_id VARCHAR(40) NOT NULL, number INTEGER NOT NULL, game_id VARCHAR(40) NOT NULL,
        result JSON, PRIMARY KEY (series_id, number))""",
)
"""The campaigns' and series' tables as the stores made them before they shared their
shape (SQLite's text of them, white space aside)."""

ROWS = (
    "INSERT INTO campaigns VALUES ('c-0123456789', 'Bloody April', 5.0, :source, :record, 1)",
    "INSERT INTO campaign_missions VALUES ('c-0123456789', 1, 'g-1', '{}', NULL)",
    "INSERT INTO series VALUES ('s-0123456789', 'Best of three', 6.0, '{\"preset\": \"duel\"}',"
    " '[\"allies\", \"central\"]', 3, 'winner')",
    "INSERT INTO series_games VALUES ('s-0123456789', 2, 'g-3', NULL)",
    "INSERT INTO series_games VALUES ('s-0123456789', 1, 'g-2', '{\"w\": 1}')",
)


def _tables(engine: Engine) -> dict[str, str]:
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT name, sql FROM sqlite_master WHERE type='table'"))
        return {str(name): "".join(str(sql).split()) for name, sql in rows}


def test_both_stores_rows_have_the_shared_shape() -> None:
    assert issubclass(SeriesRow, Listed) and issubclass(SeriesGameRow, NumberedGame)
    assert issubclass(CampaignRow, Listed) and issubclass(MissionRow, NumberedGame)
    assert SeriesStore.prefix == "s-" and CampaignStore.prefix == "c-"


def test_a_database_made_before_opens_and_goes_on(tmp_path: Path) -> None:
    spec, source = load_campaign("bloody-april", load_catalog())
    campaign = start(spec, 7)
    old = create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with old.begin() as connection:
        for statement in OLD:
            connection.execute(text(statement))
        given = {"source": source, "record": json.dumps(campaign.to_json())}
        for statement in ROWS:
            connection.execute(text(statement), given if ":source" in statement else {})
    before = _tables(old)

    campaigns, series = CampaignStore(old), SeriesStore(old)
    assert _tables(old) == before  # nothing created or altered
    assert campaigns.ids() == [("c-0123456789", "Bloody April", 5.0)]
    assert series.ids() == [("s-0123456789", "Best of three", 6.0)]
    stored = campaigns.load("c-0123456789")
    assert stored is not None
    assert (stored.title, stored.source, stored.version) == ("Bloody April", source, 1)
    assert stored.campaign.to_json() == campaign.to_json()
    assert [(n, m.game_id) for n, m in stored.missions.items()] == [(1, "g-1")]
    got = series.load("s-0123456789")
    assert got is not None
    assert (got.title, got.template, got.sides, got.games, got.scoring) == (
        "Best of three",
        {"preset": "duel"},
        ["allies", "central"],
        3,
        "winner",
    )
    assert [(g.number, g.game_id, g.result) for g in got.played] == [
        (1, "g-2", {"w": 1}),
        (2, "g-3", None),
    ]
    # and they go on: a result written, a game added, new ones made beside the old
    campaigns.write_result(
        stored,
        campaign,
        MissionResult(
            number=1, mission="x", winner=None, points={}, damage={}, shot_down=[], victories={}
        ),
    )
    again = campaigns.load("c-0123456789")
    assert again is not None and again.version == 2 and again.missions[1].result is not None
    assert series.add_game("s-0123456789", 3, "g-4")
    series.write_result("s-0123456789", 2, {"w": 0})
    got = series.load("s-0123456789")
    assert got is not None
    assert [(g.number, g.result) for g in got.played] == [(1, {"w": 1}), (2, {"w": 0}), (3, None)]
    assert campaigns.create("Again", source, campaign).startswith("c-")
    assert series.create("Again", {}, ["a", "b"], 1, "winner", "g-9").startswith("s-")

    # today's stores on an empty database write the very tables of the old definitions
    made = create_engine(f"sqlite:///{tmp_path / 'new.db'}")
    CampaignStore(made)
    SeriesStore(made)
    assert _tables(made) == before

"""Campaigns in the browser's API (issue 15): a mission started as an ordinary game, its
result written back once when the game ends -- also when the server was killed between
the end of the game and the campaign's update."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import client, serving
from sqlalchemy import create_engine

from dogfight.campaign.store import CampaignStore

BOTS = {"allies": "random", "central": "random"}


def _until(check: Any, timeout: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_mission_is_an_ordinary_game_and_its_result_comes_back(tmp_path: Path) -> None:
    with client(tmp_path / "g.db") as api:
        listing = api.get("/api/campaigns").json()
        assert {c["id"] for c in listing["shipped"]} >= {"bloody-april", "the-martian-invasion"}
        made = api.post("/api/campaigns", json={"campaign": "bloody-april"})
        assert made.status_code == 201
        cid = made.json()["id"]
        assert made.json()["next"]["title"] == "Dawn patrol"
        started = api.post(f"/api/campaigns/{cid}/next", json={"computer": BOTS})
        assert started.status_code == 201, started.text
        body = started.json()
        assert body["mission"] == 1 and body["seats"] and body["game"]["id"]
        assert {s["computer"] for s in body["seats"]} == {"random"}
        done = _until(lambda: (c := api.get(f"/api/campaigns/{cid}").json())["history"] and c, 20)
        entry = done["history"][0]
        assert entry["number"] == 1 and entry["game"] == body["game"]["id"]
        flown = {p["name"]: p["missions"] for p in done["pilots"]}
        assert flown["Capt. A. Hale"] == 1 and flown["Lt. C. Marsh"] == 0
        assert done["next"]["number"] == 2


def test_bad_campaign_requests(tmp_path: Path) -> None:
    with client(tmp_path / "g.db") as api:
        people = api.post("/api/campaigns", json={"campaign": "bloody-april"}).json()["id"]
        assert api.post(f"/api/campaigns/{people}/next", json={}).status_code == 201
        again = api.post(f"/api/campaigns/{people}/next", json={})
        assert again.status_code == 409 and "being played" in again.json()["error"]
        nope = api.post("/api/campaigns", json={"campaign": "no-such"})
        assert nope.status_code == 422 and nope.json()["field"] == "campaign"
        assert api.get("/api/campaigns/c-nope").status_code == 404
        cid = api.post("/api/campaigns", json={"campaign": "bloody-april"}).json()["id"]
        bad = api.post(f"/api/campaigns/{cid}/next", json={"computer": {"martians": "random"}})
        assert bad.status_code == 422 and bad.json()["field"] == "computer.martians"


def test_a_server_killed_after_the_game_loses_nothing_and_applies_the_result_once(
    tmp_path: Path,
) -> None:
    """Issue 15: "the server killed between a mission's end and the campaign update loses
    nothing and applies the result once"."""
    db = tmp_path / "g.db"
    with serving(db) as server:
        cid = httpx.post(server.base + "/api/campaigns", json={"campaign": "bloody-april"}).json()[
            "id"
        ]
        game = httpx.post(
            server.base + f"/api/campaigns/{cid}/next", json={"computer": BOTS}, timeout=30
        ).json()["game"]["id"]
        _until(lambda: httpx.get(server.base + f"/api/games/{game}", timeout=10).json()["over"])
        # the game is over; nobody looked at the campaign yet: kill -9 now
    stored = CampaignStore(create_engine(f"sqlite:///{db}")).load(cid)
    assert stored is not None and not stored.campaign.history
    with serving(db) as server:
        first = httpx.get(server.base + f"/api/campaigns/{cid}", timeout=30).json()
        second = httpx.get(server.base + f"/api/campaigns/{cid}", timeout=30).json()
    assert len(first["history"]) == 1 and first == second
    stored = CampaignStore(create_engine(f"sqlite:///{db}")).load(cid)
    assert stored is not None
    assert stored.missions[1].result is not None and stored.version == 3


def test_a_sopwith_league_in_the_same_database_is_named_not_served(tmp_path: Path) -> None:
    """A Sopwith campaign made by the Games Master's command in the server's database is
    listed, and asking for it answers 409 saying how it is run (never a 500)."""
    from dogfight.campaign.sopwith import available, parse_sopwith_campaign, start

    path = available()["the-postal-circus"]
    text = path.read_text(encoding="utf-8")
    spec = parse_sopwith_campaign(text, str(path))
    db = tmp_path / "g.db"
    with client(db) as api:
        cid = CampaignStore(create_engine(f"sqlite:///{db}")).create(
            spec.title, text, start(spec, 1)
        )
        assert cid in {c["id"] for c in api.get("/api/campaigns").json()["campaigns"]}
        for answer in (
            api.get(f"/api/campaigns/{cid}"),
            api.post(f"/api/campaigns/{cid}/next", json={}),
        ):
            assert answer.status_code == 409
            assert "played by post" in answer.json()["error"]

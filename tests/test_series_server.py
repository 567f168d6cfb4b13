"""Match series in the server's API, and missions in a server game.

002: "Match Scoring (for multiple matches)" / "Used to compare performance across
matches." 003: "若以多局决定胜负(局数由玩家自行决定),则计算每局双方分数。总分较高者胜。"
(several games decide: count both sides' score each game; the higher total wins).
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

from server_helpers import client, duel_situation

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

BOTS = {"allies": "random", "central": "random"}


def _until(check: Any, timeout: float = 120.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_a_series_of_three_games_keeps_running_totals(tmp_path: Path) -> None:
    """Three games between the same (computer) players: each game's match points and the
    running totals per side, the side ahead, and no fourth game."""
    with client(tmp_path / "g.db") as api:
        game = {"preset": "duel", "computer": BOTS}
        made = api.post("/api/series", json={"title": "Best of three", "games": 3, "game": game})
        assert made.status_code == 201, made.text
        sid = made.json()["series"]["id"]
        assert made.json()["series"]["scoring"] == "every_side"  # the duel is wog: 003's way
        assert {s["computer"] for s in made.json()["seats"]} == {"random"}
        for number in range(1, 4):
            series = _until(
                lambda: (s := api.get(f"/api/series/{sid}").json())["games"][-1]["over"] and s
            )
            assert len(series["games"]) == number
            if number < 3:
                nxt = api.post(f"/api/series/{sid}/next")
                assert nxt.status_code == 201, nxt.text
                assert nxt.json()["game"]["id"] != series["games"][-1]["game"]
        final = api.get(f"/api/series/{sid}").json()
        assert final["over"] and not final["can_start_next"]
        running = {"allies": 0, "central": 0}
        for game in final["games"]:
            over = api.get(f"/api/games/{game['game']}").json()
            assert over["over"]
            for side in running:
                running[side] += game["points"][side]
            assert game["totals"] == running
        assert final["totals"] == running
        best = max(running.values())
        leaders = [s for s, t in running.items() if t == best]
        assert final["leader"] == (leaders[0] if len(leaders) == 1 else None)
        refused = api.post(f"/api/series/{sid}/next")
        assert refused.status_code == 409 and "over" in refused.json()["error"]
        assert [s["id"] for s in api.get("/api/series").json()["series"]] == [sid]


def test_bad_series_requests(tmp_path: Path) -> None:
    with client(tmp_path / "g.db") as api:
        assert api.get("/api/series/s-nope").status_code == 404
        seeded = api.post(
            "/api/series", json={"game": {"preset": "duel", "seed": 3, "analysis": True}}
        )
        assert seeded.status_code == 422 and seeded.json()["field"] == "game.seed"
        unknown = api.post("/api/series", json={"game": {"preset": "nope"}})
        assert unknown.status_code == 422
        assert api.get("/api/series").json()["series"] == []
        assert api.get("/api/games").json()["games"] == []


def test_a_target_card_off_the_table_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    """A game whose mission target lies off the table: 422 with the field, no game, no
    series."""
    setup = duel_situation() | {
        "ruleset": "wow",
        "targets": [{"id": "depot", "mission": "bombing", "side": "allies", "x": 45, "y": 95}],
    }
    with client(tmp_path / "g.db") as api:
        bad = api.post("/api/games", json={"situation": setup})
        assert bad.status_code == 422
        assert bad.json()["field"] == "situation.targets[0]"
        assert "wholly on the 90 x 90 cm table" in bad.json()["error"]
        series = api.post("/api/series", json={"game": {"situation": setup}})
        assert series.status_code == 422
        assert api.get("/api/games").json()["games"] == []
        assert api.get("/api/series").json()["series"] == []


def test_a_scenario_game_shows_its_target_cards_and_missions(tmp_path: Path) -> None:
    """002: "Place target cards (for bombing/photo missions) as specified in scenarios."
    Every seat sees the target card on the table and the mission in the briefing."""
    with client(tmp_path / "g.db") as api:
        made = api.post("/api/games", json={"preset": "wings-over-the-flanders"}).json()
        game = made["game"]["id"]
        for seat in made["seats"]:
            view = api.get(
                f"/api/games/{game}/seats/{seat['id']}", headers={"X-Seat-Token": seat["token"]}
            ).json()
            (card,) = view["state"]["targets"]
            assert (card["id"], card["mission"], card["side"], card["done_by"]) == (
                "flanders-depot",
                "bombing",
                "allies",
                None,
            )
            (mission,) = view["briefing"]["missions"]
            assert mission["status"].startswith("open: breguet must end a maneuver")


def test_a_series_counts_against_the_rate_of_new_games(tmp_path: Path) -> None:
    """A new series and its next game each start a game: a client over the server's rate
    of new games gets 429 there too, and nothing is stored."""
    limits = Limits(allowed_hosts=("testserver",), games_per_minute=1)
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", limits=limits)) as api:
        made = api.post("/api/series", json={"game": {"preset": "duel", "computer": BOTS}})
        assert made.status_code == 201
        late = api.post("/api/series", json={"game": {"preset": "duel"}})
        assert late.status_code == 429 and "new games a minute" in late.json()["error"]
        sid = made.json()["series"]["id"]
        _until(lambda: api.get(f"/api/series/{sid}").json()["games"][-1]["over"])
        again = api.post(f"/api/series/{sid}/next")
        assert again.status_code == 429
        assert len(api.get("/api/series").json()["series"]) == 1
        assert len(api.get(f"/api/series/{sid}").json()["games"]) == 1
        assert len(api.get("/api/games").json()["games"]) == 1

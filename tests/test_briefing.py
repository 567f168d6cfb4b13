"""The scenario briefing and the ending in words (``dogfight.words.briefing``), and the seat
view that carries them to the table."""

from __future__ import annotations

from pathlib import Path

from server_helpers import client, duel_situation, headers, seat_url

from dogfight.rules.victory import check_victory
from dogfight.words.briefing import briefing, ending


def test_a_lonely_invader_is_briefed_with_its_exit_edge(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        made = c.post(
            "/api/games", json={"preset": "a-lonely-invader", "seed": 1, "analysis": True}
        ).json()
        human = next(s for s in made["seats"] if not s["computer"])
        view = c.get(
            seat_url(made["game"]["id"], human["id"]), headers=headers(human["token"])
        ).json()
    b = view["briefing"]
    assert b["title"] == "A Lonely Invader"
    assert b["exits"] == [{"side": "martians", "edge": "south"}]
    assert len(b["objectives"]) == 6
    martians = next(w for w in b["victory"] if w["exit_edge"] == "south")
    # 001: "He loses if the tripod exits the playing area from the Earthling side"
    assert "exits the playing area from the Earthling side" in martians["text"]
    assert martians["needs"].startswith("leave the table across the south edge (locust is")
    earth = b["victory"][0]
    assert earth["side"] == "earth" and earth["needs"] == "destroy locust"
    assert view["ending"] is None


def test_the_ending_says_why_and_how_the_score_was_made() -> None:
    from conftest import state_of

    state = state_of(duel_situation())
    assert briefing(state) is None and ending(state) is None
    state.vehicles["albatros"].eliminated = "shot_down"
    check_victory(state, [])
    assert state.over and state.winner == "allies"
    end = ending(state)
    assert end is not None
    assert "still has vehicles in the playing area" in end["reason"]
    assert end["scores"] == {"allies": 2, "central": -1}
    assert end["how"]["allies"] == ["+2: enemy albatros shot down"]
    assert end["how"]["central"] == ["-1: own albatros shot down"]

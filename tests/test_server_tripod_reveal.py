"""The direction placed at the reveal of secret action cards (001) through the browser
API: each tripod's seat is asked in initiative order, alone, and sees the cards shown
before it; a bad answer is refused with the rule and nothing stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import client, headers, seat_url
from test_rules_tripods import STILL_PLAN
from test_tripod_reveal import duel

from dogfight.rules.tripod_reveal import KIND

Json = dict[str, Any]


def test_directions_asked_in_initiative_order_through_the_api(tmp_path: Path) -> None:
    sit = duel({"token": "heat_ray", "projector": "front-left", "target": "auto"})
    plans = {v["id"]: v.pop("plans")[0] for v in sit["vehicles"]}
    with client(tmp_path / "games.sqlite") as c:
        made = c.post("/api/games", json={"situation": sit, "seed": 0, "analysis": True}).json()
        game = made["game"]["id"]
        seats = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
        (e_id, e_tok), (m_id, m_tok) = seats["earth"], seats["martians"]

        def view(sid: str, tok: str) -> Json:
            body: Json = c.get(seat_url(game, sid), headers=headers(tok)).json()
            return body

        def answer(sid: str, tok: str, answers: Json) -> Any:
            return c.post(
                seat_url(game, sid, "decisions"),
                headers=headers(tok),
                json={"turn": 1, "phase": 1, "answers": answers},
            )

        for sid, tok, vid in ((e_id, e_tok, "e"), (m_id, m_tok, "m")):
            posted = c.post(
                seat_url(game, sid, "plans"),
                headers=headers(tok),
                json={"turn": 1, "plans": {vid: plans[vid]}},
            )
            assert posted.status_code == 200, posted.text
        assert list(plans["e"]["cards"]) == list(STILL_PLAN)

        # The Earth Locust (initiative 3) reveals first; the Martian seat sees nothing.
        [first] = view(e_id, e_tok)["stage"]["decisions"]
        assert (first["kind"], first["vehicle"], first["shown"]["revealed"]) == (KIND, "e", [])
        martian = view(m_id, m_tok)
        assert martian["stage"]["decisions"] == []
        assert martian["stage"]["waiting_for"] == [e_id]
        # Not the Martian's decision to answer; not a direction the card allows.
        assert answer(m_id, m_tok, {first["id"]: ["front"]}).status_code == 409
        refused = answer(e_id, e_tok, {first["id"]: ["rear"]})
        assert refused.status_code == 422 and "001" in refused.json()["error"]
        assert answer(e_id, e_tok, {first["id"]: ["front"]}).status_code == 200

        # Then the Martian Locust, shown the Earth card, turns its ray at it.
        [second] = view(m_id, m_tok)["stage"]["decisions"]
        assert second["vehicle"] == "m" and second["default"] == ["front-left"]
        assert second["shown"]["revealed"] == [
            {"vehicle": "e", "card": "heat_ray", "detail": "front", "order": 1}
        ]
        assert view(e_id, e_tok)["stage"]["decisions"] == []
        assert answer(m_id, m_tok, {second["id"]: ["front-right"]}).status_code == 200

        earth = view(e_id, e_tok)
        [phase_1] = [s for s in earth["steps"] if (s["turn"], s["phase"]) == (1, 1)]
        events = phase_1["events"]
        shown = {e["vehicle"]: e["detail"] for e in events if e["kind"] == "action_card_revealed"}
        assert shown == {"e": "front", "m": "front-right"}
        shots = {e["firer"]: e for e in events if e["kind"] == "heat_ray"}
        assert (shots["m"]["projector"], shots["m"]["target"]) == ("front-right", "e")
        assert "action_direction" not in str(earth)


def test_a_computer_tripod_places_its_own_token(tmp_path: Path) -> None:
    """A bot seat answers its direction itself (towards the nearest enemy): the game
    never waits for it."""
    sit = duel({"token": "heat_ray", "projector": "front-left", "target": "auto"})
    plans = {v["id"]: v.pop("plans")[0] for v in sit["vehicles"]}
    with client(tmp_path / "games.sqlite") as c:
        made = c.post(
            "/api/games",
            json={"situation": sit, "seed": 0, "analysis": True, "computer": {"martians": "hard"}},
        ).json()
        game = made["game"]["id"]
        [(e_id, e_tok)] = [(s["id"], s["token"]) for s in made["seats"] if s["label"] == "earth"]
        posted = c.post(
            seat_url(game, e_id, "plans"),
            headers=headers(e_tok),
            json={"turn": 1, "plans": {"e": plans["e"]}},
        )
        assert posted.status_code == 200, posted.text
        [first] = c.get(seat_url(game, e_id), headers=headers(e_tok)).json()["stage"]["decisions"]
        done = c.post(
            seat_url(game, e_id, "decisions"),
            headers=headers(e_tok),
            json={"turn": 1, "phase": 1, "answers": {first["id"]: ["front"]}},
        )
        assert done.status_code == 200, done.text
        body = c.get(seat_url(game, e_id), headers=headers(e_tok)).json()
        assert body["stage"].get("decisions", []) == []
        events = [e for s in body["steps"] for e in s["events"]]
        assert any(e["kind"] == "action_card_revealed" and e["vehicle"] == "m" for e in events)

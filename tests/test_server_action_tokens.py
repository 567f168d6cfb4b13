"""A tripod's action token asked at the start of each action phase, through the browser
API (000, 001): only the tripod's seat is asked; a face-down card (001) never reaches the
other seat before its reveal; a token from the wrong seat, at the wrong moment, twice or
against the rules is refused (4xx, the rule quoted) and nothing is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_helpers import client, headers, seat_url
from test_action_tokens import against_a_plane, tripod_duel

from dogfight.rules.action_tokens import KIND

Json = dict[str, Any]


def _game(c: Any, sit: Json) -> tuple[str, dict[str, tuple[str, str]], Json]:
    plans = {v["id"]: v.pop("plans")[0] for v in sit["vehicles"]}
    made = c.post("/api/games", json={"situation": sit, "seed": 0, "analysis": True}).json()
    seats = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
    return made["game"]["id"], seats, plans


def _plan(c: Any, game: str, seats: list[tuple[str, str, str]], plans: Json) -> None:
    """Each (seat, token, vehicle) submits the situation's plan of turn 1."""
    for sid, tok, vid in seats:
        posted = c.post(
            seat_url(game, sid, "plans"),
            headers=headers(tok),
            json={"turn": 1, "plans": {vid: plans[vid]}},
        )
        assert posted.status_code == 200, posted.text


def test_000_the_token_is_asked_of_the_tripod_seat_alone(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        game, seats, plans = _game(c, against_a_plane())
        (t_id, t_tok), (p_id, p_tok) = seats["martians"], seats["earth"]

        def view(sid: str, tok: str) -> Json:
            body: Json = c.get(seat_url(game, sid), headers=headers(tok)).json()
            return body

        def answer(sid: str, tok: str, answers: Json, phase: int = 1) -> Any:
            return c.post(
                seat_url(game, sid, "decisions"),
                headers=headers(tok),
                json={"turn": 1, "phase": phase, "answers": answers},
            )

        # too early: the turn is being planned
        early = answer(t_id, t_tok, {"action_token:t@1.1": ["recharge"]})
        assert early.status_code == 409
        _plan(c, game, [(t_id, t_tok, "t"), (p_id, p_tok, "p")], plans)
        [d] = view(t_id, t_tok)["stage"]["decisions"]
        assert (d["kind"], d["vehicle"], d["shown"]["face"]) == (KIND, "t", "up")
        plane = view(p_id, p_tok)
        assert plane["stage"]["decisions"] == [] and plane["stage"]["waiting_for"] == [t_id]
        # not the airplane's to answer; not a token the card allows; not this phase
        assert answer(p_id, p_tok, {d["id"]: ["none"]}).status_code == 409
        refused = answer(t_id, t_tok, {d["id"]: ["blank"]})
        assert refused.status_code == 422 and "001" in refused.json()["error"]
        assert answer(t_id, t_tok, {"action_token:t@1.2": ["none"]}, 2).status_code == 409
        assert view(t_id, t_tok)["stage"]["decisions"] == [d]  # nothing stored
        assert answer(t_id, t_tok, {d["id"]: ["heat_ray:front-left"]}).status_code == 200
        assert answer(t_id, t_tok, {d["id"]: ["heat_ray:front-left"]}).status_code == 409
        events = [e for s in view(p_id, p_tok)["steps"] for e in s["events"]]
        placed = [e for e in events if e["kind"] == "action_token_placed"]
        assert placed[0]["action"] == "heat_ray:front-left" and not placed[0]["face_down"]
        # phase 2: asked again, after phase 1 resolved
        [second] = view(t_id, t_tok)["stage"]["decisions"]
        assert second["id"] == "action_token:t@1.2"


def test_001_a_face_down_card_does_not_reach_the_other_seat(tmp_path: Path) -> None:
    with client(tmp_path / "games.sqlite") as c:
        game, seats, plans = _game(c, tripod_duel())
        (e_id, e_tok), (m_id, m_tok) = seats["earth"], seats["martians"]
        _plan(c, game, [(e_id, e_tok, "e"), (m_id, m_tok, "m")], plans)
        done = c.post(
            seat_url(game, e_id, "decisions"),
            headers=headers(e_tok),
            json={"turn": 1, "phase": 1, "answers": {"action_token:e@1.1": ["recharge"]}},
        )
        assert done.status_code == 200, done.text
        martian = c.get(seat_url(game, m_id), headers=headers(m_tok)).json()
        [mine] = martian["stage"]["decisions"]
        # the Earth card is face down: neither its decision nor its answer reach this seat
        assert "action_token:e" not in str(martian)
        steps = [e for s in martian["steps"] for e in s["events"]]
        assert not [e for e in steps if e["kind"] == "action_token_placed" and e["action"]]
        assert mine["vehicle"] == "m" and "blank" in mine["options"]

"""000's Sniper chooses (issue 30 item 4): "the pilot draws two damage cards, chooses one
to give to the opponent, reshuffles the other one" — the firing seat sees both cards and
chooses, an engine decision visible to that seat alone; unanswered (``simulate``,
``adjudicate`` without an answer) it gives the card that hurts most."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import of, run
from test_scenarios import aces

from dogfight.bots.decide import sniper_pick
from dogfight.catalog.models import Skill
from dogfight.errors import DataError
from dogfight.rules.chance import step_rng
from dogfight.rules.damage import SNIPER, SNIPER_RULE
from dogfight.rules.decisions import for_seat
from dogfight.rules.engine import pending_decisions, start_turn
from dogfight.rules.events import DamageDrawn
from dogfight.rules.plans import Plan
from dogfight.situation.format import build, parse_situation

Json = dict[str, Any]
HOLD = ("none", "none", "none")
USE = {"skill:p@1.1": ["use"]}
"""The Sniper chose to use its skill this phase (dogfight.rules.skill_choice)."""


def behind(decisions: Json | None = None) -> Json:
    """The Sniper "p" 25 cm behind "e", both flying the same straights east: it fires in
    phase 1 with a 4 and a 0 on top of the deck."""
    sit = aces(Skill.SNIPER, ["B4", "B0"], e_fire=HOLD)
    sit["vehicles"][1]["pose"] = {"x": 35.0, "y": 45.0, "heading": 0.0}
    if decisions is not None:
        sit["decisions"] = decisions
    return sit


def camels(sniper: str, prey: str) -> Json:
    """A game's setup (no plans): a Camel with the Sniper skill 25 cm behind another
    Camel, both flying east; it fires in the first phase."""

    def plane(vid: str, side: str, x: float) -> Json:
        pose = {"x": x, "y": 45.0, "heading": 0.0}
        return {"id": vid, "type": "sopwith-camel", "side": side, "pose": pose}

    first = {**plane(sniper, "allies", 10.0), "skills": ["sniper"]}
    return {"ruleset": "wog", "vehicles": [first, plane(prey, "central", 35.0)]}


def drawn(sit: Json) -> list[tuple[str, tuple[str, ...]]]:
    _, events = run(sit, phases=1)
    return [(e.vehicle, e.cards) for e in of(events, DamageDrawn)]


def test_unanswered_the_sniper_gives_the_card_that_hurts_most() -> None:
    assert drawn(behind()) == [("e", ("B4",))]


def test_the_sniper_gives_the_card_its_seat_chooses() -> None:
    assert drawn(behind({"sniper:p@1.1": ["2:B0"]})) == [("e", ("B0",))]
    state, _ = run(behind({"sniper:p@1.1": ["2:B0"]}), phases=1)
    assert state.vehicles["e"].held == [("B", "B0")]
    assert "B4" in state.piles["B"]  # "reshuffles the other one"


def test_the_decision_shows_both_cards_to_the_sniper_alone() -> None:
    from conftest import _catalog

    sit = behind()
    plans = {v["id"]: Plan.model_validate(v.pop("plans")[0]) for v in sit["vehicles"]}
    state = build(parse_situation(sit), _catalog(), 0)
    state, _ = start_turn(state, plans)
    (asked,) = pending_decisions(state, step_rng(0, 1, 1), answers=USE)
    assert (asked.kind, asked.vehicle, asked.id) == (SNIPER, "p", "sniper:p@1.1")
    assert asked.options == ("1:B4", "2:B0") and asked.default == ("1:B4",)
    assert asked.shown["faces"] == ["4", "0"] and asked.shown["target"] == "e"
    assert asked.rule == SNIPER_RULE and "chooses one to give to the opponent" in asked.rule
    assert for_seat([asked], frozenset({"e"})) == []  # the target's seat is not asked
    assert sniper_pick(state.rules, asked) == ("1:B4",)  # a computer player's choice


@pytest.mark.parametrize(
    ("switches", "faces"),
    [
        ({}, ["1", "2", "1 and jammed", "1"]),
        (
            {"standard_rules": True},
            ["1 and wounded pilot", "2 and wounded pilot", "1 and jammed", "1 and wounded pilot"],
        ),
    ],
    ids=["special-damage-off", "standard-rules"],
)
def test_the_cards_faces_tell_only_the_icons_that_act(switches: Json, faces: list[str]) -> None:
    """000: "Other types of special damage symbols ... are ignored in the Basic Rules"
    (R25), while "Jammed guns icon cards are resolved normally" (R23): with special damage
    off the Sniper reads a wounded-pilot card as its value, as the console shows it (issue
    29 item 8), and a jam still as a jam."""
    from conftest import _catalog

    told = []
    for pair in (["B1-wound", "B2-e-wound"], ["B1-jam", "B1-wound"]):
        sit = aces(Skill.SNIPER, pair, e_fire=HOLD, switches=switches)
        sit["vehicles"][1]["pose"] = {"x": 35.0, "y": 45.0, "heading": 0.0}
        plans = {v["id"]: Plan.model_validate(v.pop("plans")[0]) for v in sit["vehicles"]}
        state, _ = start_turn(build(parse_situation(sit), _catalog(), 0), plans)
        (asked,) = pending_decisions(state, step_rng(0, 1, 1), answers=USE)
        told += asked.shown["faces"]
    assert told == faces


@pytest.mark.parametrize("answer", [["3:B9"], ["1:B4", "2:B0"], []])
def test_a_choice_that_is_not_one_of_the_two_cards_is_refused(answer: list[str]) -> None:
    with pytest.raises(DataError, match="sniper") as refused:
        run(behind({"sniper:p@1.1": answer}), phases=1)
    assert "chooses one to give to the opponent" in str(refused.value)


def test_a_bot_gives_the_explosion_before_any_value() -> None:
    from conftest import _catalog

    catalog = _catalog()
    deck = catalog.damage_decks["B"]
    boom = next(c.id for c in deck.cards if c.explosion)
    high = max((c for c in deck.cards if not c.explosion), key=lambda c: c.value).id
    sit = aces(Skill.SNIPER, [high, boom], e_fire=HOLD)
    sit["vehicles"][1]["pose"] = {"x": 35.0, "y": 45.0, "heading": 0.0}
    plans = {v["id"]: Plan.model_validate(v.pop("plans")[0]) for v in sit["vehicles"]}
    state, _ = start_turn(build(parse_situation(sit), catalog, 0), plans)
    (asked,) = pending_decisions(state, step_rng(0, 1, 1), answers=USE)
    assert sniper_pick(state.rules, asked) == (f"2:{boom}",)


def test_the_two_cards_reach_the_snipers_seat_alone(tmp_path: Any) -> None:
    """000: "If a player is instructed to draw more than one card but to keep only one of
    them, he inspects the cards secretly, then he chooses one and shuffles the others
    back into the appropriate deck, without revealing them." The firing seat's view lists
    the Sniper's decision with both cards; the target's seat — its view over HTTP and its
    WebSocket — holds neither the decision nor the cards."""
    from server_helpers import client, headers, seat_url

    sit = camels("p", "e")
    with client(tmp_path / "g.sqlite") as c:
        made = c.post("/api/games", json={"situation": sit}).json()
        game = made["game"]["id"]
        seat = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
        (allies, ta), (central, tc) = seat["allies"], seat["central"]
        with c.websocket_connect(f"/api/games/{game}/ws") as ws:
            ws.send_json({"seat": central, "token": tc, "since": 0})
            seen = [ws.receive_json()]
            for sid, tok, vid, fire in ((allies, ta, "p", "auto"), (central, tc, "e", "none")):
                answer = c.post(
                    seat_url(game, sid, "plans"),
                    headers=headers(tok),
                    json={
                        "turn": 1,
                        "plans": {vid: {"cards": ["1", "2", "3"], "fire": [fire] * 3}},
                    },
                )
                assert answer.status_code == 200, answer.text
                seen.append(ws.receive_json())
            # the pilot first says it uses its skill this phase (issue 30 item 4)
            used = c.post(
                seat_url(game, allies, "decisions"),
                headers=headers(ta),
                json={"turn": 1, "phase": 1, "answers": {"skill:p@1.1": ["use"]}},
            )
            assert used.status_code == 200, used.text
            seen.append(ws.receive_json())
            mine = c.get(seat_url(game, allies), headers=headers(ta)).json()
            theirs = c.get(seat_url(game, central), headers=headers(tc)).json()
        (asked,) = [d for d in mine["stage"]["decisions"] if d["kind"] == SNIPER]
        assert len(asked["shown"]["faces"]) == 2 and len(asked["options"]) == 2
        for body in (theirs, *seen):
            text = str(body)
            assert "sniper:p@" not in text and "faces" not in text, body
            assert asked["options"][0] not in text and asked["options"][1] not in text

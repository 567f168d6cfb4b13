"""Bombing Tripods (001, "BOMBING TRIPODS"): loads, the drop, the bomb card laid after
movement, heat-rays at falling bombs, the bombs landing, and 001's own worked example.

The bomb card's dot is put where a test wants it: the bomber ends its straight so that
the straight laid in front of it has its arrowhead there (:func:`bomber`).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import HOLD, Json, default_plans, of, plain, plane, run, situation
from test_rules_tripods import CATALOG, CONST, before, drawn, tplan, tripod
from test_rules_tripods import planned as planned_state
from test_rules_versus import still_cards

from dogfight.catalog.models import Symbol
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose
from dogfight.rules.chance import step_rng
from dogfight.rules.decisions import for_seat
from dogfight.rules.engine import pending_decisions, resolve_phase
from dogfight.rules.events import (
    BombCardPlaced,
    BomberPicked,
    BombsDropped,
    BombsLanded,
    BombsShot,
    DamageDrawn,
    HeatRay,
    Toppled,
)

CAPRONI = "caproni-ca3"
CAMEL = "sopwith-camel"
LOCUST = "mk1-locust"
SCARAB = "mk2-scarab"
BASE_L = CONST.airplane_base.length


def end_for_dot(airplane: str, x: float, y: float) -> Pose:
    """Where an airplane flying east ends its move so that the deck's straight laid in
    front of it has its arrowhead (the bomb card's dot) at (x, y)."""
    deck = CATALOG.maneuver_decks[CATALOG.airplane(airplane).maneuver_deck]
    return Pose(x - deck.card(deck.straight).forward - BASE_L / 2.0, y, 0.0)


def bomber(
    vid: str, airplane: str, dot: tuple[float, float], drop: int, loads: int, **extra: Any
) -> Json:
    """A bomber flying east on straights, dropping ``drop`` loads in phase 1, its bomb
    card's dot landing at ``dot``."""
    cards = default_plans(airplane)[0]["cards"]
    start = before(airplane, cards[0], end_for_dot(airplane, *dot))
    plan = {"cards": cards, "fire": list(HOLD), "drop": [drop, 0, 0]}
    return plane(
        vid, airplane, "earth", start.x, start.y, start.heading, plans=[plan], bombs=loads, **extra
    )


def target(vid: str, model: str, x: float, y: float, heading: float, shoot: str | None) -> Json:
    action = None if shoot is None else {"token": "heat_ray", "projector": "front", "target": shoot}
    return tripod(
        vid,
        x,
        y,
        heading,
        model=model,
        plans=[tplan(*still_cards(model), actions=[action, None, None])],
    )


def example(**kw: Any) -> Json:
    """001's example: "A Caproni Ca.3 with two loads of bombs and a Camel with one load of
    bombs approach a Mk. I Locust and a Mk. II Scarab." The Scarab (centre 45, 45) faces
    south, the Locust (45, 55) too; the Caproni's dot lands on the Scarab at (45, 48), its
    card reaching the Locust's front side; the Camel's card covers the Scarab's front edge
    from (45, 38), its dot off the base."""
    return situation(
        target("locust", LOCUST, 45.0, 55.0, 270.0, "bombs:caproni"),
        target("scarab", SCARAB, 45.0, 45.0, 270.0, "bombs:camel"),
        bomber("caproni", CAPRONI, (45.0, 48.0), 2, 2),
        bomber("camel", CAMEL, (45.0, 38.0), 1, 1),
        **kw,
    )


def test_001_bombing_example() -> None:
    """001's worked example. "The Caproni's player declares it will drop both of its loads,
    and the Camel's player declares it will also drop its load. Action cards are then
    revealed: both tripods will fire with their frontal heat-ray projectors." / "The
    Camel's bomb card overlaps part of the Scarab's base but not with its dot. When the
    Caproni's bomb card is placed, its dot overlaps part of the Scarab's base, and part of
    the Locust's base is also covered by the card." / "The Scarab inflicts 4 damage points
    together with a smoke trail special damage icon, so the Camel's bomb card is
    eliminated, and, since there is a special damage icon, the Camel takes two Z damage
    cards. The Locust inflicts 2 damage points on the Caproni's bombs, not enough to
    eliminate the bomb card." / "The Locust takes two C damage cards (one for each load)
    from the Caproni's bomb card. Since the dot at the center of the bomb card covers part
    of the Scarab, the bombing player draws four C damage cards, then he chooses and
    assigns two of them to the Scarab and discards the other two." """
    scarab_shot = "D4-smoke-batt"  # 4 points and the smoke trail icon
    locust_shot = plain("A", 2)
    c_cards = plain("C", 1, 1, 0, 2, 1, 2)  # the Locust's two, then the Scarab's four
    picked = [c_cards[3], c_cards[5]]
    sit = example(
        damage_decks={"D": [scarab_shot], "A": locust_shot, "C": c_cards, "Z": plain("Z", 1, 1)},
        bomb_picks=[{"bomber": "caproni", "target": "scarab", "cards": picked}],
    )
    state, events = run(sit, phases=1)
    assert [(e.bomber, e.loads) for e in of(events, BombsDropped)] == [("camel", 1), ("caproni", 2)]
    placed = {e.bomber: e for e in of(events, BombCardPlaced)}
    assert placed["camel"].dot == () and placed["camel"].covered == ("scarab",)
    assert placed["caproni"].dot == ("scarab",) and placed["caproni"].covered == ("locust",)
    rays = {e.firer: e.target for e in of(events, HeatRay)}
    assert rays == {"scarab": "bombs:camel", "locust": "bombs:caproni"}
    shots = {e.bombs: e for e in of(events, BombsShot)}
    assert shots["bombs:camel"].points == 4 and shots["bombs:camel"].destroyed
    assert shots["bombs:camel"].fragments
    assert shots["bombs:caproni"].points == 2 and not shots["bombs:caproni"].destroyed
    (fragments,) = drawn(events, "camel")
    assert fragments.deck == "Z" and len(fragments.cards) == 2
    landed = {e.target: (e.how, e.cards) for e in of(events, BombsLanded)}
    assert landed == {"locust": ("card", 2), "scarab": ("dot", 2)}
    (pick,) = of(events, BomberPicked)
    assert len(pick.drawn) == 4 and list(pick.assigned) == picked
    assert [d.cards for d in drawn(events, "locust")] == [tuple(c_cards[:2])]
    assert [d.cards for d in drawn(events, "scarab")] == [tuple(picked)]
    assert state.vehicles["scarab"].damage == 4 and state.vehicles["locust"].damage == 2
    assert state.vehicles["caproni"].bombs == 0 and state.vehicles["camel"].bombs == 0
    assert state.bomb_cards == []


def test_bombs_covering_no_base_miss() -> None:
    """001: "If no part of a tripod's base is covered by the bomb card, the bombs miss, and
    the damage is zero." """
    sit = situation(
        target("scarab", SCARAB, 45.0, 45.0, 270.0, None),
        bomber("camel", CAMEL, (45.0, 20.0), 1, 1),
    )
    state, events = run(sit, phases=1)
    (landed,) = of(events, BombsLanded)
    assert (landed.target, landed.how) == (None, "miss")
    assert state.vehicles["scarab"].damage == 0 and not drawn(events, "scarab")


def test_card_without_dot_one_c_card_per_load_and_a_special_topples() -> None:
    """001: "If part of the bomb card covers part of the tripod's base, but the dot at the
    center of the bomb card does not, the tripod's player draws one C damage card for each
    load of bombs dropped." / "If there is any special damage on any C damage card
    inflicted, the tripod also topples." """
    sit = situation(
        target("scarab", SCARAB, 45.0, 45.0, 270.0, None),
        bomber("caproni", CAPRONI, (45.0, 38.0), 2, 2),
        damage_decks={"C": ["C2-topl", "C1"]},
    )
    state, events = run(sit, phases=1)
    (landed,) = of(events, BombsLanded)
    assert (landed.target, landed.how, landed.cards) == ("scarab", "card", 2)
    assert state.vehicles["scarab"].damage == 3
    assert [t.vehicle for t in of(events, Toppled)] == ["scarab"]
    assert state.vehicles["scarab"].tripod is not None and state.vehicles["scarab"].tripod.toppled


def test_dot_without_a_stated_pick_assigns_the_cards_that_hurt_most() -> None:
    """001: "he assigns his choice of half of them to the tripod and discards the others."
    With no choice stated, the engine assigns the cards that hurt most."""
    sit = situation(
        target("scarab", SCARAB, 45.0, 45.0, 270.0, None),
        bomber("camel", CAMEL, (45.0, 47.0), 1, 1),
        damage_decks={"C": plain("C", 1, 2)},
    )
    state, events = run(sit, phases=1)
    (pick,) = of(events, BomberPicked)
    assert list(pick.assigned) == [plain("C", 1, 2)[1]]
    assert state.vehicles["scarab"].damage == 2


def test_a_wrong_pick_is_refused() -> None:
    """A stated pick must be half of the cards drawn."""
    sit = situation(
        target("scarab", SCARAB, 45.0, 45.0, 270.0, None),
        bomber("camel", CAMEL, (45.0, 47.0), 1, 1),
        damage_decks={"C": plain("C", 1, 2)},
        bomb_picks=[{"bomber": "camel", "target": "scarab", "cards": plain("C", 1, 2)}],
    )
    with pytest.raises(DataError, match="half"):
        run(sit, phases=1)


def test_heat_ray_below_four_points_leaves_the_bombs_falling() -> None:
    """001: "If a single heat-ray shot does 4 or more points of damage, or if it is an
    explosion, the bombs are hit and explode in the air, without damaging the target
    tripod." A 3 is not enough; an explosion is, and its icon sends fragments."""

    def table(card: str) -> Json:
        return situation(
            target("scarab", SCARAB, 45.0, 45.0, 270.0, "bombs:camel"),
            bomber("camel", CAMEL, (45.0, 38.0), 1, 1),
            damage_decks={"D": [card], "C": plain("C", 1), "Z": plain("Z", 0, 0)},
        )

    three = plain("D", 3)[0]
    state, events = run(table(three), phases=1)
    (shot,) = of(events, BombsShot)
    assert not shot.destroyed and of(events, BombsLanded)[0].target == "scarab"
    explosion = next(c.id for c in CATALOG.damage_decks["D"].cards if c.explosion)
    state, events = run(table(explosion), phases=1)
    (shot,) = of(events, BombsShot)
    assert shot.destroyed and shot.fragments
    assert not of(events, BombsLanded) and state.vehicles["scarab"].damage == 0
    assert [d.source for d in of(events, DamageDrawn)] == ["bomb fragments"]


def test_bomb_card_follows_the_stall_card_after_a_stall() -> None:
    """001: "If the last maneuver card of the bomber was a stall, place the stall maneuver
    card in front of the airplane and then place its bomb card, so its arrow matches the
    arrow of the stall maneuver card." """
    deck = CATALOG.maneuver_decks[CATALOG.airplane(CAMEL).maneuver_deck]
    stall = next(c for c in deck.cards if c.symbol is Symbol.STALL)
    camel = plane("camel", CAMEL, "earth", 20.0, 20.0, 0.0, bombs=1)
    camel["plans"] = [
        {"cards": [stall.id, *default_plans(CAMEL)[0]["cards"][:2]], "drop": [1, 0, 0]}
    ]
    sit = situation(camel, target("scarab", SCARAB, 80.0, 80.0, 270.0, None))
    _state, events = run(sit, phases=1)
    (placed,) = of(events, BombCardPlaced)
    assert placed.card == stall.id


def test_bad_drops_are_refused() -> None:
    """001: loads are agreed before the game ("An airplane can have one or more loads of
    bombs"), so a drop by an airplane without loads or of more loads than it has left is
    refused, and "Bombs cannot be dropped immediately after an Immelmann/Split-S
    maneuver." """

    def with_drop(drop: list[int], loads: int, **extra: Any) -> Json:
        b = bomber("camel", CAMEL, (45.0, 38.0), 0, loads, **extra)
        b["plans"][0]["drop"] = drop
        return situation(b, target("scarab", SCARAB, 45.0, 45.0, 270.0, None))

    with pytest.raises(DataError, match=r"drop.*no bombs"):
        run(with_drop([1, 0, 0], 0), phases=1)
    with pytest.raises(DataError, match="left"):
        run(with_drop([1, 1, 0], 1), phases=1)
    with pytest.raises(DataError, match="Immelmann"):
        run(with_drop([1, 0, 0], 1, previous={"symbol": "immelmann"}), phases=1)


def test_usual_loads_from_the_catalog() -> None:
    """001: "typically, a single-engine airplane has one load, while a multi-engine
    airplane has two." """
    assert CATALOG.airplane(CAMEL).usual_loads == 1
    assert CATALOG.airplane(CAPRONI).usual_loads == 2
    sit = situation(
        plane("caproni", CAPRONI, "earth", 20.0, 20.0, bomber=True),
        target("scarab", SCARAB, 80.0, 80.0, 270.0, None),
    )
    state, _ = run(sit, phases=1)
    assert state.vehicles["caproni"].bombs == 2


def test_the_bombers_pick_is_an_engine_decision_for_its_seat_only() -> None:
    """001: "he assigns his choice of half of them to the tripod" -- one engine decision
    (``bomb_pick``), asked of the bomber's seat alone with the cards it drew; the phase
    waits for it when resolved interactively, and the answer decides the damage."""
    sit = situation(
        target("scarab", SCARAB, 45.0, 45.0, 270.0, None),
        bomber("camel", CAMEL, (45.0, 47.0), 1, 1),
        damage_decks={"C": plain("C", 1, 2)},
    )
    state = planned_state(sit)
    # the Scarab's action card, chosen first, then the Camel's drop (as planned)
    none = {"action_token:scarab@1.1": ["none"], "bomb_drop:camel@1.1": ["1"]}
    (decision,) = pending_decisions(state, step_rng(0, 1, 1), answers=none)
    assert (decision.kind, decision.vehicle, decision.mode, decision.count) == (
        "bomb_pick",
        "camel",
        "pick",
        1,
    )
    assert decision.shown["drawn"] == plain("C", 1, 2)
    assert for_seat([decision], {"scarab"}) == []
    low = next(o for o in decision.options if o.endswith(plain("C", 1)[0]))
    new, events = resolve_phase(state, step_rng(0, 1, 1), answers={**none, decision.id: [low]})
    assert new.vehicles["scarab"].damage == 1
    picked = of(events, BomberPicked)[0]
    assert picked.secret_for == "camel" and picked.redacted() is None

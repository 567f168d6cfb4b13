"""Airplane rules, part 4: victory, hidden information and determinism.

Source ids: 000 Tripods & Triplanes (``wog``), 002 Wings of War manual (``wow``), 003 Wings
of War basic rules (``wow-basic``).
"""

from __future__ import annotations

import json

from conftest import (
    HOLD,
    Json,
    explosion_card,
    jam_card,
    of,
    plain,
    plane,
    run,
    situation,
)

from dogfight.rules.events import (
    DamageCardsTaken,
    DamageDrawn,
    Eliminated,
    Explosion,
    GameOver,
    Jammed,
    as_dicts,
)
from dogfight.rules.observation import observe, side_seat, visible_events

SPAD = "spad-xiii"  # deck A, fires A, resistance 16
Y0 = 45.0


def _view(seen: dict[str, object], vid: str) -> dict[str, object]:
    vehicles = seen["vehicles"]
    assert isinstance(vehicles, list)
    for v in vehicles:
        assert isinstance(v, dict)
        if v["id"] == vid:
            return v
    raise AssertionError(vid)


# --- victory ----------------------------------------------------------------------------------


def test_victory_when_all_enemies_are_eliminated() -> None:
    """000 VICTORY: "When playing a simple battle, the winner is the player (or team) with
    vehicles still in the playing area when all the enemy vehicles exit it or are
    eliminated." 003: "当只有一方的飞机留在战场内,则该方胜利" (when only one side's
    airplanes remain on the field, that side wins)."""
    sit = situation(
        plane("a", SPAD, "allies", 10, Y0, 0),
        plane("b", SPAD, "central", 22, Y0, 0, damage=14),
        plane("c", SPAD, "central", 10, 80, 0, fire=HOLD),
        damage_decks={"A": plain("A", 1, 1, 1, 1, 1, 1)},
    )
    state, events = run(sit, phases=1)
    assert [e.vehicle for e in of(events, Eliminated)] == ["b"]
    assert not state.over  # "c" is still flying
    assert of(events, GameOver) == []

    sit["vehicles"].pop()  # without "c", the allies have won
    state, events = run(sit)
    (over,) = of(events, GameOver)
    assert state.over
    assert state.winner == over.winner == "allies"
    assert over.scores == {"allies": 2, "central": -1}
    assert events[-1] == over  # nothing is resolved after the end


def test_victory_when_the_enemy_leaves_the_area() -> None:
    """000 VICTORY: "... when all the enemy vehicles exit it or are eliminated." 002:
    "Aircraft eliminated via damage, exit, or illegal move all count as lost." / "+1 per
    enemy aircraft that exited playing area"."""
    sit = situation(
        plane("a", SPAD, "allies", 45, 45, 90, fire=HOLD),
        plane("b", SPAD, "central", 85, 20, 0, fire=HOLD),
    )
    state, events = run(sit)
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("b", "left_area")]
    (over,) = of(events, GameOver)
    assert (state.winner, over.winner) == ("allies", "allies")
    assert over.scores == {"allies": 1, "central": 0}


def test_draw_when_both_sides_are_eliminated_at_once() -> None:
    """000 VICTORY: "the winner is the player (or team) with vehicles still in the playing
    area when all the enemy vehicles exit it or are eliminated" — with no vehicle left on
    either side, nobody wins. 000: "a vehicle that is destroyed may still fire during the
    phase in which it is eliminated." """
    sit = situation(
        plane("a", SPAD, "allies", 25, Y0, 0, damage=14),
        plane("b", SPAD, "central", 62, Y0, 180, damage=14),
        damage_decks={"A": plain("A", 1, 1, 1, 1)},
    )
    state, events = run(sit)
    assert sorted(e.vehicle for e in of(events, Eliminated)) == ["a", "b"]
    (over,) = of(events, GameOver)
    assert over.winner is None
    assert state.over
    assert state.winner is None


# --- hidden information -------------------------------------------------------------------------


def _jam_shot() -> Json:
    """ "a" fires at "b" at short range; "b" draws a jam card and an A2."""
    return situation(
        plane("a", SPAD, "allies", 10, Y0, 0),
        plane("b", SPAD, "central", 22, Y0, 0),
        damage_decks={"A": [jam_card("A", 0), *plain("A", 2)]},
    )


def test_damage_and_plans_are_seen_only_by_their_owner() -> None:
    """000 PLANNING: "Place these cards facedown into the three maneuver spaces on the
    console." DAMAGE: "The player looks secretly at the damage cards drawn and keeps them
    all together, facedown". 003: "除机枪发生故障的特殊伤害外,所有损伤牌都无需让他人知晓"
    (except jammed guns, no damage card needs to be shown to others)."""
    state, _ = run(_jam_shot(), phases=1)
    allies = side_seat(state, "allies")
    assert allies == frozenset({"a"})
    mine = observe(state, allies)
    own, other = _view(mine, "a"), _view(mine, "b")
    assert own["plan"] is not None
    assert "damage" in own
    assert "damage_cards" in own
    for secret in ("damage", "damage_cards", "plan", "resistance"):
        assert secret not in other
    b_plan = state.vehicles["b"].plan
    assert b_plan is not None
    assert other["revealed"] == [b_plan.cards[0]]  # only the cards revealed so far
    theirs = _view(observe(state, side_seat(state, "central")), "b")
    assert theirs["damage"] == state.vehicles["b"].damage == 2
    assert theirs["damage_cards"] == [f"A:{c}" for c in (jam_card("A", 0), *plain("A", 2))]
    referee = observe(state, None)
    assert "damage" in _view(referee, "a")
    assert "damage" in _view(referee, "b")


def test_damage_drawn_is_redacted_for_other_seats_jams_are_public() -> None:
    """000 DAMAGE: "The player looks secretly at the damage cards drawn". 000 (JAMMED):
    "The player drawing the card must immediately show it to the firing player." 002:
    "Reveal only if card has explosion symbol ... or jammed gun symbol". Others see that
    cards were drawn, and how many."""
    state, events = run(_jam_shot(), phases=1)
    (secret,) = of(events, DamageDrawn)
    assert secret.vehicle == "b"
    for_a = visible_events(events, side_seat(state, "allies"))
    assert of(for_a, DamageDrawn) == []
    (public,) = of(for_a, DamageCardsTaken)
    assert (public.vehicle, public.deck, public.count) == ("b", "A", 2)
    assert "cards" not in public.to_json()
    assert [(j.firer, j.card) for j in of(for_a, Jammed)] == [("a", jam_card("A", 0))]
    for_b = visible_events(events, side_seat(state, "central"))
    assert of(for_b, DamageDrawn) == [secret]
    assert of(for_b, DamageCardsTaken) == []
    assert len(of(for_b, Jammed)) == 1
    assert visible_events(events, None) == events


def test_explosions_are_public() -> None:
    """002: "Reveal only if card has explosion symbol (immediate elimination) or jammed gun
    symbol (affects shooter)." 003: "损伤牌上只印有爆炸,即代表目标实时爆炸"."""
    sit = situation(
        plane("a", SPAD, "allies", 10, Y0, 0),
        plane("b", SPAD, "central", 22, Y0, 0),
        damage_decks={"A": [explosion_card("A"), *plain("A", 0)]},
        ruleset="wow",
    )
    state, events = run(sit, phases=1)
    for_a = visible_events(events, side_seat(state, "allies"))
    assert [e.vehicle for e in of(for_a, Explosion)] == ["b"]
    assert [e.vehicle for e in of(for_a, Eliminated)] == ["b"]


# --- determinism ----------------------------------------------------------------------------------


def test_same_situation_and_seed_give_identical_events() -> None:
    """A referee's ruling must be reproducible: the same situation and seed give the same
    shuffles and so the same events (docs/situations.md: "the same situation and seed
    always give the same events")."""
    sit = situation(
        plane("a", SPAD, "allies", 25, Y0, 0, turns=2),
        plane("b", SPAD, "central", 62, Y0, 180, turns=2),
        plane("c", "bristol-f2b", "allies", 20, 20, 0, turns=2),
    )
    first = json.dumps(as_dicts(run(sit, seed=11)[1]), sort_keys=True)
    second = json.dumps(as_dicts(run(sit, seed=11)[1]), sort_keys=True)
    assert first == second
    assert "damage_drawn" in first
    state_1, _ = run(sit, seed=11)
    state_2, _ = run(sit, seed=11)
    assert observe(state_1, None) == observe(state_2, None)

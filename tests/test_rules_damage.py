"""Airplane rules, part 3: damage — aim, simultaneous damage, elimination, explosions,
jammed guns and running out of damage cards.

Damage decks are stacked (the situation's ``damage_decks``) so every outcome is exact.
Source ids: 000 Tripods & Triplanes (``wog``), 002 Wings of War manual (``wow``), 003 Wings
of War basic rules (``wow-basic``).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import (
    HOLD,
    Json,
    composition,
    explosion_card,
    jam_card,
    of,
    phases_of,
    plain,
    plan,
    plane,
    run,
    situation,
    state_of,
    straights,
)

from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose
from dogfight.rules.chance import step_rng
from dogfight.rules.decks import draw
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import (
    DamageDrawn,
    DeckReshuffled,
    Eliminated,
    Event,
    Explosion,
    Fired,
    GameOver,
    JamCounterDiscarded,
    Jammed,
)
from dogfight.rules.plans import Plan

SPAD = "spad-xiii"  # deck A, fires A, resistance 16
X0, Y0 = 10.0, 45.0


def fired(events: list[Event], firer: str = "a") -> list[tuple[int, int, Fired]]:
    return [(t, p, e) for t, p, e in phases_of(events, Fired) if e.firer == firer]


def drawn(events: list[Event], vehicle: str = "b") -> list[DamageDrawn]:
    return [e for e in of(events, DamageDrawn) if e.vehicle == vehicle]


def chase(stack: list[str], *, turns: int = 1, **a: Any) -> Json:
    """SPAD "a" 12 cm behind enemy SPAD "b" (short range), both flying away with the same
    cards; deck A stacked with ``stack``."""
    return situation(
        plane("a", SPAD, "allies", X0, Y0, 0, turns=turns, **a),
        plane("b", SPAD, "central", X0 + 12, Y0, 0, turns=turns),
        damage_decks={"A": stack},
    )


def head_on(
    airplane: str, gap: float, *, a: dict[str, Any] | None = None, b: dict[str, Any] | None = None
) -> Json:
    """ "a" and "b" (both ``airplane``) flying at each other, ``gap`` cm apart (centre to
    centre) once both have flown their first card."""
    catalog = load_catalog()
    deck = catalog.maneuver_decks[catalog.airplane(airplane).maneuver_deck]
    first = deck.card(straights(deck.deck)[0])
    step = apply_card(Pose(0, 0, 0), first, catalog.constants.airplane_base.length).x
    return situation(
        plane("a", airplane, "allies", 45 - gap / 2 - step, Y0, 0, **(a or {})),
        plane("b", airplane, "central", 45 + gap / 2 + step, Y0, 180, **(b or {})),
    )


# --- aim -------------------------------------------------------------------------------------


def test_aim_bonus_from_the_second_consecutive_phase() -> None:
    """000 AIM: "When an airplane is firing at the same target with the same weapon (within
    the same firing arc) for two or more consecutive phases, it can fire with more
    accuracy. From the second consecutive phase of fire onward ... all the damage cards
    causing damage score one additional damage point." 002: "If same plane fires at same
    target in same arc for consecutive phases, starting from the second phase, each damage
    card scores +1 (0 remains 0)." """
    stack = plain("A", 2, 1, 2, 3)
    state, events = run(chase(stack), phases=2)
    assert [(p, f.aimed) for _, p, f in fired(events)] == [(1, False), (2, True)]
    assert [(d.cards, d.points) for d in drawn(events)] == [
        (tuple(stack[:2]), 3),
        (tuple(stack[2:]), (2 + 1) + (3 + 1)),
    ]
    assert state.vehicles["b"].damage == 10


def test_aim_zero_stays_zero() -> None:
    """000 AIM: "Zeroes, however, are still considered zeroes." 002: "(0 remains 0)"."""
    stack = plain("A", 1, 1, 0, 2)
    _, events = run(chase(stack), phases=2)
    second = drawn(events)[1]
    assert second.cards == tuple(stack[2:])
    assert second.points == 0 + (2 + 1)


def test_aim_bonus_is_never_more_than_one() -> None:
    """000 AIM: "Even if an airplane is firing at the target for three or more phases, the
    target only takes one additional damage point." (per card)"""
    stack = plain("A", 1, 0, 1, 0, 1, 1)
    _, events = run(chase(stack), phases=3)
    assert [f.aimed for _, _, f in fired(events)] == [False, True, True]
    assert [d.points for d in drawn(events)] == [1, (1 + 1) + 0, (1 + 1) + (1 + 1)]


def test_aim_carries_from_one_turn_to_the_next() -> None:
    """000 AIM: "From the second consecutive phase of fire onward, even from one turn to
    the next, all the damage cards causing damage score one additional damage point." """
    stack = plain("A", 1, 1, 1, 2)
    sit = chase(
        stack,
        turns=2,
        plans=[
            plan(*straights(SPAD)[:3], fire=("none", "none", "b")),
            plan(*straights(SPAD)[:3], fire=("b", "none", "none")),
        ],
    )
    _, events = run(sit, phases=4)
    assert [(t, p, f.aimed) for t, p, f in fired(events)] == [(1, 3, False), (2, 1, True)]
    assert [d.points for d in drawn(events)] == [2, 2 + 3]
    # the same stated by a situation: "a" fired at "b" in the phase before
    _, events = run(chase(plain("A", 1, 2), aim={"front": "b"}), phases=1)
    assert [f.aimed for _, _, f in fired(events)] == [True]
    assert [d.points for d in drawn(events)] == [2 + 3]


def test_no_aim_bonus_in_wow_basic() -> None:
    """003 has no aim rule; its damage is the sum of the printed numbers: "损伤牌中的数字
    即是损伤数目。一架飞机的损伤,即其获得之损伤牌中损伤数目的总和" (the number on a damage
    card is its damage; an airplane's damage is the sum of the numbers on its cards)."""
    stack = plain("A", 2, 1, 2, 3)
    sit = chase(stack)
    sit["ruleset"] = "wow-basic"
    state, events = run(sit, phases=2)
    assert [f.aimed for _, _, f in fired(events)] == [False, False]
    assert [d.points for d in drawn(events)] == [2 + 1, 2 + 3]
    assert state.vehicles["b"].damage == 8


def test_aim_chain_broken_by_a_phase_without_firing() -> None:
    """000 AIM: "When an airplane is firing at the same target ... for two or more
    consecutive phases" — a phase without firing ends the run of consecutive phases."""
    stack = plain("A", 1, 1, 1, 1)
    _, events = run(chase(stack, fire=("auto", "none", "auto")), phases=3)
    assert [(p, f.aimed) for _, p, f in fired(events)] == [(1, False), (3, False)]
    assert [d.points for d in drawn(events)] == [2, 2]


def test_aim_needs_the_same_target() -> None:
    """000 AIM: "When an airplane is firing at the same target with the same weapon ...
    for two or more consecutive phases". Switching targets starts over."""
    sit = situation(
        plane("a", SPAD, "allies", X0, Y0, 0, fire=("b", "c", "c")),
        plane("b", SPAD, "central", X0 + 12, Y0, 0),
        plane("c", SPAD, "central", X0 + 20, Y0 + 12, 0),
        damage_decks={"A": plain("A", 1, 1, 1, 1)},
    )
    _, events = run(sit, phases=3)
    assert [(p, f.target, f.aimed) for _, p, f in fired(events)] == [
        (1, "b", False),
        (2, "c", False),
        (3, "c", True),
    ]


# --- simultaneous damage and elimination ------------------------------------------------------


def test_destroyed_airplane_still_fires_in_that_firing_step() -> None:
    """000 DAMAGE: "All damage inflicted in the same firing step, regardless of its source,
    is resolved simultaneously, after all vehicles that wish to fire have done so.
    (Therefore, a vehicle that is destroyed may still fire during the phase in which it is
    eliminated.)" 003: "所有飞机皆完成开火后,移除遭击落的飞机" (after all airplanes have
    fired, remove those shot down)."""
    sit = head_on(SPAD, 10.0, b={"damage": 14})
    sit["damage_decks"] = {"A": plain("A", 1, 1, 2, 1)}  # a fires first (ids in order)
    state, events = run(sit, phases=1)
    assert {f.firer: f.target for f in of(events, Fired)} == {"a": "b", "b": "a"}
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("b", "shot_down")]
    assert state.vehicles["a"].in_play
    assert state.vehicles["a"].damage == 3
    assert state.vehicles["b"].damage == 16


@pytest.mark.parametrize(("before", "eliminated"), [(12, False), (13, True), (14, True)])
def test_eliminated_when_damage_reaches_resistance(before: int, eliminated: bool) -> None:
    """000: "When the total damage (indicated by adding the number on the cards) sustained
    by the vehicle equals or exceeds the resistance of the vehicle (indicated by the green
    number on its base), the vehicle is eliminated." 003: "当抽出的损伤累积至这数目或以上
    时,玩家的飞机即遭击落"."""
    sit = situation(
        plane("a", SPAD, "allies", X0, Y0, 0),
        plane("b", SPAD, "central", X0 + 12, Y0, 0, damage=before),
        damage_decks={"A": plain("A", 1, 2)},
    )
    state, events = run(sit, phases=1)
    b = state.vehicles["b"]
    assert b.damage == before + 3
    assert b.resistance == 16  # the SPAD XIII's published resistance (facts.md)
    assert (not b.in_play) is eliminated
    assert [e.vehicle for e in of(events, Eliminated)] == (["b"] if eliminated else [])


def test_eliminated_airplane_returns_its_damage_cards() -> None:
    """000: "The vehicle is removed from the game and all its damage cards are shuffled
    back into the appropriate decks." """
    sit = head_on(SPAD, 10.0, b={"damage": 14})
    sit["damage_decks"] = {"A": plain("A", 1, 1, 2, 1)}
    state, events = run(sit, phases=1)
    a, b = state.vehicles["a"], state.vehicles["b"]
    assert not b.in_play
    assert b.held == []
    assert [e.reason for e in of(events, DeckReshuffled)] == ["cards of b returned"]
    assert len(state.piles["A"]) == len(composition("A")) - len(a.held)
    assert len(a.held) == 2


# --- explosions ---------------------------------------------------------------------------------


def test_explosion_wog_worked_example_nieuport_16(catalog: Catalog) -> None:
    """000 EXPLOSION: "If a damage card with the explosion symbol is drawn, the target
    vehicle receives half of its original damage allowance (rounding up). Example: a
    Nieuport 16 (10 damage) has suffered two Z damage tokens for a total of 4 points. It
    then gets another damage token and there is an Explosion symbol on it. The explosion
    inflicts 10/2 = 5 points of damage. The total damage suffered by the Nieuport 16 is now
    4 + 5 = 9." """
    firer = "nieuport-11"
    letter = catalog.airplanes[firer].firepower[0]
    boom = explosion_card(letter)
    assert catalog.airplanes["nieuport-16"].damage == 10
    sit = situation(
        plane("a", firer, "allies", X0, Y0, 0),
        plane("b", "nieuport-16", "central", X0 + 25, Y0, 0, damage=4),
        damage_decks={letter: [boom]},
    )
    state, events = run(sit, phases=1)
    (f,) = of(events, Fired)
    assert f.cards == 1
    assert [(e.vehicle, e.card) for e in of(events, Explosion)] == [("b", boom)]
    (d,) = drawn(events)
    assert (d.cards, d.points, d.total) == ((boom,), 5, 9)
    assert state.vehicles["b"].damage == 9
    assert state.vehicles["b"].in_play


@pytest.mark.parametrize("target", ["hanriot-hd1", "nieuport-16"])
def test_explosion_wog_half_resistance_rounded_up(target: str, catalog: Catalog) -> None:
    """000 EXPLOSION: "If a damage card with the explosion symbol is drawn, the target
    vehicle receives half of its original damage allowance (rounding up)." (Hanriot HD.1:
    11 -> 6; Nieuport 16: 10 -> 5.)"""
    firer = "nieuport-11"
    assert catalog.airplanes[target].maneuver_deck == catalog.airplanes[firer].maneuver_deck
    letter = catalog.airplanes[firer].firepower[0]
    resistance = catalog.airplanes[target].damage
    sit = situation(
        plane("a", firer, "allies", X0, Y0, 0),
        plane("b", target, "central", X0 + 25, Y0, 0),
        damage_decks={letter: [explosion_card(letter)]},
    )
    state, _ = run(sit, phases=1)
    assert state.vehicles["b"].damage == (resistance + 1) // 2
    assert state.vehicles["b"].in_play


@pytest.mark.parametrize("ruleset", ["wow", "wow-basic"])
def test_explosion_eliminates_at_once_in_wings_of_war(ruleset: str, catalog: Catalog) -> None:
    """002: "Reveal only if card has explosion symbol (immediate elimination)". 003:
    "损伤牌上只印有爆炸,即代表目标实时爆炸。在完成开火后,移除爆炸的飞机" (a damage card
    with only an explosion means the target explodes at once; remove the exploded airplane
    once firing is complete) — so it still fires in that step."""
    airplane = "nieuport-16"
    letter = catalog.airplanes[airplane].firepower[0]
    sit = head_on(airplane, 12.0)
    sit["ruleset"] = ruleset
    sit["damage_decks"] = {letter: [explosion_card(letter), *plain(letter, 0, 1, 0)]}
    state, events = run(sit, phases=1)
    assert [e.vehicle for e in of(events, Explosion)] == ["b"]
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("b", "exploded")]
    assert {f.firer for f in of(events, Fired)} == {"a", "b"}
    assert state.vehicles["a"].damage == 1
    assert state.vehicles["a"].in_play
    (over,) = of(events, GameOver)
    # an explosion counts as shot down; 002: only the "Winning player/team scores"
    loser = 0 if ruleset == "wow" else -1
    assert over.scores == {"allies": 2, "central": loser}


# --- jammed guns --------------------------------------------------------------------------------


def _jam_chase(stack: list[str], ruleset: str = "wog") -> Json:
    """Fokker Dr.I "a" (fires A) 12 cm behind enemy Sopwith Triplane "b", both on deck D's
    short straights for two turns (they stay on the table)."""
    sit = situation(
        plane("a", "fokker-dr1", "allies", 5, Y0, 0, turns=2),
        plane("b", "sopwith-triplane", "central", 5 + 12, Y0, 0, turns=2),
        damage_decks={"A": stack},
        ruleset=ruleset,
    )
    return sit


@pytest.mark.parametrize("ruleset", ["wog", "wow", "wow-basic"])
def test_jam_card_jams_the_firer_for_three_maneuvers(ruleset: str) -> None:
    """000 (JAMMED): "The firing airplane has jammed one of its guns. The player drawing the
    card must immediately show it to the firing player. The firing airplane cannot fire
    after each of the next three maneuvers. ... This airplane discards one jammed counter
    after performing each of the next three maneuvers. It may fire normally thereafter."
    (000's basic rules: "Jammed guns icon cards are resolved normally.") 003: "开火的飞机
    在随后 3 个开火步骤都不可开火" (the firing airplane cannot fire in the next 3 firing
    steps). 002: "Jammed guns: Affects firing plane. Discard one jam counter per maneuver;
    cannot fire during that phase." """
    jam = jam_card("A", 0)
    stack = [jam, *plain("A", 0, 0, 0)]
    state, events = run(_jam_chase(stack, ruleset), phases=5)
    jams = phases_of(events, Jammed)
    assert [(t, p, e.firer, e.weapon, e.card, e.counters) for t, p, e in jams] == [
        (1, 1, "a", "front", jam, 3)
    ]
    assert jam in drawn(events)[0].cards  # drawn by the target ...
    assert [(t, p) for t, p, _ in fired(events)] == [(1, 1), (2, 2)]  # ... jams the firer
    discarded = [(t, p, e.left) for t, p, e in phases_of(events, JamCounterDiscarded)]
    assert discarded == [(1, 2, 2), (1, 3, 1), (2, 1, 0)]
    assert state.vehicles["a"].jams == {}
    assert state.vehicles["b"].jams == {}


def test_two_jam_cards_at_once_still_jam_for_three_maneuvers() -> None:
    """000: "If two jammed cards are drawn at the same time, jamming still lasts for only
    three maneuvers." 003: "若开火的飞机同时出现 2 张机枪故障,亦只需放置最多 3 个卡膛标记
    即可" (two jams at once: at most 3 jam counters)."""
    stack = [jam_card("A", 0), jam_card("A", 1), *plain("A", 0, 0)]
    state, events = run(_jam_chase(stack), phases=5)
    assert [e.counters for e in of(events, Jammed)] == [3]
    assert [(t, p) for t, p, _ in fired(events)] == [(1, 1), (2, 2)]
    state, _ = run(_jam_chase(stack), phases=1)
    assert state.vehicles["a"].jams == {"front": 3}


def test_two_seater_jam_disables_only_the_jammed_arc(catalog: Catalog) -> None:
    """002 FAQ: "Jammed guns: ... Two-seaters: only jammed arc is disabled." 003:
    "双座飞机的机首机枪和机尾机枪是分开处理的" (the front and rear guns of a two-seater
    are handled separately)."""
    front, rear = catalog.airplanes["bristol-f2b"].firepower
    sit = situation(
        plane("bristol", "bristol-f2b", "allies", 40, 45, 0),
        plane("ahead", "fokker-d7", "central", 40 + 12, 45, 0),
        plane("behind", "fokker-d7", "central", 40 - 15, 45 + 5, 0, fire=HOLD),
        damage_decks={front: plain(front, 0, 0, 0, 0), rear: [jam_card(rear, 0), *plain(rear, 0)]},
    )
    state, events = run(sit, phases=2)
    assert [(e.firer, e.weapon) for e in of(events, Jammed)] == [("bristol", "rear")]
    shots = [(p, f.weapon) for _, p, f in fired(events, "bristol")]
    assert shots == [(1, "front"), (1, "rear"), (2, "front")]
    assert state.vehicles["bristol"].jams == {"rear": 2}


# --- running out of damage cards -----------------------------------------------------------------


def test_exhausted_deck_is_reshuffled_and_damage_kept() -> None:
    """000 RUNNING OUT OF DAMAGE CARDS: "If a deck of damage cards is exhausted, each player
    must secretly write on a piece of paper the total damage suffered by each vehicle ...
    Then, all the damage cards are shuffled back into their deck." 002 FAQ: "Reshuffle used
    cards of same letter. If insufficient, use paper to track damage secretly." """
    state = state_of(
        situation(
            plane("a", SPAD, "allies", X0, Y0, 0, damage=5),
            plane("b", SPAD, "central", 60, Y0, 0, damage=7),
        )
    )
    state.vehicles["a"].held = [("A", "A2"), ("A", "A3")]
    state.vehicles["b"].held = [("A", "A4"), ("A", "A3"), ("B", "B0")]
    state.piles["A"] = []
    events: list[Event] = []
    card = draw(state, "A", step_rng(0, 1, 1), events)
    assert card in composition("A")
    assert [(e.deck, e.reason) for e in of(events, DeckReshuffled)] == [("A", "exhausted")]
    assert sorted([*state.piles["A"], card]) == sorted(composition("A"))
    assert (state.vehicles["a"].damage, state.vehicles["b"].damage) == (5, 7)
    assert state.vehicles["a"].held == []
    assert state.vehicles["b"].held == [("B", "B0")]


def test_deck_running_out_during_a_firing_step() -> None:
    """000: "If a deck of damage cards is exhausted, each player must secretly write on a
    piece of paper the total damage suffered by each vehicle ... Then, all the damage cards
    are shuffled back into their deck." A short-range shot needs two cards; one is left."""
    sit = situation(
        plane("a", SPAD, "allies", X0, Y0, 0, damage=4),
        plane("b", SPAD, "central", X0 + 12, Y0, 0, damage=3),
        damage_decks={"A": plain("A", 1)},
    )
    (last,) = plain("A", 1)
    state = state_of(sit)
    state.piles["A"] = state.piles["A"][-1:]  # only the stacked A1 is left
    plans = {v: Plan(cards=tuple(straights(SPAD)[:3])) for v in ("a", "b")}
    state, events = start_turn(state, plans)
    state, more = resolve_phase(state, step_rng(0, 1, 1))
    events += more
    (d,) = drawn(events)
    assert d.cards[0] == last
    assert [e.reason for e in of(events, DeckReshuffled)] == ["exhausted"]
    assert state.vehicles["b"].damage == 3 + d.points
    assert state.vehicles["a"].damage == 4
    assert len(state.piles["A"]) == len(composition("A")) - 1

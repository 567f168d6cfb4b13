"""The Automated Tripod (001): one test per branch of its rules, each on a hand-built table
where the rule's answer is clear. The docstrings quote 001.

Tables are built as situations (the JSON a referee writes); the bot sees them only through
the tripod seat's observation. A Mk I Locust (T1 deck: current = 1, 5, 6, 7, 8, 11, 12;
reserve = 2, 3, 4, 9, 10, 13) is ``t``; airplanes are SPAD XIIIs unless rockets are needed.
The current deck is stacked where the test needs a given draw (its top card is last).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from dogfight.bots.automated_tripod import (
    AutomatedTripod,
    Decision,
    Decks,
    after,
    decision_events,
    energy_status,
    facing_earth,
    on_objective,
    scene_of,
    solo_deck,
    with_decisions,
)
from dogfight.bots.base import make
from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import TripodSymbol
from dogfight.geometry.heatray import RulerSpec, best_shot
from dogfight.geometry.hexbase import Side, hexagon
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import nearest_point
from dogfight.rules.events import PhaseStarted, TripodDecision
from dogfight.rules.observation import observe
from dogfight.rules.plans import Action
from dogfight.rules.state import GameState
from dogfight.sim.solo import play_solo
from dogfight.situation.format import build, parse_situation
from dogfight.words.narration import describe

CATALOG = load_catalog()
SEAT = frozenset({"t"})
CURRENT = ["1", "5", "6", "7", "8", "11", "12"]
RESERVE = ["2", "3", "4", "9", "10", "13"]
MOVE = TripodSymbol.MOVE

Json = dict[str, Any]


def tripod(
    x: float = 45.0, y: float = 45.0, heading: float = 90.0, kind: str = "mk1-locust", **extra: Any
) -> Json:
    return {
        "id": "t",
        "type": kind,
        "side": "martians",
        "pose": {"x": x, "y": y, "heading": heading},
        **extra,
    }


def plane(
    vid: str, x: float, y: float, heading: float, kind: str = "spad-xiii", **extra: Any
) -> Json:
    return {
        "id": vid,
        "type": kind,
        "side": "earth",
        "pose": {"x": x, "y": y, "heading": heading},
        **extra,
    }


def objective(oid: str, x: float, y: float) -> Json:
    return {"id": oid, "x": x, "y": y}


def table(*vehicles: Json, objectives: tuple[Json, ...] = ()) -> GameState:
    data = {"vehicles": list(vehicles), "objectives": list(objectives)}
    return build(parse_situation(data), CATALOG, 0)


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


@dataclass
class Outcome:
    bot: AutomatedTripod
    card: str | None
    action: Action | None
    decisions: list[Decision]

    @property
    def branch(self) -> str:
        return self.decisions[-1].branch

    @property
    def branches(self) -> list[str]:
        return [d.branch for d in self.decisions]


def decide(
    state: GameState,
    *,
    phase: int = 1,
    seed: int = 0,
    current: list[str] | None = None,
    reserve: list[str] | None = None,
    played: tuple[TripodSymbol, ...] = (),
    bot: AutomatedTripod | None = None,
) -> Outcome:
    """The automated tripod's decision at the start of a movement step."""
    bot = bot or AutomatedTripod()
    if current is not None or played:
        bot.decks["t"] = Decks(
            current=list(CURRENT if current is None else current),
            reserve=list(RESERVE if reserve is None else reserve),
            played=list(played),
        )
    actions, cards = bot.phase_actions(observe(state, SEAT), state.rules, SEAT, phase, rng(seed))
    return Outcome(bot, cards.get("t"), actions.get("t"), list(bot.last_decisions))


def scene(state: GameState, phase: int = 1) -> Any:
    return scene_of(observe(state, SEAT), state.rules, "t", "south", True, phase)


def moved(state: GameState, card: str) -> Pose:
    sc = scene(state)
    return after(sc, sc.deck.card(card))


# --- decks and terms --------------------------------------------------------------------


def test_current_and_reserve_decks() -> None:
    """001: "Put all long straight, long sideslip, standing still, and 60° curve maneuver
    cards in one deck (the current deck) ... Put all the remaining cards in the other deck
    (the reserve deck)". The tags in the deck files and the derivation from geometry
    agree on every shipped deck."""
    deck = CATALOG.tripod_decks["T1"]
    assert [c.id for c in deck.cards if solo_deck(c, deck) == "current"] == CURRENT
    assert [c.id for c in deck.cards if solo_deck(c, deck) == "reserve"] == RESERVE
    for d in CATALOG.tripod_decks.values():
        for card in d.cards:
            untagged = card.model_copy(update={"solo": None})
            assert solo_deck(untagged, d) == card.solo, (d.deck, card.id)


def test_energy_statuses() -> None:
    """001: "Operative, when the tripod has 1 or more energy counters. Powerless, if it is
    at 0 energy." / "Full, when it has the maximum amount of energy possible. Cruising, if it
    has more energy than its recharge level, but not the maximum. In Emergency, if it has at
    least 1 energy counter, but no more than its recharge level." (Locust: 4, recharge 2)."""
    assert energy_status(4, 4, 2) == "full"
    assert energy_status(3, 4, 2) == "cruising"
    assert energy_status(2, 4, 2) == "emergency"
    assert energy_status(1, 4, 2) == "emergency"
    assert energy_status(0, 4, 2) == "powerless"
    assert energy_status(3, 3, 2) == "full"  # batteries damage lowered the rating


def test_facing_the_earthling_side() -> None:
    """001: "A tripod is facing the Earthling side if an imaginary line from the center of
    the rear side of the tripod's base going across the center of its front side reaches
    the Earthling side of the playing area, and if there is not another orientation that
    would make this line shorter.\""""
    assert facing_earth(scene(table(tripod(45, 60, 270))))
    # heading 210 from the middle: the line leaves by the west side first
    assert not facing_earth(scene(table(tripod(45, 60, 210))))
    # heading 90: away from the Earthling side
    assert not facing_earth(scene(table(tripod(45, 60, 90))))


def test_facing_tolerance_of_half_a_ruler() -> None:
    """001: "If the line reaches the Earthling side, do not consider other facings that
    would allow shorter lines if the difference in length is half an airplane ruler or
    less." At (10, 12) heading 330 the line is 24 cm against 12 straight down (12 cm
    longer: facing); at (10, 20) it is 40 against 20 (20 cm longer: not facing)."""
    assert facing_earth(scene(table(tripod(10, 12, 330))))
    assert not facing_earth(scene(table(tripod(10, 20, 330))))


def test_enemies_nearby_within_a_ruler_and_a_half() -> None:
    """001: "Enemies nearby, if there are airplanes within a distance of one airplane ruler
    and a half from the tripod in any direction." / "First, add any maneuvers in the reserve
    deck to the current deck, with the exception of the running and reverse cards." An
    airplane 44 cm from the base (base to base) is nearby; one 46 cm away is not."""
    # tripod heading 270: its flat rear side is 4.33 cm above the centre; the SPAD heading
    # east is 3 cm deep across
    near = decide(table(tripod(45, 30, 270), plane("p", 45, 30 + 4.33 + 3 + 44, 0)))
    assert "enemies-reserve" in near.branches
    assert {"2", "3", "4"} <= set(near.bot.decks["t"].current) | set(near.bot.decks["t"].discard)
    assert {"9", "10", "13"} <= set(near.bot.decks["t"].reserve)
    far = decide(table(tripod(45, 30, 270), plane("p", 45, 30 + 4.33 + 3 + 46, 0)))
    assert "enemies-reserve" not in far.branches
    assert set(far.bot.decks["t"].reserve) == set(RESERVE)


# --- no enemies nearby: full or cruising ---------------------------------------------------


def test_cruising_on_an_objective_recharges() -> None:
    """001: "1) A cruising tripod that is overlapping an unused objective template and that
    is at least 2 energy points below its maximum stands still and recharges." (A Scarab:
    Energy 6, recharge level 3; at 4 it is cruising, 2 below its maximum.)"""
    state = table(
        tripod(45, 45, 270, kind="mk2-scarab", energy=4), objectives=(objective("o1", 45, 45),)
    )
    out = decide(state)
    assert out.branch == "no-enemies-1"
    assert CATALOG.tripod_decks["T2"].card(out.card or "").symbol is TripodSymbol.STAND
    assert out.action == Action(token="recharge", objective="o1")
    # one point below its maximum: it does not stop there
    state = table(
        tripod(45, 45, 270, kind="mk2-scarab", energy=5), objectives=(objective("o1", 45, 45),)
    )
    assert decide(state).branch != "no-enemies-1"


def test_not_facing_the_earthling_side_changes_facing() -> None:
    """001: "2) A full or cruising tripod that is not facing the Earthling side of the
    table, changes facing on the spot to face towards the Earthling side." At (10, 20)
    heading 330 one side to the right (270) faces it."""
    out = decide(table(tripod(10, 20, 330)))
    assert out.branch == "no-enemies-2"
    assert out.card in ("11", "12")
    assert out.action == Action(token="change_facing", sides=-1)


def test_facing_the_earthling_side_moves_by_drawing() -> None:
    """001: "3) A full or cruising tripod facing the Earthling side moves. To move the
    tripod, draw and apply the first card from the current deck." The used card goes to
    the discard pile."""
    out = decide(table(tripod(45, 60, 270)), current=["1", "6", "5"])
    assert (out.branch, out.card, out.action) == ("no-enemies-3", "5", None)
    assert out.bot.decks["t"].discard == ["5"]


def test_cruising_tripod_drawing_a_standing_card_recharges() -> None:
    """001: "If a cruising tripod drew a standing maneuver, the tripod stands still and
    recharges.\""""
    out = decide(table(tripod(45, 60, 270, energy=3)), current=["1", "11"])
    assert (out.branch, out.card) == ("draw-cruising-standing", "11")
    assert out.action == Action(token="recharge")


def test_full_tripod_redraws_a_standing_card() -> None:
    """001: "If a full tripod drew a standing maneuver, draw another card.\""""
    out = decide(table(tripod(45, 60, 270)), current=["1", "11"])
    assert out.branches == ["draw-full-standing", "no-enemies-3"]
    assert out.card == "1"
    assert "11" in out.bot.decks["t"].current  # put aside, then back in the deck


def test_third_maneuver_in_a_row_is_the_running_card() -> None:
    """001: "If the moving tripod has drawn three maneuvers in a row, replace the third
    maneuver with the running card from the reserve." (T1's running card without the
    Energy icon is 9.)"""
    out = decide(table(tripod(45, 60, 270)), phase=3, current=["5", "1"], played=(MOVE, MOVE))
    assert (out.branch, out.card) == ("draw-third-running", "9")
    decks = out.bot.decks["t"]
    assert "1" in decks.current and "9" in decks.discard and "9" not in decks.reserve


def test_redraw_when_the_card_would_leave_the_table() -> None:
    """001: "If the drawn card would bring the tripod outside the playing area, draw
    another card from the current deck to replace the first (draw again if the condition
    persists)." At x = 3 the right turn (6) would take its centre off the west side."""
    out = decide(table(tripod(3, 45, 270)), current=["1", "8", "6"])
    assert out.branches == ["draw-off-table", "draw-off-table", "no-enemies-3"]
    assert out.card == "1"


def test_leaving_across_the_earthling_side_is_redrawn_too() -> None:
    """001: "If the drawn card would bring the tripod outside the playing area, draw
    another card from the current deck to replace the first (draw again if the condition
    persists)." -- across the Earthling side too: the straight (1) is drawn again and the
    cruising tripod draws the standing card (rulings A8)."""
    out = decide(table(tripod(45, 12, 270, energy=3)), current=["11", "1"])
    assert out.branches == ["draw-off-table", "draw-cruising-standing"]
    assert out.card == "11"


def test_when_every_card_leaves_it_walks_off_the_earthling_side() -> None:
    """Rulings A8: when the condition persists to the last card and a card leaves across
    the Earthling side, the tripod plays it (001: "He loses if the tripod exits the
    playing area from the Earthling side")."""
    out = decide(table(tripod(45, 5, 270)), current=["5", "1"])
    assert out.branch == "draw-exit-earth" and out.card == "1"


def test_engine_damage_and_a_destroyed_reverse_are_never_drawn() -> None:
    """000: "If the target is a tripod, it can never plan three movement maneuvers in the
    same turn ... If the tripod takes a second engine damage, it can plan only stationary
    maneuvers" / "The tripod cannot plan the reverse maneuver until the end of the game."
    With two engine hits the drawn movement card is drawn again (rulings A24)."""
    bot = AutomatedTripod()
    bot.decks["t"] = Decks(current=["11", "1"], reserve=list(RESERVE))
    state = table(tripod(45, 60, 270, energy=3))
    state.vehicles["t"].status["engine"] = 2
    out = decide(state, bot=bot)
    assert out.branches[0] == "draw-damaged" and out.card == "11"
    broken = dataclasses.replace(scene(state), reverse_destroyed=True)
    reverse = CATALOG.tripod_decks["T1"].card("13")
    assert not out.bot._playable(broken, bot.decks["t"], reverse)


def test_no_steep_maneuver_after_a_steep_one() -> None:
    """001: "If a steep maneuver is used and another one is drawn in the following phase,
    replace the newly drawn maneuver by drawing another card." (The shipped tripod decks
    have no steep cards: this bot is told 5 and 6 are.)"""
    bot = AutomatedTripod(steep={"5", "6"})
    bot.decks["t"] = Decks(current=["1", "5"], reserve=list(RESERVE), last_steep=True)
    out = decide(table(tripod(45, 60, 270)), bot=bot)
    assert out.branches == ["draw-steep", "no-enemies-3"]
    assert out.card == "1"


# --- no enemies nearby: in emergency -------------------------------------------------------


def test_emergency_near_the_earthling_side_acts_as_cruising() -> None:
    """001: "1) If the Earthling side of the gaming area is within a distance of one
    airplane ruler, treat the tripod as if it was full or cruising (see above)".\""""
    out = decide(table(tripod(45, 25, 270, energy=2)), current=["1"])
    assert (out.branch, out.card) == ("emergency-1", "1")


def test_emergency_third_maneuver_is_a_standing_card_and_recharges() -> None:
    """001: "... with the exception that if the tripod has drawn three maneuvers in a row
    the third one is replaced by a standing maneuver and the tripod recharges instead.\""""
    out = decide(table(tripod(45, 25, 270, energy=2)), phase=3, current=["1"], played=(MOVE, MOVE))
    assert out.branch == "emergency-third"
    assert out.card in ("11", "12")
    assert out.action == Action(token="recharge")


def test_emergency_objective_reachable_with_one_maneuver() -> None:
    """001: "2) If there are one or more airplanes within a distance of two and a half
    airplane rulers, ... move or change facing towards the best available objective" /
    "a) The objective template can be reached with one maneuver". The airplane is 58 cm
    away; the objective lies one step ahead."""
    state = table(
        tripod(45, 70, 270, energy=2),
        plane("p", 45, 5, 90),
        objectives=(objective("o1", 45, 70 - 12.66),),
    )
    out = decide(state)
    assert out.branch == "emergency-2a"
    assert on_objective(scene(state), moved(state, out.card or "")) == "o1"


def test_emergency_objective_after_a_change_of_facing() -> None:
    """001: "a) ... or with one maneuver after changing facing or with a reverse (if
    changing facing or a reverse is needed, the tripod changes facing/plays the reverse
    this phase, and the eventual maneuver required after the facing change/reverse in the
    next phase)". The objective is one step to the east of a tripod facing south."""
    state = table(
        tripod(45, 70, 270, energy=2),
        plane("p", 45, 5, 90),
        objectives=(objective("o1", 45 + 12.66 * 0.866, 70 + 12.66 * 0.5),),
    )
    out = decide(state)
    assert out.branch == "emergency-2a"
    assert out.action is not None and out.action.token == "change_facing"
    # next phase, one card of the current deck takes it onto the objective
    sides = out.action.sides or 0
    turned = table(
        tripod(45, 70, 270 + 60 * sides, energy=2),
        objectives=(objective("o1", 45 + 12.66 * 0.866, 70 + 12.66 * 0.5),),
    )
    assert any(on_objective(scene(turned), moved(turned, c)) == "o1" for c in CURRENT)


def test_emergency_objective_after_a_reverse() -> None:
    """001: "a) ... or with a reverse (if changing facing or a reverse is needed, the tripod
    changes facing/plays the reverse this phase, and the eventual maneuver required after
    the facing change/reverse in the next phase)". The objective lies behind the tripod:
    the reverse card now, a card played backwards next phase."""
    spot = (objective("o1", 45, 88),)
    state = table(tripod(45, 70, 270, energy=2), plane("p", 45, 5, 90), objectives=spot)
    out = decide(state)
    assert (out.branch, out.card) == ("emergency-2a", "13")
    assert "13" in out.bot.decks["t"].discard
    backwards = table(tripod(45, 70, 270, energy=2, reverse=True), objectives=spot)
    assert any(on_objective(scene(backwards), moved(backwards, c)) == "o1" for c in CURRENT)


def test_emergency_objective_within_a_ruler_and_a_half() -> None:
    """001: "b) The objective template within a distance of one airplane ruler and a half
    from the tripod that is closest to the Earthling side of the playing area". Two
    objectives 40 cm away, neither reachable this phase: the southern one; not facing it,
    the tripod turns towards it."""
    state = table(
        tripod(45, 70, 270, energy=2),
        plane("p", 45, 5, 90),
        objectives=(objective("east", 85, 70), objective("west", 5, 66)),
    )
    out = decide(state)
    assert out.branch == "emergency-2b"
    assert out.decisions[-1].note == "objective west"
    assert out.action == Action(token="change_facing", sides=-1)  # 270 -> 210


def test_emergency_objective_nearer_the_earthling_side() -> None:
    """001: "c) The objective template closest to the tripod among all those that are
    closer than the tripod to the Earthling side of the playing area". Two objectives
    beyond a ruler and a half: the one behind is ignored, the tripod turns towards the
    one nearer the Earthling side."""
    state = table(
        tripod(45, 60, 270, energy=2),
        plane("p", 45, 5, 90),
        objectives=(objective("behind", 2, 88), objective("ahead", 10, 20)),
    )
    out = decide(state)
    assert out.branch == "emergency-2c"
    assert out.decisions[-1].note == "objective ahead"
    assert out.action == Action(token="change_facing", sides=-1)


def test_emergency_without_airplanes_moves_towards_the_earthling_side() -> None:
    """001: "If none of the above applies, the tripod moves toward the Earthling side of the
    playing area.\""""
    out = decide(table(tripod(45, 70, 270, energy=2)), current=["6"])
    assert (out.branch, out.card) == ("emergency-3", "6")
    out = decide(table(tripod(45, 70, 90, energy=2)))
    assert out.branch == "emergency-3"
    assert out.action is not None and out.action.token == "change_facing"


# --- enemies nearby ------------------------------------------------------------------------


def test_heat_ray_ready_maneuvers_to_acquire_a_target() -> None:
    """001: "a) Maneuver to acquire a target: Take a maneuver card from the current deck
    (standing maneuvers included) that allows the tripod to acquire its best target" and
    its example: "Only the left turn allows the ruler to touch the target, so the maneuver
    for this step is chosen.\""""
    state = table(tripod(45, 45, 90), plane("p", 30, 79, 150))
    out = decide(state)
    assert (out.branch, out.card) == ("ready-a", "5")
    assert out.action is not None and out.action.token == "heat_ray"
    # the ruler on that projector touches the red part of the S template after the move
    sc = scene(state)
    spec = CATALOG.constants.tripods.templates.S
    nose = sc.planes[0].pose.moved(2.25, 0.0, 0.0)
    red = (
        nose.to_world(spec.offset, -spec.width / 2),
        nose.to_world(spec.offset + spec.length, -spec.width / 2),
        nose.to_world(spec.offset + spec.length, spec.width / 2),
        nose.to_world(spec.offset, spec.width / 2),
    )
    ruler = RulerSpec(25.0, 12.5, 3.0, 30.0)
    side = Side.parse(out.action.projector or "front")
    assert best_shot(moved(state, "5"), 5.0, side, ruler, red) is not None


def test_heat_ray_ready_changes_facing_to_aim_with_a_straight_ruler() -> None:
    """001: "b) Change facing to aim: If no maneuver allows the tripod to acquire a target,
    the tripod stands still changes facing until the red part of the automated tripod
    template is touched by the tripod ruler placed on its frontal heat-ray ... Among the
    available options, choose the facing that would allow firing with the ruler in a
    straight position". Both standing cards are used; one side to the left the straight
    ruler touches the template, two sides only the tilted one."""
    state = table(tripod(45, 45, 90), plane("p", 32, 41, 60))
    for seed in range(5):
        out = decide(state, seed=seed, current=["1", "5", "6", "7", "8"])
        assert out.branch == "ready-b"
        assert out.action == Action(token="change_facing", sides=1)


def test_heat_ray_cooling_stands_still_and_recharges() -> None:
    """001: "a) Stand still and recharge: If any red part of the automated tripod template
    is touched by the tripod ruler placed on one of the tripod's heat-rays and the tripod is
    2 or more energy points below its maximum, the tripod stands still and recharges.\""""
    state = table(tripod(45, 45, 90, cooling=1, energy=2), plane("p", 45, 75, 270))
    out = decide(state)
    assert out.branch == "cooling-a"
    assert out.card in ("11", "12") and out.action == Action(token="recharge")


def test_heat_ray_cooling_maneuvers_to_aim() -> None:
    """001: "b) Maneuver to aim: If none of the above applies and there are movement
    maneuvers that allow the tripod ruler, placed in front of an heat-ray, to touch the red
    part of the automated tripod template, randomly draw and execute one maneuver from among
    them." Full, it does not stop to recharge: it moves."""
    state = table(tripod(45, 45, 90, cooling=1), plane("p", 45, 88, 270))
    out = decide(state)
    assert out.branch == "cooling-b"
    assert CATALOG.tripod_decks["T1"].card(out.card or "").moves


def test_heat_ray_cooling_changes_facing_to_aim() -> None:
    """001: "c) Change facing to aim: If no movement maneuver allows the tripod to aim at an
    airplane, the tripod stands still and changes facing until the red part of an automated
    tripod template is touched by the tripod ruler placed on its frontal heat-ray." The
    airplane is behind, to the left."""
    state = table(tripod(45, 45, 90, cooling=1), plane("p", 9, 25, 330))
    out = decide(state)
    assert out.branch == "cooling-c"
    assert out.action == Action(token="change_facing", sides=2)


def test_nothing_to_aim_at_acts_as_with_no_enemies_keeping_the_reserve() -> None:
    """001: "If none of the above applies, choose the tripod's behavior as if there were no
    enemies nearby, but keep the maneuvers you added from the reserve deck in the current
    deck.\""""
    state = table(tripod(45, 45, 90), plane("p", 5, 13, 0))
    out = decide(state)
    assert "enemies-fallback" in out.branches
    assert out.branch == "no-enemies-2"  # full, not facing the Earthling side
    assert {"2", "3", "4"} <= set(out.bot.decks["t"].current)


# --- powerless -----------------------------------------------------------------------------


def test_powerless_on_an_objective_stands_and_recharges() -> None:
    """001: "1) If the tripod is overlapping an unused objective template ... the tripod
    stands still and recharges.\""""
    state = table(tripod(45, 45, 270, energy=0), objectives=(objective("o1", 46, 45),))
    out = decide(state)
    assert out.branch == "powerless-1"
    assert out.action == Action(token="recharge", objective="o1")


def test_powerless_with_no_objective_in_reach_stands_and_recharges() -> None:
    """001: "1) ... or if none can be reached with one maneuver card, the tripod stands
    still and recharges.\""""
    state = table(tripod(45, 45, 270, energy=0), objectives=(objective("o1", 45, 85),))
    out = decide(state)
    assert out.branch == "powerless-1"
    assert out.action == Action(token="recharge")


def test_powerless_moves_onto_an_objective() -> None:
    """001: "2) If there are no enemies nearby and the tripod is not on an unused objective
    template, but one can be reached with one maneuver card from either the current deck or
    the reserve deck, move the tripod using the maneuver that brings it onto the objective
    template". Never an Energy card (000: it would topple)."""
    state = table(tripod(45, 45, 270, energy=0), objectives=(objective("o1", 45, 31),))
    for seed in range(6):
        out = decide(state, seed=seed)
        assert out.branch == "powerless-2"
        assert out.card != "10"
        assert on_objective(scene(state), moved(state, out.card or "")) == "o1"


def test_powerless_with_enemies_flips_a_coin_with_a_standing_card() -> None:
    """001: "3) If there are enemies nearby and the tripod is not on an unused objective
    template, but one can be reached ..., choose a maneuver as above, shuffle its card with
    a standing card, then draw one of the two at random and apply it.\""""
    state = table(
        tripod(45, 45, 270, energy=0),
        plane("p", 45, 75, 0),
        objectives=(objective("o1", 45, 31),),
    )
    seen = set()
    for seed in range(12):
        out = decide(state, seed=seed)
        assert out.branch == "powerless-3"
        symbol = CATALOG.tripod_decks["T1"].card(out.card or "").symbol
        if symbol is TripodSymbol.STAND:
            assert out.action == Action(token="recharge")
        else:
            assert on_objective(scene(state), moved(state, out.card or "")) == "o1"
        seen.add(symbol is TripodSymbol.STAND)
    assert seen == {True, False}


# --- firing --------------------------------------------------------------------------------


def fire(state: GameState, out: Outcome, after_move: GameState | None = None) -> Outcome:
    bot = out.bot
    post = after_move or state
    final = bot.fire_actions(observe(post, SEAT), post.rules, SEAT, 1, rng(1))
    return Outcome(bot, out.card, final.get("t"), list(bot.last_decisions))


def test_fires_at_an_acquired_target_after_movement() -> None:
    """001: "After all vehicles have moved, the tripod fires if it has at least 1 energy
    counter, the heat-ray projector is not cooling, and the tripod has acquired a target."
    The tripod stood still (its only card); the airplane is in front of it."""
    state = table(tripod(45, 45, 90), plane("p", 45, 70, 270))
    out = fire(state, decide(state, current=["11"]))
    assert out.branch == "firing-fire"
    assert out.action == Action(token="heat_ray", projector="front", target="p")


def test_best_target_closest_range_then_most_damage_cards() -> None:
    """001: "If more than one target is available, the tripod chooses its best target as
    follows, in order of priority ...: 1) The target at closest range; 2) The target that
    can be hit by the most powerful heat-ray; 3) The target that has already drawn more
    damage cards." (One tripod's projectors share one ray: rulings A17.)"""
    # both at long range; q has drawn more damage cards
    state = table(tripod(45, 45, 90), plane("p", 45, 70, 270), plane("q", 68, 60, 210))
    out = decide(state, current=["11"])
    out.bot.cards_drawn.update({"q": 3})
    assert fire(state, out).action == Action(token="heat_ray", projector="front-right", target="q")
    # p at short range beats q at long range, whatever q has drawn
    state = table(tripod(45, 45, 90), plane("p", 45, 60, 270), plane("q", 68, 60, 210))
    out = decide(state, current=["11"])
    out.bot.cards_drawn.update({"q": 5})
    assert fire(state, out).action == Action(token="heat_ray", projector="front", target="p")


def test_cooling_tripod_does_not_fire_and_recharges_standing_still() -> None:
    """001: "the tripod fires if ... the heat-ray projector is not cooling" / "If the tripod
    stands still and does not fire for any reason, it recharges.\""""
    state = table(tripod(45, 45, 90, cooling=1, energy=2), plane("p", 45, 80, 270))
    out = fire(state, decide(state))
    assert out.branch == "firing-recharge"
    assert out.action == Action(token="recharge")


def test_moving_tripod_without_a_target_does_not_fire() -> None:
    """001: "the tripod fires if it has at least 1 energy counter, the heat-ray projector
    is not cooling, and the tripod has acquired a target": after moving, nothing is in
    reach (the airplane flew away)."""
    state = table(tripod(45, 45, 90), plane("p", 30, 79, 150))
    out = decide(state)
    away = table(tripod(45, 45, 90), plane("p", 80, 85, 0))
    out = fire(state, out, after_move=table(tripod(*_pose_of(moved(state, "5"))), *_planes(away)))
    assert out.branch == "firing-none"
    assert out.action is None


def _pose_of(pose: Pose) -> tuple[float, float, float]:
    return (pose.x, pose.y, pose.heading)


def _planes(state: GameState) -> list[Json]:
    return [
        plane(v.id, v.pose.x, v.pose.y, v.pose.heading, v.type)
        for v in state.vehicles.values()
        if v.tripod is None
    ]


def test_standing_without_firing_recharges() -> None:
    """001: "If the tripod stands still and does not fire for any reason, it recharges."
    It stood still to acquire a target that then flew away."""
    state = table(tripod(45, 45, 90), plane("p", 45, 70, 270))
    out = decide(state, current=["11"])
    gone = table(tripod(45, 45, 90), plane("p", 85, 85, 0))
    out = fire(state, out, after_move=gone)
    assert out.branch == "firing-recharge"
    assert out.action == Action(token="recharge")


# --- rockets -------------------------------------------------------------------------------

LAUNCHER = plane("L", 45, 15, 60, "nieuport-17", rockets=2)
EVASIVE = {"3", "5", "7"}
"""T1's cards that take the tripod out of the Nieuport's arc after a stall, and off its
card (found by trying each card)."""


def launched(
    *vehicles: Json,
    phase: int = 1,
    seed: int = 0,
    objectives: tuple[Json, ...] = (),
    energy: int | None = None,
) -> Outcome:
    """Two movement steps: before, the Nieuport has 2 rockets; now it has 1 (it launched
    in the previous phase: 000: "The target is hit after the following maneuver")."""
    extra: Json = {} if energy is None else {"energy": energy}
    before = table(tripod(**extra), LAUNCHER, *vehicles, objectives=objectives)
    bot = AutomatedTripod()
    bot.phase_actions(observe(before, SEAT), before.rules, SEAT, 3, rng(99))
    bot.decks["t"] = Decks(current=list(CURRENT), reserve=list(RESERVE))
    now = table(tripod(**extra), dict(LAUNCHER, rockets=1), *vehicles, objectives=objectives)
    return decide(now, phase=phase, seed=seed, bot=bot)


def test_evasive_maneuver_that_allows_firing() -> None:
    """001: "1) If it is the first action phase of a turn and the tripod has at least 1
    energy counter, draw at random from among the evasive maneuvers that allow firing; if
    there aren't any, draw at random from among all evasive maneuvers." / "A tripod
    maneuver is an evasive one if it allows the tripod to avoid both being in the firing
    arc of the airplane card and overlapping it." Of the evasive left turns only 5 lets
    the heat-ray reach the other airplane's template."""
    for seed in range(4):
        out = launched(plane("B", 10, 50, 270), seed=seed)
        assert (out.branch, out.card) == ("evasive-1", "5")
        assert out.action is not None and out.action.token == "heat_ray"
    for seed in range(6):
        out = launched(seed=seed)
        assert out.branch == "evasive-1" and out.card in EVASIVE


def test_evasive_maneuver_of_a_powerless_tripod_onto_an_objective() -> None:
    """001: "2) If it is the first action phase of a turn and the tripod is powerless, draw
    at random from among the evasive maneuvers that move the tripod over an unused
    objective template; if there aren't any, draw at random among all evasive maneuvers.\""""
    target = moved(table(tripod()), "7")
    spot = (objective("o1", target.x, target.y),)
    board = table(tripod(), objectives=spot)
    for seed in range(4):
        out = launched(energy=0, seed=seed, objectives=spot)
        assert out.branch == "evasive-2" and out.card in EVASIVE
        assert on_objective(scene(board), moved(board, out.card or "")) == "o1"


def test_evasion_after_the_first_phase_mixes_running_and_reverse() -> None:
    """001: "3) If it is not the first action phase of a turn, mix the running card and the
    reverse card and choose one at random. If the running card is drawn, follow the
    procedure for case 2 above. If the reverse card is drawn, follow the usual procedure, as
    if rockets were not shot in the previous phase.\""""
    outcomes = set()
    for seed in range(12):
        out = launched(phase=2, seed=seed)
        if out.branch == "evasive-3":
            assert out.card in EVASIVE
            outcomes.add("running")
        else:
            assert any(d.branch == "evasive-3" and "reverse" in d.note for d in out.decisions)
            outcomes.add("reverse")
    assert outcomes == {"running", "reverse"}


def test_several_volleys_evade_the_most() -> None:
    """001: "4) If rockets are coming from several airplanes, choose the maneuver that
    allows evasion of all of them. If this is not possible, draw at random from among those
    maneuvers that will avoid the highest number of rocket volleys." A second Nieuport
    launched too: only the gentle left turn (3) evades both."""
    second = plane("M", 20, 65, 300, "nieuport-17", rockets=2)
    before = table(tripod(), LAUNCHER, second)
    for seed in range(4):
        bot = AutomatedTripod()
        bot.phase_actions(observe(before, SEAT), before.rules, SEAT, 3, rng(99))
        bot.decks["t"] = Decks(current=list(CURRENT), reserve=list(RESERVE))
        now = table(tripod(), dict(LAUNCHER, rockets=1), dict(second, rockets=1))
        out = decide(now, seed=seed, bot=bot)
        assert "evasive-4" in out.branches
        assert (out.branch, out.card) == ("evasive-1", "3")


def test_no_evasive_maneuver_follows_the_usual_rules() -> None:
    """001: "If there aren't any maneuvers that allow the tripod to evade the rockets, the
    tripod behaves following the previously described movement rules." Nothing launched:
    the usual procedure."""
    out = decide(table(tripod(), LAUNCHER))
    assert not any(b.startswith("evasive") for b in out.branches)


# --- toppled, the log, determinism, hidden information ---------------------------------------


def test_toppled_tripod_plays_no_card() -> None:
    """000: "When a tripod topples, discard all cards planned for it": lying down, the
    automated tripod draws nothing."""
    out = decide(table(tripod(toppled=2)))
    assert (out.branch, out.card, out.action) == ("toppled", None, None)


def test_decisions_reach_the_log_as_events() -> None:
    """Every decision becomes a public ``tripod_decision`` event quoting its rule, put right
    after the phase's ``phase_started`` event, and reads as a sentence."""
    out = decide(table(tripod(45, 60, 270)), current=["1", "11"])
    events = decision_events(out.decisions)
    assert all(isinstance(e, TripodDecision) and e.rule.startswith("001") for e in events)
    assert events[-1].card == "1" and events[-1].branch == "no-enemies-3"
    merged = with_decisions([PhaseStarted(1, 1)], out.decisions)
    assert merged[0] == PhaseStarted(1, 1) and merged[1:] == events
    assert describe(events[-1]) == "t (automated tripod, no-enemies-3): card 1."
    assert events[-1].to_json()["kind"] == "tripod_decision"


def test_registered_as_a_bot() -> None:
    bot = make("automated-tripod")
    state = table(tripod(45, 60, 270))
    plans = bot.plan_turn(observe(state, SEAT), state.rules, SEAT, rng())
    assert plans["t"].automated and plans["t"].cards == ()


def test_same_seed_same_game() -> None:
    """The decks live in the bot and every draw comes from the generator it is given: a
    seeded solo game replays exactly."""
    a = play_solo(CATALOG, "down-from-the-alps", 5, max_turns=6)
    b = play_solo(CATALOG, "down-from-the-alps", 5, max_turns=6)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert a.decisions == b.decisions
    assert any(isinstance(e, TripodDecision) for e in a.events)


def test_decides_from_its_observation_only() -> None:
    """The bot sees the seat's observation: the airplanes' damage totals are secret, so
    tables that differ only by them give the same decisions, draw for draw."""
    runs = []
    for damage in (0, 9):
        state = table(tripod(45, 45, 90), plane("p", 30, 79, 150, damage=damage))
        out = decide(state, seed=3)
        fired = fire(state, out)
        runs.append((out.card, out.action, fired.action, [d.branch for d in fired.decisions]))
        assert "damage" not in observe(state, SEAT)["vehicles"][1]
    assert runs[0] == runs[1]


@pytest.mark.parametrize("scenario", ["a-lonely-invader", "down-from-the-alps"])
def test_solo_games_never_topple_or_waste_the_tripods_tokens(scenario: str) -> None:
    """The automated tripod's choices are always legal: never a third normal movement
    card (000: it would topple), never a green token off a standing card."""
    for seed in range(6):
        game = play_solo(CATALOG, scenario, seed, max_turns=12)
        kinds = {(e.kind, getattr(e, "vehicle", None)) for e in game.events}
        assert ("illegal_maneuver", "locust") not in kinds
        wasted = [e for e in game.events if e.kind == "action_wasted"]
        assert all("green token" not in getattr(e, "reason", "") for e in wasted)


def test_objective_geometry_matches_the_engine() -> None:
    """The bot's "overlapping an objective" is the engine's (000: "If the tripod base
    overlaps an Objective token").\""""
    state = table(tripod(45, 45, 270), objectives=(objective("o1", 45, 51.5),))
    base = hexagon(Pose(45, 45, 270), 5.0)
    inside = nearest_point(base, (45, 51.5))[0] < 2.5
    assert (on_objective(scene(state), Pose(45, 45, 270)) == "o1") is inside

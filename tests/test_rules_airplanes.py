"""Airplane rules, part 1: planning, maneuver restrictions, illegal maneuvers, movement,
leaving the area and the end-of-turn reminders.

Each test quotes the rule it checks. Source ids: 000 Tripods & Triplanes rulebook (ruleset
``wog``), 002 Wings of War reference manual (``wow``), 003 Wings of War basic rules in
Chinese (``wow-basic``).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import (
    HOLD,
    Json,
    card_id,
    deck_of,
    kinds,
    of,
    phases_of,
    plain,
    plan,
    plane,
    run,
    situation,
    state_of,
    straight,
    straights,
)

from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import Symbol
from dogfight.errors import DataError, IllegalPlanError, UnknownCardError
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose
from dogfight.rules.engine import start_turn
from dogfight.rules.events import (
    DamageDrawn,
    Eliminated,
    Fired,
    GameOver,
    IllegalManeuver,
    LeftArea,
    Moved,
    Reminder,
    Revealed,
)
from dogfight.rules.plans import Plan

SPAD = "spad-xiii"  # deck A, fires A, resistance 16
DECK = deck_of(SPAD)
STEEP = card_id(DECK, Symbol.STEEP)
STEEP_2 = card_id(DECK, Symbol.STEEP, 1)
STALL = card_id(DECK, Symbol.STALL)
IMMELMANN = card_id(DECK, Symbol.IMMELMANN)
LEFT = card_id(DECK, Symbol.LEFT)
S1, S2, S3 = straights(DECK)[:3]


def flyer(
    *plans: Json, ruleset: str = "wog", previous: dict[str, Any] | None = None, **kw: Any
) -> Json:
    """Airplane "a" in the middle of the table flying ``plans`` (holding fire), and a
    harmless enemy "b" in a corner."""
    extra: dict[str, Any] = {} if previous is None else {"previous": previous}
    return situation(
        plane("a", SPAD, "allies", 45, 30, 90, plans=list(plans), **extra),
        plane("b", SPAD, "central", 5, 85, 0, fire=HOLD, turns=len(plans)),
        ruleset=ruleset,
        **kw,
    )


def held(*cards: str) -> Json:
    return plan(*cards, fire=HOLD)


def illegal(events: list[Any]) -> list[tuple[int, int, IllegalManeuver]]:
    return [(t, p, e) for t, p, e in phases_of(events, IllegalManeuver) if e.vehicle == "a"]


# --- planning ------------------------------------------------------------------------------


def test_three_cards_planned_and_flown_in_order() -> None:
    """000 PLANNING: "players choose three cards from their maneuver decks. ... The card in
    space 1 will be the used first, the card in space 2 will be used second, and the card
    in space 3, third." A plan of another length cannot be laid on the console."""
    _, events = run(flyer(held(S3, LEFT, S1)))
    revealed = [(e.phase, e.card) for e in of(events, Revealed) if e.vehicle == "a"]
    assert revealed == [(1, S3), (2, LEFT), (3, S1)]
    with pytest.raises(DataError, match="exactly 3 maneuver cards"):
        state_of(flyer(held(S1, S2)))
    state = state_of(flyer(held(S1, S2, S3)))
    with pytest.raises(IllegalPlanError, match="exactly 3"):
        start_turn(state, {"a": Plan(cards=(S1, S2, S1, S3)), "b": Plan(cards=(S1, S2, S3))})


def test_card_used_twice_in_a_turn_is_refused() -> None:
    """003: "每张动作牌在同一回合中只可使用一次" (each maneuver card can be used only
    once in the same turn)."""
    state = state_of(flyer(held(S1, S2, S3)))
    with pytest.raises(IllegalPlanError, match="planned twice"):
        start_turn(state, {"a": Plan(cards=(S1, S2, S1)), "b": Plan(cards=(S1, S2, S3))})
    with pytest.raises(DataError, match="planned twice"):
        state_of(flyer(held(S2, S2, S3)))


def test_unknown_card_id_is_refused_listing_valid_ids(catalog: Catalog) -> None:
    """003: "玩家只可从对应的动作牌中,选择要执行的飞行动作" (a player may only choose the
    maneuvers to fly from the corresponding maneuver deck). 000: "For each vehicle, take
    the maneuver deck matching the blue letter on the base." The error lists valid ids,
    and only those (issue 29 item 10: ""valid ids" lists only ids that are valid"): the
    climb and dive cards are not in play without the altitude cards."""
    valid = [
        c.id for c in catalog.maneuver_decks[DECK].cards if c.symbol.value not in ("climb", "dive")
    ]
    assert len(valid) < len(catalog.maneuver_decks[DECK].cards)
    state = state_of(flyer(held(S1, S2, S3)))
    with pytest.raises(UnknownCardError) as info:
        start_turn(state, {"a": Plan(cards=(S1, "99", S3)), "b": Plan(cards=(S1, S2, S3))})
    assert info.value.card == "99"
    assert info.value.valid == valid
    assert "valid ids: " + ", ".join(valid) in str(info.value)
    with pytest.raises(DataError, match="valid ids"):
        state_of(flyer(held(S1, "99", S3)))


@pytest.mark.parametrize("ruleset", ["wog", "wow", "wow-basic"])
@pytest.mark.parametrize("symbol", [Symbol.CLIMB, Symbol.DIVE])
def test_climb_and_dive_cards_not_in_play_under_basic_rules(ruleset: str, symbol: Symbol) -> None:
    """000 SETUP: "For planes, do not take the climb and dive cards (the ones with the red
    arrows, with the two highest numbers in a maneuver deck), unless you want to play with
    Advanced Rules included in the Rules & Accessories Pack." """
    card = card_id(DECK, symbol)
    with pytest.raises(DataError, match="not in play"):
        state_of(flyer(held(S1, card, S3), ruleset=ruleset))
    state = state_of(flyer(held(S1, S2, S3), ruleset=ruleset))
    with pytest.raises(IllegalPlanError, match="not in play"):
        start_turn(state, {"a": Plan(cards=(S1, card, S3)), "b": Plan(cards=(S1, S2, S3))})
    # with the advanced rules' switch the cards are in the deck
    _, events = run(flyer(held(S1, card, S3), switches={"altitude_cards": True}))
    assert [e.card for e in of(events, Moved) if e.vehicle == "a"] == [S1, card, S3]


# --- steep maneuvers -------------------------------------------------------------------------


def test_steep_after_steep_is_illegal_within_a_turn() -> None:
    """000: "It is not allowed to play two steep cards in a row. At least one non-steep
    card must be played before another steep maneuver can be used." """
    _, events = run(flyer(held(STEEP, STEEP_2, S1)))
    found = illegal(events)
    assert [(p, e.card, e.rule) for _, p, e in found] == [(2, STEEP_2, "steep_after_steep")]
    _, events = run(flyer(held(STEEP, S1, STEEP_2)))
    assert illegal(events) == []


def test_stall_is_a_steep_maneuver() -> None:
    """000: "A steep maneuver with a short arrow is called a stall." So a stall right after
    a steep card (or a steep card right after a stall) breaks "It is not allowed to play
    two steep cards in a row." """
    _, events = run(flyer(held(STEEP, STALL, S1)))
    assert [(p, e.card) for _, p, e in illegal(events)] == [(2, STALL)]
    _, events = run(flyer(held(S1, STALL, STEEP)))
    assert [(p, e.card) for _, p, e in illegal(events)] == [(3, STEEP)]


def test_steep_after_steep_is_illegal_across_turns() -> None:
    """000: "If the last card of the previous turn was a steep maneuver, you cannot use a
    steep maneuver as the first card of the new turn." (The reminder counter carries it.)"""
    steep = {"symbol": "steep", "steep": True}
    _, events = run(flyer(held(STEEP_2, S1, S2), previous=steep))
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(1, 1, STEEP_2)]
    _, events = run(flyer(held(S1, STEEP, S2), previous=steep))
    assert illegal(events) == []
    # the same carried over by the engine from one turn to the next
    _, events = run(flyer(held(S1, S2, STEEP), held(STEEP_2, S1, S2)), phases=4)
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(2, 1, STEEP_2)]


@pytest.mark.parametrize("symbol", ["steep", "stall"])
def test_previous_steep_or_stall_symbol_is_steep(symbol: str) -> None:
    """000: "If the last card of the previous turn was a steep maneuver, you cannot use a
    steep maneuver as the first card of the new turn." / "A steep maneuver with a short
    arrow is called a stall." A situation saying the last card was a steep or stall card
    says it was a steep maneuver."""
    _, events = run(flyer(held(STEEP_2, S1, S2), previous={"symbol": symbol}))
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(1, 1, STEEP_2)]


def test_illegal_card_replaced_by_straight_counts_as_straight() -> None:
    """000: "he must replace the illegal card with a straight card". The replacement is the
    maneuver flown, so a steep card after it is legal again ("At least one non-steep card
    must be played before another steep maneuver can be used")."""
    _, events = run(flyer(held(STEEP, STEEP_2, STALL)))
    assert [(p, e.card) for _, p, e in illegal(events)] == [(2, STEEP_2)]
    assert [e.card for e in of(events, Moved) if e.vehicle == "a"] == [STEEP, straight(DECK), STALL]


# --- Immelmann turns -----------------------------------------------------------------------


def test_immelmann_needs_a_straight_before() -> None:
    """000: "To play the Immelmann card, a player must plan a straight move (a card with
    the [STRAIGHT] symbol) immediately before performing the Immelmann"."""
    _, events = run(flyer(held(S1, IMMELMANN, S2)))
    assert illegal(events) == []
    _, events = run(flyer(held(LEFT, IMMELMANN, S2)))
    assert [(p, e.card, e.rule) for _, p, e in illegal(events)] == [
        (2, IMMELMANN, "immelmann_without_straight")
    ]


def test_immelmann_first_card_needs_a_straight_ending_the_previous_turn() -> None:
    """003: "若这动作是这回合的第一个动作,则上回合的第三个动作必须是直线飞行" (if the
    Immelmann is the first maneuver of the turn, the third maneuver of the previous turn
    must be a straight). 000: "the player takes a straight maneuver counter to remember
    that he can begin his next turn with an Immelmann turn." """
    _, events = run(flyer(held(IMMELMANN, S1, S2), previous={"symbol": "straight"}))
    assert illegal(events) == []
    _, events = run(flyer(held(IMMELMANN, S1, S2), previous={"symbol": "left"}))
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(1, 1, IMMELMANN)]
    # carried by the engine: turn 1 ends with a straight, turn 2 opens with the Immelmann
    _, events = run(flyer(held(LEFT, S2, S1), held(IMMELMANN, S3, S2)), phases=4)
    assert illegal(events) == []
    _, events = run(flyer(held(S2, S1, LEFT), held(IMMELMANN, S3, S2)), phases=4)
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(2, 1, IMMELMANN)]


def test_immelmann_opening_the_game_is_illegal() -> None:
    """000: "a player must plan a straight move ... immediately before performing the
    Immelmann" and 003: "若这动作是这回合的第一个动作,则上回合的第三个动作必须是直线飞行".
    With no card flown before it (and no straight reminder given), no straight came
    immediately before (ruling R7)."""
    _, events = run(flyer(held(IMMELMANN, S1, S2)))
    assert [(p, e.card) for _, p, e in illegal(events)] == [(1, IMMELMANN)]


def test_card_after_immelmann_must_be_straight() -> None:
    """000: "... and another straight move immediately after the Immelmann." The card after
    an Immelmann that is not a straight is the illegal one."""
    _, events = run(flyer(held(S1, IMMELMANN, LEFT)))
    assert [(p, e.card, e.rule) for _, p, e in illegal(events)] == [(3, LEFT, "after_immelmann")]
    _, events = run(flyer(held(S1, IMMELMANN, S2)))
    assert illegal(events) == []


def test_card_after_immelmann_must_be_straight_across_turns() -> None:
    """000 REMINDERS: "If the third maneuver card for an airplane was an Immelmann turn, the
    player takes an Immelmann counter to remember that he must begin his next turn with a
    straight maneuver." 003: "若这动作是这回合的第三个动作,则下回合的第一个动作必须是直线飞行"."""
    _, events = run(flyer(held(LEFT, S1, S2), previous={"symbol": "immelmann"}))
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(1, 1, LEFT)]
    _, events = run(flyer(held(S1, LEFT, S2), previous={"symbol": "immelmann"}))
    assert illegal(events) == []
    _, events = run(flyer(held(LEFT, S1, IMMELMANN), held(STEEP, S1, S2)), phases=4)
    assert [(t, p, e.card) for t, p, e in illegal(events)] == [(2, 1, STEEP)]


# --- what an illegal maneuver costs --------------------------------------------------------


def _pose_after(start: Pose, deck: str, card: str, catalog: Catalog) -> Pose:
    return apply_card(
        start, catalog.maneuver_decks[deck].card(card), catalog.constants.airplane_base.length
    )


def test_illegal_maneuver_wog_straight_and_one_a_damage_card(catalog: Catalog) -> None:
    """000 ILLEGAL MANEUVERS: "If an illegal maneuver is revealed because an Earthling
    player fails to follow the restrictions described above, he must replace the illegal
    card with a straight card and take an [A] damage card, representing the stress on
    the structure of the airplane." (The SPAD VII fires B: the card still comes from A.)"""
    spad7 = "spad-vii"
    deck = deck_of(spad7)
    a_card = plain("A", 3)
    sit = situation(
        plane(
            "a",
            spad7,
            "allies",
            45,
            30,
            90,
            plans=[held(card_id(deck, "steep"), card_id(deck, "steep", 1), straights(deck)[0])],
        ),
        plane("b", SPAD, "central", 5, 85, 0, fire=HOLD),
        damage_decks={"A": a_card},
    )
    state, events = run(sit, phases=2)
    found = illegal(events)
    assert [(p, e.outcome, e.replaced_by) for _, p, e in found] == [
        (2, "flown as a straight, one damage card", straight(deck))
    ]
    drawn = of(events, DamageDrawn)
    assert [(d.vehicle, d.deck, d.cards, d.points) for d in drawn] == [("a", "A", tuple(a_card), 3)]
    moved = [e for e in of(events, Moved) if e.vehicle == "a"]
    assert moved[1].card == straight(deck)
    assert moved[1].end == _pose_after(moved[1].start, deck, straight(deck), catalog)
    assert state.vehicles["a"].damage == 3
    assert state.vehicles["a"].in_play


def test_illegal_maneuver_wow_out_of_control_counts_as_shot_down() -> None:
    """002 Getting Out of Control: "Playing illegal maneuver (e.g., two steeps in a row,
    invalid Immelmann) → when revealed, plane is eliminated immediately. Counts as shot
    down." Scoring: "+2 per enemy aircraft shot down", "–1 per own aircraft shot down"."""  # noqa: RUF002
    state, events = run(flyer(held(STEEP, STEEP_2, S1), ruleset="wow"))
    assert [(p, e.outcome) for _, p, e in illegal(events)] == [(2, "eliminated")]
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("a", "out_of_control")]
    assert [e.card for e in of(events, Moved) if e.vehicle == "a"] == [STEEP]
    assert not state.vehicles["a"].in_play
    (over,) = of(events, GameOver)
    assert over.winner == "central"
    # 002: "Winning player/team scores" (the loser's -1 is not counted: switch
    # match_scoring, docs/rulings.md R28).
    assert over.scores == {"allies": 0, "central": 2}


def test_illegal_maneuver_wow_basic_flown_as_straight_without_damage(catalog: Catalog) -> None:
    """003: "当玩家编排出一些不可执行的动作时,任何不可执行的动作即作直线飞行论" (when a
    player plans maneuvers that cannot be executed, any such maneuver is flown as a
    straight). (The straight before the first steep: 003's steep rule, R6.)"""
    before = {"symbol": "straight"}
    state, events = run(flyer(held(STEEP, STEEP_2, S1), ruleset="wow-basic", previous=before))
    assert [(p, e.outcome, e.replaced_by) for _, p, e in illegal(events)] == [
        (2, "flown as a straight", straight(DECK))
    ]
    assert of(events, DamageDrawn) == []
    moved = [e for e in of(events, Moved) if e.vehicle == "a"]
    assert moved[1].end == _pose_after(moved[1].start, DECK, straight(DECK), catalog)
    assert state.vehicles["a"].damage == 0
    assert state.vehicles["a"].in_play


# --- movement --------------------------------------------------------------------------------


def test_movement_is_simultaneous(catalog: Catalog) -> None:
    """000 RESOLVING MOVEMENT: "All players simultaneously reveal the first of their planned
    maneuver cards" ... "After tripod actions are decided, all vehicles move." FIRING:
    "After all vehicles have moved, players check if each airplane can shoot". Both
    airplanes move from where they stood before the phase; shots are measured after."""
    half = catalog.constants.airplane_base.length / 2
    first = straights(DECK)[0]
    step = _pose_after(Pose(0, 0, 0), DECK, first, catalog).x
    # head-on, out of reach of each other until both have moved
    gap = catalog.constants.ruler.length + half + 2 * step - 6.0
    sit = situation(
        plane("a", SPAD, "allies", 45 - gap / 2, 45, 0),
        plane("b", SPAD, "central", 45 + gap / 2, 45, 180),
    )
    state, events = run(sit, phases=1)
    moved = {e.vehicle: e for e in of(events, Moved)}
    assert moved["a"].start == Pose(45 - gap / 2, 45, 0)
    assert moved["b"].start == Pose(45 + gap / 2, 45, 180)
    assert moved["a"].end == _pose_after(moved["a"].start, DECK, first, catalog)
    assert moved["b"].end == _pose_after(moved["b"].start, DECK, first, catalog)
    assert kinds(events).index("fired") > max(
        i for i, k in enumerate(kinds(events)) if k == "moved"
    )
    fired = {e.firer: e for e in of(events, Fired)}
    assert set(fired) == {"a", "b"}
    assert fired["a"].distance == pytest.approx(gap - 2 * step - half)
    assert state.vehicles["a"].pose == moved["a"].end


def test_leaving_the_area_when_the_centre_goes_out(catalog: Catalog) -> None:
    """000 LEAVING THE PLAYING AREA: "A vehicle is considered to have left the playing area
    when the center of its base is even partly outside of the playing area. A vehicle that
    is outside of the playing area at the end of a movement step is out of the game."
    002: "Plane exits if its central dot crosses boundary → eliminated." """
    first = straights(DECK)[0]
    step = _pose_after(Pose(0, 0, 0), DECK, first, catalog).x
    width = catalog.constants.table.width
    sit = situation(
        plane("a", SPAD, "allies", width - step + 0.5, 45, 0),
        plane("b", SPAD, "central", 10, 10, 90),
        plane("c", SPAD, "central", 60, 80, 180, fire=HOLD),
    )
    state, events = run(sit, phases=1)
    assert [e.vehicle for e in of(events, LeftArea)] == ["a"]
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("a", "left_area")]
    assert state.vehicles["a"].eliminated == "left_area"
    assert [e.firer for e in of(events, Fired)] == []  # gone before the firing step


def test_base_overhanging_the_edge_stays_in(catalog: Catalog) -> None:
    """000: "A vehicle is considered to have left the playing area when the center of its
    base is even partly outside of the playing area." 003: "纵使动作牌在移动时需要放在战场外,
    只需移动后的飞机,其红点仍在战场内,该飞机仍可战斗" (even if the maneuver card has to be
    placed outside the field, as long as the red dot of the moved airplane is still inside
    the field, the airplane can still fight)."""
    first = straights(DECK)[0]
    step = _pose_after(Pose(0, 0, 0), DECK, first, catalog).x
    width = catalog.constants.table.width
    half = catalog.constants.airplane_base.length / 2
    x = width - step - half / 2  # ends with its centre in, its nose over the edge
    sit = situation(
        plane("a", SPAD, "allies", x, 45, 0, fire=HOLD),
        plane("b", SPAD, "central", 10, 10, 90, fire=HOLD),
    )
    state, events = run(sit, phases=1)
    end = state.vehicles["a"].pose
    assert end.x < width < end.x + half
    assert of(events, LeftArea) == []
    assert state.vehicles["a"].in_play


# --- reminders -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "counter"),
    [
        ((S1, S2, S3), "straight"),
        ((S1, S2, STEEP), "steep"),
        ((S1, S2, STALL), "steep"),
        ((LEFT, S1, IMMELMANN), "immelmann"),
        ((S1, S2, LEFT), None),
    ],
)
def test_end_of_turn_reminders(cards: tuple[str, str, str], counter: str | None) -> None:
    """000 REMINDERS: "If the third maneuver card of the turn for an airplane was a steep
    maneuver, the player takes a steep maneuver counter" ... "was an Immelmann turn, the
    player takes an Immelmann counter" ... "was a straight maneuver, the player takes a
    straight maneuver counter". A turn's last card with none of these gives no counter."""
    state, events = run(flyer(held(*cards)))
    assert illegal(events) == []
    reminders = [(t, p, e.counter) for t, p, e in phases_of(events, Reminder) if e.vehicle == "a"]
    assert reminders == ([] if counter is None else [(1, 3, counter)])
    assert state.turn == 2
    assert state.phase == 0

"""Martian tripods (000, Tripods & Triplanes BASIC RULES): planning, tripod maneuvers and
illegal ones, action tokens and Energy, reverse, toppling, overlaps, heat-rays and
cooling, line of sight, the electrified armour, recharging, objectives, elimination and
what the consoles show.

Every table is laid out by hand: the tripod "t" (a Mk I Locust unless said otherwise)
stands at (X0, Y0) facing +y (heading 90), so its front side is the line y = FRONT_Y and
its rear side y = REAR_Y. Airplanes are placed so that they *end* their first maneuver
where the test wants them (:func:`arriving`, :func:`land`), and damage decks are stacked
so that every outcome is exact. Tripod card ids are looked up in the deck data by symbol
and icon (:func:`cards`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import (
    HOLD,
    Json,
    composition,
    jam_card,
    of,
    phases_of,
    plain,
    plane,
    run,
    situation,
    state_of,
    straights,
)

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import TripodCard, TripodDeck, TripodSymbol
from dogfight.errors import IllegalPlanError
from dogfight.geometry.heatray import RulerSpec, best_shot
from dogfight.geometry.hexbase import Side, side_midpoint
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import rectangle
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import (
    ActionWasted,
    CardRevealed,
    DamageCardsTaken,
    DamageDrawn,
    Eliminated,
    EnergyChanged,
    Event,
    Explosion,
    FacingChanged,
    Fired,
    GameOver,
    HeatRay,
    IllegalManeuver,
    Jammed,
    Moved,
    ObjectiveDestroyed,
    ProtectedHit,
    PutBack,
    Recharged,
    Reminder,
    Revealed,
    Toppled,
    ToppledTokens,
)
from dogfight.rules.observation import observe, side_seat, visible_events
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState

CATALOG = load_catalog()
AT_PLANNING = {"actions_at_planning": True}
"""The house rule: the tokens written in the plan are placed even where the rules forbid
them (what costs the Energy these tests check)."""
CONST = CATALOG.constants
LOCUST = "mk1-locust"
SCARAB = "mk2-scarab"
MK1 = CATALOG.tripods[LOCUST]
RAY_DECK = MK1.firepower  # the damage deck an airplane hit by the Mk I's heat-ray draws
RAY = CONST.tripods.heavy if MK1.heat_ray == "heavy" else CONST.tripods.medium
PLANE = "spad-vii"  # airplane deck A, fires B, resistance 13
PLANE_DECK = CATALOG.airplane(PLANE).firepower[0]
HEX = CONST.tripods.base_side
APOTHEM = HEX * math.sqrt(3.0) / 2.0
HALF_L = CONST.airplane_base.length / 2.0

X0, Y0 = 45.0, 30.0
FRONT_Y = Y0 + APOTHEM
REAR_Y = Y0 - APOTHEM
STILL = (None, None, None)


# --- tripod cards, looked up in the deck data ------------------------------------------------


def tdeck(tripod: str = LOCUST) -> TripodDeck:
    return CATALOG.tripod_decks[CATALOG.tripods[tripod].maneuver_deck]


def cards(
    tripod: str = LOCUST,
    symbol: str | None = None,
    *,
    stop: bool | None = False,
    energy: bool | None = False,
    straight: bool | None = None,
) -> list[str]:
    """Ids of the tripod's cards with ``symbol`` and the icons asked for (None: either)."""
    out: list[str] = []
    for c in tdeck(tripod).cards:
        if symbol is not None and c.symbol is not TripodSymbol(symbol):
            continue
        if stop is not None and c.stop is not stop:
            continue
        if energy is not None and c.energy is not energy:
            continue
        if straight is not None and (c.turn == 0 and c.left == 0) is not straight:
            continue
        out.append(c.id)
    if not out:
        raise LookupError(f"no {symbol} card (stop={stop}, energy={energy}) for {tripod}")
    return out


def tcard(card_id: str, tripod: str = LOCUST) -> TripodCard:
    return tdeck(tripod).card(card_id)


MOVES = cards(symbol="move")  # normal movements, no icons
STEPS = cards(symbol="move", straight=True)  # straight normal movements
RUN = cards(symbol="run")[0]  # a running movement without icons
STANDS = cards(symbol="stand")  # standing still
REVERSE = cards(symbol="reverse")[0]
ENERGY_CARD = cards(energy=True, stop=None)[0]  # a card with the Energy icon
STILL_PLAN = (STANDS[0], STANDS[1], REVERSE)  # a turn of stationary cards


def stride(card_id: str) -> float:
    """How far a straight card moves the centre of the base."""
    card = tcard(card_id)
    assert card.turn == 0 and card.left == 0
    return card.forward + 2.0 * APOTHEM


# --- damage cards -----------------------------------------------------------------------------


def energy_card(letter: str, value: int) -> str:
    """A damage card worth ``value`` with the Energy icon and no other icon."""
    for c in CATALOG.damage_decks[letter].cards:
        if c.energy and not c.explosion and not c.specials and c.value == value:
            return c.id
    raise LookupError(f"deck {letter} has no plain Energy card worth {value}")


def bare_explosion(letter: str) -> str:
    """An explosion card without the Energy icon."""
    for c in CATALOG.damage_decks[letter].cards:
        if c.explosion and not c.energy and not c.specials:
            return c.id
    raise LookupError(f"deck {letter} has no plain explosion card")


def value_of(letter: str, card_id: str) -> tuple[int, bool]:
    spec = {c.id: c for c in CATALOG.damage_decks[letter].cards}[card_id]
    return spec.value, spec.explosion


# --- situation builders -----------------------------------------------------------------------


def tplan(*ids: str, actions: Sequence[Json | None] = STILL) -> Json:
    """One turn's tripod plan: card ids and the action token of each phase."""
    return {"cards": list(ids), "actions": list(actions)}


def ray(projector: str = "front", target: str = "auto") -> Json:
    return {"token": "heat_ray", "projector": projector, "target": target}


def facing(sides: int) -> Json:
    return {"token": "change_facing", "sides": sides}


def recharge(objective: str | None = None) -> Json:
    return {"token": "recharge", "objective": objective}


def destroy(objective: str | None = None) -> Json:
    return {"token": "destroy_objective", "objective": objective}


def tripod(
    vid: str = "t",
    x: float = X0,
    y: float = Y0,
    heading: float = 90.0,
    *,
    model: str = LOCUST,
    side: str = "martians",
    plans: list[Json] | None = None,
    **extra: Any,
) -> Json:
    """A tripod entry; by default it stands still all turn with no action token."""
    return {
        "id": vid,
        "type": model,
        "side": side,
        "pose": {"x": x, "y": y, "heading": heading},
        "plans": plans if plans is not None else [tplan(*STILL_PLAN)],
        **extra,
    }


def before(airplane: str, card_id: str, end: Pose) -> Pose:
    """Where an airplane must start so that flying ``card_id`` takes it to ``end``."""
    deck = CATALOG.maneuver_decks[CATALOG.airplane(airplane).maneuver_deck]
    m = apply_card(Pose(0.0, 0.0, 0.0), deck.card(card_id), CONST.airplane_base.length)
    heading = end.heading - m.heading
    rad = math.radians(heading)
    c, s = math.cos(rad), math.sin(rad)
    return Pose(end.x - (m.x * c - m.y * s), end.y - (m.x * s + m.y * c), heading)


def arriving(
    vid: str,
    x: float,
    y: float,
    heading: float,
    *,
    side: str = "earth",
    fire: Sequence[str] = HOLD,
    airplane: str = PLANE,
    **extra: Any,
) -> Json:
    """An airplane ending its first maneuver (a straight) at (x, y, heading)."""
    start = before(airplane, straights(airplane)[0], Pose(x, y, heading))
    return plane(vid, airplane, side, start.x, start.y, start.heading, fire=list(fire), **extra)


def land(state: GameState, vid: str, x: float, y: float, heading: float) -> None:
    """Put an airplane where its next planned card ends at (x, y, heading)."""
    vehicle = state.vehicles[vid]
    assert vehicle.plan is not None
    card = vehicle.plan.cards[state.phase]
    vehicle.pose = before(vehicle.type, card, Pose(x, y, heading))


def along(side: Side, distance: float) -> tuple[float, float]:
    """The point ``distance`` straight out from the middle of the tripod's ``side``."""
    mx, my = side_midpoint(Pose(X0, Y0, 90.0), HEX, side)
    normal = math.radians(90.0 + 60.0 * int(side))
    return mx + distance * math.cos(normal), my + distance * math.sin(normal)


# --- driving the engine phase by phase --------------------------------------------------------


def planned(sit: Json, overrides: dict[str, Json] | None = None, seed: int = 0) -> GameState:
    """The situation's state with its first turn planned (``overrides``: other plans)."""
    state = state_of(sit, seed)
    chosen = {
        v["id"]: Plan.model_validate((overrides or {}).get(v["id"], v["plans"][0]))
        for v in sit["vehicles"]
    }
    state, _ = start_turn(state, chosen)
    return state


def refused(sit: Json, vid: str, bad: Json) -> None:
    """A plan start_turn must refuse."""
    state = state_of(sit)
    chosen = {v["id"]: Plan.model_validate(v["plans"][0]) for v in sit["vehicles"]}
    chosen[vid] = Plan.model_validate(bad)
    with pytest.raises(IllegalPlanError):
        start_turn(state, chosen)


def next_phase(
    state: GameState, seed: int = 0, actions: dict[str, Action | None] | None = None
) -> tuple[GameState, list[Event]]:
    return resolve_phase(state, step_rng(seed, state.turn, state.phase + 1), actions)


def in_phase(events: list[Event], kind: type[Any], turn: int, phase: int) -> list[Any]:
    return [e for t, p, e in phases_of(events, kind) if (t, p) == (turn, phase)]


def revealed_phases(events: list[Event], vid: str = "t") -> list[tuple[int, int, str]]:
    return [(t, p, e.card) for t, p, e in phases_of(events, Revealed) if e.vehicle == vid]


def moves_of(events: list[Event], vid: str = "t") -> list[tuple[int, int, Moved]]:
    return [(t, p, e) for t, p, e in phases_of(events, Moved) if e.vehicle == vid]


def drawn(events: list[Event], vid: str) -> list[DamageDrawn]:
    return [e for e in of(events, DamageDrawn) if e.vehicle == vid]


def energy(state: GameState, vid: str = "t") -> int:
    tripod_state = state.vehicles[vid].tripod
    assert tripod_state is not None
    return tripod_state.energy


def toppled(state: GameState, vid: str = "t") -> int:
    tripod_state = state.vehicles[vid].tripod
    assert tripod_state is not None
    return tripod_state.toppled


def close(a: Pose, b: Pose) -> bool:
    dh = (a.heading - b.heading + 180.0) % 360.0 - 180.0
    return math.dist(a.point, b.point) < 1e-6 and abs(dh) < 1e-6


HOME = Pose(X0, Y0, 90.0)


# --- planning -----------------------------------------------------------------------------------


def test_tripod_plans_three_cards() -> None:
    """000 PLANNING: "In this phase, players choose three cards from their maneuver decks.
    These cards are the three maneuvers that each vehicle will perform during this turn."
    A tripod plan with another number of cards is refused."""
    sit = situation(tripod())
    state = planned(sit)
    assert state.vehicles["t"].plan is not None
    assert len(state.vehicles["t"].plan.cards) == 3
    refused(sit, "t", tplan(STANDS[0], STANDS[1]))
    refused(sit, "t", tplan(STANDS[0], STANDS[1], REVERSE, MOVES[0]))


@pytest.mark.parametrize("tokens", [1, 2])
def test_toppled_tripod_plans_three_minus_reminder_tokens(tokens: int) -> None:
    """000 TOPPLED TRIPODS: "If, during a planning phase, a tripod is laying down, the
    player may only plan three cards minus the reminder tokens on the "toppled" box, for
    the last phases of the turn." Example: "If a tripod starts the turn with one reminder
    token in the "toppled" box of the console, the player plans 3 - 1 = 2 cards, for the
    second and third phase of the turn." With 2 tokens: 1 card, for the third phase."""
    ids = [STEPS[0], STANDS[0]][: 3 - tokens]
    sit = situation(tripod(toppled=tokens, plans=[tplan(*ids)]))
    refused(sit, "t", tplan(*STILL_PLAN))
    refused(sit, "t", tplan(*ids, STANDS[1]))
    if len(ids) > 1:
        refused(sit, "t", tplan(ids[0]))
    state, events = run(sit)
    expected = [(1, 1 + tokens + i, card) for i, card in enumerate(ids)]
    assert revealed_phases(events) == expected
    first = 1 + tokens
    if ids[0] == STEPS[0]:
        ((_, phase, move),) = moves_of(events)
        assert phase == first
        assert move.end.y == pytest.approx(Y0 + stride(STEPS[0]))
    assert toppled(state) == 0


@pytest.mark.parametrize("tokens", [1, 2])
def test_a_toppled_tripods_card_is_shown_in_its_own_phase_never_before(tokens: int) -> None:
    """000 TOPPLED TRIPODS: the cards are "for the last phases of the turn", and 000
    PLANNING: plans are revealed phase by phase. What the other seats see of a tripod
    that lies the first phases down: no card until the phase it is played in (the
    observation once showed the second phase's card after the first phase)."""
    ids = [STEPS[0], STANDS[0]][: 3 - tokens]
    sit = situation(tripod(toppled=tokens, plans=[tplan(*ids)]), plane("p", PLANE, "earth", 10, 10))
    state = planned(sit)
    shown = []
    for _ in range(2):  # after the third phase the turn is over and its plans put away
        state, _ = next_phase(state)
        seen = observe(state, side_seat(state, "earth"))["vehicles"]
        (view,) = [v for v in seen if v["id"] == "t"]
        shown.append(view.get("revealed"))
    assert shown == [ids[: max(0, p - tokens)] for p in (1, 2)]


# --- illegal maneuvers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "falls"),
    [
        ((MOVES[0], MOVES[1], MOVES[2]), True),
        ((MOVES[0], MOVES[1], RUN), False),
        ((RUN, MOVES[0], MOVES[1]), False),
        ((STANDS[0], MOVES[0], MOVES[1]), False),
        ((MOVES[0], MOVES[1], STANDS[0]), False),
    ],
    ids=["three-moves", "run-third", "run-first", "stand-first", "stand-third"],
)
def test_third_movement_card_without_stationary_or_running_topples(
    ids: tuple[str, str, str], falls: bool
) -> None:
    """000 TRIPOD MANEUVERS: "In a turn, a Tripod player must always plan at least one
    stationary maneuver OR a running maneuver." ILLEGAL MANEUVERS: "If an illegal maneuver
    is revealed, because it is the third movement card of the turn and none of them is a
    stationary or running maneuver ... the tripod topples"."""
    state, events = run(situation(tripod(plans=[tplan(*ids)])))
    tumbles = of(events, Toppled)
    if not falls:
        assert tumbles == [] and of(events, IllegalManeuver) == []
        assert [p for _, p, m in moves_of(events)] == [
            p for p, c in enumerate(ids, start=1) if tcard(c).moves
        ]
        return
    ((turn, phase, illegal),) = phases_of(events, IllegalManeuver)
    assert (turn, phase, illegal.vehicle, illegal.card) == (1, 3, "t", ids[2])
    assert [e.vehicle for e in in_phase(events, Toppled, 1, 3)] == ["t"]
    assert [p for _, p, _ in moves_of(events)] == [1, 2]  # the third card is not walked
    assert toppled(state) == 2


def test_energy_card_without_energy_topples() -> None:
    """000 ILLEGAL MANEUVERS: "if a maneuver card requiring energy is played without
    having Energy to spend - the tripod topples"."""
    state, events = run(situation(tripod(energy=0, plans=[tplan(ENERGY_CARD, *STANDS)])))
    ((turn, phase, illegal),) = phases_of(events, IllegalManeuver)
    assert (turn, phase, illegal.card) == (1, 1, ENERGY_CARD)
    assert [e.vehicle for e in in_phase(events, Toppled, 1, 1)] == ["t"]
    assert moves_of(events) == []
    assert close(state.vehicles["t"].pose, HOME)


def test_energy_card_spends_one_energy() -> None:
    """000 TRIPOD MANEUVERS: "If there is an [Energy] icon on the card, the Tripod player
    must immediately spend 1 Energy." """
    state, events = run(situation(tripod(energy=2, plans=[tplan(ENERGY_CARD, *STANDS)])), phases=1)
    assert of(events, Toppled) == []
    ((_, phase, _),) = moves_of(events)
    assert phase == 1
    (change,) = of(events, EnergyChanged)
    assert (change.vehicle, change.change, change.energy) == ("t", -1, 1)
    assert energy(state) == 1


# --- toppled tripods --------------------------------------------------------------------------


def test_toppled_tripod_reminder_tokens_and_standing_again() -> None:
    """000 TOPPLED TRIPODS: "When a tripod topples, discard all cards planned for it and
    take two reminder tokens. ... At the start of each movement phase, the tripod discards
    one of the reminder tokens. When it discards the last token, it is put standing again
    with the base exactly matching the card in position and facing." """
    turn_1 = tplan(ENERGY_CARD, STEPS[0], RUN)
    turn_2 = tplan(STEPS[0], *STANDS)
    state, events = run(situation(tripod(energy=0, plans=[turn_1, turn_2])), phases=4)
    assert [e.vehicle for e in in_phase(events, Toppled, 1, 1)] == ["t"]
    tokens = [(t, p, e.tokens) for t, p, e in phases_of(events, ToppledTokens)]
    assert tokens == [(1, 2, 1), (1, 3, 0)]
    # the planned cards of phases 2 and 3 were discarded: never revealed, never walked
    assert revealed_phases(events) == [(1, 1, ENERGY_CARD), (2, 1, STEPS[0])]
    (move,) = [m for t, p, m in moves_of(events)]
    assert close(move.start, HOME)  # stood up exactly where it fell
    assert toppled(state) == 0


# --- reverse ------------------------------------------------------------------------------------


def test_reverse_stands_still_then_next_movement_backwards() -> None:
    """000 TRIPOD MANEUVERS: "choosing a reverse means that the tripod stands still where it
    is, with the same facing, but if the next card is a movement maneuver, the tripod uses
    it moving backward. The reverse affects only the next maneuver; further maneuvers
    following the next are executed forward". RESOLVING MOVEMENT: "the maneuver card is
    applied to the rear of the tripod ... The front of the tripod base must be then put on
    the line at the base of the arrowhead on the card." """
    state, events = run(situation(tripod(plans=[tplan(REVERSE, STEPS[0], STEPS[1])])))
    walked = moves_of(events)
    assert [p for _, p, _ in walked] == [2, 3]  # phase 1: stands still
    (_, _, back), (_, _, ahead) = walked
    assert close(back.start, HOME)
    assert close(back.end, Pose(X0, Y0 - stride(STEPS[0]), 90.0))  # behind, same facing
    assert close(ahead.end, Pose(X0, Y0 - stride(STEPS[0]) + stride(STEPS[1]), 90.0))
    assert close(state.vehicles["t"].pose, ahead.end)


def test_reverse_affects_only_the_next_maneuver() -> None:
    """000 TRIPOD MANEUVERS: "The reverse affects only the next maneuver; further
    maneuvers following the next are executed forward, until a new reverse is planned."
    A standing card after the reverse uses it up."""
    _, events = run(situation(tripod(plans=[tplan(REVERSE, STANDS[0], STEPS[0])])))
    ((_, phase, move),) = moves_of(events)
    assert phase == 3
    assert close(move.end, Pose(X0, Y0 + stride(STEPS[0]), 90.0))


def test_reverse_reminder_carries_into_next_turn() -> None:
    """000 TRIPOD MANEUVERS, note: "If the last card of a turn is a reverse, place a
    reverse reminder token on the Tripod console; if the first card of the next turn is a
    movement, the tripod will move backwards." REMINDERS: "If the third maneuver card for
    a tripod was a reverse, the player takes a reverse counter"."""
    turn_2 = tplan(STEPS[0], *STANDS)
    _, events = run(situation(tripod(plans=[tplan(*STILL_PLAN), turn_2])))
    reminders = [(t, p, e.counter) for t, p, e in phases_of(events, Reminder) if e.vehicle == "t"]
    assert reminders == [(1, 3, "reverse")]
    ((turn, phase, move),) = moves_of(events)
    assert (turn, phase) == (2, 1)
    assert close(move.end, Pose(X0, Y0 - stride(STEPS[0]), 90.0))
    # the same reminder written on the console of a situation
    _, events = run(situation(tripod(reverse=True, plans=[turn_2])))
    ((_, _, move),) = moves_of(events)
    assert close(move.end, Pose(X0, Y0 - stride(STEPS[0]), 90.0))


# --- action tokens ------------------------------------------------------------------------------


def test_token_on_stop_card_has_no_effect_and_costs_energy() -> None:
    """000 TRIPOD ACTIONS: "A Tripod player is not allowed to place an Action token if the
    planned card has the [STOP] icon." ... "Should the Tripod player fail to follow these
    restrictions, the chosen token effect is not applied and the Tripod player must
    discard 1 Energy." """
    stop_card = cards(SCARAB, stop=True, energy=False)[0]
    stands = cards(SCARAB, "stand")
    rating = CATALOG.tripods[SCARAB].energy
    plans = [tplan(stop_card, *stands[:2], actions=[ray(), None, None])]
    sit = situation(tripod(model=SCARAB, plans=plans), switches=AT_PLANNING)
    state, events = run(sit, phases=1)
    (wasted,) = of(events, ActionWasted)
    assert (wasted.vehicle, wasted.token, wasted.energy_lost) == ("t", "heat_ray", 1)
    assert of(events, HeatRay) == []
    assert energy(state) == rating - 1


@pytest.mark.parametrize("token", [facing(1), recharge(), destroy()], ids=lambda t: t["token"])
@pytest.mark.parametrize("card", [STEPS[0], RUN], ids=["move", "run"])
def test_green_token_needs_standing_still_card(token: Json, card: str) -> None:
    """000 TRIPOD ACTIONS: "A Tripod player can place a green Action token (Change Facing,
    Recharge, Destroy Objective) only when the planned card is a standing still card."
    ... "the chosen token effect is not applied and the Tripod player must discard 1
    Energy." """
    plans = [tplan(card, *STANDS, actions=[token, None, None])]
    sit = situation(
        tripod(energy=3, plans=plans),
        objectives=[{"id": "o", "x": X0, "y": Y0, "charges": 1}],
        switches=AT_PLANNING,
    )
    state, events = run(sit, phases=1)
    (wasted,) = of(events, ActionWasted)
    assert (wasted.vehicle, wasted.token, wasted.energy_lost) == ("t", token["token"], 1)
    assert of(events, FacingChanged) == []
    assert of(events, Recharged) == []
    assert of(events, ObjectiveDestroyed) == []
    assert not state.objectives["o"].destroyed
    assert state.vehicles["t"].pose.heading == pytest.approx(90.0)
    assert energy(state) == 2


def test_change_facing_at_end_of_movement_step() -> None:
    """000 CHANGE FACING: "A tripod that selected this action changes facing, turning
    sideways up to a maximum of sides" ... "the side that will become the new tripod
    facing at the end of the Movement step". The airplane in front of the Mk I then fires
    through a side that has become unprotected (rear-right)."""
    sides = MK1.facing_limit
    plans = [tplan(*STILL_PLAN, actions=[facing(sides), None, None])]
    stack = plain(PLANE_DECK, 2)
    sit = situation(
        tripod(plans=plans),
        arriving("p", X0, FRONT_Y + 20.0, 270.0, fire=("auto", "none", "none")),
        damage_decks={PLANE_DECK: stack},
    )
    state, events = run(sit, phases=1)
    (turn,) = of(events, FacingChanged)
    assert (turn.vehicle, turn.sides) == ("t", sides)
    new = Pose(X0, Y0, (90.0 + 60.0 * sides) % 360.0)
    assert close(turn.pose, new) and close(state.vehicles["t"].pose, new)
    (fire,) = of(events, Fired)
    assert events.index(turn) < events.index(fire)  # in place for the firing step
    assert of(events, ProtectedHit) == []
    (hit,) = drawn(events, "t")
    assert (hit.cards, hit.points) == (tuple(stack), 2)


def test_change_facing_beyond_limit_refused() -> None:
    """000 CHANGE FACING: "turning sideways up to a maximum of sides, as shown on its
    Change facing action token, or on the tripod reference card." A plan turning further
    is refused."""
    sit = situation(tripod())
    limit = MK1.facing_limit
    for sides in (limit, -limit):
        planned(sit, {"t": tplan(*STILL_PLAN, actions=[facing(sides), None, None])})
    refused(sit, "t", tplan(*STILL_PLAN, actions=[facing(limit + 1), None, None]))
    refused(sit, "t", tplan(*STILL_PLAN, actions=[None, facing(-limit - 1), None]))


def test_recharge_one_energy_at_end_of_phase_never_above_rating() -> None:
    """000 RECHARGE: "Tripods that selected this action receive 1 Energy at the end of the
    phase, after combat is resolved and damage allocated." ... "A tripod can never have
    more tokens than its Energy rating: if a recharge would bring its total tokens above
    the Energy rating, do not take the tokens in excess." """
    rating = MK1.energy
    plans = [tplan(*STILL_PLAN, actions=[recharge(), recharge(), None])]
    state, events = run(situation(tripod(energy=rating - 1, plans=plans)))
    gains = [(p, e.gained, e.energy) for _, p, e in phases_of(events, Recharged)]
    assert gains == [(1, 1, rating), (2, 0, rating)]
    assert of(events, ActionWasted) == []
    assert energy(state) == rating
    # after combat: an explosion on the armour empties the reserve, then the recharge
    plans = [tplan(*STILL_PLAN, actions=[recharge(), None, None])]
    sit = situation(
        tripod(energy=rating - 2, plans=plans),
        arriving("p", X0, FRONT_Y + 20.0, 270.0, fire=("auto", "none", "none")),
        damage_decks={PLANE_DECK: [bare_explosion(PLANE_DECK)]},
    )
    state, events = run(sit, phases=1)
    (hit,) = of(events, ProtectedHit)
    (gain,) = of(events, Recharged)
    assert events.index(hit) < events.index(gain)
    assert (gain.gained, gain.energy) == (1, 1)
    assert energy(state) == 1


def test_recharge_on_objective_gives_recharge_level_and_uses_a_charge() -> None:
    """000 RECHARGE: "If the tripod base overlaps an Objective token, the Tripod player may
    choose to gain a number of Energy tokens equal to the [Recharge Level] of the tripod
    instead. In this case, a Charge exhausted token is placed on the objective"."""
    plans = [tplan(*STILL_PLAN, actions=[recharge("o"), recharge("o"), None])]
    sit = situation(
        tripod(energy=1, plans=plans), objectives=[{"id": "o", "x": X0, "y": Y0, "charges": 1}]
    )
    state, events = run(sit)
    gains = [(p, e.gained, e.objective) for _, p, e in phases_of(events, Recharged)]
    level = MK1.recharge_level
    assert gains == [(1, level, "o"), (2, 1, None)]  # no charge left: a plain recharge
    assert state.objectives["o"].charges == 0
    assert energy(state) == min(MK1.energy, 1 + level + 1)


def test_destroy_objective_removes_overlapped_objective() -> None:
    """000 DESTROY OBJECTIVE: "If the tripod base overlaps an Objective token, the Tripod
    player must now remove it (the building or structure represented by the Objective token
    has been destroyed by the tripod)." One it does not overlap stays."""
    plans = [tplan(*STILL_PLAN, actions=[destroy("far"), destroy("o"), None])]
    objectives = [{"id": "o", "x": X0 + 2.0, "y": Y0}, {"id": "far", "x": 80.0, "y": 80.0}]
    state, events = run(situation(tripod(plans=plans), objectives=objectives))
    assert [(p, e.objective) for _, p, e in phases_of(events, ObjectiveDestroyed)] == [(2, "o")]
    assert state.objectives["o"].destroyed
    assert not state.objectives["far"].destroyed
    assert of(events, ActionWasted) == []


# --- heat-rays ---------------------------------------------------------------------------------


def ray_table(
    projector: str, x: float, y: float, heading: float, stack: list[str] | None = None, **kw: Any
) -> Json:
    """The Mk I firing ``projector`` in phase 1 at airplane "p" landing at (x, y)."""
    plans = [tplan(*STILL_PLAN, actions=[ray(projector), None, None])]
    return situation(
        tripod(plans=plans, **kw),
        arriving("p", x, y, heading),
        damage_decks={RAY_DECK: stack if stack is not None else plain(RAY_DECK, 2)},
    )


def test_heat_ray_fires_from_the_chosen_projector() -> None:
    """000 HEAT-RAY FIRE, example: "A Tripod player planned a heat-ray fire action token,
    using a MK.I tripod, capable of firing with three frontal heat-ray projectors. The
    player chooses to fire using the left side projector and thus places 1 Energy on the
    front-left side of the tripod's base." FIRING TRIPODS: "the ruler is placed against the
    side of the tripod's base where the player previously placed 1 Energy". A plane off to
    the front-left is hit from there, not from the front-right, and the Mk I has no rear
    projector to fire from."""
    x, y = along(Side.FRONT_LEFT, 10.0)
    state, events = run(ray_table("front-left", x, y, 150.0), phases=1)
    (shot,) = of(events, HeatRay)
    assert (shot.firer, shot.projector, shot.target) == ("t", "front-left", "p")
    assert shot.origin is not None
    middle = side_midpoint(HOME, HEX, Side.FRONT_LEFT)
    assert math.dist(shot.origin, middle) == pytest.approx(RAY.width / 2.0)
    (hit,) = drawn(events, "p")
    assert hit.source == "t heat-ray" and state.vehicles["p"].damage == 2
    # the same plane from the front-right projector: out of reach
    state, events = run(ray_table("front-right", x, y, 150.0), phases=1)
    (shot,) = of(events, HeatRay)
    assert (shot.projector, shot.target) == ("front-right", None)
    assert state.vehicles["p"].damage == 0
    # from the rear: the Mk I has no projector there
    assert "rear" not in MK1.projectors
    sit = ray_table("front-left", x, y, 150.0)
    refused(sit, "t", tplan(*STILL_PLAN, actions=[ray("rear"), None, None]))


def test_heat_ray_spends_energy_even_without_target() -> None:
    """000 FIRING TRIPODS: "(Firing is mandatory. Discard the Energy token used to fire
    after checking for targets.)" HEAT-RAY FIRE: "if it has at least 1 Energy, it must be
    spent to fire." """
    plans = [tplan(*STILL_PLAN, actions=[ray("front-right"), None, None])]
    state, events = run(situation(tripod(plans=plans)), phases=1)
    (shot,) = of(events, HeatRay)
    assert (shot.firer, shot.projector, shot.target, shot.range) == ("t", "front-right", None, None)
    (spent,) = of(events, EnergyChanged)
    assert (spent.vehicle, spent.change, spent.energy) == ("t", -1, MK1.energy - 1)
    assert energy(state) == MK1.energy - 1


def test_heat_ray_fire_is_mandatory() -> None:
    """000 FIRST ACTION PHASE FIRING STEP: "All tripods that chose a firing Action token and
    then spent Energy tokens on it must also fire with their chosen weapon." FIRING
    TRIPODS: "(Firing is mandatory ...)". A plan holding the heat-ray is refused; the ray
    fires at the plane in reach."""
    sit = ray_table("front", X0, FRONT_Y + 15.0, 90.0)
    refused(sit, "t", tplan(*STILL_PLAN, actions=[ray("front", "none"), None, None]))
    _, events = run(sit, phases=1)
    (shot,) = of(events, HeatRay)
    assert shot.target == "p"
    assert len(drawn(events, "p")) == 1


@pytest.mark.parametrize(("first", "second"), [(0, 3), (2, 3)], ids=["zero-first", "hit-first"])
def test_heat_ray_short_range_reveals_one_card_then_second_on_zero(first: int, second: int) -> None:
    """000 FIRING TRIPODS: "If the chosen target is reached by the first half of the ruler,
    the shot is at short range. The owner of the target airplane draws and reveals 1 damage
    card from the deck that matches the firepower letter of the firing tripod: if it is a
    0, the player draws a second card (this time, without revealing it to the opponent)." """
    stack = plain(RAY_DECK, first, second)
    x, y = along(Side.FRONT, RAY.half / 2.0 + HALF_L)
    state, events = run(ray_table("front", x, y, 90.0, stack), phases=1)
    (shot,) = of(events, HeatRay)
    assert (shot.target, shot.range) == ("p", "short")
    (shown,) = of(events, CardRevealed)
    assert (shown.vehicle, shown.deck, shown.card, shown.value) == ("p", RAY_DECK, stack[0], first)
    (hit,) = drawn(events, "p")
    taken = stack if first == 0 else stack[:1]
    assert (hit.deck, hit.cards) == (RAY_DECK, tuple(taken))
    assert hit.points == sum(value_of(RAY_DECK, c)[0] for c in taken)
    assert state.vehicles["p"].damage == hit.points
    # the Martians see how many cards, not which: the second stays secret
    (public,) = of(visible_events(events, side_seat(state, "martians")), DamageCardsTaken)
    assert public.count == len(taken)


def test_heat_ray_long_range_draws_one_card() -> None:
    """000 FIRING TRIPODS: "If the target is reached the second half of the ruler, the shot
    is at long range. The owner of the target airplane draws 1 damage card from the
    appropriate deck." """
    stack = plain(RAY_DECK, 0, 3)
    x, y = along(Side.FRONT, (RAY.half + RAY.length) / 2.0 + HALF_L)
    state, events = run(ray_table("front", x, y, 90.0, stack), phases=1)
    (shot,) = of(events, HeatRay)
    assert (shot.target, shot.range) == ("p", "long")
    assert of(events, CardRevealed) == []
    (hit,) = drawn(events, "p")
    assert hit.cards == (stack[0],)  # a 0 at long range: no second card
    assert state.vehicles["p"].damage == 0


def test_heat_ray_beyond_range_cannot_hit() -> None:
    """000 FIRING TRIPODS: "If a target is beyond a tripod's range it cannot be hit." """
    x, y = along(Side.FRONT, RAY.length + 1.0 + HALF_L)
    state, events = run(ray_table("front", x, y, 90.0), phases=1)
    (shot,) = of(events, HeatRay)
    assert shot.target is None
    assert state.vehicles["p"].damage == 0


def test_heat_ray_cooling() -> None:
    """000 COOLING: "If a tripod fires using any one of its heat-ray projectors, its
    generator must cool down before any projector can fire again. After a projector has
    fired, place on the tripod's console 1 recovery token, in the Heat-ray box. Remove one
    token at the beginning of each following phase. When a tripod's console has no
    recovery tokens at the beginning of a phase, then the tripod is ready to use its
    heat-ray projectors once again." A heat-ray chosen right after firing has no effect;
    the one after works."""
    plans = [tplan(*STILL_PLAN, actions=[ray(), ray(), ray()])]
    sit = ray_table("front", X0, 0.0, 90.0, plain(RAY_DECK, 1, 1, 1))
    sit["vehicles"][0] = tripod(plans=plans)
    state = planned(sit)
    hits: list[str | None] = []
    for phase in (1, 2, 3):
        land(state, "p", X0, FRONT_Y + 15.0, 90.0)
        state, events = next_phase(state)
        shots = of(events, HeatRay)
        hits.append(shots[0].target if shots else "no heat-ray")
        if phase == 2:
            assert drawn(events, "p") == []
    assert hits == ["p", "no heat-ray", "p"]
    # a recovery token already on the console at the start of the turn
    cooling = ray_table("front", X0, FRONT_Y + 15.0, 90.0, cooling=1)
    state, events = run(cooling, phases=1)
    assert of(events, HeatRay) == []
    assert state.vehicles["p"].damage == 0


def test_heat_ray_without_energy_does_not_fire() -> None:
    """000 HEAT-RAY FIRE: "If the tripod that planned the firing card has no Energy, it does
    not fire"."""
    sit = {**ray_table("front", X0, FRONT_Y + 15.0, 90.0, energy=0), "switches": AT_PLANNING}
    state, events = run(sit, phases=1)
    assert of(events, HeatRay) == []
    assert [e.token for e in of(events, ActionWasted)] == ["heat_ray"]
    assert drawn(events, "p") == []
    assert state.vehicles["p"].damage == 0


def test_heat_ray_ruler_placed_most_favourably() -> None:
    """000 FIRING TRIPODS: "place the ruler either at a right angle against the appropriate
    side of the tripod's base, or tilted using the clipped corner of the ruler. (The player
    may choose freely how to position the ruler, checking its most favorable
    orientation)." A plane only the tilted ruler reaches is hit."""
    start = (X0 - RAY.width / 2.0, FRONT_Y)
    heading = 90.0 + RAY.tilt
    rad = math.radians(heading)
    x, y = start[0] + 12.0 * math.cos(rad), start[1] + 12.0 * math.sin(rad)
    base = rectangle(Pose(x, y, heading), CONST.airplane_base.length, CONST.airplane_base.width)
    square = RulerSpec(RAY.length, RAY.half, RAY.width, 0.0)
    assert best_shot(HOME, HEX, Side.FRONT, square, base) is None  # no right-angle reach
    state, events = run(ray_table("front", x, y, heading), phases=1)
    (shot,) = of(events, HeatRay)
    assert shot.target == "p"
    assert shot.tilt is not None and abs(shot.tilt) == pytest.approx(RAY.tilt)
    assert state.vehicles["p"].damage == 2


def test_heat_ray_line_of_sight_blocked_by_a_base() -> None:
    """000 LINE OF SIGHT: "A weapon using a ruler (airplane weaponry, and heat-ray) may not
    fire through other vehicles, enemy or friendly. If it is not possible to reach any
    point of a target base without the edge of the ruler crossing another base, then the
    line of sight of the firing vehicle is blocked". A friendly tripod stands between."""
    x, y = X0, FRONT_Y + 20.0 + HALF_L
    clear = ray_table("front", x, y, 90.0)
    _, events = run(clear, phases=1)
    assert [e.target for e in of(events, HeatRay)] == ["p"]
    blocked = ray_table("front", x, y, 90.0)
    blocked["vehicles"].append(tripod("u", X0, FRONT_Y + 10.0))
    state, events = run(blocked, phases=1)
    (shot,) = of(events, HeatRay)
    assert (shot.firer, shot.target) == ("t", None)
    assert state.vehicles["p"].damage == 0


# --- the electrified armour ---------------------------------------------------------------------


def fired_at(
    where: str, stack: list[str], *, distance: float = 20.0, **extra: Any
) -> tuple[GameState, list[Event]]:
    """Airplane "p" fires once (phase 1) at the Mk I from ``distance`` cm in front of its
    front side ("front", protected) or behind its rear side ("rear", unprotected)."""
    if where == "front":
        p = arriving("p", X0, FRONT_Y + distance, 270.0, fire=("auto", "none", "none"))
    else:
        p = arriving("p", X0, REAR_Y - distance, 90.0, fire=("auto", "none", "none"))
    sit = situation(tripod(**extra), p, damage_decks={PLANE_DECK: stack})
    return run(sit, phases=1)


@pytest.mark.parametrize(
    ("card", "lost"),
    [
        (plain(PLANE_DECK, 3)[0], 0),
        (energy_card(PLANE_DECK, 2), 1),
        (bare_explosion(PLANE_DECK), MK1.energy),
    ],
    ids=["plain", "energy-icon", "explosion"],
)
def test_protected_side_reveals_cards_and_ignores_damage(card: str, lost: int) -> None:
    """000 TRIPODS PROTECTION: "When a tripod is hit across a side protected by its
    electrified armour, and the tripod has at least 1 Energy in its reserve, all damage
    cards drawn by the Tripod player are immediately revealed and the following is applied:
    The red damage value is ignored; If the card shows an Energy icon, the Tripod must
    discard 1 Energy; If the card is an explosion, the tripod must discard an amount of
    Energy equal to its original Energy rating." ... "All revealed cards are shuffled back
    into their deck after all their effects have been applied." """
    assert "front" in MK1.protected
    state, events = fired_at("front", [card])
    ((_, _, shot),) = phases_of(events, Fired)
    assert (shot.firer, shot.target) == ("p", "t")
    (hit,) = of(events, ProtectedHit)
    assert (hit.vehicle, hit.firer, hit.deck, hit.cards) == ("t", "p", PLANE_DECK, (card,))
    assert hit.energy_lost == lost
    assert drawn(events, "t") == [] and of(events, Explosion) == []
    assert state.vehicles["t"].damage == 0 and state.vehicles["t"].in_play
    assert energy(state) == MK1.energy - lost
    assert state.vehicles["t"].held == []
    assert len(state.piles[PLANE_DECK]) == len(composition(PLANE_DECK))
    # revealed: the Earthlings see the cards too
    (seen,) = of(visible_events(events, side_seat(state, "earth")), ProtectedHit)
    assert seen.cards == (card,)


def test_unprotected_side_takes_damage_normally() -> None:
    """000 TRIPODS PROTECTION: "When a plane is firing at a tripod, the earthling player
    checks with the ruler if he can reach its base without crossing the orange line. If he
    can, then the tripod is hit on an unprotected side" / "If a tripod is hit across an
    unprotected side ... it takes damage normally." """
    assert "rear" not in MK1.protected
    stack = [energy_card(PLANE_DECK, 2)]
    state, events = fired_at("rear", stack)
    assert of(events, ProtectedHit) == []
    (hit,) = drawn(events, "t")
    assert (hit.cards, hit.points) == (tuple(stack), 2)
    assert state.vehicles["t"].damage == 2
    assert energy(state) == MK1.energy  # the Energy icon only counts on the armour


def test_tripod_at_zero_energy_takes_damage_normally() -> None:
    """000 TRIPODS PROTECTION: "If a tripod is hit across an unprotected side, while laying
    down, or at 0 Energy, it takes damage normally." Hit on its protected front."""
    state, events = fired_at("front", plain(PLANE_DECK, 3), energy=0)
    assert of(events, ProtectedHit) == []
    (hit,) = drawn(events, "t")
    assert hit.points == 3
    assert state.vehicles["t"].damage == 3


def test_toppled_tripod_is_unprotected() -> None:
    """000 TOPPLED TRIPODS: "A toppled tripod is considered to be at zero Energy for the
    purpose of damaging it (see Tripods' Protection)." TRIPODS PROTECTION: "A toppled
    tripod is considered at 0 Energy, and thus unprotected from shots fired from any
    side." Hit on its protected front with its Energy full."""
    state, events = fired_at("front", plain(PLANE_DECK, 3), toppled=2, plans=[tplan(STANDS[0])])
    assert toppled(state) == 1
    assert of(events, ProtectedHit) == []
    (hit,) = drawn(events, "t")
    assert hit.points == 3
    assert state.vehicles["t"].damage == 3
    assert energy(state) == MK1.energy


def test_jam_card_on_protected_hit_still_jams_the_firer() -> None:
    """000 TRIPODS PROTECTION: "Jammed guns icon cards are resolved normally." """
    card = jam_card(PLANE_DECK, 0)
    state, events = fired_at("front", [card])
    (hit,) = of(events, ProtectedHit)
    assert hit.cards == (card,)
    (jam,) = of(events, Jammed)
    assert (jam.firer, jam.weapon, jam.card) == ("p", "front", card)
    assert state.vehicles["p"].jams == {"front": CONST.jam_maneuvers}


# --- overlaps -----------------------------------------------------------------------------------


def collision(stack: list[str] | None = None) -> Json:
    """Tripods "t1" and "t2" walking into each other in phase 1, then standing still."""
    plans = [tplan(STEPS[0], *STANDS)]
    gap = 2.0 * stride(STEPS[0]) + 0.5  # after their strides the centres are 0.5 cm apart
    return situation(
        tripod("t1", X0, Y0, 90.0, plans=plans),
        tripod("t2", X0, Y0 + gap, 270.0, plans=plans),
        damage_decks={"A": stack} if stack else None,
    )


def test_overlapping_tripods_put_back_and_draw_an_a_card() -> None:
    """000 OVERLAPPING TRIPODS: "If two tripods overlap each other even partially, they are
    put back where they were before moving and stand still with the facing they had. Draw
    an A damage card for each of them: if it is a 0 nothing happens, if it bears a number
    or an explosion icon the damage is ignored but the tripod topples ... Each used A
    damage card is shuffled back into its deck." """
    sit = collision()
    state, events = run(sit, phases=1)
    starts = {v["id"]: Pose(**v["pose"]) for v in sit["vehicles"]}
    puts = of(events, PutBack)
    assert sorted(e.vehicle for e in puts) == ["t1", "t2"]
    for put in puts:
        assert close(put.pose, starts[put.vehicle])
        assert close(state.vehicles[put.vehicle].pose, starts[put.vehicle])
        value, boom = value_of("A", put.card)
        assert put.toppled == (value > 0 or boom)
        assert (toppled(state, put.vehicle) == 2) == put.toppled
        assert state.vehicles[put.vehicle].damage == 0
    assert sorted(e.vehicle for e in of(events, Toppled)) == sorted(
        e.vehicle for e in puts if e.toppled
    )
    assert len(state.piles["A"]) == len(composition("A"))


def test_overlapping_tripods_stacked_zero_stays_up_other_topples() -> None:
    """000 OVERLAPPING TRIPODS: "Draw an A damage card for each of them: if it is a 0
    nothing happens, if it bears a number or an explosion icon the damage is ignored but
    the tripod topples" ... "Each used A damage card is shuffled back into its deck." With
    the A deck stacked 2, 0 the two tripods draw those two cards: one topples, one stays
    up."""
    stack = [*plain("A", 2), *plain("A", 0)]
    state, events = run(collision(stack), phases=1)
    puts = of(events, PutBack)
    assert sorted(e.card for e in puts) == sorted(stack)
    (fallen,) = [e.vehicle for e in puts if e.toppled]
    (up,) = [e.vehicle for e in puts if not e.toppled]
    assert {e.vehicle: e.card for e in puts}[fallen] == stack[0]
    assert toppled(state, fallen) == 2 and toppled(state, up) == 0


def test_tripod_walking_into_a_standing_tripod_both_draw() -> None:
    """000 OVERLAPPING TRIPODS: "If two tripods overlap each other even partially, they are
    put back where they were before moving and stand still with the facing they had. Draw
    an A damage card for each of them". Here only one of the two moved."""
    gap = stride(STEPS[0]) + APOTHEM  # the walker ends well inside the other base
    sit = situation(
        tripod("t1", X0, Y0, 90.0, plans=[tplan(STEPS[0], *STANDS)]),
        tripod("t2", X0, Y0 + gap, 270.0),
        damage_decks={"A": plain("A", 0, 0)},
    )
    state, events = run(sit, phases=1)
    assert close(state.vehicles["t1"].pose, HOME)
    assert sorted(e.vehicle for e in of(events, PutBack)) == ["t1", "t2"]


@pytest.mark.parametrize("value", [0, 3])
def test_moving_tripod_onto_toppled_tripod(value: int) -> None:
    """000 TOPPLED TRIPODS: "If a moving tripod overlaps a toppled tripod, the latter draws
    an [A] card. If the card is not a 0, the toppled tripod restores the number of its
    reminder tokens in the "toppled" box to two and discards any planned card." """
    gap = stride(STEPS[0]) + APOTHEM
    sit = situation(
        tripod("t1", X0, Y0, 90.0, plans=[tplan(STEPS[0], *STANDS)]),
        tripod("t2", X0, Y0 + gap, 270.0, toppled=2, plans=[tplan(STANDS[0])]),
        damage_decks={"A": plain("A", value)},
    )
    state, events = run(sit)
    (put,) = of(events, PutBack)
    assert (put.vehicle, put.card, put.toppled) == ("t2", plain("A", value)[0], value > 0)
    assert close(state.vehicles["t2"].pose, Pose(X0, Y0 + gap, 270.0))
    tokens = [(p, e.tokens) for _, p, e in phases_of(events, ToppledTokens) if e.vehicle == "t2"]
    if value:
        assert tokens == [(1, 1), (2, 1), (3, 0)]  # back to two after phase 1
        assert revealed_phases(events, "t2") == []  # its planned card was discarded
    else:
        assert tokens == [(1, 1), (2, 0)]
        assert revealed_phases(events, "t2") == [(1, 3, STANDS[0])]


def test_airplane_overlapping_tripod_neither_fires_at_the_other() -> None:
    """000 LINE OF SIGHT: "An airplane overlapping a tripod cannot fire at it nor be fired at
    by it." OVERLAPPING AIRPLANES: "Airplane bases can partially overlap each other or
    tripod's bases" (nothing is put back)."""
    plans = [tplan(*STILL_PLAN, actions=[ray(), None, None])]

    def table(centre: float) -> Json:
        return situation(
            tripod(plans=plans),
            arriving("p", X0, FRONT_Y + centre, 270.0, fire=("auto", "none", "none")),
        )

    apart = HALF_L + 1.0  # the nose 1 cm from the tripod's front side
    _, events = run(table(apart), phases=1)
    assert [e.target for e in of(events, HeatRay)] == ["p"]
    assert [(e.firer, e.target) for e in of(events, Fired)] == [("p", "t")]
    on_top = HALF_L - 1.0  # the nose 1 cm over the front side
    state, events = run(table(on_top), phases=1)
    (shot,) = of(events, HeatRay)
    assert shot.target is None
    assert of(events, Fired) == []
    assert of(events, PutBack) == [] and of(events, Toppled) == []
    assert close(state.vehicles["p"].pose, Pose(X0, FRONT_Y + on_top, 270.0))
    assert state.vehicles["p"].damage == state.vehicles["t"].damage == 0


# --- elimination, victory, what the consoles show -----------------------------------------------


def test_tripod_eliminated_at_resistance_and_victory() -> None:
    """000 DAMAGE: "When the total damage ... sustained by the vehicle equals or exceeds the
    resistance of the vehicle ..., the vehicle is eliminated." VICTORY: "the winner is the
    player (or team) with vehicles still in the playing area when all the enemy vehicles
    exit it or are eliminated." """
    stack = plain(PLANE_DECK, 1, 1)
    state, events = fired_at("rear", stack, distance=10.0, damage=MK1.damage - 2)
    (hit,) = drawn(events, "t")
    assert (hit.points, hit.total) == (2, MK1.damage)
    (gone,) = of(events, Eliminated)
    assert (gone.vehicle, gone.reason) == ("t", "shot_down")
    (over,) = of(events, GameOver)
    assert over.winner == "earth" and state.over
    # another tripod still standing: the game goes on
    p = arriving("p", X0, REAR_Y - 10.0, 90.0, fire=("auto", "none", "none"))
    sit = situation(
        tripod(damage=MK1.damage - 2), tripod("u", 80.0, 80.0), p, damage_decks={PLANE_DECK: stack}
    )
    state, events = run(sit, phases=1)
    assert [e.vehicle for e in of(events, Eliminated)] == ["t"]
    assert of(events, GameOver) == [] and not state.over


def test_tripod_console_public_damage_secret() -> None:
    """000: the Energy tokens, the "toppled" box and the recovery tokens are on the open
    Tripod console; DAMAGE: "The player looks secretly at the damage cards drawn and keeps
    them all together, facedown" / SPECIAL DAMAGE ETIQUETTE: "the player should keep secret
    the amount of damage points on the card(s)." """
    plans = [tplan(*STILL_PLAN, actions=[ray("front-right"), None, None])]
    p = arriving("p", X0, REAR_Y - 10.0, 90.0, fire=("auto", "none", "none"))
    sit = situation(
        tripod(plans=plans),
        tripod("u", 80.0, 80.0, toppled=2, plans=[tplan(STANDS[0])]),
        p,
        damage_decks={PLANE_DECK: plain(PLANE_DECK, 1, 2)},
    )
    state, events = run(sit, phases=1)
    earth = side_seat(state, "earth")
    views = {v["id"]: v for v in observe(state, earth)["vehicles"]}
    t, u = views["t"], views["u"]
    assert (t["energy"], t["energy_rating"], t["toppled"], t["cooling"]) == (
        MK1.energy - 1,
        MK1.energy,
        0,
        1,
    )
    assert u["toppled"] == 1
    assert "damage" not in t and "damage_cards" not in t
    mine = {v["id"]: v for v in observe(state, side_seat(state, "martians"))["vehicles"]}
    assert mine["t"]["damage"] == 3
    seen = visible_events(events, earth)
    assert drawn(seen, "t") == []
    (taken,) = [e for e in of(seen, DamageCardsTaken) if e.vehicle == "t"]
    assert taken.count == 2
    assert [e.vehicle for e in of(seen, EnergyChanged)] == ["t"]


# --- action tokens chosen at the start of a phase ---------------------------------------------


@pytest.mark.parametrize(
    "token",
    [{"token": "change_facing", "sides": MK1.facing_limit + 1}, ray("rear")],
    ids=["facing-beyond-limit", "no-projector"],
)
def test_phase_start_tokens_obey_the_tripod_card(token: Json) -> None:
    """000 TRIPOD ACTIONS: "At the start of each Movement step, all Tripod players may
    choose an Action token". CHANGE FACING: "turning sideways up to a maximum of sides, as
    shown on its Change facing action token, or on the tripod reference card." HEAT-RAY
    FIRE: the Mk I is "capable of firing with three frontal heat-ray projectors". A token
    chosen at the start of the phase is either refused or has no such effect."""
    behind = arriving("p", X0, REAR_Y - 10.0 - HALF_L, 270.0)
    state = planned(situation(tripod(), behind))
    try:
        state, events = next_phase(state, actions={"t": Action.model_validate(token)})
    except IllegalPlanError:
        return
    turn = (state.vehicles["t"].pose.heading - 90.0 + 180.0) % 360.0 - 180.0
    assert abs(turn) <= 60.0 * MK1.facing_limit + 1e-9
    assert of(events, HeatRay) == []
    assert state.vehicles["p"].damage == 0

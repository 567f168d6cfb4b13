"""The turn's boundaries: planning (000: PLANNING) and the end of the turn (REMINDERS)."""

from __future__ import annotations

from collections.abc import Mapping

from dogfight.catalog.models import (
    Symbol,
)
from dogfight.errors import IllegalPlanError
from dogfight.rules import bombs, scenario, standard, tailing, tripods, ww2
from dogfight.rules.clocks import LATER_PLANNING_RULE, ONE_PHASE, earthling_turn
from dogfight.rules.events import (
    EarthlingTurnStarted,
    Event,
    Reminder,
    TurnStarted,
)
from dogfight.rules.field_use import PLAN_FIELDS, kind_of, refuse_unused
from dogfight.rules.plans import AUTO, HOLD, Plan, check_plan_shape
from dogfight.rules.state import BY_ID, GameState, Vehicle
from dogfight.words.terms import plural

_EVERY_SYMBOL = frozenset(Symbol)
_LEVEL_SYMBOLS = _EVERY_SYMBOL - {Symbol.CLIMB, Symbol.DIVE}


def allowed_symbols(state: GameState) -> set[Symbol]:
    """The maneuver symbols the ruleset plays: climbs and dives only with altitude cards.
    (Taken from two sets made once: iterating the enum costs more than a phase's
    moves.)"""
    return set(_symbols_in_play(state))


def _symbols_in_play(state: GameState) -> frozenset[Symbol]:
    """:func:`allowed_symbols` as the shared frozen set, not a copy (hashing the enum's
    members into a new set costs a Python call each): for readers only."""
    return _EVERY_SYMBOL if state.rules.switches.altitude_cards else _LEVEL_SYMBOLS


def start_turn(state: GameState, plans: Mapping[str, Plan]) -> tuple[GameState, list[Event]]:
    """Record the plans of a planning phase (000: PLANNING; 001: "PLANNING").

    Before a turn every vehicle in play needs a plan: three cards on 000's turn, one card
    and a speed marker for a WW2 airplane's Earthling turn. Before the second and third
    action phases of a Martian turn only the WW2 airplanes plan (their next Earthling
    turn); a plan for anything else is refused. Plans for unknown or eliminated vehicles,
    or plans that can never be flown, are refused with :class:`IllegalPlanError` and the
    state is left as it was (:func:`check_plans` says which).
    """
    placed = check_plans(state, plans)
    new = state.copy()
    earthling = False
    for vid, plan in placed.items():
        vehicle = new.vehicles[vid]
        vehicle.plan = plan
        if vehicle.clock == ONE_PHASE:
            earthling = True
    events: list[Event] = [TurnStarted(new.turn)] if state.phase == 0 else []
    if earthling:
        events.append(EarthlingTurnStarted(earthling_turn(new.turn, new.phase + 1)))
    return new, events


def check_plans(
    state: GameState, plans: Mapping[str, Plan], alone: bool = False
) -> dict[str, Plan]:
    """Every check of :func:`start_turn`, in its order, on ``state`` (nothing is changed
    or copied): :class:`IllegalPlanError` for the first plan refused (an
    :class:`~dogfight.errors.UnusedFieldError` for a field its vehicle does not read,
    ``rules/field_use.py``), else the plan each vehicle holds once they are down (a WW2
    airplane's Earthling turn merged into its Martian turn so far, the others' as given).

    ``alone``: ``plans`` are some vehicles' only (a seat's, checked before the other
    seats' are in), and are checked as if every other vehicle were set aside: none is
    missing, and none of the checks of a vehicle's plan reads another vehicle's being in
    play (a fire target is checked by its side alone).
    """
    if state.over:
        raise IllegalPlanError("the game is over")
    due = state.planning_due()
    if alone:
        due = [vid for vid in due if vid in plans]
    if state.phase != 0 and not due:
        raise IllegalPlanError(f"turn {state.turn} is already planned (phase {state.phase})")
    for vid in plans:
        if vid not in state.vehicles:
            raise IllegalPlanError(f"no vehicle {vid!r}; vehicles: {', '.join(state.vehicles)}")
        if not state.vehicles[vid].in_play:
            raise IllegalPlanError(f"{vid} is out of the game and cannot plan")
        if vid not in due:
            raise IllegalPlanError(
                f"{vid}: does not plan cards in planning phase {state.phase + 1} of turn "
                f"{state.turn}; {LATER_PLANNING_RULE}"
            )
    missing = [vid for vid in due if vid not in plans]
    if missing:
        raise IllegalPlanError(f"missing plans for: {', '.join(missing)}")
    symbols = _symbols_in_play(state)
    rules = state.rules
    placed: dict[str, Plan] = {}
    for vid, plan in plans.items():
        vehicle = state.vehicles[vid]
        refuse_unused(PLAN_FIELDS, kind_of(vehicle, rules), vid, plan)
        if vehicle.clock == ONE_PHASE:
            card, speed = ww2.check_plan(state, vehicle, plan, symbols)
            _check_targets(state, vid, plan)
            placed[vid] = ww2.merge(state, vehicle, plan, card.id, speed)
            continue
        if vehicle.tripod is not None:
            standard.check_tripod_plan(
                state, vehicle, tripods.check_tripod_plan(state, vehicle, plan)
            )
            placed[vid] = plan
            continue
        kind = vehicle.type
        cards = check_plan_shape(
            vid, plan, rules.deck_of(kind), symbols, by_id=rules.maneuver_cards(kind)
        )
        if vehicle.status:  # only lasting damage restricts a plan: most airplanes have none
            standard.check_airplane_plan(state, vehicle, cards)
        check_rockets(state, vehicle, plan)
        bombs.check_drops(state, vehicle, plan, cards)
        _check_targets(state, vid, plan)
        placed[vid] = plan
    return placed


_OPEN_CHOICES = frozenset((AUTO, HOLD))
"""Fire choices that name no target."""


def _check_targets(state: GameState, vid: str, plan: Plan) -> None:
    if _OPEN_CHOICES.issuperset(plan.fire) and _OPEN_CHOICES.issuperset(plan.rear_fire):
        return  # no target named (most plans): nothing to look up
    side = state.vehicles[vid].side
    for choice in (*plan.fire, *plan.rear_fire):
        if choice in (AUTO, HOLD):
            continue
        target = state.vehicles.get(choice)
        if target is None or target.side == side:
            raise IllegalPlanError(
                f"{vid}: fire choice {choice!r} must be 'auto', 'none' or an enemy vehicle id"
            )


def check_rockets(state: GameState, vehicle: Vehicle, plan: Plan) -> None:
    """Rockets are a Standard Rules weapon; an airplane launches only the counters it has
    (000: "spend one or two Rocket counters")."""
    if not any(plan.rockets):
        return
    if len(plan.rockets) != 3 or any(n not in (0, 1, 2) for n in plan.rockets):
        raise IllegalPlanError(f"{vehicle.id}: 'rockets' gives 0, 1 or 2 for each of 3 phases")
    if not state.rules.switches.standard_rules:
        raise IllegalPlanError(
            f"{vehicle.id}: rockets belong to the Standard Rules (switch standard_rules)"
        )
    if sum(plan.rockets) > vehicle.rockets:
        raise IllegalPlanError(
            f"{vehicle.id}: plans {plural(sum(plan.rockets), 'rocket')} with {vehicle.rockets} left"
        )
    for phase, count in enumerate(plan.rockets, start=1):
        if count and plan.fire[phase - 1] == HOLD:
            raise IllegalPlanError(f"{vehicle.id}: phase {phase} launches rockets but holds fire")


def end_turn(state: GameState, events: list[Event]) -> None:
    """000's REMINDERS, then the cards go back: a new planning phase."""
    counters = {
        Symbol.STEEP: "steep",
        Symbol.STALL: "steep",
        Symbol.IMMELMANN: "immelmann",
        Symbol.STRAIGHT: "straight",
    }
    for vehicle in sorted(state.in_play(), key=BY_ID):
        if vehicle.tripod is not None:
            tripods.end_of_turn(vehicle, events)
            continue
        previous = vehicle.previous
        if previous is not None:
            counter = "steep" if previous.steep else counters.get(previous.symbol)
            if counter is not None:
                events.append(Reminder(vehicle.id, counter))
    for vehicle in state.vehicles.values():
        vehicle.plan = None
    standard.end_of_turn(state, 3)
    tailing.end_of_turn(state)
    state.turn += 1
    state.phase = 0
    scenario.reinforce(state, events)

"""The turn's boundaries: planning (000: PLANNING) and the end of the turn (REMINDERS)."""

from __future__ import annotations

from collections.abc import Mapping

from dogfight.catalog.models import (
    Symbol,
)
from dogfight.errors import IllegalPlanError
from dogfight.rules import bombs, scenario, standard, tailing, tripods
from dogfight.rules.events import (
    Event,
    Reminder,
    TurnStarted,
)
from dogfight.rules.plans import AUTO, HOLD, Plan, check_plan_shape
from dogfight.rules.state import GameState, Vehicle


def allowed_symbols(state: GameState) -> set[Symbol]:
    symbols = set(Symbol)
    if not state.rules.switches.altitude_cards:
        symbols -= {Symbol.CLIMB, Symbol.DIVE}
    return symbols


def start_turn(state: GameState, plans: Mapping[str, Plan]) -> tuple[GameState, list[Event]]:
    """Record every airplane's plan for the coming turn (000: PLANNING).

    Every airplane in play needs a plan; plans for unknown or eliminated vehicles, or
    plans that can never be flown, are refused with :class:`IllegalPlanError` and the
    state is left as it was.
    """
    if state.over:
        raise IllegalPlanError("the game is over")
    if state.phase != 0:
        raise IllegalPlanError(f"turn {state.turn} is already planned (phase {state.phase})")
    for vid in plans:
        if vid not in state.vehicles:
            raise IllegalPlanError(f"no vehicle {vid!r}; vehicles: {', '.join(state.vehicles)}")
        if not state.vehicles[vid].in_play:
            raise IllegalPlanError(f"{vid} is out of the game and cannot plan")
    missing = [v.id for v in state.in_play() if v.id not in plans]
    if missing:
        raise IllegalPlanError(f"missing plans for: {', '.join(missing)}")
    symbols = allowed_symbols(state)
    new = state.copy()
    for vid, plan in plans.items():
        vehicle = new.vehicles[vid]
        if vehicle.tripod is not None:
            standard.check_tripod_plan(new, vehicle, tripods.check_tripod_plan(new, vehicle, plan))
            vehicle.plan = plan
            continue
        cards = check_plan_shape(vid, plan, state.rules.deck_of(vehicle.type), symbols)
        standard.check_airplane_plan(new, vehicle, cards)
        check_rockets(new, vehicle, plan)
        bombs.check_drops(new, vehicle, plan, cards)
        for choice in (*plan.fire, *plan.rear_fire):
            if choice in (AUTO, HOLD):
                continue
            target = state.vehicles.get(choice)
            if target is None or target.side == vehicle.side:
                raise IllegalPlanError(
                    f"{vid}: fire choice {choice!r} must be 'auto', 'none' or an enemy vehicle id"
                )
        vehicle.plan = plan
    return new, [TurnStarted(new.turn)]


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
            f"{vehicle.id}: plans {sum(plan.rockets)} rocket(s) with {vehicle.rockets} left"
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
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
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
    standard.end_of_turn(state)
    tailing.end_of_turn(state)
    state.turn += 1
    state.phase = 0
    scenario.reinforce(state, events)

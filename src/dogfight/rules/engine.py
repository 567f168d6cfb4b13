"""The phase resolver: plans in, a new state and typed events out.

Order of one action phase (000, "THE GAME TURN"): reveal the cards, move every vehicle
simultaneously, remove vehicles whose centre left the area, then the firing step, whose
damage is all applied together at its end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from dogfight.catalog.models import (
    AutoTarget,
    ManeuverCard,
    Special,
    Symbol,
    TripodCard,
)
from dogfight.catalog.models import (
    Explosion as ExplosionRule,
)
from dogfight.catalog.models import (
    IllegalManeuver as IllegalRule,
)
from dogfight.errors import IllegalPlanError
from dogfight.geometry.hexbase import Side
from dogfight.geometry.maneuver import apply_card
from dogfight.rules import firing, tripods
from dogfight.rules.decks import draw, return_cards, shuffled
from dogfight.rules.events import (
    CardRevealed,
    DamageDrawn,
    Eliminated,
    Event,
    Explosion,
    Fired,
    GameOver,
    HeatRay,
    HeldFire,
    IllegalManeuver,
    JamCounterDiscarded,
    Jammed,
    LeftArea,
    Moved,
    PhaseStarted,
    Reminder,
    Revealed,
    TurnStarted,
)
from dogfight.rules.plans import AUTO, HOLD, Action, Flown, Plan, card_problem, check_plan_shape
from dogfight.rules.state import GameState, Vehicle

SHOT_DOWN = ("shot_down", "exploded", "out_of_control")


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
            tripods.check_tripod_plan(new, vehicle, plan)
            vehicle.plan = plan
            continue
        check_plan_shape(vid, plan, state.rules.deck_of(vehicle.type), symbols)
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


def _eliminate(
    state: GameState, vehicle: Vehicle, reason: str, rng: np.random.Generator, events: list[Event]
) -> None:
    vehicle.eliminated = reason
    events.append(Eliminated(vehicle.id, reason))
    return_cards(state, vehicle, rng, events)


def _damage(
    state: GameState,
    target: Vehicle,
    deck: str,
    count: int,
    aimed: bool,
    source: str,
    rng: np.random.Generator,
    events: list[Event],
) -> tuple[list[str], bool]:
    """Draw ``count`` cards for ``target``; add their points (aim: +1 on each non-zero
    card). Returns the cards and whether an explosion eliminates it outright."""
    cards = [draw(state, deck, rng, events) for _ in range(count)]
    return cards, _apply_cards(state, target, deck, cards, aimed, source, events)


def _apply_cards(
    state: GameState,
    target: Vehicle,
    deck: str,
    cards: list[str],
    aimed: bool,
    source: str,
    events: list[Event],
) -> bool:
    """Add drawn cards' points to ``target``; True when an explosion eliminates it."""
    specs = {c.id: c for c in state.rules.catalog.damage_decks[deck].cards}
    points = 0
    exploded = False
    for card_id in cards:
        spec = specs[card_id]
        if spec.explosion:
            events.append(Explosion(target.id, card_id))
            if state.rules.switches.explosion is ExplosionRule.ELIMINATED:
                exploded = True
            else:
                points += math.ceil(target.resistance / 2)
        elif spec.value > 0:
            points += spec.value + (1 if aimed else 0)
    target.damage += points
    target.held.extend((deck, c) for c in cards)
    events.append(DamageDrawn(target.id, deck, tuple(cards), points, target.damage, source))
    return exploded


def _reveal(
    state: GameState, vehicle: Vehicle, phase: int, rng: np.random.Generator, events: list[Event]
) -> ManeuverCard | None:
    """Reveal this phase's card; apply the ruleset's illegal-maneuver rule. Returns the
    card to fly, or None when the vehicle is eliminated."""
    assert vehicle.plan is not None
    deck = state.rules.deck_of(vehicle.type)
    card = deck.card(vehicle.plan.cards[phase - 1])
    events.append(Revealed(vehicle.id, phase, card.id, card.symbol.value, card.is_steep))
    problem = card_problem(vehicle.previous, card)
    if problem is None:
        return card
    switches = state.rules.switches
    rule = switches.illegal_maneuver
    if rule is IllegalRule.ELIMINATED:
        events.append(
            IllegalManeuver(
                vehicle.id,
                card.id,
                problem.rule,
                "eliminated",
                None,
                problem.text + ' / 002: "when revealed, plane is eliminated immediately"',
            )
        )
        _eliminate(state, vehicle, "out_of_control", rng, events)
        return None
    straight = deck.card(deck.straight)
    if rule is IllegalRule.STRAIGHT:
        events.append(
            IllegalManeuver(
                vehicle.id,
                card.id,
                problem.rule,
                "flown as a straight",
                straight.id,
                problem.text + ' / 003: "任何不可执行的动作即作直线飞行论"',
            )
        )
        return straight
    events.append(
        IllegalManeuver(
            vehicle.id,
            card.id,
            problem.rule,
            "flown as a straight, one damage card",
            straight.id,
            problem.text + ' / 000: "he must replace the illegal card with a straight card and '
            'take an [A] damage card"',
        )
    )
    _, exploded = _damage(
        state, vehicle, switches.illegal_damage_deck, 1, False, "illegal maneuver", rng, events
    )
    if exploded:
        _eliminate(state, vehicle, "exploded", rng, events)
        return None
    if vehicle.damage >= vehicle.resistance:
        _eliminate(state, vehicle, "out_of_control", rng, events)
        return None
    return straight


def _outside(state: GameState, vehicle: Vehicle) -> bool:
    """000: "the center of its base is even partly outside of the playing area"; the dot is
    a point, so on the edge is still inside."""
    x, y = vehicle.pose.x, vehicle.pose.y
    return x < 0 or y < 0 or x > state.rules.table_width or y > state.rules.table_height


def _choose(
    state: GameState,
    table: firing.Table,
    vehicle: Vehicle,
    weapon: str,
    phase: int,
    opts: list[firing.Option],
    events: list[Event],
) -> firing.Option | None:
    assert vehicle.plan is not None
    choice = vehicle.plan.choice(weapon, phase)
    if choice == HOLD:
        if opts:
            events.append(HeldFire(vehicle.id, weapon, "holds fire"))
        return None
    if choice == AUTO:
        if state.rules.switches.auto_target is AutoTarget.NONE:
            return None
        return opts[0] if opts else None
    for option in opts:
        if option.target == choice:
            return option
    reason = firing.why_not(state, table, vehicle, weapon, state.vehicles[choice])
    events.append(HeldFire(vehicle.id, weapon, f"chosen target {choice} {reason}"))
    return None


def resolve_phase(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
) -> tuple[GameState, list[Event]]:
    """Resolve the next action phase of a planned turn.

    ``actions`` are the tripods' action tokens for this phase, chosen in the open at the
    start of the movement step; when None, those written in the plans are used.
    """
    if state.over:
        raise IllegalPlanError("the game is over")
    if state.phase == 0 and any(v.plan is None for v in state.in_play()):
        raise IllegalPlanError(f"turn {state.turn} has not been planned")
    new = state.copy()
    new.phase += 1
    new.phases_played += 1
    phase, number = new.phase, new.phases_played
    events: list[Event] = [PhaseStarted(new.turn, phase)]
    rules = new.rules
    movers = sorted(new.in_play(), key=lambda v: v.id)
    chosen: dict[str, Action | None] = {
        v.id: (v.plan.actions[phase - 1] if v.plan is not None else None)
        for v in movers
        if v.tripod is not None
    }
    if actions is not None:
        chosen.update(actions)
    acts = tripods.start_of_phase(new, phase, chosen, events)

    flown: dict[str, ManeuverCard] = {}
    walked: dict[str, TripodCard] = {}
    for vehicle in movers:
        if vehicle.tripod is not None:
            tripod_card = tripods.reveal(new, vehicle, phase, events)
            if tripod_card is not None:
                walked[vehicle.id] = tripod_card
            continue
        card = _reveal(new, vehicle, phase, rng, events)
        if card is not None:
            flown[vehicle.id] = card

    starts = {v.id: v.pose for v in movers}
    for vehicle in movers:
        if vehicle.id in walked and vehicle.in_play:
            tripods.move(new, vehicle, walked[vehicle.id], events)
    moved = {vid for vid, card in walked.items() if card.moves}
    tripods.resolve_overlaps(new, starts, moved, rng, events)
    tripods.change_facing(new, acts.facing, events)

    silenced: set[tuple[str, str]] = set()
    for vehicle in movers:
        card = flown.get(vehicle.id)
        if card is None or not vehicle.in_play:
            continue
        start = vehicle.pose
        vehicle.pose = apply_card(start, card, rules.base_length)
        vehicle.previous = Flown(card.symbol, card.is_steep)
        events.append(Moved(vehicle.id, card.id, start, vehicle.pose))
        for weapon in sorted(vehicle.jams):
            if vehicle.jams[weapon] > 0:
                vehicle.jams[weapon] -= 1
                silenced.add((vehicle.id, weapon))
                events.append(JamCounterDiscarded(vehicle.id, weapon, vehicle.jams[weapon]))
        vehicle.jams = {w: n for w, n in vehicle.jams.items() if n > 0}

    for vehicle in movers:
        if vehicle.in_play and _outside(new, vehicle):
            events.append(LeftArea(vehicle.id, vehicle.pose))
            _eliminate(new, vehicle, "left_area", rng, events)

    _firing_step(new, phase, number, silenced, acts, rng, events)
    tripods.recharge(new, acts, events)
    _check_victory(new, events)
    if not new.over and phase == 3:
        _end_turn(new, events)
    return new, events


def _firing_step(
    state: GameState,
    phase: int,
    number: int,
    silenced: set[tuple[str, str]],
    acts: tripods.PhaseActions,
    rng: np.random.Generator,
    events: list[Event],
) -> None:
    """000: "All damage inflicted in the same firing step, regardless of its source, is
    resolved simultaneously, after all vehicles that wish to fire have done so.\""""
    table = firing.table_of(state)
    rays = _heat_rays(state, table, acts, events)
    shots: list[tuple[Vehicle, str, str, firing.Option, bool]] = []
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        for weapon, letter in state.rules.weapons(vehicle.type):
            if (vehicle.id, weapon) in silenced:
                vehicle.aim.pop(weapon, None)
                continue
            opts = firing.options(state, table, vehicle, weapon)
            option = _choose(state, table, vehicle, weapon, phase, opts, events)
            if option is None:
                vehicle.aim.pop(weapon, None)
                continue
            aimed = state.rules.switches.aim_bonus and vehicle.aim.get(weapon) == (
                option.target,
                number - 1,
            )
            vehicle.aim[weapon] = (option.target, number)
            shots.append((vehicle, weapon, letter, option, aimed))
            events.append(
                Fired(
                    vehicle.id,
                    weapon,
                    option.target,
                    "short" if option.short else "long",
                    option.sight.distance,
                    vehicle.pose.point,
                    option.sight.point or (0.0, 0.0),
                    2 if option.short else 1,
                    aimed,
                )
            )
    exploded: set[str] = set()
    for firer, weapon, letter, option, aimed in shots:
        target = state.vehicles[option.target]
        count = 2 if option.short else 1
        if option.protected:
            cards = [draw(state, letter, rng, events) for _ in range(count)]
            tripods.apply_protected_hit(state, target, firer.id, letter, cards, events)
            # 000: "All revealed cards are shuffled back into their deck after all their
            # effects have been applied."
            state.piles[letter].extend(cards)
            state.piles[letter][:] = shuffled(state.piles[letter], rng)
        else:
            cards, boom = _damage(
                state, target, letter, count, aimed, f"{firer.id} {weapon}", rng, events
            )
            if boom:
                exploded.add(target.id)
        deck = {c.id: c for c in state.rules.catalog.damage_decks[letter].cards}
        jams = [c for c in cards if Special.JAMMED in deck[c].specials]
        if jams:
            # 000: "If two jammed cards are drawn at the same time, jamming still lasts for
            # only three maneuvers."
            firer.jams[weapon] = state.rules.catalog.constants.jam_maneuvers
            events.append(Jammed(firer.id, weapon, jams[0], firer.jams[weapon]))
    for tripod, ray in rays:
        exploded |= _heat_ray_damage(state, tripod, ray, rng, events)
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        if vehicle.id in exploded:
            _eliminate(state, vehicle, "exploded", rng, events)
        elif vehicle.damage >= vehicle.resistance:
            _eliminate(state, vehicle, "shot_down", rng, events)


def _heat_rays(
    state: GameState, table: firing.Table, acts: tripods.PhaseActions, events: list[Event]
) -> list[tuple[Vehicle, tripods.RayOption]]:
    """Tripods that committed Energy to a heat-ray fire it (000: "Firing is mandatory.
    Discard the Energy token used to fire after checking for targets.")."""
    out: list[tuple[Vehicle, tripods.RayOption]] = []
    for vid, action in sorted(acts.heat_ray.items()):
        tripod = state.vehicles[vid]
        if not tripod.in_play or tripod.tripod is None or tripod.tripod.toppled:
            continue
        assert action.projector is not None
        opts = tripods.heat_ray_options(state, tripod, Side.parse(action.projector), table.overlap)
        pick = None
        if action.target == AUTO:
            pick = opts[0] if opts else None
        else:
            pick = next((o for o in opts if o.target == action.target), None)
        if pick is None:
            events.append(HeatRay(vid, action.projector, None, None, None, None, None, None))
        else:
            events.append(
                HeatRay(
                    vid,
                    action.projector,
                    pick.target,
                    "short" if pick.short else "long",
                    pick.distance,
                    pick.origin,
                    pick.point,
                    pick.tilt,
                )
            )
            out.append((tripod, pick))
        tripods.spend_fired(tripod, events)
    return out


def _heat_ray_damage(
    state: GameState,
    firer: Vehicle,
    option: tripods.RayOption,
    rng: np.random.Generator,
    events: list[Event],
) -> set[str]:
    """000: "short range ... draws and reveals 1 damage card ...: if it is a 0, the player
    draws a second card (this time, without revealing it to the opponent). ... long range
    ... draws 1 damage card"."""
    target = state.vehicles[option.target]
    letter = state.rules.tripod(firer.type).firepower
    specs = {c.id: c for c in state.rules.catalog.damage_decks[letter].cards}
    cards = [draw(state, letter, rng, events)]
    if option.short:
        first = specs[cards[0]]
        events.append(CardRevealed(target.id, letter, cards[0], first.value))
        if first.value == 0 and not first.explosion:
            cards.append(draw(state, letter, rng, events))
    boom = _apply_cards(state, target, letter, cards, False, f"{firer.id} heat-ray", events)
    return {target.id} if boom else set()


def scores(state: GameState) -> dict[str, int]:
    """002's match scoring for every side: +1 per enemy that left the area, +2 per enemy
    shot down, -1 per own airplane shot down."""
    out: dict[str, int] = {}
    for side in state.sides():
        total = 0
        for v in state.vehicles.values():
            if v.eliminated is None:
                continue
            if v.side != side:
                total += 1 if v.eliminated == "left_area" else 2
            elif v.eliminated in SHOT_DOWN:
                total -= 1
        out[side] = total
    return out


def _check_victory(state: GameState, events: list[Event]) -> None:
    """000: "the winner is the player (or team) with vehicles still in the playing area
    when all the enemy vehicles exit it or are eliminated." Both gone at once: a draw."""
    sides = state.sides()
    if len(sides) < 2:
        return
    left = sorted({v.side for v in state.in_play()})
    if len(left) <= 1:
        state.over = True
        state.winner = left[0] if left else None
        events.append(GameOver(state.winner, scores(state)))


def _end_turn(state: GameState, events: list[Event]) -> None:
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
    state.turn += 1
    state.phase = 0


def play_turn(
    state: GameState, plans: Mapping[str, Plan], rng_for: Callable[[int, int], np.random.Generator]
) -> tuple[GameState, list[Event]]:
    """Plan and resolve a whole turn; ``rng_for(turn, phase)`` gives each phase's generator."""
    state, events = start_turn(state, plans)
    while not state.over:
        state, more = resolve_phase(state, rng_for(state.turn, state.phase + 1))
        events.extend(more)
        if state.phase == 0:
            break
    return state, events

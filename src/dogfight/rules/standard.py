"""Special damage: the Standard Rules' (000, "SPECIAL DAMAGE ICONS AND EFFECTS"), and the
same mechanism read by 002's list and 003's engine damage (switch ``special_damage``,
:attr:`dogfight.rules.context.Rules.specials`).

- ``"000"``: the table at the end of 000 (with the Standard Rules);
- ``"002"``: 002's "Special Damages (Keep Secret Unless Noted)": rudder jammed left or
  right next turn, observer incapacitated (the crew icon: a two-seater loses its rear
  gun), engine damaged (a stall every turn, a second hit is an explosion), smoke trail
  (no tailing, 3 turns), on fire (a flame counter and an A card each turn, only damage and
  explosions count; smoke too); "Duplicates: only most recent counts"; all secret;
- ``"003"``: 003's only special besides jams and explosions, "两个齿轮" (engine damage:
  a steep maneuver every turn, a second hit and the airplane crashes).

Specials drawn in a firing step are applied together at its end, like the damage points.
Each vehicle's lasting effects are counters in ``Vehicle.status``:

- ``wounded``: wounds taken (a second one eliminates the vehicle);
- ``engine``: engine hits;
- ``smoke``: smoke counters left; ``fire``: flame counters left;
- ``rudder_left`` / ``rudder_right`` / ``gyroscope``: the turn they forbid;
- ``reverse_destroyed``, ``smoke_generator``: 1 once hit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.catalog.models import Direction, ManeuverCard, Special, Symbol, TripodCard
from dogfight.errors import IllegalPlanError
from dogfight.geometry.frozen import fast_init
from dogfight.rules import events as ev
from dogfight.rules.clocks import turn_begins, turn_ends, turn_of
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripod_harm import spend, topple

COUNTERS = 3
"""000: three smoke counters, three flame counters."""

AIRPLANE_ONLY = {Special.JAMMED, Special.RUDDER_LEFT, Special.RUDDER_RIGHT, Special.SMOKE}
TRIPOD_ONLY = {
    Special.CIRCUITS,
    Special.GYROSCOPE,
    Special.REVERSE_DESTROYED,
    Special.SMOKE_GENERATOR,
    Special.TOPPLED,
    Special.BATTERIES,
}
ONCE_AT_A_TIME = {Special.FIRE, Special.RUDDER_LEFT, Special.RUDDER_RIGHT, Special.GYROSCOPE}
WOW_SPECIALS = {
    Special.RUDDER_LEFT,
    Special.RUDDER_RIGHT,
    Special.WOUNDED_PILOT,
    Special.ENGINE,
    Special.SMOKE,
    Special.FIRE,
}
"""002's list: the crew icon (``wounded_pilot`` on the shipped cards) reads as 002's
observer icon."""
"""000: "Multiple vehicle on fire damage cards, left jams, right jams, or gyroscopes out of
order drawn at the same time, apply their effects only once.\""""


@fast_init
@dataclass(frozen=True, slots=True)
class Hit:
    """A special icon on a card a vehicle drew in this step."""

    target: str
    card: str
    special: Special
    value: int


def applies(vehicle: Vehicle, special: Special) -> bool:
    """Tripod-only icons mean nothing to airplanes and airplane-only icons to tripods
    (jams are handled with the firer)."""
    if special is Special.JAMMED:
        return False
    if vehicle.kind == "tripod":
        return special not in AIRPLANE_ONLY
    return special not in TRIPOD_ONLY


def announced(state: GameState, special: Special) -> bool:
    """000's table says which specials are shown; 002 keeps them all secret ("Keep
    Secret Unless Noted", and none is noted), and so does 003 ("除机枪发生故障的特殊伤害外,
    所有损伤牌都无需让他人知晓")."""
    if state.rules.specials != "000":
        return False
    spec = state.rules.catalog.specials.get(special)
    return bool(spec and spec.announced)


ACTING = {
    None: frozenset({Special.JAMMED}),
    "000": frozenset(Special),
    "002": frozenset(WOW_SPECIALS | {Special.JAMMED}),
    "003": frozenset({Special.ENGINE, Special.JAMMED}),
}
"""By whose special damage applies (``Rules.specials``), the icons that take effect: jams
in every ruleset (R23), the others by 000's table, 002's list or 003's engine damage
(R25). A card's face is told with these alone (the Sniper's two cards), the console
shows these alone."""


def acting(state: GameState) -> frozenset[Special]:
    """The special icons that take effect in this game (:data:`ACTING`)."""
    return ACTING[state.rules.specials]


def collect(state: GameState, target: Vehicle, deck: str, cards: list[str]) -> list[Hit]:
    """The special icons on ``cards`` that take effect on ``target``."""
    mode = state.rules.specials
    if mode is None or (target.kind != "airplane" and mode != "000"):
        return []
    specs = state.rules.damage_cards(deck)
    icons = ACTING[mode]
    out: list[Hit] = []
    for card_id in cards:
        spec = specs[card_id]
        out.extend(
            Hit(target.id, card_id, special, spec.value)
            for special in spec.specials
            if special in icons and applies(target, special)
        )
    return out


def two_seater(state: GameState, vehicle: Vehicle) -> bool:
    return len(state.rules.weapons(vehicle.type)) > 1


def rear_gun_lost(state: GameState, vehicle: Vehicle) -> bool:
    """002: observer incapacitated, "two-seaters lose rear gun"."""
    return bool(vehicle.status.get("observer"))


def _apply_wow(state: GameState, vehicle: Vehicle, hit: Hit, events: list[ev.Event]) -> str | None:
    """One of 002's or 003's specials on an airplane; returns why it is eliminated, if it
    is. 002: "Multiple different special damages apply. Duplicates: only most recent
    counts" (a smoke on a smoking plane starts its 3 turns again, not a fire as in 000)."""
    status = vehicle.status
    special = hit.special
    if special is Special.WOUNDED_PILOT:
        if not two_seater(state, vehicle):
            return None  # 002 lists no effect of the crew icon on a single-seater
        events.append(ev.SpecialDamage(vehicle.id, "observer", False))
        status["observer"] = 1
        return None
    events.append(ev.SpecialDamage(vehicle.id, special.value, False))
    if special is Special.ENGINE:
        status["engine"] = status.get("engine", 0) + 1
        if status["engine"] >= 2:
            # 002: "Second engine hit = explosion."; 003: "再次机件受损则飞机坠毁"
            return "exploded" if state.rules.specials == "002" else "engine_destroyed"
    elif special is Special.SMOKE:
        status["smoke"] = COUNTERS
    elif special is Special.FIRE:
        status["fire"] = COUNTERS
    elif special in (Special.RUDDER_LEFT, Special.RUDDER_RIGHT):
        status[special.value] = state.turn + 1
    return None


def apply(state: GameState, hits: list[Hit], events: list[ev.Event]) -> dict[str, str]:
    """Apply a step's specials together; returns the vehicles they eliminate, with why."""
    eliminated: dict[str, str] = {}
    by_target: dict[str, list[Hit]] = {}
    for hit in hits:
        by_target.setdefault(hit.target, []).append(hit)
    wow = state.rules.specials in ("002", "003")
    for target_id in sorted(by_target):
        vehicle = state.vehicles[target_id]
        seen: set[Special] = set()
        for hit in by_target[target_id]:
            special = hit.special
            if wow:
                if special in seen and special is not Special.ENGINE:
                    continue
                seen.add(special)
                out = _apply_wow(state, vehicle, hit, events)
                if out is not None:
                    eliminated[vehicle.id] = out
                continue
            if special in ONCE_AT_A_TIME and special in seen:
                continue
            seen.add(special)
            events.append(ev.SpecialDamage(vehicle.id, special.value, announced(state, special)))
            status = vehicle.status
            if special is Special.WOUNDED_PILOT:
                status["wounded"] = status.get("wounded", 0) + 1
                if status["wounded"] >= 2:
                    eliminated[vehicle.id] = "pilot_incapacitated"
            elif special is Special.ENGINE:
                status["engine"] = status.get("engine", 0) + 1
                if status["engine"] >= 2 and vehicle.kind == "airplane":
                    eliminated[vehicle.id] = "engine_destroyed"
            elif special is Special.SMOKE:
                if status.get("smoke", 0) > 0:
                    # 000: "treat it as a Vehicle on Fire damage instead"
                    status.pop("smoke", None)
                    status["fire"] = COUNTERS
                else:
                    status["smoke"] = COUNTERS
            elif special is Special.FIRE:
                status["fire"] = COUNTERS
            elif special in (Special.RUDDER_LEFT, Special.RUDDER_RIGHT, Special.GYROSCOPE):
                # "The following turn": of the vehicle's own clock
                status[special.value] = turn_of(vehicle.clock, state.turn, state.phase) + 1
            elif special in (Special.REVERSE_DESTROYED, Special.SMOKE_GENERATOR):
                status[special.value] = 1
            elif special is Special.CIRCUITS:
                spend(vehicle, hit.value, "circuits hit", events)
            elif special is Special.BATTERIES and vehicle.tripod is not None:
                vehicle.tripod.rating = max(0, vehicle.tripod.rating - 1)
                spend(vehicle, 1, "batteries damaged", events)
                if vehicle.tripod.energy > vehicle.tripod.rating:
                    spend(
                        vehicle,
                        vehicle.tripod.energy - vehicle.tripod.rating,
                        "above the lowered rating",
                        events,
                    )
            elif (
                special is Special.TOPPLED
                and vehicle.tripod is not None
                and not vehicle.tripod.toppled
            ):
                topple(vehicle, "special damage", events)
    return eliminated


def check_airplane_plan(state: GameState, vehicle: Vehicle, cards: list[ManeuverCard]) -> None:
    """Planning restrictions of damaged airplanes (refused, like an impossible plan)."""
    mode = state.rules.specials
    if mode is None:
        return
    status = vehicle.status
    planned = turn_of(vehicle.clock, state.turn, state.phase + 1)
    for side, direction in (("rudder_left", Direction.LEFT), ("rudder_right", Direction.RIGHT)):
        if status.get(side) == planned and any(c.arrow is direction for c in cards):
            raise IllegalPlanError(
                f'{vehicle.id}: the {direction.value} rudder is jammed this turn: 000: "the '
                f"airplane cannot choose maneuvers to the left or right, based on the symbol "
                f'drawn"'
            )
    if mode == "003":
        if status.get("engine", 0) and not any(c.is_steep for c in cards):
            raise IllegalPlanError(
                f'{vehicle.id}: the engine is damaged: 003: "引擎机件受损,飞机每个回合都必须执行'
                '一次失速动作" (the airplane must fly a steep maneuver every turn)'
            )
        return
    if status.get("engine", 0) and not any(c.symbol is Symbol.STALL for c in cards):
        rule = (
            '002: "must play **one stall maneuver** ... per turn"'
            if mode == "002"
            else '000: "it must plan at least one stall maneuver every turn"'
        )
        raise IllegalPlanError(f"{vehicle.id}: the engine is damaged: {rule}")
    if mode == "002":
        return
    if status.get("fire", 0) and any(c.symbol is Symbol.STRAIGHT for c in cards):
        raise IllegalPlanError(
            f'{vehicle.id}: on fire: 000: "An airplane on fire cannot plan any straight '
            'maneuver until all the flame counters are removed"'
        )


def tripod_card_forbidden(state: GameState, vehicle: Vehicle, card: TripodCard) -> str | None:
    """Why the tripod's damage forbids planning ``card`` at all (None: it does not), the
    rule quoted."""
    if not state.rules.switches.standard_rules:
        return None
    status = vehicle.status
    if status.get("reverse_destroyed") and card.symbol.value == "reverse":
        return (
            'the reverse mechanism is destroyed: 000: "The tripod cannot plan the reverse '
            'maneuver until the end of the game"'
        )
    if status.get("engine", 0) >= 2 and card.moves:
        return (
            'second engine damage: 000: "it can plan only stationary maneuvers until the '
            'end of the game"'
        )
    return None


def check_tripod_plan(state: GameState, vehicle: Vehicle, cards: list[TripodCard]) -> None:
    """Planning restrictions of damaged tripods."""
    if not state.rules.switches.standard_rules:
        return
    for card in cards:
        why = tripod_card_forbidden(state, vehicle, card)
        if why is not None:
            raise IllegalPlanError(f"{vehicle.id}: {why}")
    engine = vehicle.status.get("engine", 0)
    if engine == 1 and len(cards) == 3 and all(c.moves for c in cards):
        raise IllegalPlanError(
            f'{vehicle.id}: engine damaged: 000: "it can never plan three movement '
            'maneuvers in the same turn"'
        )


def secretly_forbidden(state: GameState, vehicle: Vehicle, token: str) -> str | None:
    """Why a token is forbidden by secret damage (gyroscope, smoke generator), for the
    tripod's own player only."""
    if not state.rules.switches.standard_rules:
        return None
    status = vehicle.status
    if token == "change_facing" and status.get("gyroscope") == state.turn:
        return (
            'gyroscope out of order: 000: "The following turn, the tripod cannot choose '
            'the Change facing Action token"'
        )
    if token == "black_smoke" and status.get("smoke_generator"):
        return (
            'black smoke generator disabled: 000: "The tripod cannot use its Black Smoke '
            'projectors until the end of the game"'
        )
    return None


def action_forbidden(
    state: GameState, vehicle: Vehicle, token: str, card: TripodCard
) -> str | None:
    """Why a damaged tripod cannot use this token now (None: it can). The reason is
    public, so secret damage (a token planned before the hit) gives a neutral one."""
    if not state.rules.switches.standard_rules:
        return None
    if token in ("heat_ray", "black_smoke") and vehicle.status.get("wounded") and card.moves:
        return "a wounded pilot cannot fire while moving"
    if secretly_forbidden(state, vehicle, token) is not None:
        return "the token has no effect"
    return None


def cannot_fire(state: GameState, vehicle: Vehicle, flown: ManeuverCard | None) -> bool:
    """000: "A wounded airplane pilot cannot fire any of its weapons in the same phase he
    executes a steep maneuver or an Immelmann turn.\""""
    if not state.rules.switches.standard_rules or not vehicle.status.get("wounded"):
        return False
    return flown is not None and (flown.is_steep or flown.symbol is Symbol.IMMELMANN)


def jam_length(state: GameState, vehicle: Vehicle) -> int:
    """000: a wounded pilot's guns "cannot fire after the next four maneuvers, instead of
    the next three"."""
    base = state.rules.catalog.constants.jam_maneuvers
    wounded = state.rules.switches.standard_rules and vehicle.status.get("wounded")
    return base + 1 if wounded else base


def burn(
    state: GameState, phase: int, rng: np.random.Generator, events: list[ev.Event]
) -> list[tuple[Vehicle, str, list[str]]]:
    """000: "Each turn, before revealing the first maneuver of the turn, the player removes
    a flame counter and takes a damage card from the A deck: only damage points and
    explosions are taken into account"; for a WW2 airplane, each Earthling turn (001: "The
    rule from WW2 Wings of Glory "Each turn, before revealing his maneuver, the player
    removes a flame counter and takes an A damage counter." refers to an Earthling game
    turn"). Returns the deck and the A cards (or counters) drawn, per vehicle."""
    from dogfight.rules.decks import draw

    out: list[tuple[Vehicle, str, list[str]]] = []
    if state.rules.specials not in ("000", "002"):
        return out
    # only a vehicle with lasting damage can be on fire: most phases have none
    on_fire = [v for v in state.in_play() if v.status and v.status.get("fire", 0) > 0]
    if not on_fire:
        return out
    for vehicle in sorted(on_fire, key=lambda v: v.id):
        if not turn_begins(vehicle.clock, phase):
            continue
        vehicle.status["fire"] -= 1
        if vehicle.status["fire"] == 0:
            del vehicle.status["fire"]
        events.append(ev.FlameCounter(vehicle.id, vehicle.status.get("fire", 0)))
        deck = state.rules.damage_deck("A", vehicle.type)
        out.append((vehicle, deck, [draw(state, deck, rng, events)]))
    return out


def end_of_turn(state: GameState, phase: int = 3) -> None:
    """000: smoke "One counter will be discarded at the end of each turn, including the
    current one" (at the end of each Earthling turn for a WW2 airplane)."""
    for vehicle in state.vehicles.values():
        if not vehicle.status or not turn_ends(vehicle.clock, phase):
            continue  # no lasting damage (most vehicles), or its turn goes on
        if vehicle.status.get("smoke", 0) > 0:
            vehicle.status["smoke"] -= 1
            if vehicle.status["smoke"] == 0:
                del vehicle.status["smoke"]

"""The phase resolver: plans in, a new state and typed events out.

Order of one action phase (000, "THE GAME TURN"): reveal the cards, move every vehicle
simultaneously, remove vehicles whose centre left the area, then the firing step, whose
damage is all applied together at its end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np
import shapely

from dogfight.catalog.models import (
    AutoTarget,
    ManeuverCard,
    Skill,
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
from dogfight.geometry.maneuver import apply_card, card_area
from dogfight.geometry.pose import Pose, normalize_heading
from dogfight.geometry.reach import sight
from dogfight.rules import firing, rockets, scenario, standard, tripods
from dogfight.rules.decks import draw, return_cards, shuffled
from dogfight.rules.events import (
    CardRevealed,
    CloudDispersed,
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
    RocketsLaunched,
    SkillUsed,
    TurnStarted,
)
from dogfight.rules.plans import AUTO, HOLD, Action, Flown, Plan, card_problem, check_plan_shape
from dogfight.rules.state import GameState, Salvo, Vehicle

SHOT_DOWN = (
    "shot_down",
    "exploded",
    "out_of_control",
    "burned",
    "pilot_incapacitated",
    "engine_destroyed",
)


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
        _check_rockets(new, vehicle, plan)
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


def _check_rockets(state: GameState, vehicle: Vehicle, plan: Plan) -> None:
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
    cards, exploded = _damage(
        state, vehicle, switches.illegal_damage_deck, 1, False, "illegal maneuver", rng, events
    )
    hits = standard.collect(state, vehicle, switches.illegal_damage_deck, cards)
    special_out = standard.apply(state, hits, events)
    if vehicle.id in special_out:
        _eliminate(state, vehicle, special_out[vehicle.id], rng, events)
        return None
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


def _begin_phase(
    state: GameState,
    fire: Mapping[str, Mapping[str, str]] | None,
    cards: Mapping[str, str] | None,
) -> tuple[GameState, int, int, list[Event]]:
    """Check the phase can be resolved and copy the state with this phase's overrides."""
    if state.over:
        raise IllegalPlanError("the game is over")
    if state.phase == 0 and any(v.plan is None for v in state.in_play()):
        raise IllegalPlanError(f"turn {state.turn} has not been planned")
    new = state.copy()
    new.phase += 1
    new.phases_played += 1
    phase, number = new.phase, new.phases_played
    for vid, choices in (fire or {}).items():
        vehicle = new.vehicles.get(vid)
        if vehicle is None or vehicle.plan is None or not vehicle.in_play:
            raise IllegalPlanError(f"{vid!r} is not an airplane in play with a plan")
        weapons = {w for w, _ in new.rules.weapons(vehicle.type)}
        update: dict[str, tuple[str, ...]] = {}
        for weapon, choice in choices.items():
            if weapon not in weapons:
                raise IllegalPlanError(
                    f"{vid}: no {weapon!r} weapon; weapons: {', '.join(sorted(weapons))}"
                )
            target = new.vehicles.get(choice)
            if choice not in (AUTO, HOLD) and (target is None or target.side == vehicle.side):
                raise IllegalPlanError(
                    f"{vid}: fire choice {choice!r} must be 'auto', 'none' or an enemy id"
                )
            name = "fire" if weapon == "front" else "rear_fire"
            current = list(getattr(vehicle.plan, name))
            current[phase - 1] = choice
            update[name] = tuple(current)
        vehicle.plan = vehicle.plan.model_copy(update=update)
    new.phase_cards = {}
    for vid, card_id in (cards or {}).items():
        vehicle = new.vehicles.get(vid)
        if vehicle is None or vehicle.tripod is None or vehicle.plan is None:
            raise IllegalPlanError(f"{vid!r} is not a tripod in play")
        if not vehicle.plan.automated:
            raise IllegalPlanError(f"{vid}: its cards were planned; only automated tripods draw")
        new.rules.tripod_deck_of(vehicle.type).card(card_id)
        new.phase_cards[vid] = card_id
    for vehicle in new.in_play():
        if (
            vehicle.plan is not None
            and vehicle.plan.automated
            and vehicle.tripod is not None
            and not vehicle.tripod.toppled
            and vehicle.id not in new.phase_cards
        ):
            raise IllegalPlanError(
                f"{vehicle.id}: an automated tripod needs its card for phase {phase}"
            )
    return new, phase, number, [PhaseStarted(new.turn, phase)]


def preview_targets(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
    cards: Mapping[str, str] | None = None,
) -> dict[str, dict[str, list[str]]]:
    """Who each airplane's weapons could fire at after this phase's movement, nearest
    first: what a table asks a player with several targets about before the firing step.
    Nothing is kept; the same generator later resolves the same movement."""
    result, _ = resolve_phase(state, rng, actions, cards=cards, stop_before_firing=True)
    table = firing.table_of(result)
    out: dict[str, dict[str, list[str]]] = {}
    for vehicle in sorted(result.in_play(), key=lambda v: v.id):
        for weapon, _ in result.rules.weapons(vehicle.type):
            opts = [o.target for o in firing.options(result, table, vehicle, weapon)]
            out.setdefault(vehicle.id, {})[weapon] = opts
    return out


def resolve_phase(
    state: GameState,
    rng: np.random.Generator,
    actions: Mapping[str, Action | None] | None = None,
    fire: Mapping[str, Mapping[str, str]] | None = None,
    cards: Mapping[str, str] | None = None,
    stop_before_firing: bool = False,
) -> tuple[GameState, list[Event]]:
    """Resolve the next action phase of a planned turn.

    ``actions`` are the tripods' action tokens for this phase, chosen in the open at the
    start of the movement step; when None, those written in the plans are used. ``fire``
    overrides this phase's firing choices (vehicle -> weapon -> 'auto', 'none' or a
    target), as a table asks a player once it knows who can reach whom
    (:func:`preview_targets`). ``cards`` gives this phase's card of each automated tripod
    (its plan says ``automated``), chosen at the start of the movement step (001).
    """
    new, phase, number, events = _begin_phase(state, fire, cards)
    rules = new.rules
    movers = sorted(new.in_play(), key=lambda v: v.id)
    chosen: dict[str, Action | None] = {
        v.id: (v.plan.actions[phase - 1] if v.plan is not None else None)
        for v in movers
        if v.tripod is not None
    }
    if actions is not None:
        for vid, action in actions.items():
            vehicle = new.vehicles.get(vid)
            if vehicle is None or vehicle.tripod is None or not vehicle.in_play:
                raise IllegalPlanError(f"{vid!r} is not a tripod in play: it has no action tokens")
            if action is not None:
                tripods.check_action(new, vehicle, action, phase)
        chosen.update(actions)
    if phase == 1:
        for burning, fire_cards in standard.burn(new, rng, events):
            boom = _apply_cards(new, burning, "A", fire_cards, False, "fire", events)
            if boom:
                _eliminate(new, burning, "exploded", rng, events)
            elif burning.damage >= burning.resistance:
                _eliminate(new, burning, "burned", rng, events)
        movers = [v for v in movers if v.in_play]
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
    backward: set[str] = set()
    for vehicle in movers:
        if (
            vehicle.id in walked
            and vehicle.in_play
            and tripods.move(new, vehicle, walked[vehicle.id], events)
        ):
            backward.add(vehicle.id)
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

    _disperse_clouds(new, starts, flown, walked, backward, rng, events)

    for vehicle in movers:
        if vehicle.in_play and _outside(new, vehicle):
            events.append(LeftArea(vehicle.id, vehicle.pose))
            vehicle.exit_edge = scenario.exit_edge(new, vehicle.pose.point)
            _eliminate(new, vehicle, "left_area", rng, events)

    if stop_before_firing:
        return new, events
    _firing_step(new, phase, number, silenced, acts, flown, rng, events)
    tripods.recharge(new, acts, events)
    _check_victory(new, events)
    if not new.over and phase == 3:
        _end_turn(new, events)
    return new, events


def _disperse_clouds(
    state: GameState,
    starts: dict[str, Pose],
    flown: dict[str, ManeuverCard],
    walked: dict[str, TripodCard],
    backward: set[str],
    rng: np.random.Generator,
    events: list[Event],
) -> None:
    """000: "Should a vehicle maneuver card or a vehicle itself be positioned overlapping a
    Black smoke cloud token, the cloud is dissipated and removed, and the vehicle must draw
    1 damage card drawn from the Z deck. Airplanes take full damage from the Black Smoke,
    while tripods are completely unaffected (but the cloud is removed anyway)." Checked for
    every vehicle that played a card this phase; several vehicles on one cloud each draw."""
    if not state.clouds:
        return
    rules = state.rules
    touched: dict[str, list[str]] = {}
    for vid in sorted(set(flown) | set(walked)):
        vehicle = state.vehicles[vid]
        if not vehicle.in_play:
            continue
        shapes = [shapely.Polygon(state.base(vehicle))]
        if vid in flown:
            deck = rules.deck_of(vehicle.type)
            area = card_area(
                starts[vid], flown[vid], rules.base_length, deck.card_length, deck.card_width
            )
            shapes.append(shapely.Polygon(area))
        elif walked[vid].moves:
            t_deck = rules.tripod_deck_of(vehicle.type)
            depth = 2.0 * rules.hex_apothem()
            start = starts[vid]
            if vid in backward:
                start = Pose(start.x, start.y, normalize_heading(start.heading + 180.0))
            area = card_area(start, walked[vid], depth, t_deck.card_length, t_deck.card_width)
            shapes.append(shapely.Polygon(area))
        for cloud in state.clouds:
            disc = shapely.Point(cloud.x, cloud.y).buffer(cloud.radius, quad_segs=32)
            if any(shape.intersects(disc) for shape in shapes):
                touched.setdefault(cloud.id, []).append(vid)
    if not touched:
        return
    state.clouds = [c for c in state.clouds if c.id not in touched]
    hits: list[standard.Hit] = []
    for cloud_id, vids in sorted(touched.items()):
        for vid in vids:
            vehicle = state.vehicles[vid]
            events.append(CloudDispersed(cloud_id, vid))
            if vehicle.kind != "airplane":
                continue
            cards, boom = _damage(state, vehicle, "Z", 1, False, "black smoke", rng, events)
            hits.extend(standard.collect(state, vehicle, "Z", cards))
            if boom:
                _eliminate(state, vehicle, "exploded", rng, events)
    out = standard.apply(state, hits, events)
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        if vehicle.id in out:
            _eliminate(state, vehicle, out[vehicle.id], rng, events)
        elif vehicle.damage >= vehicle.resistance:
            _eliminate(state, vehicle, "shot_down", rng, events)


Shot = tuple[Vehicle, str, str, firing.Option, bool]
"""(firer, weapon, damage deck letter, the option taken, aimed)."""


def _firing_step(
    state: GameState,
    phase: int,
    number: int,
    silenced: set[tuple[str, str]],
    acts: tripods.PhaseActions,
    flown: dict[str, ManeuverCard],
    rng: np.random.Generator,
    events: list[Event],
) -> None:
    """000: "All damage inflicted in the same firing step, regardless of its source, is
    resolved simultaneously, after all vehicles that wish to fire have done so." A pilot
    using Itchy Trigger Finger shoots first: its damage is resolved before anyone else
    fires (000: "once every 5 phases, the pilot shoots first")."""
    table = firing.table_of(state)
    first = [
        v
        for v in sorted(state.in_play(), key=lambda v: v.id)
        if scenario.skill_ready(v, Skill.ITCHY_TRIGGER_FINGER, number)
    ]
    early = _decide_shots(state, table, first, phase, number, silenced, flown, events)
    done = {v.id for v in first}
    if early:
        for firer in sorted({shot[0].id for shot in early}):
            state.vehicles[firer].skill_used[Skill.ITCHY_TRIGGER_FINGER] = number
            events.append(SkillUsed(firer, Skill.ITCHY_TRIGGER_FINGER, "shoots first"))
        _resolve_damage(state, table, early, [], [], number, rng, events)
        table = firing.table_of(state)
    rays = _heat_rays(state, table, acts, events)
    tripods.place_smoke(state, acts, events)
    arrivals = rockets.resolve(state, table, flown, events)
    rest = [v for v in sorted(state.in_play(), key=lambda v: v.id) if v.id not in done]
    shots = _decide_shots(state, table, rest, phase, number, silenced, flown, events)
    _resolve_damage(state, table, shots, arrivals, rays, number, rng, events)


def _decide_shots(
    state: GameState,
    table: firing.Table,
    vehicles: list[Vehicle],
    phase: int,
    number: int,
    silenced: set[tuple[str, str]],
    flown: dict[str, ManeuverCard],
    events: list[Event],
) -> list[Shot]:
    """Each airplane's weapons choose their targets (or launch rockets)."""
    shots: list[Shot] = []
    for vehicle in vehicles:
        grounded = standard.cannot_fire(state, vehicle, flown.get(vehicle.id))
        for weapon, letter in state.rules.weapons(vehicle.type):
            if (vehicle.id, weapon) in silenced or grounded:
                if grounded:
                    events.append(
                        HeldFire(vehicle.id, weapon, "wounded pilot flying a steep maneuver")
                    )
                vehicle.aim.pop(weapon, None)
                continue
            opts = firing.options(state, table, vehicle, weapon)
            option = _choose(state, table, vehicle, weapon, phase, opts, events)
            if option is None:
                vehicle.aim.pop(weapon, None)
                continue
            salvo = vehicle.plan.rockets[phase - 1] if vehicle.plan and weapon == "front" else 0
            if salvo:
                # 000: "An airplane carrying rockets may fire its machine guns or its
                # rockets, but not both in the same phase."
                vehicle.aim.pop(weapon, None)
                vehicle.rockets -= salvo
                state.salvos.append(Salvo(vehicle.id, option.target, salvo, number))
                events.append(RocketsLaunched(vehicle.id, option.target, salvo, vehicle.rockets))
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
    return shots


def _snipe(
    state: GameState,
    firer: Vehicle,
    target: Vehicle,
    letter: str,
    number: int,
    rng: np.random.Generator,
    events: list[Event],
) -> list[str]:
    """000's Sniper: "the pilot draws two damage cards, chooses one to give to the
    opponent, reshuffles the other one". The engine chooses for the pilot the card that
    hurts most (an explosion, else the highest value)."""
    specs = {c.id: c for c in state.rules.catalog.damage_decks[letter].cards}
    pair = [draw(state, letter, rng, events), draw(state, letter, rng, events)]

    def harm(card_id: str) -> tuple[int, int]:
        spec = specs[card_id]
        return (1 if spec.explosion else 0, spec.value)

    keep = max(pair, key=harm)
    other = pair[1] if keep == pair[0] else pair[0]
    pile = state.piles[letter]
    pile.append(other)
    pile[:] = shuffled(pile, rng)
    firer.skill_used[Skill.SNIPER] = number
    events.append(SkillUsed(firer.id, Skill.SNIPER, f"chose one of two cards for {target.id}"))
    return [keep]


def _resolve_damage(
    state: GameState,
    table: firing.Table,
    shots: list[Shot],
    arrivals: list[rockets.RocketHit],
    rays: list[tuple[Vehicle, tripods.RayOption]],
    number: int,
    rng: np.random.Generator,
    events: list[Event],
) -> None:
    """Draw and apply every card of the shots, rockets and heat-rays, then remove the
    vehicles they eliminate (all together)."""
    exploded: set[str] = set()
    hits: list[standard.Hit] = []
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
            cards = []
            if scenario.skill_ready(firer, Skill.SNIPER, number):
                cards = _snipe(state, firer, target, letter, number, rng, events)
            cards += [draw(state, letter, rng, events) for _ in range(count - len(cards))]
            boom = _apply_cards(state, target, letter, cards, aimed, f"{firer.id} {weapon}", events)
            hits.extend(standard.collect(state, target, letter, cards))
            if boom:
                exploded.add(target.id)
        deck = {c.id: c for c in state.rules.catalog.damage_decks[letter].cards}
        jams = [c for c in cards if Special.JAMMED in deck[c].specials]
        if jams:
            # 000: "If two jammed cards are drawn at the same time, jamming still lasts for
            # only three maneuvers."
            firer.jams[weapon] = standard.jam_length(state, firer)
            events.append(Jammed(firer.id, weapon, jams[0], firer.jams[weapon]))
    for arrival in arrivals:
        exploded |= _rocket_damage(state, table, arrival, hits, rng, events)
    for tripod, ray in rays:
        exploded |= _heat_ray_damage(state, tripod, ray, hits, rng, events)
    special_out = standard.apply(state, hits, events)
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        if vehicle.id in special_out:
            _eliminate(state, vehicle, special_out[vehicle.id], rng, events)
        elif vehicle.id in exploded:
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


def _rocket_damage(
    state: GameState,
    table: firing.Table,
    arrival: rockets.RocketHit,
    hits: list[standard.Hit],
    rng: np.random.Generator,
    events: list[Event],
) -> set[str]:
    """000: "the target takes one D damage card for each Rocket token spent". A tripod's
    electrified armour works against rockets as against guns; jam icons are ignored (no
    gun fired)."""
    firer = state.vehicles[arrival.firer]
    target = state.vehicles[arrival.target]
    deck = rockets.ROCKET_DECK
    if target.tripod is not None and not table.overlap(firer.id, target.id):
        seen = sight(firer.pose, state.rules.front_arc, table.bases[target.id], 1e6)
        if firing.is_protected(state, firer, target, seen):
            cards = [draw(state, deck, rng, events) for _ in range(arrival.count)]
            tripods.apply_protected_hit(state, target, firer.id, deck, cards, events)
            state.piles[deck].extend(cards)
            state.piles[deck][:] = shuffled(state.piles[deck], rng)
            return set()
    cards, boom = _damage(
        state, target, deck, arrival.count, False, f"{firer.id} rockets", rng, events
    )
    hits.extend(standard.collect(state, target, deck, cards))
    return {target.id} if boom else set()


def _heat_ray_damage(
    state: GameState,
    firer: Vehicle,
    option: tripods.RayOption,
    hits: list[standard.Hit],
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
    hits.extend(standard.collect(state, target, letter, cards))
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
    when all the enemy vehicles exit it or are eliminated." Both gone at once: a draw.
    A scenario judges its own victory conditions instead."""
    if state.scenario is not None:
        scenario.judge(state, events)
        if state.over:
            events.append(GameOver(state.winner, scores(state)))
        return
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
    standard.end_of_turn(state)
    state.turn += 1
    state.phase = 0
    scenario.reinforce(state, events)


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

"""Martian tripods (000's basic rules): planning, action tokens and Energy, tripod
maneuvers, overlaps and toppling, heat-rays, the electrified armour and recharging.

The engine calls these at fixed points of an action phase; each function changes the
state it is given (already a copy) and appends events.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from dogfight.catalog.models import TripodCard, TripodDeck, TripodSymbol
from dogfight.errors import IllegalPlanError, UnknownCardError
from dogfight.geometry.hexbase import Side, side_midpoint, side_normal, turned
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose, normalize_heading
from dogfight.geometry.shapes import convex_overlap
from dogfight.rules import events as ev
from dogfight.rules import standard
from dogfight.rules.decks import draw, shuffle_back
from dogfight.rules.plans import AUTO, GREEN_TOKENS, Action, Plan
from dogfight.rules.state import BY_ID, Cloud, GameState, Vehicle
from dogfight.rules.tripod_harm import spend, topple
from dogfight.words.terms import plural


def plannable(state: GameState, vehicle: Vehicle) -> int:
    """How many cards of its deck the tripod's damage lets it plan at all
    (:func:`standard.tripod_card_forbidden`: no reverse once the mechanism is destroyed,
    only stationary cards after a second engine hit)."""
    deck = state.rules.tripod_deck_of(vehicle.type)
    return sum(standard.tripod_card_forbidden(state, vehicle, c) is None for c in deck.cards)


def planned_cards(state: GameState, vehicle: Vehicle) -> int:
    """000: "If, during a planning phase, a tripod is laying down, the player may only plan
    three cards minus the reminder tokens on the "toppled" box, for the last phases"; and
    fewer when its damage leaves it fewer cards it may plan: every one of them, for the
    last phases, standing still without a card before them (ruling SR10)."""
    assert vehicle.tripod is not None
    return min(3 - vehicle.tripod.toppled, plannable(state, vehicle))


def check_tripod_plan(state: GameState, vehicle: Vehicle, plan: Plan) -> list[TripodCard]:
    """Refuse a tripod plan that can never be laid down; return its cards."""
    assert vehicle.tripod is not None
    rules = state.rules
    deck = rules.tripod_deck_of(vehicle.type)
    count = 0 if plan.automated else planned_cards(state, vehicle)
    short = not plan.automated and count < 3 - vehicle.tripod.toppled
    if len(plan.cards) != count:
        why = ""
        if short:
            # said to the tripod's own player only: the damage behind it is secret
            why = (
                f" (its damage leaves it {plural(count, 'card')} it may plan: all of them, "
                "for the last phases, standing still without a card before them; ruling SR10)"
            )
        elif vehicle.tripod.toppled:
            why = (
                f' (toppled with {plural(vehicle.tripod.toppled, "reminder token")}: 000: "the '
                'player may only plan three cards minus the reminder tokens"'
            )
        raise IllegalPlanError(
            f"{vehicle.id}: plans exactly {plural(count, 'maneuver card')}, "
            f"got {len(plan.cards)}{why}"
        )
    cards: list[TripodCard] = []
    for card_id in plan.cards:
        try:
            card = deck.card(card_id)
        except UnknownCardError as exc:
            raise UnknownCardError(exc.deck, exc.card, exc.valid, vehicle.id) from None
        if any(c.id == card_id for c in cards):
            raise IllegalPlanError(f"{vehicle.id}: card {card_id} is planned twice")
        cards.append(card)
    if len(plan.actions) != 3:
        raise IllegalPlanError(f"{vehicle.id}: 'actions' needs 3 entries (null for none)")
    for phase, action in enumerate(plan.actions, start=1):
        if action is None:
            continue
        if short and vehicle.tripod.toppled < phase <= 3 - count:
            raise IllegalPlanError(
                f"{vehicle.id}: phase {phase} action {action.token}: no card is planned for "
                "that phase (its damage leaves it fewer cards than phases; an Action token is "
                "put \"in the space of the tripod's console corresponding to the first planned "
                'maneuver", 000; ruling SR10)'
            )
        if not plan.automated and phase <= vehicle.tripod.toppled:
            raise IllegalPlanError(
                f"{vehicle.id}: phase {phase} action {action.token}: the tripod is lying down "
                f'then ({plural(vehicle.tripod.toppled, "reminder token")}; 000: "the player may '
                'only plan three cards minus the reminder tokens on the "toppled" box, for '
                'the last phases of the turn")'
            )
        check_action(state, vehicle, action, phase)
    return cards


BOMBS_PREFIX = "bombs:"
"""A falling bomb card is named ``bombs:`` and its bomber's id (a heat-ray target, 001)."""


def bomber_of(target: str) -> str | None:
    """The bomber whose bomb card ``target`` names, or None."""
    return target[len(BOMBS_PREFIX) :] if target.startswith(BOMBS_PREFIX) else None


def secret_action_cards(state: GameState) -> bool:
    """Whether tripods play secret action cards: 001, Tripods vs. Tripods ("When two
    opposite factions have at least one tripod each, the action cards are secretly placed
    face down") and Bombing Tripods ("When bombers are involved, in each movement phase
    each tripod's player must choose their action card in secret")."""
    tripod_sides = set()  # plain loops: every phase asks, most without a tripod
    for v in state.vehicles.values():
        if v.tripod is not None:
            tripod_sides.add(v.side)
    if not tripod_sides:
        return False
    if len(tripod_sides) >= 2:
        return True
    for v in state.vehicles.values():  # noqa: SIM110 (any() of a generator costs a frame)
        if v.bomber:
            return True
    return False


def check_action(state: GameState, vehicle: Vehicle, action: Action, phase: int) -> None:
    """Refuse an action token this tripod can never use (a projector it lacks, a turn
    beyond its limit, an unknown objective or target)."""
    rules = state.rules
    model = rules.tripod(vehicle.type)
    where = f"{vehicle.id}: phase {phase} action {action.token}"
    if action.token == "blank" and not secret_action_cards(state):
        raise IllegalPlanError(
            f"{where}: the blank action card is played only with secret action cards (001: "
            '"When two opposite factions have at least one tripod each" / "When bombers are '
            'involved"; "A tripod player can place a blank card to pretend he is executing '
            'an action when he is not")'
        )
    if action.token == "black_smoke":
        if not rules.switches.standard_rules:
            raise IllegalPlanError(
                f'{where}: the Black Smoke token belongs to the Standard Rules (000: "set '
                'it aside if you want to play with the basic rules")'
            )
        if action.projector is None or action.projector not in model.smoke_projectors:
            raise IllegalPlanError(
                f"{where}: 'projector' must be one of the {model.name}'s black smoke "
                f"projectors: {', '.join(model.smoke_projectors) or 'none'}"
            )
    if action.token == "heat_ray":
        if action.projector is None or action.projector not in model.projectors:
            raise IllegalPlanError(
                f"{where}: 'projector' must be one of the {model.name}'s heat-ray "
                f"projectors: {', '.join(model.projectors)}"
            )
        bomber = state.vehicles.get(bomber_of(action.target) or "")
        if bomber is not None:
            if not bomber.bomber or bomber.side == vehicle.side:
                raise IllegalPlanError(
                    f"{where}: {action.target!r}: {bomber.id} is not an enemy bomber"
                )
        elif action.target != AUTO and (
            action.target not in state.vehicles
            or state.vehicles[action.target].side == vehicle.side
        ):
            raise IllegalPlanError(
                f"{where}: 'target' must be 'auto', an enemy id or an enemy bomber's falling "
                "bombs ('bombs:' and its id)"
            )
    if action.token == "change_facing" and (
        action.sides is None or action.sides == 0 or abs(action.sides) > model.facing_limit
    ):
        raise IllegalPlanError(
            f"{where}: 'sides' turns the base by 1..{plural(model.facing_limit, 'side')}, "
            "positive to the left, negative to the right"
        )
    why = standard.secretly_forbidden(state, vehicle, action.token)
    if why is not None:
        # Refused to the tripod's own player only: the damage behind it is secret.
        raise IllegalPlanError(f"{where}: {why}")
    if action.objective is not None and action.objective not in state.objectives:
        raise IllegalPlanError(
            f"{where}: no objective {action.objective!r}; objectives: "
            + (", ".join(state.objectives) or "none")
        )


def phases_before_cards(plan: Plan) -> int:
    """A tripod plan's phases before its first card: its cards are the last phases' (000:
    a toppled tripod plans "for the last phases of the turn"; so does one its damage
    leaves fewer cards, ruling SR10)."""
    return 3 - len(plan.cards)


def card_of_phase(state: GameState, vehicle: Vehicle, phase: int) -> TripodCard | None:
    """The card planned for ``phase`` (None: the tripod is lying down then, or its cards
    were discarded when it toppled)."""
    plan = vehicle.plan
    if plan is None:
        return None
    deck = state.rules.tripod_deck_of(vehicle.type)
    if plan.automated:
        drawn = state.phase_cards.get(vehicle.id)
        return None if drawn is None else deck.card(drawn)
    index = phase - 1 - phases_before_cards(plan)
    if index < 0:
        return None
    return deck.card(plan.cards[index])


@dataclass(slots=True)
class PhaseActions:
    """What tripods committed to at the start of a movement step."""

    heat_ray: dict[str, Action]
    recharge: dict[str, Action]
    facing: dict[str, int]
    smoke: dict[str, Action]


def objective_under(state: GameState, vehicle: Vehicle, wanted: str | None) -> str | None:
    """An objective token the base overlaps (the named one, or the first by id)."""
    base = shapely.Polygon(state.base(vehicle))
    radius = state.rules.catalog.constants.tripods.objective_radius
    for oid in sorted(state.objectives):
        objective = state.objectives[oid]
        if objective.destroyed or (wanted is not None and oid != wanted):
            continue
        if base.distance(shapely.Point(objective.x, objective.y)) < radius:
            return oid
    return None


def start_of_phase(
    state: GameState, phase: int, chosen: dict[str, Action | None], events: list[ev.Event]
) -> PhaseActions:
    """Reminder and recovery tokens, then the action tokens placed face up (000: "At the
    start of each Movement step, all Tripod players may choose an Action token")."""
    acts = PhaseActions({}, {}, {}, {})
    standing = []  # a plain loop: every phase asks, most without a tripod
    for v in state.vehicles.values():
        if v.tripod is not None and v.eliminated is None:
            standing.append(v)
    if not standing:
        return acts
    for vehicle in sorted(standing, key=BY_ID):
        tripod = vehicle.tripod
        if tripod is None:
            continue
        if tripod.toppled:
            # 000: "At the start of each movement phase, the tripod discards one of the
            # reminder tokens. When it discards the last token, it is put standing again"
            tripod.toppled -= 1
            events.append(ev.ToppledTokens(vehicle.id, tripod.toppled))
        # 000: "When a tripod's console has no recovery tokens at the beginning of a phase,
        # then the tripod is ready" -- checked before this phase's token is removed.
        heat_ready = tripod.cooling == 0
        smoke_ready = tripod.smoke_recovery == 0
        tripod.cooling = max(0, tripod.cooling - 1)
        tripod.smoke_recovery = max(0, tripod.smoke_recovery - 1)
        action = chosen.get(vehicle.id)
        if action is None:
            continue
        card = card_of_phase(state, vehicle, phase)
        if tripod.toppled or card is None:
            why = "the tripod is down" if tripod.toppled else "no card is planned for this phase"
            events.append(ev.ActionWasted(vehicle.id, action.token, why, 0))
            continue
        if action.token == "blank":
            continue  # 001: "to pretend he is executing an action when he is not"
        if card.stop or (action.token in GREEN_TOKENS and card.symbol is not TripodSymbol.STAND):
            why = (
                "the planned card has the Stop icon"
                if card.stop
                else "a green token needs a standing still card"
            )
            lost = spend(vehicle, 1, f"misplaced {action.token} token", events)
            events.append(ev.ActionWasted(vehicle.id, action.token, why, lost))
            continue
        forbidden = standard.action_forbidden(state, vehicle, action.token, card)
        if forbidden is not None:
            events.append(ev.ActionWasted(vehicle.id, action.token, forbidden, 0))
            continue
        if action.token == "heat_ray":
            if not heat_ready:
                events.append(
                    ev.ActionWasted(vehicle.id, action.token, "the heat-ray is cooling down", 0)
                )
                continue
            events.append(ev.ActionChosen(vehicle.id, action.token, f"{action.projector}"))
            if tripod.energy >= 1:
                acts.heat_ray[vehicle.id] = action
            else:
                events.append(
                    ev.ActionWasted(
                        vehicle.id, action.token, 'no Energy: 000: "it does not fire"', 0
                    )
                )
        elif action.token == "black_smoke":
            if not smoke_ready:
                events.append(
                    ev.ActionWasted(vehicle.id, action.token, "the generator is recharging", 0)
                )
                continue
            events.append(ev.ActionChosen(vehicle.id, action.token, f"{action.projector}"))
            if tripod.energy >= 1:
                acts.smoke[vehicle.id] = action
            else:
                events.append(ev.ActionWasted(vehicle.id, action.token, "no Energy", 0))
        elif action.token == "change_facing":
            assert action.sides is not None
            events.append(ev.ActionChosen(vehicle.id, action.token, f"{action.sides:+d} sides"))
            acts.facing[vehicle.id] = action.sides
        elif action.token == "recharge":
            events.append(ev.ActionChosen(vehicle.id, action.token, action.objective or ""))
            acts.recharge[vehicle.id] = action
        elif action.token == "destroy_objective":
            target = objective_under(state, vehicle, action.objective)
            events.append(ev.ActionChosen(vehicle.id, action.token, target or "no objective"))
            if target is not None:
                # 000: "If the tripod base overlaps an Objective token, the Tripod player
                # must now remove it"
                state.objectives[target].destroyed = True
                events.append(ev.ObjectiveDestroyed(vehicle.id, target))
    return acts


def reveal(
    state: GameState, vehicle: Vehicle, phase: int, events: list[ev.Event]
) -> TripodCard | None:
    """Reveal a tripod's card; an illegal one topples it (000: "If an illegal maneuver is
    revealed, because it is the third movement card of the turn and none of them is a
    stationary or running maneuver - or if a maneuver card requiring energy is played
    without having Energy to spend - the tripod topples")."""
    tripod = vehicle.tripod
    assert tripod is not None
    card = card_of_phase(state, vehicle, phase)
    if card is None or tripod.toppled:
        return None
    events.append(ev.Revealed(vehicle.id, phase, card.id, card.symbol.value, False))
    if card.symbol is TripodSymbol.MOVE:
        tripod.movement_cards += 1
    else:
        tripod.steadied = True
    if card.symbol is TripodSymbol.MOVE and tripod.movement_cards >= 3 and not tripod.steadied:
        events.append(
            ev.IllegalManeuver(
                vehicle.id,
                card.id,
                "third_movement_card",
                "toppled",
                None,
                '000: "In a turn, a Tripod player must always plan at least one stationary '
                'maneuver OR a running maneuver."',
            )
        )
        topple(vehicle, "illegal maneuver: third movement card", events)
        return None
    if card.energy:
        if tripod.energy < 1:
            events.append(
                ev.IllegalManeuver(
                    vehicle.id,
                    card.id,
                    "energy_card_without_energy",
                    "toppled",
                    None,
                    '000: "if a maneuver card requiring energy is played without having '
                    'Energy to spend - the tripod topples"',
                )
            )
            topple(vehicle, "illegal maneuver: no Energy for the card", events)
            return None
        spend(vehicle, 1, "energy icon on the card", events)
    return card


def move(state: GameState, vehicle: Vehicle, card: TripodCard, events: list[ev.Event]) -> bool:
    """Move a tripod by its card (000: "RESOLVING MOVEMENT"); stationary cards stand still;
    a reverse makes the next movement card apply to the rear of the base. Returns whether
    the card was applied backwards."""
    tripod = vehicle.tripod
    assert tripod is not None
    backward = tripod.reverse_pending
    tripod.reverse_pending = card.symbol is TripodSymbol.REVERSE
    if not card.moves:
        return False
    depth = 2.0 * state.rules.hex_apothem()
    start = vehicle.pose
    if backward:
        # 000: "the maneuver card is applied to the rear of the tripod instead than to the
        # front. The front of the tripod base must be then put on the line at the base of
        # the arrowhead on the card."
        rear = Pose(start.x, start.y, normalize_heading(start.heading + 180.0))
        moved = apply_card(rear, card, depth)
        vehicle.pose = Pose(moved.x, moved.y, normalize_heading(moved.heading + 180.0))
    else:
        vehicle.pose = apply_card(start, card, depth)
    events.append(ev.Moved(vehicle.id, card.id, start, vehicle.pose, backward))
    return backward


def resolve_overlaps(
    state: GameState,
    starts: dict[str, Pose],
    moved: set[str],
    rng: np.random.Generator,
    events: list[ev.Event],
) -> None:
    """000: "If two tripods overlap each other even partially, they are put back where
    they were before moving ... Draw an A damage card for each of them: if it is a 0
    nothing happens, if it bears a number or an explosion icon the damage is ignored but
    the tripod topples ... If putting the tripods back makes them overlap other tripods,
    these are moved back to their starting positions too". A moving tripod overlapping a
    toppled one makes the toppled one draw an A card too."""
    tripods = []  # a plain loop, in id order (every phase with tripods)
    for v in sorted(state.in_play(), key=BY_ID):
        if v.tripod is not None:
            tripods.append(v)
    put_back: set[str] = set()

    def overlapping(a: Vehicle, b: Vehicle) -> bool:
        return convex_overlap(state.base(a), state.base(b))

    drawn: list[str] = []
    specs = state.rules.damage_cards("A")

    def a_card() -> tuple[str, int, bool]:
        card_id = draw(state, "A", rng, events)
        drawn.append(card_id)
        spec = specs[card_id]
        return card_id, spec.value, spec.explosion or spec.value > 0

    changed = True
    while changed:
        changed = False
        for i, a in enumerate(tripods):
            for b in tripods[i + 1 :]:
                assert a.tripod is not None and b.tripod is not None
                if a.tripod.toppled or b.tripod.toppled or not overlapping(a, b):
                    continue
                if not {a.id, b.id} & (moved | put_back):
                    continue  # neither moved nor was put back: nothing new happened
                for v in (a, b):
                    if v.id in put_back:
                        continue
                    put_back.add(v.id)
                    changed = True
                    v.pose = starts[v.id]
                    card, value, falls = a_card()
                    events.append(ev.PutBack(v.id, v.pose, card, value, falls))
                    if falls:
                        topple(v, "overlapped another tripod", events)
    for mover in tripods:
        if mover.id not in moved or mover.id in put_back:
            continue
        for lying in tripods:
            assert lying.tripod is not None
            if lying is mover or not lying.tripod.toppled or not overlapping(mover, lying):
                continue
            card, value, falls = a_card()
            events.append(ev.PutBack(lying.id, lying.pose, card, value, falls))
            if falls:
                # 000: "the toppled tripod restores the number of its reminder tokens in
                # the "toppled" box to two and discards any planned card."
                topple(lying, "a tripod moved onto it", events)
    if drawn:
        # 000: "Each used A damage card is shuffled back into its deck."
        shuffle_back(state, "A", drawn, rng)


def change_facing(state: GameState, facing: dict[str, int], events: list[ev.Event]) -> None:
    """000: "the Change facing token ... the side that will become the new tripod facing
    at the end of the Movement step"."""
    for vid, sides in sorted(facing.items()):
        vehicle = state.vehicles[vid]
        if not vehicle.in_play or vehicle.tripod is None or vehicle.tripod.toppled:
            continue
        vehicle.pose = turned(vehicle.pose, sides)
        events.append(ev.FacingChanged(vid, sides, vehicle.pose))


def apply_protected_hit(
    state: GameState,
    target: Vehicle,
    firer: str,
    deck: str,
    cards: list[str],
    events: list[ev.Event],
) -> None:
    """000: "all damage cards drawn by the Tripod player are immediately revealed ... The
    red damage value is ignored; If the card shows an Energy icon, the Tripod must discard
    1 Energy; If the card is an explosion, the tripod must discard an amount of Energy
    equal to its original Energy rating." The cards go back into their deck."""
    assert target.tripod is not None
    specs = state.rules.damage_cards(deck)
    lost = 0
    original = state.rules.tripod(target.type).energy
    for card_id in cards:
        spec = specs[card_id]
        if spec.explosion:
            lost += original
        elif spec.energy:
            lost += 1
    spent = spend(target, lost, f"protected hit by {firer}", events) if lost else 0
    events.append(ev.ProtectedHit(target.id, firer, deck, tuple(cards), spent))


def spend_fired(tripod: Vehicle, events: list[ev.Event]) -> None:
    """The Energy put on the projector is spent and the generator must cool down (000:
    "After a projector has fired, place on the tripod's console 1 recovery token")."""
    assert tripod.tripod is not None
    spend(tripod, 1, "heat-ray fired", events)
    tripod.tripod.cooling = 1


def recharge(state: GameState, acts: PhaseActions, events: list[ev.Event]) -> None:
    """000: "Tripods that selected this action receive 1 Energy at the end of the phase,
    after combat is resolved ... If the tripod base overlaps an Objective token, the Tripod
    player may choose to gain a number of Energy tokens equal to the [Recharge Level] ...
    A tripod can never have more tokens than its Energy rating"."""
    if not acts.recharge:
        return  # no tripod recharges this phase
    for vid, action in sorted(acts.recharge.items()):
        vehicle = state.vehicles[vid]
        tripod = vehicle.tripod
        if not vehicle.in_play or tripod is None:
            continue
        gain, source = 1, None
        if action.objective is not None:
            source = objective_under(state, vehicle, action.objective)
            objective = state.objectives[source] if source is not None else None
            if objective is not None and objective.charges > 0:
                gain = state.rules.recharge_level(vehicle.type)
                objective.charges -= 1
                objective.drained = True
            else:
                source = None
        gained = max(0, min(gain, tripod.rating - tripod.energy))
        tripod.energy += gained
        events.append(ev.Recharged(vid, gained, tripod.energy, source))


def end_of_turn(vehicle: Vehicle, events: list[ev.Event]) -> None:
    """000: "If the third maneuver card for a tripod was a reverse, the player takes a
    reverse counter"; the count of movement cards starts again."""
    tripod = vehicle.tripod
    assert tripod is not None
    if tripod.reverse_pending:
        events.append(ev.Reminder(vehicle.id, "reverse"))
    tripod.movement_cards = 0
    tripod.steadied = False


def tripod_deck(state: GameState, vehicle: Vehicle) -> TripodDeck:
    return state.rules.tripod_deck_of(vehicle.type)


def smoke_stands(state: GameState, tripod: Vehicle, projector: Side) -> list[tuple[float, float]]:
    """Where the arc-shaped ruler's stand can be: at ``length`` from the side's middle,
    bent to either side (the ruler can be flipped)."""
    spec = state.rules.catalog.constants.tripods.smoke
    middle = side_midpoint(tripod.pose, state.rules.hex_side, projector)
    normal = side_normal(tripod.pose, projector)
    out = []
    for bend in (spec.bend, -spec.bend):
        rad = math.radians(normal + bend)
        out.append(
            (middle[0] + spec.length * math.cos(rad), middle[1] + spec.length * math.sin(rad))
        )
    return out


def place_smoke(state: GameState, acts: PhaseActions, events: list[ev.Event]) -> None:
    """000: "the player places the special Black Smoke ruler (arc-shaped), at a right
    angle against the side of the tripod's base ... Then, the Tripod player places a Black
    smoke cloud template at the far end of the ruler ... as long as the plastic stand at
    the end of the ruler remains inside the circle of the Black smoke template." The cloud
    goes where the token asks (moved the least needed to keep the stand inside it), or by
    default as close as allowed to the nearest enemy airplane. Recovery: two tokens."""
    if not acts.smoke:
        return  # no tripod lays smoke this phase
    spec = state.rules.catalog.constants.tripods.smoke
    for vid, action in sorted(acts.smoke.items()):
        tripod = state.vehicles[vid]
        if not tripod.in_play or tripod.tripod is None or tripod.tripod.toppled:
            continue
        assert action.projector is not None
        stands = smoke_stands(state, tripod, Side.parse(action.projector))
        wanted = action.at
        if wanted is None:
            enemies = [
                v.pose.point
                for v in state.in_play()
                if v.side != tripod.side and v.kind == "airplane"
            ]
            wanted = (
                min(enemies, key=lambda p: min(math.dist(p, s) for s in stands))
                if enemies
                else stands[0]
            )
        stand = min(stands, key=lambda s: math.dist(s, wanted))
        gap = math.dist(stand, wanted)
        reach = spec.cloud_radius * 0.999
        if gap <= reach:
            centre = wanted
        else:
            centre = (
                stand[0] + (wanted[0] - stand[0]) * reach / gap,
                stand[1] + (wanted[1] - stand[1]) * reach / gap,
            )
        state.clouds_placed += 1
        cloud = Cloud(f"smoke-{state.clouds_placed}", centre[0], centre[1], spec.cloud_radius)
        state.clouds.append(cloud)
        spend(tripod, 1, "black smoke fired", events)
        tripod.tripod.smoke_recovery = 2
        events.append(ev.SmokeCloud(vid, action.projector, cloud.id, cloud.x, cloud.y, stand))

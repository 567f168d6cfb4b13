"""Bombing Tripods (001, "BOMBING TRIPODS"): bomb loads, the drop before the maneuvers are
revealed, the bomb card laid after movement, heat-rays at falling bombs and the bombs
hitting the ground.

001: "After action cards are chosen and before revealing any maneuvers, each bomber's
player can decide to drop one or more loads of bombs. For each bomber that drops bombs,
take a bomb card that represents all of its bombs dropped in that phase. Bombs cannot be
dropped immediately after an Immelmann/Split-S maneuver."

So the drop is a :class:`~dogfight.rules.decisions.Decision` of each bomber's seat in each
action phase (:func:`drop_decision`, ``bomb_drop:<bomber>@turn.phase``), asked after the
tripods' action tokens are placed and before the reveal, all bombers at once: options
``0`` up to the loads left (only ``0`` right after an Immelmann, the others refused with
the rule quoted). The plan's ``drop`` is only the default (the planned loads when still
legal, else none).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from dogfight.catalog.models import ManeuverCard, Symbol
from dogfight.errors import IllegalPlanError
from dogfight.geometry.maneuver import arrowhead
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import Polygon, convex_overlap, nearest_point
from dogfight.rules import events as ev
from dogfight.rules import standard
from dogfight.rules.blows import FRAGMENTS, Source
from dogfight.rules.damage import apply_cards, damage, eliminate
from dogfight.rules.decisions import Asking, Decision
from dogfight.rules.decks import draw, shuffle_back
from dogfight.rules.plans import Plan
from dogfight.rules.rays import RayOption
from dogfight.rules.state import BombCard, GameState, Vehicle
from dogfight.rules.tripod_harm import topple
from dogfight.rules.tripods import BOMBS_PREFIX
from dogfight.words.terms import plural

BOMB_DECK = "C"
"""001: "Each load causes a C damage card to the target tripod(s)." """
FRAGMENT_DECK = "Z"
"""001: "the player of the airplane draws two Z damage cards"."""
FRAGMENT_CARDS = 2
DESTROYING_POINTS = 4
"""001: "If a single heat-ray shot does 4 or more points of damage, or if it is an
explosion, the bombs are hit and explode in the air"."""

IMMELMANN_RULE = '001: "Bombs cannot be dropped immediately after an Immelmann/Split-S maneuver."'
LOAD_RULE = (
    '001: "agree on the load of each bomber. An airplane can have one or more loads of '
    'bombs" / "each bomber\'s player can decide to drop one or more loads of bombs"'
)

PICK_RULE = (
    "001: \"the bomber's player draws two C damage cards for each load of bombs dropped, and "
    'he assigns his choice of half of them to the tripod and discards the others."'
)


def check_drops(
    state: GameState, vehicle: Vehicle, plan: Plan, cards: Sequence[ManeuverCard]
) -> None:
    """Refuse a plan's drops that the rules never allow: loads the airplane does not carry
    (or more than it has left) and a drop right after an Immelmann."""
    if not any(plan.drop):
        return
    where = f"{vehicle.id}: 'drop'"
    if len(plan.drop) != 3 or any(n < 0 for n in plan.drop):
        raise IllegalPlanError(f"{where} gives the loads dropped in each of 3 phases (0 or more)")
    if vehicle.bombs == 0:
        raise IllegalPlanError(f"{where}: {vehicle.id} carries no bombs ({LOAD_RULE})")
    if sum(plan.drop) > vehicle.bombs:
        raise IllegalPlanError(
            f"{where}: drops {plural(sum(plan.drop), 'load')} with {vehicle.bombs} left "
            f"({LOAD_RULE})"
        )
    for phase, loads in enumerate(plan.drop, start=1):
        if not loads:
            continue
        before = (
            (vehicle.previous.symbol if vehicle.previous is not None else None)
            if phase == 1
            else cards[phase - 2].symbol
        )
        if before is Symbol.IMMELMANN:
            raise IllegalPlanError(
                f"{where}: phase {phase} follows an Immelmann ({IMMELMANN_RULE})"
            )


DROP = "bomb_drop"
"""The kind of the drop decision (:attr:`Decision.kind`)."""

DROP_RULE = (
    '001: "After action cards are chosen and before revealing any maneuvers, each '
    "bomber's player can decide to drop one or more loads of bombs.\""
)


def drop_decision(state: GameState, phase: int, vehicle: Vehicle) -> Decision:
    """How many loads ``vehicle`` drops this phase: ``0`` up to the loads left, only ``0``
    right after an Immelmann; shown (to its seat alone) the loads, the maneuver just
    flown and this phase's planned card (where the bomb card will lie depends on it)."""
    after = vehicle.previous is not None and vehicle.previous.symbol is Symbol.IMMELMANN
    most = 0 if after else vehicle.bombs
    options = tuple(str(n) for n in range(most + 1))
    reasons = {
        str(n): (
            f"{vehicle.id} has just flown an Immelmann: {IMMELMANN_RULE}"
            if after and n <= vehicle.bombs
            else f"{vehicle.id} has {vehicle.bombs} load{'' if vehicle.bombs == 1 else 's'} "
            f"left ({LOAD_RULE})"
        )
        for n in range(most + 1, max(vehicle.bombs, most) + 2)
    }
    plan = vehicle.plan
    planned = plan.drop[phase - 1] if plan is not None and phase <= len(plan.drop) else 0
    card = plan.cards[phase - 1] if plan is not None and phase <= len(plan.cards) else None
    shown = {
        "loads": vehicle.bombs,
        "previous": None if vehicle.previous is None else vehicle.previous.symbol.value,
        "card": None if card is None else str(card),
    }
    default = str(planned) if str(planned) in options else "0"
    return Decision.one_of(
        DROP, vehicle.id, (state.turn, phase), options, default, DROP_RULE, shown, reasons
    )


def drop(
    state: GameState, phase: int, events: list[ev.Event], asking: Asking | None = None
) -> dict[str, int]:
    """Each bomber's drop this phase, asked of its seat (all bombers at once); the loads
    leave the airplane."""
    out: dict[str, int] = {}
    for v in state.vehicles.values():  # a loop, not any(...): asked every phase
        if v.bombs > 0:
            break
    else:
        return out  # no loads left anywhere (most games carry none)
    bombers = [
        v
        for v in sorted(state.in_play(), key=lambda v: v.id)
        if v.bombs > 0 and v.plan is not None and v.tripod is None
    ]
    asked = [drop_decision(state, phase, v) for v in bombers]
    answers = {d.id: d.default for d in asked} if asking is None or not asked else asking.ask(asked)
    for vehicle, decision in zip(bombers, asked, strict=True):
        loads = int(answers[decision.id][0])
        if loads <= 0:
            continue
        vehicle.bombs -= loads
        out[vehicle.id] = loads
        events.append(ev.BombsDropped(vehicle.id, loads, vehicle.bombs))
    return out


def card_pose(state: GameState, bomber: Vehicle, last: ManeuverCard | None) -> tuple[str, Pose]:
    """Where the bomb card lies: 001 "If the last maneuver card of the bomber was a stall,
    place the stall maneuver card in front of the airplane ... If the last maneuver card
    was not a stall, place a straight maneuver card in front of the airplane ... and then
    place its bomb card so its arrow matches the arrow of the straight maneuver card." The
    bomb card's dot is put on that card's arrowhead, facing the way it points (rulings B3).
    """
    deck = state.rules.deck_of(bomber.type)
    card = last if last is not None and last.symbol is Symbol.STALL else deck.card(deck.straight)
    return card.id, arrowhead(bomber.pose, card, state.rules.base_length)


def coverage(
    state: GameState, card: BombCard, outline: Polygon | None = None
) -> tuple[list[str], list[str]]:
    """The tripods whose base the dot covers, and those only the card covers (001).
    ``outline``: the card's, when already worked out."""
    if outline is None:
        outline = state.bomb_card(card)
    spec = state.rules.catalog.constants.tripods.bomb_card
    radius = spec.dot_radius
    # a base whose centre is farther than its corners and the card's reach is not covered
    far = state.rules.hex_side + math.hypot(spec.length / 2.0, spec.width / 2.0) + 1e-6
    dot: list[str] = []
    covered: list[str] = []
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        if vehicle.tripod is None or math.dist(vehicle.pose.point, card.pose.point) > far:
            continue
        base = state.base(vehicle)
        if nearest_point(base, card.pose.point)[0] < radius:
            dot.append(vehicle.id)
        elif convex_overlap(base, outline):
            covered.append(vehicle.id)
    return dot, covered


def place(
    state: GameState,
    drops: Mapping[str, int],
    flown: Mapping[str, ManeuverCard],
    events: list[ev.Event],
) -> None:
    """001: "Then, all players execute their maneuver cards. After that, place the bomb
    cards into play". A tripod under the card is replaced by its cardboard base, which the
    engine measures anyway (rulings B4)."""
    if not drops:
        return  # nobody dropped bombs this phase (most phases)
    for bomber_id, loads in sorted(drops.items()):
        bomber = state.vehicles[bomber_id]
        used, pose = card_pose(state, bomber, flown.get(bomber_id))
        card = BombCard(f"{BOMBS_PREFIX}{bomber_id}", bomber_id, bomber.side, loads, pose)
        state.bomb_cards.append(card)
        corners = state.bomb_card(card)
        dot, covered = coverage(state, card, corners)
        events.append(
            ev.BombCardPlaced(
                card.id, bomber_id, loads, used, pose, corners, tuple(dot), tuple(covered)
            )
        )


def most_harm(state: GameState, drawn: Sequence[str], count: int) -> list[int]:
    """The default of the bomber's choice: the positions of the ``count`` cards hurting
    most (an explosion, then a special icon, then points; the first drawn on ties), in
    the order drawn."""
    specs = state.rules.damage_cards(BOMB_DECK)

    def harm(index: int) -> tuple[int, int, int, int]:
        spec = specs[drawn[index]]
        return (int(spec.explosion), int(bool(spec.specials)), spec.value, -index)

    return sorted(sorted(range(len(drawn)), key=harm, reverse=True)[:count])


def shoot(
    state: GameState,
    rays: Sequence[tuple[Vehicle, RayOption]],
    rng: np.random.Generator,
    events: list[ev.Event],
) -> None:
    """Heat-rays at falling bombs: 001 "If a single heat-ray shot does 4 or more points of
    damage, or if it is an explosion, the bombs are hit and explode in the air, without
    damaging the target tripod. In this case, if the damage card has any special damage
    icon (including an explosion), the bombs explode very close to the bombing airplane and
    it can be hit by fragments -- the player of the airplane draws two Z damage cards." The
    cards are drawn as for a shot at an airplane at that range (000)."""
    for firer, option in rays:
        index = next(i for i, c in enumerate(state.bomb_cards) if c.id == option.target)
        card = state.bomb_cards[index]
        letter = state.rules.tripod(firer.type).firepower
        specs = state.rules.damage_cards(letter)
        drawn = [draw(state, letter, rng, events)]
        first = specs[drawn[0]]
        if option.short and first.value == 0 and not first.explosion:
            drawn.append(draw(state, letter, rng, events))
        points = sum(specs[c].value for c in drawn)
        boom = any(specs[c].explosion for c in drawn)
        destroyed = not card.destroyed and (boom or points >= DESTROYING_POINTS)
        fragments = destroyed and any(specs[c].explosion or specs[c].specials for c in drawn)
        events.append(
            ev.BombsShot(card.id, firer.id, letter, tuple(drawn), points, destroyed, fragments)
        )
        shuffle_back(state, letter, drawn, rng)
        if not destroyed:
            continue
        state.bomb_cards[index] = BombCard(
            card.id, card.bomber, card.side, card.loads, card.pose, True
        )
        bomber = state.vehicles[card.bomber]
        if fragments and bomber.in_play:
            cards, exploded = damage(
                state, bomber, FRAGMENT_DECK, FRAGMENT_CARDS, False, FRAGMENTS, rng, events
            )
            specials_out = standard.apply(
                state, standard.collect(state, bomber, FRAGMENT_DECK, cards), events
            )
            _remove_if_out(state, bomber, exploded, specials_out.get(bomber.id), rng, events)


def _labels(drawn: Sequence[str]) -> tuple[str, ...]:
    """The drawn cards as a decision's options: ``position:card`` (two copies of a card
    can both be picked)."""
    return tuple(f"{i + 1}:{card}" for i, card in enumerate(drawn))


def pick_decision(
    state: GameState, card: BombCard, target: str, drawn: list[str], kind: str
) -> Decision:
    """001's choice of half of the C cards, asked of the bomber's seat alone."""
    labels = _labels(drawn)
    return Decision(
        kind=kind,
        vehicle=card.bomber,
        turn=state.turn,
        phase=state.phase,
        mode="pick",
        options=labels,
        default=tuple(labels[i] for i in most_harm(state, drawn, card.loads)),
        rule=PICK_RULE,
        count=card.loads,
        shown={"bombs": card.id, "target": target, "drawn": list(drawn), "loads": card.loads},
    )


def land(
    state: GameState, asking: Asking, rng: np.random.Generator, events: list[ev.Event]
) -> None:
    """001: bombs not eliminated hit the ground -- no base covered: a miss; the card covers
    a base but not with its dot: "one C damage card for each load"; the dot covers a base:
    "the bomber's player draws two C damage cards for each load of bombs dropped, and he
    assigns his choice of half of them to the tripod" (a decision of the bomber's seat,
    all the phase's asked together); "If the bomb card covers more than one tripod's base,
    it inflicts damage separately to each hit tripod." / "If there is any special damage
    on any C damage card inflicted, the tripod also topples." / "After calculating the
    inflicted damage, remove the bomb card." """
    specs = state.rules.damage_cards(BOMB_DECK)
    landing: list[tuple[BombCard, str, list[str], Decision | None]] = []
    for card in state.bomb_cards:
        if card.destroyed:
            continue
        dot, covered = coverage(state, card)
        if not dot and not covered:
            events.append(ev.BombsLanded(card.id, card.bomber, None, "miss", 0))
            continue
        for target_id in sorted(dot + covered):
            if target_id in dot:
                drawn = [draw(state, BOMB_DECK, rng, events) for _ in range(2 * card.loads)]
                kind = "bomb_pick" if dot.index(target_id) == 0 else f"bomb_pick_{target_id}"
                landing.append(
                    (card, target_id, drawn, pick_decision(state, card, target_id, drawn, kind))
                )
            else:
                drawn = [draw(state, BOMB_DECK, rng, events) for _ in range(card.loads)]
                landing.append((card, target_id, drawn, None))
    answers = asking.ask(d for _, _, _, d in landing if d is not None)
    hits: list[standard.Hit] = []
    exploded: set[str] = set()
    for card, target_id, drawn, decision in landing:
        target = state.vehicles[target_id]
        if decision is not None:
            picked = answers[decision.id]
            assigned = [label.split(":", 1)[1] for label in picked]
            rest = [c for lab, c in zip(decision.options, drawn, strict=True) if lab not in picked]
            events.append(ev.BomberPicked(card.bomber, target_id, tuple(drawn), tuple(assigned)))
            shuffle_back(state, BOMB_DECK, rest, rng)
            how = "dot"
        else:
            assigned = drawn
            how = "card"
        events.append(ev.BombsLanded(card.id, card.bomber, target_id, how, len(assigned)))
        source = Source(card.bomber, "bombs")
        if apply_cards(state, target, BOMB_DECK, assigned, False, source, events):
            exploded.add(target_id)
        hits.extend(standard.collect(state, target, BOMB_DECK, assigned))
        if any(specs[c].specials for c in assigned) and target.tripod is not None:
            topple(target, "bombs: a special damage icon on a C card", events)
    state.bomb_cards = []
    specials_out = standard.apply(state, hits, events)
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        _remove_if_out(
            state, vehicle, vehicle.id in exploded, specials_out.get(vehicle.id), rng, events
        )


def _remove_if_out(
    state: GameState,
    vehicle: Vehicle,
    exploded: bool,
    special: str | None,
    rng: np.random.Generator,
    events: list[ev.Event],
) -> None:
    if not vehicle.in_play:
        return
    if special is not None:
        eliminate(state, vehicle, special, rng, events)
    elif exploded:
        eliminate(state, vehicle, "exploded", rng, events)
    elif vehicle.damage >= vehicle.resistance:
        eliminate(state, vehicle, "shot_down", rng, events)

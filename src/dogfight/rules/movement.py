"""Movement: revealing airplane cards (and the illegal-maneuver rules), clouds touched by a
move, and the playing area's edge.
"""

from __future__ import annotations

import numpy as np
import shapely

from dogfight.catalog.models import (
    IllegalManeuver as IllegalRule,
)
from dogfight.catalog.models import (
    ManeuverCard,
    TripodCard,
)
from dogfight.geometry.maneuver import card_area
from dogfight.geometry.pose import Pose, normalize_heading
from dogfight.rules import standard
from dogfight.rules.blows import ILLEGAL, SMOKE
from dogfight.rules.damage import damage, eliminate
from dogfight.rules.events import (
    CloudDispersed,
    Event,
    IllegalManeuver,
    Revealed,
)
from dogfight.rules.plans import card_problem, flown, may_break
from dogfight.rules.state import GameState, Vehicle


def reveal(
    state: GameState, vehicle: Vehicle, phase: int, rng: np.random.Generator, events: list[Event]
) -> ManeuverCard | None:
    """Reveal this phase's card; apply the ruleset's illegal-maneuver rule. Returns the
    card to fly, or None when the vehicle is eliminated."""
    assert vehicle.plan is not None
    rules = state.rules
    card_id = vehicle.plan.cards[phase - 1]
    # checked when planned: in the deck (its cards by id, one subscript), or deck.card's error
    found = rules.maneuver_cards(vehicle.type).get(card_id)
    card = found if found is not None else rules.deck_of(vehicle.type).card(card_id)
    facts = flown(card)
    # _value_ is what Enum.value gives, read without the property's call
    events.append(Revealed(vehicle.id, phase, card.id, facts.symbol._value_, facts.steep))
    previous = vehicle.previous
    if not may_break(previous, facts):
        return card  # a level card after a level card: no restriction to check
    problem = card_problem(previous, card, phase == 1, rules.restrictions)
    if problem is None:
        return card
    deck = rules.deck_of(vehicle.type)
    switches = rules.switches
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
        eliminate(state, vehicle, "out_of_control", rng, events)
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
    deck_id = state.rules.damage_deck(switches.illegal_damage_deck, vehicle.type)
    cards, exploded = damage(state, vehicle, deck_id, 1, False, ILLEGAL, rng, events)
    hits = standard.collect(state, vehicle, deck_id, cards)
    special_out = standard.apply(state, hits, events)
    if vehicle.id in special_out:
        eliminate(state, vehicle, special_out[vehicle.id], rng, events)
        return None
    if exploded:
        eliminate(state, vehicle, "exploded", rng, events)
        return None
    if vehicle.damage >= vehicle.resistance:
        eliminate(state, vehicle, "out_of_control", rng, events)
        return None
    return straight


def outside(state: GameState, vehicle: Vehicle) -> bool:
    """000: "the center of its base is even partly outside of the playing area"; the dot is
    a point, so on the edge is still inside."""
    x, y = vehicle.pose.x, vehicle.pose.y
    return x < 0 or y < 0 or x > state.rules.table_width or y > state.rules.table_height


def disperse_clouds(
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
            smoke = state.rules.damage_deck("Z", vehicle.type)
            cards, boom = damage(state, vehicle, smoke, 1, False, SMOKE, rng, events)
            hits.extend(standard.collect(state, vehicle, smoke, cards))
            if boom:
                eliminate(state, vehicle, "exploded", rng, events)
    out = standard.apply(state, hits, events)
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        if vehicle.id in out:
            eliminate(state, vehicle, out[vehicle.id], rng, events)
        elif vehicle.damage >= vehicle.resistance:
            eliminate(state, vehicle, "shot_down", rng, events)

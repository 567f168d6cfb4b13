"""A thousand random playouts checking invariants of the rules."""

from __future__ import annotations

import math

from dogfight.catalog import load_catalog
from dogfight.geometry.reach import point_in_arc
from dogfight.geometry.shapes import nearest_point, rectangle
from dogfight.rules import events as ev
from dogfight.sim.duel import duel_situation, melee_situation, random_game

AIRPLANES = [
    "sopwith-camel",
    "albatros-d5a",
    "spad-xiii",
    "fokker-dr1",
    "breguet-14",
    "nieuport-16",
    "caproni-ca3",
]


def test_thousand_random_playouts_keep_invariants() -> None:
    """Damage never decreases; eliminated vehicles never act again; nobody fires at a
    target outside its arc or beyond the ruler, or at a friend; every game ends or hits
    the turn cap; the winner is the only side left."""
    catalog = load_catalog()
    constants = catalog.constants
    for seed in range(1000):
        first = AIRPLANES[seed % len(AIRPLANES)]
        second = AIRPLANES[(seed // len(AIRPLANES)) % len(AIRPLANES)]
        situation = melee_situation(4) if seed % 10 == 0 else duel_situation(first, second)
        game = random_game(catalog, seed, situation, max_turns=12)
        damage = {v.id: v.damage for v in game.start.vehicles.values()}
        sides = {v.id: v.side for v in game.start.vehicles.values()}
        types = {v.id: v.type for v in game.start.vehicles.values()}
        poses = {v.id: v.pose for v in game.start.vehicles.values()}
        out: set[str] = set()
        for event in game.events:
            if isinstance(event, ev.DamageDrawn):
                assert event.vehicle not in out
                assert event.total >= damage[event.vehicle]
                damage[event.vehicle] = event.total
            elif isinstance(event, ev.Moved):
                assert event.vehicle not in out, f"seed {seed}: {event.vehicle} moved when out"
                poses[event.vehicle] = event.end
            elif isinstance(event, ev.Fired):
                assert event.firer not in out and event.target not in out
                assert sides[event.firer] != sides[event.target]
                pose = poses[event.firer]
                arc = constants.arcs.front if event.weapon == "front" else constants.arcs.rear
                from dogfight.geometry.reach import Arc

                assert point_in_arc(event.point, pose, Arc(arc.centre, arc.width))
                assert event.distance <= constants.ruler.length + 1e-6
                base = rectangle(
                    poses[event.target],
                    constants.airplane_base.length,
                    constants.airplane_base.width,
                )
                gap, _ = nearest_point(base, event.point)
                assert gap < 1e-6, "the shot ends on the target's base"
                assert math.isclose(
                    event.distance, math.dist(pose.point, event.point), abs_tol=1e-6
                )
                assert (event.range == "short") == (event.distance <= constants.ruler.half + 1e-9)
                assert types[event.firer]
            elif isinstance(event, ev.Eliminated):
                assert event.vehicle not in out
                out.add(event.vehicle)
        if game.state.over:
            left = {v.side for v in game.state.in_play()}
            assert game.state.winner in (left | {None})
            assert len(left) <= 1
        else:
            assert game.state.turn > 12
        for vehicle in game.state.vehicles.values():
            assert vehicle.damage == damage[vehicle.id]


def test_random_playouts_with_tripods_keep_invariants() -> None:
    """Two tripods against four airplanes, 150 random games: Energy stays within 0 and the
    rating, toppled tokens within 0..2, damage never decreases, nobody acts once out,
    heat-rays only reach airplanes of the other side, protected hits never add damage."""
    from dogfight.sim.duel import tripods_situation

    catalog = load_catalog()
    for seed in range(150):
        game = random_game(catalog, seed, tripods_situation(), max_turns=8)
        ratings = {v.id: v.tripod.rating for v in game.start.vehicles.values() if v.tripod}
        sides = {v.id: v.side for v in game.start.vehicles.values()}
        kinds = {v.id: v.kind for v in game.start.vehicles.values()}
        damage = {v.id: v.damage for v in game.start.vehicles.values()}
        out: set[str] = set()
        for event in game.events:
            if isinstance(event, ev.EnergyChanged):
                assert 0 <= event.energy <= ratings[event.vehicle]
            elif isinstance(event, ev.Recharged):
                assert event.energy <= ratings[event.vehicle]
            elif isinstance(event, ev.ToppledTokens):
                assert 0 <= event.tokens <= 2
            elif isinstance(event, ev.HeatRay):
                assert event.firer not in out
                if event.target is not None:
                    assert kinds[event.target] == "airplane"
                    assert sides[event.target] != sides[event.firer]
            elif isinstance(event, ev.DamageDrawn):
                assert event.total >= damage[event.vehicle]
                damage[event.vehicle] = event.total
            elif isinstance(event, ev.ProtectedHit):
                assert kinds[event.vehicle] == "tripod"
            elif isinstance(event, ev.Moved | ev.Fired):
                actor = event.vehicle if isinstance(event, ev.Moved) else event.firer
                assert actor not in out
            elif isinstance(event, ev.Eliminated):
                out.add(event.vehicle)
        for vehicle in game.state.vehicles.values():
            if vehicle.tripod is not None:
                assert 0 <= vehicle.tripod.energy <= vehicle.tripod.rating
            assert vehicle.damage == damage[vehicle.id]


def test_no_seat_sees_another_seats_card_before_it_is_revealed() -> None:
    """000 PLANNING: the cards are revealed one phase at a time ("All players
    simultaneously reveal the first of their planned maneuver cards"). In random playouts
    with tripods (toppled ones plan fewer cards, "for the last phases of the turn"),
    after every phase what each seat sees of another seat's plan is only cards already
    revealed, in their order."""
    import numpy as np

    from dogfight.bots.random_plans import random_plans
    from dogfight.rules.chance import step_rng
    from dogfight.rules.engine import resolve_phase, start_turn
    from dogfight.rules.observation import observe, side_seat
    from dogfight.sim.duel import tripods_situation
    from dogfight.situation.format import build

    catalog = load_catalog()
    short_plans = 0
    for seed in range(40):
        state = build(tripods_situation(), catalog, seed)
        sides = sorted({v.side for v in state.vehicles.values()})
        planner = np.random.Generator(np.random.PCG64(seed))
        while not state.over and state.turn <= 8:
            state, _ = start_turn(state, random_plans(state, planner))
            short_plans += sum(
                v.tripod is not None and v.plan is not None and len(v.plan.cards) < 3
                for v in state.vehicles.values()
            )
            shown: dict[str, list[str]] = {}
            while not state.over:
                state, events = resolve_phase(state, step_rng(seed, state.turn, state.phase + 1))
                if state.phase == 0:
                    break
                for e in events:
                    if isinstance(e, ev.Revealed):
                        shown.setdefault(e.vehicle, []).append(e.card)
                for side in sides:
                    seat = side_seat(state, side)
                    for view in observe(state, seat)["vehicles"]:
                        if view["id"] in seat or "revealed" not in view:
                            continue
                        seen = view["revealed"]
                        assert seen == shown.get(view["id"], [])[: len(seen)], (seed, view["id"])
    assert short_plans > 0  # toppled tripods planned fewer cards in these games

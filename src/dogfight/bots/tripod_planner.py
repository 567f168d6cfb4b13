"""The planning bots' tripod (the ``martian`` bot): cards towards the next objective or
exit edge, heat-rays when ready, recharges when idle, the projector facing the nearest
airplane."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from dogfight.bots.invasion import nearest_enemy
from dogfight.bots.plane_planner import heat_ray_threat, weapons_at
from dogfight.bots.threats import (
    OFF_TABLE,
    airplane_enemy,
    base_points,
    nearest_in_arc,
    odds,
    unprotected,
    world_points,
)
from dogfight.bots.tripod_moves import outside_except, tripod_sequences
from dogfight.catalog.models import (
    TripodSymbol,
)
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Pose
from dogfight.rules.context import Rules
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState, Vehicle

Projector = Literal["front", "front-left", "rear-left", "rear", "rear-right", "front-right"]


# --- tripods ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """Where a tripod is heading and what it does there."""

    x: float
    y: float
    objective: str | None
    token: str | None
    """``recharge`` (drain) or ``destroy_objective`` on the objective; None: exit."""
    exit_edge: str | None = None


def _goal(state: GameState, tripod: Vehicle, scenario: str | None) -> Goal | None:
    """The next objective to drain or destroy, else the edge to leave by once enough are
    done (as the scenario's victory says); None when no objective matters."""
    rules = state.rules
    spec = rules.catalog.scenarios.get(scenario) if scenario else None
    win = None
    if spec is not None:
        win = next(
            (v for v in spec.victory if v.side == tripod.side and v.kind == "objectives_and_exit"),
            None,
        )
    if win is None:
        return None
    drain = win.objective_action == "drain"
    if win.objective_action == "reach":
        # 001's WW2 scenarios: walk over every objective template
        done = sum(1 for o in state.objectives.values() if o.reached)
        open_ones = [o for o in state.objectives.values() if not o.reached]
    else:
        done = sum(
            1
            for o in state.objectives.values()
            if (o.destroyed if not drain else (o.charges == 0 or o.destroyed))
        )
        open_ones = [
            o
            for o in state.objectives.values()
            if not o.destroyed and (o.charges > 0 if drain else True)
        ]
    if done < win.objectives and open_ones:
        target = min(open_ones, key=lambda o: (math.dist(tripod.pose.point, (o.x, o.y)), o.id))
        if win.objective_action == "reach":
            return Goal(target.x, target.y, target.id, None)
        return Goal(target.x, target.y, target.id, "recharge" if drain else "destroy_objective")
    edge = win.exit_edge or "south"
    w, h = rules.table_width, rules.table_height
    x, y = tripod.pose.point
    point = {
        "south": (x, -20.0),
        "north": (x, h + 20.0),
        "west": (-20.0, y),
        "east": (w + 20.0, y),
    }[edge]
    return Goal(point[0], point[1], None, None, edge)


def plan_tripod(
    state: GameState,
    tripod: Vehicle,
    scenario: str | None,
    rng: np.random.Generator,
    samples: int = 10,
) -> Plan:
    """A tripod's cards and action tokens for the turn (see :class:`MartianBot`)."""
    rules = state.rules
    assert tripod.tripod is not None
    console = tripod.tripod
    deck = rules.tripod_deck_of(tripod.type)
    seqs, (x, y, h) = tripod_sequences(state, tripod)
    n, count = seqs.shape
    offset = 3 - count
    cards = deck.cards
    stand = np.array([c.symbol is TripodSymbol.STAND for c in cards])
    stop = np.array([c.stop for c in cards])
    goal = _goal(state, tripod, scenario)
    plane = nearest_enemy(state, tripod)
    score = np.zeros(n)
    # never off the table, except across the edge the scenario asks us to leave by
    edge = goal.exit_edge if goal is not None else None
    off = outside_except(rules, x, y, edge).any(axis=1)
    score -= OFF_TABLE * off
    radius = rules.hex_apothem() + rules.catalog.constants.tripods.objective_radius - 0.6
    token_at: list[tuple[int, str]] = [(-1, "")] * n
    if goal is not None:
        dist = np.hypot(x[:, 2] - goal.x, y[:, 2] - goal.y)
        score -= 1.0 * dist
        if goal.objective is not None:
            # a standing still card on the objective drains (or destroys) it
            on_it = np.hypot(x - goal.x, y - goal.y) <= radius  # (n, 3)
            standing = np.zeros((n, 3), dtype=np.bool_)
            for p in range(offset, 3):
                standing[:, p] = stand[seqs[:, p - offset]]
            useful = on_it & standing if goal.token is not None else on_it
            first = np.where(useful.any(axis=1), useful.argmax(axis=1), -1)
            score += 60.0 * (first >= 0) - 3.0 * np.maximum(first, 0)
            token_at = [(int(f), goal.token or "") if f >= 0 else (-1, "") for f in first.tolist()]
    elif plane is not None:
        dist = np.hypot(x[:, 2] - plane.pose.x, y[:, 2] - plane.pose.y)
        score -= 0.3 * np.abs(dist - 0.6 * rules.heat_ray_ruler(tripod.type).length)
    # heat-ray opportunities and airplane threats, against plausible airplane plans
    ray_plan = np.zeros((n, 3))
    if plane is not None and plane.tripod is not None:
        # 001: an enemy tripod -- aimed at where it stands (it moves little)
        mx, my_ = world_points(
            np.array([plane.pose.x]),
            np.array([plane.pose.y]),
            np.array([plane.pose.heading]),
            base_points(rules, plane),
        )
        for p in range(3):
            ray_plan[:, p] = heat_ray_threat(rules, tripod, x[:, p], y[:, p], h[:, p], mx, my_)[
                :, 0
            ]
    elif plane is not None:
        _, flights, _, picks = airplane_enemy(state, plane, rng, samples)
        w = np.full(len(picks), 1.0 / len(picks))
        px_all, py_all, ph_all = flights.x[picks], flights.y[picks], flights.heading[picks]
        points = base_points(rules, plane)
        for p in range(3):
            mx, my_ = world_points(px_all[:, p], py_all[:, p], ph_all[:, p], points)
            got = heat_ray_threat(rules, tripod, x[:, p], y[:, p], h[:, p], mx, my_)  # (n, m)
            ray_plan[:, p] = got @ w
            # damage the airplane's guns may do on unprotected sides
            for weapon, letter in weapons_at(rules, plane, p):
                arc = rules.arc(weapon)
                tx, ty = world_points(x[:, p], y[:, p], h[:, p], base_points(rules, tripod))
                d2 = nearest_in_arc(
                    px_all[:, p], py_all[:, p], ph_all[:, p] + arc.centre, arc.width / 2.0, tx, ty
                ).T  # (n, m)
                reach = d2 <= rules.ruler**2
                cards_n = np.where(d2 <= rules.half**2, 2.0, 1.0) * reach
                open_side = unprotected(
                    rules, tripod, x[:, p], y[:, p], h[:, p], px_all[:, p], py_all[:, p]
                ).T
                card = odds(rules, letter, tripod)
                score -= 0.7 * ((cards_n * open_side * card.points) @ w)
    # choose heat-ray phases: ready, Energy to spare, no Stop icon, no green token there
    energy = console.energy
    # an energy card revealed without Energy topples the tripod, and armour hits drain
    # Energy unforeseen: plan one only with two to spare, and keep it out of the rays
    needs = np.array([c.energy for c in cards], dtype=np.int64)[seqs].sum(axis=1)
    score -= OFF_TABLE * (needs > 0) * (energy < needs + 2)
    # Standard Rules: a wounded pilot cannot fire while the tripod moves
    wounded = rules.switches.standard_rules and bool(tripod.status.get("wounded"))
    moving = np.array([c.moves for c in cards])
    chosen_rays = np.zeros((n, 3), dtype=np.bool_)
    if plane is not None and energy > 0:
        ready = np.full(n, console.cooling == 0)
        left = energy - needs
        for p in range(3):
            if p < offset:
                ready[:] = True
                continue
            idx = seqs[:, p - offset]
            free = ~stop[idx] & np.array([t[0] != p for t in token_at])
            if wounded:
                free &= ~moving[idx]
            worth = ray_plan[:, p] > 0.4
            fire = ready & free & worth & (left >= 2)
            chosen_rays[:, p] = fire
            score += 2.0 * np.where(fire, ray_plan[:, p], 0.0)
            left = left - fire
            ready = ~fire
    best = int(np.argmax(score))
    planned = [cards[int(i)] for i in seqs[best]]
    actions: list[Action | None] = [None, None, None]
    phase_token, token = token_at[best]
    if phase_token >= 0 and goal is not None and goal.token is not None:
        actions[phase_token] = _token(token, goal.objective)
    for p in range(3):
        if chosen_rays[best, p] and actions[p] is None and plane is not None:
            pose = Pose(float(x[best, p]), float(y[best, p]), float(h[best, p]))
            actions[p] = Action(
                token="heat_ray", projector=facing_projector(rules, tripod.type, pose, plane)
            )
    # a standing still card with nothing to do: recharge when short of Energy
    for p in range(offset, 3):
        card = planned[p - offset]
        idle = actions[p] is None and card.symbol is TripodSymbol.STAND and not card.stop
        if idle and energy < console.rating:
            actions[p] = Action(token="recharge")
            energy += 1
    return Plan(cards=tuple(c.id for c in planned), actions=tuple(actions))


def _token(token: str, objective: str | None) -> Action:
    if token == "destroy_objective":
        return Action(token="destroy_objective", objective=objective)
    return Action(token="recharge", objective=objective)


def predict(plane: Vehicle) -> tuple[float, float]:
    """Where an airplane will roughly be after its next card: ahead of its nose (a tripod
    stays about where it is)."""
    if plane.tripod is not None:
        return plane.pose.point
    return plane.pose.to_world(9.0, 0.0)


def facing_projector(rules: Rules, tripod_type: str, pose: Pose, plane: Vehicle) -> Projector:
    """The projector whose side faces the airplane's next position best."""
    point = predict(plane)
    bearing = math.degrees(math.atan2(point[1] - pose.y, point[0] - pose.x))

    def off(name: str) -> float:
        normal = pose.heading + 60.0 * int(Side.parse(name))
        return abs((bearing - normal + 180.0) % 360.0 - 180.0)

    return min(rules.tripod(tripod_type).projectors, key=lambda n: (off(n), n))

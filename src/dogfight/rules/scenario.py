"""Scenarios (000): placement rules checked at setup, reinforcements, and victory judged
by the engine instead of the simple battle's last-side-standing rule."""

from __future__ import annotations

import math

from dogfight.catalog.models import Scenario, ScenarioVehicle, Victory
from dogfight.geometry.pose import Pose
from dogfight.rules import events as ev
from dogfight.rules.state import GameState, Vehicle


def edge_distance(state: GameState, point: tuple[float, float], edge: str) -> float:
    """How far a point is from one table edge (negative when beyond it)."""
    x, y = point
    return {
        "south": y,
        "north": state.rules.table_height - y,
        "west": x,
        "east": state.rules.table_width - x,
    }[edge]


def exit_edge(state: GameState, point: tuple[float, float]) -> str:
    """The edge a centre that left the table went across (the one it is furthest beyond)."""
    return min(("south", "north", "west", "east"), key=lambda e: edge_distance(state, point, e))


def on_own_half(state: GameState, point: tuple[float, float], edge: str) -> bool:
    """Whether a point lies in the half of the table next to ``edge``."""
    across = state.rules.table_height if edge in ("north", "south") else state.rules.table_width
    return edge_distance(state, point, edge) < across / 2.0


def placement_problem(
    state: GameState, scenario: Scenario, spec: ScenarioVehicle, pose: Pose
) -> str | None:
    """Why a vehicle's starting pose breaks the scenario's placement rule (None: fine)."""
    side = scenario.side(spec.side)
    assert side is not None
    point = pose.point
    if not (0 <= point[0] <= state.rules.table_width and 0 <= point[1] <= state.rules.table_height):
        return "must be on the table"
    if spec.placement == "edge" and edge_distance(state, point, side.edge) > scenario.edge_depth:
        return (
            f"must stand along the {spec.side} side of the table: its centre at most "
            f"{scenario.edge_depth:g} cm from the {side.edge} edge"
        )
    if spec.placement == "half" and not on_own_half(state, point, side.edge):
        return f"must be on the {spec.side} side of the table (the {side.edge} half)"
    if spec.min_distance is not None:
        for other in state.in_play():
            if other.side == spec.min_distance.side:
                gap = math.dist(point, other.pose.point)
                if gap <= spec.min_distance.distance:
                    return (
                        f"must be more than {spec.min_distance.distance:g} cm from {other.id} "
                        f"(it is {gap:.1f} cm)"
                    )
    return None


def objectives_problem(state: GameState, scenario: Scenario) -> str | None:
    """Why the objective tokens break the scenario's rule (None: fine)."""
    rule = scenario.objectives
    tokens = list(state.objectives.values())
    if rule is None:
        return "this scenario has no objectives" if tokens else None
    if len(tokens) != rule.count:
        return f"the scenario places {rule.count} objective tokens, not {len(tokens)}"
    centre = (state.rules.table_width / 2.0, state.rules.table_height / 2.0)
    for token in tokens:
        gap = math.dist(centre, (token.x, token.y))
        if gap > rule.max_from_centre + 1e-9:
            return (
                f"objective {token.id} is {gap:.1f} cm from the centre; at most "
                f"{rule.max_from_centre:g} cm allowed"
            )
    for i, a in enumerate(tokens):
        for b in tokens[i + 1 :]:
            gap = math.dist((a.x, a.y), (b.x, b.y))
            if gap < rule.min_apart - 1e-9:
                return (
                    f"objectives {a.id} and {b.id} are {gap:.1f} cm apart; at least "
                    f"{rule.min_apart:g} cm needed"
                )
    return None


def _met(state: GameState, win: Victory) -> bool:
    if win.kind == "destroy":
        return all(
            vid in state.vehicles and state.vehicles[vid].eliminated not in (None, "left_area")
            for vid in win.vehicles
        )
    done = [
        o
        for o in state.objectives.values()
        if (o.destroyed if win.objective_action == "destroy" else o.drained)
    ]
    exited = any(
        v.side == win.side and v.eliminated == "left_area" and v.exit_edge == win.exit_edge
        for v in state.vehicles.values()
    )
    return len(done) >= win.objectives and exited


def judge(state: GameState, events: list[ev.Event]) -> None:
    """Check the scenario's victory conditions in order; the first met ends the game. A
    side with nothing left in play (and no reinforcement to come) also ends it, with no
    winner if no condition is met."""
    scenario = state.scenario
    assert scenario is not None
    for win in scenario.victory:
        if _met(state, win):
            state.over = True
            state.winner = win.side
            events.append(ev.ScenarioWon(win.side, win.text))
            return
    waiting = {v.side for v in state.reserves.values()}
    for side in scenario.sides:
        if side.name not in waiting and not any(v.side == side.name for v in state.in_play()):
            state.over = True
            state.winner = None
            events.append(ev.ScenarioWon(None, f"the {side.name} side has nothing left in play"))
            return


def reinforce(state: GameState, events: list[ev.Event]) -> None:
    """Bring in reinforcements whose predecessors are all out, at the pose asked for or,
    if that breaks the placement rule now, at the nearest legal point along the same line
    of the table (000: "a second rocket-armed Nieuport appears ...")."""
    scenario = state.scenario
    if scenario is None:
        return
    for spec in scenario.reinforcements:
        reserve = state.reserves.get(spec.id)
        if reserve is None:
            continue
        if not all(
            gone in state.vehicles and not state.vehicles[gone].in_play for gone in spec.when_gone
        ):
            continue
        pose = _legal_pose(state, scenario, spec, reserve.pose)
        if pose is None:
            continue
        reserve.pose = pose
        del state.reserves[spec.id]
        state.vehicles[spec.id] = reserve
        events.append(ev.Reinforcement(spec.id, reserve.type, pose))


def _legal_pose(
    state: GameState, scenario: Scenario, spec: ScenarioVehicle, wanted: Pose
) -> Pose | None:
    if placement_problem(state, scenario, spec, wanted) is None:
        return wanted
    width = state.rules.table_width
    for step in range(1, int(width) + 1):
        for sign in (1.0, -1.0):
            candidate = Pose(wanted.x + sign * step, wanted.y, wanted.heading)
            if (
                0 <= candidate.x <= width
                and placement_problem(state, scenario, spec, candidate) is None
            ):
                return candidate
    # Nowhere along that line (001: "at least at two rulers from the tripod" may rule out
    # a whole line): the nearest legal point of the table, on a 1 cm grid.
    height = state.rules.table_height
    best: Pose | None = None
    best_gap = math.inf
    for gx in range(int(width) + 1):
        for gy in range(int(height) + 1):
            gap = math.hypot(gx - wanted.x, gy - wanted.y)
            if gap >= best_gap:
                continue
            candidate = Pose(float(gx), float(gy), wanted.heading)
            if placement_problem(state, scenario, spec, candidate) is None:
                best, best_gap = candidate, gap
    return best


def skill_ready(vehicle: Vehicle, skill: str, phase_number: int) -> bool:
    """000: "once every 5 phases"."""
    if skill not in vehicle.skills:
        return False
    last = vehicle.skill_used.get(skill)
    return last is None or phase_number - last >= 5

"""Scenarios (000): placement rules checked at setup, reinforcements, and victory judged
by the engine instead of the simple battle's last-side-standing rule."""

from __future__ import annotations

import math

import shapely

from dogfight.catalog.models import Scenario, ScenarioVehicle, Victory
from dogfight.geometry.pose import Pose
from dogfight.rules import events as ev
from dogfight.rules.state import GameState, Objective, Vehicle


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


PLACEMENT_TOLERANCE = 1.0
"""cm: how far a centre may be from a spot the scenario fixes (001's "at one ruler from
its side", "at half a ruler from the middle of its side", the six objective templates)."""


def edge_point(state: GameState, edge: str, across: float, depth: float) -> tuple[float, float]:
    """The table point ``depth`` cm in from the middle of ``edge`` and ``across`` cm to the
    right of it, as seen from that edge looking across the table."""
    return table_point(state.rules.table_width, state.rules.table_height, edge, across, depth)


def table_point(w: float, h: float, edge: str, across: float, depth: float) -> tuple[float, float]:
    """:func:`edge_point` on a ``w`` x ``h`` table (before any game state exists)."""
    return {
        "south": (w / 2.0 + across, depth),
        "north": (w / 2.0 - across, h - depth),
        "west": (depth, h / 2.0 - across),
        "east": (w - depth, h / 2.0 + across),
    }[edge]


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
    if spec.placement == "depth" and spec.depth is not None:
        gap = edge_distance(state, point, side.edge)
        if abs(gap - spec.depth) > PLACEMENT_TOLERANCE:
            return (
                f"must stand {spec.depth:g} cm from the {side.edge} edge (its centre is "
                f"{gap:.1f} cm from it; {PLACEMENT_TOLERANCE:g} cm tolerance)"
            )
        if spec.centred:
            middle = edge_point(state, side.edge, 0.0, spec.depth)
            off = math.dist(point, middle)
            if off > PLACEMENT_TOLERANCE:
                return (
                    f"must stand at the middle of the {side.edge} edge, {spec.depth:g} cm in: "
                    f"({middle[0]:g}, {middle[1]:g}); it is {off:.1f} cm away"
                )
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
    if rule.layout:
        side = scenario.side(rule.placed_by)
        edge = side.edge if side is not None else "south"
        free = list(tokens)
        for across, depth in rule.layout:
            spot = edge_point(state, edge, across, depth)
            match = next(
                (t for t in free if math.dist(spot, (t.x, t.y)) <= PLACEMENT_TOLERANCE), None
            )
            if match is None:
                return (
                    f"an objective token must stand at ({spot[0]:g}, {spot[1]:g}) (the "
                    f"scenario's layout, {PLACEMENT_TOLERANCE:g} cm tolerance)"
                )
            free.remove(match)
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


def own_losses(state: GameState, side: str) -> int:
    """How many of ``side``'s vehicles are out of the game, whatever the reason."""
    return sum(1 for v in state.vehicles.values() if v.side == side and not v.in_play)


def reinforced(state: GameState, side: str) -> bool:
    """Whether one of ``side``'s reinforcements has entered the table."""
    scenario = state.scenario
    if scenario is None:
        return False
    return any(spec.side == side and spec.id in state.vehicles for spec in scenario.reinforcements)


def _met(state: GameState, win: Victory) -> bool:
    if win.own_losses is not None and own_losses(state, win.side) not in win.own_losses:
        return False
    if win.reinforced is not None and reinforced(state, win.side) != win.reinforced:
        return False
    if win.kind == "last_in_play":
        standing = {v.side for v in state.in_play()}
        waiting = {v.side for v in state.reserves.values()}
        return standing == {win.side} and waiting <= {win.side}
    if win.kind == "destroy":
        gone: tuple[str | None, ...] = (None,) if win.left_area_counts else (None, "left_area")
        return all(
            vid in state.vehicles and state.vehicles[vid].eliminated not in gone
            for vid in win.vehicles
        )
    done = [o for o in state.objectives.values() if _objective_done(o, win.objective_action)]
    if len(done) < win.objectives:
        return False
    own = [v for v in state.vehicles.values() if v.side == win.side]
    exited = [v for v in own if v.eliminated == "left_area" and v.exit_edge == win.exit_edge]
    if win.all_exit:
        return (
            bool(own)
            and len(exited) == len(own)
            and not any(r.side == win.side for r in state.reserves.values())
        )
    return bool(exited)


def _objective_done(objective: Objective, action: str) -> bool:
    if action == "destroy":
        return objective.destroyed
    if action == "drain":
        return objective.drained
    return objective.reached


def mark_reached(state: GameState, events: list[ev.Event]) -> None:
    """001: "the tripod reaches all three objective templates": an objective template is
    reached once a standing or toppled tripod's base overlaps it after a movement step
    (docs/rulings.md)."""
    if not state.objectives:
        return
    radius = state.rules.catalog.constants.tripods.objective_radius
    reach = state.rules.hex_side + radius  # the hexagon's circumradius is its side
    for vehicle in sorted(state.in_play(), key=lambda v: v.id):
        if vehicle.tripod is None:
            continue
        base = None
        for oid in sorted(state.objectives):
            objective = state.objectives[oid]
            if objective.reached:
                continue
            if math.dist(vehicle.pose.point, (objective.x, objective.y)) >= reach:
                continue  # too far for the base to overlap it
            if base is None:
                base = shapely.Polygon(state.base(vehicle))
            if base.distance(shapely.Point(objective.x, objective.y)) < radius:
                objective.reached = True
                events.append(ev.ObjectiveReached(oid, vehicle.id))


def verdict(state: GameState) -> Victory | None:
    """The first of the scenario's victory conditions met now (None: none)."""
    scenario = state.scenario
    if scenario is None:
        return None
    return next((win for win in scenario.victory if _met(state, win)), None)


def judge(state: GameState, events: list[ev.Event]) -> tuple[str, str | None] | None:
    """Check the scenario's victory conditions in order; the first met ends the game. A
    side with nothing left in play (and no reinforcement to come) also ends it, with no
    winner if no condition is met. Returns why the game ended, in words, and a graded
    victory's level (001's solo scenarios); None while it goes on."""
    scenario = state.scenario
    assert scenario is not None
    win = verdict(state)
    if win is not None:
        state.over = True
        state.winner = win.side
        text = win.text if win.level is None else f"{win.level} victory: {win.text}"
        events.append(ev.ScenarioWon(win.side, text))
        return win.outcome, win.level
    waiting = {v.side for v in state.reserves.values()}
    for side in scenario.sides:
        if side.name not in waiting and not any(v.side == side.name for v in state.in_play()):
            state.over = True
            state.winner = None
            events.append(ev.ScenarioWon(None, f"the {side.name} side has nothing left in play"))
            return (
                f"the {side.name} side has nothing left in play and no side met its victory "
                "conditions"
            ), None
    return None


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

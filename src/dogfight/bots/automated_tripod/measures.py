"""Measures the Automated Tripod's procedure asks for: distances to bases and edges,
facing Earth, turning towards a point, aims of the heat-ray and objectives under a base.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dogfight.bots.automated_tripod.scene import Plane, Scene
from dogfight.catalog.models import (
    TemplateSpec,
    TripodCard,
)
from dogfight.geometry.heatray import RulerSpec, best_shot
from dogfight.geometry.hexbase import Side, hexagon, turned
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Point, Pose, normalize_heading
from dogfight.geometry.shapes import (
    Polygon,
    contains,
    convex_overlap,
    local_rectangle,
    nearest_point,
    point_segment_distance,
)


def poly_distance(a: Polygon, b: Polygon) -> float:
    """The shortest distance between two convex polygons (0 when they touch or overlap)."""
    if convex_overlap(a, b) or contains(a, b[0]) or contains(b, a[0]):
        return 0.0
    best = math.inf
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        for p in poly:
            for i in range(n):
                d, _ = point_segment_distance(p, other[i], other[(i + 1) % n])
                best = min(best, d)
    return best


def edge_distance(scene: Scene, point: Point, edge: str) -> float:
    x, y = point
    return {
        "south": y,
        "north": scene.rules.table_height - y,
        "west": x,
        "east": scene.rules.table_width - x,
    }[edge]


def base_edge_distance(scene: Scene, base: Polygon, edge: str) -> float:
    """How far a base is from a table edge (its nearest vertex)."""
    return max(0.0, min(edge_distance(scene, v, edge) for v in base))


def after(scene: Scene, card: TripodCard, pose: Pose | None = None) -> Pose:
    """Where the tripod stands after ``card`` (backwards after a reverse, as the engine
    moves it: 000's "the maneuver card is applied to the rear of the tripod")."""
    start = scene.pose if pose is None else pose
    if not card.moves:
        return start
    depth = 2.0 * scene.rules.hex_apothem()
    if scene.reverse and pose is None:
        rear = Pose(start.x, start.y, normalize_heading(start.heading + 180.0))
        moved = apply_card(rear, card, depth)
        return Pose(moved.x, moved.y, normalize_heading(moved.heading + 180.0))
    return apply_card(start, card, depth)


def exit_edge(scene: Scene, pose: Pose) -> str | None:
    """The table edge a pose's centre is beyond (000: "the center of its base is even
    partly outside of the playing area"), None while it is on the table."""
    x, y = pose.point
    w, h = scene.rules.table_width, scene.rules.table_height
    if 0 <= x <= w and 0 <= y <= h:
        return None
    edges = ("south", "north", "west", "east")
    return min(edges, key=lambda e: edge_distance(scene, pose.point, e))


def leaves_table(scene: Scene, pose: Pose) -> bool:
    """001: "If the drawn card would bring the tripod outside the playing area, draw
    another card" -- by any side, the Earthling one too (A8)."""
    return exit_edge(scene, pose) is not None


def line_to_earth(scene: Scene, pose: Pose) -> float | None:
    """001: the length of "an imaginary line from the center of the rear side of the
    tripod's base going across the center of its front side" to where it "reaches the
    Earthling side of the playing area" (None: it leaves the table by another side)."""
    dx, dy = pose.forward()
    w, h = scene.rules.table_width, scene.rules.table_height
    x, y = pose.point
    hits: list[tuple[float, str]] = []
    if dy < -1e-12:
        hits.append((-y / dy, "south"))
    if dy > 1e-12:
        hits.append(((h - y) / dy, "north"))
    if dx < -1e-12:
        hits.append((-x / dx, "west"))
    if dx > 1e-12:
        hits.append(((w - x) / dx, "east"))
    if not hits:
        return None
    first = min(t for t, _ in hits)
    if not any(edge == scene.earth and t <= first + 1e-9 for t, edge in hits):
        return None
    return max(0.0, first) + scene.rules.hex_apothem()


TOWARDS = {"south": 270.0, "north": 90.0, "west": 180.0, "east": 0.0}
"""The heading straight towards each edge."""


def _heading_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def facing_earth(scene: Scene, pose: Pose | None = None) -> bool:
    """001: facing the Earthling side if the line "reaches the Earthling side of the
    playing area, and if there is not another orientation that would make this line
    shorter. If the line reaches the Earthling side, do not consider other facings that
    would allow shorter lines if the difference in length is half an airplane ruler or
    less." Orientations are the six facings of the base on the spot. When no facing's
    line reaches that side (far from it, after 30° turns), the facing nearest to straight
    towards it counts (A5)."""
    pose = scene.pose if pose is None else pose
    lengths = [line_to_earth(scene, turned(pose, k)) for k in range(6)]
    reaching = [v for v in lengths if v is not None]
    if not reaching:
        return _heading_gap(pose.heading, TOWARDS[scene.earth]) <= 30.0 + 1e-9
    mine = lengths[0]
    return mine is not None and mine <= min(reaching) + scene.rules.ruler / 2.0 + 1e-9


def turn_towards_earth(scene: Scene) -> int:
    """The change of facing (sides, positive to the left, within the tripod's limit) that
    faces the Earthling side with the shortest line, or comes nearest to it (A6)."""
    limit = scene.model.facing_limit
    turns = [k for k in range(-limit, limit + 1) if k != 0]
    good = [k for k in turns if facing_earth(scene, turned(scene.pose, k))]
    if good:
        return min(
            good,
            key=lambda k: (line_to_earth(scene, turned(scene.pose, k)) or 0.0, abs(k), -k),
        )
    lengths = {k: line_to_earth(scene, turned(scene.pose, k)) for k in range(6)}
    reach = {k: v for k, v in lengths.items() if v is not None}
    if reach:
        target = min(reach, key=lambda k: reach[k])
    else:
        straight = TOWARDS[scene.earth]
        target = min(range(6), key=lambda k: _heading_gap(scene.pose.heading + 60.0 * k, straight))
    return min(turns, key=lambda k: (_side_gap(k, target), abs(k), -k))


def _side_gap(k: int, target: int) -> int:
    gap = (k - target) % 6
    return min(gap, 6 - gap)


def bearing_gap(pose: Pose, point: Point) -> float:
    """Degrees between the heading and the direction to ``point`` (0..180)."""
    angle = math.degrees(math.atan2(point[1] - pose.y, point[0] - pose.x))
    return abs((angle - pose.heading + 180.0) % 360.0 - 180.0)


def turn_towards(scene: Scene, point: Point) -> int:
    """The change of facing, within the limit, pointing the front side nearest to
    ``point``."""
    limit = scene.model.facing_limit
    turns = [k for k in range(-limit, limit + 1) if k != 0]
    return min(turns, key=lambda k: (bearing_gap(turned(scene.pose, k), point), abs(k), -k))


def template(scene: Scene, plane: Plane, spec: TemplateSpec) -> Polygon:
    """001: "place an S Automated tripod template in front of each airplane base": the
    red part, laid like a maneuver card from the middle of the base's front edge."""
    nose = plane.pose.moved(scene.rules.base_length / 2.0, 0.0, 0.0)
    return local_rectangle(
        nose, spec.offset, spec.offset + spec.length, -spec.width / 2.0, spec.width / 2.0
    )


@dataclass(frozen=True, slots=True)
class Aim:
    """A ruler reaching a template (or a base): which projector, how far, whether at
    short range and whether the ruler lies straight."""

    target: str
    projector: Side
    distance: float
    short: bool


def aims(
    scene: Scene,
    pose: Pose,
    zones: dict[str, Polygon],
    projectors: Sequence[Side],
    blockers: Sequence[Polygon],
    ruler: RulerSpec | None = None,
) -> list[Aim]:
    """001: "Acquiring a target means that the tripod ruler touches the red part of the
    automated tripod template, using the more appropriate side of the ruler, placing it on
    one of the tripod's firing sides. The red part of the template should not overlap the
    tripod." The nearest placement per target."""
    ruler = ruler or scene.ruler
    base = hexagon(pose, scene.rules.hex_side)
    reach = scene.rules.hex_side + ruler.length
    out: list[Aim] = []
    for target, zone in zones.items():
        if convex_overlap(zone, base):
            continue
        if nearest_point(zone, pose.point)[0] > reach:
            continue
        best: Aim | None = None
        for side in projectors:
            shot = best_shot(pose, scene.rules.hex_side, side, ruler, zone, blockers)
            if shot is not None and (best is None or shot.distance < best.distance - 1e-12):
                best = Aim(target, side, shot.distance, shot.short)
        if best is not None:
            out.append(best)
    return out


def on_objective(scene: Scene, pose: Pose) -> str | None:
    """The unused objective template the base overlaps (the engine's test, 000: "If the
    tripod base overlaps an Objective token")."""
    base = hexagon(pose, scene.rules.hex_side)
    radius = scene.rules.catalog.constants.tripods.objective_radius
    for oid, x, y in sorted(scene.objectives):
        if nearest_point(base, (x, y))[0] < radius:
            return oid
    return None

"""What the Automated Tripod sees of the table: its own base, the airplanes and the
objectives, read from its seat's observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dogfight.bots.automated_tripod.branches import Status
from dogfight.bots.base import Observation
from dogfight.catalog.models import (
    Edge,
    Tripod,
    TripodDeck,
)
from dogfight.geometry.heatray import RulerSpec
from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.pose import Pose, normalize_heading
from dogfight.geometry.shapes import (
    Polygon,
    rectangle,
)
from dogfight.rules.context import Rules


@dataclass(frozen=True, slots=True)
class Plane:
    """An enemy airplane as the observation shows it."""

    id: str
    type: str
    pose: Pose
    base: Polygon
    rockets: int


@dataclass(slots=True)
class Scene:
    """One automated tripod's view of the table at a decision."""

    rules: Rules
    me: str
    model: Tripod
    deck: TripodDeck
    pose: Pose
    energy: int
    rating: int
    cooling: int
    reverse: bool
    planes: list[Plane]
    others: dict[str, Polygon]
    """Bases of every other vehicle in play (airplanes and tripods)."""
    tripods: list[Polygon]
    """Bases of the other tripods in play (they block a heat-ray aimed at a template)."""
    objectives: list[tuple[str, float, float]]
    """Unused objective templates: not destroyed, a charge left."""
    earth: Edge
    phase: int
    exit_earth: bool
    wounded: bool = False
    """Its pilot is wounded (000: "cannot choose a firing Action token in combination with
    a movement maneuver"), as its own damage cards show."""
    gyroscope: bool = False
    """Its gyroscope is out of order this turn (000: "cannot choose the Change facing
    Action token")."""
    engine: int = 0
    """Engine damage taken (000: no third movement maneuver a turn; after a second, only
    stationary ones), as its own damage shows."""
    reverse_destroyed: bool = False
    """Its reverse mechanism is destroyed (000: no reverse until the end of the game)."""

    @property
    def base(self) -> Polygon:
        return hexagon(self.pose, self.rules.hex_side)

    @property
    def ruler(self) -> RulerSpec:
        spec = self.rules.heat_ray_ruler(self.model.id)
        return RulerSpec(spec.length, spec.half, spec.width, spec.tilt)


def _as_pose(data: dict[str, Any]) -> Pose:
    return Pose(float(data["x"]), float(data["y"]), normalize_heading(float(data["heading"])))


def scene_of(
    observation: Observation, rules: Rules, tripod: str, earth: Edge, exit_earth: bool, phase: int
) -> Scene:
    """Read one tripod's scene from its seat's observation."""
    views = {v["id"]: v for v in observation["vehicles"]}
    me = views[tripod]
    pose = _as_pose(me["pose"])
    planes: list[Plane] = []
    others: dict[str, Polygon] = {}
    tripods: list[Polygon] = []
    for vid, view in sorted(views.items()):
        if vid == tripod or view["eliminated"] is not None:
            continue
        vpose = _as_pose(view["pose"])
        if view["type"] in rules.catalog.tripods and "energy" in view:
            poly = hexagon(vpose, rules.hex_side)
            tripods.append(poly)
            others[vid] = poly
            continue
        poly = rectangle(vpose, rules.base_length, rules.base_width)
        others[vid] = poly
        if view["side"] != me["side"]:
            planes.append(Plane(vid, view["type"], vpose, poly, int(view.get("rockets", 0))))
    objectives = [
        (str(o["id"]), float(o["x"]), float(o["y"]))
        for o in observation.get("objectives", [])
        if not o["destroyed"] and int(o["charges"]) > 0
    ]
    return Scene(
        rules=rules,
        me=tripod,
        model=rules.tripod(me["type"]),
        deck=rules.tripod_deck_of(me["type"]),
        pose=pose,
        energy=int(me["energy"]),
        rating=int(me["energy_rating"]),
        cooling=int(me["cooling"]),
        reverse=bool(me.get("reverse", False)),
        planes=planes,
        others=others,
        tripods=tripods,
        objectives=objectives,
        earth=earth,
        phase=phase,
        exit_earth=exit_earth,
    )


def energy_status(energy: int, rating: int, recharge_level: int) -> Status:
    """001: "Operative, when the tripod has 1 or more energy counters. Powerless, if it is
    at 0 energy." / "Full, when it has the maximum amount of energy possible. Cruising, if
    it has more energy than its recharge level, but not the maximum. In Emergency, if it
    has at least 1 energy counter, but no more than its recharge level.\""""
    if energy <= 0:
        return "powerless"
    if energy >= rating:
        return "full"
    if energy > recharge_level:
        return "cruising"
    return "emergency"

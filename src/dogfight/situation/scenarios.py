"""Tables for scenarios that come without a situation file: each side's vehicles
placed along its edge as the scenario rules lay them out, the objective tokens about
the centre. ``simulate SCENARIO``, campaigns, PettingZoo and the benches start games
from here."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dogfight.catalog.loader import Catalog
from dogfight.rules.scenario import table_point
from dogfight.situation.format import Situation, parse_situation

_FACING = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}


CLEAR_OF_START = 10.0
"""How far (cm) a vehicle starts from every objective token: none starts on one
(issue 29 item 11)."""

_STEP = 2.5
"""The step (cm) a start slides along its edge to get clear of the objectives."""


def off_objectives(
    vehicles: list[dict[str, Any]],
    objectives: list[dict[str, Any]],
    width: float,
    height: float,
    fixed: frozenset[str] = frozenset(),
) -> None:
    """Slide each start (but the ``fixed`` ones: a rule's "middle of its side") along its
    edge — across its heading — the least that puts it ``CLEAR_OF_START`` from every
    objective token and 10 cm from the other starts, inside the table; a start no slide
    clears stays. The depth from its edge, which the scenario's rule sets, is kept."""
    spots = [(o["x"], o["y"]) for o in objectives]
    for v in vehicles:
        pose = v["pose"]
        if v["id"] in fixed or not spots:
            continue
        others = [(u["pose"]["x"], u["pose"]["y"]) for u in vehicles if u is not v]
        rad = math.radians(pose["heading"] + 90.0)
        for k in range(int(max(width, height) / _STEP)):
            for shift in (k * _STEP, -k * _STEP):
                x = pose["x"] + shift * math.cos(rad)
                y = pose["y"] + shift * math.sin(rad)
                inside = 5.0 <= x <= width - 5.0 and 5.0 <= y <= height - 5.0
                if (
                    inside
                    and all(math.dist((x, y), o) >= CLEAR_OF_START for o in spots)
                    and all(math.dist((x, y), o) >= CLEAR_OF_START for o in others)
                ):
                    pose["x"], pose["y"] = round(x, 6), round(y, 6)
                    break
            else:
                continue
            break


def scenario_situation(
    catalog: Catalog, scenario_id: str, rng: np.random.Generator | None = None
) -> Situation:
    """A legal setup of a scenario: each side's vehicles spread along its edge facing
    across the table (``edge`` placements 5 cm in, others 10 cm in), the objective
    tokens evenly on a circle about the centre. With ``rng`` the vehicles' places
    along their edge vary a little."""
    scenario = catalog.scenario(
        scenario_id, "SCENARIO", "a situation JSON file or a known scenario"
    )
    w, h = scenario.table.width, scenario.table.height
    edges = {s.name: s.edge for s in scenario.sides}
    by_side: dict[str, list[str]] = {}
    for spec in scenario.vehicles:
        by_side.setdefault(spec.side, []).append(spec.id)
    vehicles: list[dict[str, Any]] = []
    for spec in scenario.vehicles:
        edge = edges[spec.side]
        group = by_side[spec.side]
        along = (group.index(spec.id) + 1) / (len(group) + 1)
        depth = min(5.0, scenario.edge_depth) if spec.placement == "edge" else 10.0
        wanted = getattr(spec, "depth", None)
        if spec.placement == "depth" and wanted is not None:
            depth = float(wanted)
        if getattr(spec, "centred", False):
            along = 0.5
        elif rng is not None:
            along += float(rng.uniform(-0.15, 0.15)) / len(group)
        x, y = table_point(
            w, h, edge, (along - 0.5) * (w if edge in ("south", "north") else h), depth
        )
        entry: dict[str, Any] = {
            "id": spec.id,
            "pose": {"x": x, "y": y, "heading": _FACING[edge]},
        }
        if not spec.types:
            entry["type"] = "spad-xiii"
        vehicles.append(entry)
    data: dict[str, Any] = {"scenario": scenario.id, "vehicles": vehicles}
    rule = scenario.objectives
    if rule is not None:
        count = rule.count
        layout: list[tuple[float, float]] = list(getattr(rule, "layout", []) or [])
        if layout:
            edge = edges.get(rule.placed_by, "south")
            spots = [table_point(w, h, edge, across, depth) for across, depth in layout]
        else:
            radius = 0.0
            if count > 1:
                needed = rule.min_apart / (2 * math.sin(math.pi / count))
                radius = min(needed * 1.001, rule.max_from_centre)
            offset = 45.0 if count == 4 else 90.0
            spots = [
                (
                    w / 2 + radius * math.cos(math.radians(offset + 360.0 * i / count)),
                    h / 2 + radius * math.sin(math.radians(offset + 360.0 * i / count)),
                )
                for i in range(count)
            ]
        data["objectives"] = [
            {"id": f"objective-{i + 1}", "x": x, "y": y} for i, (x, y) in enumerate(spots)
        ]
        centred = frozenset(v.id for v in scenario.vehicles if getattr(v, "centred", False))
        off_objectives(vehicles, data["objectives"], w, h, centred)
    return parse_situation(data, f"scenario {scenario_id}")

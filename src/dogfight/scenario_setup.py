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
from dogfight.situation import Situation, parse_situation

_FACING = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}


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
    return parse_situation(data, f"scenario {scenario_id}")

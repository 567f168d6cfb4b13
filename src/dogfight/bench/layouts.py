"""Tables for the benchmark: ``count`` vehicles on legal, non-overlapping bases.

Each vehicle gets one cell of a grid laid over the table and stands somewhere inside it,
facing anywhere, with its whole base at least a centimetre inside its cell: no two bases
can overlap and every centre dot is on the table. Neighbouring cells belong to opposite
sides (a chequerboard), so every vehicle has enemies around it.

- :func:`constant_density`: the table grows with the count, keeping the standard table's
  90 x 90 cm for four airplanes (2,025 cm² each), so the work per vehicle should stay flat;
- :func:`crowded`: every count on the one 90 x 90 table.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dogfight.situation.format import Situation, parse_situation

AIRPLANES = (
    "spad-xiii",
    "sopwith-camel",
    "nieuport-17",
    "fokker-dr1",
    "albatros-d5a",
    "bristol-f2b",
)
"""Types placed in turn (the Bristol carries a rear gunner)."""

AREA_PER_VEHICLE = 90.0 * 90.0 / 4.0
"""cm² of table per vehicle at constant density: four airplanes on the standard table."""

BASE_RADIUS = 5.0
"""cm from a centre dot to the farthest corner of any base placed here (a tripod's hexagon
of 5 cm sides; an airplane's 4.5 x 6 base reaches 3.75)."""


def table_side(count: int) -> float:
    """The square table's side for ``count`` vehicles at constant density."""
    return math.sqrt(AREA_PER_VEHICLE * count)


def _cells(count: int, width: float, height: float) -> tuple[int, int]:
    columns = max(1, math.ceil(math.sqrt(count * width / height)))
    rows = math.ceil(count / columns)
    return columns, rows


def layout(
    kinds: list[tuple[str, str, str]],
    width: float,
    height: float,
    rng: np.random.Generator,
) -> Situation:
    """A situation with one vehicle per ``(id, type, side)`` of ``kinds``, each in its own
    grid cell at a random spot and heading, bases apart (see the module docstring)."""
    columns, rows = _cells(len(kinds), width, height)
    cell_w, cell_h = width / columns, height / rows
    slack_x = cell_w / 2.0 - BASE_RADIUS - 1.0
    slack_y = cell_h / 2.0 - BASE_RADIUS - 1.0
    if slack_x < 0 or slack_y < 0:
        raise ValueError(f"{len(kinds)} bases do not fit apart on {width} x {height}")
    vehicles: list[dict[str, Any]] = []
    for i, (vid, kind, side) in enumerate(kinds):
        column, row = i % columns, i // columns
        x = (column + 0.5) * cell_w + float(rng.uniform(-slack_x, slack_x))
        y = (row + 0.5) * cell_h + float(rng.uniform(-slack_y, slack_y))
        heading = float(rng.uniform(0.0, 360.0))
        vehicles.append(
            {"id": vid, "type": kind, "side": side, "pose": {"x": x, "y": y, "heading": heading}}
        )
    data = {"table": {"width": width, "height": height}, "vehicles": vehicles}
    return parse_situation(data, "bench layout")


def airplanes(count: int) -> list[tuple[str, str, str]]:
    """``count`` airplanes, sides alternating as a chequerboard over the grid's cells."""
    columns, _ = _cells(count, 1.0, 1.0)
    out = []
    for i in range(count):
        column, row = i % columns, i // columns
        side = "allies" if (column + row) % 2 == 0 else "central"
        out.append((f"p{i:02d}", AIRPLANES[i % len(AIRPLANES)], side))
    return out


def constant_density(count: int, rng: np.random.Generator) -> Situation:
    """``count`` airplanes on a square table of :data:`AREA_PER_VEHICLE` cm² each."""
    side = table_side(count)
    return layout(airplanes(count), side, side, rng)


def crowded(count: int, rng: np.random.Generator, side: float = 90.0) -> Situation:
    """``count`` airplanes on one ``side`` x ``side`` table."""
    return layout(airplanes(count), side, side, rng)


def tripods_and_airplanes(rng: np.random.Generator, side: float = 90.0) -> Situation:
    """Two tripods (a Locust and a Scarab) among four airplanes on the standard table."""
    kinds = [
        ("p0", "nieuport-17", "earth"),
        ("t1", "mk1-locust", "martians"),
        ("p1", "sopwith-camel", "earth"),
        ("p2", "spad-xiii", "earth"),
        ("t2", "mk2-scarab", "martians"),
        ("p3", "nieuport-11", "earth"),
    ]
    return layout(kinds, side, side, rng)

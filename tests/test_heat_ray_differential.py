"""Issues 9 and 13: the heat-ray's speed-ups keep every result exact. On random crowded
tables (tripods of both sides, airplanes, falling bomb cards, bases overlapping now and
then, armour powered or not), every projector's options from the per-step ray scene
(:class:`dogfight.rules.rays.RayScene`) equal, float for float, those of the frozen copy
of the code before it (``tests/heat_ray_reference.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest
from heat_ray_reference import convex_overlap as reference_overlap
from heat_ray_reference import heat_ray_options as reference_options

from dogfight.catalog.loader import Catalog
from dogfight.geometry.hexbase import Side, hexagon
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import convex_overlap, rectangle
from dogfight.rules import firing, rays
from dogfight.rules.state import BombCard, GameState
from dogfight.situation.format import build, parse_situation

TRIPODS = ("mk1-locust", "mk2-scarab", "mk3-squid", "mk4-cuttlefish")
AIRPLANES = ("sopwith-camel", "spad-xiii", "caproni-ca3", "fokker-dr1")


def random_table(catalog: Catalog, seed: int) -> tuple[GameState, dict[str, int]]:
    """6 to 12 vehicles anywhere on a 60 x 60 table (some overlapping), up to three bomb
    cards, and the reserves read at the start of the firing step."""
    rng = np.random.default_rng(seed)
    side = 60.0
    vehicles: list[dict[str, Any]] = []
    for i in range(int(rng.integers(6, 13))):
        team = "earth" if rng.random() < 0.5 else "martians"
        entry: dict[str, Any] = {
            "id": f"v{i:02d}",
            "side": team,
            "pose": {
                "x": float(rng.uniform(5.0, side - 5.0)),
                "y": float(rng.uniform(5.0, side - 5.0)),
                # now and then a heading of whole degrees: sides and rulers parallel to others
                "heading": float(rng.integers(0, 12) * 30.0)
                if rng.random() < 0.3
                else float(rng.uniform(0.0, 360.0)),
            },
        }
        if rng.random() < 0.55:
            entry["type"] = str(rng.choice(TRIPODS))
            if team == "earth":
                entry["pilot"] = "human"
        else:
            entry["type"] = str(rng.choice(AIRPLANES))
        vehicles.append(entry)
    data = {"table": {"width": side, "height": side}, "vehicles": vehicles}
    state = build(parse_situation(data, "differential"), catalog, seed)
    planes = [v for v in state.in_play() if v.tripod is None]
    for k in range(int(rng.integers(0, 4)) if planes else 0):
        bomber = planes[int(rng.integers(0, len(planes)))]
        pose = Pose(
            float(rng.uniform(0.0, side)), float(rng.uniform(0.0, side)), float(rng.uniform(0, 360))
        )
        destroyed = bool(rng.random() < 0.15)
        state.bomb_cards.append(BombCard(f"bombs-{k}", bomber.id, bomber.side, 1, pose, destroyed))
    energy: dict[str, int] = {}
    for vehicle in state.in_play():
        if vehicle.tripod is not None:
            vehicle.tripod.energy = int(rng.integers(0, 3))
            vehicle.tripod.toppled = bool(rng.random() < 0.15)
            energy[vehicle.id] = int(rng.integers(0, 3))
    return state, energy


def _compare(state: GameState, energy: dict[str, int] | None) -> int:
    """Every projector of every tripod, new against old; the number of options met."""
    table = firing.table_of(state)
    scene = rays.RayScene(state, table.overlap, energy, table.bases)
    found = 0
    for tripod in state.in_play():
        if tripod.tripod is None:
            continue
        for projector in Side:
            old = reference_options(state, tripod, projector, table.overlap, energy, table.bases)
            new = scene.options(tripod, projector)
            assert [dataclasses.astuple(o) for o in new] == [dataclasses.astuple(o) for o in old], (
                tripod.id,
                projector,
            )
            alone = rays.heat_ray_options(
                state, tripod, projector, table.overlap, energy, table.bases
            )
            assert alone == new
            found += len(new)
    return found


@pytest.mark.parametrize("block", range(4))
def test_heat_ray_options_agree_with_the_frozen_reference(catalog: Catalog, block: int) -> None:
    """400 random tables in all (100 per block), each tripod's six sides."""
    found = 0
    for seed in range(block * 100, block * 100 + 100):
        state, energy = random_table(catalog, seed)
        found += _compare(state, energy if seed % 3 else None)
    assert found > 200  # the tables are crowded enough that rulers reach many targets


def test_convex_overlap_agrees_with_the_frozen_reference() -> None:
    """Bases and cards side by side, touching, overlapping a hair or far apart: the
    separating-axis test gives what it gave before it was written without ``cross``."""
    rng = np.random.default_rng(9)
    met = 0
    for _ in range(3000):
        heading = float(rng.integers(0, 12) * 30.0) if rng.random() < 0.5 else rng.uniform(0, 360)
        first = Pose(30.0, 30.0, float(heading))
        a = hexagon(first, 5.0) if rng.random() < 0.5 else rectangle(first, 6.0, 4.5)
        # the second shape about a base ahead of the first, turned any or a whole angle
        bearing = float(rng.integers(0, 12) * 30.0) if rng.random() < 0.5 else rng.uniform(0, 360)
        gap = float(rng.choice([4.5, 5.0, 6.0, 8.66025403784, 10.0])) + rng.normal(0, 1e-9)
        second = first.moved(gap, 0.0, 0.0)
        second = Pose(second.x, second.y, float(bearing))
        b = hexagon(second, 5.0) if rng.random() < 0.5 else rectangle(second, 6.0, 4.5)
        assert convex_overlap(a, b) == reference_overlap(a, b)
        met += convex_overlap(a, b)
    assert 300 < met < 2700

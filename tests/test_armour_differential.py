"""Issue 13: the electrified-armour test decided without shapely when the answer is clear
(:func:`dogfight.geometry.protection.open_side`) agrees with the exact test
(:func:`~dogfight.geometry.protection.unprotected_point` on the visible region) on every
shot of random crowded tables: tripods with their armour powered among airplanes that
fire at them from every side, other bases hiding parts of them."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from dogfight.catalog.loader import Catalog
from dogfight.geometry.hexbase import Side
from dogfight.geometry.protection import open_side, unprotected_point
from dogfight.rules import firing
from dogfight.rules.state import GameState
from dogfight.situation.format import build, parse_situation

TRIPODS = ("mk1-locust", "mk2-scarab", "mk3-squid", "mk4-cuttlefish")
AIRPLANES = ("sopwith-camel", "spad-xiii", "bristol-f2b", "fokker-dr1")


def crowded_table(catalog: Catalog, seed: int) -> GameState:
    """Two to four powered tripods and six to ten airplanes on a 50 x 50 table."""
    rng = np.random.default_rng(seed)
    vehicles: list[dict[str, Any]] = []
    count = int(rng.integers(8, 15))
    for i in range(count):
        tripod = i < int(rng.integers(2, 5))
        heading = (
            float(rng.integers(0, 12) * 30.0) if rng.random() < 0.3 else float(rng.uniform(0, 360))
        )
        vehicles.append(
            {
                "id": f"v{i:02d}",
                "type": str(rng.choice(TRIPODS if tripod else AIRPLANES)),
                "side": "martians" if tripod else "earth",
                "pose": {
                    "x": float(rng.uniform(3.0, 47.0)),
                    "y": float(rng.uniform(3.0, 47.0)),
                    "heading": heading,
                },
            }
        )
    data = {"table": {"width": 50.0, "height": 50.0}, "vehicles": vehicles}
    return build(parse_situation(data, "armour differential"), catalog, seed)


def test_armour_decided_without_shapely_agrees_with_the_exact_test(catalog: Catalog) -> None:
    """300 tables; every shot at a tripod, the quick verdict (when it gives one) and the
    engine's against the exact test."""
    seen: Counter[str] = Counter()
    rules = None
    for seed in range(300):
        state = crowded_table(catalog, seed)
        rules = state.rules
        table = firing.table_of(state)
        for firer in state.in_play():
            for weapon, _ in rules.weapons(firer.type):
                for option in firing.options(state, table, firer, weapon, protection=False):
                    target = state.vehicles[option.target]
                    if target.tripod is None:
                        continue
                    shielded = [Side.parse(s) for s in rules.tripod(target.type).protected]
                    args = (target.pose, rules.hex_side, shielded, firer.pose.point)
                    sight = option.sight
                    quick = open_side(*args, sight.region, rules.ruler, sight.sees)
                    engine = firing.is_protected(state, firer, target, sight)
                    exact = unprotected_point(*args, sight.visible(), rules.ruler) is not None
                    assert engine is not exact, (seed, firer.id, weapon, target.id)
                    if quick is not None:
                        assert quick is exact, (seed, firer.id, weapon, target.id)
                    seen[f"{quick}"] += 1
    # most shots are decided quickly, both ways, and the rest go to the exact test
    assert seen["True"] > 200 and seen["False"] > 50, seen

"""Old against new: every shot of random crowded tables measured by the resolver's
firing geometry (:mod:`dogfight.rules.firing`) and by the frozen reference
(:mod:`dogfight.bench.reference`), which must agree on every target, its order, range,
distance and point (as events print them, to 1e-4 cm), blockers and armour.

Each table is a fresh layout (32 airplanes crowded on 90 x 90 cm, 12 on 90 x 90, or two
tripods among four airplanes) with random legal plans; each of its three phases is
moved with the resolver and then compared on the table as it stands at the firing step.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from dogfight.bench import layouts, reference
from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules import firing
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.state import GameState
from dogfight.situation.format import Situation, build

Shot = tuple[str, float, tuple[float, float] | None, bool, tuple[str, ...], bool]

MAKERS: tuple[Callable[[np.random.Generator], Situation], ...] = (
    functools.partial(layouts.crowded, 32),
    functools.partial(layouts.crowded, 12),
    layouts.tripods_and_airplanes,
)


def _shot(option: firing.Option | reference.Option) -> Shot:
    point = option.sight.point
    return (
        option.target,
        round(option.sight.distance, 4),
        None if point is None else (round(point[0], 4), round(point[1], 4)),
        option.short,
        option.blockers,
        option.protected,
    )


def shots(state: GameState, new: bool) -> dict[tuple[str, str], list[Shot]]:
    """Every weapon's options at the firing step, by (firer, weapon)."""
    out: dict[tuple[str, str], list[Shot]] = {}
    if new:
        table = firing.table_of(state)
        for vehicle in state.in_play():
            for weapon, _ in state.rules.weapons(vehicle.type):
                found = firing.options(state, table, vehicle, weapon)
                out[vehicle.id, weapon] = [_shot(o) for o in found]
    else:
        old = reference.table_of(state)
        for vehicle in state.in_play():
            for weapon, _ in state.rules.weapons(vehicle.type):
                found_old = reference.options(state, old, vehicle, weapon)
                out[vehicle.id, weapon] = [_shot(o) for o in found_old]
    return out


@dataclass
class Report:
    """How many phases were compared, the differences found (at most a few kept) and
    the seconds each side spent measuring."""

    phases: int = 0
    shots: int = 0
    differences: list[str] = field(default_factory=list)
    new_seconds: float = 0.0
    old_seconds: float = 0.0


def compare(catalog: Catalog, phases: int, seed: int = 0) -> Report:
    """Compare old and new on ``phases`` phases (see the module docstring)."""
    report = Report()
    table = 0
    while report.phases < phases:
        rng = np.random.Generator(np.random.PCG64([seed, table]))
        state = build(MAKERS[table % len(MAKERS)](rng), catalog, seed + table)
        state, _ = start_turn(state, random_plans(state, rng))
        for phase in (1, 2, 3):
            if state.over or report.phases >= phases:
                break
            moved, _ = resolve_phase(
                state, step_rng(seed + table, 1, phase), stop_before_firing=True
            )
            began = time.process_time()
            new = shots(moved, new=True)
            middle = time.process_time()
            old = shots(moved, new=False)
            report.new_seconds += middle - began
            report.old_seconds += time.process_time() - middle
            report.phases += 1
            report.shots += sum(len(v) for v in new.values())
            for key in sorted(set(new) | set(old)):
                if new.get(key) != old.get(key) and len(report.differences) < 10:
                    report.differences.append(
                        f"table {table} phase {phase} {key}: new {new.get(key)} old {old.get(key)}"
                    )
            state, _ = resolve_phase(state, step_rng(seed + table, 1, phase))
        table += 1
    return report

"""Who can fire at whom: arcs, ruler reach, line of sight and overlaps, on whole bases.

000: "If an edge of the ruler can reach any point of the base of an enemy ... while
staying within the firing arc of the attacking airplane ... the attacking airplane can
fire at its opponent." / "A weapon using a ruler ... may not fire through other vehicles,
enemy or friendly." / "Two overlapping airplanes don't block each other's line of sight
or the line of sight of the airplanes firing at them."
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dogfight.geometry.hexbase import Side
from dogfight.geometry.protection import unprotected_point
from dogfight.geometry.reach import Sight, sight
from dogfight.geometry.shapes import Polygon, convex_overlap
from dogfight.geometry.sides import REAR, side_towards
from dogfight.rules.state import GameState, Vehicle


@dataclass(frozen=True, slots=True)
class Option:
    """A shot ``firer``'s ``weapon`` could take at ``target``."""

    firer: str
    weapon: str
    target: str
    sight: Sight
    short: bool
    blockers: tuple[str, ...]
    protected: bool = False
    """A shot at a tripod that cannot reach it without crossing its electrified armour."""


@dataclass(slots=True)
class Table:
    """The bases in play at one firing step, with their overlaps, computed once."""

    bases: dict[str, Polygon]
    overlaps: dict[str, set[str]]

    def overlap(self, a: str, b: str) -> bool:
        return b in self.overlaps[a]


def possible_blockers(table: Table, firer: str, target: str) -> list[str]:
    """Bases that may block a shot: all but the firer, the target and any base that
    overlaps either of them (000: overlapping airplanes do not block each other's line
    of sight, nor that of airplanes firing at them)."""
    return [
        v
        for v in table.bases
        if v not in (firer, target) and not table.overlap(v, firer) and not table.overlap(v, target)
    ]


def blockers_of(state: GameState, table: Table, firer: Vehicle, target: Vehicle) -> list[str]:
    """The bases that may block this shot under the switch ``blocking``: any base (000:
    "enemy or friendly"; 002) or only the firer's own side's (003: "在飞机和目标间若有己方
    飞机,则不可向这目标开火")."""
    ids = possible_blockers(table, firer.id, target.id)
    if state.rules.switches.blocking == "friendly":
        return [v for v in ids if state.vehicles[v].side == firer.side]
    return ids


def in_blind_spot(state: GameState, firer: Vehicle, weapon: str, seen: Sight) -> bool:
    """002: "Rear gun of two-seaters cannot fire if target is directly behind tail." /
    "If ruler touches target with first half and passes through rear side of two-seater
    → firing blocked." The ruler is the one the shot is measured with (to the nearest
    point it reaches)."""
    if weapon != "rear" or not state.rules.switches.blind_spot or seen.point is None:
        return False
    rules = state.rules
    if not seen.short(rules.half):
        return False
    side = side_towards(firer.pose, seen.point, rules.base_length, rules.base_width)
    return side == REAR


def table_of(state: GameState) -> Table:
    """Bases of every vehicle in play and which of them overlap."""
    vehicles = state.in_play()
    bases = {v.id: state.base(v) for v in vehicles}
    overlaps: dict[str, set[str]] = {v.id: set() for v in vehicles}
    reach = 2.0 * state.rules.base_radius
    for i, a in enumerate(vehicles):
        for b in vehicles[i + 1 :]:
            if abs(a.pose.x - b.pose.x) > reach or abs(a.pose.y - b.pose.y) > reach:
                continue
            if convex_overlap(bases[a.id], bases[b.id]):
                overlaps[a.id].add(b.id)
                overlaps[b.id].add(a.id)
    return Table(bases, overlaps)


def options(state: GameState, table: Table, firer: Vehicle, weapon: str) -> list[Option]:
    """Every enemy ``firer``'s ``weapon`` can reach, nearest first (ties by id)."""
    rules = state.rules
    arc = rules.arc(weapon)
    radius = rules.base_radius
    out: list[Option] = []
    for target in state.in_play():
        if target.side == firer.side or target.id == firer.id:
            continue
        if table.overlap(firer.id, target.id):
            continue  # 002: "If two planes overlap: Neither can fire at each other."
        if (
            math.hypot(target.pose.x - firer.pose.x, target.pose.y - firer.pose.y)
            > rules.ruler + radius
        ):
            continue
        ids = blockers_of(state, table, firer, target)
        seen = sight(
            firer.pose, arc, table.bases[target.id], rules.ruler, [table.bases[v] for v in ids]
        )
        if seen.reachable(rules.ruler) and not in_blind_spot(state, firer, weapon, seen):
            out.append(
                Option(
                    firer.id,
                    weapon,
                    target.id,
                    seen,
                    seen.short(rules.half),
                    tuple(ids[i] for i in seen.blockers),
                    is_protected(state, firer, target, seen),
                )
            )
    out.sort(key=lambda o: (o.sight.distance, o.target))
    return out


def is_protected(state: GameState, firer: Vehicle, target: Vehicle, seen: Sight) -> bool:
    """000: "the earthling player checks with the ruler if he can reach its base without
    crossing the orange line. If he can, then the tripod is hit on an unprotected side" /
    "If a tripod is hit across an unprotected side, while laying down, or at 0 Energy, it
    takes damage normally." """
    if target.tripod is None or target.tripod.toppled or target.tripod.energy < 1:
        return False
    shielded = [Side.parse(s) for s in state.rules.tripod(target.type).protected]
    if not shielded:
        return False
    point = unprotected_point(
        target.pose,
        state.rules.hex_side,
        shielded,
        firer.pose.point,
        seen.visible(),
        state.rules.ruler,
    )
    return point is None


def blocked_shots(
    state: GameState, table: Table, firer: Vehicle, weapon: str
) -> list[tuple[str, tuple[str, ...]]]:
    """Enemies in arc and within the ruler that other bases hide completely (for rulings)."""
    rules = state.rules
    arc = rules.arc(weapon)
    found: list[tuple[str, tuple[str, ...]]] = []
    reachable = {o.target for o in options(state, table, firer, weapon)}
    for target in state.in_play():
        if (
            target.side == firer.side
            or target.id in reachable
            or table.overlap(firer.id, target.id)
        ):
            continue
        bare = sight(firer.pose, arc, table.bases[target.id], rules.ruler)
        if bare.reachable(rules.ruler):
            ids = blockers_of(state, table, firer, target)
            seen = sight(
                firer.pose, arc, table.bases[target.id], rules.ruler, [table.bases[v] for v in ids]
            )
            found.append((target.id, tuple(ids[i] for i in seen.blockers)))
    return found


def why_not(state: GameState, table: Table, firer: Vehicle, weapon: str, target: Vehicle) -> str:
    """In words, why ``firer``'s ``weapon`` cannot fire at ``target`` this step."""
    if not target.in_play:
        return "is out of the game"
    if table.overlap(firer.id, target.id):
        return "overlaps the firer (overlapping airplanes cannot fire at each other)"
    rules = state.rules
    bare = sight(firer.pose, rules.arc(weapon), table.bases[target.id], rules.ruler)
    if bare.arc_point is None:
        return "is outside the firing arc"
    if not bare.reachable(rules.ruler):
        return f"is beyond the ruler ({bare.arc_distance:.1f} cm)"
    ids = blockers_of(state, table, firer, target)
    seen = sight(
        firer.pose,
        rules.arc(weapon),
        table.bases[target.id],
        rules.ruler,
        [table.bases[v] for v in ids],
    )
    if seen.reachable(rules.ruler) and in_blind_spot(state, firer, weapon, seen):
        return "is in the rear gun's blind spot, right behind the tail (002)"
    return "is blocked by " + ", ".join(ids[i] for i in seen.blockers)

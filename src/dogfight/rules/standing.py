"""A referee's ruling on the table as it stands: who can fire at whom, nothing flown.

A situation with ``"move": false`` asks this instead of a turn: every vehicle stays where
it is, and for each weapon of each vehicle in play and each enemy the ruling says whether
the shot can be taken, at which range and distance, what blocks it (wholly or in part),
the part of the target's base the ruler can touch and the part of the table each
blocker hides. It uses the firing step's own measures (:mod:`dogfight.rules.firing`,
:mod:`dogfight.rules.rays`), so the ruling is the one a phase would make; no card is
flown and no damage is drawn. A pure function of the state: ``dogfight adjudicate`` prints
it and ``dogfight render`` draws it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Literal

from dogfight.geometry.cover import hidden_by, polygons, reachable_part
from dogfight.geometry.hexbase import Side
from dogfight.geometry.pose import Point
from dogfight.geometry.reach import sight
from dogfight.geometry.shapes import Polygon
from dogfight.rules import firing, standard
from dogfight.rules.rays import RayScene
from dogfight.rules.state import GameState, Vehicle
from dogfight.words.terms import plural

Verdict = Literal[
    "clear", "partly blocked", "blocked", "out of range", "out of arc", "overlapping", "blind spot"
]
"""How a ruler meets a target: ``clear`` (no base hides any of it within the ruler),
``partly blocked`` (a base hides some of it, the ruler still reaches the rest), ``blocked``
(in arc and within the ruler, but every such point is hidden), ``out of range``, ``out of
arc``, ``overlapping`` (the bases overlap: they cannot fire at each other), ``blind spot``
(002: right behind a two-seater's tail)."""

REACHES: tuple[Verdict, ...] = ("clear", "partly blocked")


@dataclass(frozen=True, slots=True)
class Shadow:
    """The part of the table a blocker hides from the firing dot, within the arc and the
    ruler (its base left out)."""

    blocker: str
    area: tuple[Polygon, ...]


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """One weapon of one vehicle against one enemy, on the table as it stands."""

    firer: str
    weapon: str
    """``front``/``rear`` for a ruler weapon; ``heat-ray front-left`` etc. for a tripod's
    projector."""
    target: str
    verdict: Verdict
    range: Literal["short", "long"] | None
    distance: float | None
    """To the nearest point the ruler reaches (None when it reaches none)."""
    origin: Point
    point: Point | None
    blockers: tuple[str, ...] = ()
    """The bases hiding some (or, when ``blocked``, all) of the target within the ruler."""
    reachable: tuple[Polygon, ...] = ()
    """The part of the target's base the ruler can touch (ruler weapons only)."""
    shadows: tuple[Shadow, ...] = ()
    protected: bool = False
    """The ruler cannot reach the tripod target without crossing its electrified armour."""
    silent: str | None = None
    """Why this weapon cannot fire at all now, whatever the geometry (jammed, observer
    out, tripod down or without Energy)."""
    secret: bool = False
    """``silent`` comes from lasting damage only the firer's owner knows (the observer
    out): another seat's view leaves it out."""

    @property
    def can_fire(self) -> bool:
        return self.verdict in REACHES and self.silent is None

    def as_dict(self, viewer: Collection[str] | None = None) -> dict[str, Any]:
        """JSON-ready, coordinates to 1/10000 cm; as seen by the seat holding the
        vehicles ``viewer`` (None: the referee, who sees everything)."""
        silent = self.silent
        if self.secret and viewer is not None and self.firer not in viewer:
            silent = None
        return {
            "firer": self.firer,
            "weapon": self.weapon,
            "target": self.target,
            "can_fire": self.verdict in REACHES and silent is None,
            "verdict": self.verdict,
            "range": self.range,
            "distance": None if self.distance is None else round(self.distance, 4),
            "origin": _point(self.origin),
            "point": None if self.point is None else _point(self.point),
            "blockers": list(self.blockers),
            "protected": self.protected,
            "silent": silent,
            "reachable": [_ring(p) for p in self.reachable],
            "shadows": [
                {"blocker": s.blocker, "area": [_ring(p) for p in s.area]} for s in self.shadows
            ],
        }


@dataclass(frozen=True, slots=True)
class TableRuling:
    """Every :class:`LineOfFire` of the table, firers and targets in id order."""

    lines: tuple[LineOfFire, ...]

    def can_fire(self) -> list[LineOfFire]:
        return [line for line in self.lines if line.can_fire]

    def as_dict(self, viewer: Collection[str] | None = None) -> dict[str, Any]:
        """JSON-ready, as seen by the seat holding ``viewer`` (None: the referee)."""
        return {
            "moved": False,
            "lines": [line.as_dict(viewer) for line in self.lines],
        }


def _point(p: Point) -> list[float]:
    return [round(p[0], 4), round(p[1], 4)]


def _ring(poly: Polygon) -> list[list[float]]:
    return [_point(p) for p in poly]


def table_ruling(state: GameState) -> TableRuling:
    """The ruling on ``state`` as it stands (see the module's docstring)."""
    table = firing.table_of(state)
    lines: list[LineOfFire] = []
    for firer in sorted(state.in_play(), key=lambda v: v.id):
        if firer.tripod is not None:
            lines.extend(_heat_rays(state, table, firer))
            continue
        for weapon, _letter in state.rules.weapons(firer.type):
            lines.extend(_ruler_lines(state, table, firer, weapon))
    return TableRuling(tuple(lines))


def _silent(state: GameState, firer: Vehicle, weapon: str) -> tuple[str | None, bool]:
    """Why the weapon cannot fire now, and whether that reason is the owner's secret."""
    if firer.jams.get(weapon):
        return f"jammed: {plural(firer.jams[weapon], 'jam counter')} left", False
    if weapon == "rear" and standard.rear_gun_lost(state, firer):
        return "observer incapacitated (002)", True
    return None, False


def _ruler_lines(
    state: GameState, table: firing.Table, firer: Vehicle, weapon: str
) -> list[LineOfFire]:
    rules = state.rules
    arc, ruler = rules.arc(weapon), rules.ruler
    pose = firer.pose
    silent, secret = _silent(state, firer, weapon)
    chosen = {o.target: o for o in firing.options(state, table, firer, weapon)}
    out: list[LineOfFire] = []
    for target in sorted(state.in_play(), key=lambda v: v.id):
        if target.side == firer.side:
            continue
        base = table.bases[target.id]
        if table.overlap(firer.id, target.id):
            out.append(_line(firer, weapon, target, "overlapping", silent, secret))
            continue
        bare = sight(pose, arc, base, ruler)
        if bare.arc_point is None:
            out.append(_line(firer, weapon, target, "out of arc", silent, secret))
            continue
        if not bare.reachable(ruler):
            line = _line(firer, weapon, target, "out of range", silent, secret)
            out.append(_with_distance(line, bare.arc_distance))
            continue
        ids = firing.blockers_of(state, table, firer, target)
        seen = sight(pose, arc, base, ruler, [table.bases[v] for v in ids])
        blockers = tuple(ids[i] for i in seen.blockers)
        shadows = tuple(
            Shadow(b, polygons(hidden_by(pose, arc, ruler, table.bases[b]))) for b in blockers
        )
        option = chosen.get(target.id)
        verdict: Verdict
        if option is not None:
            verdict = "partly blocked" if blockers else "clear"
            short = option.short
            distance, point = option.sight.distance, option.sight.point
        else:
            blind = seen.reachable(ruler) and firing.in_blind_spot(state, firer, weapon, seen)
            verdict = "blind spot" if blind else "blocked"
            short, distance, point = False, None, None
        out.append(
            LineOfFire(
                firer.id,
                weapon,
                target.id,
                verdict,
                ("short" if short else "long") if verdict in REACHES else None,
                distance,
                pose.point,
                point,
                blockers,
                polygons(reachable_part(pose, arc, ruler, seen)) if verdict in REACHES else (),
                shadows,
                option.protected if option is not None else False,
                silent,
                secret,
            )
        )
    return out


def _line(
    firer: Vehicle,
    weapon: str,
    target: Vehicle,
    verdict: Verdict,
    silent: str | None,
    secret: bool,
) -> LineOfFire:
    return LineOfFire(
        firer.id,
        weapon,
        target.id,
        verdict,
        None,
        None,
        firer.pose.point,
        None,
        silent=silent,
        secret=secret,
    )


def _with_distance(line: LineOfFire, distance: float) -> LineOfFire:
    """An out-of-range line keeps how far the nearest in-arc point is (for the referee)."""
    return LineOfFire(
        line.firer,
        line.weapon,
        line.target,
        line.verdict,
        None,
        distance,
        line.origin,
        None,
        silent=line.silent,
        secret=line.secret,
    )


def _heat_rays(state: GameState, table: firing.Table, tripod: Vehicle) -> list[LineOfFire]:
    """Each projector's heat-ray against each enemy it reaches (the heat-ray ruler laid
    as the firing step lays it); a tripod down, cooling or without Energy is silent."""
    assert tripod.tripod is not None
    model = state.rules.tripod(tripod.type)
    silent = None
    if tripod.tripod.toppled:
        silent = "the tripod is down (000: toppled)"
    elif tripod.tripod.cooling:
        silent = "the heat-ray is cooling down (a recovery token)"
    elif tripod.tripod.energy < 1:
        silent = "no Energy to commit to a heat-ray"
    out: list[LineOfFire] = []
    scene = RayScene(state, table.overlap, None, table.bases)
    for name in model.projectors:
        projector = Side.parse(name)
        for option in scene.options(tripod, projector):
            if option.kind == "bombs":
                continue
            out.append(
                LineOfFire(
                    tripod.id,
                    f"heat-ray {name}",
                    option.target,
                    "clear",
                    "short" if option.short else "long",
                    option.distance,
                    option.origin,
                    option.point,
                    protected=option.protected,
                    silent=silent,
                )
            )
    return out

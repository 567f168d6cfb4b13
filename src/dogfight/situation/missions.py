"""Target cards in a situation: the bombing and photographic missions of 002.

002: "Place target cards (for bombing/photo missions) as specified in scenarios." A
situation of a scenario with missions gets the scenario's target cards unless it lists
its own; a situation without a scenario may lay any. Every card must lie wholly on the
table: one off it is refused naming the field and the value (docs/rulings.md M2).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from dogfight.catalog.models import Edge, Scenario, TargetSpec
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose, normalize_heading
from dogfight.rules.state import GameState, TargetCard

MAX_TARGETS = 16
"""The most target cards a situation may lay."""

Size = Annotated[float, Field(gt=0, le=100)]
Coordinate = Annotated[float, Field(ge=-20000.0, le=20000.0)]
Name = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]*$", max_length=40)]


class TargetIn(BaseModel):
    """A mission's target card: where it lies, the mission (``bombing`` or ``photo``),
    the side flying it and the airplanes carrying the bombs or camera. With a scenario,
    ``id`` names one of its missions and every field left out comes from it."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    id: Name
    mission: Literal["bombing", "photo"] | None = Field(
        default=None, description="required without a scenario"
    )
    side: Name | None = Field(default=None, description="the side flying the mission")
    x: Coordinate | None = Field(default=None, description="the card's centre (cm)")
    y: Coordinate | None = None
    heading: float = Field(default=0.0, ge=-3600.0, le=3600.0)
    length: Size | None = Field(default=None, description="default 12 cm (an approximation)")
    width: Size | None = Field(default=None, description="default 8 cm (an approximation)")
    carriers: list[Name] | None = Field(
        default=None,
        max_length=64,
        description="the airplanes carrying the bombs or camera (empty: any of the side)",
    )
    points: int | None = Field(default=None, ge=0, le=100, description="002: +2")
    home: Edge | None = Field(
        default=None,
        description='the side\'s own edge (002: "exiting from own side"); default: the '
        "scenario's, else the edge nearest the side's airplanes",
    )
    done_by: Name | None = Field(
        default=None, description="the airplane that has already accomplished it"
    )


def lay_targets(
    state: GameState,
    targets: list[TargetIn],
    scenario: Scenario | None,
    source: str,
) -> None:
    """Put the situation's target cards (or its scenario's) on the table of ``state``."""
    missions = {m.id: m for m in scenario.missions} if scenario is not None else {}
    given = list(targets)
    if not given and scenario is not None:
        given = [TargetIn(id=m.id) for m in scenario.missions]
    width, height = state.rules.table_width, state.rules.table_height
    for j, t in enumerate(given):
        where = f"targets[{j}]"
        if t.id in state.targets:
            raise DataError(source, f"{where}.id", t.id, "target ids must be unique")
        spec = missions.get(t.id)
        if scenario is not None and spec is None:
            raise DataError(
                source,
                f"{where}.id",
                t.id,
                f"scenario {scenario.id} has the missions: "
                + (", ".join(sorted(missions)) or "none"),
            )
        kind = t.mission or (spec.kind if spec else None)
        side = t.side or (spec.side if spec else None)
        if kind is None or side is None:
            missing = "mission" if kind is None else "side"
            raise DataError(source, f"{where}.{missing}", None, "required (no scenario gives it)")
        if spec is not None and (kind != spec.kind or side != spec.side):
            raise DataError(
                source,
                f"{where}",
                f"{kind} by {side}",
                f"scenario mission {spec.id} is a {spec.kind} mission of the {spec.side} side",
            )
        sides = {v.side for v in (*state.vehicles.values(), *state.reserves.values())}
        if side not in sides:
            raise DataError(
                source, f"{where}.side", side, "sides in play: " + ", ".join(sorted(sides))
            )
        base = spec.target if spec is not None else None
        x = t.x if t.x is not None else (base.x if base else None)
        y = t.y if t.y is not None else (base.y if base else None)
        if x is None or y is None:
            raise DataError(
                source, f"{where}.{'x' if x is None else 'y'}", None, "required (no scenario)"
            )
        card = TargetSpec(
            x=x,
            y=y,
            heading=t.heading if "heading" in t.model_fields_set or base is None else base.heading,
            length=t.length or (base.length if base else TargetSpec(x=0, y=0).length),
            width=t.width or (base.width if base else TargetSpec(x=0, y=0).width),
        )
        corner = card.off_table(width, height)
        if corner is not None:
            raise DataError(
                source,
                where,
                {"x": x, "y": y, "heading": card.heading},
                f"the target card of mission {t.id} must lie wholly on the {width:g} x "
                f"{height:g} cm table; its corner ({corner[0]:.1f}, {corner[1]:.1f}) is off it",
            )
        carriers = tuple(t.carriers if t.carriers is not None else (spec.carriers if spec else []))
        for carrier in carriers:
            known = state.vehicles.get(carrier) or state.reserves.get(carrier)
            if known is None or known.side != side:
                raise DataError(
                    source,
                    f"{where}.carriers",
                    carrier,
                    f"must be the id of an airplane of the {side} side",
                )
        if t.done_by is not None and (
            t.done_by not in state.vehicles or state.vehicles[t.done_by].side != side
        ):
            raise DataError(
                source, f"{where}.done_by", t.done_by, f"must be an airplane of the {side} side"
            )
        home = t.home or _home(state, side, scenario)
        state.targets[t.id] = TargetCard(
            id=t.id,
            mission=kind,
            side=side,
            pose=Pose(x, y, normalize_heading(card.heading)),
            length=card.length,
            width=card.width,
            carriers=carriers,
            points=t.points if t.points is not None else (spec.points if spec else 2),
            home=home,
            done_by=t.done_by,
            done_at=0 if t.done_by is not None else None,
        )


def _home(state: GameState, side: str, scenario: Scenario | None) -> str:
    """A side's own edge: the scenario's, else the edge nearest its airplanes' middle."""
    named = scenario.side(side) if scenario is not None else None
    if named is not None:
        return named.edge
    own = [v.pose.point for v in state.vehicles.values() if v.side == side]
    mx = sum(p[0] for p in own) / len(own)
    my = sum(p[1] for p in own) / len(own)
    w, h = state.rules.table_width, state.rules.table_height
    distances = {"south": my, "north": h - my, "west": mx, "east": w - mx}
    return min(distances, key=lambda e: distances[e])

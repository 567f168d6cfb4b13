"""Objective tokens where they lie, crossed out once destroyed."""

from __future__ import annotations

import math

from dogfight.render.context import _Context
from dogfight.render.markup import _cm, _group, _tag
from dogfight.render.style import OBJECTIVE_COLOUR, SCALE, SMALL_SIZE
from dogfight.rules.state import Objective


def _objectives_block(ctx: _Context) -> None:
    """Keep labels off the objective tokens."""
    radius = ctx.state.rules.catalog.constants.tripods.objective_radius
    for objective in ctx.state.objectives.values():
        x, y = objective.x, objective.y
        ctx.labels.block(((x - radius, y - radius), (x + radius, y + radius)))


def _charges(objective: Objective) -> str:
    if objective.charges == 0:
        return "no charge left"
    return f"{objective.charges} charge{'s' * (objective.charges > 1)}"


def _objectives_layer(ctx: _Context) -> list[str]:
    """The objective tokens, round, with their id and the recharges they can still give;
    destroyed ones ghosted and crossed out."""
    f = ctx.frame
    radius = ctx.state.rules.catalog.constants.tripods.objective_radius
    out: list[str] = []
    for oid in sorted(ctx.state.objectives):
        objective = ctx.state.objectives[oid]
        x, y = objective.x, objective.y
        css = "token destroyed" if objective.destroyed else "token"
        children = [
            _tag(
                "circle",
                {
                    "class": css,
                    "cx": f.x(x),
                    "cy": f.y(y),
                    "r": radius * SCALE,
                    "fill": "#ffffff",
                    "stroke": OBJECTIVE_COLOUR,
                },
            ),
            _tag(
                "circle",
                {
                    "class": "token-core",
                    "cx": f.x(x),
                    "cy": f.y(y),
                    "r": 0.45 * radius * SCALE,
                    "fill": "none",
                    "stroke": OBJECTIVE_COLOUR,
                },
            ),
        ]
        about = f"objective {oid} at x {_cm(x)} y {_cm(y)}: {_charges(objective)}"
        if objective.destroyed:
            d = radius / math.sqrt(2.0)
            cross = (
                f"M{f.point((x - d, y - d))} L{f.point((x + d, y + d))} "
                f"M{f.point((x - d, y + d))} L{f.point((x + d, y - d))}"
            )
            children.append(
                _tag("path", {"class": "cross", "d": cross, "stroke": OBJECTIVE_COLOUR})
            )
            text = f"{oid} (destroyed)"
            about += "; destroyed"
        else:
            text = f"{oid}: {_charges(objective)}"
        ctx.labels.add(
            (x, y + radius + 0.9),
            text,
            size=SMALL_SIZE,
            nudges=((0.0, 1.2), (0.0, -1.2)),
            fill=OBJECTIVE_COLOUR,
        )
        attrs = {
            "class": "objective",
            "data-objective": oid,
            "data-destroyed": "true" if objective.destroyed else None,
        }
        out.append(_group(attrs, children, about))
    return out

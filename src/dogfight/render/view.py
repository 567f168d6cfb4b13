"""How far the drawing reaches: the table, its margins and header, grown to hold
whatever is drawn beyond them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from dogfight.geometry.pose import Point
from dogfight.render.context import _Context, _move_shapes, _View
from dogfight.render.scenario import _entries
from dogfight.render.smoke import _cloud_discs
from dogfight.render.style import CAPTION_ROW, HEADER, LEGEND_ROW, MARGIN, PAD
from dogfight.rules.events import (
    Event,
)


def _view(ctx: _Context, events: Sequence[Event], legend_rows: int, caption_rows: int = 0) -> _View:
    """The table with its margins and header, grown in whole cm (keeping ``PAD`` clear)
    to hold whatever is drawn beyond them: an airplane that left the area, the card that
    took it there, a smoke cloud over the edge. Grid lines and labels stay where they
    are. ``caption_rows`` caption lines beyond the usual two grow the header."""
    rules = ctx.state.rules
    width, height = rules.table_width, rules.table_height
    points: list[Point] = []
    for vehicle in ctx.state.vehicles.values():
        points.extend(ctx.shape(vehicle))
    for _turn, _phase, move, vehicle in ctx.moves(events):
        points.extend(ctx.shape(vehicle, move.start))
        points.extend(_move_shapes(ctx, move, vehicle)[0])
    radius = ctx.state.rules.catalog.constants.tripods.objective_radius
    for objective in ctx.state.objectives.values():
        points.append((objective.x - radius, objective.y - radius))
        points.append((objective.x + radius, objective.y + radius))
    for x, y, r in _cloud_discs(ctx, events):
        points.append((x - r, y - r))
        points.append((x + r, y + r))
    for _index, _time, entry, vehicle in _entries(ctx, events):
        points.extend(ctx.shape(vehicle, entry.pose))
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    header = HEADER + LEGEND_ROW * max(0, legend_rows - 1) + CAPTION_ROW * caption_rows
    # nothing may go under the header: above the table, any overhang grows the view
    top = height if max(ys) <= height else math.ceil(max(ys) + PAD)
    return _View(
        left=min(-MARGIN, math.floor(min(xs) - PAD)),
        right=max(width + MARGIN, math.ceil(max(xs) + PAD)),
        bottom=min(-MARGIN, math.floor(min(ys) - PAD)),
        top=top + header,
        header=header,
    )

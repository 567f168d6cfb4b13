"""The table itself: its cloth, the grid and the firing-arc wedges."""

from __future__ import annotations

from dogfight.geometry.pose import Pose
from dogfight.geometry.reach import Arc
from dogfight.render.context import _Context, _polar
from dogfight.render.labels import _text
from dogfight.render.markup import _cm, _Frame, _line, _num, _rect
from dogfight.render.style import FAINT, GRID, GRID_COLOUR, INK, SCALE, SMALL_SIZE, TABLE


def _grid_marks(length: float) -> list[float]:
    """Grid positions along one edge: every ``GRID`` cm, and the far edge."""
    marks = [GRID * i for i in range(int(length // GRID) + 1)]
    if length - marks[-1] > 1e-9:
        marks.append(length)
    return marks


def _table_layer(ctx: _Context) -> list[str]:
    """The playing area, a light grid every 10 cm and the cm figures along two edges."""
    f = ctx.frame
    width, height = ctx.state.rules.table_width, ctx.state.rules.table_height
    out = [_rect(f, (0.0, 0.0), width, height, {"class": "table", "fill": TABLE, "stroke": INK})]
    xs, ys = _grid_marks(width), _grid_marks(height)
    grid = {"class": "grid", "stroke": GRID_COLOUR}
    out += [_line(f, (x, 0.0), (x, height), grid) for x in xs[1:-1]]
    out += [_line(f, (0.0, y), (width, y), grid) for y in ys[1:-1]]
    out += [_text(f, (x, -1.5), _cm(x), SMALL_SIZE, "middle", "grid-label", FAINT) for x in xs]
    out += [_text(f, (-0.8, y), _cm(y), SMALL_SIZE, "end", "grid-label", FAINT) for y in ys]
    out.append(_text(f, (width + 2.0, -1.5), "cm", SMALL_SIZE, "start", "grid-label", FAINT))
    return out


def _wedge(f: _Frame, pose: Pose, arc: Arc, radius: float) -> tuple[str, str]:
    """SVG path data of an arc's wedge out to ``radius``, and of the bare arc line.

    The table's counter-clockwise stays counter-clockwise on screen after the y flip,
    which in SVG's y-down frame is the negative sweep (sweep-flag 0).
    """
    axis = pose.heading + arc.centre
    first = _polar(pose.point, axis - arc.width / 2.0, radius)
    last = _polar(pose.point, axis + arc.width / 2.0, radius)
    r = _num(radius * SCALE)
    large = 1 if arc.width > 180.0 else 0
    sweep = f"A{r},{r} 0 {large} 0 {f.point(last)}"
    return f"M{f.point(pose.point)} L{f.point(first)} {sweep} Z", f"M{f.point(first)} {sweep}"

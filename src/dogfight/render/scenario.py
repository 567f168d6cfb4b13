"""A scenario's edge strips, half-line, objective zone and reinforcements entering."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from dogfight.catalog.models import Scenario
from dogfight.geometry.pose import Point
from dogfight.render.context import _Context, _polar, _timed, _unit, _when
from dogfight.render.markup import _circle, _cm, _cross, _group, _line, _polygon, _rect, _tag
from dogfight.render.shots import _arrowhead
from dogfight.render.style import INK, OBJECTIVE_COLOUR, SMALL_SIZE
from dogfight.rules.events import (
    Event,
    Reinforcement,
)
from dogfight.rules.state import Vehicle


def _entries(
    ctx: _Context, events: Sequence[Event]
) -> Iterator[tuple[int, tuple[int, int], Reinforcement, Vehicle]]:
    """The reinforcements among ``events`` that this state knows, with their time."""
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if isinstance(event, Reinforcement) and event.vehicle in ctx.state.vehicles:
            yield index, (turn, phase), event, ctx.state.vehicles[event.vehicle]


def _strip(
    scenario: Scenario, edge: str, width: float, height: float
) -> tuple[Point, float, float]:
    """The lower-left corner, width and height of an edge's strip."""
    depth = scenario.edge_depth
    return {
        "south": ((0.0, 0.0), width, depth),
        "north": ((0.0, height - depth), width, depth),
        "west": ((0.0, 0.0), depth, height),
        "east": ((width - depth, 0.0), depth, height),
    }[edge]


def _scenario_layer(ctx: _Context, scenario: Scenario, events: Sequence[Event]) -> list[str]:
    """Each side's edge strip (an "edge" placement: the centre at most ``edge_depth``
    from it) tinted in its colour, the half-line between the sides' halves (a "half"
    placement), the circle the objectives must lie in, and where reinforcements came in."""
    f = ctx.frame
    width, height = ctx.state.rules.table_width, ctx.state.rules.table_height
    depth = scenario.edge_depth
    out: list[str] = []
    for side in scenario.sides:
        colour = ctx.colours.get(side.name, INK)
        corner, w, h = _strip(scenario, side.edge, width, height)
        rect = _rect(f, corner, w, h, {"class": "strip", "fill": colour})
        inside = {
            "south": ((width - 1.0, depth / 2.0), "end"),
            "north": ((width - 1.0, height - depth / 2.0), "end"),
            "west": ((depth / 2.0, height - 2.0), "middle"),
            "east": ((width - depth / 2.0, height - 2.0), "middle"),
        }[side.edge]
        ctx.labels.add(
            inside[0],
            f"{side.name} edge",
            size=SMALL_SIZE,
            anchor=inside[1],
            nudges=((-6.0, 0.0), (0.0, -3.0))
            if side.edge in ("south", "north")
            else ((0.0, -6.0),),
            fill=colour,
        )
        about = (
            f"{side.name} side: the {side.edge} edge; an 'edge' placement puts the centre at "
            f"most {_cm(depth)} cm from it, a 'half' placement anywhere in the {side.edge} half"
        )
        attrs = {"class": "edge-strip", "data-side": side.name, "data-edge": side.edge}
        out.append(_group(attrs, [rect], about))
    edges = {side.edge for side in scenario.sides}
    lines: list[tuple[Point, Point]] = []
    if edges & {"north", "south"}:
        lines.append(((0.0, height / 2.0), (width, height / 2.0)))
    if edges & {"west", "east"}:
        lines.append(((width / 2.0, 0.0), (width / 2.0, height)))
    for a, b in lines:
        out.append(
            _group(
                {"class": "half-line"},
                [_line(f, a, b, {"class": "half-line", "stroke": INK})],
                "the half-line: each side's half of the table",
            )
        )
    for side in scenario.sides:
        spot, anchor = {
            "north": ((width - 1.0, height / 2.0 + 1.1), "end"),
            "south": ((width - 1.0, height / 2.0 - 1.1), "end"),
            "west": ((width / 2.0 - 1.1, height - 4.0), "end"),
            "east": ((width / 2.0 + 1.1, height - 4.0), "start"),
        }[side.edge]
        ctx.labels.add(
            spot,
            f"{side.name} half",
            size=SMALL_SIZE,
            anchor=anchor,
            nudges=((-6.0, 0.0),) if side.edge in ("north", "south") else ((0.0, -6.0),),
            fill=ctx.colours.get(side.name, INK),
        )
    rule = scenario.objectives
    if rule is not None:
        centre = (width / 2.0, height / 2.0)
        zone = _circle(
            f, centre, rule.max_from_centre, {"class": "objective-zone", "stroke": OBJECTIVE_COLOUR}
        )
        mark = _tag(
            "path", {"class": "cross", "d": _cross(f, centre, 0.6), "stroke": OBJECTIVE_COLOUR}
        )
        # on the circle's upper left, outside it, where the sides' paths rarely run
        ctx.labels.add(
            _polar(centre, 135.0, rule.max_from_centre + 0.8),
            f"objectives within {_cm(rule.max_from_centre)} cm of the centre",
            size=SMALL_SIZE,
            anchor="end",
            nudges=((0.0, 1.3), (0.0, -1.3), (1.3, 1.3)),
            fill=OBJECTIVE_COLOUR,
        )
        about = (
            f"{rule.count} objective tokens at most {_cm(rule.max_from_centre)} cm from the "
            f"centre and at least {_cm(rule.min_apart)} cm apart"
        )
        out.append(_group({"class": "objective-rule"}, [zone, mark], about))
    for _index, (turn, phase), entry, vehicle in _entries(ctx, events):
        colour = ctx.colour(vehicle)
        pose = entry.pose
        back = (
            2.0 * ctx.state.rules.hex_apothem()
            if vehicle.kind == "tripod"
            else ctx.state.rules.base_length
        )
        start, end = pose.to_world(-back / 2.0 - 4.5, 0.0), pose.to_world(-back / 2.0 - 0.4, 0.0)
        direction = _unit(start, end) or (1.0, 0.0)
        children = [
            _polygon(f, ctx.shape(vehicle, pose), {"class": "enters", "stroke": colour}),
            _line(f, start, end, {"class": "enters", "stroke": colour}),
            _polygon(f, _arrowhead(end, direction), {"fill": colour}),
        ]
        ctx.beside(start, end, 0.0, f"{entry.vehicle} enters", SMALL_SIZE, colour)
        about = (
            f"{entry.vehicle} ({entry.type}) enters as a reinforcement at x {_cm(pose.x)} y "
            f"{_cm(pose.y)} heading {_cm(pose.heading)}"
        )
        attrs = {"class": "reinforcement", "data-vehicle": entry.vehicle}
        out.append(_group(attrs, children, about + _when(turn, phase)))
    return out

"""Draw a game state to scale as a standalone SVG document.

The drawing is for checking rulings by eye: every base where the engine put it, the
cards and paths that brought it there, every shot as the ruler was laid (from the firing
dot to the nearest point of the target's base it could reach), the firing arcs out to the
ruler with the half mark, and the shots other bases blocked completely.

Martian tripods (*Tripods & Triplanes*) are drawn on their hexagonal bases with the
protected sides as a serrated orange line (as on the tripod's reference card), the
heat-ray projectors as red dots, Energy in the label and, when toppled, hatched; their
moves are laid on the front of the base, or on the rear after a reverse; heat-rays are
drawn as the edge of the heat-ray ruler that reached (red) with the ruler's outline, and
shots that hit the electrified armour are labelled "armour". Objective tokens are drawn
where they lie, crossed out once destroyed.

Standard Rules: Black Smoke clouds as grey translucent circles, each cloud placed with the
arc-shaped ruler from the projector's side to its stand, dispersed clouds dashed and
crossed with who dispersed them; rockets launched, hitting (dash-dot) and missing
(dotted); announced special damage and the public lasting status (wounded pilot, smoke,
fire) as tags by the vehicle. Secret specials are never drawn: a player may be shown the
drawing. A scenario adds its title, each side's edge strip in the side's colour, the
half-line, the circle the objectives lie in, reinforcements entering, and in the caption
how it was won, the reserves still to come (and any rockets still in flight).

:func:`render_svg` is a pure function and its output is byte-for-byte deterministic: floats
are written with a fixed number of decimals, vehicles are visited in id order and events in
the order given, so drawings can be diffed and kept as test fixtures.

Coordinates: the table's origin is its lower-left corner with y growing upward, as in the
rules; SVG's y grows downward. Every point therefore goes through :class:`_Frame`, which
scales (``SCALE`` user units per cm) and flips y. Nothing is drawn through an SVG
transform, so text always stays upright and the numbers in the file are table
coordinates times ten.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from dogfight.catalog.models import Scenario
from dogfight.geometry.hexbase import Side, hexagon, side_midpoint, side_normal, side_segment
from dogfight.geometry.maneuver import Card, card_area, card_path
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.reach import Arc
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.rules import firing
from dogfight.rules.events import (
    CloudDispersed,
    DamageCardsTaken,
    DamageDrawn,
    Event,
    FacingChanged,
    Fired,
    HeatRay,
    LeftArea,
    Moved,
    PhaseStarted,
    ProtectedHit,
    PutBack,
    Reinforcement,
    RocketsHit,
    RocketsLaunched,
    RocketsMissed,
    ScenarioWon,
    SmokeCloud,
    SpecialDamage,
    TurnStarted,
)
from dogfight.rules.rockets import ROCKET_DECK
from dogfight.rules.state import GameState, Objective, Vehicle

SCALE = 10.0
"""SVG user units per cm; the document's width and height are given in mm, so printed at
100 % the drawing is the size of the real table."""
MARGIN = 6.0
"""cm of paper left, right and below the table (grid labels live there)."""
HEADER = 10.0
"""cm above the table for the title, the caption and one row of legend."""
LEGEND_ROW = 1.8
"""cm added to the header for each further row of legend."""
CAPTION_ROW = 1.7
"""cm added to the header for each caption line beyond the first two."""
GRID = 10.0
"""cm between grid lines."""
PAD = 1.0
"""cm kept around anything drawn off the table (an airplane that left the area)."""

# font sizes, cm
TITLE_SIZE = 2.4
TEXT_SIZE = 1.3
SMALL_SIZE = 1.1

PALETTE = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#6a3d9a",
    "#e69f00",
    "#56b4e9",
    "#cc79a7",
    "#8c6d1f",
)
"""Side colours, most distinct first: Okabe-Ito (readable by colour-blind players) with
its yellow and black, unreadable on the table or mistaken for the ink, swapped for purple
and brown."""

# Colours are given as presentation attributes, never in the style sheet: a CSS rule
# would override the attribute, and the side colours must be attributes.
INK = "#222222"
FAINT = "#777777"
BLOCKED_COLOUR = "#777777"
TABLE = "#f7f4ea"
GRID_COLOUR = "#d9d2bd"
CARD_EDGE = "#999999"
ARMOUR = "#ff8c00"
"""The serrated orange line of a tripod's protected sides (and hits on the armour)."""
RAY = "#d62728"
"""Heat-rays and the heat-ray projectors."""
OBJECTIVE_COLOUR = "#5c4b2e"
KEY_SAMPLE = 2.4
"""cm of line (or swatch) before each legend text."""

STYLE = """
text { font-family: 'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif; }
.halo { paint-order: stroke; stroke: #ffffff; stroke-width: 4; stroke-linejoin: round; }
.title { font-weight: bold; }
.table { stroke-width: 3; }
.grid { stroke-width: 1; }
.reach { fill-opacity: 0.07; stroke-opacity: 0.35; stroke-width: 1.5; }
.half { fill: none; stroke-opacity: 0.45; stroke-width: 1.5; stroke-dasharray: 6 4; }
.card { fill-opacity: 0.06; stroke-width: 1; }
.start { fill: none; stroke-width: 1.5; stroke-dasharray: 5 4; stroke-opacity: 0.8; }
.path { fill: none; stroke-width: 3; stroke-linecap: round; stroke-linejoin: round; }
.shot { stroke-width: 4; stroke-linecap: round; }
.long { stroke-dasharray: 10 6; }
.blocked { stroke-width: 3; stroke-linecap: round; stroke-dasharray: 0.1 8; }
.base { fill-opacity: 0.85; stroke-width: 2; }
.eliminated { fill-opacity: 0.12; stroke-dasharray: 4 4; stroke-opacity: 0.7; }
.cross { stroke-width: 2; stroke-opacity: 0.7; }
.dot { stroke-width: 1; }
""".strip()

TRIPOD_STYLE = """
.armour-under { fill: none; stroke-width: 6; stroke-linejoin: miter; stroke-opacity: 0.8; }
.armour { fill: none; stroke-width: 3.5; stroke-linejoin: miter; }
.projector { stroke-width: 1.2; }
.ray { stroke-width: 4; stroke-linecap: round; }
.nothing { stroke-width: 3; stroke-dasharray: 2 5; stroke-linecap: round; }
.ruler { fill-opacity: 0.05; stroke-opacity: 0.5; stroke-width: 1.2; stroke-dasharray: 4 3; }
.ruler-half { stroke-opacity: 0.5; stroke-width: 1.2; }
.toppled { fill-opacity: 0.4; }
.hatch { stroke-width: 1.5; }
.armour-hit { fill: none; stroke-width: 3; }
.token { fill-opacity: 0.75; stroke-width: 2; }
.token-core { fill: none; stroke-width: 1.5; }
.destroyed { fill-opacity: 0.2; stroke-dasharray: 4 3; }
""".strip()
"""Added to the style sheet only when tripods or objectives are drawn (so that drawings of
airplanes alone stay byte for byte what they were)."""

HATCH = "toppled-hatch"
"""Id of the hatching pattern laid over a toppled tripod."""

SMOKE = "#5a5a5a"
"""Black smoke clouds (translucent) and the arc-shaped Black Smoke ruler."""
TAG = "#a50f15"
"""Announced special damage and lasting status tags."""

STANDARD_STYLE = """
.cloud { fill-opacity: 0.35; stroke-width: 1.5; stroke-opacity: 0.8; }
.dispersed { fill-opacity: 0.06; stroke-dasharray: 5 4; }
.smoke-ruler { fill: none; stroke-width: 3; stroke-linecap: round; stroke-opacity: 0.85; }
.stand { stroke-width: 1.5; }
.rocket-casing { stroke-width: 6; stroke-opacity: 0.8; stroke-linecap: round; }
.rocket-hit { stroke-width: 3.5; stroke-linecap: round; stroke-dasharray: 14 4 3 4; }
.rocket-missed { stroke-width: 2.5; stroke-linecap: round; stroke-dasharray: 0.1 7; }
.rocket-launch { fill: none; stroke-width: 2.5; stroke-linecap: round; stroke-linejoin: round; }
.tag { fill: #ffffff; stroke-width: 1.2; }
""".strip()
"""Added only when Standard Rules marks are drawn (clouds, rockets, special damage)."""

SCENARIO_STYLE = """
.strip { fill-opacity: 0.12; }
.half-line { stroke-width: 1.5; stroke-dasharray: 8 5; stroke-opacity: 0.7; }
.objective-zone { fill: none; stroke-width: 1.5; stroke-dasharray: 6 5; stroke-opacity: 0.7; }
.enters { fill: none; stroke-width: 2; stroke-dasharray: 5 3; }
""".strip()
"""Added only when a scenario is drawn."""

SPECIAL_NAMES = {
    "wounded_pilot": "wounded pilot",
    "fire": "on fire",
    "smoke": "smoke trail",
    "circuits": "circuits hit",
    "toppled": "toppled",
    "batteries": "batteries damaged",
    "jammed": "jammed",
}
"""How announced special damage reads on its tag (others: the name with spaces)."""

STATUS_SPECIALS = {"wounded": "wounded_pilot", "smoke": "smoke", "fire": "fire"}
"""The lasting status counters that are public (000: announced specials), with the
special that sets each; the others (engine, rudders, gyroscope, ...) stay secret."""


# --- numbers and elements ------------------------------------------------------------


def _num(value: float) -> str:
    """A number with two decimals and trailing zeros dropped (never ``-0``).

    Fixed decimals are what makes the output deterministic; two decimals of a user unit
    are a thousandth of a centimetre.
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _cm(value: float) -> str:
    """A length in cm for reading (no trailing zeros)."""
    return _num(value)


Attrs = Mapping[str, str | float | int | None]


def _tag(name: str, attrs: Attrs, content: str | None = None) -> str:
    """One element; attribute values are quoted with ``quoteattr`` and floats formatted
    by :func:`_num`. ``content`` must already be markup (escape text with ``escape``)."""
    parts = [name]
    for key, value in attrs.items():
        if value is None:
            continue
        text = _num(value) if isinstance(value, float) else str(value)
        parts.append(f"{key}={quoteattr(text)}")
    opening = " ".join(parts)
    if content is None:
        return f"<{opening}/>"
    return f"<{opening}>{content}</{name}>"


def _open(name: str, attrs: Attrs) -> str:
    """The opening tag of an element whose children follow on their own lines."""
    return _tag(name, attrs)[:-2] + ">"


def _group(attrs: Attrs, children: Sequence[str], tooltip: str | None = None) -> str:
    """A ``<g>`` holding ``children``, with an optional ``<title>`` (hover text)."""
    inner = [] if tooltip is None else [f"<title>{escape(tooltip)}</title>"]
    return _tag("g", attrs, "".join([*inner, *children]))


@dataclass(frozen=True, slots=True)
class _Frame:
    """Table cm (origin lower-left, y up) to SVG user units (y down)."""

    height: float

    def x(self, x: float) -> float:
        return x * SCALE

    def y(self, y: float) -> float:
        return (self.height - y) * SCALE

    def point(self, p: Point) -> str:
        return f"{_num(self.x(p[0]))},{_num(self.y(p[1]))}"

    def points(self, ps: Sequence[Point]) -> str:
        return " ".join(self.point(p) for p in ps)


def _polygon(f: _Frame, poly: Sequence[Point], attrs: Attrs) -> str:
    return _tag("polygon", {**attrs, "points": f.points(poly)})


def _line(f: _Frame, a: Point, b: Point, attrs: Attrs) -> str:
    return _tag(
        "line", {**attrs, "x1": f.x(a[0]), "y1": f.y(a[1]), "x2": f.x(b[0]), "y2": f.y(b[1])}
    )


def _rect(f: _Frame, corner: Point, width: float, height: float, attrs: Attrs) -> str:
    """An axis-aligned rectangle given by its lower-left corner on the table."""
    return _tag(
        "rect",
        {
            **attrs,
            "x": f.x(corner[0]),
            "y": f.y(corner[1] + height),
            "width": width * SCALE,
            "height": height * SCALE,
        },
    )


# --- labels --------------------------------------------------------------------------

Box = tuple[float, float, float, float]


def _text_box(at: Point, text: str, size: float, anchor: str) -> Box:
    """Rough extent (cm) of a label whose vertical middle is ``at``."""
    width = 0.62 * size * len(text)
    left = {"start": at[0], "middle": at[0] - width / 2.0, "end": at[0] - width}[anchor]
    return (left, at[1] - size / 2.0, left + width, at[1] + size / 2.0)


def _overlap(a: Box, b: Box) -> float:
    """Area (cm²) two boxes share."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, width) * max(0.0, height)


@dataclass(slots=True)
class _Labels:
    """Places labels so that they do not cover bases or each other, as far as a few
    nudges allow; first placed, first served. Collects the text elements, which are drawn
    last so that no line runs over a label."""

    frame: _Frame
    bounds: Box = (-math.inf, -math.inf, math.inf, math.inf)
    """Where labels may go (the drawing below its header), cm."""
    boxes: list[Box] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def outside(self, box: Box) -> float:
        """Area (cm²) of ``box`` beyond ``bounds``, where it would be cut off."""
        return (box[2] - box[0]) * (box[3] - box[1]) - _overlap(box, self.bounds)

    def block(self, poly: Sequence[Point]) -> None:
        """Keep labels off this polygon's bounding box."""
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        self.boxes.append((min(xs), min(ys), max(xs), max(ys)))

    def add(
        self,
        at: Point,
        text: str,
        *,
        size: float = TEXT_SIZE,
        anchor: str = "middle",
        nudges: Sequence[Point] = (),
        tries: int = 8,
        css: str = "label",
        fill: str | None = None,
    ) -> Point:
        """Add a label centred vertically on ``at``; when that spot is taken, try 1, 2, ...
        ``tries`` steps along each of ``nudges`` in turn (nearest first) and keep the
        first free spot, else the one overlapping least (going off the drawing counts a
        hundredfold). Returns where it went."""
        candidates = [at] + [
            (at[0] + k * dx, at[1] + k * dy) for k in range(1, tries + 1) for dx, dy in nudges
        ]
        best, spot = math.inf, at
        for candidate in candidates:
            box = _text_box(candidate, text, size, anchor)
            covered = sum(_overlap(box, other) for other in self.boxes)
            covered += 100.0 * self.outside(box)
            if covered < best:
                best, spot = covered, candidate
            if covered == 0.0:
                break
        self.boxes.append(_text_box(spot, text, size, anchor))
        self.texts.append(_text(self.frame, spot, text, size, anchor, f"{css} halo", fill))
        return spot


def _text(
    frame: _Frame,
    at: Point,
    text: str,
    size: float,
    anchor: str = "start",
    css: str | None = None,
    fill: str | None = None,
) -> str:
    """A text element whose vertical middle is at ``at`` (cm)."""
    baseline = (at[0], at[1] - 0.35 * size)
    return _tag(
        "text",
        {
            "class": css,
            "x": frame.x(baseline[0]),
            "y": frame.y(baseline[1]),
            "font-size": size * SCALE,
            "text-anchor": anchor,
            "fill": fill or INK,
        },
        escape(text),
    )


# --- sides and events ----------------------------------------------------------------


def side_colours(sides: Sequence[str]) -> dict[str, str]:
    """A colour per side: the sides in name order take the palette in order.

    ``GameState.sides`` counts eliminated airplanes too, so a side keeps its colour for
    the whole game; two or three sides always get the most distinct colours. The palette
    repeats beyond eight sides.
    """
    return {side: PALETTE[i % len(PALETTE)] for i, side in enumerate(sorted(set(sides)))}


def _timed(events: Sequence[Event]) -> Iterator[tuple[int, int, Event]]:
    """Each event with the (turn, phase) it happened in (0 while not known)."""
    turn = phase = 0
    for event in events:
        if isinstance(event, TurnStarted):
            turn, phase = event.turn, 0
        elif isinstance(event, PhaseStarted):
            turn, phase = event.turn, event.phase
        yield turn, phase, event


def _when(turn: int, phase: int) -> str:
    """ " (turn 1, phase 2)" for hover texts, or nothing when not known."""
    if turn == 0:
        return ""
    return f" (turn {turn}, phase {phase})" if phase else f" (turn {turn})"


def _polar(origin: Point, degrees: float, radius: float) -> Point:
    rad = math.radians(degrees)
    return (origin[0] + radius * math.cos(rad), origin[1] + radius * math.sin(rad))


def _unit(a: Point, b: Point) -> Point | None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return None if length < 1e-9 else (dx / length, dy / length)


# --- the drawing -----------------------------------------------------------------------


@dataclass(slots=True)
class _Context:
    """What every layer needs: the state, the frame, side colours and the label placer."""

    state: GameState
    frame: _Frame
    colours: dict[str, str]
    labels: _Labels

    def colour(self, vehicle: Vehicle) -> str:
        return self.colours[vehicle.side]

    def base(self, pose: Pose) -> Polygon:
        """An airplane's base at ``pose``."""
        return rectangle(pose, self.state.rules.base_length, self.state.rules.base_width)

    def shape(self, vehicle: Vehicle, pose: Pose | None = None) -> Polygon:
        """The vehicle's base (a hexagon for a tripod) where it is, or at ``pose``."""
        where = vehicle.pose if pose is None else pose
        if vehicle.kind == "tripod":
            return hexagon(where, self.state.rules.hex_side)
        return self.base(where)

    def has_tripods(self) -> bool:
        return any(v.kind == "tripod" for v in self.state.vehicles.values())

    def pose_at(self, events: Sequence[Event], index: int, vid: str) -> Pose:
        """Where vehicle ``vid`` (known to the state) stood at ``events[index]``."""
        return _pose_at(self.state, events, index, vid)

    def vehicles(self) -> list[Vehicle]:
        """Every vehicle, in id order (the drawing must not depend on dict order)."""
        return sorted(self.state.vehicles.values(), key=lambda v: v.id)

    def moves(self, events: Sequence[Event]) -> Iterator[tuple[int, int, Moved, Vehicle]]:
        """The moves among ``events`` of vehicles this state knows, with their time."""
        for turn, phase, event in _timed(events):
            if isinstance(event, Moved) and event.vehicle in self.state.vehicles:
                yield turn, phase, event, self.state.vehicles[event.vehicle]

    def beside(self, a: Point, b: Point, at: float, text: str, size: float, fill: str) -> None:
        """Label the line ``a``-``b`` at fraction ``at`` of its length, on the left of its
        direction (two airplanes firing at each other get their labels on either side),
        sliding away from the line or along it when the spot is taken."""
        direction = _unit(a, b) or (1.0, 0.0)
        normal = (-direction[1], direction[0])
        spot = (
            a[0] + at * (b[0] - a[0]) + 0.9 * normal[0],
            a[1] + at * (b[1] - a[1]) + 0.9 * normal[1],
        )
        if normal[0] > 0.3:
            anchor = "start"
        elif normal[0] < -0.3:
            anchor = "end"
        else:
            anchor = "middle"
        step = 1.3
        self.labels.add(
            spot,
            text,
            size=size,
            anchor=anchor,
            nudges=(
                (step * direction[0], step * direction[1]),
                (-step * direction[0], -step * direction[1]),
                (step * normal[0], step * normal[1]),
            ),
            fill=fill,
        )


@dataclass(frozen=True, slots=True)
class _View:
    """The drawn region in table cm, ``left``..``right`` by ``bottom``..``top``; the
    title, caption and legend take the top ``header`` cm."""

    left: float
    right: float
    bottom: float
    top: float
    header: float


@dataclass(frozen=True, slots=True)
class _Laid:
    """A maneuver card as laid against a base: for an airplane at the nose of its start
    pose; for a tripod at its front side, or at its rear side (the start pose turned
    round) when the card is applied backwards after a reverse."""

    pose: Pose
    depth: float
    """Distance from the side the card is laid against to the opposite one."""
    card: Card
    length: float
    width: float
    area_length: float
    """The deck's card length, which ``card_area`` uses for cards without their own."""


def _laid(ctx: _Context, move: Moved, vehicle: Vehicle) -> _Laid:
    rules = ctx.state.rules
    if vehicle.kind == "tripod":
        tdeck = rules.tripod_deck_of(vehicle.type)
        start = move.start
        if move.backward:
            start = Pose(start.x, start.y, (start.heading + 180.0) % 360.0)
        return _Laid(
            start,
            2.0 * rules.hex_apothem(),
            tdeck.card(move.card),
            tdeck.card_length,
            tdeck.card_width,
            tdeck.card_length,
        )
    deck = rules.deck_of(vehicle.type)
    card = deck.card(move.card)
    length = card.length or deck.card_length
    return _Laid(move.start, rules.base_length, card, length, deck.card_width, deck.card_length)


def _move_shapes(ctx: _Context, move: Moved, vehicle: Vehicle) -> tuple[Polygon, list[Point]]:
    """The card rectangle and the centre dot's path of a move, laid at its start pose."""
    laid = _laid(ctx, move, vehicle)
    area = card_area(laid.pose, laid.card, laid.depth, laid.area_length, laid.width)
    return area, card_path(laid.pose, laid.card, laid.depth)


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


# --- tripods and objectives ------------------------------------------------------------


def _pose_after(event: Event, vid: str) -> Pose | None:
    """Where ``event`` left vehicle ``vid`` (None: it did not move it)."""
    if isinstance(event, Moved) and event.vehicle == vid:
        return event.end
    if isinstance(event, FacingChanged | PutBack | LeftArea) and event.vehicle == vid:
        return event.pose
    return None


def _pose_before(event: Event, vid: str) -> Pose | None:
    """Where vehicle ``vid`` stood before ``event`` (None: it did not move it)."""
    if isinstance(event, Moved) and event.vehicle == vid:
        return event.start
    if isinstance(event, FacingChanged) and event.vehicle == vid:
        return Pose(event.pose.x, event.pose.y, (event.pose.heading - 60.0 * event.sides) % 360.0)
    if isinstance(event, PutBack | LeftArea) and event.vehicle == vid:
        # reached before any move of its own: a tripod lying where it was, or a plane
        # that left without a move in these events
        return event.pose
    return None


def _pose_at(state: GameState, events: Sequence[Event], index: int, vid: str) -> Pose:
    """Where vehicle ``vid`` stood when ``events[index]`` happened: after the last event
    before it that moved it, else before the first one after it, else where it is now."""
    for event in reversed(events[:index]):
        after = _pose_after(event, vid)
        if after is not None:
            return after
    for event in events[index + 1 :]:
        before = _pose_before(event, vid)
        if before is not None:
            return before
    return state.vehicles[vid].pose


@dataclass(frozen=True, slots=True)
class _Ray:
    """A heat-ray as fired: the tripod's pose then, and the projector's side."""

    index: int
    turn: int
    phase: int
    event: HeatRay
    firer: Vehicle
    pose: Pose
    middle: Point
    """The middle of the projector's side, where the ruler's black line goes."""
    normal: float
    """The side's outward normal (degrees)."""


def _rays(ctx: _Context, events: Sequence[Event]) -> Iterator[_Ray]:
    """The heat-rays among ``events`` of tripods this state knows."""
    hex_side = ctx.state.rules.hex_side
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if not isinstance(event, HeatRay) or event.firer not in ctx.state.vehicles:
            continue
        firer = ctx.state.vehicles[event.firer]
        if firer.kind != "tripod":
            continue
        side = Side.parse(event.projector)
        pose = _pose_at(ctx.state, events, index, firer.id)
        middle = side_midpoint(pose, hex_side, side)
        yield _Ray(index, turn, phase, event, firer, pose, middle, side_normal(pose, side))


def _ray_line(ray: _Ray) -> tuple[Point, Point] | None:
    """The edge of the ruler from the tripod's side to the point reached (None: the ray
    reached nothing)."""
    e = ray.event
    if e.target is None or e.origin is None or e.point is None:
        return None
    return (float(e.origin[0]), float(e.origin[1])), (float(e.point[0]), float(e.point[1]))


def _ruler_outline(ctx: _Context, ray: _Ray) -> tuple[Polygon, tuple[Point, Point]] | None:
    """The heat-ray ruler as laid: its outline and its half mark. The reaching edge starts
    at the event's origin, the other one as far on the other side of the side's middle;
    both run at the side's normal turned by the tilt. None when the ray reached nothing
    or the tripod's pose at the time cannot be traced back from the events."""
    line = _ray_line(ray)
    if line is None or ray.event.tilt is None:
        return None
    spec = ctx.state.rules.heat_ray_ruler(ray.firer.type)
    origin, middle = line[0], ray.middle
    if abs(math.dist(origin, middle) - spec.width / 2.0) > 0.05:
        return None
    other = (2.0 * middle[0] - origin[0], 2.0 * middle[1] - origin[1])
    direction = ray.normal + ray.event.tilt
    outline = (
        origin,
        _polar(origin, direction, spec.length),
        _polar(other, direction, spec.length),
        other,
    )
    half = (_polar(origin, direction, spec.half), _polar(other, direction, spec.half))
    return outline, half


def _heat_ray_rulers(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Faint outlines of the heat-ray rulers laid for the heat-rays that reached."""
    f = ctx.frame
    out: list[str] = []
    for ray in _rays(ctx, events):
        laid = _ruler_outline(ctx, ray)
        if laid is None:
            continue
        outline, half = laid
        spec = ctx.state.rules.heat_ray_ruler(ray.firer.type)
        kind = ctx.state.rules.tripod(ray.firer.type).heat_ray
        attrs = {"class": "heat-ray-ruler", "data-firer": ray.firer.id}
        about = (
            f"{ray.firer.id} {ray.event.projector} projector: {kind} heat-ray ruler, "
            f"{_cm(spec.length)} cm, half mark at {_cm(spec.half)} cm" + _when(ray.turn, ray.phase)
        )
        children = [
            _polygon(f, outline, {"class": "ruler", "fill": RAY, "stroke": RAY}),
            _line(f, half[0], half[1], {"class": "ruler-half", "stroke": RAY}),
        ]
        out.append(_group(attrs, children, about))
    return out


def _serrated(a: Point, b: Point, depth: float = 0.6, pitch: float = 0.5) -> list[Point]:
    """A serrated line along ``a``-``b``: teeth ``depth`` cm high on its right (outside
    a counter-clockwise polygon's edge), every other point on the line itself."""
    length = math.dist(a, b)
    direction = _unit(a, b) or (1.0, 0.0)
    right = (direction[1], -direction[0])
    steps = max(2, 2 * round(length / (2.0 * pitch)))
    points = [a]
    for i in range(1, steps):
        t = i / steps
        off = depth if i % 2 else 0.0
        points.append(
            (a[0] + t * (b[0] - a[0]) + off * right[0], a[1] + t * (b[1] - a[1]) + off * right[1])
        )
    points.append(b)
    return points


def _tripod_status(vehicle: Vehicle) -> str:
    """The second line of a tripod's label: Energy, and toppled with its tokens."""
    tripod = vehicle.tripod
    if tripod is None:
        return ""
    text = f"Energy {tripod.energy}/{tripod.rating}"
    if tripod.toppled:
        text += f" · toppled ({tripod.toppled})"
    return text


def _tripod_about(ctx: _Context, vehicle: Vehicle) -> str:
    """A tripod's hover text."""
    rules = ctx.state.rules
    model = rules.tripod(vehicle.type)
    pose = vehicle.pose
    about = (
        f"{vehicle.id}: {model.name} ({vehicle.type}), side {vehicle.side}, damage "
        f"{vehicle.damage}/{vehicle.resistance}"
    )
    tripod = vehicle.tripod
    if tripod is not None:
        about += f", Energy {tripod.energy}/{tripod.rating}"
        if tripod.toppled:
            about += f", toppled ({tripod.toppled} reminder token{'s' * (tripod.toppled > 1)})"
        if tripod.cooling:
            about += ", heat-ray cooling down"
        if tripod.reverse_pending:
            about += ", reverse: its next movement card is applied backward"
    about += (
        f"; {model.heat_ray} heat-ray projectors: {', '.join(model.projectors)}; protected "
        f"sides: {', '.join(model.protected) or 'none'}; at x {_cm(pose.x)} y {_cm(pose.y)} "
        f"heading {_cm(pose.heading)}"
    )
    return about


def _tripod_marks(ctx: _Context, vehicle: Vehicle, colour: str) -> list[str]:
    """A tripod in play: the hexagon (hatched when toppled), a nose marker, the protected
    sides as a serrated orange line, a red dot inside each heat-ray projector's side and
    the centre dot."""
    f = ctx.frame
    rules = ctx.state.rules
    model = rules.tripod(vehicle.type)
    pose = vehicle.pose
    base = ctx.shape(vehicle)
    apothem = rules.hex_apothem()
    toppled = vehicle.tripod is not None and vehicle.tripod.toppled > 0
    css = "base tripod toppled" if toppled else "base tripod"
    out = [_polygon(f, base, {"class": css, "fill": colour, "stroke": INK})]
    if toppled:
        out.append(_polygon(f, base, {"class": "hatched", "fill": f"url(#{HATCH})"}))
    nose = (
        pose.to_world(apothem - 1.9, 0.0),
        pose.to_world(apothem - 3.1, 0.8),
        pose.to_world(apothem - 3.1, -0.8),
    )
    out.append(_polygon(f, nose, {"class": "nose", "fill": "#ffffff"}))
    for name in model.protected:
        side = Side.parse(name)
        teeth = f.points(_serrated(*side_segment(pose, rules.hex_side, side)))
        out.append(_tag("polyline", {"class": "armour-under", "points": teeth, "stroke": INK}))
        out.append(
            _tag(
                "polyline",
                {"class": "armour", "data-side": name, "points": teeth, "stroke": ARMOUR},
            )
        )
    for name in model.projectors:
        spot = _polar(pose.point, side_normal(pose, Side.parse(name)), apothem - 1.1)
        attrs = {
            "class": "projector",
            "data-side": name,
            "cx": f.x(spot[0]),
            "cy": f.y(spot[1]),
            "r": 0.45 * SCALE,
            "fill": RAY,
            "stroke": "#ffffff",
        }
        out.append(_tag("circle", attrs))
    out.append(
        _tag(
            "circle",
            {
                "class": "dot",
                "cx": f.x(pose.x),
                "cy": f.y(pose.y),
                "r": 0.35 * SCALE,
                "fill": "#000000",
                "stroke": "#ffffff",
            },
        )
    )
    return out


def _armour_hits(events: Sequence[Event]) -> dict[int, ProtectedHit]:
    """The shots (indices of their ``Fired`` events) that hit a tripod's electrified
    armour. A phase's shots are resolved in the order they were fired, each by a
    ``ProtectedHit`` or by damage drawn with the firer as source; so each outcome goes
    to the first shot of that firer at that vehicle not yet resolved in the phase."""
    hits: dict[int, ProtectedHit] = {}
    pending: dict[tuple[str, str], list[int]] = {}
    for index, event in enumerate(events):
        if isinstance(event, TurnStarted | PhaseStarted):
            pending = {}
        elif isinstance(event, Fired):
            pending.setdefault((event.firer, event.target), []).append(index)
        elif isinstance(event, ProtectedHit):
            queue = pending.get((event.firer, event.vehicle))
            if queue:
                hits[queue.pop(0)] = event
        elif isinstance(event, DamageDrawn | DamageCardsTaken):
            queue = pending.get((event.source.split(" ")[0], event.vehicle))
            if queue:
                queue.pop(0)
    return hits


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


def _reach_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Each airplane's firing arcs (front, and rear for two-seaters) out to the ruler,
    with the half mark (the end of short range) as an arc line. Tripods have no arcs:
    for each heat-ray fired, the outline of the heat-ray ruler as it was laid."""
    rules = ctx.state.rules
    out: list[str] = _heat_ray_rulers(ctx, events)
    for vehicle in ctx.vehicles():
        if not vehicle.in_play:
            continue
        colour = ctx.colour(vehicle)
        for weapon, _letter in rules.weapons(vehicle.type):
            arc = rules.arc(weapon)
            wedge, _ = _wedge(ctx.frame, vehicle.pose, arc, rules.ruler)
            _, half = _wedge(ctx.frame, vehicle.pose, arc, rules.half)
            out.append(
                _group(
                    {"class": "arc", "data-vehicle": vehicle.id, "data-weapon": weapon},
                    [
                        _tag(
                            "path", {"class": "reach", "d": wedge, "fill": colour, "stroke": colour}
                        ),
                        _tag(
                            "path", {"class": "half", "d": half, "fill": "none", "stroke": colour}
                        ),
                    ],
                    f"{vehicle.id} {weapon} arc: ruler {_cm(rules.ruler)} cm, "
                    f"short range up to the half mark at {_cm(rules.half)} cm",
                )
            )
    return out


def _moves_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """For every move: the card laid at the start (faint), the path of the centre dot,
    the card id, and a ghost outline of the base where it started. A tripod's card
    applied backwards (after a reverse) is laid against the rear of its base."""
    f = ctx.frame
    out: list[str] = []
    for turn, phase, move, vehicle in ctx.moves(events):
        colour = ctx.colour(vehicle)
        area, path = _move_shapes(ctx, move, vehicle)
        laid = _laid(ctx, move, vehicle)
        tripod = vehicle.kind == "tripod"
        backward = tripod and move.backward
        # the card's far corner on the pilot's left: clear of the path and of the base
        nose = laid.pose.moved(laid.depth / 2.0, 0.0, 0.0)
        corner = nose.to_world(laid.length - 1.0, laid.width / 2.0 - 0.3)
        ahead, left = nose.forward(), (-nose.forward()[1], nose.forward()[0])
        ctx.labels.add(
            corner,
            f"card {move.card}" + (" backward" if backward else ""),
            size=SMALL_SIZE,
            nudges=((-1.2 * ahead[0], -1.2 * ahead[1]), (-1.2 * left[0], -1.2 * left[1])),
            tries=5,
            fill=colour,
        )
        if not tripod:
            about = f"{vehicle.id} flies card {move.card}"
        elif backward:
            about = (
                f"{vehicle.id} walks card {move.card} backward: after a reverse the card is "
                "laid against the rear of the base"
            )
        else:
            about = f"{vehicle.id} walks card {move.card}"
        attrs = {
            "class": "move",
            "data-vehicle": vehicle.id,
            "data-card": move.card,
            "data-backward": "true" if backward else None,
        }
        out.append(
            _group(
                attrs,
                [
                    _polygon(f, area, {"class": "card", "fill": colour, "stroke": CARD_EDGE}),
                    _polygon(
                        f, ctx.shape(vehicle, move.start), {"class": "start", "stroke": colour}
                    ),
                    _tag("polyline", {"class": "path", "points": f.points(path), "stroke": colour}),
                ],
                about + _when(turn, phase),
            )
        )
    return out


def _vehicles_layer(ctx: _Context) -> list[str]:
    """Bases: in play, filled in the side's colour with a nose marker, the firing dot and
    the id; eliminated, ghosted and crossed out where they were last, with the reason.
    Tripods get their hexagon with its protected sides and projectors, and a second label
    line with their Energy (and toppled, with the reminder tokens left)."""
    f = ctx.frame
    rules = ctx.state.rules
    half_l = rules.base_length / 2.0
    plane_radius = math.hypot(rules.base_length, rules.base_width) / 2.0
    vehicles = ctx.vehicles()
    for vehicle in vehicles:
        ctx.labels.block(ctx.shape(vehicle))
    out: list[str] = []
    for vehicle in vehicles:
        colour = ctx.colour(vehicle)
        pose = vehicle.pose
        base = ctx.shape(vehicle)
        tripod = vehicle.kind == "tripod"
        if tripod:
            about = _tripod_about(ctx, vehicle)
            radius = rules.hex_side + 0.7  # clear of the protected sides' teeth
        else:
            about = (
                f"{vehicle.id}: {rules.airplane(vehicle.type).name} ({vehicle.type}), side "
                f"{vehicle.side}, damage {vehicle.damage}/{vehicle.resistance}, at x "
                f"{_cm(pose.x)} y {_cm(pose.y)} heading {_cm(pose.heading)}"
            )
            radius = plane_radius
        reason = (vehicle.eliminated or "").replace("_", " ")
        text = f"{vehicle.id} ({reason})" if reason else vehicle.id
        # right of the base, unless that runs off the drawing (an airplane that left)
        label_at, anchor = (pose.x + radius + 0.4, pose.y), "start"
        if ctx.labels.outside(_text_box(label_at, text, TEXT_SIZE, anchor)) > 0.0:
            label_at, anchor = (pose.x - radius - 0.4, pose.y), "end"
        nudges = ((0.0, 1.4), (0.0, -1.4))
        if vehicle.in_play and tripod:
            children = _tripod_marks(ctx, vehicle, colour)
            spot = ctx.labels.add(label_at, text, anchor=anchor, nudges=nudges)
            ctx.labels.add(
                (spot[0], spot[1] - 1.3),
                _tripod_status(vehicle),
                size=SMALL_SIZE,
                anchor=anchor,
                nudges=((0.0, -1.0), (0.0, 1.0)),
                tries=3,
            )
        elif vehicle.in_play:
            nose = (
                pose.to_world(half_l - 0.3, 0.0),
                pose.to_world(half_l - 1.7, 1.0),
                pose.to_world(half_l - 1.7, -1.0),
            )
            children = [
                _polygon(f, base, {"class": "base", "fill": colour, "stroke": INK}),
                _polygon(f, nose, {"class": "nose", "fill": "#ffffff"}),
                _tag(
                    "circle",
                    {
                        "class": "dot",
                        "cx": f.x(pose.x),
                        "cy": f.y(pose.y),
                        "r": 0.35 * SCALE,
                        "fill": "#000000",
                        "stroke": "#ffffff",
                    },
                ),
            ]
            ctx.labels.add(label_at, text, anchor=anchor, nudges=nudges)
        else:
            about += f"; eliminated: {reason}"
            n = len(base) // 2
            cross = (
                f"M{f.point(base[0])} L{f.point(base[n])} "
                f"M{f.point(base[1])} L{f.point(base[n + 1])}"
            )
            children = [
                _polygon(f, base, {"class": "base eliminated", "fill": colour, "stroke": colour}),
                _tag("path", {"class": "cross", "d": cross, "stroke": colour}),
            ]
            ctx.labels.add(label_at, text, anchor=anchor, nudges=nudges, fill=colour)
        attrs = {"class": "vehicle", "data-vehicle": vehicle.id, "data-side": vehicle.side}
        out.append(_group(attrs, children, about))
    return out


def _arrowhead(tip: Point, direction: Point, length: float = 1.2, half: float = 0.5) -> Polygon:
    back = (tip[0] - direction[0] * length, tip[1] - direction[1] * length)
    side = (-direction[1] * half, direction[0] * half)
    return (tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1]))


def _shots_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Every shot as the ruler was laid: firing dot to the point reached, solid at short
    range and dashed at long range, labelled with the range, the distance and +1 when
    aimed (same target as in the previous phase); "armour" and a ring where it struck
    when it hit a tripod's electrified armour. Every heat-ray in red, as the edge of the
    heat-ray ruler that reached, or a short mark off the projector when none did.

    The firing dot is the event's ``origin``: where the firer stood at that firing step.
    """
    f = ctx.frame
    armour = _armour_hits(events)
    rays = {ray.index: ray for ray in _rays(ctx, events)}
    out: list[str] = []
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if index in rays:
            out.append(_heat_ray(ctx, rays[index]))
        if not isinstance(event, Fired) or event.firer not in ctx.state.vehicles:
            continue
        colour = ctx.colour(ctx.state.vehicles[event.firer])
        origin = (float(event.origin[0]), float(event.origin[1]))
        point = (float(event.point[0]), float(event.point[1]))
        children = [_line(f, origin, point, {"class": f"shot {event.range}", "stroke": colour})]
        direction = _unit(origin, point)
        if direction is not None:
            children.append(_polygon(f, _arrowhead(point, direction), {"fill": colour}))
        text = f"{event.range} {event.distance:.2f} cm" + (" +1" if event.aimed else "")
        hit = armour.get(index)
        if hit is not None:
            text += ", armour"
            ring: Attrs = {"class": "armour-hit", "cx": f.x(point[0]), "cy": f.y(point[1])}
            children.append(_tag("circle", {**ring, "r": 1.1 * SCALE, "stroke": ARMOUR}))
        ctx.beside(origin, point, 0.7, text, TEXT_SIZE, colour)
        cards = "card" if event.cards == 1 else "cards"
        attrs = {
            "class": "fired" if hit is None else "fired armour-shot",
            "data-firer": event.firer,
            "data-target": event.target,
            "data-weapon": event.weapon,
        }
        about = (
            f"{event.firer} {event.weapon} fires at {event.target}: {event.range} range, "
            f"{event.distance:.2f} cm, {event.cards} damage {cards}"
            + (", aimed +1" if event.aimed else "")
        )
        if hit is not None:
            about += (
                f"; hits the electrified armour: cards {', '.join(hit.cards)} revealed, "
                f"{hit.energy_lost} Energy lost, no damage"
            )
        out.append(_group(attrs, children, about + _when(turn, phase)))
    return out


def _heat_ray(ctx: _Context, ray: _Ray) -> str:
    """One heat-ray: the reaching edge of the ruler in red, solid at short range and
    dashed at long range, with its range and length; or, when it reached nothing, a
    short dotted mark off the projector's side."""
    f = ctx.frame
    e = ray.event
    attrs = {
        "class": "heat-ray",
        "data-firer": e.firer,
        "data-projector": e.projector,
        "data-target": e.target,
    }
    line = _ray_line(ray)
    if line is None:
        start = _polar(ray.middle, ray.normal, 0.4)
        end = _polar(ray.middle, ray.normal, 3.4)
        d = 0.5
        cross = (
            f"M{f.point((end[0] - d, end[1] - d))} L{f.point((end[0] + d, end[1] + d))} "
            f"M{f.point((end[0] - d, end[1] + d))} L{f.point((end[0] + d, end[1] - d))}"
        )
        children = [
            _line(f, start, end, {"class": "nothing", "stroke": RAY}),
            _tag("path", {"class": "cross", "d": cross, "stroke": RAY}),
        ]
        ctx.beside(ray.middle, end, 1.0, "heat-ray: nothing reached", SMALL_SIZE, RAY)
        about = f"{e.firer} fires its {e.projector} heat-ray projector and reaches nothing"
        return _group(attrs, children, about + _when(ray.turn, ray.phase))
    origin, point = line
    kind = e.range or "long"
    distance = e.distance if e.distance is not None else math.dist(origin, point)
    children = [_line(f, origin, point, {"class": f"ray {kind}", "stroke": RAY})]
    direction = _unit(origin, point)
    if direction is not None:
        children.append(_polygon(f, _arrowhead(point, direction), {"fill": RAY}))
    ctx.beside(origin, point, 0.6, f"heat-ray {kind} {distance:.1f} cm", TEXT_SIZE, RAY)
    tilt = e.tilt or 0.0
    how = "at a right angle" if abs(tilt) < 1e-9 else f"tilted {_cm(tilt)}°"
    about = (
        f"{e.firer} fires its {e.projector} heat-ray projector at {e.target}: {kind} range, "
        f"{distance:.2f} cm along the ruler's edge, ruler {how}"
    )
    return _group(attrs, children, about + _when(ray.turn, ray.phase))


def _blocked_layer(ctx: _Context) -> list[str]:
    """Enemies in arc and within the ruler that other bases hide completely, as dotted
    grey lines from the firing dot to the target's centre, naming the blockers."""
    f = ctx.frame
    state = ctx.state
    table = firing.table_of(state)
    out: list[str] = []
    for vehicle in ctx.vehicles():
        if not vehicle.in_play:
            continue
        for weapon, _letter in state.rules.weapons(vehicle.type):
            for target_id, blockers in firing.blocked_shots(state, table, vehicle, weapon):
                origin = vehicle.pose.point
                target = state.vehicles[target_id].pose.point
                text = ("blocked by " + ", ".join(blockers)) if blockers else "blocked"
                ctx.beside(origin, target, 0.5, text, SMALL_SIZE, BLOCKED_COLOUR)
                attrs = {
                    "class": "blocked-shot",
                    "data-firer": vehicle.id,
                    "data-target": target_id,
                    "data-weapon": weapon,
                }
                line = _line(f, origin, target, {"class": "blocked", "stroke": BLOCKED_COLOUR})
                about = f"{vehicle.id} {weapon} cannot fire at {target_id}: {text}"
                out.append(_group(attrs, [line], about))
    return out


# --- black smoke, rockets, special damage (Standard Rules) ------------------------------


def _placed_clouds(events: Sequence[Event]) -> dict[str, tuple[int, SmokeCloud]]:
    """Each cloud placed among ``events``: its id -> (index, the ``SmokeCloud`` event)."""
    return {e.cloud: (index, e) for index, e in enumerate(events) if isinstance(e, SmokeCloud)}


@dataclass(frozen=True, slots=True)
class _Dispersal:
    """A cloud dispersed: where it was (from its ``SmokeCloud`` event) and by whom."""

    placed: SmokeCloud
    vehicles: tuple[str, ...]
    turn: int
    phase: int


def _dispersals(events: Sequence[Event]) -> list[_Dispersal]:
    """The clouds dispersed among ``events`` whose placing is among them too (earlier),
    in the order they went; several vehicles on one cloud are listed together."""
    placed = _placed_clouds(events)
    found: dict[str, _Dispersal] = {}
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if not isinstance(event, CloudDispersed):
            continue
        where = placed.get(event.cloud)
        if where is None or where[0] > index:
            continue
        seen = found.get(event.cloud)
        if seen is None:
            found[event.cloud] = _Dispersal(where[1], (event.vehicle,), turn, phase)
        elif event.vehicle not in seen.vehicles:
            found[event.cloud] = _Dispersal(
                seen.placed, (*seen.vehicles, event.vehicle), seen.turn, seen.phase
            )
    return list(found.values())


def _cloud_discs(ctx: _Context, events: Sequence[Event]) -> list[tuple[float, float, float]]:
    """Every cloud drawn, on the table or dispersed: (x, y, radius)."""
    radius = ctx.state.rules.catalog.constants.tripods.smoke.cloud_radius
    discs = [(c.x, c.y, c.radius) for c in ctx.state.clouds]
    discs += [(d.placed.x, d.placed.y, radius) for d in _dispersals(events)]
    return discs


def _circle(f: _Frame, centre: Point, radius: float, attrs: Attrs) -> str:
    return _tag(
        "circle", {**attrs, "cx": f.x(centre[0]), "cy": f.y(centre[1]), "r": radius * SCALE}
    )


def _cross(f: _Frame, centre: Point, d: float) -> str:
    """Path data of an x of half-size ``d`` cm."""
    x, y = centre
    return (
        f"M{f.point((x - d, y - d))} L{f.point((x + d, y + d))} "
        f"M{f.point((x - d, y + d))} L{f.point((x + d, y - d))}"
    )


def _smoke_arc(f: _Frame, start: Point, normal: float, end: Point) -> str:
    """Path data of the arc-shaped ruler from ``start`` (the middle of the tripod's side,
    leaving it at a right angle, along ``normal`` degrees) to ``end`` (the stand): the
    circular arc tangent to the normal there. Bent to the left of the normal, the arc
    turns counter-clockwise on the table, which is sweep-flag 0 once y is flipped."""
    chord = math.dist(start, end)
    bend = (math.degrees(math.atan2(end[1] - start[1], end[0] - start[0])) - normal) % 360.0
    if bend > 180.0:
        bend -= 360.0
    if chord < 1e-9 or abs(math.sin(math.radians(bend))) < 1e-6:
        return f"M{f.point(start)} L{f.point(end)}"
    r = _num(chord / (2.0 * abs(math.sin(math.radians(bend)))) * SCALE)
    sweep = 0 if bend > 0 else 1
    return f"M{f.point(start)} A{r},{r} 0 0 {sweep} {f.point(end)}"


def _smoke_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """The Black Smoke clouds on the table, grey and translucent, with their id; the
    clouds dispersed in these events, dashed and crossed where they were, naming the
    vehicles that dispersed them; and for each cloud placed, the arc-shaped ruler from
    the projector's side to its stand, the stand marked inside the cloud."""
    f = ctx.frame
    out: list[str] = []
    for cloud in ctx.state.clouds:
        centre = (cloud.x, cloud.y)
        disc = _circle(f, centre, cloud.radius, {"class": "cloud", "fill": SMOKE, "stroke": SMOKE})
        ctx.labels.add(centre, cloud.id, size=SMALL_SIZE, nudges=((0.0, 1.2), (0.0, -1.2)), tries=2)
        about = (
            f"black smoke cloud {cloud.id} at x {_cm(cloud.x)} y {_cm(cloud.y)}, radius "
            f"{_cm(cloud.radius)} cm: a vehicle or a card overlapping it disperses it "
            "(airplanes draw a Z card)"
        )
        out.append(_group({"class": "smoke-cloud", "data-cloud": cloud.id}, [disc], about))
    radius = ctx.state.rules.catalog.constants.tripods.smoke.cloud_radius
    for gone in _dispersals(events):
        centre = (gone.placed.x, gone.placed.y)
        children = [
            _circle(
                f, centre, radius, {"class": "cloud dispersed", "fill": SMOKE, "stroke": SMOKE}
            ),
            _tag(
                "path",
                {
                    "class": "cross",
                    "d": _cross(f, centre, radius / math.sqrt(2.0)),
                    "stroke": SMOKE,
                },
            ),
        ]
        who = ", ".join(gone.vehicles)
        first = ctx.state.vehicles.get(gone.vehicles[0])
        ctx.labels.add(
            (centre[0], centre[1] - radius - 0.9),
            f"{gone.placed.cloud} dispersed by {who}",
            size=SMALL_SIZE,
            nudges=((0.0, -1.2), (0.0, 1.2)),
            fill=SMOKE if first is None else ctx.colour(first),
        )
        attrs = {
            "class": "smoke-cloud dispersed-cloud",
            "data-cloud": gone.placed.cloud,
            "data-dispersed-by": who,
        }
        about = f"black smoke cloud {gone.placed.cloud} dispersed by {who}" + _when(
            gone.turn, gone.phase
        )
        out.append(_group(attrs, children, about))
    hex_side = ctx.state.rules.hex_side
    for index, (turn, phase, event) in enumerate(_timed(events)):
        if not isinstance(event, SmokeCloud) or event.firer not in ctx.state.vehicles:
            continue
        pose = ctx.pose_at(events, index, event.firer)
        side = Side.parse(event.projector)
        middle = side_midpoint(pose, hex_side, side)
        stand = (float(event.stand[0]), float(event.stand[1]))
        children = [
            _tag(
                "path",
                {
                    "class": "smoke-ruler",
                    "d": _smoke_arc(f, middle, side_normal(pose, side), stand),
                    "stroke": SMOKE,
                },
            ),
            _circle(f, stand, 0.5, {"class": "stand", "fill": "#ffffff", "stroke": INK}),
            _circle(f, stand, 0.15, {"class": "stand-dot", "fill": INK}),
        ]
        ctx.beside(middle, stand, 0.45, f"black smoke → {event.cloud}", SMALL_SIZE, SMOKE)
        attrs = {
            "class": "black-smoke",
            "data-firer": event.firer,
            "data-projector": event.projector,
            "data-cloud": event.cloud,
        }
        about = (
            f"{event.firer} fires black smoke from its {event.projector} projector: the "
            f"arc-shaped ruler's stand at x {_cm(stand[0])} y {_cm(stand[1])}, cloud "
            f"{event.cloud} centred at x {_cm(event.x)} y {_cm(event.y)}"
        )
        out.append(_group(attrs, children, about + _when(turn, phase)))
    return out


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _rockets_layer(ctx: _Context, events: Sequence[Event]) -> list[str]:
    """Rockets launched (a double chevron off the firer's nose with the count and the
    target), rockets that hit (a dash-dot line from the firer where it stood then to the
    centre of the vehicle hit, with the D cards and, when a blocking airplane took them,
    the target they were meant for) and rockets that missed (dotted, with the reason)."""
    f = ctx.frame
    vehicles = ctx.state.vehicles
    nose = ctx.state.rules.base_length / 2.0
    armour = {id(hit) for hit in _armour_hits(events).values()}
    out: list[str] = []
    for index, (turn, phase, event) in enumerate(_timed(events)):
        when = _when(turn, phase)
        if isinstance(event, RocketsLaunched) and event.firer in vehicles:
            firer = vehicles[event.firer]
            colour = ctx.colour(firer)
            pose = ctx.pose_at(events, index, event.firer)
            marks = []
            for ahead in (nose + 1.4, nose + 2.5):
                tip = pose.to_world(ahead, 0.0)
                marks.append(
                    f"M{f.point(pose.to_world(ahead - 0.9, 0.8))} L{f.point(tip)} "
                    f"L{f.point(pose.to_world(ahead - 0.9, -0.8))}"
                )
            tip = pose.to_world(nose + 2.5, 0.0)
            text = f"{_plural(event.count, 'rocket')} → {event.target}"
            ctx.beside(pose.point, tip, 1.0, text, SMALL_SIZE, colour)
            path = _tag("path", {"class": "rocket-launch", "d": " ".join(marks), "stroke": colour})
            attrs = {
                "class": "rockets rockets-launched",
                "data-firer": event.firer,
                "data-target": event.target,
            }
            about = (
                f"{event.firer} launches {_plural(event.count, 'rocket')} at {event.target} "
                f"({event.left} left): they hit after its next maneuver if it is a stall or "
                "a straight and the target is still in its front arc"
            )
            out.append(_group(attrs, [path], about + when))
        elif isinstance(event, RocketsHit | RocketsMissed) and (
            event.firer in vehicles and event.target in vehicles
        ):
            colour = ctx.colour(vehicles[event.firer])
            origin = ctx.pose_at(events, index, event.firer).point
            point = ctx.pose_at(events, index, event.target).point
            if isinstance(event, RocketsHit):
                cards = _plural(event.count, f"{ROCKET_DECK} card")
                text = f"rockets hit ({cards})"
                about = f"{event.firer}'s rockets hit {event.target}: {cards}"
                if event.instead_of is not None:
                    text += f" instead of {event.instead_of}"
                    about += f", instead of {event.instead_of}, whose line of sight it blocks"
                if _rockets_on_armour(events, index, event, armour):
                    text += ", armour"
                    about += "; they strike the electrified armour"
                css, kind = "rocket-hit", "rockets-hit"
            else:
                text = f"rockets missed: {event.reason}"
                about = f"{event.firer}'s rockets miss {event.target}: {event.reason}"
                css, kind = "rocket-missed", "rockets-missed"
            ctx.beside(origin, point, 0.5, text, SMALL_SIZE, colour)
            group: Attrs = {
                "class": f"rockets {kind}",
                "data-firer": event.firer,
                "data-target": event.target,
                "data-instead-of": event.instead_of if isinstance(event, RocketsHit) else None,
            }
            # a white casing keeps the rockets' line readable over a gun shot's
            casing = _line(f, origin, point, {"class": "rocket-casing", "stroke": "#ffffff"})
            line = _line(f, origin, point, {"class": css, "stroke": colour})
            out.append(_group(group, [casing, line], about + when))
    return out


def _rockets_on_armour(
    events: Sequence[Event], index: int, hit: RocketsHit, shots: set[int]
) -> bool:
    """Whether the rockets of ``events[index]`` struck a tripod's electrified armour: a
    hit on the armour from the rocket deck later in the same phase, by that firer on that
    vehicle, that no gun shot accounts for."""
    for event in events[index + 1 :]:
        if isinstance(event, TurnStarted | PhaseStarted):
            return False
        if (
            isinstance(event, ProtectedHit)
            and id(event) not in shots
            and (event.firer, event.vehicle, event.deck) == (hit.firer, hit.target, ROCKET_DECK)
        ):
            return True
    return False


@dataclass(frozen=True, slots=True)
class _Tag:
    """A small tag next to a vehicle: announced special damage or a lasting status."""

    vehicle: Vehicle
    text: str
    about: str
    css: str


def _tags(ctx: _Context, events: Sequence[Event]) -> list[_Tag]:
    """Per vehicle (in id order): its lasting public status while in play (wounded pilot,
    smoke, fire), then the announced special damage it took in these events that the
    status does not already show. Secret specials and secret status (engine, rudders,
    gyroscope, reverse, smoke generator) are never shown: a player may see the drawing."""
    taken: dict[str, dict[str, list[tuple[int, int]]]] = {}
    for turn, phase, event in _timed(events):
        if isinstance(event, SpecialDamage) and event.announced:
            per = taken.setdefault(event.vehicle, {})
            per.setdefault(event.special, []).append((turn, phase))
    out: list[_Tag] = []
    for vehicle in ctx.vehicles():
        specials = dict(taken.get(vehicle.id, {}))
        if vehicle.in_play:
            for key, special in STATUS_SPECIALS.items():
                count = vehicle.status.get(key, 0)
                if count <= 0:
                    continue
                drawn = specials.pop(special, [])
                if key == "wounded":
                    text = "wounded pilot"
                    about = f"{vehicle.id}: wounded pilot (a second wound puts it out)"
                elif key == "smoke":
                    text = f"smoking ({_plural(count, 'counter')})"
                    about = f"{vehicle.id}: smoke trail, {_plural(count, 'smoke counter')} left"
                else:
                    text = f"on fire ({_plural(count, 'flame counter')})"
                    about = (
                        f"{vehicle.id}: on fire, {_plural(count, 'flame counter')} left (an "
                        "A card each turn)"
                    )
                if drawn:
                    about += "; drawn " + ", ".join(
                        _when(turn, phase).strip() for turn, phase in drawn
                    )
                out.append(_Tag(vehicle, text, about, "status"))
        for special, drawn in specials.items():
            name = SPECIAL_NAMES.get(special, special.replace("_", " "))
            text = name if len(drawn) == 1 else f"{name} x{len(drawn)}"
            about = f"{vehicle.id}: special damage {name}, announced" + ", ".join(
                _when(turn, phase) for turn, phase in drawn
            )
            out.append(_Tag(vehicle, text, about, "special"))
    return out


def _tags_layer(ctx: _Context, tags: Sequence[_Tag]) -> list[str]:
    """Each tag as a white pill with a dark red border under the vehicle's label."""
    f = ctx.frame
    rules = ctx.state.rules
    out: list[str] = []
    row: dict[str, int] = {}
    for tag in tags:
        vehicle = tag.vehicle
        pose = vehicle.pose
        if vehicle.kind == "tripod":
            radius = rules.hex_side + 0.7
        else:
            radius = math.hypot(rules.base_length, rules.base_width) / 2.0
        k = row.get(vehicle.id, 0) + 1
        row[vehicle.id] = k
        at, anchor = (pose.x + radius + 0.6, pose.y - 1.4 * k), "start"
        if ctx.labels.outside(_text_box(at, tag.text, SMALL_SIZE, anchor)) > 0.0:
            at, anchor = (pose.x - radius - 0.6, pose.y - 1.4 * k), "end"
        spot = ctx.labels.add(
            at,
            tag.text,
            size=SMALL_SIZE,
            anchor=anchor,
            nudges=((0.0, -1.3), (0.0, 1.3)),
            css="tag-text",
            fill=TAG,
        )
        # the label box is generous (it keeps labels apart); the pill hugs the text
        width = 0.56 * SMALL_SIZE * len(tag.text)
        left = {"start": spot[0], "end": spot[0] - width}[anchor]
        pill = _rect(
            f,
            (left - 0.35, spot[1] - SMALL_SIZE / 2.0 - 0.15),
            width + 0.7,
            SMALL_SIZE + 0.3,
            {"class": "tag", "rx": 0.5 * SCALE, "stroke": TAG},
        )
        attrs = {"class": f"tag-group {tag.css}", "data-vehicle": vehicle.id, "data-tag": tag.text}
        out.append(_group(attrs, [pill], tag.about))
    return out


# --- scenarios -----------------------------------------------------------------------------


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


# --- header ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Key:
    """One legend entry: a side's colour swatch, or a sample of a line style."""

    text: str
    colour: str
    css: str | None = None

    @property
    def width(self) -> float:
        return KEY_SAMPLE + 0.6 + 0.6 * SMALL_SIZE * len(self.text) + 1.6


def _legend_keys(ctx: _Context, events: Sequence[Event], tags: Sequence[_Tag] = ()) -> list[_Key]:
    """The sides and the line styles; the tripods' marks only when tripods are drawn,
    objectives only when there are some, and so on for the Standard Rules' and the
    scenario's marks (so that a drawing shows only the keys it needs)."""
    keys = [_Key(side, ctx.colours[side]) for side in sorted(ctx.colours)]
    keys += [
        _Key("short range", INK, "shot short"),
        _Key("long range", INK, "shot long"),
        _Key("+1: aimed", INK, "aimed"),
        _Key("completely blocked", BLOCKED_COLOUR, "blocked"),
        _Key("start of a move", INK, "start"),
    ]
    state = ctx.state
    if ctx.has_tripods():
        keys += [
            _Key("protected side", ARMOUR, "armour"),
            _Key("heat-ray projector", RAY, "projector"),
            _Key("heat-ray short", RAY, "ray short"),
            _Key("heat-ray long", RAY, "ray long"),
        ]
    if any(isinstance(e, ProtectedHit) for e in events):
        keys.append(_Key("shot on the armour", ARMOUR, "armour-hit"))
    if any(v.tripod is not None and v.tripod.toppled for v in state.vehicles.values()):
        keys.append(_Key("toppled", INK, "toppled"))
    if state.objectives:
        keys.append(_Key("objective", OBJECTIVE_COLOUR, "token"))
    if state.clouds or _dispersals(events):
        keys.append(_Key("black smoke cloud", SMOKE, "cloud"))
    if any(isinstance(e, SmokeCloud) for e in events):
        keys.append(_Key("black smoke ruler", SMOKE, "smoke-ruler"))
    if any(isinstance(e, RocketsHit) for e in events):
        keys.append(_Key("rockets hit", INK, "rocket-hit"))
    if any(isinstance(e, RocketsMissed) for e in events):
        keys.append(_Key("rockets missed", INK, "rocket-missed"))
    if tags:
        keys.append(_Key("announced damage", TAG, "tag"))
    scenario = state.scenario
    if scenario is not None and scenario.objectives is not None:
        keys.append(_Key("objective zone", OBJECTIVE_COLOUR, "objective-zone"))
    if scenario is not None and any(isinstance(e, Reinforcement) for e in events):
        keys.append(_Key("reinforcement enters", INK, "enters"))
    return keys


def _legend_rows(keys: Sequence[_Key], width: float) -> list[list[_Key]]:
    """Keys laid out left to right, wrapping at ``width`` cm."""
    rows: list[list[_Key]] = [[]]
    used = 0.0
    for key in keys:
        if rows[-1] and used + key.width > width:
            rows.append([])
            used = 0.0
        rows[-1].append(key)
        used += key.width
    return rows


def _legend(f: _Frame, rows: Sequence[Sequence[_Key]], y: float) -> list[str]:
    """The legend rows, the first centred on height ``y``."""
    out: list[str] = []
    for row in rows:
        x = 0.0
        for key in row:
            if key.css is None:
                out.append(
                    _rect(f, (x, y - 0.6), KEY_SAMPLE, 1.2, {"fill": key.colour, "stroke": INK})
                )
            elif key.css == "start":
                attrs = {"class": "start", "stroke": key.colour}
                out.append(_rect(f, (x + 0.3, y - 0.6), KEY_SAMPLE - 0.6, 1.2, attrs))
            elif key.css == "armour":
                teeth = f.points(_serrated((x, y + 0.3), (x + KEY_SAMPLE, y + 0.3)))
                out.append(
                    _tag("polyline", {"class": "armour-under", "points": teeth, "stroke": INK})
                )
                out.append(
                    _tag("polyline", {"class": "armour", "points": teeth, "stroke": key.colour})
                )
            elif key.css in ("projector", "armour-hit", "token"):
                radius = {"projector": 0.45, "armour-hit": 0.55, "token": 0.6}[key.css]
                fill = {"projector": key.colour, "armour-hit": "none", "token": "#ffffff"}[key.css]
                stroke = "#ffffff" if key.css == "projector" else key.colour
                centre = {"cx": f.x(x + KEY_SAMPLE / 2.0), "cy": f.y(y), "r": radius * SCALE}
                out.append(
                    _tag("circle", {"class": key.css, **centre, "fill": fill, "stroke": stroke})
                )
            elif key.css == "cloud":
                swatch: Attrs = {"class": "cloud", "fill": key.colour, "stroke": key.colour}
                out.append(_circle(f, (x + KEY_SAMPLE / 2.0, y), 0.7, swatch))
            elif key.css in ("tag", "enters"):
                sample = (x + 0.3, y - 0.6), KEY_SAMPLE - 0.6, 1.2
                box: Attrs = {"class": key.css, "stroke": key.colour}
                if key.css == "tag":
                    box = {**box, "rx": 0.5 * SCALE}
                out.append(_rect(f, *sample, box))
            elif key.css == "toppled":
                sample = (x + 0.3, y - 0.6), KEY_SAMPLE - 0.6, 1.2
                out.append(_rect(f, *sample, {"fill": "#ffffff", "stroke": INK}))
                out.append(_rect(f, *sample, {"class": "hatched", "fill": f"url(#{HATCH})"}))
            elif key.css != "aimed":
                attrs = {"class": key.css, "stroke": key.colour}
                out.append(_line(f, (x, y), (x + KEY_SAMPLE, y), attrs))
            out.append(_text(f, (x + KEY_SAMPLE + 0.6, y), key.text, SMALL_SIZE, "start", "legend"))
            x += key.width
        y -= LEGEND_ROW
    return out


def _caption(state: GameState) -> tuple[str, str]:
    """Two lines: the rules and measures in force, and where the game stands."""
    rules = state.rules
    first = (
        f"{rules.ruleset.title} [{rules.ruleset.name}] · table {_cm(rules.table_width)} x "
        f"{_cm(rules.table_height)} cm, grid {_cm(GRID)} cm · ruler {_cm(rules.ruler)} cm, "
        f"half mark {_cm(rules.half)} cm"
    )
    if state.phase == 0:
        second = f"turn {state.turn}, planning"
    else:
        second = f"turn {state.turn}, after phase {state.phase}"
    if state.over:
        second += " · game over: " + (f"{state.winner} won" if state.winner else "draw")
    return first, second


def _caption_more(state: GameState, events: Sequence[Event], width: float) -> list[str]:
    """Caption lines beyond the first two, wrapped to ``width`` cm: how a scenario was
    won, the reinforcements still to come, the rockets still in flight. None at all for
    a drawing that has none of these."""
    items: list[str] = []
    won = [e for e in events if isinstance(e, ScenarioWon)]
    if won:
        who = f"{won[-1].winner} win" if won[-1].winner else "no winner"
        items.append(f"{who}: {won[-1].condition}")
    if state.reserves:
        items.append(
            "reserves not yet entered: "
            + ", ".join(f"{v.id} ({v.side}, {v.type})" for _, v in sorted(state.reserves.items()))
        )
    if state.salvos:
        items.append(
            "rockets in flight: "
            + ", ".join(
                f"{s.firer} → {s.target} ({_plural(s.count, 'rocket')})" for s in state.salvos
            )
        )
    chars = max(20, int(width / (0.62 * TEXT_SIZE)))
    return [line for item in items for line in textwrap.wrap(item, chars)]


def _header(
    ctx: _Context,
    view: _View,
    title: str,
    rows: Sequence[Sequence[_Key]],
    more: Sequence[str] = (),
) -> list[str]:
    """Title, caption (two lines and ``more``) and legend above the table."""
    f = ctx.frame
    top = view.top
    first, second = _caption(ctx.state)
    extra = [
        _text(f, (0.0, top - 6.6 - CAPTION_ROW * (k + 1)), line, TEXT_SIZE, "start", "caption")
        for k, line in enumerate(more)
    ]
    return [
        _text(f, (0.0, top - 2.4), title, TITLE_SIZE, "start", "title"),
        _text(f, (0.0, top - 4.9), first, TEXT_SIZE, "start", "caption"),
        _text(f, (0.0, top - 6.6), second, TEXT_SIZE, "start", "caption"),
        *extra,
        *_legend(f, rows, top - 8.6 - CAPTION_ROW * len(more)),
    ]


# --- entry point -------------------------------------------------------------------------


def render_svg(
    state: GameState,
    events: Sequence[Event] = (),
    title: str = "",
    show_reach: bool = True,
) -> str:
    """The table as a standalone SVG document, to scale (1 cm = ``SCALE`` user units,
    width and height in mm so that it prints at the table's real size).

    ``state`` is drawn as it stands: bases, eliminated airplanes ghosted, the firing arcs
    (``show_reach``) and the shots other bases block completely, tripods with their
    protected sides and Energy, objective tokens. ``events`` add what led to it: the
    moves (card, path, start outline), the shots and heat-rays (with the heat-ray rulers
    under ``show_reach``).
    """
    rules = state.rules
    frame = _Frame(rules.table_height)
    scenario = state.scenario
    sides = state.sides()
    if scenario is not None:
        sides += [side.name for side in scenario.sides]
        sides += [v.side for v in state.reserves.values()]
    ctx = _Context(state, frame, side_colours(sides), _Labels(frame))
    tags = _tags(ctx, events)
    text_width = rules.table_width + MARGIN
    rows = _legend_rows(_legend_keys(ctx, events, tags), text_width)
    more = _caption_more(state, events, text_width)
    view = _view(ctx, events, len(rows), len(more))
    ctx.labels.bounds = (view.left, view.bottom, view.right, view.top - view.header)

    # Labels are placed in order of importance; the layers are stacked in drawing order.
    _objectives_block(ctx)
    vehicles = _vehicles_layer(ctx)
    tagged = _tags_layer(ctx, tags)
    shots = _shots_layer(ctx, events)
    rockets = _rockets_layer(ctx, events)
    blocked = _blocked_layer(ctx)
    moves = _moves_layer(ctx, events)
    smoke = _smoke_layer(ctx, events)
    objectives = _objectives_layer(ctx)
    zones = [] if scenario is None else _scenario_layer(ctx, scenario, events)
    reach = _reach_layer(ctx, events) if show_reach else []

    name = title or "dogfight"
    if scenario is not None:
        name = f"{scenario.title} · {title}" if title else scenario.title
    x0, y0 = frame.x(view.left), frame.y(view.top)
    width, height = (view.right - view.left) * SCALE, (view.top - view.bottom) * SCALE
    svg: Attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": f"{_num(width / SCALE * 10.0)}mm",
        "height": f"{_num(height / SCALE * 10.0)}mm",
        "viewBox": f"{_num(x0)} {_num(y0)} {_num(width)} {_num(height)}",
    }
    area = _rect(frame, (0.0, 0.0), rules.table_width, rules.table_height, {})
    clip = _tag("clipPath", {"id": "table-area"}, area)
    style, patterns = STYLE, ""
    if ctx.has_tripods() or state.objectives:
        style += "\n" + TRIPOD_STYLE
        hatch = _tag(
            "path",
            {"class": "hatch", "d": "M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6", "stroke": INK},
        )
        patterns = _tag(
            "pattern",
            {"id": HATCH, "patternUnits": "userSpaceOnUse", "width": 8, "height": 8},
            hatch,
        )
    if smoke or rockets or tagged:
        style += "\n" + STANDARD_STYLE
    if zones:
        style += "\n" + SCENARIO_STYLE
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        _open("svg", svg),
        f"<title>{escape(name)}</title>",
        f"<defs><style>{escape(style)}</style>{clip}{patterns}</defs>",
        _tag("rect", {"x": x0, "y": y0, "width": width, "height": height, "fill": "#ffffff"}),
    ]
    layers = (
        ("table", _table_layer(ctx), None),
        ("scenario", zones, None),
        ("objectives", objectives, None),
        ("smoke", smoke, None),
        ("reach", reach, "url(#table-area)"),
        ("moves", moves, None),
        ("blocked", blocked, None),
        ("shots", shots, None),
        ("rockets", rockets, None),
        ("vehicles", vehicles, None),
        ("tags", tagged, None),
        ("labels", ctx.labels.texts, None),
        ("header", _header(ctx, view, name, rows, more), None),
    )
    for layer, children, clip_path in layers:
        if children:
            lines.append(_open("g", {"id": layer, "clip-path": clip_path}))
            lines.extend(children)
            lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"

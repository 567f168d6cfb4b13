"""Draw a game state to scale as a standalone SVG document.

The drawing is for checking rulings by eye: every base where the engine put it, the
cards and paths that brought it there, every shot as the ruler was laid (from the firing
dot to the nearest point of the target's base it could reach), the firing arcs out to the
ruler with the half mark, and the shots other bases blocked completely.

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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from dogfight.geometry.maneuver import card_area, card_path
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.reach import Arc
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.rules import firing
from dogfight.rules.events import Event, Fired, Moved, PhaseStarted, TurnStarted
from dogfight.rules.state import GameState, Vehicle

SCALE = 10.0
"""SVG user units per cm; the document's width and height are given in mm, so printed at
100 % the drawing is the size of the real table."""
MARGIN = 6.0
"""cm of paper left, right and below the table (grid labels live there)."""
HEADER = 10.0
"""cm above the table for the title, the caption and one row of legend."""
LEGEND_ROW = 1.8
"""cm added to the header for each further row of legend."""
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
    ) -> None:
        """Add a label centred vertically on ``at``; when that spot is taken, try 1, 2, ...
        ``tries`` steps along each of ``nudges`` in turn (nearest first) and keep the
        first free spot, else the one overlapping least (going off the drawing counts a
        hundredfold)."""
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
        return rectangle(pose, self.state.rules.base_length, self.state.rules.base_width)

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


def _move_shapes(ctx: _Context, move: Moved, vehicle: Vehicle) -> tuple[Polygon, list[Point]]:
    """The card rectangle and the centre dot's path of a move, laid at its start pose."""
    rules = ctx.state.rules
    deck = rules.deck_of(vehicle.type)
    card = deck.card(move.card)
    area = card_area(move.start, card, rules.base_length, deck.card_length, deck.card_width)
    return area, card_path(move.start, card, rules.base_length)


def _view(ctx: _Context, events: Sequence[Event], legend_rows: int) -> _View:
    """The table with its margins and header, grown in whole cm (keeping ``PAD`` clear)
    to hold whatever is drawn beyond them: an airplane that left the area, the card that
    took it there. Grid lines and labels stay where they are."""
    rules = ctx.state.rules
    width, height = rules.table_width, rules.table_height
    points: list[Point] = []
    for vehicle in ctx.state.vehicles.values():
        points.extend(ctx.base(vehicle.pose))
    for _turn, _phase, move, vehicle in ctx.moves(events):
        points.extend(ctx.base(move.start))
        points.extend(_move_shapes(ctx, move, vehicle)[0])
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    header = HEADER + LEGEND_ROW * max(0, legend_rows - 1)
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


def _reach_layer(ctx: _Context) -> list[str]:
    """Each airplane's firing arcs (front, and rear for two-seaters) out to the ruler,
    with the half mark (the end of short range) as an arc line."""
    rules = ctx.state.rules
    out: list[str] = []
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
    the card id, and a ghost outline of the base where it started."""
    f = ctx.frame
    rules = ctx.state.rules
    out: list[str] = []
    for turn, phase, move, vehicle in ctx.moves(events):
        colour = ctx.colour(vehicle)
        area, path = _move_shapes(ctx, move, vehicle)
        deck = rules.deck_of(vehicle.type)
        length = deck.card(move.card).length or deck.card_length
        # the card's far corner on the pilot's left: clear of the path and of the base
        nose = move.start.moved(rules.base_length / 2.0, 0.0, 0.0)
        corner = nose.to_world(length - 1.0, deck.card_width / 2.0 - 0.3)
        ahead, left = nose.forward(), (-nose.forward()[1], nose.forward()[0])
        ctx.labels.add(
            corner,
            f"card {move.card}",
            size=SMALL_SIZE,
            nudges=((-1.2 * ahead[0], -1.2 * ahead[1]), (-1.2 * left[0], -1.2 * left[1])),
            tries=5,
            fill=colour,
        )
        out.append(
            _group(
                {"class": "move", "data-vehicle": vehicle.id, "data-card": move.card},
                [
                    _polygon(f, area, {"class": "card", "fill": colour, "stroke": CARD_EDGE}),
                    _polygon(f, ctx.base(move.start), {"class": "start", "stroke": colour}),
                    _tag("polyline", {"class": "path", "points": f.points(path), "stroke": colour}),
                ],
                f"{vehicle.id} flies card {move.card}{_when(turn, phase)}",
            )
        )
    return out


def _vehicles_layer(ctx: _Context) -> list[str]:
    """Bases: in play, filled in the side's colour with a nose marker, the firing dot and
    the id; eliminated, ghosted and crossed out where they were last, with the reason."""
    f = ctx.frame
    rules = ctx.state.rules
    half_l = rules.base_length / 2.0
    radius = math.hypot(rules.base_length, rules.base_width) / 2.0
    vehicles = ctx.vehicles()
    for vehicle in vehicles:
        ctx.labels.block(ctx.base(vehicle.pose))
    out: list[str] = []
    for vehicle in vehicles:
        colour = ctx.colour(vehicle)
        pose = vehicle.pose
        base = ctx.base(pose)
        about = (
            f"{vehicle.id}: {rules.airplane(vehicle.type).name} ({vehicle.type}), side "
            f"{vehicle.side}, damage {vehicle.damage}/{vehicle.resistance}, at x {_cm(pose.x)} "
            f"y {_cm(pose.y)} heading {_cm(pose.heading)}"
        )
        reason = (vehicle.eliminated or "").replace("_", " ")
        text = f"{vehicle.id} ({reason})" if reason else vehicle.id
        # right of the base, unless that runs off the drawing (an airplane that left)
        label_at, anchor = (pose.x + radius + 0.4, pose.y), "start"
        if ctx.labels.outside(_text_box(label_at, text, TEXT_SIZE, anchor)) > 0.0:
            label_at, anchor = (pose.x - radius - 0.4, pose.y), "end"
        nudges = ((0.0, 1.4), (0.0, -1.4))
        if vehicle.in_play:
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
            cross = (
                f"M{f.point(base[0])} L{f.point(base[2])} M{f.point(base[1])} L{f.point(base[3])}"
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
    aimed (same target as in the previous phase).

    The firing dot is the event's ``origin``: where the firer stood at that firing step.
    """
    f = ctx.frame
    out: list[str] = []
    for turn, phase, event in _timed(events):
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
        ctx.beside(origin, point, 0.7, text, TEXT_SIZE, colour)
        cards = "card" if event.cards == 1 else "cards"
        attrs = {
            "class": "fired",
            "data-firer": event.firer,
            "data-target": event.target,
            "data-weapon": event.weapon,
        }
        about = (
            f"{event.firer} {event.weapon} fires at {event.target}: {event.range} range, "
            f"{event.distance:.2f} cm, {event.cards} damage {cards}"
            + (", aimed +1" if event.aimed else "")
            + _when(turn, phase)
        )
        out.append(_group(attrs, children, about))
    return out


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


def _legend_keys(ctx: _Context) -> list[_Key]:
    keys = [_Key(side, ctx.colours[side]) for side in sorted(ctx.colours)]
    return [
        *keys,
        _Key("short range", INK, "shot short"),
        _Key("long range", INK, "shot long"),
        _Key("+1: aimed", INK, "aimed"),
        _Key("completely blocked", BLOCKED_COLOUR, "blocked"),
        _Key("start of a move", INK, "start"),
    ]


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


def _header(ctx: _Context, view: _View, title: str, rows: Sequence[Sequence[_Key]]) -> list[str]:
    """Title, caption and legend above the table."""
    f = ctx.frame
    top = view.top
    first, second = _caption(ctx.state)
    return [
        _text(f, (0.0, top - 2.4), title, TITLE_SIZE, "start", "title"),
        _text(f, (0.0, top - 4.9), first, TEXT_SIZE, "start", "caption"),
        _text(f, (0.0, top - 6.6), second, TEXT_SIZE, "start", "caption"),
        *_legend(f, rows, top - 8.6),
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
    (``show_reach``) and the shots other bases block completely. ``events`` add what led
    to it: the moves (card, path, start outline) and the shots.
    """
    rules = state.rules
    frame = _Frame(rules.table_height)
    ctx = _Context(state, frame, side_colours(state.sides()), _Labels(frame))
    rows = _legend_rows(_legend_keys(ctx), rules.table_width + MARGIN)
    view = _view(ctx, events, len(rows))
    ctx.labels.bounds = (view.left, view.bottom, view.right, view.top - view.header)

    # Labels are placed in order of importance; the layers are stacked in drawing order.
    vehicles = _vehicles_layer(ctx)
    shots = _shots_layer(ctx, events)
    blocked = _blocked_layer(ctx)
    moves = _moves_layer(ctx, events)
    reach = _reach_layer(ctx) if show_reach else []

    name = title or "dogfight"
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
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        _open("svg", svg),
        f"<title>{escape(name)}</title>",
        f"<defs><style>{escape(STYLE)}</style>{clip}</defs>",
        _tag("rect", {"x": x0, "y": y0, "width": width, "height": height, "fill": "#ffffff"}),
    ]
    layers = (
        ("table", _table_layer(ctx), None),
        ("reach", reach, "url(#table-area)"),
        ("moves", moves, None),
        ("blocked", blocked, None),
        ("shots", shots, None),
        ("vehicles", vehicles, None),
        ("labels", ctx.labels.texts, None),
        ("header", _header(ctx, view, name, rows), None),
    )
    for layer, children, clip_path in layers:
        if children:
            lines.append(_open("g", {"id": layer, "clip-path": clip_path}))
            lines.extend(children)
            lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"

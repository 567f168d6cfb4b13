"""The map of a Sopwith turn as SVG and PNG.

Both pictures are drawn from one :class:`Scene` (hex polygons, lines and texts in page
coordinates, y down), so they always show the same thing: the board with its hex labels,
the airfields and their strips, the clouds, each plane's path over the turn move by move,
every burst fired (solid to the planes it hit, dashed when it hit nothing or stopped at a
cloud) and the planes where they ended, each an arrow with its letter.

:func:`render_svg` writes the SVG text with fixed decimals; the PNG is drawn from the same
scene by :mod:`dogfight.sopwith.raster`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from xml.sax.saxutils import escape

from dogfight.sopwith import events as ev
from dogfight.sopwith.board import Board
from dogfight.sopwith.game import GameState, Status, line_of_fire
from dogfight.sopwith.hexes import Hex, centre_xy, corners_xy, label, on_board
from dogfight.sopwith.report import who

SIZE = 18.0
"""Circumradius of a hex, in page units (SVG px)."""
LABEL_SIZE = 8.0
"""Font size of the hex labels, in page units: "J10" fits the bottom of its hex."""
PNG_SCALE = 1.5
"""PNG pixels per page unit. The PNG is what a Games Master attaches to an e-mail and
players look at as sent, pixel for pixel: at this scale a hex label is drawn 12 px high
(its digits about 9 px), the smallest size the usual guidance for screen text reads
comfortably, and the whole map stays about 1200 px wide, within a laptop's window."""
MIN_LABEL_PX = 12.0
"""The smallest font size (px) a hex label may have in the PNG (see :data:`PNG_SCALE`)."""
GROUND_SLOTS = 4
"""Planes on the ground drawn at one airfield (two rows of two); more are counted."""
MARGIN = 24.0
TITLE = 34.0
LEGEND_WIDTH = 230.0
CHAR_WIDTH = 0.62
"""A character's width as a share of the font size, a little over DejaVu Sans' widest
usual text (the legend's lines are measured with it)."""

PALETTE = (
    "#0072b2",
    "#d55e00",
    "#009e73",
    "#6a3d9a",
    "#e69f00",
    "#56b4e9",
    "#cc79a7",
    "#8c6d1f",
    "#b2182b",
    "#2166ac",
)
"""Plane colours, most distinct first (Okabe-Ito, then more)."""

INK = "#222222"
FAINT = "#9a9a9a"
LABEL = "#666666"
"""Hex labels: 5:1 contrast on :data:`PAPER` (WCAG AA asks 4.5:1 of small text)."""
PAPER = "#fbf8ef"
HEX_EDGE = "#cfc6ad"
AIRFIELD = "#a47148"
STRIP = "#e3c79f"
CLOUD = "#d3dbe3"
CLOUD_EDGE = "#8796a5"
MISS = "#7a7a7a"


@dataclass(frozen=True, slots=True)
class Shape:
    points: tuple[tuple[float, float], ...]
    fill: str
    stroke: str
    width: float
    kind: str
    closed: bool = True
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    fill: str
    kind: str
    anchor: str = "middle"
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Frame:
    """Where a board of ``side`` hexes a side is drawn on the page."""

    side: int

    @property
    def origin(self) -> tuple[float, float]:
        n = self.side - 1
        return MARGIN + SIZE * (1.5 * n + 1), MARGIN + TITLE + SIZE * math.sqrt(3.0) * (n + 0.5)

    @property
    def board_size(self) -> tuple[float, float]:
        n = self.side - 1
        return SIZE * (3 * n + 2), SIZE * math.sqrt(3.0) * (2 * n + 1)

    @property
    def page(self) -> tuple[float, float]:
        w, h = self.board_size
        return 2 * MARGIN + w + LEGEND_WIDTH, 2 * MARGIN + TITLE + h

    def at(self, h: Hex) -> tuple[float, float]:
        ox, oy = self.origin
        x, y = centre_xy(h, SIZE)
        return round(ox + x, 2), round(oy + y, 2)

    def hexagon(self, h: Hex, shrink: float = 1.0) -> tuple[tuple[float, float], ...]:
        ox, oy = self.origin
        cx, cy = centre_xy(h, SIZE)
        return tuple(
            (round(ox + cx + (x - cx) * shrink, 2), round(oy + cy + (y - cy) * shrink, 2))
            for x, y in corners_xy(h, SIZE)
        )


@dataclass(slots=True)
class Scene:
    """A picture: the board layer (the same for every turn of a game) and the turn's."""

    frame: Frame
    board_shapes: tuple[Shape, ...]
    board_texts: tuple[Text, ...]
    shapes: list[Shape] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    legend_right: float = 0.0
    """Where the legend's longest line ends (page units, estimated): the page widens to
    hold it (long names and pilots, "on the ground at ...", issue 29 item 11)."""

    @property
    def width(self) -> float:
        return max(self.frame.page[0], self.legend_right + MARGIN)

    @property
    def height(self) -> float:
        return self.frame.page[1]


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


@lru_cache(maxsize=8)
def board_layer(side: int) -> tuple[tuple[Shape, ...], tuple[Text, ...]]:
    """The board itself: hexes with their labels, the airfields and their strips."""
    frame = Frame(side)
    board = Board(side)
    fill: dict[Hex, tuple[str, str]] = {}
    for field_ in board.airfields.values():
        fill[field_.corner] = (AIRFIELD, "airfield")
        for strip in field_.strips:
            for h in strip.hexes:
                fill[h] = (STRIP, "strip")
    shapes = []
    for h in board.hexes:
        colour_, kind = fill.get(h, (PAPER, "hex"))
        shapes.append(Shape(frame.hexagon(h), colour_, HEX_EDGE, 1.0, kind))
    texts = []
    for h in board.hexes:
        x, y = frame.at(h)
        # on an airfield's dark hex the grey label could not be read: white there
        ink = "#ffffff" if fill.get(h, ("", ""))[1] == "airfield" else LABEL
        texts.append(Text(x, y + SIZE * 0.75, label(h, side), LABEL_SIZE, ink, "label"))
    for name, field_ in board.airfields.items():
        x, y = frame.at(field_.corner)
        texts.append(Text(x, y + 3, name, 9, "#ffffff", "airfield", bold=True))
        for strip in field_.strips:
            x, y = frame.at(strip.hexes[0])
            # at the top of the hex, above where a plane taking off is drawn
            texts.append(Text(x, y - 8.3, strip.strip.value[0], 8, AIRFIELD, "strip", bold=True))
    return tuple(shapes), tuple(texts)


def scene(
    game: str, after: GameState, events: Sequence[ev.Event], caption: str | None = None
) -> Scene:
    """Everything to draw for the state ``after`` a turn whose events are ``events``
    (none for the start of a game)."""
    side = after.ruleset.board_side
    frame = Frame(side)
    at = frame.at
    out = Scene(frame, *board_layer(side))
    out.texts.append(
        Text(MARGIN, MARGIN + 16, caption or f"Sopwith: {game}", 16, INK, "title", "start", True)
    )
    for cloud in after.clouds:
        for h in cloud.hexes:
            out.shapes.append(Shape(frame.hexagon(h), CLOUD, HEX_EDGE, 1.0, "cloud"))
            out.shapes.append(Shape(frame.hexagon(h, 0.8), CLOUD, CLOUD_EDGE, 1.0, "cloud-edge"))
    index = {p.name: i for i, p in enumerate(after.planes)}
    paths: dict[str, list[tuple[float, float]]] = {}
    for e in events:
        if isinstance(e, ev.Moved):
            path = paths.setdefault(e.plane, [at(e.start)])
            if on_board(e.end, side):
                path.append(at(e.end))
    for name, path in paths.items():
        if len(path) > 1:
            out.shapes.append(
                Shape(tuple(path), "none", colour(index[name]), 2.0, "path", closed=False)
            )
    pose: dict[tuple[str, int], tuple[Hex, int]] = {}
    for e in events:
        if isinstance(e, ev.Moved):
            pose[(e.plane, e.move)] = (e.end, e.facing)
    for e in events:
        if not isinstance(e, ev.Fired) or (e.plane, e.move) not in pose:
            continue
        start, facing = pose[(e.plane, e.move)]
        x0, y0 = at(start)
        if e.hits:
            for hit in e.hits:
                if (hit.target, e.move) in pose:
                    end = at(pose[(hit.target, e.move)][0])
                    out.shapes.append(
                        Shape(((x0, y0), end), "none", "#d62728", 2.2, "hit", closed=False)
                    )
        else:
            reach = line_of_fire(start, facing, e.line, after.ruleset.range)
            last = [h for h in reach if on_board(h, side)]
            if e.blocked is not None:
                last = last[: last.index(e.blocked) + 1] if e.blocked in last else last
            if last:
                out.shapes.append(
                    Shape(((x0, y0), at(last[-1])), "none", MISS, 1.2, "miss", False, dashed=True)
                )
    flying = [i for i, p in enumerate(after.planes) if p.status is Status.FLYING]
    for i, (points, (lx, ly), size) in zip(flying, _plane_marks(frame, after, flying), strict=True):
        out.shapes.append(Shape(points, colour(i), INK, 1.0, "plane"))
        letter = after.planes[i].letter
        out.texts.append(Text(lx, ly, letter, size, "#ffffff", "plane-letter", bold=True))
    for i, p in enumerate(after.planes):
        if p.status in (Status.SHOT_DOWN, Status.CRASHED) and p.name in paths:
            x, y = at(p.hex)
            d = 5.5  # within PLANE_BAND with its stroke: the hex's labels stay clear
            out.shapes.append(
                Shape(((x - d, y - d), (x + d, y + d)), "none", colour(i), 3.0, "down", False)
            )
            out.shapes.append(
                Shape(((x - d, y + d), (x + d, y - d)), "none", colour(i), 3.0, "down", False)
            )
    _ground(out, after)
    lx = 2 * MARGIN + frame.board_size[0]
    ly = MARGIN + TITLE + 10
    for i, p in enumerate(after.planes):
        y = ly + 18 * i
        out.shapes.append(
            Shape(
                ((lx, y - 9), (lx + 12, y - 9), (lx + 12, y + 3), (lx, y + 3)),
                colour(i),
                INK,
                0.8,
                "key",
            )
        )
        state = f" ({p.status.value})" if not p.in_game else ""
        if p.status is Status.GROUND:
            state = f" (on the ground at {p.airfield})"
        text = f"{p.letter} {who(p)}{state}"
        out.texts.append(Text(lx + 18, y + 1, text, 10, INK, "key-text", "start"))
        out.legend_right = max(out.legend_right, lx + 18 + CHAR_WIDTH * 10 * len(text))
    return out


PLANE_BAND = (-7.0, 7.0)
"""Where a flying plane's arrow is drawn in its hex (page units from the hex's centre,
y down): between a strip's letter at the top of the hex and the hex label at its
bottom, so that the plane covers neither (issue 29 item 11)."""


def _plane_marks(
    frame: Frame, after: GameState, flying: Sequence[int]
) -> list[tuple[tuple[tuple[float, float], ...], tuple[float, float], float]]:
    """Each flying plane's arrow (pointing its facing), the baseline point of its letter
    and the letter's size: one plane in a hex fills :data:`PLANE_BAND`; planes sharing a
    hex (004 allows it) are drawn smaller, side by side, so that neither covers the other
    nor the hex's labels."""
    sharing: dict[Hex, list[int]] = {}
    for i in flying:
        sharing.setdefault(after.planes[i].hex, []).append(i)
    top, bottom = PLANE_BAND
    marks = []
    for i in flying:
        p = after.planes[i]
        group = sharing[p.hex]
        k = len(group)
        r = (bottom - top) / 1.6 if k == 1 else min(6.0, 30.0 / (2.1 * k))
        x, y = frame.at(p.hex)
        x += (group.index(i) - (k - 1) / 2) * 2.1 * r
        a = math.radians(60 * p.facing)
        dx, dy = math.sin(a), -math.cos(a)
        px, py = -dy, dx
        corners = (
            (dx * r, dy * r),
            (-dx * r * 0.6 + px * r * 0.6, -dy * r * 0.6 + py * r * 0.6),
            (-dx * r * 0.6 - px * r * 0.6, -dy * r * 0.6 - py * r * 0.6),
        )
        # the arrow's height centred in the band
        shift = (top + bottom) / 2 - (min(c[1] for c in corners) + max(c[1] for c in corners)) / 2
        points = tuple((round(x + cx, 2), round(y + cy + shift, 2)) for cx, cy in corners)
        size = 8.0 if k == 1 else 6.0
        middle = sum(pt[0] for pt in points) / 3, sum(pt[1] for pt in points) / 3
        marks.append((points, (round(middle[0], 2), round(middle[1] + size * 0.36, 2)), size))
    return marks


def _ground(out: Scene, after: GameState) -> None:
    """Planes on the ground, each a small square of its colour with its letter on its
    airfield's hex: two above the airfield's name and one either side of it (the hex's
    label below stays clear); a fifth and more are counted ("+2") in the last place (the
    legend names them all)."""
    frame = out.frame
    by_field: dict[str, list[int]] = {}
    for i, p in enumerate(after.planes):
        if p.status is Status.GROUND:
            by_field.setdefault(p.airfield, []).append(i)
    half = 4.5
    slots = ((-5.0, -9.5), (5.0, -9.5), (-14.0, 0.0), (14.0, 0.0))
    for indexes in by_field.values():
        x, y = frame.at(after.planes[indexes[0]].hex)
        shown = indexes if len(indexes) <= GROUND_SLOTS else indexes[: GROUND_SLOTS - 1]
        for (dx, dy), i in zip(slots, shown, strict=False):
            out.shapes.append(
                Shape(_square(x + dx, y + dy, half), colour(i), "#ffffff", 1.0, "ground")
            )
            letter = after.planes[i].letter
            out.texts.append(
                Text(x + dx, y + dy + 2.7, letter, 7.5, "#ffffff", "ground-letter", bold=True)
            )
        if len(indexes) > GROUND_SLOTS:
            dx, dy = slots[-1]
            more = f"+{len(indexes) - len(shown)}"
            out.shapes.append(
                Shape(_square(x + dx, y + dy, half), INK, "#ffffff", 1.0, "ground-more")
            )
            out.texts.append(
                Text(x + dx, y + dy + 2.5, more, 6.0, "#ffffff", "ground-more", bold=True)
            )


def _square(cx: float, cy: float, half: float) -> tuple[tuple[float, float], ...]:
    return (
        (cx - half, cy - half),
        (cx + half, cy - half),
        (cx + half, cy + half),
        (cx - half, cy + half),
    )


def _num(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def render_svg(s: Scene) -> str:
    """The scene as a standalone SVG document."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(s.width)}" '
        f'height="{_num(s.height)}" viewBox="0 0 {_num(s.width)} {_num(s.height)}">',
        "<style>text { font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; }</style>",
        f'<rect width="{_num(s.width)}" height="{_num(s.height)}" fill="#ffffff"/>',
    ]
    side = s.frame.side
    if (s.board_shapes, s.board_texts) == board_layer(side):  # the same tuples: `is`
        board_shapes, board_texts = _board_svg(side)
    else:
        board_shapes = tuple(_svg_shape(sh) for sh in s.board_shapes)
        board_texts = tuple(_svg_text(t) for t in s.board_texts)
    out.extend(board_shapes)
    out.extend(_svg_shape(sh) for sh in s.shapes)
    out.extend(board_texts)
    out.extend(_svg_text(t) for t in s.texts)
    out.append("</svg>")
    return "\n".join(out) + "\n"


@lru_cache(maxsize=8)
def _board_svg(side: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The SVG elements of the board layer, written once per board size (every turn
    draws the same board)."""
    shapes, texts = board_layer(side)
    return tuple(_svg_shape(sh) for sh in shapes), tuple(_svg_text(t) for t in texts)


def _svg_shape(sh: Shape) -> str:
    pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in sh.points)
    tag = "polygon" if sh.closed else "polyline"
    dash = ' stroke-dasharray="4 3"' if sh.dashed else ""
    return (
        f'<{tag} class="{sh.kind}" points="{pts}" fill="{sh.fill}" stroke="{sh.stroke}" '
        f'stroke-width="{_num(sh.width)}"{dash}/>'
    )


def _svg_text(t: Text) -> str:
    weight = ' font-weight="bold"' if t.bold else ""
    return (
        f'<text class="{t.kind}" x="{_num(t.x)}" y="{_num(t.y)}" font-size="{_num(t.size)}" '
        f'fill="{t.fill}" text-anchor="{t.anchor}"{weight}>{escape(t.text)}</text>'
    )

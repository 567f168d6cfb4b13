"""The map of a Sopwith turn as a PNG, drawn from the same :class:`~maps.Scene` as the SVG.

Three layers, painted in the SVG's order: the board (hexes, airfields and their 271
labels: the same every turn, so drawn once per board size and kept), the turn's shapes
(paths, bursts, planes, the legend's keys) antialiased by matplotlib's Agg canvas on a
transparent figure (no global pyplot state), and every text set by Pillow's FreeType
renderer in DejaVu Sans, the font the SVG names. Setting text as glyphs in Pillow takes
a few microseconds a label where matplotlib's text paths took most of a map's time.

The PNG is written without metadata and without per-row filters, so the same scene gives
the same bytes; see :func:`encode_png` for why the encoder is ours and not Pillow's.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from dogfight.sopwith.maps import PNG_SCALE, Frame, Scene, Shape, Text, board_layer

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from PIL import Image, ImageFont

ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
"""SVG text-anchor → Pillow anchor; the text's y is its baseline in both."""
_DPI = 100


def png_size(s: Scene, scale: float = PNG_SCALE) -> tuple[int, int]:
    """The PNG's width and height in pixels."""
    return int(s.width * scale), int(s.height * scale)  # as matplotlib sizes its canvas


def render_png(s: Scene, scale: float = PNG_SCALE) -> bytes:
    """The scene as PNG bytes, ``scale`` pixels to the page unit (:data:`PNG_SCALE`:
    the hex labels legible as sent)."""
    from PIL import Image

    board = _board_image(s.frame.side, scale)
    turn = Image.fromarray(_shapes_rgba(s.shapes, s.frame.page, scale, clear=True), "RGBA")
    picture = Image.alpha_composite(board, turn)
    _set_texts(picture, s.texts, scale)
    return encode_png(picture.convert("RGB").tobytes(), picture.size)


@lru_cache(maxsize=4)
def _board_image(side: int, scale: float) -> Image.Image:
    """The board layer of a board of ``side`` hexes a side, drawn once and kept (it is
    the same every turn; callers paint on copies: :func:`Image.alpha_composite` makes
    one)."""
    from PIL import Image

    page = Frame(side).page
    shapes, texts = board_layer(side)
    image = Image.fromarray(_shapes_rgba(shapes, page, scale, clear=False), "RGBA")
    _set_texts(image, texts, scale)
    return image


def _shapes_rgba(
    shapes: Sequence[Shape], page: tuple[float, float], scale: float, *, clear: bool
) -> npt.NDArray[np.uint8]:
    """``shapes`` drawn by Agg on a page of ``page`` units, as an RGBA array (a clear
    background for a layer, the paper white for the bottom one)."""
    fig = _figure(page, scale)
    if clear:
        fig.patch.set_alpha(0.0)
    _draw(fig, shapes, page)
    canvas = fig.canvas
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())  # type: ignore[attr-defined]


def _figure(page: tuple[float, float], scale: float) -> Figure:
    """A figure of ``page`` units drawn ``scale`` pixels to the unit."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(
        figsize=(page[0] * scale / _DPI, page[1] * scale / _DPI), dpi=_DPI, facecolor="#ffffff"
    )
    FigureCanvasAgg(fig)
    return fig


def _draw(fig: Figure, shapes: Sequence[Shape], page: tuple[float, float]) -> None:
    """Shapes on the figure, in page units (y down) mapped straight to its pixels: no
    axes (making one costs more than drawing a turn's shapes)."""
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.transforms import Affine2D

    width_px, height_px = fig.bbox.width, fig.bbox.height
    to_pixels = Affine2D().scale(width_px / page[0], -height_px / page[1])
    to_pixels.translate(0.0, height_px)
    # line widths are in page units; matplotlib wants points (1/72 inch)
    points_per_unit = 72 * fig.get_figwidth() / page[0]
    # consecutive shapes of one kind (closed or not) go into one collection, so the
    # picture is painted in the scene's order, like the SVG
    runs: list[list[Shape]] = []
    for sh in shapes:
        if runs and runs[-1][0].closed == sh.closed:
            runs[-1].append(sh)
        else:
            runs.append([sh])
    for run in runs:
        widths = [sh.width * points_per_unit for sh in run]
        if run[0].closed:
            collection: PolyCollection | LineCollection = PolyCollection(
                [sh.points for sh in run],
                facecolors=[sh.fill for sh in run],
                edgecolors=[sh.stroke for sh in run],
                linewidths=widths,
            )
        else:
            collection = LineCollection(
                [sh.points for sh in run],
                colors=[sh.stroke for sh in run],
                linewidths=widths,
                linestyles=["--" if sh.dashed else "-" for sh in run],
            )
        collection.set_transform(to_pixels)
        fig.add_artist(collection)


def _set_texts(image: Image.Image, texts: Sequence[Text], scale: float) -> None:
    """Every text on ``image``, its baseline at its y, anchored as in the SVG."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for t in texts:
        draw.text(
            (t.x * scale, t.y * scale),
            t.text,
            fill=t.fill,
            font=_font(t.size * scale, t.bold),
            anchor=ANCHORS[t.anchor],
        )


@lru_cache(maxsize=32)
def _font(pixels: float, bold: bool) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold or not) at ``pixels`` per em, from matplotlib's own copy of the
    font, so every machine draws the same glyphs."""
    from matplotlib.font_manager import FontProperties, findfont
    from PIL import ImageFont

    path = findfont(FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal"))
    return ImageFont.truetype(path, pixels)


def encode_png(rgb: bytes, size: tuple[int, int], level: int = 1) -> bytes:
    """8-bit RGB pixels (``size`` = width, height; rows top to bottom) as a PNG file
    (signature, IHDR, one IDAT, IEND), every row unfiltered.

    Pillow's encoder tries the five PNG filters on every row and keeps the best; on a
    map of flat colours that choice costs twice the compression itself and gains nothing
    (unfiltered rows come out smaller here), and it was the largest part of a Games
    Master's turn. zlib's fastest level keeps a map near 230 kB, a fair e-mail
    attachment. No metadata is written, so equal pixels give equal bytes."""
    width, height = size
    stride = width * 3
    if len(rgb) != stride * height:
        raise ValueError(f"encode_png wants {width} x {height} x 3 bytes, not {len(rgb)}")
    pixels = memoryview(rgb)
    stream = zlib.compressobj(level)
    parts = []
    for top in range(0, len(rgb), stride):
        parts.append(stream.compress(b"\x00"))  # filter type 0: none
        parts.append(stream.compress(pixels[top : top + stride]))
    parts.append(stream.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

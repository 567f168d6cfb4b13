"""Text labels placed where they overlap nothing already drawn."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from dogfight.geometry.pose import Point
from dogfight.render.markup import _Frame, _tag
from dogfight.render.style import INK, SCALE, TEXT_SIZE

Box = tuple[float, float, float, float]


RINGS = 6
"""How many rings about its place a label tries when the nudges near it are all taken."""


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
        ``tries`` steps along each of ``nudges`` in turn (nearest first), then
        :data:`RINGS` rings farther around it, and keep the first free spot, else the one
        overlapping least (going off the drawing counts a hundredfold). Returns where it
        went."""
        candidates = [at] + [
            (at[0] + k * dx, at[1] + k * dy) for k in range(1, tries + 1) for dx, dy in nudges
        ]
        # when none of those is free, rings farther around ``at`` (a label away from its
        # thing still reads; one over a base, a token or another label does not)
        step = max(1.2, size)
        candidates += [
            (
                at[0] + r * step * math.cos(a * math.pi / 8),
                at[1] + r * step * math.sin(a * math.pi / 8),
            )
            for r in range(1, RINGS + 1)
            for a in range(16)
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

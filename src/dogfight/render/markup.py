"""SVG elements as text, in table coordinates: numbers, tags and the y-flipping frame."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from dogfight.geometry.pose import Point
from dogfight.render.style import SCALE


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

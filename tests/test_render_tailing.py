"""``render`` draws 002's tailing ruler through both sides and the rear gun's blind spot.

002: "Ruler connects center of rear plane to center of front plane." ... "No other plane
in between." (the tailer's front side, the tailed plane's rear side: docs/rulings.md W1)
002: "If ruler touches target with **first half** and passes through **rear side** of
two-seater → **firing blocked**."
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon

from dogfight.catalog import Catalog, load_catalog
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import rectangle
from dogfight.geometry.sides import REAR, side_towards
from dogfight.render import render_svg
from dogfight.render.tailing import BROKEN, HOLDS, blind_spot
from dogfight.situation.format import parse_situation
from dogfight.situation.ruling import adjudicate

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(None)


def plane(
    vid: str, kind: str, side: str, x: float, y: float, heading: float = 0.0, *cards: str
) -> Any:
    out: dict[str, Any] = {
        "id": vid,
        "type": kind,
        "side": side,
        "pose": {"x": x, "y": y, "heading": heading},
    }
    if cards:
        out["plans"] = [{"cards": list(cards)}]
    return out


def drawn(
    catalog: Catalog, *vehicles: Any, ruleset: str = "wow", phases: int | None = None, **more: Any
) -> ET.Element:
    sit = {
        "ruleset": ruleset,
        "table": {"width": 200, "height": 100},
        "vehicles": list(vehicles),
        **more,
    }
    state, events = adjudicate(parse_situation(sit), catalog, 0, phases)
    return ET.fromstring(render_svg(state, events).encode("utf-8"))


def rulers(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "tailing" in (g.get("class") or "").split()]


def stroke(group: ET.Element, css: str) -> str | None:
    [line] = [e for e in group.iter(f"{NS}line") if e.get("class") == css]
    return line.get("stroke")


def label_texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{NS}text")]


def test_a_ruler_that_holds_is_green_through_both_sides(catalog: Catalog) -> None:
    root = drawn(
        catalog,
        plane("spad", "spad-xiii", "allies", 30, 50),
        plane("prey", "spad-xiii", "central", 55, 50),
    )
    [ruler] = rulers(root)
    assert ruler.get("class") == "tailing holds"
    assert (ruler.get("data-tailer"), ruler.get("data-tailed")) == ("spad", "prey")
    assert ruler.get("data-when") == "start of turn 1"
    for css in ("tailing-line", "tailer-front", "tailed-rear"):
        assert stroke(ruler, css) == HOLDS
    # the two sides are the tailer's front one (x = 30 + half a base) and the tailed
    # plane's rear one (x = 55 - half a base), each as wide as the base
    half = catalog.constants.airplane_base.length / 2.0
    [front] = [e for e in ruler.iter(f"{NS}line") if e.get("class") == "tailer-front"]
    [rear] = [e for e in ruler.iter(f"{NS}line") if e.get("class") == "tailed-rear"]
    assert float(front.get("x1") or 0) == pytest.approx((30 + half) * 10)
    assert float(rear.get("x1") or 0) == pytest.approx((55 - half) * 10)
    assert "spad tails prey (start of turn 1)" in label_texts(root)


def test_a_plane_in_between_breaks_it_in_red_with_why(catalog: Catalog) -> None:
    root = drawn(
        catalog,
        plane("spad", "spad-xiii", "allies", 30, 50),
        plane("camel", "sopwith-camel", "allies", 42, 50, 90.0),
        plane("prey", "spad-xiii", "central", 55, 50),
    )
    [ruler] = [r for r in rulers(root) if r.get("data-tailer") == "spad"]
    assert ruler.get("class") == "tailing broken"
    assert ruler.get("data-why") == "camel in between"
    assert stroke(ruler, "tailing-line") == BROKEN
    # both sides are passed through: only the plane in between breaks it
    assert stroke(ruler, "tailer-front") == HOLDS and stroke(ruler, "tailed-rear") == HOLDS
    assert any("no tailing: camel in between" in t for t in label_texts(root))


def test_a_ruler_into_the_front_side_is_red_on_that_side(catalog: Catalog) -> None:
    """Head-on: the ruler leaves the SPAD through its front but enters the other plane
    through its front side, not its rear."""
    root = drawn(
        catalog,
        plane("spad", "spad-xiii", "allies", 30, 50),
        plane("prey", "spad-xiii", "central", 50, 50, 180.0),
    )
    ours = [r for r in rulers(root) if r.get("data-tailer") == "spad"]
    [ruler] = ours
    assert ruler.get("data-why") == "the ruler enters prey through its front side, not its rear"
    assert stroke(ruler, "tailer-front") == HOLDS
    assert stroke(ruler, "tailed-rear") == BROKEN


def test_rulers_laid_in_the_turn_and_one_lost_before_the_second_maneuver(
    catalog: Catalog,
) -> None:
    """002's FAQ: "Once initiated, partial movement doesn't break it unless planes
    overlap or exit." The SPAD catches up and overlaps the other plane in phase 1."""
    root = drawn(
        catalog,
        plane("spad", "spad-xiii", "allies", 30, 50, 0.0, "1", "2", "3"),
        plane("prey", "spad-xiii", "central", 37, 50, 0.0, "3", "2", "1"),
        plane("far", "spad-xiii", "central", 150, 20, 90.0, "3", "2", "1"),
        phases=2,
    )
    laid = {(r.get("data-when"), r.get("class"), r.get("data-why")) for r in rulers(root)}
    assert ("turn 1, phase 1", "tailing holds", None) in laid
    assert ("turn 1, phase 2", "tailing broken", "the two bases overlap") in laid


def test_no_tailing_ruler_where_the_ruleset_has_no_tailing(catalog: Catalog) -> None:
    root = drawn(
        catalog,
        plane("spad", "spad-xiii", "allies", 30, 50),
        plane("prey", "spad-xiii", "central", 55, 50),
        ruleset="wog",
    )
    assert rulers(root) == []


def spots(root: ET.Element) -> dict[str, ET.Element]:
    return {
        str(g.get("data-vehicle")): g
        for g in root.iter(f"{NS}g")
        if "blind-spot" in (g.get("class") or "").split()
    }


def test_the_blind_spot_is_drawn_behind_two_seaters_only(catalog: Catalog) -> None:
    root = drawn(
        catalog,
        plane("bristol", "bristol-f2b", "allies", 100, 50, 90.0),
        plane("spad", "spad-xiii", "central", 40, 50),
    )
    found = spots(root)
    assert list(found) == ["bristol"]
    assert "blind spot" in " ".join(label_texts(root))
    assert "first half" in (found["bristol"].findtext(f"{NS}title") or "")
    # behind the tail (south of a plane heading north), within the half mark
    [polygon] = found["bristol"].iter(f"{NS}polygon")
    points = [tuple(float(v) for v in p.split(",")) for p in (polygon.get("points") or "").split()]
    ys = [100 - y / 10 for _, y in points]  # back to table cm (y up)
    half = catalog.constants.ruler.half
    assert max(ys) <= 50 + 1e-6 and min(ys) == pytest.approx(50 - half, abs=0.05)
    without = drawn(
        catalog, plane("bristol", "bristol-f2b", "allies", 100, 50, 90.0), ruleset="wog"
    )
    assert spots(without) == {}


@settings(max_examples=300, deadline=None)
@given(
    heading=st.floats(0, 360),
    angle=st.floats(0, 360),
    distance=st.floats(0, 25),
)
def test_the_blind_spot_is_the_engines_rule(heading: float, angle: float, distance: float) -> None:
    """A point is in the drawn area exactly when a ruler from the centre touching it within
    the half mark leaves the base through its rear side (points on the outline's edges,
    and the arc's chords, excepted)."""
    length, width, half = 4.5, 2.8, 15.0
    pose = Pose(10.0, 20.0, heading)
    area = ShapelyPolygon(blind_spot(pose, length, width, half))
    base = ShapelyPolygon(rectangle(pose, length, width))
    p = (
        10.0 + distance * math.cos(math.radians(angle)),
        20.0 + distance * math.sin(math.radians(angle)),
    )
    point = ShapelyPoint(p)
    if area.exterior.distance(point) < 0.05 or base.exterior.distance(point) < 0.05:
        return
    if abs(distance - half) < 0.2 or base.contains(point):
        return
    rule = distance <= half and side_towards(pose, p, length, width) == REAR
    assert area.contains(point) == rule


@pytest.mark.parametrize(("rulers_behind", "holds"), [(1.5, False), (0.9, True)])
def test_the_tailing_ruler_shows_its_end(
    catalog: Catalog, rulers_behind: float, holds: bool
) -> None:
    """002: "Ruler connects center of rear plane to center of front plane": the ruler is
    one ruler long (docs/rulings.md W7). Its end is marked across the line, one ruler
    from the tailer's centre dot: green where it reaches the tailed plane's centre (0.9
    ruler behind: tailing), red where it falls short (1.5 rulers: no tailing, and why)."""
    length = catalog.constants.ruler.length
    x = 150 - rulers_behind * length
    root = drawn(
        catalog,
        plane("spad", "spad-xiii", "allies", x, 50),
        plane("prey", "spad-xiii", "central", 150, 50),
        table={"width": 300, "height": 100},
    )
    [ruler] = rulers(root)
    assert ruler.get("class") == ("tailing holds" if holds else "tailing broken")
    assert ruler.get("data-ruler") == f"{length:g}"
    assert ruler.get("data-distance") == f"{rulers_behind * length:.1f}"
    if not holds:
        assert ruler.get("data-why") == (
            f"the centres are {rulers_behind * length:.1f} cm apart, "
            f"beyond the ruler ({length:g} cm)"
        )
    [end] = [e for e in ruler.iter(f"{NS}line") if e.get("class") == "ruler-end"]
    assert end.get("stroke") == (HOLDS if holds else BROKEN)
    # across the line, one ruler from the tailer's centre (the SVG is in mm)
    assert float(end.get("x1") or 0) == pytest.approx((x + length) * 10)
    assert float(end.get("x2") or 0) == pytest.approx((x + length) * 10)

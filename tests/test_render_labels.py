"""``render``'s labels can be read (issue 29 item 11): in the SVG of every preset's
set-up and of random tables, no label's box covers a base, an objective token or
another label. The boxes are estimated as the label placer estimates them
(render/labels.py: 0.62 of the font size a character)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dogfight.catalog import load_catalog
from dogfight.render.svg import render_svg
from dogfight.rules.state import GameState
from dogfight.server.play.setups import presets
from dogfight.situation.format import build, parse_situation
from dogfight.situation.ruling import adjudicate

NS = "{http://www.w3.org/2000/svg}"
CATALOG = load_catalog()
PRESETS = presets(CATALOG)
Box = tuple[float, float, float, float]


def _state(setup: dict[str, Any]) -> GameState:
    return build(parse_situation(setup), CATALOG, 0)


def _classes(e: ET.Element) -> list[str]:
    return (e.get("class") or "").split()


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def boxes(svg: str) -> tuple[list[tuple[str, Box]], list[Box], list[Box]]:
    """The labels (text, box), the bases' and the objective tokens' boxes, SVG units."""
    root = ET.fromstring(svg.encode("utf-8"))
    labels: list[tuple[str, Box]] = []
    for group in root.iter(f"{NS}g"):
        if group.get("id") != "labels":
            continue
        for t in group.iter(f"{NS}text"):
            size = float(t.get("font-size", "0"))
            text = t.text or ""
            width = 0.62 * size * len(text)
            x, y = float(t.get("x", "0")), float(t.get("y", "0"))
            left = {"start": x, "middle": x - width / 2, "end": x - width}[
                t.get("text-anchor", "start")
            ]
            middle = y - 0.35 * size
            labels.append((text, (left, middle - size / 2, left + width, middle + size / 2)))
    bases: list[Box] = []
    for p in root.iter(f"{NS}polygon"):
        if "base" in _classes(p):
            pts = [tuple(map(float, xy.split(","))) for xy in (p.get("points") or "").split()]
            xs, ys = [q[0] for q in pts], [q[1] for q in pts]
            bases.append((min(xs), min(ys), max(xs), max(ys)))
    tokens: list[Box] = []
    for c in root.iter(f"{NS}circle"):
        if "token" in _classes(c):
            cx, cy, r = (float(c.get(k, "0")) for k in ("cx", "cy", "r"))
            tokens.append((cx - r, cy - r, cx + r, cy + r))
    return labels, bases, tokens


def covered(svg: str) -> list[str]:
    """What each label covers (an empty list: every label reads)."""
    labels, bases, tokens = boxes(svg)
    out = []
    for i, (text, box) in enumerate(labels):
        for b in bases:
            if _overlap(box, b) > 0.5:
                out.append(f"{text!r} covers a base")
        for b in tokens:
            if _overlap(box, b) > 0.5:
                out.append(f"{text!r} covers an objective")
        for other, b in labels[i + 1 :]:
            if _overlap(box, b) > 0.5:
                out.append(f"{text!r} covers {other!r}")
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_no_label_covers_a_base_an_objective_or_a_label_in_a_preset(name: str) -> None:
    svg = render_svg(_state(PRESETS[name]["setup"]))
    assert boxes(svg)[0], "no label found"
    assert covered(svg) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.floats(10, 80), st.floats(10, 80), st.sampled_from([0.0, 90.0, 180.0, 270.0])),
        min_size=2,
        max_size=6,
        unique_by=lambda p: (round(p[0] / 7), round(p[1] / 7)),
    )
)
def test_no_label_covers_a_base_or_a_label_after_a_turn_on_a_random_table(
    poses: list[tuple[float, float, float]],
) -> None:
    vehicles = [
        {
            "id": f"plane-{i}",
            "type": "sopwith-camel" if i % 2 else "albatros-d5a",
            "side": "allies" if i % 2 else "central",
            "pose": {"x": x, "y": y, "heading": h},
            "plans": [{"cards": ["1", "2", "3"]}],
        }
        for i, (x, y, h) in enumerate(poses)
    ]
    sit = {"ruleset": "wog", "table": {"width": 90, "height": 90}, "vehicles": vehicles}
    state, events = adjudicate(parse_situation(sit), CATALOG, 0)
    assert covered(render_svg(state, events)) == []

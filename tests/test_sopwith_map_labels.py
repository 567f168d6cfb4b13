"""The Sopwith map's labels can be read (issue 29 item 11): no text of a map (hex labels,
airfield names, strip letters, plane letters, the legend) covers a plane, a plane on the
ground, a plane shot down or another text; a plane's letter sits on its own mark only.
Texts are measured in DejaVu Sans, the font both the SVG and the PNG use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from shapely.geometry import LineString, Polygon, box
from test_sopwith_game import SIDE, game, grounded, order, plane, resolve
from test_sopwith_report import _luminance, play_golden_game

from dogfight.sopwith.board import Board
from dogfight.sopwith.game import PlaneSetup, new_game
from dogfight.sopwith.hexes import FACING_NAMES, label
from dogfight.sopwith.maps import Scene, Text, scene
from dogfight.sopwith.raster import ANCHORS, _font
from dogfight.sopwith.rules import load_ruleset

MARKS = {"plane", "ground", "ground-more", "down"}
"""The shapes that stand for a plane (flying, on the ground, shot down)."""
LETTERS = {"plane-letter", "ground-letter", "ground-more"}
"""Texts drawn on a mark of their own."""


def text_box(t: Text) -> Polygon:
    """The ink of ``t`` (page units), a little shrunk (antialiased edges may touch)."""
    left, top, right, bottom = _font(t.size, t.bold).getbbox(t.text, anchor=ANCHORS[t.anchor])
    return box(t.x + left + 0.3, t.y + top + 0.3, t.x + right - 0.3, t.y + bottom - 0.3)


def marks(s: Scene) -> list[Polygon]:
    out = []
    for sh in s.shapes:
        if sh.kind in MARKS:
            shape = Polygon(sh.points) if sh.closed else LineString(sh.points)
            out.append(shape.buffer(sh.width / 2))
    return out


def crowded() -> Iterator[tuple[str, Scene]]:
    """Maps where labels are at risk: the golden game's turns, every facing on an airstrip
    and in open sky, two and three planes sharing a hex, five planes on the ground at one
    airfield, a plane shot down."""
    _, turns = play_golden_game()
    yield "golden start", scene("golden", turns[0].before, [])
    for t in turns:
        yield f"golden turn {t.before.turn}", scene("golden", t.after, t.events)
    strip = next(iter(Board(SIDE).airfields.values())).strips[0].hexes[0]
    for facing in FACING_NAMES:
        state = game(plane("a", label(strip, SIDE), facing), plane("b", "J10", facing))
        yield f"facing {facing}", scene("g", state, [])
    yield "two in a hex", scene("g", game(plane("a", "J10"), plane("b", "J10", "S")), [])
    three = game(plane("a", "J10", "NE"), plane("b", "J10", "S"), plane("c", "J10", "NW"))
    yield "three in a hex", scene("g", three, [])
    five = new_game(load_ruleset(), [PlaneSetup(f"P{i}", "NW") for i in range(5)], [])
    yield "five on the ground", scene("g", five, [])
    yield "ground", scene("g", game(grounded("a", "N"), grounded("b", "N")), [])
    shot = game(plane("a", "J10", "N"), plane("b", "J9", "N", strength=1))
    after, events = resolve(shot, order("a", "A:A", "0", "0"), order("b", "0", "0", "0"))
    yield "shot down", scene("g", after, events)


SCENES = dict(crowded())


@pytest.mark.parametrize("name", sorted(SCENES))
def test_no_map_text_covers_a_plane_or_another_text(name: str) -> None:
    s = SCENES[name]
    texts = [*s.board_texts, *s.texts]
    boxes = [text_box(t) for t in texts]
    planes = marks(s)
    for t, b in zip(texts, boxes, strict=True):
        own = [m for m in planes if t.kind in LETTERS and m.contains(b.centroid)]
        for m in planes:
            if m not in own:
                assert not b.intersects(m), f"{name}: {t.kind} {t.text!r} covers a plane"
    for i, (t, b) in enumerate(zip(texts, boxes, strict=True)):
        for u, c in zip(texts[i + 1 :], boxes[i + 1 :], strict=True):
            assert not b.intersects(c), f"{name}: {t.kind} {t.text!r} covers {u.kind} {u.text!r}"


def test_the_scenes_hold_what_they_are_named_for() -> None:
    """The crowded maps are crowded: the shared hex, the grounded five, the shot-down."""
    assert sum(sh.kind == "plane" for sh in SCENES["three in a hex"].shapes) == 3
    assert any(t.kind == "ground-more" for t in SCENES["five on the ground"].texts)
    assert any(sh.kind == "down" for sh in SCENES["shot down"].shapes)
    strip_planes = [sh for sh in SCENES["facing S"].shapes if sh.kind == "plane"]
    assert len(strip_planes) == 2


def test_every_hex_label_stands_out_from_its_hex() -> None:
    """A hex label reads on its hex's colour (paper, airstrip, the airfield's dark
    brown): a contrast of at least 3:1 (WCAG's least, for bold or large text)."""
    s = SCENES["golden start"]
    fills = {sh.points: sh.fill for sh in s.board_shapes}
    hexes = [Polygon(points) for points in fills]
    for t in (t for t in s.board_texts if t.kind == "label"):
        centre = text_box(t).centroid
        [under] = [fills[tuple(h.exterior.coords)[:-1]] for h in hexes if h.contains(centre)]
        light, dark = sorted((_luminance(under), _luminance(t.fill)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 3.0, (t.text, t.fill, under)

"""Reports in 004's notation, the text map, the SVG and PNG maps, and golden reports of a
seeded four-player game over three turns.

If a change alters the rules or the reports on purpose, regenerate the golden files with
``DOGFIGHT_REGEN_GOLDEN=1 pytest tests/test_sopwith_report.py`` (and bump
``ENGINE_VERSION`` in ``dogfight.sopwith.game`` when the rules changed).
"""

from __future__ import annotations

import io
import math
import os
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from test_sopwith_game import at, game, of, order, plane, resolve

from dogfight.sopwith import events as ev
from dogfight.sopwith.board import Cloud
from dogfight.sopwith.game import PlaneSetup, new_game
from dogfight.sopwith.maps import (
    GROUND_SLOTS,
    LABEL,
    LABEL_SIZE,
    MIN_LABEL_PX,
    PAPER,
    PNG_SCALE,
    SIZE,
    render_svg,
    scene,
)
from dogfight.sopwith.orders import parse_orders
from dogfight.sopwith.raster import encode_png, png_size, render_png
from dogfight.sopwith.referee import Played, files_of, issue_start, play
from dogfight.sopwith.report import ascii_map, notation, published_report
from dogfight.sopwith.rules import load_ruleset
from dogfight.sopwith.store import Issued

GOLDEN = Path(__file__).parent / "golden" / "sopwith"
SEED = 17

# The seeded game: Biggles and Kraut take off along the south-east side of the board
# straight at each other; Sid crashes into a cloud on turn 3; Fritz NMRs on turn 1.
SETUP = [
    PlaneSetup("Biggles", "S"),
    PlaneSetup("Kraut", "SE", "Kraut Von Hinkle"),
    PlaneSetup("Sid", "NW"),
    PlaneSetup("Fritz", "N"),
]
CLOUDS = [Cloud(1, (at("J10"),)), Cloud(2, (at("E8"), at("E9")))]
ORDERS = {
    1: {
        "Biggles": "Turn 1: GAMMA airstrip\nMove 1: A\nMove 2: A\nMove 3: A - fire A\n",
        "Kraut": "Turn 1: ALPHA airstrip\nMove 1: A\nMove 2: A\nMove 3: A - FIRE\n",
        "Sid": "Pilot: Hissing Sid\nTurn 1: BETA airstrip\nMove 1: A\nMove 2: A\nMove 3: RT\n",
    },
    2: {
        "Biggles": "Turn 2:\nMove 1: A - fire A\nMove 2: LT - fire R\nMove 3: RS - fire L\n",
        "Kraut": "Turn 2:\nMove 1: A - fire A\nMove 2: RT\nMove 3: A\n",
        "Sid": "Turn 2:\nMove 1: A - fire L\nMove 2: 0\nMove 3: 0\n",
        "Fritz": "Turn 2: BETA airstrip\nMove 1: A\nMove 2: A\nMove 3: A - fire A\n",
    },
    3: {
        "Biggles": "Turn 3:\nMove 1: A - fire L\nMove 2: A\nMove 3: LT - fire A+R\n",
        "Kraut": "Turn 3:\nMove 1: I\nMove 2: A - fire A\nMove 3: A\n",
        "Sid": "Turn 3:\nMove 1: LT\nMove 2: A\nMove 3: A\n",
        "Fritz": "Turn 3:\nMove 1: A - fire A\nMove 2: RS\nMove 3: LS - FIRE\n",
    },
}
CLOUD_ENTRIES: dict[int, dict[int, int | None] | None] = {1: {2: None}, 2: {2: None}, 3: None}


def play_golden_game() -> tuple[Issued, list[Played]]:
    state = new_game(load_ruleset(), SETUP, CLOUDS)
    start = issue_start("golden", state, [])
    turns = []
    for t in (1, 2, 3):
        orders = {
            name: parse_orders(text, name, f"{name}.txt")[0] for name, text in ORDERS[t].items()
        }
        played = play("golden", SEED, state, orders, CLOUD_ENTRIES[t])
        turns.append(played)
        state = played.after
    return start, turns


def golden_files() -> dict[str, str]:
    start, turns = play_golden_game()
    out = {"golden-turn-00.txt": start.report}
    for played in turns:
        for name, content in files_of("golden", played.issued).items():
            if isinstance(content, str) and (name.endswith(".txt") or played.before.turn == 3):
                out[name] = content
    return out


FILES = golden_files()


@pytest.mark.parametrize("name", sorted(FILES))
def test_golden_reports(name: str) -> None:
    """Issue 6: "golden reports for a seeded four-player game over several turns": the
    same setup, seed and orders give the same reports, byte for byte."""
    path = GOLDEN / name
    if os.environ.get("DOGFIGHT_REGEN_GOLDEN"):
        path.write_text(FILES[name], encoding="utf-8")
    assert path.read_text(encoding="utf-8") == FILES[name]


def test_no_stale_golden_files() -> None:
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(FILES)


def test_the_golden_game_has_what_it_should() -> None:
    """The scripted game shows the rules it was written for."""
    _, turns = play_golden_game()
    one, two, three = (p.events for p in turns)
    assert [t.strip.value for t in of(one, ev.TookOff)] == ["GAMMA", "ALPHA", "BETA"]
    assert [(f.plane, f.line.value) for f in of(one, ev.Fired)][1:] == [
        ("Kraut", "L"),
        ("Kraut", "R"),
        ("Kraut", "A"),
    ]
    assert of(one, ev.OrdersMissing) == [ev.OrdersMissing(1, "Fritz", False)]
    hits = [(f.plane, h.target, h.distance, h.damage) for f in of(two, ev.Fired) for h in f.hits]
    assert ("Biggles", "Kraut", 1, 4) in hits and ("Kraut", "Biggles", 1, 4) in hits
    assert [c.plane for c in of(three, ev.Crashed)] == ["Sid"]
    assert of(three, ev.PointsShared)[0].players == ("Biggles", "Kraut", "Fritz")
    assert [(c.plane, c.flown.value) for c in of(three, ev.ManoeuvreChanged)] == [("Kraut", "A")]


def test_notation_marks_hits_made_and_taken() -> None:
    """004: "An asterisk in front of your fire (i.e. A -*fire A) means you have made a hit
    that move. A bracketed 'Move' (i.e. [A] - fire 0) means you have been hit that
    move"."""
    state = game(plane("a", "J10"), plane("b", "J7", "S"))
    _, events = resolve(state, order("a", "A:A", "LT:R", "RS:L"), order("b", "A", "A", "A"))
    notes = notation(events, 1)
    assert notes["a"] == [
        "Turn 1:",
        "Move 1: A - *fire A",
        "Move 2: LT - fire R",
        "Move 3: RS - fire L",
    ]
    assert notes["b"] == [
        "Turn 1:",
        "Move 1: [A] - fire 0",
        "Move 2: A - fire 0",
        "Move 3: A - fire 0",
    ]


def test_notation_after_a_plane_is_down() -> None:
    state = game(plane("a", "J10"), plane("b", "J7", "S", strength=4), plane("c", "B10"))
    _, events = resolve(
        state, order("a", "A:A", "A", "A"), order("b", "A", "A", "A"), order("c", "A", "A", "A")
    )
    assert notation(events, 1)["b"] == ["Turn 1:", "Move 1: [A] - fire 0", "Move 2: -", "Move 3: -"]


def test_text_map_shows_planes_clouds_and_airfields() -> None:
    state = game(plane("a", "J10", "NE"), plane("b", "C5", "S"), clouds=["K5"])
    text = ascii_map(state)
    lines = text.splitlines()
    assert lines[0].split() == [chr(ord("A") + i) for i in range(19)]
    assert "Ane" in text and "Bs" in text and "~~~" in text
    assert "@S" in text and "=B=" in text
    assert "J10" not in text and "J11" in text
    assert max(len(line) for line in lines) <= 76
    assert len(lines) == 1 + 37  # 19 rows, odd columns half a line lower


def test_published_report_sections() -> None:
    state = game(plane("a", "J10"), plane("b", "J7", "S"))
    after, events = resolve(state, order("a", "A:A", "A", "A"), order("b", "A", "A", "A"))
    text = published_report("g", state, after, events)
    for heading in ("ORDERS AS FLOWN", "WHAT HAPPENED", "STANDINGS AFTER TURN 1", "ACES", "MAP"):
        assert heading in text
    assert "a fires A: hits b at 1 (4 damage)" in text


def test_svg_map_is_well_formed_and_shows_every_plane() -> None:
    _, turns = play_golden_game()
    last = turns[-1]
    svg = render_svg(scene("golden", last.after, last.events))
    root = ET.fromstring(svg.encode("utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    polys = [e for e in root.iter(f"{ns}polygon") if e.get("class") == "hex"]
    assert len(polys) == 271 - 6 - 36
    planes = [e for e in root.iter(f"{ns}polygon") if e.get("class") == "plane"]
    assert len(planes) == sum(p.flying for p in last.after.planes)
    hits = [e for e in root.iter(f"{ns}polyline") if e.get("class") == "hit"]
    assert len(hits) == sum(len(f.hits) for f in of(last.events, ev.Fired))


def test_png_map_is_a_png_and_repeats_byte_for_byte() -> None:
    _, turns = play_golden_game()
    last = turns[-1]
    first = render_png(scene("golden", last.after, last.events))
    again = render_png(scene("golden", last.after, last.events))
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert first == again


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 40).flatmap(
        lambda h: st.integers(1, 40).flatmap(
            lambda w: st.binary(min_size=h * w * 3, max_size=h * w * 3).map(
                lambda b: np.frombuffer(b, dtype=np.uint8).reshape(h, w, 3)
            )
        )
    )
)
def test_png_encoder_round_trips_through_pillow(rgb: np.ndarray) -> None:
    """The map's own PNG writer gives a file any decoder reads back pixel for pixel."""
    decoded = Image.open(io.BytesIO(encode_png(rgb.tobytes(), (rgb.shape[1], rgb.shape[0]))))
    assert decoded.mode == "RGB" and decoded.size == (rgb.shape[1], rgb.shape[0])
    assert np.array_equal(np.asarray(decoded), rgb)


def test_png_map_shows_the_texts_over_the_shapes() -> None:
    """The PNG shows what the SVG says: the title in ink at its place, and each flying
    plane's white letter on its coloured arrow (texts are painted after the shapes)."""
    _, turns = play_golden_game()
    last = turns[-1]
    picture = scene("golden", last.after, last.events)
    pixels = np.asarray(Image.open(io.BytesIO(render_png(picture))).convert("RGB"))
    scale = pixels.shape[1] / picture.width
    title = next(t for t in picture.texts if t.kind == "title")
    box = pixels[
        int((title.y - title.size) * scale) : int(title.y * scale),
        int(title.x * scale) : int((title.x + 10 * title.size) * scale),
    ]
    assert (box.sum(axis=2) < 3 * 0x40).sum() > 50  # ink, not paper
    letters = [t for t in picture.texts if t.kind == "plane-letter"]
    assert letters
    for t in letters:
        x, y = int(t.x * scale), int(t.y * scale)
        around = pixels[y - 14 : y + 2, x - 6 : x + 7]
        assert (around.min(axis=2) > 0xF0).sum() > 3  # white strokes of the letter


def test_start_sheet_lists_airfields_clouds_and_aces() -> None:
    state = new_game(load_ruleset(), [PlaneSetup("Old", score=44), PlaneSetup("New")], CLOUDS)
    sheet = issue_start("g", state, [("Old", 44)]).report
    assert "Old (44 points)" in sheet
    assert "cloud 2: E8 E9" in sheet
    assert "airfield S (ALPHA I18+H18, BETA J18+J17, GAMMA K18+L18)" in sheet


DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.mark.skipif(not DEJAVU.exists(), reason="no DejaVu Sans to measure the legend with")
def test_the_start_sheets_legend_fits_its_view_box() -> None:
    """Issue 29 item 11: "the Sopwith start-sheet legend not cut" (long pilots' names,
    every plane "on the ground at ...")."""
    from PIL import ImageFont

    font = ImageFont.truetype(str(DEJAVU), 10)
    setups = [
        PlaneSetup("Old", "S", pilot="Captain Albert Ball"),
        PlaneSetup("New", "N", pilot="Leutnant Werner Voss"),
    ]
    picture = scene("g", new_game(load_ruleset(), setups, CLOUDS), [])
    keys = [t for t in picture.texts if t.kind == "key-text"]
    assert len(keys) == 2
    for t in keys:
        assert t.x + font.getlength(t.text) <= picture.width, t.text
    svg = ET.fromstring(render_svg(picture).encode("utf-8"))
    assert float(svg.get("viewBox", "").split()[2]) == picture.width
    assert png_size(picture)[0] == int(picture.width * PNG_SCALE)


def test_planes_on_the_ground_are_drawn_at_their_airfield() -> None:
    """Issue 12: "planes on the ground drawn on the map": each a square of its colour
    with its letter on its airfield's hex; beyond four at one airfield, a count."""
    setups = [PlaneSetup(f"P{i}", "S") for i in range(6)] + [PlaneSetup("Q", "N")]
    state = new_game(load_ruleset(), setups, CLOUDS)
    picture = scene("g", state, [])
    ground = [sh for sh in picture.shapes if sh.kind == "ground"]
    letters = [t.text for t in picture.texts if t.kind == "ground-letter"]
    assert len(ground) == GROUND_SLOTS - 1 + 1 and letters == ["A", "B", "C", "G"]
    assert [t.text for t in picture.texts if t.kind == "ground-more"] == ["+3"]
    for sh in ground:
        cx = sum(x for x, _ in sh.points) / 4
        cy = sum(y for _, y in sh.points) / 4
        airfields = [picture.frame.at(p.hex) for p in state.planes]
        assert min(math.dist((cx, cy), a) for a in airfields) < SIZE * 0.8
    assert "on the ground at S" in " ".join(t.text for t in picture.texts)
    svg = render_svg(picture)
    assert svg.count('class="ground"') == 4 and 'class="ground-more"' in svg


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_png_hex_labels_are_legible_at_the_size_sent() -> None:
    """Issue 12: "a PNG map whose hex labels are legible at the size it is sent". The PNG
    is looked at pixel for pixel (an e-mail attachment): its labels are at least 12 px
    (maps.PNG_SCALE says why), dark enough on the paper (WCAG AA: 4.5:1), and the map
    stays within a laptop's window (at most 1400 px wide)."""
    _, turns = play_golden_game()
    picture = scene("golden", turns[0].after, turns[0].events)
    png = render_png(picture)
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == png_size(picture)
    assert width <= 1400
    labels = [t for t in picture.board_texts if t.kind == "label"]
    assert labels and {t.size for t in labels} == {LABEL_SIZE}
    pixels_per_unit = width / picture.width
    assert LABEL_SIZE * pixels_per_unit >= MIN_LABEL_PX >= 12
    light, dark = _luminance(PAPER), _luminance(LABEL)
    assert (light + 0.05) / (dark + 0.05) >= 4.5
    # the SVG says the same size: a viewer at 100% shows the labels at LABEL_SIZE px
    assert f'font-size="{LABEL_SIZE:g}"' in render_svg(picture)

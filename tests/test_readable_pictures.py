"""Pictures that can be read (issue 29 item 11): no preset or scenario set-up starts a
vehicle on an objective token, and a side has one colour in every scenario, in
``render``'s SVG and on the table page (board.js run by node)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dogfight.catalog import load_catalog
from dogfight.render.context import side_colours, side_slots
from dogfight.render.style import PALETTE, SIDE_SHADES, SIDE_SLOTS
from dogfight.server.play.setups import client_catalog, presets
from dogfight.situation.format import build, parse_situation
from dogfight.situation.scenarios import CLEAR_OF_START, off_objectives, scenario_situation

CATALOG = load_catalog()
PRESETS = presets(CATALOG)
STATIC = Path(__file__).resolve().parent.parent / "src" / "dogfight" / "server" / "static"


def preset_sides(name: str) -> list[str]:
    """The preset's sides, in its vehicles' order (the page meets them so)."""
    setup = PRESETS[name]["setup"]
    state = build(parse_situation(setup), CATALOG, 0)
    return [state.vehicles[vid].side for vid in state.vehicles]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_no_preset_starts_a_vehicle_on_an_objective(name: str) -> None:
    setup = PRESETS[name]["setup"]
    for v in setup["vehicles"]:
        start = (v["pose"]["x"], v["pose"]["y"])
        for o in setup.get("objectives", []):
            gap = math.dist(start, (o["x"], o["y"]))
            assert gap >= CLEAR_OF_START, f"{name}: {v['id']} starts {gap:.1f} cm from {o['id']}"


@pytest.mark.parametrize("sid", sorted(CATALOG.scenarios))
def test_no_scenario_set_up_starts_a_vehicle_on_an_objective(sid: str) -> None:
    situation = scenario_situation(CATALOG, sid).model_dump(mode="json", exclude_none=True)
    for v in situation["vehicles"]:
        start = (v["pose"]["x"], v["pose"]["y"])
        for o in situation.get("objectives", []):
            gap = math.dist(start, (o["x"], o["y"]))
            assert gap >= CLEAR_OF_START, f"{sid}: {v['id']} starts {gap:.1f} cm from {o['id']}"


def test_a_start_slides_along_its_edge_off_an_objective() -> None:
    # 001's A Lonely Invader: the airplane "at one ruler from its side", an objective
    # template "at one ruler from the center of the Earthling side"
    plane: dict[str, Any] = {"id": "plane", "pose": {"x": 45.0, "y": 30.0, "heading": 90.0}}
    middle: dict[str, Any] = {"id": "locust", "pose": {"x": 45.0, "y": 60.0, "heading": 270.0}}
    tokens = [{"id": "o", "x": 45.0, "y": 30.0}, {"id": "p", "x": 45.0, "y": 60.0}]
    off_objectives([plane, middle], tokens, 90.0, 90.0, frozenset({"locust"}))
    assert plane["pose"]["y"] == 30.0 and plane["pose"]["heading"] == 90.0
    assert abs(plane["pose"]["x"] - 45.0) == CLEAR_OF_START
    assert middle["pose"] == {"x": 45.0, "y": 60.0, "heading": 270.0}  # a rule's middle


def test_a_side_has_one_colour_in_every_scenario_render() -> None:
    seen: dict[str, set[str]] = {}
    for name in PRESETS:
        for side, colour in side_colours(preset_sides(name)).items():
            seen.setdefault(side, set()).add(colour)
    assert {side: len(c) for side, c in seen.items()} == {side: 1 for side in seen}
    assert seen["allies"] == seen["earth"] == {PALETTE[0]}
    assert seen["central"] == seen["martians"] == {PALETTE[1]}
    # sides no scenario names still get distinct colours, whatever their order
    assert side_slots(["b", "a"]) == {"a": 0, "b": 1}
    assert side_slots(["zeta", "martians"]) == {"martians": 1, "zeta": 0}


def run_board(script: str, argument: Any) -> Any:
    """What ``script`` (an ES module importing board.js, reading its JSON argument)
    prints as JSON, run by node."""
    ran = subprocess.run(
        ["node", "--input-type=module", "-e", script, json.dumps(argument)],
        cwd=STATIC,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(ran.stdout)


PAGE = """
import { Board } from "./board.js";
const [slots, games] = JSON.parse(process.argv[1]);
const out = games.map((sides) => {
  const board = new Board({ addEventListener() {} }, { side_slots: slots });
  board.assign(sides.map((side, i) => ({ id: `v${i}`, side })));
  return Object.fromEntries(sides.map((s) => [s, board.sideOf(s)]));
});
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run board.js")
def test_a_side_has_one_colour_in_every_scenario_page() -> None:
    """The table page places each game's sides as ``render`` does (board.js, node)."""
    games = [preset_sides(name) for name in sorted(PRESETS)]
    games += [["b", "a"], ["zeta", "martians"], ["martians", "earth", "allies"]]
    placed = run_board(PAGE, [SIDE_SLOTS, games])
    for sides, page in zip(games, placed, strict=True):
        assert page == side_slots(sides), sides


COLOURS = """
import { Board } from "./board.js";
const [catalog, games] = JSON.parse(process.argv[1]);
const out = games.map((sides) => {
  const board = new Board({ addEventListener() {} }, catalog);
  const vehicles = sides.map((side, i) => ({ id: `v${i}`, side }));
  board.assign(vehicles);
  return {
    sides: Object.fromEntries(sides.map((s) => [s, board.colour(s)])),
    vehicles: vehicles.map((v) => board.vehicleColour(v)),
  };
});
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run board.js")
def test_the_page_draws_a_side_in_renders_colour() -> None:
    """Issue 29 item 11, "one colour per side": the table page, given the catalog the
    server sends, draws each side in the very colour ``render`` gives it, and a side's
    further vehicles in shades of it (render/style.py is the one palette)."""
    catalog = client_catalog(CATALOG, [])
    games = [preset_sides(name) for name in sorted(PRESETS)]
    games += [["allies", "allies", "central"], ["b", "a"], ["zeta", "martians"]]
    drawn = run_board(COLOURS, [catalog, games])
    for sides, page in zip(games, drawn, strict=True):
        render = side_colours(sides)
        assert page["sides"] == render, sides
        for side, colour in zip(sides, page["vehicles"], strict=True):
            assert colour in SIDE_SHADES[PALETTE.index(render[side])], (sides, side)
    # a side's vehicles: its colour, then its shades in order (none skipped)
    vehicles = drawn[games.index(["allies", "allies", "central"])]["vehicles"]
    assert vehicles == [SIDE_SHADES[0][0], SIDE_SHADES[0][1], SIDE_SHADES[1][0]]

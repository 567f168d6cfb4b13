"""The SVG drawing of a table (``dogfight.render``) and the ``dogfight render`` command."""

from __future__ import annotations

import importlib.util
import math
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dogfight.catalog import Catalog, load_catalog
from dogfight.cli.app import app
from dogfight.geometry.hexbase import Side, side_midpoint, side_segment
from dogfight.render import render_svg
from dogfight.render.context import side_colours
from dogfight.render.style import ARMOUR, HEADER, MARGIN, PALETTE, RAY, SCALE
from dogfight.rules.events import (
    CloudDispersed,
    Event,
    Fired,
    GameOver,
    HeatRay,
    Moved,
    PhaseStarted,
    ProtectedHit,
    Reinforcement,
    RocketsHit,
    RocketsMissed,
    SmokeCloud,
    SpecialDamage,
    TurnStarted,
)
from dogfight.rules.state import GameState
from dogfight.situation.format import build, parse_situation, read_situation
from dogfight.situation.ruling import adjudicate

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "examples" / "duel.json"
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(None)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def classes(element: ET.Element) -> list[str]:
    return (element.get("class") or "").split()


def find(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    """Elements ``tag`` carrying the CSS class ``css``."""
    return [e for e in root.iter(f"{NS}{tag}") if css in classes(e)]


def layer(root: ET.Element, name: str) -> ET.Element:
    """The drawing's layer ``<g id=name>`` (an empty group when the layer is empty)."""
    for group in root.iter(f"{NS}g"):
        if group.get("id") == name:
            return group
    return ET.Element(f"{NS}g")


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{NS}text")]


def view_box(root: ET.Element) -> list[float]:
    return [float(v) for v in (root.get("viewBox") or "").split()]


def duel(catalog: Catalog, seed: int = 0) -> tuple[GameState, list[Event]]:
    return adjudicate(read_situation(DUEL), catalog, seed)


def situation_of(vehicles: Sequence[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"ruleset": "wog", "vehicles": list(vehicles), **more}


def plane(
    vid: str, kind: str, side: str, x: float, y: float, heading: float, *cards: str
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": vid,
        "type": kind,
        "side": side,
        "pose": {"x": x, "y": y, "heading": heading},
    }
    if cards:
        out["plans"] = [{"cards": list(cards)}]
    return out


# --- the drawing ---------------------------------------------------------------------


def test_duel_is_an_svg_document_with_the_tables_view_box(catalog: Catalog) -> None:
    final, events = duel(catalog)
    root = parse(render_svg(final, events, title="duel"))
    assert root.tag == f"{NS}svg"
    table = 90.0 * SCALE
    assert view_box(root) == [
        -MARGIN * SCALE,
        -HEADER * SCALE,
        table + 2 * MARGIN * SCALE,
        table + (MARGIN + HEADER) * SCALE,
    ]
    # to scale: 1 cm of table is 10 mm of drawing
    width, height = root.get("width") or "", root.get("height") or ""
    assert width.endswith("mm") and height.endswith("mm")
    assert float(width[:-2]) == pytest.approx(view_box(root)[2] / SCALE * 10.0)
    assert float(height[:-2]) == pytest.approx(view_box(root)[3] / SCALE * 10.0)
    assert "duel" in texts(root)


def test_view_box_follows_a_non_square_table_and_y_grows_upward(catalog: Catalog) -> None:
    data = situation_of(
        [
            plane("low", "spad-vii", "allies", 10, 20, 0),
            plane("high", "fokker-dr1", "central", 100, 70, 180),
        ],
        table={"width": 120, "height": 80},
    )
    state = build(parse_situation(data), catalog, 0)
    root = parse(render_svg(state))
    assert view_box(root) == [
        -MARGIN * SCALE,
        -HEADER * SCALE,
        (120 + 2 * MARGIN) * SCALE,
        (80 + MARGIN + HEADER) * SCALE,
    ]
    dots = {g.get("data-vehicle"): g.find(f"{NS}circle") for g in find(root, "g", "vehicle")}
    low, high = dots["low"], dots["high"]
    assert low is not None and high is not None
    assert (float(low.get("cx") or 0), float(low.get("cy") or 0)) == (100.0, 600.0)
    assert (float(high.get("cx") or 0), float(high.get("cy") or 0)) == (1000.0, 100.0)


def test_one_base_per_vehicle_eliminated_ones_ghosted(catalog: Catalog) -> None:
    final, events = duel(catalog)
    root = parse(render_svg(final, events))
    groups = find(root, "g", "vehicle")
    assert sorted(g.get("data-vehicle") or "" for g in groups) == sorted(final.vehicles)
    assert len(find(root, "polygon", "base")) == len(final.vehicles)
    for group in groups:
        vehicle = final.vehicles[group.get("data-vehicle") or ""]
        (base,) = [e for e in group if "base" in classes(e)]
        assert ("eliminated" in classes(base)) == (not vehicle.in_play)
        if not vehicle.in_play:
            reason = (vehicle.eliminated or "").replace("_", " ")
            assert f"{vehicle.id} ({reason})" in texts(root)


def test_every_move_draws_its_card_path_and_start(catalog: Catalog) -> None:
    final, events = duel(catalog)
    root = parse(render_svg(final, events))
    moves = [e for e in events if isinstance(e, Moved)]
    groups = find(root, "g", "move")
    assert [(g.get("data-vehicle"), g.get("data-card")) for g in groups] == [
        (m.vehicle, m.card) for m in moves
    ]
    for group in groups:
        assert len(find(group, "polygon", "card")) == 1
        assert len(find(group, "polygon", "start")) == 1
        assert len(find(group, "polyline", "path")) == 1
    assert {f"card {m.card}" for m in moves} <= set(texts(root))


def test_shots_run_from_the_firers_dot_at_that_phase(catalog: Catalog) -> None:
    final, events = duel(catalog)
    shots = [e for e in events if isinstance(e, Fired)]
    assert shots, "the duel example should fire"
    root = parse(render_svg(final, events))
    groups = find(root, "g", "fired")
    assert len(groups) == len(shots)
    start = build(read_situation(DUEL), catalog, 0)
    where = {vid: v.pose.point for vid, v in start.vehicles.items()}
    height = final.rules.table_height
    label_texts = texts(root)
    shot_iter = iter(groups)
    for event in events:
        if isinstance(event, Moved):
            where[event.vehicle] = event.end.point
        if not isinstance(event, Fired):
            continue
        group = next(shot_iter)
        assert (group.get("data-firer"), group.get("data-target")) == (event.firer, event.target)
        (line,) = find(group, "line", "shot")
        assert event.range in classes(line)
        x1, y1, x2, y2 = (float(line.get(k) or "nan") for k in ("x1", "y1", "x2", "y2"))
        origin = where[event.firer]
        assert event.origin == pytest.approx(origin)
        assert (x1, y1) == pytest.approx((origin[0] * SCALE, (height - origin[1]) * SCALE))
        assert (x2, y2) == pytest.approx(
            (event.point[0] * SCALE, (height - event.point[1]) * SCALE), abs=0.01
        )
        label = f"{event.range} {event.distance:.2f} cm" + (" +1" if event.aimed else "")
        assert label in label_texts
    long_lines = find(layer(root, "shots"), "line", "long")
    short_lines = find(layer(root, "shots"), "line", "short")
    assert len(long_lines) + len(short_lines) == len(shots)


def test_reach_arcs_for_airplanes_in_play_and_rear_arcs_for_two_seaters(
    catalog: Catalog,
) -> None:
    data = situation_of(
        [
            plane("bristol", "bristol-f2b", "allies", 30, 40, 0),
            plane("fokker", "fokker-dr1", "central", 70, 40, 180),
        ]
    )
    state = build(parse_situation(data), catalog, 0)
    root = parse(render_svg(state))
    arcs = sorted((g.get("data-vehicle"), g.get("data-weapon")) for g in find(root, "g", "arc"))
    assert arcs == [("bristol", "front"), ("bristol", "rear"), ("fokker", "front")]
    assert len(find(root, "path", "half")) == 3
    assert find(parse(render_svg(state, show_reach=False)), "g", "arc") == []


def test_a_plane_between_two_enemies_blocks_their_shots(catalog: Catalog) -> None:
    data = situation_of(
        [
            plane("spad", "spad-vii", "allies", 20, 45, 0),
            plane("wingman", "sopwith-camel", "allies", 35, 45, 0),
            plane("fokker", "fokker-dr1", "central", 50, 45, 180),
        ]
    )
    state = build(parse_situation(data), catalog, 0)
    root = parse(render_svg(state))
    blocked = {(g.get("data-firer"), g.get("data-target")) for g in find(root, "g", "blocked-shot")}
    assert blocked == {("spad", "fokker"), ("fokker", "spad")}
    assert "blocked by wingman" in texts(root)
    assert len(find(layer(root, "blocked"), "line", "blocked")) == 2
    assert find(root, "g", "fired") == []


def test_same_inputs_give_the_same_bytes(catalog: Catalog) -> None:
    first = render_svg(*duel(catalog), title="t")
    final, events = duel(catalog)
    assert render_svg(final, events, title="t") == first
    assert render_svg(final, events, title="t") == first


def test_text_and_ids_are_escaped(catalog: Catalog) -> None:
    side = 'allies <&> "RFC"'
    data = situation_of(
        [
            plane("spad", "spad-vii", side, 20, 45, 0),
            plane("fokker", "fokker-dr1", "central", 50, 45, 180),
        ]
    )
    state = build(parse_situation(data), catalog, 0)
    title = "<script>alert('&')</script>"
    root = parse(render_svg(state, title=title))
    assert title in texts(root)
    assert side in texts(root)
    sides = {g.get("data-side") for g in find(root, "g", "vehicle")}
    assert sides == {side, "central"}


def test_a_plane_that_left_the_area_is_drawn_off_the_table(catalog: Catalog) -> None:
    data = situation_of(
        [
            plane("camel", "sopwith-camel", "allies", 45, 86, 90, "1", "2", "3"),
            plane("fokker", "fokker-dr1", "central", 45, 10, 0, "1", "2", "3"),
        ]
    )
    final, events = adjudicate(parse_situation(data), catalog, 0)
    assert final.vehicles["camel"].eliminated == "left_area"
    root = parse(render_svg(final, events))
    left, top, width, _height = view_box(root)
    assert left == -MARGIN * SCALE and width == (90 + 2 * MARGIN) * SCALE
    assert top < -HEADER * SCALE  # grown upward to hold the camel above the table
    camel_top = (90 - final.vehicles["camel"].pose.y) * SCALE
    assert top + HEADER * SCALE <= camel_top
    assert "camel (left area)" in texts(root)


def test_side_colours_are_distinct_and_repeatable() -> None:
    sides = [f"side {i}" for i in range(len(PALETTE))]
    colours = side_colours(sides)
    assert len(set(colours.values())) == len(PALETTE)
    assert side_colours(list(reversed(sides))) == colours
    assert side_colours(["central", "allies", "central"]) == {
        "allies": PALETTE[0],
        "central": PALETTE[1],
    }


# --- the command ---------------------------------------------------------------------


def test_render_command_writes_the_drawing(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    result = CliRunner().invoke(app, ["render", str(DUEL), "-o", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    assert find(root, "g", "fired")
    assert find(root, "g", "arc")
    assert "duel.json, seed 3" in texts(root)
    assert [p.name for p in tmp_path.iterdir()] == ["table.svg"]


def test_render_command_options(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    args = ["render", str(DUEL), "-o", str(out), "--phases", "1", "--no-reach"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    assert find(root, "g", "arc") == []
    assert find(root, "g", "fired") == []  # too far apart after one phase
    assert len(find(root, "g", "move")) == 2


def dogfight_command() -> list[str]:
    """How to run the installed command line (so that ``main`` maps errors to status 2)."""
    if importlib.util.find_spec("dogfight.__main__") is not None:
        return [sys.executable, "-m", "dogfight"]
    script = shutil.which("dogfight") or str(Path(sys.executable).parent / "dogfight")
    return [script]


@pytest.mark.parametrize("problem", ["missing", "not json", "bad field", "no folder"])
def test_render_command_bad_input_is_one_line_and_status_2(tmp_path: Path, problem: str) -> None:
    situation = tmp_path / "situation.json"
    out = tmp_path / "table.svg"
    if problem == "not json":
        situation.write_text('{"vehicles": [', encoding="utf-8")
    elif problem == "bad field":
        situation.write_text(
            '{"vehicles": [{"id": "x", "type": "no-such-plane", "side": "a",'
            ' "pose": {"x": 1, "y": 1}}]}',
            encoding="utf-8",
        )
    elif problem == "no folder":
        situation.write_text(DUEL.read_text(encoding="utf-8"), encoding="utf-8")
        out = tmp_path / "missing" / "table.svg"
    done = subprocess.run(
        [*dogfight_command(), "render", str(situation), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error:")
    assert "Traceback" not in done.stderr
    assert not out.exists()


# --- tripods -------------------------------------------------------------------------

TRIPOD = ROOT / "examples" / "tripod.json"


def tripod_example(
    catalog: Catalog, phases: int | None = 1, seed: int = 2
) -> tuple[GameState, list[Event]]:
    return adjudicate(read_situation(TRIPOD), catalog, seed, phases)


def points_of(element: ET.Element, height: float) -> list[tuple[float, float]]:
    """A polygon's or polyline's points back in table cm (y up)."""
    out = []
    for pair in (element.get("points") or "").split():
        x, y = (float(v) for v in pair.split(","))
        out.append((x / SCALE, height - y / SCALE))
    return out


def walker(
    vid: str,
    kind: str,
    side: str,
    x: float,
    y: float,
    heading: float,
    cards: Sequence[str],
    actions: Sequence[dict[str, Any] | None] = (None, None, None),
    **more: Any,
) -> dict[str, Any]:
    """A tripod entry of a situation."""
    return {
        "id": vid,
        "type": kind,
        "side": side,
        "pose": {"x": x, "y": y, "heading": heading},
        "plans": [{"cards": list(cards), "actions": list(actions)}],
        **more,
    }


def toppled_and_reverse() -> dict[str, Any]:
    """A toppled locust, a scarab that fires at nothing, reverses, walks backward onto the
    depot and destroys it, and a SPAD shooting at it."""
    return situation_of(
        [
            walker("locust", "mk1-locust", "martians", 25, 55, 30, ["1"], toppled=2, energy=3),
            walker(
                "scarab",
                "mk2-scarab",
                "martians",
                60,
                45,
                90,
                ["11", "3", "10"],
                [
                    {"token": "heat_ray", "projector": "front"},
                    None,
                    {"token": "destroy_objective"},
                ],
            ),
            plane("spad", "spad-vii", "earth", 15, 20, 20, "2", "1", "3"),
        ],
        objectives=[
            {"id": "depot", "x": 60, "y": 30},
            {"id": "farm", "x": 20, "y": 75, "charges": 0},
        ],
    )


def test_tripod_example_renders_through_the_command(tmp_path: Path) -> None:
    out = tmp_path / "t.svg"
    args = ["render", str(TRIPOD), "--phases", "1", "--seed", "2", "-o", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    assert {g.get("data-vehicle") for g in find(root, "g", "vehicle")} == {
        "locust",
        "nieuport",
        "camel",
    }


def test_a_hexagon_per_tripod_with_its_protected_sides_and_projectors(catalog: Catalog) -> None:
    final, events = tripod_example(catalog)
    root = parse(render_svg(final, events))
    height = final.rules.table_height
    groups = {g.get("data-vehicle"): g for g in find(root, "g", "vehicle")}
    assert len(find(root, "polygon", "base")) == len(final.vehicles)
    for vid, vehicle in final.vehicles.items():
        (base,) = [e for e in groups[vid] if "base" in classes(e)]
        corners = points_of(base, height)
        if vehicle.kind != "tripod":
            assert len(corners) == 4 and "tripod" not in classes(base)
            assert find(groups[vid], "polyline", "armour") == []
            continue
        model = final.rules.tripod(vehicle.type)
        assert "tripod" in classes(base)
        expected = [c for corner in final.base(vehicle) for c in corner]
        assert [c for corner in corners for c in corner] == pytest.approx(expected, abs=0.01)
        armour = find(groups[vid], "polyline", "armour")
        assert sorted(e.get("data-side") or "" for e in armour) == sorted(model.protected)
        for line in armour:
            # the serrated line runs along its side of the hexagon
            a, b = side_segment(
                vehicle.pose, final.rules.hex_side, Side.parse(line.get("data-side") or "")
            )
            teeth = points_of(line, height)
            assert len(teeth) > 4
            assert teeth[0] == pytest.approx(a, abs=0.01)
            assert teeth[-1] == pytest.approx(b, abs=0.01)
            assert line.get("stroke") == ARMOUR
        projectors = find(groups[vid], "circle", "projector")
        assert sorted(e.get("data-side") or "" for e in projectors) == sorted(model.projectors)
        tripod = vehicle.tripod
        assert tripod is not None
        assert f"Energy {tripod.energy}/{tripod.rating}" in texts(root)
    # no firing arcs for the tripod, the airplanes keep theirs
    arcs = {g.get("data-vehicle") for g in find(root, "g", "arc")}
    assert "locust" not in arcs and {"nieuport", "camel"} <= arcs
    assert {"protected side", "heat-ray projector", "heat-ray long"} <= set(texts(root))


def test_the_heat_ray_is_drawn_as_the_ruler_edge_that_reached(catalog: Catalog) -> None:
    final, events = tripod_example(catalog)
    (ray,) = [e for e in events if isinstance(e, HeatRay)]
    assert ray.target == "nieuport" and ray.origin is not None and ray.point is not None
    root = parse(render_svg(final, events))
    (group,) = find(layer(root, "shots"), "g", "heat-ray")
    assert (group.get("data-firer"), group.get("data-target")) == ("locust", "nieuport")
    assert group.get("data-projector") == ray.projector
    (line,) = find(group, "line", "ray")
    assert ray.range in classes(line) and line.get("stroke") == RAY
    height = final.rules.table_height
    x1, y1, x2, y2 = (float(line.get(k) or "nan") for k in ("x1", "y1", "x2", "y2"))
    assert (x1 / SCALE, height - y1 / SCALE) == pytest.approx(ray.origin, abs=0.01)
    assert (x2 / SCALE, height - y2 / SCALE) == pytest.approx(ray.point, abs=0.01)
    assert f"heat-ray {ray.range} {ray.distance:.1f} cm" in texts(root)
    # the faint ruler outline goes with the reach layer
    (ruler,) = find(layer(root, "reach"), "g", "heat-ray-ruler")
    (outline,) = find(ruler, "polygon", "ruler")
    corners = points_of(outline, height)
    spec = final.rules.heat_ray_ruler("mk1-locust")
    assert corners[0] == pytest.approx(ray.origin, abs=0.01)
    assert math.dist(corners[0], corners[1]) == pytest.approx(spec.length, abs=0.01)
    assert math.dist(corners[0], corners[3]) == pytest.approx(spec.width, abs=0.01)
    no_reach = parse(render_svg(final, events, show_reach=False))
    assert find(no_reach, "g", "heat-ray-ruler") == []
    assert len(find(no_reach, "g", "heat-ray")) == 1


def test_a_shot_on_the_electrified_armour_is_labelled_armour(catalog: Catalog) -> None:
    final, events = tripod_example(catalog)
    (hit,) = [e for e in events if isinstance(e, ProtectedHit)]
    root = parse(render_svg(final, events))
    shots = {g.get("data-firer"): g for g in find(root, "g", "fired")}
    armoured = find(root, "g", "armour-shot")
    assert [g.get("data-firer") for g in armoured] == [hit.firer]
    assert [g.get("data-target") for g in armoured] == [hit.vehicle]
    assert find(shots[hit.firer], "circle", "armour-hit")
    (fired,) = [e for e in events if isinstance(e, Fired) and e.firer == hit.firer]
    assert f"{fired.range} {fired.distance:.2f} cm, armour" in texts(root)
    others = [e for e in events if isinstance(e, Fired) and e.firer != hit.firer]
    assert others, "the camel's shot hits an unprotected side"
    for other in others:
        assert "armour-shot" not in classes(shots[other.firer])
        assert f"{other.range} {other.distance:.2f} cm" in texts(root)


def test_objectives_are_drawn_and_a_destroyed_one_crossed_out(catalog: Catalog) -> None:
    final, events = adjudicate(parse_situation(toppled_and_reverse()), catalog, 1)
    assert final.objectives["depot"].destroyed and not final.objectives["farm"].destroyed
    root = parse(render_svg(final, events))
    drawn = find(layer(root, "objectives"), "g", "objective")
    groups = {g.get("data-objective") or "": g for g in drawn}
    assert sorted(groups) == ["depot", "farm"]
    radius = final.rules.catalog.constants.tripods.objective_radius
    height = final.rules.table_height
    for oid, group in groups.items():
        objective = final.objectives[oid]
        (token,) = find(group, "circle", "token")
        assert float(token.get("r") or 0) == pytest.approx(radius * SCALE)
        assert float(token.get("cx") or 0) == pytest.approx(objective.x * SCALE)
        assert float(token.get("cy") or 0) == pytest.approx((height - objective.y) * SCALE)
        crossed = find(group, "path", "cross")
        assert bool(crossed) == objective.destroyed
        assert ("destroyed" in classes(token)) == objective.destroyed
    assert groups["depot"].get("data-destroyed") == "true"
    assert "depot (destroyed)" in texts(root)
    assert "farm: no charge left" in texts(root)
    assert "objective" in texts(root)  # the legend


def test_objective_charges_are_shown(catalog: Catalog) -> None:
    final, events = tripod_example(catalog)
    root = parse(render_svg(final, events))
    assert "village: 1 charge" in texts(root)


def test_a_toppled_tripod_is_hatched_and_labelled(catalog: Catalog) -> None:
    final, events = adjudicate(parse_situation(toppled_and_reverse()), catalog, 1, 1)
    locust = final.vehicles["locust"]
    assert locust.tripod is not None and locust.tripod.toppled == 1
    svg = render_svg(final, events)
    root = parse(svg)
    groups = {g.get("data-vehicle"): g for g in find(root, "g", "vehicle")}
    (base,) = [e for e in groups["locust"] if "base" in classes(e)]
    assert "toppled" in classes(base)
    (hatched,) = find(groups["locust"], "polygon", "hatched")
    assert hatched.get("fill") == "url(#toppled-hatch)"
    assert root.find(f".//{NS}pattern[@id='toppled-hatch']") is not None
    assert "Energy 3/4 · toppled (1)" in texts(root)
    # the standing scarab is not hatched
    assert find(groups["scarab"], "polygon", "hatched") == []
    assert "toppled" not in classes(next(e for e in groups["scarab"] if "base" in classes(e)))
    assert "toppled" in texts(root)  # the legend


def test_a_backward_move_is_laid_on_the_rear_of_the_base(catalog: Catalog) -> None:
    final, events = adjudicate(parse_situation(toppled_and_reverse()), catalog, 1)
    (move,) = [e for e in events if isinstance(e, Moved) and e.vehicle == "scarab"]
    assert move.backward
    root = parse(render_svg(final, events))
    (group,) = [g for g in find(root, "g", "move") if g.get("data-vehicle") == "scarab"]
    assert group.get("data-backward") == "true"
    height = final.rules.table_height
    apothem = final.rules.hex_apothem()
    deck = final.rules.tripod_deck_of("mk2-scarab")
    (card,) = find(group, "polygon", "card")
    local = [move.start.to_local(p) for p in points_of(card, height)]
    # behind the rear side, as long and wide as the tripod deck's cards
    assert max(f for f, _ in local) == pytest.approx(-apothem, abs=0.01)
    assert min(f for f, _ in local) == pytest.approx(-apothem - deck.card_length, abs=0.01)
    assert max(left for _, left in local) - min(left for _, left in local) == pytest.approx(
        deck.card_width, abs=0.01
    )
    (start,) = find(group, "polygon", "start")
    assert len(points_of(start, height)) == 6
    (path,) = find(group, "polyline", "path")
    trail = points_of(path, height)
    assert trail[0] == pytest.approx(move.start.point, abs=0.01)
    assert trail[-1] == pytest.approx(move.end.point, abs=0.01)
    assert all(move.start.to_local(p)[0] <= 0.01 for p in trail)
    assert "card 3 backward" in texts(root)
    # forward tripod moves are laid on the front
    (walk,) = [g for g in find(root, "g", "move") if g.get("data-vehicle") == "locust"]
    assert walk.get("data-backward") is None


def test_a_heat_ray_that_reaches_nothing_is_marked_at_its_projector(catalog: Catalog) -> None:
    final, events = adjudicate(parse_situation(toppled_and_reverse()), catalog, 1)
    (ray,) = [e for e in events if isinstance(e, HeatRay)]
    assert ray.target is None
    root = parse(render_svg(final, events))
    (group,) = find(root, "g", "heat-ray")
    (mark,) = find(group, "line", "nothing")
    # fired in phase 1, before the scarab moved: off its front side at (60, 45) heading 90
    height = final.rules.table_height
    x1, y1 = float(mark.get("x1") or 0) / SCALE, height - float(mark.get("y1") or 0) / SCALE
    front = final.rules.hex_apothem()
    assert (x1, y1) == pytest.approx((60.0, 45.0 + front + 0.4), abs=0.01)
    assert "heat-ray: nothing reached" in texts(root)
    assert find(root, "g", "heat-ray-ruler") == []


def test_tripod_drawings_are_deterministic(catalog: Catalog) -> None:
    first = render_svg(*tripod_example(catalog, None), title="t")
    assert render_svg(*tripod_example(catalog, None), title="t") == first
    data = toppled_and_reverse()
    again = [
        render_svg(*adjudicate(parse_situation(data), catalog, 1), title="r") for _ in range(2)
    ]
    assert again[0] == again[1]


def test_airplane_drawings_carry_no_tripod_marks(catalog: Catalog) -> None:
    svg = render_svg(*duel(catalog))
    for mark in ("toppled-hatch", "armour", "heat-ray", "objective", ".token"):
        assert mark not in svg


# --- Standard Rules: black smoke, rockets, special damage ----------------------------

SPARK = ROOT / "examples" / "a-spark-of-hope.json"


def smoke_and_rockets() -> dict[str, Any]:
    """A locust puts black smoke behind it in phase 1; a Nieuport launches two rockets at
    it, flies into the cloud in phase 2 (dispersing it, set on fire by a Z card) and its
    rockets hit (a wound and a secret engine hit); a Camel's shot hits the circuits."""
    return situation_of(
        [
            walker(
                "locust",
                "mk1-locust",
                "martians",
                45,
                55,
                90,
                ["11", "12", "1"],
                [{"token": "black_smoke", "projector": "rear", "at": [45, 38]}, None, None],
            ),
            {
                **plane("nieuport", "nieuport-17", "earth", 45, 15, 90),
                "rockets": 2,
                "plans": [{"cards": ["2", "1", "3"], "rockets": [2, 0, 0]}],
            },
            plane("camel", "sopwith-camel", "earth", 20, 60, 0, "2", "1", "3"),
        ],
        switches={"standard_rules": True},
        damage_decks={"D": ["D2-wound", "D4-eng"], "A": ["A3", "A1-e-circ"], "Z": ["Z3-fire"]},
    )


def smoke_run(catalog: Catalog, phases: int | None = None) -> tuple[GameState, list[Event]]:
    return adjudicate(parse_situation(smoke_and_rockets()), catalog, 0, phases)


def table_point(element: ET.Element, x: str, y: str, height: float) -> tuple[float, float]:
    """An element's (x, y) attributes back in table cm."""
    return float(element.get(x) or "nan") / SCALE, height - float(element.get(y) or "nan") / SCALE


def path_ends(d: str, height: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The first and last points of ``M x,y ... x,y`` path data, in table cm."""
    words = d.replace("M", " ").replace("L", " ").split()
    pairs = [w for w in words if "," in w and not w.startswith("A")]
    first, last = (tuple(float(v) for v in pair.split(",")) for pair in (pairs[0], pairs[-1]))
    return (first[0] / SCALE, height - first[1] / SCALE), (
        last[0] / SCALE,
        height - last[1] / SCALE,
    )


def test_a_smoke_cloud_is_a_grey_circle_with_the_arc_ruler_to_its_stand(
    catalog: Catalog,
) -> None:
    final, events = smoke_run(catalog, 1)
    (placed,) = [e for e in events if isinstance(e, SmokeCloud)]
    (cloud,) = final.clouds
    assert cloud.id == placed.cloud == "smoke-1"
    root = parse(render_svg(final, events))
    height = final.rules.table_height
    (group,) = find(layer(root, "smoke"), "g", "smoke-cloud")
    assert group.get("data-cloud") == "smoke-1"
    (disc,) = find(group, "circle", "cloud")
    assert table_point(disc, "cx", "cy", height) == pytest.approx((cloud.x, cloud.y), abs=0.01)
    assert float(disc.get("r") or 0) == pytest.approx(cloud.radius * SCALE)
    assert "smoke-1" in texts(root)
    # the arc-shaped ruler: from the middle of the rear side, at a right angle, to the stand
    (smoke,) = find(root, "g", "black-smoke")
    assert (smoke.get("data-firer"), smoke.get("data-projector")) == ("locust", "rear")
    (ruler,) = find(smoke, "path", "smoke-ruler")
    d = ruler.get("d") or ""
    assert " A" in d  # a curve, not a straight line
    start, end = path_ends(d, height)
    locust = final.vehicles["locust"]
    middle = side_midpoint(locust.pose, final.rules.hex_side, Side.parse("rear"))
    assert start == pytest.approx(middle, abs=0.01)
    assert end == pytest.approx(placed.stand, abs=0.01)
    spec = final.rules.catalog.constants.tripods.smoke
    radius = float(d.split(" A")[1].split(",")[0]) / SCALE
    # tangent to the side's normal: the chord is bent by half the arc's angle
    assert math.dist(start, end) == pytest.approx(
        2 * radius * math.sin(math.radians(spec.bend)), abs=0.01
    )
    (stand,) = find(smoke, "circle", "stand")
    mark = table_point(stand, "cx", "cy", height)
    assert mark == pytest.approx(placed.stand, abs=0.01)
    assert math.dist(mark, (cloud.x, cloud.y)) <= cloud.radius
    assert "black smoke → smoke-1" in texts(root)
    assert {"black smoke cloud", "black smoke ruler"} <= set(texts(root))


def test_a_dispersed_cloud_is_drawn_dashed_where_it_was_with_who_dispersed_it(
    catalog: Catalog,
) -> None:
    final, events = smoke_run(catalog)
    assert final.clouds == []
    (placed,) = [e for e in events if isinstance(e, SmokeCloud)]
    assert any(isinstance(e, CloudDispersed) for e in events)
    root = parse(render_svg(final, events))
    height = final.rules.table_height
    (group,) = find(layer(root, "smoke"), "g", "smoke-cloud")
    assert "dispersed-cloud" in classes(group)
    assert (group.get("data-cloud"), group.get("data-dispersed-by")) == ("smoke-1", "nieuport")
    (disc,) = find(group, "circle", "dispersed")
    assert table_point(disc, "cx", "cy", height) == pytest.approx((placed.x, placed.y), abs=0.01)
    assert find(group, "path", "cross")
    assert "smoke-1 dispersed by nieuport" in texts(root)
    # the cloud's position is in its SmokeCloud event: without it, nothing is drawn
    later = events[events.index(placed) + 1 :]
    assert find(parse(render_svg(final, later)), "g", "dispersed-cloud") == []


def test_rockets_launched_in_flight_and_hitting(catalog: Catalog) -> None:
    early, early_events = smoke_run(catalog, 1)
    assert early.salvos
    root = parse(render_svg(early, early_events))
    (launch,) = find(layer(root, "rockets"), "g", "rockets-launched")
    assert (launch.get("data-firer"), launch.get("data-target")) == ("nieuport", "locust")
    assert find(launch, "path", "rocket-launch")
    assert "2 rockets → locust" in texts(root)
    assert "rockets in flight: nieuport → locust (2 rockets)" in texts(root)

    final, events = smoke_run(catalog)
    (hit,) = [e for e in events if isinstance(e, RocketsHit)]
    assert (hit.count, hit.instead_of) == (2, None)
    root = parse(render_svg(final, events))
    (group,) = find(layer(root, "rockets"), "g", "rockets-hit")
    assert (group.get("data-firer"), group.get("data-target")) == ("nieuport", "locust")
    (line,) = find(group, "line", "rocket-hit")
    height = final.rules.table_height
    # from where the Nieuport stood in phase 2 (after its straight) to the locust's centre
    assert table_point(line, "x1", "y1", height) == pytest.approx((45.0, 37.5), abs=0.01)
    assert table_point(line, "x2", "y2", height) == pytest.approx((45.0, 55.0), abs=0.01)
    assert line.get("stroke") == side_colours(final.sides())["earth"]
    assert "rockets hit (2 D cards)" in texts(root)
    assert not any("rockets in flight" in t for t in texts(root))
    assert "rockets hit" in texts(root)  # the legend


def test_rockets_on_a_blocking_airplane_and_rockets_that_missed(catalog: Catalog) -> None:
    final, _events = smoke_run(catalog, 1)
    events: list[Event] = [
        RocketsHit("nieuport", "camel", 1, "locust"),
        RocketsMissed("nieuport", "locust", "the target left the front arc"),
    ]
    root = parse(render_svg(final, events))
    (hit,) = find(root, "g", "rockets-hit")
    assert (hit.get("data-target"), hit.get("data-instead-of")) == ("camel", "locust")
    assert "rockets hit (1 D card) instead of locust" in texts(root)
    (missed,) = find(root, "g", "rockets-missed")
    (line,) = find(missed, "line", "rocket-missed")
    height = final.rules.table_height
    assert table_point(line, "x2", "y2", height) == pytest.approx(
        final.vehicles["locust"].pose.point, abs=0.01
    )
    assert "rockets missed: the target left the front arc" in texts(root)


def test_a_real_miss_after_a_turn(catalog: Catalog) -> None:
    data = situation_of(
        [
            {
                **plane("nieuport", "nieuport-17", "allies", 20, 45, 0),
                "rockets": 2,
                "plans": [{"cards": ["1", "4", "2"], "rockets": [1, 0, 0]}],
            },
            plane("albatros", "albatros-d5a", "central", 45, 45, 0, "1", "2", "3"),
        ],
        switches={"standard_rules": True},
    )
    final, events = adjudicate(parse_situation(data), catalog, 0, 2)
    (missed,) = [e for e in events if isinstance(e, RocketsMissed)]
    root = parse(render_svg(final, events))
    assert f"rockets missed: {missed.reason}" in texts(root)
    assert "1 rocket → albatros" in texts(root)


def test_announced_special_damage_is_tagged_and_secret_damage_is_not(catalog: Catalog) -> None:
    final, events = smoke_run(catalog)
    specials = [e for e in events if isinstance(e, SpecialDamage)]
    assert any(not e.announced for e in specials), "the engine hit is secret"
    assert {e.special for e in specials if e.announced} >= {"wounded_pilot", "fire", "circuits"}
    svg = render_svg(final, events)
    root = parse(svg)
    tags = {(g.get("data-vehicle"), g.get("data-tag")) for g in find(root, "g", "tag-group")}
    assert tags == {
        ("locust", "circuits hit"),
        ("locust", "wounded pilot x2"),
        ("nieuport", "on fire (3 flame counters)"),
    }
    assert {"circuits hit", "wounded pilot x2", "on fire (3 flame counters)"} <= set(texts(root))
    assert all(find(g, "rect", "tag") for g in find(root, "g", "tag-group"))
    assert "engine" not in svg and "D4-eng" not in svg
    assert "announced damage" in texts(root)  # the legend


def test_only_the_public_lasting_status_is_tagged(catalog: Catalog) -> None:
    state = build(parse_situation(smoke_and_rockets()), catalog, 0)
    state.vehicles["camel"].status = {
        "wounded": 1,
        "smoke": 2,
        "engine": 1,
        "rudder_left": 2,
    }
    state.vehicles["locust"].status = {"gyroscope": 2, "reverse_destroyed": 1, "smoke_generator": 1}
    svg = render_svg(state)
    root = parse(svg)
    tags = {(g.get("data-vehicle"), g.get("data-tag")) for g in find(root, "g", "tag-group")}
    assert tags == {("camel", "wounded pilot"), ("camel", "smoking (2 counters)")}
    for secret in ("engine", "rudder", "gyroscope", "reverse", "generator"):
        assert secret not in svg


def test_standard_rules_drawings_are_deterministic(catalog: Catalog) -> None:
    first = render_svg(*smoke_run(catalog), title="s")
    assert render_svg(*smoke_run(catalog), title="s") == first
    assert render_svg(*smoke_run(catalog, 1), title="s") == render_svg(
        *smoke_run(catalog, 1), title="s"
    )


# --- scenarios -----------------------------------------------------------------------


def spark(catalog: Catalog, phases: int | None = None) -> tuple[GameState, list[Event]]:
    final, events = adjudicate(read_situation(SPARK), catalog, 0, phases)
    assert final.scenario is catalog.scenarios["a-spark-of-hope"]
    return final, events


def test_a_scenario_draws_its_title_edge_strips_half_line_and_objective_zone(
    catalog: Catalog,
) -> None:
    final, events = spark(catalog)
    scenario = final.scenario
    assert scenario is not None
    root = parse(render_svg(final, events, title="spark"))
    assert "A Spark of Hope · spark" in texts(root)
    heading = root.find(f"{NS}title")
    assert heading is not None and heading.text == "A Spark of Hope · spark"
    colours = side_colours(final.sides())
    height, width = final.rules.table_height, final.rules.table_width
    strips = {g.get("data-side") or "": g for g in find(layer(root, "scenario"), "g", "edge-strip")}
    assert sorted(strips) == ["earth", "martians"]
    for side in scenario.sides:
        (rect,) = strips[side.name].iter(f"{NS}rect")
        assert rect.get("fill") == colours[side.name]
        assert strips[side.name].get("data-edge") == side.edge
        x, top = table_point(rect, "x", "y", height)
        w = float(rect.get("width") or 0) / SCALE
        h = float(rect.get("height") or 0) / SCALE
        assert (x, w, h) == pytest.approx((0.0, width, scenario.edge_depth))
        bottom = top - h
        expected = height - scenario.edge_depth if side.edge == "north" else 0.0
        assert bottom == pytest.approx(expected)
        assert f"{side.name} edge" in texts(root)
        assert f"{side.name} half" in texts(root)
    (half,) = find(root, "line", "half-line")
    assert table_point(half, "x1", "y1", height) == pytest.approx((0.0, height / 2))
    assert table_point(half, "x2", "y2", height) == pytest.approx((width, height / 2))
    (zone,) = find(root, "circle", "objective-zone")
    assert scenario.objectives is not None
    assert float(zone.get("r") or 0) == pytest.approx(scenario.objectives.max_from_centre * SCALE)
    assert table_point(zone, "cx", "cy", height) == pytest.approx((width / 2, height / 2))
    assert "objectives within 30 cm of the centre" in texts(root)
    assert "reserves not yet entered: nieuport-2 (earth, nieuport-17)" in texts(root)


def test_a_scenario_won_and_a_reinforcement_entering(catalog: Catalog) -> None:
    """The caption says the game's one judgement (``state.result``) in the words of
    :func:`dogfight.words.narration.ending`, as the page, the terminal and the log do."""
    final, _events = spark(catalog)
    pose = final.vehicles["nieuport"].pose
    events: list[Event] = [
        TurnStarted(3),
        PhaseStarted(3, 1),
        Reinforcement("nieuport", "nieuport-17", pose),
    ]
    won = final.copy()
    won.over, won.winner = True, "earth"
    won.result = GameOver("earth", {}, "the tripod is destroyed")
    root = parse(render_svg(won, events))
    (entry,) = find(layer(root, "scenario"), "g", "reinforcement")
    assert entry.get("data-vehicle") == "nieuport"
    assert find(entry, "polygon", "enters") and find(entry, "line", "enters")
    assert "nieuport enters" in texts(root)
    assert "Earth wins: The tripod is destroyed" in texts(root)
    drawn = final.copy()
    drawn.over = True
    drawn.result = GameOver(None, {}, "the earth side has nothing left")
    assert "A draw: The earth side has nothing left" in texts(parse(render_svg(drawn)))


def test_a_long_caption_wraps_and_grows_the_header(catalog: Catalog) -> None:
    final, _events = spark(catalog)
    plain = view_box(parse(render_svg(final)))
    won = final.copy()
    won.over, won.winner = True, "martians"
    won.result = GameOver("martians", {}, ("the Martian player drains energy " * 4).strip())
    root = parse(render_svg(won))
    lines = [t for t in texts(root) if "drains" in t]
    assert len(lines) >= 2 and lines[0].startswith("The Martians win: ")
    assert view_box(root)[1] < plain[1]  # the header grew upward


def test_the_spark_of_hope_renders_through_the_command(tmp_path: Path) -> None:
    out = tmp_path / "spark.svg"
    result = CliRunner().invoke(app, ["render", str(SPARK), "-o", str(out)])
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    assert any(t.startswith("A Spark of Hope · a-spark-of-hope.json") for t in texts(root))
    assert len(find(root, "g", "edge-strip")) == 2
    assert len(find(root, "g", "objective")) == 4


def test_scenario_drawings_are_deterministic(catalog: Catalog) -> None:
    assert render_svg(*spark(catalog), title="x") == render_svg(*spark(catalog), title="x")


def test_plain_drawings_carry_no_standard_rules_or_scenario_marks(catalog: Catalog) -> None:
    for svg in (render_svg(*duel(catalog)), render_svg(*tripod_example(catalog))):
        marks = ("cloud", "rocket", "smoke-ruler", "tag", "strip", "half-line", "scenario")
        for mark in marks:
            assert f'class="{mark}' not in svg and f".{mark}" not in svg
        assert 'id="scenario"' not in svg and "enters" not in svg

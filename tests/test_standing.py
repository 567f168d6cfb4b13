"""Referee mode: ``"move": false`` rules on the table as it stands (issue 12, item 9).

000: "If an edge of the ruler can reach any point of the base of an enemy ... while
staying within the firing arc of the attacking airplane ... the attacking airplane can
fire at its opponent." / "A weapon using a ruler ... may not fire through other vehicles,
enemy or friendly."
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import shapely
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from dogfight.catalog.loader import load_catalog
from dogfight.geometry.cover import hidden_by, polygons, reachable, sector
from dogfight.geometry.pose import Pose
from dogfight.geometry.reach import Arc, sight
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.render.svg import render_svg
from dogfight.rules.standing import LineOfFire, TableRuling
from dogfight.situation.format import parse_situation
from dogfight.situation.ruling import judge

CATALOG = load_catalog()
C = CATALOG.constants
RULER = C.ruler.length
FRONT = Arc(C.arcs.front.centre, C.arcs.front.width)
REAR = Arc(C.arcs.rear.centre, C.arcs.rear.width)
EXAMPLES = Path(__file__).parent.parent / "examples"
# The ruler's circle is a polygon of 256 sides inscribed in it (geometry/cover.py).
ROUNDING = RULER * (1 - math.cos(math.pi / 256)) + 1e-6


def base(pose: Pose) -> Polygon:
    return rectangle(pose, C.airplane_base.length, C.airplane_base.width)


def table(vehicles: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    return {"move": False, "vehicles": vehicles, **more}


def plane(vid: str, kind: str, side: str, x: float, y: float, heading: float) -> dict[str, Any]:
    return {"id": vid, "type": kind, "side": side, "pose": {"x": x, "y": y, "heading": heading}}


def ruling_of(data: dict[str, Any]) -> TableRuling:
    done = judge(parse_situation(data), CATALOG)
    assert done.events == [] and done.ruling is not None
    return done.ruling


def line(ruling: TableRuling, firer: str, target: str, weapon: str = "front") -> LineOfFire:
    return next(x for x in ruling.lines if (x.firer, x.target, x.weapon) == (firer, target, weapon))


# ----------------------------------------------------------------- situations


def test_clear_shot_nothing_flown() -> None:
    """A clear shot: the ruler reaches, nothing hides any of the target; the reachable
    part is the front of the target's base facing the firer, and nobody moved."""
    data = table(
        [
            plane("spad", "spad-xiii", "allies", 30, 45, 0),
            plane("fokker", "fokker-dr1", "central", 40, 45, 180),
        ]
    )
    done = judge(parse_situation(data), CATALOG)
    assert done.state.vehicles["spad"].pose == Pose(30, 45, 0)
    assert done.ruling is not None
    shot = line(done.ruling, "spad", "fokker")
    assert (shot.verdict, shot.range, shot.can_fire) == ("clear", "short", True)
    assert math.isclose(shot.distance or 0, 10 - C.airplane_base.length / 2)
    assert shot.blockers == () and shot.shadows == ()
    assert len(shot.reachable) == 1
    # the fokker's whole base is within the ruler; the 60° arc cuts off its far corners
    assert (
        0 < shapely.Polygon(shot.reachable[0]).area <= shapely.Polygon(base(Pose(40, 45, 180))).area
    )


def test_blocked_shot_names_the_blocker_and_reaches_nothing() -> None:
    """A base between firer and target hides all of it: blocked, by whom, with the
    blocker's shadow and no reachable part."""
    data = json.loads((EXAMPLES / "standing.json").read_text())
    ruling = ruling_of(data)
    shot = line(ruling, "spad", "pfalz")
    assert (shot.verdict, shot.can_fire, shot.blockers) == ("blocked", False, ("camel",))
    assert shot.reachable == () and shot.point is None
    assert [s.blocker for s in shot.shadows] == ["camel"]
    hidden = shapely.union_all([shapely.Polygon(p) for p in shot.shadows[0].area])
    pfalz = shapely.Polygon(base(Pose(54, 52, 180)))
    assert pfalz.difference(hidden).area < 1e-6  # the whole pfalz lies in the shadow


def test_partly_blocked_shot_reaches_the_rest() -> None:
    """Part of the target is hidden: the ruler reaches the rest, and the reachable part
    is what the shadow leaves of the base."""
    ruling = ruling_of(json.loads((EXAMPLES / "standing.json").read_text()))
    shot = line(ruling, "spad", "fokker")
    assert (shot.verdict, shot.range, shot.blockers) == ("partly blocked", "long", ("camel",))
    assert shot.can_fire
    fokker = shapely.Polygon(base(Pose(55, 45, 180)))
    part = shapely.union_all([shapely.Polygon(p) for p in shot.reachable])
    assert 0.1 * fokker.area < part.area < 0.9 * fokker.area
    hidden = shapely.union_all([shapely.Polygon(p) for p in shot.shadows[0].area])
    assert part.intersection(hidden).area < 1e-6


def test_out_of_arc_and_range_and_overlap() -> None:
    """Every enemy pair gets a verdict: out of arc, out of range (with how far), and
    overlapping bases, which cannot fire at each other."""
    data = table(
        [
            plane("spad", "spad-xiii", "allies", 30, 45, 0),
            plane("behind", "fokker-dr1", "central", 10, 45, 0),
            plane("far", "fokker-dr1", "central", 70, 45, 180),
            plane("touching", "fokker-dr1", "central", 33, 46, 180),
        ]
    )
    ruling = ruling_of(data)
    assert line(ruling, "spad", "behind").verdict == "out of arc"
    far = line(ruling, "spad", "far")
    assert far.verdict == "out of range" and (far.distance or 0) > RULER
    assert line(ruling, "spad", "touching").verdict == "overlapping"


def test_jammed_gun_is_silent_but_geometry_is_kept() -> None:
    data = table(
        [
            {**plane("spad", "spad-xiii", "allies", 30, 45, 0), "jams": {"front": 2}},
            plane("fokker", "fokker-dr1", "central", 40, 45, 180),
        ]
    )
    shot = line(ruling_of(data), "spad", "fokker")
    assert shot.verdict == "clear" and not shot.can_fire
    assert shot.silent is not None and "jammed" in shot.silent


def test_two_seater_rear_gun_and_tripod_heat_ray() -> None:
    """Rear guns are ruled with the rear arc; a tripod's heat-ray projectors list what
    they reach."""
    data = table(
        [
            plane("bristol", "bristol-f2b", "allies", 30, 45, 0),
            plane("fokker", "fokker-dr1", "central", 20, 45, 0),
            {
                "id": "locust",
                "type": "mk1-locust",
                "side": "martians",
                "pose": {"x": 30, "y": 60, "heading": 270},
            },
        ]
    )
    ruling = ruling_of(data)
    assert line(ruling, "bristol", "fokker", "rear").verdict == "clear"
    rays = [x for x in ruling.lines if x.firer == "locust"]
    assert rays and all(x.weapon.startswith("heat-ray ") for x in rays)
    assert {x.target for x in rays} <= {"bristol", "fokker"}


def test_render_draws_shadow_and_reachable_part() -> None:
    done = judge(parse_situation(json.loads((EXAMPLES / "standing.json").read_text())), CATALOG)
    svg = render_svg(done.state, done.events, title="t", ruling=done.ruling)
    assert '<g id="shadows"' in svg and 'data-blocker="camel"' in svg
    assert 'class="reachable-part" data-firer="spad" data-target="fokker"' in svg
    assert 'data-target="pfalz"' in svg and "blocked by camel" in svg
    assert "referee mode" in svg
    assert 'class="reachable-part" data-firer="spad" data-target="pfalz"' not in svg


# ----------------------------------------------------------------- command line


def dogfight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dogfight", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_adjudicate_and_render_rule_as_it_stands(tmp_path: Path) -> None:
    result = dogfight("adjudicate", str(EXAMPLES / "standing.json"))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["events"] == []
    verdicts = {(x["firer"], x["target"]): x["verdict"] for x in out["ruling"]["lines"]}
    assert verdicts[("spad", "pfalz")] == "blocked"
    assert verdicts[("spad", "fokker")] == "partly blocked"
    svg = tmp_path / "t.svg"
    result = dogfight("render", str(EXAMPLES / "standing.json"), "-o", str(svg))
    assert result.returncode == 0, result.stderr
    assert 'id="shadows"' in svg.read_text()


def test_cli_bad_move_is_refused(tmp_path: Path) -> None:
    """``move`` must be a JSON boolean ("no" or 0 are not quietly read as false); a
    standing table takes no plans. One message, exit 2, no file written."""
    data = json.loads((EXAMPLES / "standing.json").read_text())
    for bad, needle in (("no", "move"), (0, "move")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**data, "move": bad}))
        out = tmp_path / "out.svg"
        for args in (("adjudicate", str(path)), ("render", str(path), "-o", str(out))):
            result = dogfight(*args)
            assert result.returncode == 2, result.stderr
            assert "Traceback" not in result.stderr and needle in result.stderr
        assert not out.exists()
    data["vehicles"][0]["plans"] = [{"cards": ["1", "2", "3"]}]
    path.write_text(json.dumps(data))
    result = dogfight("adjudicate", str(path))
    assert result.returncode == 2 and "vehicles[0].plans" in result.stderr
    assert '"move": false' in result.stderr


# ----------------------------------------------------------------- geometry properties

coords = st.floats(min_value=-40, max_value=40, allow_nan=False)
headings = st.floats(min_value=0, max_value=360, allow_nan=False, exclude_max=True)
poses = st.builds(Pose, coords, coords, headings)
arcs = st.sampled_from([FRONT, REAR])
PROPS = settings(max_examples=120, deadline=None)


def _apart(*bases: Polygon) -> bool:
    shapes = [shapely.Polygon(b) for b in bases]
    return all(
        not shapes[i].intersects(shapes[j])
        for i in range(len(shapes))
        for j in range(i + 1, len(shapes))
    )


@PROPS
@given(poses, poses, arcs, st.lists(poses, max_size=3))
def test_reachable_part_is_inside_target_arc_and_ruler(
    firer: Pose, target: Pose, arc: Arc, others: list[Pose]
) -> None:
    """The reachable part lies in the target's base, inside the arc's sector and within
    the ruler of the firing dot; it is empty when the ruler cannot reach the base."""
    assume(_apart(base(firer), base(target), *[base(o) for o in others]))
    blockers = [base(o) for o in others]
    part = reachable(firer, arc, base(target), RULER, blockers)
    if part.is_empty:
        return
    assert part.difference(shapely.Polygon(base(target)).buffer(1e-6)).area < 1e-9
    assert part.difference(sector(firer, arc, RULER).buffer(1e-6)).area < 1e-9
    far = (
        max(math.dist(firer.point, p) for piece in polygons(part) for p in piece)
        if polygons(part)
        else 0.0
    )
    assert far <= RULER + 1e-6


@PROPS
@given(poses, poses, arcs)
def test_reachable_part_empty_beyond_the_ruler(firer: Pose, target: Pose, arc: Arc) -> None:
    assume(_apart(base(firer), base(target)))
    seen = sight(firer, arc, base(target), RULER)
    part = reachable(firer, arc, base(target), RULER)
    if seen.arc_distance > RULER:
        assert part.area == 0
    elif seen.arc_distance < RULER - 0.05:
        assert part.area > 0 or (seen.region and shapely.Polygon(seen.region).area < 1e-6)


@PROPS
@given(poses, poses, arcs, st.lists(poses, min_size=1, max_size=3))
def test_reachable_part_agrees_with_the_engine(
    firer: Pose, target: Pose, arc: Arc, others: list[Pose]
) -> None:
    """Where the engine's ruler reaches nothing, no area is reachable; where the area
    has substance, the engine's nearest reachable point is as near as any of it."""
    assume(_apart(base(firer), base(target), *[base(o) for o in others]))
    blockers = [base(o) for o in others]
    seen = sight(firer, arc, base(target), RULER, blockers)
    part = reachable(firer, arc, base(target), RULER, blockers)
    if not seen.reachable(RULER):
        assert part.area < 1e-6
    if part.area > 1e-3:
        assert seen.reachable(RULER + ROUNDING)
        nearest = part.distance(shapely.Point(firer.point))
        assert seen.distance <= nearest + 1e-6


@PROPS
@given(poses, poses, poses, arcs)
@example(  # once left a sliver of no area in the shadow, and GEOS then found the
    # whole blocker inside the shadow cut out of it
    Pose(0.0, -3.0, 27.0),
    Pose(0.0, 4.0, 0.0),
    Pose(0.0, -13.0, 345.75),
    Arc(centre=180.0, width=120.0),
)
@example(  # the shadow's sides ran along the base's edges, and GEOS kept a corner of
    # the base in the shadow cut out of it
    Pose(0.0, 29.875, 283.5),
    Pose(0.0, 5.0, 0.0),
    Pose(1.0, -2.0, 26.0),
    Arc(centre=0.0, width=60.0),
)
def test_nothing_reachable_lies_in_a_blockers_shadow(
    firer: Pose, target: Pose, other: Pose, arc: Arc
) -> None:
    """The reachable part never overlaps what a blocker hides; the shadow lies inside the
    sector and outside the blocker's base."""
    assume(_apart(base(firer), base(target), base(other)))
    hidden = hidden_by(firer, arc, RULER, base(other))
    part = reachable(firer, arc, base(target), RULER, [base(other)])
    assert part.intersection(hidden).area < 1e-6
    assert hidden.difference(sector(firer, arc, RULER).buffer(1e-6)).area < 1e-9
    assert hidden.intersection(shapely.Polygon(base(other))).area < 1e-9


def test_simulate_refuses_a_standing_table() -> None:
    """A standing table is a ruling: ``simulate`` says so instead of playing it."""
    result = dogfight("simulate", str(EXAMPLES / "standing.json"), "--games", "1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "dogfight adjudicate" in result.stderr


def test_a_secret_reason_stays_with_its_owner() -> None:
    """An observer out (002) is lasting damage only its owner sees: the referee's ruling
    says the rear gun is silent, the other side's view does not."""
    data = table(
        [
            {**plane("bristol", "bristol-f2b", "allies", 30, 45, 0), "status": {"observer": 1}},
            plane("fokker", "fokker-dr1", "central", 20, 45, 0),
        ]
    )
    ruling = ruling_of(data)
    rear = line(ruling, "bristol", "fokker", "rear")
    assert rear.verdict == "clear" and rear.silent == "observer incapacitated (002)"
    assert rear.as_dict()["can_fire"] is False
    assert rear.as_dict({"bristol"})["silent"] is not None
    seen = rear.as_dict({"fokker"})
    assert seen["silent"] is None and seen["can_fire"] is True


def test_a_standing_table_is_not_a_game_on_the_server(tmp_path: Path) -> None:
    """Referee mode rules on the table as it stands; a game made from it could never move:
    422 naming situation.move, and no game stored."""
    from server_helpers import client

    standing = json.loads((Path(__file__).parent.parent / "examples" / "standing.json").read_text())
    with client(tmp_path / "g.sqlite") as c:
        answer = c.post("/api/games", json={"situation": standing})
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "situation.move"
        assert "dogfight adjudicate" in answer.json()["error"]
        assert c.get("/api/games").json()["games"] == []

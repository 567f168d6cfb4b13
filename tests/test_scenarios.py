"""The scenarios of Tripods & Triplanes (000, "TRIPODS & TRIPLANES SCENARIOS"): First Contact,
its two-tripod variant and A Spark of Hope, shipped as data (``catalog/data/scenarios``).

Placement and objectives are checked when a situation is built (a :class:`DataError`
naming the field and saying why); reinforcements arrive and victory is judged by the
engine. The ace skills of the scenarios (Itchy Trigger Finger, Sniper) are tested on plain
duels, with stacked damage decks.

The Martian side is the north edge (y = 90), the Earth side the south edge (y = 0).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import HOLD, Json, of, plain, plan, plane, situation, state_of
from test_rules_tripods import (
    APOTHEM,
    STANDS,
    STEPS,
    STILL_PLAN,
    cards,
    destroy,
    land,
    next_phase,
    ray,
    recharge,
    tplan,
    tripod,
)

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import Skill
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose
from dogfight.rules.engine import start_turn
from dogfight.rules.events import (
    DamageDrawn,
    Eliminated,
    Event,
    Fired,
    GameOver,
    HeatRay,
    LeftArea,
    PhaseStarted,
    Reinforcement,
    ScenarioWon,
    SkillUsed,
)
from dogfight.rules.plans import Plan
from dogfight.rules.state import GameState
from dogfight.situation.format import read_situation
from dogfight.situation.ruling import adjudicate

CATALOG = load_catalog()
RULER = CATALOG.constants.ruler.length
LOCUST = "mk1-locust"
MK1 = CATALOG.tripods[LOCUST]
NIEUPORT = "nieuport-17"
SPARK = "a-spark-of-hope"
FIRST = "first-contact"
VARIANT = "first-contact-two-tripods"
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "a-spark-of-hope.json"

Where = tuple[float, float, float]

# Objectives no more than one ruler from the centre and at least one ruler apart.
SPARK_OBJECTIVES = [
    {"id": "farm", "x": 30.0, "y": 30.0},
    {"id": "mill", "x": 60.0, "y": 30.0},
    {"id": "church", "x": 30.0, "y": 60.0},
    {"id": "bridge", "x": 60.0, "y": 60.0},
]
FIRST_OBJECTIVES = [
    {"id": "farm", "x": 45.0, "y": 20.0},
    {"id": "mill", "x": 25.0, "y": 55.0},
    {"id": "church", "x": 65.0, "y": 55.0},
]


def pentagon_and_centre(cx: float, cy: float) -> list[Json]:
    """Six objectives: the centre and five points one ruler from it (35 cm apart)."""
    out: list[Json] = [{"id": "o0", "x": cx, "y": cy}]
    for k in range(5):
        angle = math.radians(90.0 + 72.0 * k)
        out.append(
            {
                "id": f"o{k + 1}",
                "x": cx + RULER * math.cos(angle),
                "y": cy + RULER * math.sin(angle),
            }
        )
    return out


LOCUST_HOME: Where = (45.0, 84.0, 270.0)  # along the Martian edge, facing the Earth side
STILL = tplan(*STILL_PLAN)
QUIET = ("4", "5", "6")  # the Nieuport turns left, right, left: no straight needed


def pose(where: Where) -> Json:
    return {"x": where[0], "y": where[1], "heading": where[2]}


def entry(vid: str, where: Where, plans: Sequence[Json], **extra: Any) -> Json:
    return {"id": vid, "pose": pose(where), "plans": list(plans), **extra}


def spark(
    *,
    locust: Where = LOCUST_HOME,
    nieuport: Where = (45.0, 20.0, 90.0),
    locust_plan: Json = STILL,
    nieuport_plan: Json | None = None,
    objectives: Sequence[Json] = SPARK_OBJECTIVES,
    reinforcements: Sequence[Json] = (),
    nieuport_type: str | None = NIEUPORT,
    **kw: Any,
) -> Json:
    """A Spark of Hope: the Locust and the first Nieuport."""
    n = entry("nieuport", nieuport, [nieuport_plan or plan(*QUIET, fire=list(HOLD))])
    if nieuport_type is not None:
        n["type"] = nieuport_type
    out: Json = {
        "scenario": SPARK,
        "objectives": list(objectives),
        "vehicles": [entry("locust", locust, [locust_plan]), n],
        **kw,
    }
    if reinforcements:
        out["reinforcements"] = list(reinforcements)
    return out


def first_contact(
    *,
    locust: Where = LOCUST_HOME,
    locust_plan: Json = STILL,
    planes: Mapping[str, Where] | None = None,
    types: Mapping[str, str] | None = None,
    objectives: Sequence[Json] = FIRST_OBJECTIVES,
    **kw: Any,
) -> Json:
    """First Contact: the Locust against "first" (Itchy Trigger Finger) and "second"
    (Sniper)."""
    where = {"first": (30.0, 20.0, 90.0), "second": (60.0, 20.0, 90.0), **(planes or {})}
    kinds = {"first": "spad-xiii", "second": "nieuport-17", **(types or {})}
    vehicles = [entry("locust", locust, [locust_plan])]
    for vid in ("first", "second"):
        vehicles.append(entry(vid, where[vid], [plan(*QUIET, fire=list(HOLD))], type=kinds[vid]))
    return {"scenario": FIRST, "objectives": list(objectives), "vehicles": vehicles, **kw}


def built(sit: Json) -> GameState:
    return state_of(sit)


def refused(sit: Json) -> DataError:
    with pytest.raises(DataError) as error:
        state_of(sit)
    return error.value


class Match:
    """A scenario game driven phase by phase; airplanes end each maneuver where asked."""

    def __init__(self, sit: Json) -> None:
        state = state_of(sit)
        chosen = {v["id"]: Plan.model_validate(v["plans"][0]) for v in sit["vehicles"]}
        self.state, self.events = start_turn(state, chosen)

    def put(self, vid: str, where: Where) -> None:
        """Move a vehicle by hand (between phases)."""
        self.state.vehicles[vid].pose = Pose(*where)

    def phase(self, at: Mapping[str, Where] | None = None) -> list[Event]:
        for vid, (x, y, heading) in (at or {}).items():
            land(self.state, vid, x, y, heading)
        self.state, events = next_phase(self.state)
        self.events.extend(events)
        return events

    def turn(self, plans: Mapping[str, Json]) -> None:
        chosen = {vid: Plan.model_validate(p) for vid, p in plans.items()}
        self.state, events = start_turn(self.state, chosen)
        self.events.extend(events)


def phase_of(events: Sequence[Event], wanted: Event) -> tuple[int, int]:
    key = (0, 0)
    for event in events:
        if isinstance(event, PhaseStarted):
            key = (event.turn, event.phase)
        if event is wanted:
            return key
    raise LookupError(wanted)


# --- the scenario files ------------------------------------------------------------------------


def test_the_three_scenarios_load() -> None:
    """000 TRIPODS & TRIPLANES SCENARIOS: First Contact ("Gaming Surface: Length: 90 cm.
    Width: 90 cm." / "Three Objective tokens" / "Two airplanes of your choice" / "One pilot
    has the Itchy Trigger Finger skill ...; another pilot has the Sniper skill"), its
    variant ("two tripods against four airplanes, increasing the gaming surface to at
    least 120 x 90 cm and the number of objectives to six") and A Spark of Hope ("Four
    Objective tokens" / "A rocket-armed Nieuport ... The pilot has the Itchy Trigger Finger
    skill" / "a second rocket-armed Nieuport ... the pilot has the Sniper skill")."""
    scenarios = CATALOG.scenarios
    assert {SPARK, FIRST, VARIANT} <= set(scenarios)
    for sid, size, count, tripods, planes in [
        (FIRST, (90.0, 90.0), 3, 1, 2),
        (VARIANT, (120.0, 90.0), 6, 2, 4),
        (SPARK, (90.0, 90.0), 4, 1, 1),
    ]:
        s = scenarios[sid]
        assert (s.table.width, s.table.height) == size
        assert s.objectives is not None
        assert s.objectives.count == count
        assert s.objectives.max_from_centre == s.objectives.min_apart == RULER
        assert s.switches.get("standard_rules") is True  # rockets, specials
        kinds = [v.types for v in s.vehicles]
        assert sum(1 for t in kinds if t == [LOCUST]) == tripods
        assert len(s.vehicles) - tripods == planes
    first = {v.id: v for v in scenarios[FIRST].vehicles}
    assert first["first"].skills == [Skill.ITCHY_TRIGGER_FINGER]
    assert first["second"].skills == [Skill.SNIPER]
    assert first["first"].types == []  # "airplanes of your choice"
    spark_vehicles = {v.id: v for v in scenarios[SPARK].vehicles}
    nieuport = spark_vehicles["nieuport"]
    assert (nieuport.rockets, nieuport.skills) == (2, [Skill.ITCHY_TRIGGER_FINGER])
    (second,) = scenarios[SPARK].reinforcements
    assert (second.rockets, second.skills, second.when_gone) == (2, [Skill.SNIPER], ["nieuport"])
    assert second.min_distance is not None and second.min_distance.distance == RULER


def test_the_spark_of_hope_example_plays() -> None:
    """The shipped example (examples/a-spark-of-hope.json) builds and plays: the Nieuport is
    rocket-armed with the Itchy Trigger Finger skill, the Standard Rules are on."""
    situation_in = read_situation(EXAMPLE)
    state, events = adjudicate(situation_in, CATALOG, 0)
    nieuport = state.vehicles["nieuport"]
    assert nieuport.skills == (Skill.ITCHY_TRIGGER_FINGER,)
    assert state.rules.switches.standard_rules
    assert (state.rules.table_width, state.rules.table_height) == (90.0, 90.0)
    assert len(state.objectives) == 4
    assert events


def test_scenario_sets_rockets_skills_and_the_standard_rules() -> None:
    """000 A SPARK OF HOPE: "A rocket-armed Nieuport ... The pilot has the Itchy Trigger
    Finger skill"; ROCKETS: "place two rocket counters on the consoles of those
    airplanes"."""
    state = built(spark())
    nieuport = state.vehicles["nieuport"]
    assert (nieuport.rockets, nieuport.skills) == (2, (Skill.ITCHY_TRIGGER_FINGER,))
    assert nieuport.side == "earth" and state.vehicles["locust"].side == "martians"
    assert state.rules.switches.standard_rules
    assert "nieuport-2" not in state.vehicles  # it waits


# --- placement --------------------------------------------------------------------------------


@pytest.mark.parametrize("build", [spark, first_contact], ids=[SPARK, FIRST])
def test_locust_along_the_martian_edge(build: Any) -> None:
    """000: "Martian player: A Martian Mk I "Locust" tripod at any point along the Martian
    side of the table." Deep in the table it is refused, the error naming the pose and
    saying why."""
    for x in (5.0, 45.0, 85.0):
        built(build(locust=(x, 85.0, 270.0)))
    error = refused(build(locust=(45.0, 60.0, 270.0)))
    assert error.field == "vehicles[0].pose"
    assert "martians" in error.allowed and "side" in error.allowed
    error = refused(build(locust=(45.0, 95.0, 270.0)))
    assert error.field == "vehicles[0].pose"


def test_airplanes_on_the_earth_side() -> None:
    """000 A SPARK OF HOPE: "A rocket-armed Nieuport anywhere on the Earth side of the
    table." FIRST CONTACT: "Two airplanes of your choice, are placed anywhere on the Earth
    side of the table." Across the middle line they are refused."""
    built(spark(nieuport=(10.0, 44.0, 0.0)))
    error = refused(spark(nieuport=(45.0, 50.0, 90.0)))
    assert error.field == "vehicles[1].pose"
    assert "earth" in error.allowed and "side" in error.allowed
    built(first_contact(planes={"second": (80.0, 40.0, 90.0)}))
    error = refused(first_contact(planes={"second": (80.0, 70.0, 90.0)}))
    assert error.field == "vehicles[2].pose"
    assert "earth" in error.allowed


# --- objectives ---------------------------------------------------------------------------------


def test_objectives_count_and_placement() -> None:
    """000 A SPARK OF HOPE: "Four Objective tokens ... are placed at no more than one
    airplane ruler from the center of the playing area and at no less than one ruler from
    each other." FIRST CONTACT: "Three Objective tokens ... are set at no more than one
    airplane ruler from the center of the playing area and at no less than one ruler from
    each other." """
    built(spark())
    built(first_contact())
    error = refused(spark(objectives=SPARK_OBJECTIVES[:3]))
    assert error.field == "objectives" and "4" in error.allowed
    error = refused(first_contact(objectives=SPARK_OBJECTIVES))
    assert error.field == "objectives" and "3" in error.allowed
    far = [*SPARK_OBJECTIVES[:3], {"id": "bridge", "x": 45.0 + RULER + 1.0, "y": 45.0}]
    error = refused(spark(objectives=far))
    assert error.field == "objectives"
    assert "bridge" in error.allowed and "centre" in error.allowed
    close = [*SPARK_OBJECTIVES[:3], {"id": "bridge", "x": 45.0, "y": 45.0}]
    error = refused(spark(objectives=close))
    assert error.field == "objectives"
    assert "bridge" in error.allowed and "apart" in error.allowed


# --- allowed models ---------------------------------------------------------------------------


def test_allowed_vehicle_types() -> None:
    """000 A SPARK OF HOPE: "at least one Wings of Glory airplane (preferably a Nieuport 11
    or 17)" / "A Martian Mk I "Locust" tripod"; FIRST CONTACT: "Two airplanes of your
    choice". A Spark of Hope refuses an A-firing airplane and another tripod model; First
    Contact takes any airplane."""
    for kind in ("nieuport-11", "nieuport-17"):
        assert built(spark(nieuport_type=kind)).vehicles["nieuport"].type == kind
    assert CATALOG.airplane("spad-xiii").firepower == ["A"]
    error = refused(spark(nieuport_type="spad-xiii"))
    assert error.field == "vehicles[1].type"
    sit = spark()
    sit["vehicles"][0]["type"] = "mk2-scarab"
    error = refused(sit)
    assert error.field == "vehicles[0].type"
    state = built(first_contact(types={"first": "fokker-dr1", "second": "bristol-f2b"}))
    assert state.vehicles["first"].skills == (Skill.ITCHY_TRIGGER_FINGER,)
    assert state.vehicles["second"].skills == (Skill.SNIPER,)


def test_spark_of_hope_takes_another_b_firing_airplane_rocket_armed() -> None:
    """000 A SPARK OF HOPE: "If you do not have a Nieuport, you can use another B-firing
    airplane. The airplane is assumed to be rocket-armed." """
    assert CATALOG.airplane("spad-vii").firepower == ["B"]
    state = built(spark(nieuport_type="spad-vii"))
    assert (state.vehicles["nieuport"].type, state.vehicles["nieuport"].rockets) == ("spad-vii", 2)


# --- reinforcement ------------------------------------------------------------------------------


def spark_losing_the_nieuport(how: str, **kw: Any) -> Match:
    """A Spark of Hope in which the first Nieuport is gone in phase 1: it flies off the
    south edge, or the Locust's heat-ray finishes it."""
    if how == "exits":
        sit = spark(nieuport=(45.0, 3.0, 270.0), nieuport_plan=plan("1", "2", "3"), **kw)
        return Match(sit)
    sit = spark(
        locust_plan=tplan(*STILL_PLAN, actions=[ray(), None, None]),
        damage_decks={MK1.firepower: plain(MK1.firepower, 2)},
        **kw,
    )
    sit["vehicles"][1]["damage"] = CATALOG.airplane(NIEUPORT).damage - 1
    match = Match(sit)
    land(match.state, "nieuport", 45.0, 70.0, 90.0)  # in front of the Locust
    return match


@pytest.mark.parametrize("how", ["exits", "eliminated"])
def test_second_nieuport_arrives_at_the_end_of_the_turn(how: str) -> None:
    """000 A SPARK OF HOPE: "If the plane is eliminated or exits the table, a second
    rocket-armed Nieuport appears at any point on the Earth side of the table at more than
    one airplane ruler from the tripod; the pilot has the Sniper skill". It comes at the
    end of the turn (ruling SC5), and the game goes on meanwhile."""
    match = spark_losing_the_nieuport(how)
    events = match.phase()
    gone = of(events, LeftArea) if how == "exits" else of(events, Eliminated)
    assert [e.vehicle for e in gone] == ["nieuport"]
    assert not match.state.over
    match.phase()
    assert "nieuport-2" not in match.state.vehicles
    events = match.phase()
    (arrival,) = of(events, Reinforcement)
    assert arrival.vehicle == "nieuport-2"
    second = match.state.vehicles["nieuport-2"]
    assert second.in_play and second.side == "earth"
    assert (second.skills, second.rockets) == ((Skill.SNIPER,), 2)
    assert second.type in ("nieuport-17", "nieuport-11", "nieuport-16")
    assert second.pose.y < 45.0  # the Earth half
    assert math.dist(second.pose.point, match.state.vehicles["locust"].pose.point) > RULER
    assert not match.state.over
    # it plans with everyone else from the next turn
    match.turn({"locust": STILL, "nieuport-2": plan(*QUIET, fire=list(HOLD))})
    match.phase()


def test_second_nieuport_kept_more_than_a_ruler_from_the_tripod() -> None:
    """000 A SPARK OF HOPE: the second Nieuport "appears at any point on the Earth side of
    the table at more than one airplane ruler from the tripod". Asked for right next to a
    Locust that came down to the Earth side, it appears farther away."""
    asked = [{"id": "nieuport-2", "pose": {"x": 45.0, "y": 30.0, "heading": 90.0}}]
    match = spark_losing_the_nieuport("exits", reinforcements=asked)
    match.put("locust", (45.0, 40.0, 270.0))
    for _ in range(3):
        match.phase()
    second = match.state.vehicles["nieuport-2"]
    assert 0.0 <= second.pose.x <= 90.0 and 0.0 <= second.pose.y < 45.0
    assert math.dist(second.pose.point, match.state.vehicles["locust"].pose.point) > RULER


def test_second_nieuport_asked_on_the_martian_side() -> None:
    """000 A SPARK OF HOPE: the second Nieuport "appears at any point on the Earth side of
    the table". Asked for on the Martian half, either the request is refused when the
    situation is built, or the Nieuport still appears on the Earth side."""
    asked = [{"id": "nieuport-2", "pose": {"x": 20.0, "y": 60.0, "heading": 90.0}}]
    try:
        match = spark_losing_the_nieuport("exits", reinforcements=asked)
    except DataError as error:
        assert error.field.startswith("reinforcements")
        return
    for _ in range(3):
        match.phase()
    second = match.state.vehicles["nieuport-2"]
    assert second.in_play and second.pose.y < 45.0
    assert math.dist(second.pose.point, match.state.vehicles["locust"].pose.point) > RULER


# --- victory --------------------------------------------------------------------------------------


def won(match: Match) -> str | None:
    assert match.state.over
    (over,) = of(match.events, GameOver)
    assert over.winner == match.state.winner
    (judged,) = of(match.events, ScenarioWon)
    assert judged.winner == match.state.winner
    return match.state.winner


@pytest.mark.parametrize("scenario", [SPARK, FIRST])
def test_earth_wins_by_destroying_the_locust(scenario: str) -> None:
    """000: "Victory Conditions: The Earth player wins if he destroys the tripod." An
    airplane behind the Locust's unprotected rear finishes it."""
    fire = plan(*QUIET, fire=["auto", "none", "none"])
    if scenario == SPARK:
        sit = spark(nieuport_plan=fire)
        shooter = "nieuport"
    else:
        sit = first_contact()
        sit["vehicles"][1]["plans"] = [fire]
        shooter = "first"
    sit["vehicles"][0]["damage"] = MK1.damage - 2
    sit["damage_decks"] = {"A": plain("A", 2), "B": plain("B", 2)}
    match = Match(sit)
    match.put("locust", (45.0, 50.0, 270.0))
    events = match.phase({shooter: (45.0, 50.0 + APOTHEM + 20.0, 270.0)})
    assert [e.firer for e in of(events, Fired)] == [shooter]
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("locust", "shot_down")]
    assert won(match) == "earth"


def locust_raids(
    sit: Json, token: Json, preset: Sequence[str], flag: str, exit_north: bool
) -> Match:
    """The Locust drains ("recharge" token) or destroys the objective "farm" standing on it
    in phase 1 (the ``preset`` objectives are already drained or destroyed: ``flag``), then
    is carried to an edge and walks off the table in phase 2."""
    sit["vehicles"][0]["plans"] = [
        tplan(STANDS[0], STEPS[0], STANDS[1], actions=[token, None, None])
    ]
    sit["vehicles"][0]["energy"] = 1
    match = Match(sit)
    for oid in preset:
        setattr(match.state.objectives[oid], flag, True)
    farm = match.state.objectives["farm"]
    match.put("locust", (farm.x, farm.y, 270.0))
    match.phase()
    done = "drained" if token["token"] == "recharge" else "destroyed"
    assert getattr(match.state.objectives["farm"], done)
    match.put("locust", (45.0, 88.0, 90.0) if exit_north else (45.0, 2.0, 270.0))
    events = match.phase()
    assert [e.vehicle for e in of(events, LeftArea)] == ["locust"]
    return match


@pytest.mark.parametrize(
    ("preset", "flag", "exit_north", "winner"),
    [
        (("mill", "church"), "drained", False, "martians"),
        (("mill", "church", "bridge"), "drained", False, "martians"),
        (("mill",), "drained", False, None),
        (("mill", "church"), "drained", True, None),
        (("mill", "church"), "destroyed", False, None),
    ],
    ids=["three-drained", "four-drained", "two-drained", "exit-north", "destroyed-not-drained"],
)
def test_spark_martians_win_draining_three_objectives_and_exiting_south(
    preset: tuple[str, ...], flag: str, exit_north: bool, winner: str | None
) -> None:
    """000 A SPARK OF HOPE: "The Martian player wins if he drains energy from at least three
    Objective tokens and exits the table from the Earth side". Draining is recharging from
    an objective (000 RECHARGE: "the Tripod player may choose to gain a number of Energy
    tokens equal to the [Recharge Level] of the tripod instead"). Short of that, the Locust
    walking off leaves the Martians with nothing in play: the game ends, nobody wins."""
    match = locust_raids(spark(), recharge("farm"), preset, flag, exit_north)
    assert won(match) == winner


@pytest.mark.parametrize(
    ("preset", "flag", "winner"),
    [
        (("mill", "church"), "destroyed", "martians"),
        (("mill",), "destroyed", None),
        (("mill", "church"), "drained", None),
    ],
    ids=["three-destroyed", "two-destroyed", "drained-not-destroyed"],
)
def test_first_contact_martians_win_destroying_three_objectives_and_exiting_south(
    preset: tuple[str, ...], flag: str, winner: str | None
) -> None:
    """000 FIRST CONTACT: "The Martian player wins if he destroys all three Objectives and
    exit the table from the Earth side". DESTROY OBJECTIVE: "If the tripod base overlaps an
    Objective token, the Tripod player must now remove it"."""
    match = locust_raids(first_contact(), destroy("farm"), preset, flag, False)
    assert won(match) == winner


def test_first_contact_martians_win_destroying_both_planes() -> None:
    """000 FIRST CONTACT: "The Martian player wins ... if he destroys both planes." The
    Locust's heat-ray finishes one in phase 1 and, cooled down, the other in phase 3."""
    tokens = [ray(target="first"), None, ray(target="second")]
    sit = first_contact(locust_plan=tplan(*STILL_PLAN, actions=tokens))
    for v in sit["vehicles"][1:]:
        v["damage"] = CATALOG.airplane(v["type"]).damage - 1
    sit["damage_decks"] = {MK1.firepower: plain(MK1.firepower, 2, 2)}
    match = Match(sit)
    reach: Where = (45.0, 70.0, 90.0)
    away: Where = (80.0, 10.0, 0.0)
    match.phase({"first": reach, "second": away})
    assert not match.state.over
    match.phase({"second": away})
    match.phase({"second": reach})
    assert sorted(e.vehicle for e in of(match.events, Eliminated)) == ["first", "second"]
    assert won(match) == "martians"


def test_spark_martians_win_destroying_both_nieuports() -> None:
    """000 A SPARK OF HOPE: "The Martian player wins ... or if he destroys both planes." The
    first Nieuport falls in turn 1; the game goes on with the second, which falls in turn
    2."""
    match = spark_losing_the_nieuport("eliminated")
    match.phase()
    assert not match.state.over
    match.phase()
    match.phase()
    assert not match.state.over
    match.state.vehicles["nieuport-2"].damage = CATALOG.airplane(NIEUPORT).damage - 1
    match.turn(
        {
            "locust": tplan(*STILL_PLAN, actions=[ray(), None, None]),
            "nieuport-2": plan(*QUIET, fire=list(HOLD)),
        }
    )
    pile, top = match.state.piles[MK1.firepower], plain(MK1.firepower, 3)[0]
    pile.remove(top)  # (the pile was shuffled when the first Nieuport's cards went back)
    pile.append(top)
    match.phase({"nieuport-2": (45.0, 70.0, 90.0)})
    assert sorted(e.vehicle for e in of(match.events, Eliminated)) == ["nieuport", "nieuport-2"]
    assert won(match) == "martians"


# --- ace skills -----------------------------------------------------------------------------------

ACE = "spad-vii"  # fires B, resistance 13
ACE_RESISTANCE = CATALOG.airplane(ACE).damage
LONG_P: Where = (30.0, 45.0, 0.0)
LONG_E: Where = (50.0, 45.0, 180.0)


def aces(
    skill: Skill | None,
    stack: Sequence[str],
    *,
    p_fire: Sequence[str] = ("auto", "none", "none"),
    e_fire: Sequence[str] = ("auto", "none", "none"),
    e_damage: int = 0,
    e_type: str = ACE,
    **kw: Any,
) -> Json:
    """ "p" (with ``skill``) and "e" face to face at long range (one card each)."""
    p = plane("p", ACE, "earth", 10.0, 45.0, 0.0, plans=[plan("1", "2", "3", fire=list(p_fire))])
    if skill is not None:
        p["skills"] = [skill.value]
    e = plane(
        "e", e_type, "central", 70.0, 45.0, 180.0, plans=[plan("1", "2", "3", fire=list(e_fire))]
    )
    e["damage"] = e_damage
    return situation(p, e, damage_decks={"B": list(stack)}, **kw)


class Duel(Match):
    """The two aces kept at long range, face to face, every phase."""

    def phase(self, at: Mapping[str, Where] | None = None) -> list[Event]:
        return super().phase({"p": LONG_P, "e": LONG_E, **(at or {})})


@pytest.mark.parametrize("skill", [Skill.ITCHY_TRIGGER_FINGER, None], ids=["itchy", "no-skill"])
def test_itchy_trigger_finger_shoots_first(skill: Skill | None) -> None:
    """000 FIRST CONTACT: "One pilot has the Itchy Trigger Finger skill (once every 5
    phases, the pilot shoots first)". Its damage is resolved before anyone else fires: a
    target it destroys does not fire back. Without the skill both fire (000: "a vehicle
    that is destroyed may still fire during the phase in which it is eliminated")."""
    stack = plain("B", 2, 3)
    match = Duel(aces(skill, stack, e_damage=ACE_RESISTANCE - 2))
    events = match.phase()
    assert [(e.vehicle, e.reason) for e in of(events, Eliminated)] == [("e", "shot_down")]
    if skill is not None:
        assert [(e.vehicle, e.skill) for e in of(events, SkillUsed)] == [("p", skill)]
        assert [e.firer for e in of(events, Fired)] == ["p"]
        assert match.state.vehicles["p"].damage == 0
        (hit,) = of(events, DamageDrawn)
        assert (hit.vehicle, hit.cards) == ("e", (stack[0],))
    else:
        assert sorted(e.firer for e in of(events, Fired)) == ["e", "p"]
        assert match.state.vehicles["p"].damage > 0


def test_itchy_trigger_finger_against_a_tripod_heat_ray() -> None:
    """000 FIRST CONTACT / A SPARK OF HOPE: the Itchy Trigger Finger pilot "shoots first":
    a tripod it destroys does not fire its heat-ray. The Mk III's rear projector faces the
    airplane behind it, across its unprotected rear."""
    squid = "mk3-squid"
    model = CATALOG.tripods[squid]
    assert "rear" in model.projectors and "rear" not in model.protected
    t_plan = tplan(
        cards(squid, "stand")[0],
        cards(squid, "reverse")[0],
        cards(squid, "move")[0],
        actions=[ray("rear"), None, None],
    )
    t = tripod("t", 45.0, 50.0, 270.0, model=squid, plans=[t_plan], damage=model.damage - 2)
    p = plane(
        "p",
        ACE,
        "earth",
        45.0,
        10.0,
        90.0,
        plans=[plan("1", "2", "3", fire=["auto", "none", "none"])],
    )
    sit = situation(t, p, damage_decks={"B": plain("B", 2)})
    for skill, fires in [(Skill.ITCHY_TRIGGER_FINGER.value, False), (None, True)]:
        p["skills"] = [skill] if skill else []
        match = Match(sit)
        events = match.phase({"p": (45.0, 50.0 - APOTHEM - 15.0, 90.0)})
        assert [e.vehicle for e in of(events, Eliminated)] == ["t"]
        assert bool(of(events, HeatRay)) is fires


def skill_phases(events: Sequence[Event], vid: str) -> list[tuple[int, int]]:
    return [phase_of(events, e) for e in of(events, SkillUsed) if e.vehicle == vid]


@pytest.mark.parametrize("skill", [Skill.ITCHY_TRIGGER_FINGER, Skill.SNIPER])
def test_skills_once_every_five_phases(skill: Skill) -> None:
    """000: Itchy Trigger Finger: "once every 5 phases, the pilot shoots first"; Sniper:
    "once every 5 phases, the pilot draws two damage cards, chooses one to give to the
    opponent, reshuffles the other one". The pilot fires in phases 1, 2 and 6 (turn 2,
    phase 3): the skill works in the first and the sixth."""
    sit = aces(skill, [], p_fire=("auto", "auto", "none"), e_fire=HOLD, e_type="caproni-ca3")
    match = Duel(sit)
    for _ in range(3):
        match.phase()
    match.turn(
        {
            "p": plan("1", "2", "3", fire=["none", "none", "auto"]),
            "e": plan("1", "2", "3", fire=list(HOLD)),
        }
    )
    for _ in range(3):
        match.phase()
    assert [phase_of(match.events, e) for e in of(match.events, Fired)] == [(1, 1), (1, 2), (2, 3)]
    assert skill_phases(match.events, "p") == [(1, 1), (2, 3)]


@pytest.mark.parametrize("stack", [("B0", "B4"), ("B4", "B0")], ids=["0-then-4", "4-then-0"])
def test_sniper_draws_two_cards_and_keeps_the_more_damaging(stack: tuple[str, str]) -> None:
    """000 FIRST CONTACT: "another pilot has the Sniper skill (once every 5 phases, the
    pilot draws two damage cards, chooses one to give to the opponent, reshuffles the other
    one)." With a 0 and a 4 on top, the target takes the 4 and the 0 goes back into the
    deck."""
    match = Duel(aces(Skill.SNIPER, list(stack), e_fire=HOLD))
    events = match.phase()
    (used,) = of(events, SkillUsed)
    assert (used.vehicle, used.skill) == ("p", Skill.SNIPER)
    (hit,) = of(events, DamageDrawn)
    assert (hit.vehicle, hit.cards, hit.points) == ("e", ("B4",), 4)
    assert match.state.vehicles["e"].held == [("B", "B4")]
    pile = match.state.piles["B"]
    assert pile.count("B0") == CATALOG.damage_decks["B"].composition().count("B0")
    assert len(pile) == len(CATALOG.damage_decks["B"].composition()) - 1
    # without the skill the top card is taken
    match = Duel(aces(None, list(stack), e_fire=HOLD))
    (hit,) = of(match.phase(), DamageDrawn)
    assert hit.cards == (stack[0],)


# --- the two-tripod variant -------------------------------------------------------------------


def variant(table: tuple[float, float] | None, objectives: Sequence[Json]) -> Json:
    """The two-tripod variant: the Locusts along the north edge, four SPADs on the south."""
    width, height = table or (120.0, 90.0)
    vehicles = [
        entry("locust-1", (width / 3.0, height - 5.0, 270.0), [STILL]),
        entry("locust-2", (2.0 * width / 3.0, height - 5.0, 270.0), [STILL]),
    ]
    for i, vid in enumerate(("first", "second", "third", "fourth")):
        where = (width * (i + 1) / 5.0, 15.0, 90.0)
        vehicles.append(entry(vid, where, [plan(*QUIET, fire=list(HOLD))], type="spad-vii"))
    out: Json = {"scenario": VARIANT, "objectives": list(objectives), "vehicles": vehicles}
    if table is not None:
        out["table"] = {"width": table[0], "height": table[1]}
    return out


def test_two_tripod_variant_needs_at_least_120_by_90() -> None:
    """000 FIRST CONTACT, Variants: "You can play with two tripods against four airplanes,
    increasing the gaming surface to at least 120 x 90 cm and the number of objectives to
    six." """
    six = pentagon_and_centre(60.0, 45.0)
    state = built(variant(None, six))
    assert (state.rules.table_width, state.rules.table_height) == (120.0, 90.0)
    assert len(state.objectives) == 6
    built(variant((150.0, 100.0), pentagon_and_centre(75.0, 50.0)))
    error = refused(variant((90.0, 90.0), pentagon_and_centre(45.0, 45.0)))
    assert error.field == "table"
    assert "120" in error.allowed
    error = refused(variant(None, six[:3]))
    assert error.field == "objectives" and "6" in error.allowed

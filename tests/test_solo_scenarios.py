"""001's solo scenarios, *A Lonely Invader* and *Down from the Alps*: their set-up, the
graded victories and the replacement airplane. The automated tripod plays the Locust."""

from __future__ import annotations

import math
from typing import Any

import pytest

from dogfight.catalog.loader import load_catalog
from dogfight.catalog.models import Skill
from dogfight.errors import DataError
from dogfight.geometry.pose import Pose
from dogfight.rules import events as ev
from dogfight.rules.scenario import judge, reinforce, verdict
from dogfight.rules.state import GameState
from dogfight.sim.solo import SOLO_SCENARIOS, play_solo, solo_situation
from dogfight.situation.format import build, parse_situation

CATALOG = load_catalog()
LAYOUT = {(45.0, 30.0), (45.0, 60.0), (15.0, 30.0), (75.0, 30.0), (15.0, 60.0), (75.0, 60.0)}
"""001: "Place one objective template at one ruler from the center of the Earthling side,
a second objective template at one ruler from the first, and then place an objective
template at one ruler to the left and to the right of each of the first two"."""


def setup(scenario: str, **changes: Any) -> GameState:
    data = solo_situation(CATALOG, scenario).model_dump(mode="json", exclude_none=True)
    for key, value in changes.items():
        data[key] = value
    return build(parse_situation(data), CATALOG, 0)


def test_both_solo_scenarios_are_shipped() -> None:
    for sid in SOLO_SCENARIOS:
        scenario = CATALOG.scenarios[sid]
        assert scenario.source == "001"
        assert [v.id for v in scenario.vehicles if v.automated] == ["locust"]


def test_lonely_invader_setup() -> None:
    """001: "One Martian Mk I tripod (Locust) at half a ruler from the middle of its side"
    / "An Albatros D.Va, SPAD XIII, Sopwith Camel, Fokker Dr.I, A-firing Hanriot Hd.1, or
    Macchi M.5 armed with a 37mm cannon, at one ruler from its side. The pilot has the Itchy
    Trigger Finger skill"."""
    state = setup("a-lonely-invader")
    locust = state.vehicles["locust"]
    assert (locust.type, locust.pose.point, locust.pose.heading) == ("mk1-locust", (45, 75), 270)
    plane = state.vehicles["plane"]
    assert plane.pose.y == 30 and plane.side == "earth"
    assert plane.skills == (Skill.ITCHY_TRIGGER_FINGER,)
    assert {(round(o.x, 6), round(o.y, 6)) for o in state.objectives.values()} == LAYOUT
    assert set(state.reserves) == {"plane-2"}
    assert state.reserves["plane-2"].skills == ()  # "armed with a 37mm cannon and no skills"


def test_down_from_the_alps_setup() -> None:
    """001: "Choose two from among Albatros D.Va, SPAD XIII, Sopwith Camel, Fokker Dr.I,
    A-firing Hanriot Hd.1, or Macchi M.5, at one ruler from their side.\""""
    situation = solo_situation(CATALOG, "down-from-the-alps", ["fokker-dr1", "macchi-m5"])
    state = build(situation, CATALOG, 0)
    assert state.vehicles["first"].type == "fokker-dr1"
    assert state.vehicles["second"].type == "macchi-m5"
    assert {v.pose.y for v in state.vehicles.values() if v.tripod is None} == {30.0}
    assert len(state.objectives) == 6 and not state.reserves


@pytest.mark.parametrize(
    ("vehicle", "pose", "message"),
    [
        ("locust", {"x": 30.0, "y": 75.0, "heading": 270.0}, "middle of the north edge"),
        ("locust", {"x": 45.0, "y": 85.0, "heading": 270.0}, "15 cm from the north edge"),
        ("plane", {"x": 45.0, "y": 40.0, "heading": 90.0}, "30 cm from the south edge"),
    ],
)
def test_placements_are_checked(vehicle: str, pose: dict[str, float], message: str) -> None:
    data = solo_situation(CATALOG, "a-lonely-invader").model_dump(mode="json", exclude_none=True)
    for entry in data["vehicles"]:
        if entry["id"] == vehicle:
            entry["pose"] = pose
    with pytest.raises(DataError, match=message):
        build(parse_situation(data), CATALOG, 0)


def test_objective_layout_is_checked() -> None:
    data = solo_situation(CATALOG, "down-from-the-alps").model_dump(mode="json", exclude_none=True)
    data["objectives"][1]["x"] = 50.0
    with pytest.raises(DataError, match="layout"):
        build(parse_situation(data), CATALOG, 0)


def judged(state: GameState) -> tuple[str | None, str | None, list[ev.Event]]:
    events: list[ev.Event] = []
    judge(state, events)
    win = verdict(state)
    return state.winner, (win.level if win else None), events


def test_lonely_invader_strategic_victory_with_the_first_airplane() -> None:
    """001: "The Earthling player wins if the tripod is destroyed. It is a strategic victory
    if he does that with the first airplane\""""
    state = setup("a-lonely-invader")
    state.vehicles["locust"].eliminated = "shot_down"
    winner, level, events = judged(state)
    assert (winner, level) == ("earth", "strategic")
    assert isinstance(events[0], ev.ScenarioWon) and events[0].condition.startswith("strategic")


def test_lonely_invader_tactical_victory_with_the_second_airplane() -> None:
    """001: "and a tactical victory if he does that with the second one.\""""
    state = setup("a-lonely-invader")
    state.vehicles["plane"].eliminated = "shot_down"
    reinforce(state, [])
    assert state.vehicles["plane-2"].in_play
    state.vehicles["locust"].eliminated = "exploded"
    assert judged(state)[:2] == ("earth", "tactical")


def test_lonely_invader_lost_when_the_tripod_exits_by_the_earthling_side() -> None:
    """001: "He loses if the tripod exits the playing area from the Earthling side\""""
    state = setup("a-lonely-invader")
    state.vehicles["locust"].eliminated = "left_area"
    state.vehicles["locust"].exit_edge = "south"
    assert judged(state)[:2] == ("martians", None)


def test_lonely_invader_lost_with_both_airplanes() -> None:
    """001: "or if both airplanes are destroyed and the tripod is not." An airplane that
    flies off the table is lost as well (rulings A27)."""
    state = setup("a-lonely-invader")
    state.vehicles["plane"].eliminated = "shot_down"
    reinforce(state, [])
    assert judged(state)[0] is None and not state.over
    state.vehicles["plane-2"].eliminated = "left_area"
    assert judged(state)[:2] == ("martians", None)


def test_tripod_leaving_by_another_side_ends_undecided() -> None:
    """Only the Earthling side counts for the tripod's exit; leaving by another side leaves
    the Martians with nothing in play (rulings SC4)."""
    state = setup("a-lonely-invader")
    state.vehicles["locust"].eliminated = "left_area"
    state.vehicles["locust"].exit_edge = "west"
    winner, _, events = judged(state)
    assert winner is None and state.over
    assert "nothing left in play" in getattr(events[0], "condition", "")


@pytest.mark.parametrize(
    ("lost", "level"),
    [((), "strategic"), (("first",), "tactical"), (("first", "second"), "marginal")],
)
def test_down_from_the_alps_levels(lost: tuple[str, ...], level: str) -> None:
    """001: "It is a strategic victory if he does that without losing any airplanes, a
    tactical victory if he does that while losing only one airplane, and a marginal victory
    if he does that while losing both airplanes." (Both lost in the step that destroys the
    tripod: the damage is simultaneous, 000.)"""
    state = setup("down-from-the-alps")
    for vid in lost:
        state.vehicles[vid].eliminated = "shot_down"
    state.vehicles["locust"].eliminated = "shot_down"
    assert judged(state)[:2] == ("earth", level)


def test_down_from_the_alps_lost() -> None:
    """001: "He loses if the tripod exits the playing area from the Earthling side or if
    both airplanes are destroyed and the tripod is not.\""""
    state = setup("down-from-the-alps")
    state.vehicles["first"].eliminated = "shot_down"
    assert judged(state)[0] is None
    state.vehicles["second"].eliminated = "burned"
    assert judged(state)[:2] == ("martians", None)


def test_replacement_airplane_at_two_rulers_from_the_tripod() -> None:
    """001: "If the airplane is destroyed, at the start of the next turn the Earthling
    player gets another airplane ... He places it on the Earthling side, at least at two
    rulers from the tripod." Asked for the middle of the table's Earth half, it is moved to
    the nearest legal point."""
    data = solo_situation(CATALOG, "a-lonely-invader").model_dump(mode="json", exclude_none=True)
    data["reinforcements"][0]["pose"] = {"x": 45.0, "y": 40.0, "heading": 90.0}
    state = build(parse_situation(data), CATALOG, 0)
    state.vehicles["locust"].pose = Pose(45.0, 60.0, 270.0)
    state.vehicles["plane"].eliminated = "shot_down"
    events: list[ev.Event] = []
    reinforce(state, events)
    entered = state.vehicles["plane-2"]
    assert isinstance(events[0], ev.Reinforcement)
    assert math.dist(entered.pose.point, (45.0, 60.0)) > 60.0
    assert entered.pose.y < 45.0  # the Earthling (south) half
    assert entered.skills == ()


def test_replacement_waits_when_no_spot_is_two_rulers_away() -> None:
    """With the tripod near the Earthling side no point of that half is two rulers from it:
    the replacement waits (rulings A28), and the Earthling side is not out of the game."""
    state = setup("a-lonely-invader")
    state.vehicles["locust"].pose = Pose(45.0, 20.0, 270.0)
    state.vehicles["plane"].eliminated = "shot_down"
    reinforce(state, [])
    assert "plane-2" in state.reserves
    assert judged(state)[0] is None and not state.over


@pytest.mark.parametrize("scenario", SOLO_SCENARIOS)
def test_solo_games_play_to_an_end(scenario: str) -> None:
    """Seeded solo games against random airplanes end with the scenario's verdict; every
    replacement airplane enters two rulers or more from the tripod."""
    for seed in range(4):
        game = play_solo(CATALOG, scenario, seed, max_turns=40)
        assert game.state.over
        assert any(e.kind == "scenario_won" for e in game.events)
        assert any(e.kind == "tripod_decision" for e in game.events)
        where = game.start.vehicles["locust"].pose.point
        for event in game.events:
            if isinstance(event, ev.Moved) and event.vehicle == "locust":
                where = event.end.point
            if isinstance(event, ev.Reinforcement):
                assert math.dist(event.pose.point, where) > 60.0
        if game.winner == "earth":
            assert game.level in ("strategic", "tactical", "marginal")

"""Every shipped scenario's endings: one judgement, said the same way everywhere.

Issue 29 item 2: "One victory judgement per scenario, from its text, gives the heading,
the reason (the sentence of the side that won, in words), the scores and the log line;
the browser, the terminal, `simulate` and campaigns read that one judgement." For every
victory condition of every scenario (a win for one side, a loss for the other), and for
every side leaving the table by an edge no condition names (a draw, where the text allows
it), the table is set as the condition says and the judgement is read by each reader:
the log line (:func:`dogfight.words.narration.describe`, which the terminal prints), the page's
ending (:func:`dogfight.words.briefing.ending`), the terminal's last line
(:func:`dogfight.words.narration.ending`), ``simulate``'s game result and a campaign's mission.
"""

from __future__ import annotations

import pytest

from dogfight.campaign.missions import result_of
from dogfight.campaign.record import Campaign
from dogfight.campaign.spec import load_campaign
from dogfight.catalog import load_catalog
from dogfight.catalog.models import Scenario, Victory
from dogfight.rules.events import Event, GameOver
from dogfight.rules.state import GameState
from dogfight.rules.victory import check_victory
from dogfight.sim.run import summarize_game
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation
from dogfight.words.briefing import ending as page_ending
from dogfight.words.narration import describe, ending
from dogfight.words.terms import side_name, side_wins

CATALOG = load_catalog()
SCENARIOS = sorted(CATALOG.scenarios)
EDGES = ("south", "north", "west", "east")


def _fresh(sid: str) -> GameState:
    return build(scenario_situation(CATALOG, sid), CATALOG, 0)


def _enter(state: GameState, vid: str) -> None:
    """A reinforcement comes onto the table (as the turn's end brings it)."""
    if vid in state.reserves:
        state.vehicles[vid] = state.reserves.pop(vid)


def _meet(state: GameState, win: Victory) -> None:
    """Set the table as ``win`` says it ends."""
    scenario = state.scenario
    assert scenario is not None
    if win.reinforced:
        for spec in scenario.reinforcements:
            if spec.side == win.side:
                _enter(state, spec.id)
    if win.own_losses:
        ids = sorted(v.id for v in state.vehicles.values() if v.side == win.side)
        for vid in ids[: win.own_losses[0]]:
            state.vehicles[vid].eliminated = "shot_down"
    if win.kind == "destroy":
        for vid in win.vehicles:
            _enter(state, vid)
            state.vehicles[vid].eliminated = "shot_down"
    elif win.kind == "objectives_and_exit":
        for objective in list(state.objectives.values())[: win.objectives]:
            objective.destroyed = objective.drained = objective.reached = True
        own = [v for v in state.vehicles.values() if v.side == win.side]
        for v in own if win.all_exit else own[:1]:
            v.eliminated, v.exit_edge = "left_area", win.exit_edge
    else:  # last_in_play
        for v in state.vehicles.values():
            if v.side != win.side:
                v.eliminated = "shot_down"
        state.reserves = {k: v for k, v in state.reserves.items() if v.side == win.side}


def _endings(sid: str) -> list[tuple[str, GameState]]:
    """The table at each of the scenario's endings, named."""
    scenario = CATALOG.scenarios[sid]
    out = []
    for index, win in enumerate(scenario.victory):
        state = _fresh(sid)
        _meet(state, win)
        out.append((f"victory[{index}]", state))
    named = {w.exit_edge for w in scenario.victory}
    for side in scenario.sides:
        edge = next(e for e in EDGES if e not in named)
        state = _fresh(sid)
        state.reserves = {k: v for k, v in state.reserves.items() if v.side != side.name}
        for v in state.vehicles.values():
            if v.side == side.name:
                v.eliminated, v.exit_edge = "left_area", edge
        out.append((f"{side.name} leaves by the {edge} edge", state))
    return out


def _judged(state: GameState) -> tuple[GameOver, list[Event]]:
    events: list[Event] = []
    check_victory(state, events)
    assert state.over and state.result is not None
    (over,) = [e for e in events if isinstance(e, GameOver)]
    assert over is state.result
    return over, events


def _agree(scenario: Scenario, state: GameState, over: GameOver, events: list[Event]) -> None:
    said = ending(over)
    heading, reason = said["heading"], said["reason"]
    if over.winner is None:
        assert heading == "A draw"
        assert "no side met its victory conditions" in reason
    else:
        assert heading.startswith(side_wins(over.winner))
        loser = [s.name for s in scenario.sides if s.name != over.winner]
        assert not any(side_name(side) in heading for side in loser)
    # the log line, as the terminal and the replay print it
    line = describe(over)
    assert line.startswith(f"Game over: {heading}.") and reason.rstrip(".") in line
    # the browser's end screen
    page = page_ending(state)
    assert page is not None
    assert (page["heading"], page["reason"], page["winner"]) == (heading, reason, over.winner)
    assert page["scores"] == over.scores
    # the scores are the scenario's: match points only where 002's scoring applies
    if not scenario.match_points:
        assert over.scores == {} and "Match points" not in line
    # simulate's result
    result = summarize_game(0, 0, state, events, 0)
    assert result.winner == over.winner and result.points == over.scores


@pytest.mark.parametrize("sid", SCENARIOS)
def test_every_ending_of_every_scenario_is_one_judgement(sid: str) -> None:
    scenario = CATALOG.scenarios[sid]
    met = set()
    for name, state in _endings(sid):
        over, events = _judged(state)
        _agree(scenario, state, over, events)
        if name.startswith("victory["):
            win = scenario.victory[int(name[8:-1])]
            # the condition set is the one judged (or one before it in the text's order,
            # met by the same table: "Conditions are checked in order")
            assert over.winner is not None, name
            met.add((over.winner, over.level, over.reason))
            if over.winner == win.side and over.level == win.level:
                assert over.reason == win.outcome
    # every side of the scenario can win
    assert {w for w, _, _ in met} == {s.name for s in scenario.sides}


def test_a_lonely_invader_exit_is_a_martian_win_said_as_one() -> None:
    """The issue's example: 'heading "martians win", reason "martians: He loses if the
    tripod exits the playing area…", scores earth +1, martians +0'."""
    state = _fresh("a-lonely-invader")
    locust = state.vehicles["locust"]
    locust.eliminated, locust.exit_edge = "left_area", "south"
    over, _ = _judged(state)
    said = ending(over)
    assert said["heading"] == "The Martians win"
    assert said["reason"] == ("The tripod exits the playing area from the Earthling side")
    assert over.scores == {}


def test_alsace_again_both_airplanes_gone_is_a_martian_win_not_a_draw() -> None:
    """The issue's example: '"A draw" with martians +2; the log says "Draw: nobody is
    left." while the Locust still stands on the table'. 000: "A vehicle that is outside
    of the playing area at the end of a movement step is out of the game": an airplane
    that leaves is lost for "he destroys both airplanes", as in A Lonely Invader."""
    state = _fresh("alsace-again")
    state.vehicles["messerschmitt"].eliminated = "shot_down"
    state.vehicles["stuka"].eliminated, state.vehicles["stuka"].exit_edge = "left_area", "west"
    over, _ = _judged(state)
    assert over.winner == "martians" and over.scores == {}
    assert "nobody" not in describe(over)


def test_a_campaign_mission_reads_the_same_judgement() -> None:
    """Campaigns take the game's winner and its points from the one judgement."""
    spec, _ = load_campaign("the-martian-invasion", CATALOG)
    campaign = Campaign(spec=spec.id, seed=0, pilots=[], current="a-lonely-invader")
    state = _fresh("a-lonely-invader")
    state.vehicles["locust"].eliminated = "shot_down"
    over, events = _judged(state)
    sides = {v.id: v.side for v in state.vehicles.values()}
    mission = result_of(spec, campaign, events, over.winner, sides)
    assert mission.winner == spec.campaign_side(spec.mission("a-lonely-invader"), "earth")
    assert all(points == 0 for points in mission.points.values())

"""Missions and match scoring as 002 ("Scoring & End Game") and 003 ("计分") print them.

002: "Place target cards (for bombing/photo missions) as specified in scenarios." /
"Bombing/Photographic missions: Score upon successful execution." / "Example: Bombing in
*Wings over the Flanders* → +2 points immediately." / "After success, exiting from own
side no longer gives enemy points." The success test is the project's (002 prints none,
docs/rulings.md M3): a carrier's centre dot on the target card after a maneuver.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import Json, of, plane, run, situation, state_of

from dogfight.bots.base import make
from dogfight.catalog.loader import load_catalog
from dogfight.cli.terminal_play import table_map
from dogfight.errors import DataError
from dogfight.geometry.maneuver import apply_card
from dogfight.render import render_svg
from dogfight.rules.events import Event, GameOver, HomeAfterMission, MissionAccomplished
from dogfight.rules.missions import on_target
from dogfight.rules.observation import observe
from dogfight.rules.victory import scores
from dogfight.sim.run import GameResult
from dogfight.sim.stats import games_csv, summarize
from dogfight.situation.format import build, parse_situation
from dogfight.words.briefing import ending
from dogfight.words.narration import describe

TABLE = (90.0, 120.0)


def breguet(x: float, y: float, heading: float, **extra: object) -> Json:
    """The Breguet 14 flying cards 1, 2, 3 of deck G (long straight 11.5 cm from centre to
    centre, straight 10 cm, short straight 8.5 cm)."""
    return plane(
        "breguet", "breguet-14", "allies", x, y, heading, plans=[{"cards": ["1", "2", "3"]}]
    ) | dict(extra)


def albatros(x: float = 80.0, y: float = 60.0) -> Json:
    """An Albatros out of range of everything, staying on the table."""
    return plane("albatros", "albatros-d5a", "central", x, y, 90.0, fire=["none"] * 3)


def target(x: float, y: float, **extra: object) -> Json:
    return {"id": "depot", "mission": "bombing", "side": "allies", "x": x, "y": y} | dict(extra)


def test_bombing_succeeds_when_the_carriers_centre_ends_a_maneuver_on_the_card() -> None:
    """002: "Bombing/Photographic missions: Score upon successful execution." The Breguet's
    centre reaches (45, 86.5) after card 1: on the card (45 +/- 6, 86 +/- 4)."""
    sit = situation(
        breguet(45.0, 75.0, 90.0),
        albatros(),
        ruleset="wow",
        table=TABLE,
        targets=[target(45.0, 86.0, carriers=["breguet"])],
    )
    state, events = run(sit)
    (done,) = of(events, MissionAccomplished)
    assert (done.mission, done.mission_kind, done.vehicle, done.side, done.points) == (
        "depot",
        "bombing",
        "breguet",
        "allies",
        2,
    )
    assert state.targets["depot"].done_by == "breguet"
    # 002: "+2 points immediately" — scored whoever wins, before the game is over
    assert scores(state)["allies"] == 2


def test_a_card_passed_over_is_not_a_success_nor_an_airplane_without_the_bombs() -> None:
    """The centre must end a maneuver on the card (docs/rulings.md M3): the Breguet flies
    from 75 to 86.5, 96.5 and 105 and the card lies at 100.75 +/- 4 between two stops. And a
    fighter that is not the mission's carrier does not bomb (rulings M5)."""
    sit = situation(
        breguet(45.0, 75.0, 90.0),
        albatros(),
        plane("spad", "spad-xiii", "allies", 20.0, 60.0, 90.0, fire=["none"] * 3),
        ruleset="wow",
        table=TABLE,
        targets=[
            target(45.0, 100.75, carriers=["breguet"]),
            {"id": "bridge", "mission": "photo", "side": "allies", "x": 20.0, "y": 73.5}
            | {"carriers": ["breguet"]},
        ],
    )
    state, events = run(sit)
    assert of(events, MissionAccomplished) == []
    assert all(t.done_by is None for t in state.targets.values())


def test_any_airplane_of_the_side_carries_when_the_mission_names_none() -> None:
    """A photographic mission without named carriers: any airplane of its side."""
    sit = situation(
        plane("ufag", "ufag-c1", "central", 45.0, 75.0, 90.0, plans=[{"cards": ["1", "2", "3"]}]),
        plane("camel", "sopwith-camel", "allies", 80.0, 20.0, 90.0, fire=["none"] * 3),
        ruleset="wow",
        table=TABLE,
        targets=[{"id": "battery", "mission": "photo", "side": "central", "x": 45, "y": 86.5}],
    )
    _, events = run(sit)
    assert [(e.mission, e.mission_kind, e.vehicle) for e in of(events, MissionAccomplished)] == [
        ("battery", "photo", "ufag")
    ]


def _home_run(home: str) -> tuple[Json, list[Event]]:
    """The Breguet bombs at (45, 13.5) in phase 1 and leaves across the south edge in phase
    3; the Albatros is the last in play."""
    sit = situation(
        breguet(45.0, 25.0, 270.0),
        albatros(),
        ruleset="wow",
        table=TABLE,
        targets=[target(45.0, 14.0, carriers=["breguet"], home=home)],
    )
    state, events = run(sit)
    assert of(events, MissionAccomplished)[0].vehicle == "breguet"
    assert state.vehicles["breguet"].eliminated == "left_area"
    assert state.vehicles["breguet"].exit_edge == "south"
    return {"scores": scores(state), "winner": state.winner}, list(events)


def test_after_success_exiting_from_own_side_gives_the_enemy_nothing() -> None:
    """002: "After success, exiting from own side no longer gives enemy points." The
    Breguet bombed, then left across the allies' own (south) edge: the Germans win the game
    (002: "Last player/team with aircraft in play wins.") but score nothing for it; the
    allies keep their +2."""
    result, events = _home_run("south")
    assert [(e.vehicle, e.edge) for e in of(events, HomeAfterMission)] == [("breguet", "south")]
    (over,) = of(events, GameOver)
    assert result["winner"] == "central"
    assert over.scores == {"allies": 2, "central": 0}


def test_exiting_from_another_side_after_success_still_scores_for_the_enemy() -> None:
    """002: "+1 per enemy aircraft that exited playing area": the same exit, but the allies'
    own edge is the north one, so the Germans score their +1."""
    result, events = _home_run("north")
    assert of(events, HomeAfterMission) == []
    assert result["scores"] == {"allies": 2, "central": 1}


def _scored(ruleset: str) -> dict[str, int]:
    """Allies: a shot down, b exited; central: c in play (the winner), d shot down."""
    sit = situation(
        plane("a", "spad-xiii", "allies", 10.0, 10.0),
        plane("b", "sopwith-camel", "allies", 20.0, 10.0),
        plane("c", "albatros-d5a", "central", 10.0, 80.0),
        plane("d", "fokker-d7", "central", 20.0, 80.0),
        ruleset=ruleset,
    )
    state = state_of(sit)
    state.vehicles["a"].eliminated = "shot_down"
    state.vehicles["b"].eliminated = "left_area"
    state.vehicles["d"].eliminated = "out_of_control"
    state.over, state.winner = True, "central"
    return scores(state)


def test_match_scoring_002_the_winner_scores() -> None:
    """002: "Winning player/team scores: - **+1** per enemy aircraft that exited playing
    area - **+2** per enemy aircraft shot down - **–1** per own aircraft shot down". The
    Germans won: +1 (b exited) +2 (a shot down) -1 (d out of control, "Counts as **shot
    down**"); the allies, who lost, score nothing (switch match_scoring = "winner")."""  # noqa: RUF002
    assert _scored("wow") == {"allies": 0, "central": 2}


def test_match_scoring_003_both_sides_score() -> None:
    """003: "若以多局决定胜负(局数由玩家自行决定),则计算每局双方分数。总分较高者胜。" /
    "每架敌机脱离战场得 1 分。击落敌机每架得 2 分。自机遭击落减 1 分。" Every side scores
    its own points (switch match_scoring = "every_side"): the allies +2 (d) -1 (a), the
    Germans +1 (b) +2 (a) -1 (d)."""
    assert _scored("wow-basic") == {"allies": 1, "central": 2}


def test_the_switch_overrides_the_ruleset() -> None:
    """match_scoring is a switch: 002's ruleset with 003's both-sides variant."""
    sit = situation(
        plane("a", "spad-xiii", "allies", 10.0, 10.0),
        plane("c", "albatros-d5a", "central", 10.0, 80.0),
        ruleset="wow",
        switches={"match_scoring": "every_side"},
    )
    state = state_of(sit)
    state.vehicles["a"].eliminated = "shot_down"
    state.over, state.winner = True, "central"
    assert scores(state) == {"allies": -1, "central": 2}


def test_scenario_places_its_target_cards() -> None:
    """002: "Place target cards (for bombing/photo missions) as specified in scenarios."
    A situation of Wings over the Flanders that lists no target gets the scenario's."""
    catalog = load_catalog()
    spec = catalog.scenarios["wings-over-the-flanders"]
    vehicles = [
        {"id": "breguet", "pose": {"x": 30, "y": 5, "heading": 90}},
        {"id": "spad", "pose": {"x": 60, "y": 5, "heading": 90}},
        {"id": "albatros", "pose": {"x": 30, "y": 115, "heading": 270}},
        {"id": "fokker", "pose": {"x": 60, "y": 115, "heading": 270}},
    ]
    state = build(parse_situation({"scenario": spec.id, "vehicles": vehicles}), catalog, 0)
    (card,) = state.targets.values()
    mission = spec.missions[0]
    assert (card.id, card.mission, card.side, card.carriers, card.home) == (
        mission.id,
        "bombing",
        "allies",
        ("breguet",),
        "south",
    )
    assert (card.pose.x, card.pose.y, card.points) == (mission.target.x, mission.target.y, 2)


@pytest.mark.parametrize(
    ("where", "field"),
    [
        ({"x": 95.0, "y": 60.0}, "targets[0]"),
        ({"x": 45.0, "y": 118.0}, "targets[0]"),
        ({"x": 3.0, "y": 60.0, "heading": 0.0}, "targets[0]"),
    ],
)
def test_a_target_card_off_the_table_is_refused(where: Json, field: str) -> None:
    """A target card must lie wholly on the table (docs/rulings.md M2): one off it (or
    hanging over an edge) is refused naming the field and the value."""
    sit = situation(
        breguet(45.0, 25.0, 90.0),
        albatros(),
        ruleset="wow",
        table=TABLE,
        targets=[target(**where)],
    )
    with pytest.raises(DataError) as caught:
        build(parse_situation(sit), load_catalog(), 0)
    assert caught.value.field == field
    assert "must lie wholly on the 90 x 120 cm table" in str(caught.value)


def _dogfight(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dogfight", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_refuses_a_target_off_the_table_exit_2(tmp_path: Path) -> None:
    """The CLI: one message naming the file, the field and the value, exit 2, nothing
    written."""
    sit = situation(
        breguet(45.0, 25.0, 90.0), albatros(), ruleset="wow", table=TABLE, targets=[target(95, 60)]
    )
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(sit))
    out = tmp_path / "out.json"
    result = _dogfight("adjudicate", str(path), "-o", str(out))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    for needle in (str(path), "targets[0]", "95", "wholly on the 90 x 120 cm table"):
        assert needle in result.stderr
    assert not out.exists()


def test_a_scenario_file_with_its_target_off_the_table_is_refused(tmp_path: Path) -> None:
    """A user's scenario (dogfight --data DIR) whose target card lies off its table: exit
    2 naming the file, the field and the value."""
    shipped = Path(__file__).parent.parent / "src/dogfight/catalog/data/scenarios"
    text = (shipped / "wings-over-the-flanders.toml").read_text()
    text = text.replace('id = "wings-over-the-flanders"', 'id = "my-flanders"')
    text = text.replace("x = 45.0, y = 80.0", "x = 45.0, y = 130.0")
    (tmp_path / "scenarios").mkdir()
    mine = tmp_path / "scenarios" / "my-flanders.toml"
    mine.write_text(text)
    result = _dogfight("--data", str(tmp_path), "info")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    for needle in (str(mine), "mission[0].target", "130", "off it"):
        assert needle in result.stderr


@pytest.mark.parametrize("bot", ["easy", "hard"])
def test_a_bot_carrying_the_bombs_flies_over_the_target(bot: str) -> None:
    """The computer player knows the success test (rulings M3): with the target card off to
    the left, two turns away (where cards 4 then 6 take it) and no enemy near, the
    Breguet's plan ends a maneuver on it (a plan scored on fighting alone flies straight
    on and misses it)."""
    sit = situation(
        breguet(45.0, 40.0, 90.0),
        plane("albatros", "albatros-d5a", "central", 85.0, 110.0, 0.0),
        ruleset="wow",
        table=TABLE,
        targets=[target(34.2, 57.0, carriers=["breguet"])],
    )
    state = state_of(sit)
    seat = frozenset({"breguet"})
    plans = make(bot).plan_turn(observe(state, seat), state.rules, seat, np.random.default_rng(3))
    flown = state.vehicles["breguet"].pose
    deck = state.rules.deck_of("breguet-14")
    card = state.targets["depot"]
    stops = []
    for cid in plans["breguet"].cards:
        flown = apply_card(flown, deck.card(cid), state.rules.base_length)
        stops.append(on_target(state, card, flown.point))
    assert any(stops), stops


def _plan_after_success(
    bot: str, y: float, heading: float, damage: int = 0, done_by: str | None = "breguet"
) -> Json:
    """The bombing done, the Breguet and its escort fly at ``y`` and ``heading`` on the
    90 x 120 table, the allies' home edge the south one; the Albatros far away."""
    sit = situation(
        breguet(45.0, y, heading),
        plane("escort", "spad-xiii", "allies", 20.0, y, heading, damage=damage),
        plane("albatros", "albatros-d5a", "central", 85.0, 110.0, 0.0),
        ruleset="wow",
        table=TABLE,
        targets=[target(45.0, 100.0, carriers=["breguet"], home="south", done_by=done_by)],
    )
    state = state_of(sit)
    seat = frozenset({"breguet", "escort"})
    plans = make(bot).plan_turn(observe(state, seat), state.rules, seat, np.random.default_rng(3))
    out: Json = {}
    for vid, plan in plans.items():
        flown = state.vehicles[vid].pose
        deck = state.rules.deck_of(state.vehicles[vid].type)
        poses = []
        for cid in plan.cards:
            flown = apply_card(flown, deck.card(cid), state.rules.base_length)
            poses.append(flown)
        out[vid] = poses
    return out


@pytest.mark.parametrize("bot", ["easy", "hard"])
def test_after_success_the_bomber_flies_home(bot: str) -> None:
    """002: "After success, exiting from own side no longer gives enemy points." The
    Breguet that bombed turns for its own (south) edge: close to it, it leaves across it
    this turn; further in, it ends the turn nearer it than flying on would."""
    near = _plan_after_success(bot, 20.0, 270.0)["breguet"]
    assert min(p.y for p in near) < 0.0  # left the table across the south edge
    far = _plan_after_success(bot, 60.0, 0.0)["breguet"]
    assert far[-1].y < 60.0 - 10.0


def test_before_success_or_unhurt_an_escort_fights_on() -> None:
    """The escort that did not bomb stays while it is whole; once half its resistance is
    gone it flies home too. Before the success nobody goes home."""
    whole = _plan_after_success("hard", 20.0, 270.0)["escort"]
    assert min(p.y for p in whole) >= 0.0
    hurt = _plan_after_success("hard", 20.0, 270.0, damage=8)["escort"]
    assert min(p.y for p in hurt) < 0.0
    before = _plan_after_success("hard", 20.0, 270.0, done_by=None)
    assert all(min(p.y for p in poses) >= 0.0 for poses in before.values())


def test_render_narration_and_ending_say_the_mission() -> None:
    """The drawing shows the target card (filled once accomplished) and the caption says
    so; the narration and the game's ending say the +2 and the way home (M6)."""
    sit = situation(
        breguet(45.0, 25.0, 270.0),
        albatros(),
        ruleset="wow",
        table=TABLE,
        targets=[target(45.0, 14.0, carriers=["breguet"], home="south")],
    )
    state, events = run(sit)
    drawing = render_svg(state, events, title="mission")
    assert 'data-target="depot"' in drawing and 'class="target-card done"' in drawing
    assert "bombing mission depot of the allies side: accomplished by breguet (+2)" in drawing
    lines = [describe(e) for e in events]
    assert "breguet bombs target depot: mission accomplished, +2 to allies." in lines
    assert (
        "breguet goes home across its own south edge after the mission: no point for the enemy."
        in lines
    )
    how = ending(state)
    assert how is not None
    assert how["how"]["allies"] == ["+2: bombing mission depot (breguet)"]
    assert how["how"]["central"] == ["+0: enemy breguet went home after its mission"]
    grid = table_map(state, frozenset()).replace("north", "").replace("south", "")
    assert "T" not in grid and "t" in grid


def test_simulate_totals_match_points_across_games() -> None:
    """``dogfight simulate`` reports its games as a match series (rulings M7): each side's
    points totalled, the side ahead, and running totals per game in games.csv."""
    games = [
        GameResult(0, 1, "central", True, 5, 15, points={"allies": 0, "central": 3}),
        GameResult(1, 2, "allies", True, 4, 12, points={"allies": 4, "central": 0}),
        GameResult(
            2, 3, "allies", True, 6, 18, points={"allies": 3, "central": 0}, missions={"d": "b"}
        ),
    ]
    summary = summarize(games, ["allies", "central"])
    assert summary["match_points"] == {
        "totals": {"allies": 7, "central": 3},
        "per_game": {"allies": round(7 / 3, 4), "central": 1.0},
        "leader": "allies",
    }
    assert summary["missions"] == {"d": 1}
    rows = games_csv(games).splitlines()
    header = rows[0].split(",")
    totals = [dict(zip(header, r.split(","), strict=True)) for r in rows[1:]]
    assert [(t["total:allies"], t["total:central"]) for t in totals] == [
        ("0", "3"),
        ("4", "3"),
        ("7", "3"),
    ]


def test_the_shipped_mission_example() -> None:
    """examples/mission.json (docs/situations.md): the Breguet bombs, goes home across its
    own edge, and the Germans win without scoring it (M3, M6)."""
    path = Path(__file__).parent.parent / "examples" / "mission.json"
    _, events = run(json.loads(path.read_text()))
    assert [e.mission for e in of(events, MissionAccomplished)] == ["depot"]
    assert [e.vehicle for e in of(events, HomeAfterMission)] == ["breguet"]
    assert of(events, GameOver)[0].scores == {"allies": 2, "central": 0}

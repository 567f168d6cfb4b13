"""Campaigns (issue 15): the campaign file checked on load, pilots' records, aces, the
casualty roll, the mission graph, results written once, the terminal commands and
``simulate --campaign``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import default_plans, run
from test_cli import assert_clean_refusal, dogfight
from typer.testing import CliRunner

from dogfight.campaign.missions import prepare, result_of
from dogfight.campaign.record import CampaignError, MissionResult, apply_result, start
from dogfight.campaign.spec import CampaignSpec, available, load_campaign, parse_campaign
from dogfight.catalog.loader import Catalog
from dogfight.cli.app import app
from dogfight.errors import DataError
from dogfight.rules.events import DamageDrawn, Eliminated, GameOver, SkillUsed
from dogfight.sim.campaign import play_campaign, summarize_campaigns

SMALL = """
id = "small"
title = "Small"
sides = ["allies", "central"]
max_missions = 3
start = "one"
[ace]
victories = 1
skills = ["itchy_trigger_finger"]
[[casualties]]
fate = "killed"
weight = 1
[[squadron]]
id = "a"
side = "allies"
airplanes = ["sopwith-camel"]
pilots = ["Ann", "Bob"]
[[squadron]]
id = "c"
side = "central"
airplanes = ["albatros-d5a"]
pilots = ["Carl", "Dora"]
[[mission]]
id = "one"
forces = { allies = 1, central = 1 }
next = { win = "two", loss = "two" }
[[mission]]
id = "two"
forces = { allies = 1, central = 1 }
next = { win = "three", loss = "three" }
[[mission]]
id = "three"
forces = { allies = 1, central = 1 }
"""


def small(catalog: Catalog, text: str = SMALL) -> CampaignSpec:
    return parse_campaign(text, "small.toml", catalog)


def result(number: int, mission: str, **kw: object) -> MissionResult:
    base: dict[str, object] = {
        "number": number,
        "mission": mission,
        "winner": None,
        "points": {},
        "damage": {},
        "shot_down": [],
        "victories": {},
    }
    base.update(kw)
    return MissionResult(**base)  # type: ignore[arg-type]


def test_shipped_campaigns_load(catalog: Catalog) -> None:
    assert {"bloody-april", "the-martian-invasion"} <= set(available())
    for name in available():
        spec, text = load_campaign(name, catalog)
        assert spec.missions and text


UNKNOWN_SCENARIO = SMALL.replace(
    'id = "one"\nforces = { allies = 1, central = 1 }',
    'id = "one"\nscenario = "no-such-scenario"',
)
NO_AIRPLANES = SMALL.replace('airplanes = ["sopwith-camel"]', "airplanes = []")
CYCLE = SMALL.replace(
    'next = { win = "three", loss = "three" }', 'next = { win = "one", loss = "one" }'
)


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        (UNKNOWN_SCENARIO, "mission[0].scenario", "no-such-scenario"),
        (NO_AIRPLANES, "squadron[0].airplanes", []),
        (CYCLE, "mission.next", ["one", "two"]),
    ],
)
def test_bad_campaign_files_are_refused_on_load(
    catalog: Catalog, text: str, field: str, value: object
) -> None:
    """Issue 15: "a mission that names an unknown scenario, a cycle with no exit, or a
    squadron with no airplanes: refused on load with file, field and value"."""
    with pytest.raises(DataError) as caught:
        small(catalog, text)
    assert caught.value.source == "small.toml"
    assert caught.value.field == field
    assert caught.value.value == value


def test_bad_campaign_file_exits_2_from_the_cli(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(NO_AIRPLANES)
    out = dogfight("campaign", "new", str(bad), "--db", str(tmp_path / "c.db"))
    assert_clean_refusal(out, "squadron[0].airplanes", "bad.toml")


def test_a_pilot_becomes_an_ace_and_uses_the_skill_next_mission(catalog: Catalog) -> None:
    """An ace "after a number of victories, gaining one of the ace skills the engine
    already has": the skill is the vehicle's in the next mission, and the engine uses it
    (000's Itchy Trigger Finger: "once every 5 phases, the pilot shoots first")."""
    spec = small(catalog)
    campaign, _ = prepare(spec, start(spec, 1), catalog)
    ann = next(f for f in campaign.flights if f.pilot == "Ann")
    after = apply_result(spec, campaign, result(1, "one", victories={ann.vehicle: 1}))
    assert after.pilot("Ann").skills == ["itchy_trigger_finger"]
    assert "Ann is an ace: itchy trigger finger" in after.history[-1].events
    _, situation = prepare(spec, after, catalog)
    data = situation.model_dump(mode="json", exclude_defaults=True)
    mine = next(v for v in data["vehicles"] if v["id"] == ann.vehicle)
    assert mine["skills"] == ["itchy_trigger_finger"]
    # the two airplanes 40 cm apart, nose to nose: the ace shoots first
    for v in data["vehicles"]:
        v["pose"] = {
            "x": 45.0,
            "y": 30.0 if v["side"] == "allies" else 70.0,
            "heading": 90.0 if v["side"] == "allies" else 270.0,
        }
        v["plans"] = default_plans(v["type"])
    _, events = run(data, phases=1)
    used = [e for e in events if isinstance(e, SkillUsed)]
    assert used and used[0].vehicle == ann.vehicle


def test_a_killed_pilot_is_absent_from_the_next_mission(catalog: Catalog) -> None:
    """ "a pilot whose airplane is shot down is wounded (misses missions), captured or
    killed by a seeded roll from a table in data" -- here the table only kills."""
    spec = small(catalog)
    campaign, _ = prepare(spec, start(spec, 1), catalog)
    ann = next(f for f in campaign.flights if f.pilot == "Ann")
    after = apply_result(spec, campaign, result(1, "one", shot_down=[ann.vehicle]))
    assert after.pilot("Ann").status == "killed"
    nxt, _ = prepare(spec, after, catalog)
    flying = {f.pilot for f in nxt.flights}
    assert "Ann" not in flying and "Bob" in flying


def test_replacement_pilots_join_when_too_few_can_fly(catalog: Catalog) -> None:
    spec = small(catalog)
    campaign = start(spec, 1)
    for pilot in campaign.pilots:
        if pilot.side == "allies":
            pilot.status = "killed"
    nxt, _ = prepare(spec, campaign, catalog)
    assert [f.pilot for f in nxt.flights if f.side == "allies"] == ["Replacement 1"]


def test_a_result_is_written_once(catalog: Catalog) -> None:
    """Issue 15: "a mission result written twice: refused, nothing changed"."""
    spec = small(catalog)
    campaign, _ = prepare(spec, start(spec, 1), catalog)
    first = result(1, "one", winner="allies")
    after = apply_result(spec, campaign, first)
    before = json.dumps(after.to_json(), sort_keys=True)
    with pytest.raises(CampaignError, match="written once"):
        apply_result(spec, after, first)
    assert json.dumps(after.to_json(), sort_keys=True) == before


def test_victories_are_credited_to_the_last_enemy_to_hit(catalog: Catalog) -> None:
    spec = small(catalog)
    campaign, _ = prepare(spec, start(spec, 1), catalog)
    sides = {f.vehicle: f.side for f in campaign.flights}
    ann, carl = (f.vehicle for f in sorted(campaign.flights, key=lambda f: f.side))
    events = [
        DamageDrawn(carl, "A", ("A1",), 3, 3, f"{ann} front"),
        Eliminated(carl, "shot_down"),
        GameOver("allies", {"allies": 2, "central": 0}),
    ]
    got = result_of(spec, campaign, events, "allies", sides)
    assert got.victories == {ann: 1}
    assert got.shot_down == [carl]
    assert got.points == {"allies": 2, "central": 0}
    assert got.winner == "allies"


def test_a_victory_goes_to_the_card_that_brought_the_enemy_down(catalog: Catalog) -> None:
    """R33: with several firers in one step, the card that took the total to the
    resistance names who brought the vehicle down (``Eliminated.by``), not the last
    damage drawn; the campaign credits that pilot."""
    spec = small(catalog)
    campaign, _ = prepare(spec, start(spec, 1), catalog)
    sides = {f.vehicle: f.side for f in campaign.flights}
    ann, carl = (f.vehicle for f in sorted(campaign.flights, key=lambda f: f.side))
    sides["wingman"] = sides[ann]
    events = [
        DamageDrawn(carl, "A", ("A1",), 3, 3, "wingman front"),
        DamageDrawn(carl, "A", ("A2",), 2, 5, f"{ann} front"),
        Eliminated(carl, "shot_down", by="wingman", means="front", deck="A"),
        GameOver("allies", {"allies": 2, "central": 0}),
    ]
    got = result_of(spec, campaign, events, "allies", sides)
    assert got.victories == {"wingman": 1}


def test_a_simulated_campaign_replays_exactly_and_follows_the_graph(catalog: Catalog) -> None:
    spec, _ = load_campaign("bloody-april", catalog)
    one = play_campaign(spec, catalog, 5, {"allies": "random", "central": "random"}, 8)
    two = play_campaign(spec, catalog, 5, {"allies": "random", "central": "random"}, 8)
    assert one.to_json() == two.to_json()
    assert one.over
    for entry, following in zip(one.history, one.history[1:], strict=False):
        rule = spec.mission(entry.mission).next
        expected = {"win": rule.win, "loss": rule.loss, "draw": rule.draw or rule.loss}
        if rule.points_at_least is None or entry.points.get("allies", 0) < rule.points_at_least:
            assert following.mission == expected[entry.outcome]
    summary = summarize_campaigns(spec, [one])
    assert summary.campaigns == 1 and summary.missions == len(one.history)


def test_campaign_commands_from_the_terminal(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    runner = CliRunner()
    made = runner.invoke(app, ["campaign", "new", "bloody-april", "--db", db, "--seed", "2"])
    assert made.exit_code == 0, made.output
    campaign_id = made.output.split(":")[0]
    played = runner.invoke(
        app, ["campaign", "next", campaign_id, "--db", db, "--bots", "random", "--max-turns", "6"]
    )
    assert played.exit_code == 0, played.output
    assert "Mission 1: Dawn patrol" in played.output and "Result:" in played.output
    status = runner.invoke(app, ["campaign", "status", campaign_id, "--db", db])
    assert status.exit_code == 0 and "Dawn patrol" in status.output and "Next:" in status.output
    assert_clean_refusal(dogfight("campaign", "status", "c-nope", "--db", db), "c-nope")


def test_simulate_campaigns(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    done = CliRunner().invoke(
        app,
        [
            "simulate",
            "--campaign",
            "bloody-april",
            "--games",
            "2",
            "--bots",
            "random",
            "--max-turns",
            "6",
            "--out",
            str(out),
        ],
    )
    assert done.exit_code == 0, done.output
    data = json.loads((out / "campaigns.json").read_text())
    assert data["summary"]["campaigns"] == 2
    assert set(data["summary"]["wins"]) == {"allies", "central"}
    assert set(data["summary"]["pilots"]["allies"]) >= {"lost_rate", "missions_before_loss"}


def test_a_scenario_mission_keeps_the_scenarios_ruleset(catalog: Catalog) -> None:
    """docs/campaigns.md: the campaign's ruleset is every mission's, "a scenario's own
    ruleset wins" (a WW2 scenario in a WW1 campaign)."""
    text = SMALL.replace(
        'id = "one"\nforces = { allies = 1, central = 1 }',
        'id = "one"\nscenario = "alsace-again"\nsides = { earth = "allies", martians = "central" }',
    )
    spec = small(catalog, text)
    _, situation = prepare(spec, start(spec, 1), catalog)
    assert situation.ruleset in (None, "ww2")
    later = apply_result(spec, prepare(spec, start(spec, 1), catalog)[0], result(1, "one"))
    _, custom = prepare(spec, later, catalog)
    assert custom.ruleset == "wog"


def test_bloody_april_flies_002s_bombing_and_photographic_missions(catalog: Catalog) -> None:
    """Issue 15: the airplane campaign uses "002's bombing/photo targets once they exist"
    (002: "Bombing/Photographic missions: Score upon successful execution"): two Allied
    wins lead to the bombing of *Wings over the Flanders*, a defensive patrol lost to the
    photographic flight of *Eyes over the lines*; each is flown by the campaign's pilots
    with its target card on the table, and its result comes back to the campaign."""
    import numpy as np

    from dogfight.rules.events import Event
    from dogfight.sim.run import play_game
    from dogfight.situation.format import build

    spec, _ = load_campaign("bloody-april", catalog)
    campaign = start(spec, 7)
    for number, mission in ((1, "dawn-patrol"), (2, "line-sweep")):
        campaign = apply_result(
            spec, prepare(spec, campaign, catalog)[0], result(number, mission, winner="allies")
        )
    assert campaign.current == "flanders-raid"
    flying, situation = prepare(spec, campaign, catalog)
    state = build(situation, catalog, 3)
    kinds = {t.mission for t in state.targets.values()}
    assert kinds == {"bombing"}
    pilots = {f.pilot for f in flying.flights if f.side == "allies"}
    assert pilots & {p.name for p in campaign.pilots if p.side == "allies"}
    events: list[Event] = []
    game = play_game(situation, catalog, {}, np.random.SeedSequence(3), 0, 30, events)
    sides = {v.id: v.side for v in state.vehicles.values()}
    outcome = result_of(spec, flying, events, game.winner, sides, game="seed 3")
    after = apply_result(spec, flying, outcome)
    assert after.history[-1].mission == "flanders-raid"

    lost = start(spec, 8)
    lost = apply_result(
        spec, prepare(spec, lost, catalog)[0], result(1, "dawn-patrol", winner="central")
    )
    lost = apply_result(
        spec, prepare(spec, lost, catalog)[0], result(2, "defensive-patrol", winner="central")
    )
    assert lost.current == "photo-flight"
    _, photo = prepare(spec, lost, catalog)
    assert {t.mission for t in build(photo, catalog, 1).targets.values()} == {"photo"}


def test_an_unknown_scenario_is_named_with_the_known_ones_wherever_it_is_asked(
    catalog: Catalog,
) -> None:
    """One "unknown scenario" message (``Catalog.scenario``) for a scenario table, a solo
    game and a campaign's mission: the source, the field, the scenario asked for and
    every known scenario after what the field could have named."""
    from dogfight.sim.solo import play_solo
    from dogfight.situation.scenarios import scenario_situation

    known = ", ".join(sorted(catalog.scenarios))
    asked: dict[str, Callable[[], object]] = {
        "SCENARIO": lambda: scenario_situation(catalog, "no-such-scenario"),
        "solo": lambda: play_solo(catalog, "no-such-scenario", 1),
        "small.toml": lambda: small(catalog, UNKNOWN_SCENARIO),
    }
    for source, ask in asked.items():
        with pytest.raises(DataError) as caught:
            ask()
        assert caught.value.source == source
        assert caught.value.value == "no-such-scenario"
        assert str(caught.value.allowed).endswith(": " + known)

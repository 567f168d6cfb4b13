"""*First Contact* (000's introductory scenario) in the batched simulator: its setups as
``simulate`` varies them, the Standard Rules' special damage, the two ace skills and the
scenario's victory conditions, held to the referee phase by phase; ``simulate
first-contact --engine batch`` plays it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from test_simulate import dogfight

from dogfight.batch.bridge import from_states
from dogfight.batch.compare import scenario_matchup
from dogfight.batch.differential import run
from dogfight.batch.run import template_of
from dogfight.batch.scenario import EDGES, judged
from dogfight.catalog.loader import Catalog
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation


def test_batch_and_referee_agree_on_first_contact(catalog: Catalog) -> None:
    """Identical phases on >= 99.9% of First Contact's phases (random plans and tokens),
    its victories included (the tripod destroyed; the objectives and the exit; both
    planes out), none unexplained."""
    report = run(catalog, 150, seed=3, max_turns=30, scenario="first-contact")
    assert report.phases > 2000
    assert report.classes.get("unexplained", 0) == 0, report.examples
    assert report.rate >= 0.999
    assert report.skills > 50 and report.tripod_specials > 50 and report.objectives > 0


def test_scenario_victories_in_order(catalog: Catalog) -> None:
    """The first condition met wins; the tripod off the Earth edge with the objectives
    destroyed is the Martians'; off another edge, or without them, nothing: a side with
    nothing in play ends the game undecided."""
    state = build(scenario_situation(catalog, "first-contact"), catalog, 0)
    batch = from_states([state] * 4)
    slots = {name: n for n, name in enumerate(batch.names[0])}
    martians, earth = batch.side_names.index("martians"), batch.side_names.index("earth")
    locust, first, second = slots["locust"], slots["first"], slots["second"]
    act = np.ones(4, dtype=np.bool_)
    # 0: the tripod shot down and both planes out in the same step: the Earth's (first)
    batch.alive[0, [locust, first, second]] = False
    batch.reason[0, [locust, first, second]] = 1
    # 1: the tripod off the south edge, every objective destroyed: the Martians'
    batch.alive[1, locust] = False
    batch.reason[1, locust] = 4
    batch.exit_edge[1, locust] = EDGES.index("south")
    batch.obj_destroyed[1] = True
    # 2: off the north edge with them all destroyed: nobody's
    batch.alive[2, locust] = False
    batch.reason[2, locust] = 4
    batch.exit_edge[2, locust] = EDGES.index("north")
    batch.obj_destroyed[2] = True
    # 3: both planes left the table ("leaving counts"): the Martians'
    batch.alive[3, [first, second]] = False
    batch.reason[3, [first, second]] = 4
    ends, winner = judged(batch, act)
    assert ends.tolist() == [True, True, True, True]
    assert winner.tolist() == [earth, martians, -1, martians]


def test_setups_vary_as_simulate_varies_them(catalog: Catalog) -> None:
    """A scenario named without a situation file starts each batched game from one of
    many setups, drawn by the referee's own ``scenario_situation``."""
    situation = scenario_situation(catalog, "first-contact")
    template = template_of(situation.model_dump(mode="json", exclude_defaults=True), None, True, 5)
    assert template.tables > 100
    assert len({round(float(x), 6) for x in template.x[:, 1]}) > 50
    assert template.victories is not None and template.victories.scenario == "first-contact"


def test_simulate_plays_first_contact_with_the_batch_engine(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["simulate", "first-contact", "--engine", "batch", "--games", "300"]
    result = dogfight(*args, "--workers", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["bots"] == {"earth": "random", "martians": "random"}
    assert data["summary"]["games"] == 300
    wins = data["summary"]["wins"]
    assert wins["earth"]["count"] > 30 and wins["martians"]["count"] > 30, wins


def test_batched_first_contact_games_are_the_referees_games(catalog: Catalog) -> None:
    """Win rates (Earth, Martians, undecided, turn cap) and game lengths of batched
    random First Contact games agree with the referee's within 95% intervals."""
    report = scenario_matchup(catalog, "first-contact", 1500, 100, seed=3, max_turns=12)
    assert report["agree"], report

"""Tripods in the batched simulator (000's basic rules): the differential test on random
tripod tables (tokens, heat-rays, the electrified armour, toppling), the round trip
through the referee's state, and what the batch still refuses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_simulate import dogfight

from dogfight.batch.bridge import from_states, to_state
from dogfight.batch.compare import TRIPOD_MATCHUPS, tripod_matchup
from dogfight.batch.differential import random_tripod_table, run
from dogfight.batch.run import play
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError
from dogfight.sim.duel import tripod_situation, tripods_situation
from dogfight.situation.format import build, parse_situation


def test_batch_and_referee_agree_on_tripod_tables(catalog: Catalog) -> None:
    """Identical walks, tokens' effects, heat-rays (target, range, cards), protected hits
    (the cards and the Energy lost), toppling, consoles and eliminations for >= 99.9% of
    the phases of random tripod tables, none unexplained (docs/batch.md)."""
    report = run(catalog, 60, seed=5, max_turns=6, tripods=True)
    assert report.phases > 600
    assert report.classes.get("unexplained", 0) == 0, report.examples
    assert report.rate >= 0.999
    assert report.rays > 5 and report.protected > 5 and report.toppled > 5


def test_tripod_round_trip_through_the_referee_state(catalog: Catalog) -> None:
    rng = np.random.default_rng(3)
    state = build(parse_situation(random_tripod_table(catalog, rng)), catalog, 0)
    back = to_state(from_states([state]), 0, state)
    for vid, v in state.vehicles.items():
        w = back.vehicles[vid]
        assert (w.kind, w.pose, w.damage, w.resistance) == (v.kind, v.pose, v.damage, v.resistance)
        if v.tripod is not None:
            assert w.tripod is not None
            assert (w.tripod.energy, w.tripod.toppled, w.tripod.cooling) == (
                v.tripod.energy,
                v.tripod.toppled,
                v.tripod.cooling,
            )


def test_random_tripod_games_finish(catalog: Catalog) -> None:
    data = random_tripod_table(catalog, np.random.default_rng(8))
    template = from_states([build(parse_situation(data), catalog, 0)])
    results = play(template, {"martians": "random", "earth": "random"}, 200, seed=1)
    assert len(results) == 200
    assert sum(r.over for r in results) > 150


def test_refuses_two_tripods(catalog: Catalog) -> None:
    with pytest.raises(DataError, match="more than one tripod"):
        from_states([build(tripods_situation(), catalog, 0)])


@pytest.mark.parametrize("tripod,planes", TRIPOD_MATCHUPS)
def test_batched_tripod_games_are_the_referees_games(
    catalog: Catalog, tripod: str, planes: tuple[str, ...]
) -> None:
    """Win rates and game lengths of batched random games of a tripod against airplanes
    agree with the referee's random bot's within 95% intervals (the tokens chosen as
    every computer player chooses them)."""
    report = tripod_matchup(catalog, tripod, planes, 1500, 80, seed=3, max_turns=12)
    assert report["agree"], report


def test_simulate_plays_a_tripod_table_with_the_batch_engine(tmp_path: Path) -> None:
    table = tmp_path / "locust.json"
    situation = tripod_situation("mk1-locust", ["sopwith-camel", "spad-xiii"])
    table.write_text(situation.model_dump_json(exclude_none=True))
    out = tmp_path / "out"
    args = ["simulate", str(table), "--engine", "batch", "--games", "200", "--workers", "1"]
    result = dogfight(*args, "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["bots"] == {"earth": "random", "martians": "random"}
    assert data["summary"]["games"] == 200
    refused = dogfight(*args, "--bots", "earth=easy", "--out", str(out))
    assert refused.returncode == 2
    assert "on a table with a tripod" in refused.stderr
    assert "Traceback" not in refused.stderr

"""Tripods in the batched simulator (000's basic rules): the differential test on random
tripod tables (tokens, heat-rays, the electrified armour, toppling), the round trip
through the referee's state, and what the batch still refuses."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from test_simulate import dogfight

from dogfight.batch.armour import guns_at_tripod
from dogfight.batch.bridge import from_states, to_state
from dogfight.batch.compare import TRIPOD_MATCHUPS, tripod_matchup
from dogfight.batch.differential import random_tripod_table, run
from dogfight.batch.heat_ray_rulers import overlaps_of
from dogfight.batch.heat_rays import table_state
from dogfight.batch.run import play
from dogfight.batch.state import WEAPONS
from dogfight.batch.tripod_plans import bot_tokens, choosers, option, plan_tripods
from dogfight.bots.tokens import choose_token
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError
from dogfight.rules import action_tokens, firing
from dogfight.rules.observation import observe
from dogfight.rules.plans import Action
from dogfight.sim.duel import tripod_situation, tripods_situation
from dogfight.situation.format import build, parse_situation


def test_batch_and_referee_agree_on_tripod_tables(catalog: Catalog) -> None:
    """Identical walks, tokens' effects, heat-rays (target, range, cards), protected hits
    (the cards and the Energy lost), toppling, consoles, objectives destroyed or recharged
    from, and eliminations for >= 99.9% of the phases of random tripod tables, none
    unexplained (docs/batch.md)."""
    report = run(catalog, 100, seed=5, max_turns=6, tripods=True)
    assert report.phases > 1000
    assert report.classes.get("unexplained", 0) == 0, report.examples
    assert report.rate >= 0.999
    assert report.rays > 5 and report.protected > 5 and report.toppled > 5
    assert report.objectives > 0


def test_batch_and_referee_agree_under_the_standard_rules(catalog: Catalog) -> None:
    """000's special damage table on tripod tables (``standard_rules``): airplanes' and
    tripods' icons (a wounded pilot, engine, fire, gyroscope, reverse mechanism, circuits,
    batteries, toppling), their restrictions on plans and tokens, and lasting damage
    given at the start, as the referee plays them on >= 99.9% of the phases."""
    report = run(catalog, 150, seed=6, max_turns=6, tripods=True, standard=True)
    assert report.phases > 1500
    assert report.classes.get("unexplained", 0) == 0, report.examples
    assert report.rate >= 0.999
    assert report.specials > 100 and report.tripod_specials > 20


def test_batch_and_referee_agree_on_ace_skills(catalog: Catalog) -> None:
    """000's Itchy Trigger Finger (its volley resolved before anyone else fires: the
    vehicles it eliminates or topples fire no more, a pilot it wounds on a steep card
    holds his fire) and Sniper (two cards, the worst kept, the other shuffled back),
    each once every 5 phases, as the referee plays them."""
    report = run(catalog, 200, seed=8, max_turns=6, tripods=True, standard=True)
    assert report.classes.get("unexplained", 0) == 0, report.examples
    assert report.rate >= 0.999
    assert report.skills > 50


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
    # damage by source as the referee labels it: the heat-ray's as "<tripod> heat-ray"
    assert any("t0 heat-ray" in r.damage for r in results)
    assert all(not k.startswith("t0 ") or k == "t0 heat-ray" for r in results for k in r.damage)


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
    # the planning bots fly a tripod as the Martian bot does (as in the referee)
    planned = dogfight(*args, "--bots", "martians=easy", "--out", str(out))
    assert planned.returncode == 0, planned.stderr
    refused = dogfight(*args, "--bots", "martians=hard", "--out", str(out))
    assert refused.returncode == 2
    assert "the batch engine plays the bots" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_guns_at_a_tripod_match_the_referee(catalog: Catalog) -> None:
    """Range to the hexagon's nearest visible in-arc point and the armour, on arrays,
    against the referee's ``firing.options`` (partial cover by the other airplanes, every
    model's protected sides, a tripod with or without Energy, toppled or standing)."""
    rng = np.random.default_rng(0)
    models = sorted(catalog.tripods)
    planes = ["bristol-f2b", "spad-xiii", "sopwith-camel", "albatros-d5a"]
    compared = protected = 0
    for _ in range(150):
        vehicles: list[dict[str, object]] = [
            {
                "id": "t0",
                "type": models[int(rng.integers(len(models)))],
                "side": "martians",
                "pose": {"x": 45.0, "y": 45.0, "heading": float(rng.uniform(0, 360))},
                "energy": int(rng.integers(0, 3)),
                "toppled": int(rng.choice([0, 0, 0, 1])),
            }
        ]
        for i in range(3):
            pose = {"x": 45 + rng.uniform(-25, 25), "y": 45 + rng.uniform(-25, 25)}
            vehicles.append(
                {
                    "id": f"v{i}",
                    "type": planes[int(rng.integers(len(planes)))],
                    "side": "earth",
                    "pose": {**pose, "heading": float(rng.uniform(0, 360))},
                }
            )
        state = build(parse_situation({"ruleset": "wog", "vehicles": vehicles}), catalog, 0)
        batch = from_states([state])
        gs, _ = table_state(batch, 0)
        table = firing.table_of(gs)
        rect, overlaps = overlaps_of(batch, np.array([0]))
        for i in range(1, 4):
            for w in (0, 1):
                if batch.spec.type_weapon_deck[batch.type[0, i], w] < 0:
                    continue
                firer = gs.vehicles[batch.names[0][i]]
                found = [
                    o for o in firing.options(gs, table, firer, WEAPONS[w]) if o.target == "t0"
                ]
                distance, armour = guns_at_tripod(
                    batch,
                    np.array([0]),
                    np.array([i]),
                    np.array([w]),
                    np.array([0]),
                    (np.array([0]), rect, overlaps),
                )
                if found:
                    assert math.isclose(distance[0], found[0].sight.distance, abs_tol=1e-6)
                    assert bool(armour[0]) == found[0].protected
                    compared += 1
                    protected += found[0].protected
                else:
                    assert math.isinf(distance[0])
    assert compared > 100 and protected > 10


def test_batch_tokens_are_the_bots_tokens(catalog: Catalog) -> None:
    """The ``random`` policy's tokens are every computer player's (``choose_token``,
    answering the referee's decision from the tripod's seat's observation)."""
    rng = np.random.default_rng(4)
    tables = [random_tripod_table(catalog, rng) for _ in range(200)]
    states = [build(parse_situation(t), catalog, i) for i, t in enumerate(tables)]
    batch = from_states(states)
    plan_tripods(batch, rng)
    bot_tokens(batch, rng)
    asked = choosers(batch)
    compared = 0
    for b, n in zip(*np.nonzero(asked), strict=True):
        state = to_state(batch, int(b), states[b])
        vid = batch.names[b][n]
        default = Action(token="recharge") if batch.pencil[b, n, 0] else None
        decision = action_tokens.decision(state, 1, state.vehicles[vid], default)
        seen = observe(state, frozenset({vid}), [decision])
        answer = choose_token(seen, state.rules, decision, np.random.default_rng(0))
        assert answer == (option(batch, int(b), int(n)),), (b, decision.options)
        compared += 1
    assert compared > 100

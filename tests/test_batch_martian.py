"""The batch's ``martian`` policy (batch/martian.py): the referee's Martian bot's tripod
planning on arrays. It plans only what the referee accepts, chooses each phase's token
as every computer player does (the token it pencilled in as the default), plays
*First Contact* as the referee's bot plays it (a statistical test), and ``simulate
--engine batch`` flies a tripod with it (docs/batch.md "Policies")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_simulate import dogfight

from dogfight.batch.bridge import to_state
from dogfight.batch.compare import scenario_matchup
from dogfight.batch.game import resolve_phase
from dogfight.batch.martian import martian_plans
from dogfight.batch.policies import random_plans
from dogfight.batch.run import template_of
from dogfight.batch.state import BatchState
from dogfight.batch.tripod_plans import choosers, option
from dogfight.batch.tripod_spec import DESTROY_OBJECTIVE, RECHARGE
from dogfight.bots.tokens import choose_token
from dogfight.bots.tripod_planner import plan_tripod
from dogfight.catalog.loader import Catalog
from dogfight.errors import IllegalPlanError
from dogfight.rules import action_tokens
from dogfight.rules.observation import observe
from dogfight.rules.plans import Action, Plan
from dogfight.rules.state import GameState
from dogfight.rules.turns import check_plans
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation


def _pencilled(batch: BatchState, b: int, n: int, phase: int) -> Action | None:
    """The green token the policy pencilled in for ``phase`` (0-based), as an action."""
    code = int(batch.pencil[b, n, phase])
    named = int(batch.pencil_target[b, n, phase])
    objective = batch.objective_ids[named] if named >= 0 else None
    if code == RECHARGE:
        return Action(token="recharge", objective=objective)
    if code == DESTROY_OBJECTIVE:
        return Action(token="destroy_objective", objective=objective)
    return None


def _first_contact(catalog: Catalog, seed: int) -> tuple[BatchState, GameState]:
    situation = scenario_situation(catalog, "first-contact")
    template = build(situation, catalog, 0)
    batch = template_of(situation.model_dump(mode="json", exclude_defaults=True), None, True, seed)
    return batch, template


def test_martian_plans_legal_cards_and_the_bots_tokens(catalog: Catalog) -> None:
    """On many First Contact setups, turn after turn, with some tripods short of Energy,
    toppled, hit in the engine, the reverse mechanism or the pilot: every plan the
    policy gives a tripod (its cards and the green tokens pencilled in) passes the
    referee's checks (``check_plans``), and each phase's token is the one every computer
    player chooses (``choose_token`` answering the referee's decision from the tripod's
    seat, the pencilled token its default)."""
    batch, template = _first_contact(catalog, 11)
    rng = np.random.default_rng(3)
    locust = batch.names[0].index("locust")
    tables = batch.tables
    batch.energy[:, locust] = rng.integers(0, 5, tables)
    batch.toppled[:, locust] = np.where(rng.random(tables) < 0.2, 1, 0)
    batch.engine[:, locust] = np.where(rng.random(tables) < 0.3, rng.integers(1, 3, tables), 0)
    # (both engine hits and the reverse mechanism leave no legal plan of three cards)
    batch.reverse_out[:, locust] = (rng.random(tables) < 0.2) & (batch.engine[:, locust] < 2)
    batch.wounded[:, locust] = rng.random(tables) < 0.2
    martians = batch.side == batch.side_names.index("martians")
    planned = tokens = destroying = stuck = 0
    for _ in range(18):
        turn_starts = (batch.phase == 0) & ~batch.over
        martian_plans(batch, rng, martians)
        random_plans(batch, rng, ~martians)
        for b in np.flatnonzero(turn_starts & batch.alive[:, locust]).tolist():
            state = to_state(batch, b, template)
            cards = tuple(
                batch.spec.tripods.card_ids[int(c)] for c in batch.tplan[b, locust] if c >= 0
            )
            actions = tuple(_pencilled(batch, b, locust, p) for p in range(3))
            try:
                check_plans(state, {"locust": Plan(cards=cards, actions=actions)}, alone=True)
            except IllegalPlanError:
                # only where the damage leaves no legal plan: the referee's bot's is refused too
                vehicle = state.vehicles["locust"]
                theirs = plan_tripod(state, vehicle, "first-contact", np.random.default_rng(0))
                with pytest.raises(IllegalPlanError):
                    check_plans(state, {"locust": theirs}, alone=True)
                stuck += 1
            destroying += int((batch.pencil[b, locust] == DESTROY_OBJECTIVE).any())
            planned += 1
        for b, n in zip(*np.nonzero(choosers(batch, martians)), strict=True):
            state = to_state(batch, int(b), template)
            phase = int(batch.phase[b])
            vehicle = state.vehicles[batch.names[b][n]]
            default = _pencilled(batch, int(b), int(n), phase)
            decision = action_tokens.decision(state, phase + 1, vehicle, default)
            seen = observe(state, frozenset({vehicle.id}), [decision])
            answer = choose_token(seen, state.rules, decision, np.random.default_rng(0))
            assert answer == (option(batch, int(b), int(n)),), (b, phase, decision.options)
            tokens += 1
        resolve_phase(batch, rng)
    assert planned > 600 and tokens > 1000 and destroying > 20, (planned, tokens, destroying)
    assert stuck < planned / 20, stuck


def test_martian_first_contact_games_are_the_referees_games(catalog: Catalog) -> None:
    """Win rates (Earth, Martians, undecided, turn cap) and game lengths of batched First
    Contact games with the ``martian`` bot flying the Locust (against random airplanes)
    agree with the referee's Martian bot's within 95% intervals."""
    bots = {"earth": "random", "martians": "martian"}
    report = scenario_matchup(catalog, "first-contact", 1200, 100, 3, 12, bots)
    assert report["agree"], report


def test_simulate_flies_a_tripod_with_the_martian_bot(tmp_path: Path) -> None:
    """``simulate first-contact --engine batch --bots martians=martian`` plays (the batch
    had no such bot: refused, exit 2), and the bot walks to the objectives, destroys
    them and leaves across the Earth side: the Martians win far more often than with the
    random bot (39% of 4,000 games, docs/batch.md)."""
    out = tmp_path / "out"
    args = ["simulate", "first-contact", "--engine", "batch", "--games", "200"]
    result = dogfight(*args, "--workers", "1", "--bots", "martians=martian", "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["bots"] == {"earth": "random", "martians": "martian"}
    wins = data["summary"]["wins"]
    assert wins["martians"]["count"] > 0.48 * 200, wins

"""The airplane bots ``easy`` and ``learned`` fly the Earth side's airplanes on tripod
tables in the batch (docs/batch.md "Policies"): the batched ``easy`` takes the tripod as
an enemy standing with its heat-ray all round (batch/foes.py), ``learned`` plans through
the referee's bot; the tripod side still ``random`` only; and ``learned`` flies WW2
airplanes in the batch, one card and speed per phase."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_simulate import dogfight

from dogfight.batch import ww2
from dogfight.batch.bridge import from_states, to_state
from dogfight.batch.easy import easy_plans
from dogfight.batch.game import resolve_phase
from dogfight.batch.learned import batch_learned_plans
from dogfight.batch.plan_kinds import needing
from dogfight.batch.policies import Policy, random_plans
from dogfight.batch.run import template_of
from dogfight.batch.state import tile
from dogfight.bots.view import legal_sequences, status_mask
from dogfight.catalog.loader import Catalog
from dogfight.rules.plans import Plan, plan_problems
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.turns import allowed_symbols, check_plans
from dogfight.situation.format import build, parse_situation
from dogfight.situation.scenarios import scenario_situation

EXAMPLES = Path(__file__).parent.parent / "examples"


def _keeps_restrictions_possible(state: GameState, vehicle: Vehicle) -> bool:
    """Some plan breaks no flight restriction and obeys the vehicle's damage."""
    deck = state.rules.deck_of(vehicle.type)
    rules = state.rules
    seqs = legal_sequences(deck, vehicle.previous, allowed_symbols(state), rules.restrictions)
    return bool(status_mask(deck, seqs, vehicle.status, state.turn, rules.specials).any())


@pytest.mark.parametrize("policy", [easy_plans, batch_learned_plans])
def test_airplane_bots_plan_legal_plans_on_first_contact(catalog: Catalog, policy: Policy) -> None:
    """On many First Contact setups, turn after turn, every plan the bot gives the Earth
    airplanes passes the referee's checks of a plan (``check_plans``) and breaks no
    flight restriction (``plan_problems``)."""
    situation = scenario_situation(catalog, "first-contact")
    template = build(situation, catalog, 0)
    batch = template_of(situation.model_dump(mode="json", exclude_defaults=True), None, True, 7)
    earth = batch.side == batch.side_names.index("earth")
    rng = np.random.default_rng(5)
    checked = 0
    for phase in range(12):
        planning = batch.phase == 0
        policy(batch, rng, earth)
        random_plans(batch, rng, ~earth)
        if phase % 3 == 0:
            for b in np.flatnonzero(planning & ~batch.over).tolist()[:64]:
                state = to_state(batch, b, template)
                plans = {
                    vid: Plan(cards=tuple(batch.spec.card_ids[c] for c in batch.plan[b, n]))
                    for n, vid in enumerate(batch.names[b])
                    if earth[b, n] and batch.alive[b, n]
                }
                if plans:
                    # refused plans (shape, deck, the damage's restrictions) ...
                    placed = check_plans(state, plans, alone=True)
                    for vid, plan in placed.items():
                        # ... and the flight restrictions (flown as illegal maneuvers),
                        # whenever the damage leaves a plan that keeps them (an airplane
                        # on fire after an Immelmann may not plan the straight it owes)
                        vehicle = state.vehicles[vid]
                        if not _keeps_restrictions_possible(state, vehicle):
                            continue
                        cards = state.rules.maneuver_cards(vehicle.type)
                        flown = [cards[c] for c in plan.cards]
                        assert not plan_problems(
                            vehicle.previous, flown, state.rules.restrictions
                        ), (vid, plan.cards)
                    checked += len(plans)
        resolve_phase(batch, rng)
    assert checked > 200


@pytest.mark.parametrize("bot", ["easy", "learned"])
def test_simulate_flies_earth_with_airplane_bots_on_tripod_tables(tmp_path: Path, bot: str) -> None:
    """``--bots earth=easy`` / ``earth=learned`` play First Contact and the example
    tripod table with the batch engine (they were refused); the tripod side given them
    plays too, its tripod flown as the Martian bot flies it (as in the referee)."""
    for table in ("first-contact", str(EXAMPLES / "tripod.json")):
        out = tmp_path / "out"
        args = ["simulate", table, "--engine", "batch", "--games", "40", "--workers", "1"]
        result = dogfight(*args, "--bots", f"earth={bot}", "--out", str(out))
        assert result.returncode == 0, result.stderr
        data = json.loads((out / "results.json").read_text())
        assert data["config"]["bots"] == {"earth": bot, "martians": "random"}
        assert data["summary"]["games"] == 40
        both = dogfight(*args, "--bots", bot, "--out", str(out))
        assert both.returncode == 0, both.stderr
        data = json.loads((out / "results.json").read_text())
        assert data["config"]["bots"] == {"earth": bot, "martians": bot}


def test_learned_ww2_cards_are_among_those_the_rules_allow(catalog: Catalog) -> None:
    """On a WW2 table, each phase, the learned policy's card (written in all three
    entries) is one of the airplane's (card, speed) pairs that break no flight
    restriction and that its damage allows (``ww2._pool``, the random bot's choices)."""
    data = json.loads((EXAMPLES / "ww2-duel.json").read_text())
    for v in data["vehicles"]:
        v.pop("plans")
    batch = tile(from_states([build(parse_situation(data), catalog, 0)]), 48)
    rng = np.random.default_rng(2)
    planned = 0
    for _ in range(9):
        b, n = needing(batch)
        cards, pool = ww2._pool(batch, b, n)
        batch_learned_plans(batch, rng, None)
        plan = batch.plan[b, n]
        assert (plan == plan[:, :1]).all()
        assert (pool & (cards == plan[:, :1])).any(axis=1).all()
        planned += len(b)
        resolve_phase(batch, rng)
    assert planned > 300

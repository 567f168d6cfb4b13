"""The batched engine plays WW2 airplanes under the ``ww2`` ruleset (docs/ww2.md,
docs/batch.md): a card and a speed marker per Earthling turn, the card's arrow scaled by
the speed, counters instead of cards, 000's special damage counted in Earthling turns;
tables with tripods stay refused."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dogfight.batch import special
from dogfight.batch.bridge import from_states
from dogfight.batch.easy import easy_plans
from dogfight.batch.game import resolve_phase
from dogfight.batch.learned import batch_learned_plans
from dogfight.batch.policies import Policy, random_plans
from dogfight.batch.spec import ENGINE_BIT, OBSERVER_BIT, RUDDER_LEFT_BIT, SMOKE_BIT, STRAIGHT
from dogfight.batch.state import ENGINE_DESTROYED, PILOT_INCAPACITATED, BatchState, tile
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError
from dogfight.geometry.maneuver import apply_card
from dogfight.geometry.pose import Pose
from dogfight.rules.ww2 import scale
from dogfight.situation.format import build, parse_situation

EXAMPLES = Path(__file__).parent.parent / "examples"


def _duel(catalog: Catalog, tables: int = 64) -> BatchState:
    data = json.loads((EXAMPLES / "ww2-duel.json").read_text())
    for v in data["vehicles"]:
        v.pop("plans")
    return tile(from_states([build(parse_situation(data), catalog, 0)]), tables)


@pytest.mark.parametrize("policy", [random_plans, easy_plans, batch_learned_plans])
def test_a_ww2_airplane_plans_one_card_and_speed_each_phase(
    catalog: Catalog, policy: Policy
) -> None:
    """001: "one maneuver card with a speed marker" per Earthling turn: each phase's plan
    is one card at one of the airplane's speeds, and it is gone when the phase ends."""
    batch = _duel(catalog)
    spec = batch.spec
    rng = np.random.default_rng(1)
    speeds_seen: set[int] = set()
    for phase in range(3):
        assert (batch.phase == phase).all()
        policy(batch, rng, None)
        plan = batch.plan
        assert (plan >= 0).all() and (plan == plan[..., :1]).all()
        for n in range(batch.slots):
            allowed = catalog.airplanes[spec.type_ids[int(batch.type[0, n])]].speeds
            assert set(spec.card_speed[plan[:, n, 0]].tolist()) <= set(allowed)
        speeds_seen |= set(spec.card_speed[plan[..., 0]].ravel().tolist())
        resolve_phase(batch, rng)
        live = ~batch.over
        assert (batch.plan[live] == -1).all()
    # easy closes in at full speed
    assert len(speeds_seen) > 1 or policy in (easy_plans, batch_learned_plans)


@pytest.mark.parametrize("speed", [2, 4, 5])
def test_a_card_flown_at_a_speed_moves_as_the_referee_scales_it(
    catalog: Catalog, speed: int
) -> None:
    """The arrow scaled by speed / card_speed (rules.ww2.scale), the heading change the
    card's: the batch's rigid move ends where the referee's ``apply_card`` puts the base."""
    batch = _duel(catalog, 1)
    spec = batch.spec
    t = spec.type_index("bf-109e")
    deck = catalog.maneuver_decks[catalog.airplanes["bf-109e"].maneuver_deck]
    for card in deck.cards:
        i = spec.card_index(t, card.id, speed)
        start = Pose(30.0, 40.0, 60.0)
        end = apply_card(start, scale(card, speed, 3), spec.base_length)
        rad = np.radians(start.heading)
        x = start.x + spec.card_dx[i] * np.cos(rad) - spec.card_dy[i] * np.sin(rad)
        y = start.y + spec.card_dx[i] * np.sin(rad) + spec.card_dy[i] * np.cos(rad)
        assert (x, y) == pytest.approx((end.x, end.y), abs=1e-9)
        # an illegal card is flown as the straight at the same speed
        assert spec.card_symbol[spec.card_straight[i]] == STRAIGHT
        assert spec.card_speed[spec.card_straight[i]] == speed


def test_ww2_airplanes_draw_counters(catalog: Catalog) -> None:
    spec = _duel(catalog, 1).spec
    assert all(d.startswith("ww2-") for d in spec.damage_ids)
    front = spec.type_weapon_deck[spec.type_index("bf-109e"), 0]
    assert spec.damage_ids[front] == "ww2-A"
    assert spec.damage_ids[spec.illegal_deck] == spec.damage_ids[spec.fire_deck] == "ww2-A"


def _hit(batch: BatchState, bits: int, times: int = 1) -> np.ndarray:
    hits = special.Hits(batch)
    hits.any = True
    hits.bits[0, 0] = bits
    hits.wounds[0, 0] = times * bool(bits & OBSERVER_BIT)
    hits.engine[0, 0] = times * bool(bits & ENGINE_BIT)
    hits.smokes[0, 0] = times * bool(bits & SMOKE_BIT)
    out: np.ndarray = special.apply(batch, hits)
    return out


def test_000_special_damage_on_a_ww2_airplane(catalog: Catalog) -> None:
    """000's table: a second wound takes the pilot out, a second engine hit destroys the
    engine, a smoke on a smoking airplane is a fire; a rudder jammed now forbids the
    next Earthling turn's card (the next phase), not the next Martian turn's."""
    batch = _duel(catalog, 1)
    assert _hit(batch, OBSERVER_BIT)[0, 0] == 0 and batch.wounded[0, 0] == 1
    assert _hit(batch, OBSERVER_BIT)[0, 0] == PILOT_INCAPACITATED
    batch = _duel(catalog, 1)
    assert _hit(batch, ENGINE_BIT, 2)[0, 0] == ENGINE_DESTROYED
    batch = _duel(catalog, 1)
    _hit(batch, SMOKE_BIT)
    assert batch.smoke[0, 0] == 3 and batch.fire[0, 0] == 0
    _hit(batch, SMOKE_BIT)
    assert batch.smoke[0, 0] == 0 and batch.fire[0, 0] == 3
    batch = _duel(catalog, 1)
    batch.phase[0] = 1  # the second Earthling turn of Martian turn 1
    _hit(batch, RUDDER_LEFT_BIT)
    batch.phase[0] = 2
    forbid, need = special.needs(batch, np.array([0]), np.array([0]))
    assert forbid[0] == special.FORBID_LEFT and need[0] == 0
    # on fire: no straight (000); a damaged engine: a stall on every card
    batch.fire[0, 0], batch.engine[0, 0] = 2, 1
    forbid, need = special.needs(batch, np.array([0]), np.array([0]))
    assert forbid[0] & special.FORBID_STRAIGHT and need[0] == special.NEED_STALL


def test_ww2_tables_with_tripods_are_refused(catalog: Catalog) -> None:
    data = json.loads((EXAMPLES / "ww2-locust-bf109.json").read_text())
    with pytest.raises(DataError, match="tripods"):
        from_states([build(parse_situation(data), catalog, 0)])


def test_the_rl_environment_refuses_ww2_tables_by_name(catalog: Catalog) -> None:
    """Its actions are three-card plans a turn: a WW2 table is refused, not misplayed."""
    from dogfight.research.batch_env import DogfightVectorEnv

    data = json.loads((EXAMPLES / "ww2-duel.json").read_text())
    with pytest.raises(DataError, match="WW2 airplanes"):
        DogfightVectorEnv(4, situation=parse_situation(data), catalog=catalog)

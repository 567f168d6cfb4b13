"""The parts of the table, written straight into their text
(:mod:`dogfight.server.play.table_texts`), are the very texts of the observation's dicts put
in JSON: the table's head and what lies open on it at every state of games of every
preset (airplanes, tripods, WW2 airplanes, missions, computer players), each vehicle's
parts at those states, and vehicles with what a short game seldom shows (jammed guns,
aim markers, lasting damage, damage cards, speeds, poses of whole numbers and negative
zeros, odd characters)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import DECIMAL_FLOATS, plan_random_turns

from dogfight.catalog import load_catalog
from dogfight.geometry.pose import Pose
from dogfight.rules.observation import (
    open_table_view,
    open_vehicle_view,
    own_vehicle_view,
    table_view,
)
from dogfight.rules.plans import Flown, Plan
from dogfight.rules.state import GameState, Vehicle
from dogfight.server.db.store import Store
from dogfight.server.play.seating import seats_of, table_of
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.play.table_texts import (
    _rounded,
    open_table_text,
    open_vehicle_text,
    own_vehicle_text,
    rules_head_text,
    table_head_text,
)
from dogfight.server.play.viewcache import to_json
from dogfight.server.schemas import CreateGame

CATALOG = load_catalog()
PRESETS = presets(CATALOG)


def _check(state: GameState, v: Vehicle) -> None:
    assert open_vehicle_text(state, v) == to_json(open_vehicle_view(state, v))
    assert own_vehicle_text(v) == to_json(own_vehicle_view(v))


def _odd(v: Vehicle) -> list[Vehicle]:
    """Copies of ``v`` showing what a short game seldom does."""
    out = []
    for i, pose in enumerate([Pose(1, -0.0, 359.99999), Pose(-0.00001, 12.34565, 0.00005)]):
        odd = v.copy()
        odd.pose = pose
        odd.jams = {"mg-b": 2, "mg-a": 1} if i else {}
        odd.aim = {"mg-b": ("x", 4), "mg-a": ('é"\n', 2)} if i else {}
        odd.status = {"fuel": 1, "engine": 2} if i else {}
        odd.held = [("A", "12"), ("B", 'q"é')]
        odd.rockets = 2 * i
        odd.eliminated = "shot_down" if i else None
        if v.previous is not None:
            odd.previous = Flown(v.previous.symbol, not v.previous.steep)
        odd.damage = 7
        if v.tripod is None:
            odd.plan = Plan.model_validate({"cards": ["1", "2", "3"], "speeds": [2, 3, 4]})
            if i:
                odd.plan = Plan.model_validate(
                    {"cards": ["11", "3"], "fire": ["none", "auto", "x"]}
                )
        out.append(odd)
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_vehicles_written_parts_are_its_views_put_in_json(name: str, tmp_path: Path) -> None:
    service = GameService(Store(f"sqlite:///{tmp_path}/games.sqlite"), CATALOG)
    setup = PRESETS[name]["setup"]
    table = table_of(setup, CATALOG)
    seats = seats_of(CreateGame(preset=name), table)
    game, _ = service.create(setup, name, seats, 5, True)
    plan_random_turns(game, np.random.default_rng(5), 4, lambda game: None)
    checked = 0
    for state in [game.initial, *(step.state for step in game.steps)]:
        head = table_head_text(state, rules_head_text(state.rules))
        assert head + "}" == to_json(table_view(state))
        assert "{" + open_table_text(state) + "}" == to_json(open_table_view(state))
        for v in state.vehicles.values():
            for each in [v, *_odd(v)]:
                _check(state, each)
                checked += 1
    assert checked > 0


@settings(max_examples=2000, deadline=None)
@given(value=st.one_of(DECIMAL_FLOATS, st.integers(-(10**6), 10**6)))
def test_a_poses_number_is_written_as_the_encoder_writes_it_rounded(value: float) -> None:
    assert _rounded(value) == to_json(round(value, 4))

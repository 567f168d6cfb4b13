"""The texts of a seat's view written from pieces kept across versions (the summary)
are the very texts of encoding each part whole, at every version of games of every
preset: people and computer players, open analysis games and secret seeds, over or not."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dogfight.bots.random_plans import random_legal_plan, random_tripod_plan
from dogfight.catalog import load_catalog
from dogfight.server import seat_actions, views
from dogfight.server.errors import ApiError
from dogfight.server.games import LiveGame
from dogfight.server.schemas import CreateGame
from dogfight.server.seating import seats_of, table_of
from dogfight.server.service import GameService
from dogfight.server.setups import presets
from dogfight.server.store import Store
from dogfight.server.viewcache import to_json

CATALOG = load_catalog()
PRESETS = presets(CATALOG)


def _check(game: LiveGame) -> None:
    for state in [game.initial, *(step.state for step in game.steps)]:
        for seat in game.seats:
            # kept across states with the same vehicles: what a fresh look-up gives
            assert game.seat_vehicles(seat, state) == game._seat_vehicles(seat, state)
    assert views._summary_text(game) == to_json(views.summary(game))
    for seat in game.seats:
        vids = game.seat_vehicles(seat)
        assert views._stage_text(game, seat, vids) == to_json(views._stage(game, seat, vids))
    for seat in game.seats:
        page = views.seat_view_json(game, seat)
        assert views.seat_view(game, seat) == json.loads(page)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_summarys_text_is_the_summary_put_in_json(name: str, tmp_path: Path) -> None:
    service = GameService(Store(f"sqlite:///{tmp_path}/games.sqlite"), CATALOG)
    setup = PRESETS[name]["setup"]
    table = table_of(setup, CATALOG)
    for analysis, bot in ((True, None), (False, "easy")):
        seats = seats_of(CreateGame(preset=name), table)
        seats = [seats[0], *((label, side, v, bot) for label, side, v, _ in seats[1:])]
        game, _ = service.create(setup, name, seats, 5, analysis)
        rng = np.random.default_rng(5)
        _check(game)
        for _ in range(6):
            nxt = game.next_step()
            waiting = game.waiting_for()
            if nxt is None or nxt[1] != 0 or not waiting:
                break
            for sid in waiting:
                state = game.state
                plans = {}
                for vid in sorted(game.seat_vehicles(sid)):
                    vehicle = state.vehicles.get(vid)
                    if vehicle is None or not vehicle.in_play:
                        continue
                    make = random_tripod_plan if vehicle.tripod is not None else random_legal_plan
                    plans[vid] = make(state, vid, rng).model_dump(mode="json")
                try:
                    seat_actions.submit_plans(game, sid, nxt[0], plans, 0)
                except ApiError:
                    continue
                _check(game)

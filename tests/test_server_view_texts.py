"""The texts of a seat's view written from pieces kept across versions (the summary)
are the very texts of encoding each part whole, at every version of games of every
preset: people and computer players, open analysis games and secret seeds, over or not."""

from __future__ import annotations

import enum
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from server_helpers import DECIMAL_FLOATS, plan_random_turns

from dogfight import ENGINE_VERSION
from dogfight.catalog import load_catalog
from dogfight.geometry.pose import Pose
from dogfight.rules.events import Event, GameOver
from dogfight.rules.plans import Action, Plan
from dogfight.server.db.records import _float_text, stored_text
from dogfight.server.db.store import Store
from dogfight.server.play import views
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import seats_of, table_of
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.play.table_texts import page_plans
from dogfight.server.play.viewcache import scalar_json, to_json
from dogfight.server.schemas import CreateGame
from dogfight.words.narration import ending as words

Json = dict[str, Any]

CATALOG = load_catalog()
PRESETS = presets(CATALOG)


def _whole_summary(game: LiveGame) -> Json:
    """The summary made whole, key by key: what its text, written from kept pieces,
    must read as."""
    state = game.state
    nxt = game.next_step()
    waiting = game.waiting_for()
    out: Json = {
        "id": game.id,
        "title": game.title,
        "created": game.created,
        "engine": ENGINE_VERSION,
        "scenario": game.setup.get("scenario"),
        "turn": state.turn,
        "phase": state.phase,
        "over": state.over,
        "winner": state.winner,
        "stage": "over" if nxt is None else ("planning" if nxt[1] == 0 else "targets"),
        "steps": len(game.steps),
        "analysis": game.analysis,
        "waiting_for": waiting,
        "seats": [
            {
                "id": s.id,
                "label": s.label,
                "side": s.side,
                "vehicles": sorted(game.seat_vehicles(s.id)),
                "computer": s.bot,
                "waiting": s.id in waiting,
            }
            for s in sorted(game.seats.values(), key=lambda s: s.position)
        ],
    }
    if game.analysis:
        out["seed"] = game.seed
    if state.over:
        over = next(
            (e for step in reversed(game.steps) for e in step.events if isinstance(e, GameOver)),
            None,
        )
        out["result"] = (
            None if over is None else {**over.to_json(), "heading": words(over)["heading"]}
        )
    return out


def _whole_stage(game: LiveGame, seat_id: str, vids: frozenset[str]) -> Json:
    """The seat's stage made whole: a turn's planning key by key (what its text, written
    straight, must read as), any other stage as the views make it."""
    nxt = game.next_step()
    if nxt is None or nxt[1] != 0:
        return views._stage(game, seat_id, vids, nxt)
    state = game.state
    mine = game.plans.get(nxt[0], {}).get(seat_id)
    dumps = None if mine is None else {k: p.model_dump(mode="json") for k, p in mine.items()}
    return {
        "kind": "planning",
        "turn": nxt[0],
        "to_plan": sorted(v for v in vids if v in state.vehicles and state.vehicles[v].in_play),
        "submitted": mine is not None,
        "my_plans": dumps,
        "waiting_for": game.waiting_for(),
    }


def _check(game: LiveGame) -> None:
    for step in game.steps:
        for event in step.events:
            assert stored_text(event) == to_json(event.to_json())
    # kept per state: what the state itself says
    assert game._planning_due(game.state) == game.state.planning_due()
    for state in [game.initial, *(step.state for step in game.steps)]:
        for seat in game.seats:
            # kept across states with the same vehicles: what a fresh look-up gives
            assert game.seat_vehicles(seat, state) == game._seat_vehicles(seat, state)
    assert views._summary_text(game) == to_json(_whole_summary(game))
    assert views.summary(game) == _whole_summary(game)
    for seat in game.seats:
        vids = game.seat_vehicles(seat)
        assert views._stage_text(game, seat, vids) == to_json(_whole_stage(game, seat, vids))
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
        _check(game)
        plan_random_turns(game, np.random.default_rng(5), 6, _check)


@pytest.mark.parametrize(
    "plans",
    [
        {},
        {"camel": Plan(cards=("11", "3", "10"))},
        {"a": Plan.model_validate({"cards": ['é"\n\x7f', "x"]}), "b\u2028": Plan(cards=())},
        {"camel": Plan.model_validate({"cards": ["1", "2", "3"], "fire": ["none", "auto", "x"]})},
        {"t": Plan(cards=("1",), actions=(None, Action(token="recharge"), None))},
    ],
)
def test_a_seats_plans_text_is_their_dumps_put_in_json(plans: dict[str, Plan]) -> None:
    dumps = {vid: plan.model_dump(mode="json") for vid, plan in plans.items()}
    assert page_plans(plans) == to_json(dumps)
    for vid, plan in plans.items():
        assert page_plans.plan(plan) == to_json(dumps[vid])


@pytest.mark.parametrize(
    "value",
    [True, False, None, 0, 7, -3, 2**70, "", "seat-1", 'a "quoted"\nline', "été", 1.5, [1]],
)
def test_a_single_value_is_written_as_the_encoder_writes_it(value: object) -> None:
    assert scalar_json(value) == to_json(value)


@dataclass(frozen=True, slots=True)
class _Odd(Event):
    kind: ClassVar[str] = "odd"
    number: Any
    other: Any = None


class _Colour(enum.StrEnum):
    RED = "red"


@pytest.mark.parametrize(
    "event",
    [
        _Odd(-0.0),
        _Odd(-0.00001, 1e-5),
        _Odd(12.34565, 1e20),
        _Odd(Pose(1, -0.0, 359.99999)),
        _Odd({"a": [1.23456, (2, "x")], "b": {"c": None}}, [True, False]),
        _Odd({1: "int key"}),
        _Odd(_Colour.RED, np.float64(2.5)),
        _Odd(3, 'é\n"q"'),
    ],
)
def test_an_events_stored_text_is_its_json_put_in_json(event: Event) -> None:
    assert stored_text(event) == to_json(event.to_json())


@pytest.mark.parametrize("bad", [math.nan, math.inf, [-math.inf]])
def test_an_event_that_is_not_a_number_is_refused_as_the_encoder_refuses_it(bad: Any) -> None:
    with pytest.raises(ValueError):
        to_json(_Odd(bad).to_json())
    with pytest.raises(ValueError):
        stored_text(_Odd(bad))


@settings(max_examples=2000, deadline=None)
@given(value=DECIMAL_FLOATS)
def test_a_float_is_written_as_the_rounded_float_the_encoder_writes(value: float) -> None:
    assert _float_text(value) == to_json(_Odd(value).to_json()["number"])

"""What leaves the server has the shapes it publishes: ``GET /api/schema`` is a JSON
Schema (under the headers of every other ``/api`` route), and every view and update of
every seat of games of every lobby preset — people and computer players, open analysis
games and secret seeds, at every version of a few turns played — validates against it,
its steps' events each one of the kinds of event. The one encoder writes what the
transcripts need: keys sorted, no spaces, characters as they are, every number the game
makes as ``repr`` writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import client, plan_random_turns
from test_server_limits import assert_secured

from dogfight.catalog import load_catalog
from dogfight.output.encoding import sorted_text, text
from dogfight.server.db.store import Store
from dogfight.server.play import views
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import seats_of, table_of
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.schemas import CreateGame

Json = dict[str, Any]

CATALOG = load_catalog()
PRESETS = presets(CATALOG)


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Json:
    """The schema as ``GET /api/schema`` publishes it."""
    with client(tmp_path_factory.mktemp("schema") / "g.sqlite") as c:
        answer = c.get("/api/schema")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/json")
        assert_secured(answer)
        got: Json = answer.json()
    return got


def test_the_published_schema_is_a_json_schema_of_views_and_updates(published: Json) -> None:
    jsonschema.Draft202012Validator.check_schema(published)
    assert {"SeatView", "SeatUpdate", "Summary", "SeatTable", "StepView", "Event"} <= set(
        published["$defs"]
    )
    # not any object: a view missing its table, or an event of no known kind, is refused
    validator = jsonschema.Draft202012Validator(published)
    assert not validator.is_valid({"type": "view"})
    step = {"index": 1, "turn": 1, "phase": 0, "events": [{"kind": "no such kind"}]}
    shape = {"$ref": "#/$defs/StepView", "$defs": published["$defs"]}
    assert not jsonschema.Draft202012Validator(shape).is_valid(step)


def _checker(published: Json) -> Any:
    validator = jsonschema.Draft202012Validator(published)
    seen: dict[str, int] = {"views": 0, "events": 0}

    def check(game: LiveGame) -> None:
        # kept per state: what the state itself says
        assert game._planning_due(game.state) == game.state.planning_due()
        for seat in game.seats:
            view = json.loads(views.seat_view_json(game, seat))
            validator.validate(view)
            assert view["game"] == views.summary(game)
            assert views.seat_view(game, seat) == view
            validator.validate(json.loads(views.seat_update_json(game, seat)))
            seen["views"] += 1
            seen["events"] += sum(len(step["events"]) for step in view["steps"])

    check.seen = seen  # type: ignore[attr-defined]
    return check


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_view_of_every_preset_is_in_the_published_shape(
    name: str, published: Json, tmp_path: Path
) -> None:
    service = GameService(Store(f"sqlite:///{tmp_path}/games.sqlite"), CATALOG)
    setup = PRESETS[name]["setup"]
    table = table_of(setup, CATALOG)
    check = _checker(published)
    for analysis, bot in ((True, None), (False, "easy")):
        seats = seats_of(CreateGame(preset=name), table)
        seats = [seats[0], *((label, side, v, bot) for label, side, v, _ in seats[1:])]
        game, _ = service.create(setup, name, seats, 5, analysis)
        check(game)
        plan_random_turns(game, np.random.default_rng(5), 4, check)
    assert check.seen["views"] >= 4
    if name == "duel":
        assert check.seen["events"] > 0


printable = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**15), 10**15),
        st.integers(-(10**12), 10**12).map(lambda n: n / 10**4),
        printable,
    ),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(printable, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(value=values)
def test_the_encoder_writes_what_the_transcripts_wrote(value: Any) -> None:
    """Keys sorted, no spaces, characters as they are, numbers rounded to 1e-4 as
    ``repr`` writes them: ``json.dumps``'s text, which the golden transcripts hold."""
    assert sorted_text(value) == json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert text(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)

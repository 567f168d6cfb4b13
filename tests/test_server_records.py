"""A move's path and an event's page text are made by a fast route (a card's path worked
out once from the origin, the numbers written straight into the text): the same numbers
as the plain computation, for every card of every deck, from anywhere on the table."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import duel_situation

from dogfight.catalog import load_catalog
from dogfight.geometry.maneuver import apply_card, card_path
from dogfight.geometry.pose import Pose
from dogfight.rules.events import Moved, TurnStarted
from dogfight.server.records import event_json, event_text
from dogfight.server.viewcache import to_json
from dogfight.situation import build, parse_situation

CATALOG = load_catalog()
STATE = build(parse_situation(duel_situation(), "setup"), CATALOG, 1)
CAMEL = STATE.vehicles["camel"]
DECK = STATE.rules.deck_of(CAMEL.type)

poses = st.builds(
    Pose,
    st.floats(-2000, 2000, allow_nan=False),
    st.floats(-2000, 2000, allow_nan=False),
    st.floats(-3600, 3600, allow_nan=False),
)


@settings(max_examples=300, deadline=None)
@given(start=poses, index=st.integers(0, len(DECK.cards) - 1))
def test_a_moves_path_is_the_cards_path_rounded_to_a_thousandth(start: Pose, index: int) -> None:
    card = DECK.cards[index]
    end = apply_card(start, card, STATE.rules.base_length)
    event = Moved("camel", card.id, start, end)
    expected = [
        [round(x, 3), round(y, 3)] for x, y in card_path(start, card, STATE.rules.base_length)
    ]
    page = event_json(event, STATE)
    assert page["path"] == expected
    # the text: the same values, the same keys in the same order
    assert json.loads(event_text(event, STATE)) == page
    assert list(json.loads(event_text(event, STATE))) == list(page)


def test_an_event_without_a_path_is_its_page_json() -> None:
    event = TurnStarted(3)
    assert event_text(event, STATE) == to_json(event_json(event, STATE))


def test_a_path_that_is_not_a_number_is_refused_not_written() -> None:
    start = Pose(math.nan, 0.0, 0.0)
    event = Moved("camel", DECK.cards[0].id, start, start)
    try:
        event_text(event, STATE)
    except ValueError:
        return
    raise AssertionError("NaN written into JSON")

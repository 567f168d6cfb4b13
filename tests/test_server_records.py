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
from dogfight.rules.events import IllegalManeuver, Moved, TurnStarted
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
    # an event with a field named "text": the page's sentence takes its place, as before
    illegal = IllegalManeuver("camel", "1", "000", "straight instead", None, "the rule")
    encoded = illegal.to_json()
    page = event_text(illegal, STATE, encoded, to_json(encoded))
    assert page == event_text(illegal, STATE) == to_json(event_json(illegal, STATE))
    assert list(json.loads(page)) == list(encoded)


def test_a_path_that_is_not_a_number_is_refused_not_written() -> None:
    start = Pose(math.nan, 0.0, 0.0)
    event = Moved("camel", DECK.cards[0].id, start, start)
    try:
        event_text(event, STATE)
    except ValueError:
        return
    raise AssertionError("NaN written into JSON")


def test_a_steps_stored_text_gives_the_same_page_text_as_its_events() -> None:
    """Each event's page text made from the step's stored JSON text is the text made from
    the event itself, for every event of a few resolved turns (moves, shots, damage)."""
    from dogfight.rules.chance import step_rng
    from dogfight.rules.engine import resolve_phase, start_turn
    from dogfight.rules.plans import Plan
    from dogfight.server.records import Step

    state = STATE
    cards = [c.id for c in DECK.cards if c.symbol.value == "straight"][:3]
    seen = 0
    for turn in range(1, 4):
        if state.over:
            break
        plans = {v.id: Plan.model_validate({"cards": cards}) for v in state.in_play()}
        state, events = start_turn(state, plans)
        steps = [Step(turn, 0, events, state)]
        for phase in (1, 2, 3):
            state, events = resolve_phase(state, step_rng(5, turn, phase))
            steps.append(Step(turn, phase, events, state))
        for step in steps:
            assert json.loads(step.stored()) == step.encode()
            for e, j, t in zip(step.events, step.encode(), step.encode_texts(), strict=True):
                assert event_text(e, step.state, j, t) == event_text(e, step.state)
                seen += 1
    assert seen > 20

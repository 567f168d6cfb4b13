"""A move's path is made by a fast route (the curve's weights worked out once, the points
that define the curve worked out on plain floats): the same numbers as the plain
computation, for every card, from anywhere on the table (round numbers too, where a sum
computed in another order can fall on the other side of a rounding); an event as a page
shows it, a step as stored, and a seat's table in the shapes the server publishes."""

from __future__ import annotations

import contextlib
import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from server_helpers import duel_situation

from dogfight.catalog import load_catalog
from dogfight.geometry.maneuver import apply_card, arrowhead, card_curve_numbers, card_path, nose
from dogfight.geometry.pose import Pose
from dogfight.rules.events import IllegalManeuver, Moved, TurnStarted
from dogfight.server.db.records import event_json
from dogfight.situation.format import build, parse_situation

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
round_poses = st.builds(
    Pose,
    st.integers(-200, 200).map(lambda n: n / 10),
    st.integers(-200, 200).map(lambda n: n / 10),
    st.sampled_from([0.0, 45.0, 90.0, 135.0, 180.0, 270.0, 30.0]),
)


def _plain_card_curve(pose: Pose, card: Any, base_length: float) -> list[Any]:
    """What defines card_path, made of poses as first written: the centre, the nose, the
    curve's handles, the arrowhead and the new centre."""
    start = nose(pose, base_length)
    head = arrowhead(pose, card, base_length)
    end = head.moved(base_length / 2.0, 0.0, 0.0)
    handle = math.hypot(head.x - start.x, head.y - start.y) / 3.0
    if abs(card.turn) > 150:
        handle = max(handle, 2.0)
    p1 = start.to_world(handle, 0.0)
    p2 = head.to_world(-handle, 0.0) if abs(card.turn) <= 150 else head.to_world(handle, 0.0)
    return [pose.point, start.point, p1, p2, head.point, end.point]


def _plain_card_path(pose: Pose, card: Any, base_length: float, steps: int = 16) -> list[Any]:
    """card_path as first written (the curve's weights worked out at each point)."""
    centre, p0, p1, p2, p3, end = _plain_card_curve(pose, card, base_length)
    points: list[Any] = [centre]
    for i in range(steps + 1):
        t = i / steps
        u = 1.0 - t
        points.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    points.append(end)
    return points


@settings(max_examples=300, deadline=None)
@given(start=st.one_of(poses, round_poses), deck=st.sampled_from(sorted(CATALOG.maneuver_decks)))
def test_a_cards_path_is_bit_for_bit_the_plain_curve(start: Pose, deck: str) -> None:
    for card in CATALOG.maneuver_decks[deck].cards:
        assert card_path(start, card, 5.0) == _plain_card_path(start, card, 5.0)


@settings(max_examples=300, deadline=None)
@given(
    start=st.one_of(
        poses,
        round_poses,
        st.builds(Pose, st.just(0.0), st.just(-0.0), st.sampled_from([-0.0, 0.0, 360.0, -1e-15])),
    ),
    deck=st.sampled_from(sorted(CATALOG.maneuver_decks)),
    base_length=st.sampled_from([5.0, 4.0, 3.7]),
)
def test_a_curves_numbers_are_bit_for_bit_the_cards_poses(
    start: Pose, deck: str, base_length: float
) -> None:
    """The curve worked out on plain floats is the one made of poses (nose, arrowhead,
    Pose.to_world): the same floats to the last bit (signed zeros too), for every card
    of every deck; and so is the path sampled from it."""
    for card in CATALOG.maneuver_decks[deck].cards:
        flat = [v for point in _plain_card_curve(start, card, base_length) for v in point]
        got = card_curve_numbers(start, card, base_length)
        assert [(v, math.copysign(1.0, v)) for v in got] == [
            (v, math.copysign(1.0, v)) for v in flat
        ]
        flat = [v for point in _plain_card_path(start, card, base_length) for v in point]
        got = tuple(v for point in card_path(start, card, base_length) for v in point)
        assert [(v, math.copysign(1.0, v)) for v in got] == [
            (v, math.copysign(1.0, v)) for v in flat
        ]


@settings(max_examples=300, deadline=None)
@given(start=st.one_of(poses, round_poses), index=st.integers(0, len(DECK.cards) - 1))
def test_a_moves_curve_is_the_cards_curve_rounded_to_a_thousandth(start: Pose, index: int) -> None:
    card = DECK.cards[index]
    base_length = STATE.rules.base_length
    end = apply_card(start, card, base_length)
    event = Moved("camel", card.id, start, end)
    expected = [[round(x, 3), round(y, 3)] for x, y in _plain_card_curve(start, card, base_length)]
    page = event_json(event, STATE)
    assert page["curve"] == expected
    # it starts at the move's start and ends at its end (the move's own sums)
    assert expected[0] == [round(start.x, 3), round(start.y, 3)]
    assert expected[-1] == [round(end.x, 3), round(end.y, 3)]


def test_an_event_without_a_path_is_its_json_and_its_sentence() -> None:
    event = TurnStarted(3)
    page = event_json(event, STATE)
    assert page.pop("text") and page == event.to_json()
    # an event with a field named "text": the page's sentence takes its place, as before
    illegal = IllegalManeuver("camel", "1", "000", "straight instead", None, "the rule")
    encoded = illegal.to_json()
    page = event_json(illegal, STATE, encoded)
    assert page == event_json(illegal, STATE)
    assert list(page) == list(encoded)
    assert page["text"] != "the rule"


def test_a_steps_stored_text_is_its_events_json() -> None:
    """A step's stored text reads back as its events' JSON, for every step of a few
    resolved turns (moves, shots, damage)."""
    from dogfight.rules.chance import step_rng
    from dogfight.rules.engine import resolve_phase, start_turn
    from dogfight.rules.plans import Plan
    from dogfight.server.db.records import Step

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
            seen += len(step.events)
    assert seen > 20


def test_a_seats_table_is_in_the_published_shape() -> None:
    """The table part of a seat's view validates against the JSON Schema the server
    publishes (``SeatTable``), for each seat (and a seat of no vehicle) of games of
    every example situation, tripods and WW2 airplanes among them, before and after a
    turn; and it reads back from its JSON as it was made."""
    from pathlib import Path

    import jsonschema

    from dogfight.output.encoding import text
    from dogfight.rules.engine import start_turn
    from dogfight.rules.plans import Plan
    from dogfight.server.play.views import public_view
    from dogfight.server.shapes import schema

    shape = {"$ref": "#/$defs/SeatTable", "$defs": schema()["$defs"]}

    examples = Path(__file__).parent.parent / "examples"
    checked = 0
    for path in sorted(examples.glob("*.json")):
        try:
            state = build(parse_situation(json.loads(path.read_text()), "setup"), CATALOG, 3)
        except Exception:
            continue  # not a table (a referee's question, a campaign file...)
        states = [state]
        straights = {v.id: Plan.model_validate({"cards": ["1", "2", "3"]}) for v in state.in_play()}
        # tripods, WW2 airplanes: no such plan; the table as set up is checked
        with contextlib.suppress(Exception):
            states.append(start_turn(state, straights)[0])
        for s in states:
            sides = {v.side for v in s.vehicles.values()}
            seats = [
                frozenset(v.id for v in s.vehicles.values() if v.side == side) for side in sides
            ]
            for vids in [*seats, frozenset()]:
                plain = public_view(s, vids)
                jsonschema.validate(plain, shape)
                assert json.loads(text(plain)) == plain
                checked += 1
    assert checked >= 20


def _flights() -> list[tuple[str, int | None, str]]:
    """(airplane type, speed marker or None, card id): every card of every airplane's deck,
    WW1 and WW2 airplanes, at every speed a WW2 airplane may fly."""
    out: list[tuple[str, int | None, str]] = []
    for type_id, airplane in sorted(CATALOG.airplanes.items()):
        cards = [c.id for c in CATALOG.maneuver_decks[airplane.maneuver_deck].cards]
        speeds: list[int | None] = list(airplane.speeds) or [None]
        out += [(type_id, speed, card) for speed in speeds for card in cards]
    return out


def test_a_moves_curve_ends_where_the_engine_put_the_base() -> None:
    """Issue 28, defect 5: the curve a page is sent for a move ends where the engine put
    the base, for every card of every airplane's deck (WW1 and WW2 airplanes) and every
    speed marker a WW2 airplane may fly (the card flown at a speed is the card scaled:
    the BF 109's path ended 2.5 cm short of its base): the curve's numbers end on the
    engine's new pose bit for bit, and the page's rounded curve on it rounded."""
    from dogfight.geometry.maneuver import card_curve_numbers
    from dogfight.rules import ww2
    from dogfight.rules.chance import step_rng
    from dogfight.rules.engine import resolve_phase, start_turn
    from dogfight.rules.plans import Plan

    built: dict[str, Any] = {}
    scaled = 0
    deck_cards = {
        type_id: [c.id for c in CATALOG.maneuver_decks[airplane.maneuver_deck].cards]
        for type_id, airplane in CATALOG.airplanes.items()
    }
    moves: list[tuple[str, Moved, Any]] = []
    for type_id, speed, card in _flights():
        state = built.get(type_id)
        if state is None:
            sit = {
                "ruleset": "ww2" if CATALOG.airplanes[type_id].speeds else "wog",
                "switches": {"altitude_cards": True},  # every card of the deck in play
                "table": {"width": 200, "height": 200},
                "vehicles": [
                    {
                        "id": "p",
                        "type": type_id,
                        "side": "a",
                        "pose": {"x": 100, "y": 100, "heading": 30},
                    },
                    {
                        "id": "q",
                        "type": type_id,
                        "side": "b",
                        "pose": {"x": 10, "y": 10, "heading": 0},
                    },
                ],
            }
            state = built[type_id] = build(parse_situation(sit), CATALOG, 1)
        others = [c for c in deck_cards[type_id] if c != card][:2]
        plan: dict[str, Any] = {"cards": [card] if speed is not None else [card, *others]}
        if speed is not None:
            plan["speeds"] = [speed]
        plans = {v: Plan.model_validate(plan) for v in ("p", "q")}
        started, _ = start_turn(state, plans)
        new, events = resolve_phase(started, step_rng(1, 1, 1))
        pose = new.vehicles["p"].pose
        (move,) = [e for e in events if isinstance(e, Moved) and e.vehicle == "p"]
        assert (move.end.x, move.end.y) == (pose.x, pose.y)
        page = event_json(move, new)
        assert page["curve"][-1] == [round(pose.x, 3), round(pose.y, 3)], (type_id, speed, card)
        moves.append((type_id, move, new))
        scaled += speed is not None and speed != new.rules.switches.card_speed
    assert len(moves) == len(_flights()) > 700 and scaled > 250
    # the card a drawing lays (the page's curve, the rendered path): bit for bit
    for type_id, move, new in moves:
        flown = ww2.card_flown(new.rules, type_id, move)
        numbers = card_curve_numbers(move.start, flown, new.rules.base_length)
        pose = new.vehicles["p"].pose
        assert numbers[-2:] == (pose.x, pose.y), (type_id, move)

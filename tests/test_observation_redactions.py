"""What a seat sees of a step's events, put together from the events' texts made once
for every seat and the seat's redactions (``observation.redactions``), is what
``visible_events`` gives it: the former rule, event by event, for steps mixing public
events, secrets replaced by a redacted copy and secrets left out, for every seat, the
referee and nobody."""

from __future__ import annotations

from collections.abc import Collection, Iterable

import pytest

from dogfight.rules.events import (
    DamageCardsTaken,
    DamageDrawn,
    Event,
    PhaseStarted,
    SpecialDamage,
    TurnStarted,
)
from dogfight.rules.observation import redactions, visible_events


def _former(events: Iterable[Event], seat: Collection[str] | None) -> list[Event]:
    """``visible_events`` as it was written, event by event."""
    out: list[Event] = []
    for event in events:
        owner = event.secret_for
        if seat is None or owner is None or owner in seat:
            out.append(event)
            continue
        public = event.redacted()
        if public is not None:
            out.append(public)
    return out


STEP: list[Event] = [
    TurnStarted(3),
    DamageDrawn("a", "A", ("1", "2"), 3, 5, "b"),
    PhaseStarted(3, 1),
    SpecialDamage("a", "fuel", False),
    SpecialDamage("b", "engine", True),
    DamageDrawn("b", "B", ("7",), 1, 1, "a"),
    SpecialDamage("b", "pilot", False),
    DamageCardsTaken("a", "A", 2, "b"),
]


@pytest.mark.parametrize("events", [STEP, STEP[:1], STEP[1:2], STEP[3:4], [], STEP[::-1]])
@pytest.mark.parametrize(
    "seat", [None, frozenset(), frozenset({"a"}), frozenset({"b"}), frozenset({"a", "b"})]
)
def test_what_a_seat_sees_is_the_former_rule(
    events: list[Event], seat: frozenset[str] | None
) -> None:
    expected = _former(events, seat)
    assert visible_events(events, seat) == expected
    assert visible_events(iter(events), seat) == expected
    # every event's text made once, the seat's redactions put in place from the last
    texts: list[object] = list(events)
    for index, public in reversed(redactions(events, seat)):
        if public is None:
            del texts[index]
        else:
            texts[index] = public
    assert texts == expected
    assert all(events[i].secret_for not in (seat or ()) for i, _ in redactions(events, seat))

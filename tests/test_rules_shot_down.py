"""What everyone learns of a vehicle brought down (docs/rulings.md R33, issue 29 item 8:
"The log names the card that shot a vehicle down"): the ``eliminated`` event names whose
weapon (or what) brought the vehicle down and the deck of the card, and the card itself
only where every seat saw it drawn. Each test quotes its sentence. (An explosion: in
``test_rules_secret_damage``; a second wound, fire: in ``test_rules_standard``.)"""

from __future__ import annotations

import json

import pytest
from conftest import _catalog, explosion_card, jam_card, of, plain, plane, run, situation
from test_rules_secret_damage import BIG, BRISTOL, FOKKER, chase, seen_by
from test_rules_tripods import HALF_L, RAY_DECK, STILL_PLAN, along, arriving, ray, tplan, tripod

from dogfight.geometry.hexbase import Side
from dogfight.rules.events import CardRevealed, DamageDrawn, Eliminated, Event
from dogfight.rules.observation import side_seat, visible_events
from dogfight.words.narration import describe

RESISTANCE = _catalog().airplanes[BRISTOL].damage


def texts(events: list[Event]) -> str:
    return json.dumps([e.to_json() for e in events])


def test_000_the_shooter_and_the_deck_are_public_the_card_is_not() -> None:
    """000: "The vehicle is removed from the game and all its damage cards are shuffled
    back into the appropriate decks", and "The player looks secretly at the damage cards
    drawn": every seat learns that the chaser's front guns brought the Bristol down with an
    A card, not which card (its owner has it in its own damage line)."""
    stack = plain("A", 1, 3)  # the Bristol's rear gun draws the 1, the chaser's guns the 3
    state, events = chase("wog", 20.0, stack, damage=RESISTANCE - 1)
    gone = Eliminated("bristol", "shot_down", "chaser", "front", "A", None)
    assert of(events, Eliminated) == [gone]
    for side in ("allies", "central"):
        assert of(seen_by(state, side, events), Eliminated) == [gone]
    other = seen_by(state, "central", events)
    assert stack[1] not in texts(other)  # the finishing card leaves no trace there
    (own,) = [
        e for e in of(seen_by(state, "allies", events), DamageDrawn) if e.vehicle == "bristol"
    ]
    assert own.cards == (stack[1],)


def test_000_a_jam_card_that_finishes_is_named() -> None:
    """000 (JAMMED): "The player drawing the card must immediately show it to the firing
    player": a jam card every seat saw may be named when it brings the vehicle down."""
    jam = jam_card("A", 2)
    state, events = chase("wog", 20.0, [*plain("A", 1), jam], damage=RESISTANCE - 1)
    (gone,) = of(seen_by(state, "central", events), Eliminated)
    assert gone == Eliminated("bristol", "shot_down", "chaser", "front", "A", jam)


def test_000_a_heat_rays_revealed_card_is_named() -> None:
    """000 FIRING TRIPODS: "The owner of the target airplane draws and reveals 1 damage card
    from the deck that matches the firepower letter of the firing tripod": the card that
    brought the airplane down was shown, so the elimination names it."""
    stack = plain(RAY_DECK, 2)
    x, y = along(Side.FRONT, 3.0 + HALF_L)
    resistance = _catalog().airplanes["spad-vii"].damage
    sit = situation(
        tripod(plans=[tplan(*STILL_PLAN, actions=[ray("front"), None, None])]),
        arriving("p", x, y, 90.0, damage=resistance - 1),
        damage_decks={RAY_DECK: stack},
    )
    state, events = run(sit, phases=1)
    assert of(events, CardRevealed)[0].card == stack[0]
    seen = visible_events(events, side_seat(state, "martians"))
    assert of(seen, Eliminated) == [
        Eliminated("p", "shot_down", "t", "heat-ray", RAY_DECK, stack[0])
    ]


@pytest.mark.parametrize(("first", "second", "by"), [(1, 3, "b2"), (3, 1, "a1")])
def test_the_card_that_takes_the_total_over_names_the_shooter(
    first: int, second: int, by: str
) -> None:
    """000: "All damage inflicted in the same firing step, regardless of its source, is
    resolved simultaneously": the cards are applied in the firers' order (R20) and the one
    that took the total to the resistance names its shooter (R33), not the last one."""
    resistance = _catalog().airplanes["spad-xiii"].damage
    sit = situation(
        plane("target", "spad-xiii", "allies", 150, 150, 0, damage=resistance - 2),
        plane("a1", FOKKER, "central", 132, 147, 0),
        plane("b2", FOKKER, "central", 132, 153, 0),
        table=BIG,
        damage_decks={"A": plain("A", first, second)},
    )
    _, events = run(sit, phases=1)
    assert [e.source for e in of(events, DamageDrawn)] == ["a1 front", "b2 front"]
    (gone,) = of(events, Eliminated)
    assert gone == Eliminated("target", "shot_down", by, "front", "A", None)


def test_narration_names_the_shooter_and_the_shown_card() -> None:
    """The log in words (issue 29 item 8): whose guns, the deck, and the card's face only
    where it is named."""
    catalog = _catalog()
    hidden = Eliminated("allied", "shot_down", "central", "front", "B", None)
    assert describe(hidden, catalog) == (
        "central's front guns brought allied down (damage card B, secret): shot down."
    )
    boom = explosion_card("B")
    shown = Eliminated("allied", "exploded", "central", "rear", "B", boom)
    assert describe(shown, catalog) == (
        "central's rear guns brought allied down (damage card B: an explosion): exploded."
    )
    fire = Eliminated("allied", "burned", None, "fire", "A", None)
    assert describe(fire, catalog) == "Fire brought allied down (damage card A, secret): burned."
    off = Eliminated("allied", "left_area")
    assert describe(off, catalog) == "allied is out of the game: left the table."


def test_each_seat_reads_it_in_the_terminal_and_the_browser() -> None:
    """The same sentence in terminal play and in the browser's log (the event's ``text``),
    for the seat that lost the airplane and for the seat that shot it down (R33: the
    same public words for both)."""
    from dogfight.cli.terminal_play import _narrate
    from dogfight.server.db.records import event_json

    stack = plain("A", 1, 3)
    state, events = chase("wog", 20.0, stack, damage=RESISTANCE - 1)
    said = "chaser's front guns brought bristol down (damage card A, secret): shot down."
    for side in ("allies", "central"):
        seat = side_seat(state, side)
        lines: list[str] = []
        _narrate(events, seat, lines.append, state)
        assert said in lines
        page = [event_json(e, state) for e in visible_events(events, seat)]
        (gone,) = [e for e in page if e["kind"] == "eliminated"]
        assert gone["text"] == said
        assert (gone["by"], gone["means"], gone["deck"], gone["card"]) == (
            "chaser",
            "front",
            "A",
            None,
        )

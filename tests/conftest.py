"""Shared fixtures and helpers for the rules tests.

The helpers build situation dicts (the JSON a referee would write), run them through
:func:`dogfight.situation.ruling.adjudicate` and pick events apart. Card ids are looked up in the
catalog by symbol or value (:func:`card_id`, :func:`plain`, :func:`jam_card`,
:func:`explosion_card`) so that tests keep working when a shipped deck file changes.

Test modules import the plain helpers with ``from conftest import ...``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import pytest

from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.catalog.models import DamageCard, Special, Symbol
from dogfight.rules.events import Event, PhaseStarted
from dogfight.rules.state import GameState
from dogfight.situation.format import build, parse_situation
from dogfight.situation.ruling import adjudicate

E = TypeVar("E", bound=Event)

Json = dict[str, Any]


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped catalog."""
    return load_catalog()


def _catalog() -> Catalog:
    return load_catalog()


# --- catalog look-ups ------------------------------------------------------------------


def deck_of(airplane: str) -> str:
    """The maneuver deck letter of an airplane type."""
    return _catalog().airplane(airplane).maneuver_deck


def card_id(deck: str, symbol: str | Symbol, index: int = 0) -> str:
    """The id of the ``index``-th card with ``symbol`` in maneuver deck ``deck``.

    ``deck`` is a deck letter or an airplane id (its deck is used).
    """
    catalog = _catalog()
    letter = deck if deck in catalog.maneuver_decks else deck_of(deck)
    wanted = Symbol(symbol)
    found = [c.id for c in catalog.maneuver_decks[letter].cards if c.symbol is wanted]
    if index >= len(found):
        raise LookupError(f"maneuver deck {letter} has {len(found)} {wanted.value} card(s)")
    return found[index]


def straight(deck: str) -> str:
    """The deck's ordinary straight (flown in place of an illegal maneuver)."""
    catalog = _catalog()
    letter = deck if deck in catalog.maneuver_decks else deck_of(deck)
    return catalog.maneuver_decks[letter].straight


def straights(deck: str) -> list[str]:
    """Every straight card of a deck (letter or airplane id), in deck order."""
    catalog = _catalog()
    letter = deck if deck in catalog.maneuver_decks else deck_of(deck)
    return [c.id for c in catalog.maneuver_decks[letter].cards if c.symbol is Symbol.STRAIGHT]


def _damage_deck(letter: str) -> list[DamageCard]:
    return _catalog().damage_decks[letter].cards


def _harmless_specials(card: DamageCard) -> bool:
    """No special that an airplane would ever feel (tripod-only icons are fine)."""
    specials = _catalog().specials
    return all(specials[s].applies_to == "tripod" for s in card.specials)


def plain(letter: str, *values: int) -> list[str]:
    """Ids of damage cards of deck ``letter`` worth ``values`` (in that order), without
    explosion, jam or any airplane special; never more copies than the deck holds.
    Cards with no icon at all are preferred."""
    left: Counter[str] = Counter()
    for c in _damage_deck(letter):
        left[c.id] += c.count
    out: list[str] = []
    for value in values:
        choices = [
            c
            for c in _damage_deck(letter)
            if c.value == value and not c.explosion and _harmless_specials(c) and left[c.id] > 0
        ]
        if not choices:
            raise LookupError(f"damage deck {letter} has no more plain cards worth {value}")
        choices.sort(key=lambda c: (len(c.specials), c.energy))
        out.append(choices[0].id)
        left[choices[0].id] -= 1
    return out


def jam_card(letter: str, value: int | None = None, index: int = 0) -> str:
    """A damage card of deck ``letter`` with the jammed-guns icon (and ``value``)."""
    found = [
        c.id
        for c in _damage_deck(letter)
        if Special.JAMMED in c.specials and (value is None or c.value == value)
    ]
    if index >= len(found):
        raise LookupError(f"damage deck {letter} has no jam card #{index} worth {value}")
    return found[index]


def explosion_card(letter: str) -> str:
    """A damage card of deck ``letter`` with the explosion icon."""
    for c in _damage_deck(letter):
        if c.explosion:
            return c.id
    raise LookupError(f"damage deck {letter} has no explosion card")


def composition(letter: str) -> list[str]:
    """Every physical card of damage deck ``letter``."""
    return _catalog().damage_decks[letter].composition()


# --- situation builders ----------------------------------------------------------------


def plan(
    *cards: str,
    fire: Sequence[str] | None = None,
    rear_fire: Sequence[str] | None = None,
) -> Json:
    """One turn's plan: three card ids and optional firing choices per phase."""
    out: Json = {"cards": list(cards)}
    if fire is not None:
        out["fire"] = list(fire)
    if rear_fire is not None:
        out["rear_fire"] = list(rear_fire)
    return out


HOLD = ("none", "none", "none")


def default_plans(airplane: str, turns: int = 1) -> list[Json]:
    """Three different straights per turn (the same for every airplane of a deck, so two
    airplanes of one deck flying the same heading keep their relative positions)."""
    cards = straights(airplane)
    if len(cards) < 3:
        # decks with two straights: the two straights and then a sideslip
        cards = [*cards, card_id(airplane, Symbol.SIDESLIP)][:3]
    return [plan(*cards[:3]) for _ in range(turns)]


def plane(
    vid: str,
    airplane: str,
    side: str,
    x: float,
    y: float,
    heading: float = 0.0,
    *,
    plans: list[Json] | None = None,
    fire: Sequence[str] | None = None,
    rear_fire: Sequence[str] | None = None,
    turns: int = 1,
    **extra: Any,
) -> Json:
    """A vehicle entry. Without ``plans`` it flies :func:`default_plans`; ``fire`` and
    ``rear_fire`` then apply to every turn. ``extra`` holds other vehicle fields
    (``damage``, ``jams``, ``previous``, ``aim``, ...)."""
    if plans is None:
        plans = default_plans(airplane, turns)
        if fire is not None or rear_fire is not None:
            plans = [
                plan(
                    *p["cards"],
                    fire=fire,
                    rear_fire=rear_fire,
                )
                for p in plans
            ]
    return {
        "id": vid,
        "type": airplane,
        "side": side,
        "pose": {"x": x, "y": y, "heading": heading},
        "plans": plans,
        **extra,
    }


def situation(
    *vehicles: Json,
    ruleset: str = "wog",
    damage_decks: dict[str, list[str]] | None = None,
    table: tuple[float, float] | None = None,
    switches: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Json:
    """A situation dict (the JSON of ``docs/situations.md``)."""
    out: Json = {"ruleset": ruleset, "vehicles": list(vehicles), **kwargs}
    if damage_decks:
        out["damage_decks"] = damage_decks
    if table is not None:
        out["table"] = {"width": table[0], "height": table[1]}
    if switches:
        out["switches"] = switches
    return out


# --- running and reading events ---------------------------------------------------------


def state_of(sit: Json, seed: int = 0) -> GameState:
    """The game state a situation describes (nothing resolved yet)."""
    return build(parse_situation(sit), _catalog(), seed)


def run(sit: Json, seed: int = 0, phases: int | None = None) -> tuple[GameState, list[Event]]:
    """Adjudicate a situation dict: the final state and every event."""
    return adjudicate(parse_situation(sit), _catalog(), seed, phases)


def kinds(events: Iterable[Event]) -> list[str]:
    """The ``kind`` of every event, in order."""
    return [e.kind for e in events]


def of(events: Iterable[Event], kind: type[E]) -> list[E]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, kind)]


def by_phase(events: Iterable[Event]) -> dict[tuple[int, int], list[Event]]:
    """Events grouped by the (turn, phase) they happened in; events before the first
    phase (turn starts) are under (0, 0)."""
    out: dict[tuple[int, int], list[Event]] = {}
    key = (0, 0)
    for event in events:
        if isinstance(event, PhaseStarted):
            key = (event.turn, event.phase)
        out.setdefault(key, []).append(event)
    return out


def phases_of(events: Iterable[Event], kind: type[E]) -> list[tuple[int, int, E]]:
    """(turn, phase, event) for every event of one type."""
    return [
        (turn, phase, e)
        for (turn, phase), group in by_phase(events).items()
        for e in group
        if isinstance(e, kind)
    ]

"""Damage cards reaching a vehicle (:func:`take`: its damage, the cards it holds, its
blows) and the one that brought it down (:func:`finisher`, docs/rulings.md R33). What a
blow is: :mod:`dogfight.rules.blows`."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dogfight.catalog.models import Special
from dogfight.rules.blows import Blow, Source
from dogfight.rules.context import Rules
from dogfight.rules.state import Vehicle


def take(
    target: Vehicle,
    source: Source,
    deck: str,
    cards: Sequence[str],
    points: Sequence[int],
    shown: Collection[str] = (),
) -> int:
    """Add ``cards`` (each worth its ``points``) to ``target``: its damage, the cards it
    holds and its blows. ``shown``: the cards every seat saw drawn. Returns the points."""
    total = target.damage
    blows = []
    for card, worth in zip(cards, points, strict=True):
        total += worth
        blows.append(Blow(source, deck, card, total, card in shown))
        target.held.append((deck, card))
    added = total - target.damage
    target.damage = total
    target.blows += tuple(blows)
    return added


SPECIAL_OUT = {"pilot_incapacitated": Special.WOUNDED_PILOT, "engine_destroyed": Special.ENGINE}
"""The eliminations a special icon makes, with the icon (000's table; 003's second engine
hit)."""


def finisher(rules: Rules, vehicle: Vehicle, reason: str) -> Blow | None:
    """The card that eliminated ``vehicle`` for ``reason`` (R33): the explosion that
    eliminates outright (or 002's second engine hit, "Second engine hit = explosion."),
    the icon of a special elimination, else the first card that took its total to its
    resistance. None where no card did (off the table, 002's illegal maneuver)."""
    blows = vehicle.blows
    if reason == "left_area" or not blows:
        return None
    if reason == "exploded":
        for blow in reversed(blows):
            if rules.damage_cards(blow.deck)[blow.card].explosion:
                return blow
        return _last_with(rules, blows, Special.ENGINE)
    special = SPECIAL_OUT.get(reason)
    if special is not None:
        return _last_with(rules, blows, special)
    for blow in blows:
        if blow.total >= vehicle.resistance:
            return blow
    return None


def _last_with(rules: Rules, blows: tuple[Blow, ...], special: Special) -> Blow | None:
    for blow in reversed(blows):
        if special in rules.damage_cards(blow.deck)[blow.card].specials:
            return blow
    return None

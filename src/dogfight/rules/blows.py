"""What brought a vehicle down (docs/rulings.md R33).

Each damage card a vehicle takes is kept as a :class:`Blow`: where it came from (a
:class:`Source`: the vehicle and its weapon, or fire, black smoke...), its deck and id,
the vehicle's damage total once it counted, and whether every seat saw it when it was
drawn. When the vehicle is eliminated, :func:`finisher` picks the card that did it, and
the ``eliminated`` event names its source, its deck and (where it was shown) the card.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dogfight.catalog.models import Special
from dogfight.geometry.frozen import fast_init

if TYPE_CHECKING:
    from dogfight.rules.context import Rules
    from dogfight.rules.state import Vehicle


@fast_init
@dataclass(frozen=True, slots=True)
class Source:
    """Where damage cards come from: ``means`` of the vehicle ``by`` (a weapon, "front"
    or "rear" guns, or "heat-ray", "rockets", "bombs"), or with ``by`` None what no
    vehicle did on the spot ("fire", "black smoke", "bomb fragments", "illegal
    maneuver")."""

    by: str | None
    means: str

    @property
    def label(self) -> str:
        """As ``damage_drawn`` names it: "fokker front", "fire"."""
        return self.means if self.by is None else f"{self.by} {self.means}"


FIRE = Source(None, "fire")
"""A burning vehicle's fire cards (Standard Rules)."""
SMOKE = Source(None, "black smoke")
"""The Z card of a Black Smoke cloud flown into."""
FRAGMENTS = Source(None, "bomb fragments")
"""The Z cards a bomber takes when its bombs are blown up in the air (001)."""
ILLEGAL = Source(None, "illegal maneuver")
"""000's A card for an illegal maneuver."""


@fast_init
@dataclass(frozen=True, slots=True)
class Blow:
    """One damage card a vehicle took: from ``source``, card ``card`` of deck ``deck``,
    its damage ``total`` once the card counted, and whether the card was ``shown`` to
    every seat as it was drawn (an explosion that eliminates outright, a jam card, a
    heat-ray's card revealed at short range: R33)."""

    source: Source
    deck: str
    card: str
    total: int
    shown: bool


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

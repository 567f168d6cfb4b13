"""What brought a vehicle down (docs/rulings.md R33).

Each damage card a vehicle takes is kept as a :class:`Blow`: where it came from (a
:class:`Source`: the vehicle and its weapon, or fire, black smoke...), its deck and id,
the vehicle's damage total once it counted, and whether every seat saw it when it was
drawn. When the vehicle is eliminated, :func:`dogfight.rules.blows_taken.finisher` picks
the card that did it, and the ``eliminated`` event names its source, its deck and (where
it was shown) the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.geometry.frozen import fast_init


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

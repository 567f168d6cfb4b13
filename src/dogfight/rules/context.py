"""The rules in force for one game: the catalog, the ruleset and its switches, and the
measures derived from them (ruler, arcs, base size)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import Airplane, ManeuverDeck, Ruleset, Switches
from dogfight.geometry.reach import Arc


@dataclass(frozen=True)
class Rules:
    """Immutable rules context shared by every copy of a game state."""

    catalog: Catalog
    ruleset: Ruleset
    switches: Switches
    table_width: float
    table_height: float
    ruler: float = field(init=False)
    half: float = field(init=False)
    base_length: float = field(init=False)
    base_width: float = field(init=False)
    front_arc: Arc = field(init=False)
    rear_arc: Arc = field(init=False)

    def __post_init__(self) -> None:
        c = self.catalog.constants
        object.__setattr__(self, "ruler", c.ruler.length)
        object.__setattr__(self, "half", c.ruler.half)
        object.__setattr__(self, "base_length", c.airplane_base.length)
        object.__setattr__(self, "base_width", c.airplane_base.width)
        object.__setattr__(self, "front_arc", Arc(c.arcs.front.centre, c.arcs.front.width))
        object.__setattr__(self, "rear_arc", Arc(c.arcs.rear.centre, c.arcs.rear.width))

    def airplane(self, type_id: str) -> Airplane:
        return self.catalog.airplane(type_id)

    def deck_of(self, type_id: str) -> ManeuverDeck:
        return self.catalog.maneuver_decks[self.airplane(type_id).maneuver_deck]

    def arc(self, weapon: str) -> Arc:
        return self.front_arc if weapon == "front" else self.rear_arc

    def weapons(self, type_id: str) -> tuple[tuple[str, str], ...]:
        """(weapon, damage deck letter) pairs: front first, then rear for two-seaters."""
        firepower = self.airplane(type_id).firepower
        names = ("front", "rear")
        return tuple((names[i], letter) for i, letter in enumerate(firepower))

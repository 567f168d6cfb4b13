"""The rules in force for one game: the catalog, the ruleset and its switches, and the
measures derived from them (ruler, arcs, base size)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import (
    Airplane,
    DamageCard,
    HeatRayRulerSpec,
    ManeuverCard,
    ManeuverDeck,
    Ruleset,
    Switches,
    Tripod,
    TripodDeck,
)
from dogfight.geometry.reach import Arc
from dogfight.rules.plans import Restrictions


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
    hex_side: float = field(init=False)
    base_radius: float = field(init=False)
    """The largest distance from a base's centre to its edge, airplanes and tripods."""
    _restrictions: Restrictions = field(init=False, repr=False, compare=False)
    _specials: str | None = field(init=False, repr=False, compare=False)
    _weapons: dict[str, tuple[tuple[str, str], ...]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    """:meth:`weapons` by type, worked out once (every firing step asks)."""
    _damage_cards: dict[str, dict[str, DamageCard]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    _decks: dict[str, ManeuverDeck] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )
    """:meth:`deck_of` by type, looked up once (every card revealed asks)."""
    _maneuver_cards: dict[str, dict[str, ManeuverCard]] = field(
        init=False, default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        c = self.catalog.constants
        object.__setattr__(self, "ruler", c.ruler.length)
        object.__setattr__(self, "half", c.ruler.half)
        object.__setattr__(self, "base_length", c.airplane_base.length)
        object.__setattr__(self, "base_width", c.airplane_base.width)
        object.__setattr__(self, "front_arc", Arc(c.arcs.front.centre, c.arcs.front.width))
        object.__setattr__(self, "rear_arc", Arc(c.arcs.rear.centre, c.arcs.rear.width))
        object.__setattr__(self, "hex_side", c.tripods.base_side)
        plane = math.hypot(c.airplane_base.length, c.airplane_base.width) / 2.0
        object.__setattr__(self, "base_radius", max(plane, c.tripods.base_side))
        sw = self.switches
        specials = sw.special_damage or ("000" if sw.standard_rules else None)
        object.__setattr__(self, "_specials", specials)
        object.__setattr__(
            self,
            "_restrictions",
            Restrictions(
                self.switches.immelmann_counter, self.switches.steep_after_turn_or_straight
            ),
        )

    @property
    def restrictions(self) -> Restrictions:
        """The flight restrictions of the switches in force."""
        return self._restrictions

    @property
    def specials(self) -> str | None:
        """Whose special damage applies: "000", "002", "003" or None (worked out once:
        every step asks)."""
        return self._specials

    def airplane(self, type_id: str) -> Airplane:
        return self.catalog.airplane(type_id)

    def tripod(self, type_id: str) -> Tripod:
        return self.catalog.tripods[type_id]

    def tripod_deck_of(self, type_id: str) -> TripodDeck:
        return self.catalog.tripod_decks[self.tripod(type_id).maneuver_deck]

    def heat_ray_ruler(self, type_id: str) -> HeatRayRulerSpec:
        measures = self.catalog.constants.tripods
        return measures.heavy if self.tripod(type_id).heat_ray == "heavy" else measures.medium

    def hex_apothem(self) -> float:
        return self.hex_side * math.sqrt(3.0) / 2.0

    def era(self, type_id: str) -> str:
        """ "ww1" or "ww2" for an airplane, "" for a tripod."""
        plane = self.catalog.airplanes.get(type_id)
        return "" if plane is None else plane.era

    def tripod_resistance(self, type_id: str) -> int:
        """001: "double the resistance ... of the tripods" (the ruleset's tripod_factor)."""
        return self.tripod(type_id).damage * self.switches.tripod_factor

    def recharge_level(self, type_id: str) -> int:
        """001: "double ... the recharge level values of the tripods"."""
        return self.tripod(type_id).recharge_level * self.switches.tripod_factor

    def damage_deck(self, letter: str, target_type: str, firer_type: str | None = None) -> str:
        """Which deck or counter set a hit of ``letter`` draws from: a WW2 airplane takes
        WW2 counters, a tripod hit by a WW2 airplane the Invasion counters (001: "use the
        damage counters included in the Invasion set"); everything else the cards."""
        sw = self.switches
        if sw.airplane_counters and self.era(target_type) == "ww2":
            return f"{sw.airplane_counters}-{letter}"
        if (
            sw.tripod_counters
            and firer_type is not None
            and target_type in self.catalog.tripods
            and self.era(firer_type) == "ww2"
        ):
            return f"{sw.tripod_counters}-{letter}"
        return letter

    def damage_cards(self, deck: str) -> dict[str, DamageCard]:
        """A damage deck's (or counter set's) cards by id (built once per deck)."""
        cards = self._damage_cards.get(deck)
        if cards is None:
            cards = {c.id: c for c in self.catalog.damage_decks[deck].cards}
            self._damage_cards[deck] = cards
        return cards

    def deck_of(self, type_id: str) -> ManeuverDeck:
        """An airplane type's maneuver deck (an unknown type raises, and is not kept)."""
        deck = self._decks.get(type_id)
        if deck is None:
            deck = self.catalog.maneuver_decks[self.airplane(type_id).maneuver_deck]
            self._decks[type_id] = deck
        return deck

    def maneuver_cards(self, type_id: str) -> dict[str, ManeuverCard]:
        """An airplane type's maneuver cards by id, built once per type (not to be changed):
        every card planned and revealed is looked up, a subscript rather than a call of
        ``deck.card`` each. An id not in it is :meth:`ManeuverDeck.card`'s error."""
        cards = self._maneuver_cards.get(type_id)
        if cards is None:
            cards = {c.id: c for c in self.deck_of(type_id).cards}
            self._maneuver_cards[type_id] = cards
        return cards

    def arc(self, weapon: str) -> Arc:
        return self.front_arc if weapon == "front" else self.rear_arc

    def weapons(self, type_id: str) -> tuple[tuple[str, str], ...]:
        """(weapon, damage deck letter) pairs: front first, then rear for two-seaters.
        Tripods have no ruler weapons: their heat-ray is an action."""
        known = self._weapons.get(type_id)
        if known is not None:
            return known
        if type_id in self.catalog.tripods and type_id not in self.catalog.airplanes:
            self._weapons[type_id] = ()
            return ()
        firepower = self.airplane(type_id).firepower
        names = ("front", "rear")
        out = tuple((names[i], letter) for i, letter in enumerate(firepower))
        self._weapons[type_id] = out
        return out

"""The rules in force as arrays: table measures, switches, airplane models, maneuver
cards and damage decks, indexed the way the batched engine indexes them.

Built from the referee's :class:`dogfight.rules.context.Rules` (read only), so the batch
plays with exactly the catalog, ruleset and switches a situation chose.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dogfight.batch.tripod_spec import TripodSpec, build_tripod_spec
from dogfight.catalog.models import (
    Direction,
    Explosion,
    IllegalManeuver,
    ManeuverDeck,
    Special,
    Symbol,
)
from dogfight.errors import DataError
from dogfight.rules.arrays import Bools as Bools
from dogfight.rules.arrays import Floats as Floats
from dogfight.rules.arrays import Ints as Ints
from dogfight.rules.context import Rules
from dogfight.rules.standard import TRIPOD_ONLY
from dogfight.rules.ww2 import scale

SYMBOLS = list(Symbol)
STRAIGHT = SYMBOLS.index(Symbol.STRAIGHT)
IMMELMANN = SYMBOLS.index(Symbol.IMMELMANN)
LEFT = SYMBOLS.index(Symbol.LEFT)
RIGHT = SYMBOLS.index(Symbol.RIGHT)
STALL = SYMBOLS.index(Symbol.STALL)

# 002's and 003's special damage icons, as bits of ``Spec.slot_special``
RUDDER_LEFT_BIT, RUDDER_RIGHT_BIT, OBSERVER_BIT, ENGINE_BIT, SMOKE_BIT, FIRE_BIT = (
    1 << k for k in range(6)
)
# 000's tripod-only icons (the Standard Rules' table, ``standard.TRIPOD_ONLY``)
GYROSCOPE_BIT, REVERSE_BIT, SMOKE_GENERATOR_BIT, CIRCUITS_BIT, TOPPLED_BIT, BATTERIES_BIT = (
    1 << k for k in range(6, 12)
)

_SPECIAL_BITS = {
    Special.RUDDER_LEFT: RUDDER_LEFT_BIT,
    Special.RUDDER_RIGHT: RUDDER_RIGHT_BIT,
    Special.WOUNDED_PILOT: OBSERVER_BIT,
    Special.ENGINE: ENGINE_BIT,
    Special.SMOKE: SMOKE_BIT,
    Special.FIRE: FIRE_BIT,
    Special.GYROSCOPE: GYROSCOPE_BIT,
    Special.REVERSE_DESTROYED: REVERSE_BIT,
    Special.SMOKE_GENERATOR: SMOKE_GENERATOR_BIT,
    Special.CIRCUITS: CIRCUITS_BIT,
    Special.TOPPLED: TOPPLED_BIT,
    Special.BATTERIES: BATTERIES_BIT,
}
AIRPLANE_BITS = RUDDER_LEFT_BIT | RUDDER_RIGHT_BIT | SMOKE_BIT
"""Icons that mean nothing to a tripod (``standard.AIRPLANE_ONLY``; jams go apart)."""
TRIPOD_BITS = (
    GYROSCOPE_BIT | REVERSE_BIT | SMOKE_GENERATOR_BIT | CIRCUITS_BIT | TOPPLED_BIT | BATTERIES_BIT
)
"""Icons that mean nothing to an airplane (``standard.TRIPOD_ONLY``)."""
_SPECIALS_OF = {
    # standard.collect: 002's list (the crew icon reads as the observer), 003's engine only
    "002": frozenset(_SPECIAL_BITS) - TRIPOD_ONLY,
    "003": frozenset({Special.ENGINE}),
    # 000's table (the Standard Rules; WW2 airplanes, docs/ww2.md): the crew icon is a
    # wounded pilot, and the tripods' icons count
    "000": frozenset(_SPECIAL_BITS),
}

ILLEGAL_STRAIGHT_AND_DAMAGE = 0
ILLEGAL_ELIMINATED = 1
ILLEGAL_STRAIGHT = 2
_ILLEGAL = {
    IllegalManeuver.STRAIGHT_AND_DAMAGE: ILLEGAL_STRAIGHT_AND_DAMAGE,
    IllegalManeuver.ELIMINATED: ILLEGAL_ELIMINATED,
    IllegalManeuver.STRAIGHT: ILLEGAL_STRAIGHT,
}

RULESETS = ("wog", "wow", "wow-basic", "ww2")
"""The rulesets whose airplane game the batch plays."""
KNOWN_SWITCHES = frozenset(
    {
        "illegal_maneuver",
        "illegal_damage_deck",
        "explosion",
        "altitude_cards",
        "aim_bonus",
        "auto_target",
        "standard_rules",
        "match_scoring",  # who scores the match points: the batch reports no scores
        "immelmann_counter",
        "steep_after_turn_or_straight",
        "blocking",
        "blind_spot",
        "special_damage",
        "tailing",
        # ww2 (batch/ww2.py): WW2 airplanes only, their counters and speed markers
        "era",
        "airplane_counters",
        "card_speed",
        # tripods only: a table of WW2 airplanes never meets them
        "tripod_counters",
        "tripod_factor",
    }
)
SPECIALS = (None, "002", "003", "000")
"""The special damage rules the batch plays: 002's list, 003's engine damage and 000's
Standard Rules table (airplanes of both eras and tripods: batch/special.py)."""


@dataclass(frozen=True, eq=False)
class Spec:
    """Everything the batched engine reads from the catalog and the switches."""

    rules: Rules
    width: float
    height: float
    ruler: float
    half: float
    base_length: float
    base_width: float
    base_radius: float
    arc_centre: Floats
    """(2,) degrees off the heading: front, rear."""
    arc_half: Floats
    """(2,) half widths in degrees."""
    jam_maneuvers: int
    illegal: int
    illegal_deck: int
    explosion_eliminates: bool
    aim_bonus: bool
    auto_nearest: bool
    immelmann_counter: bool
    """002: a turn may open with an Immelmann after an Immelmann."""
    steep_after_turn_or_straight: bool
    """003: the card before a steep one is a left turn, a right turn or a straight."""
    friendly_blocking: bool
    """003: only the firer's own side's bases block its shots."""
    blind_spot: bool
    """002: the rear gun's blind spot right behind the tail."""
    specials: str | None
    """Whose special damage applies: "000", "002", "003" or None."""
    tailing: bool
    fire_deck: int
    """The damage deck a burning airplane draws from each turn (002: an A card)."""
    # airplane models
    type_ids: tuple[str, ...]
    type_deck: Ints
    """(T,) maneuver deck index of each model."""
    type_resistance: Ints
    type_weapon_deck: Ints
    """(T, 2) damage deck index of the front and rear weapon, -1 for none."""
    # maneuver cards, all decks one after the other
    deck_ids: tuple[str, ...]
    deck_start: Ints
    deck_size: Ints
    deck_straight: Ints
    """(decks,) global index of the straight flown in place of an illegal card."""
    card_ids: tuple[str, ...]
    card_forward: Floats
    card_left: Floats
    card_turn: Floats
    card_dx: Floats
    """Where the centre dot ends, in the start pose's frame (forward), for each card:
    half a base to the nose, the card, half a base along the new heading."""
    card_dy: Floats
    """The same, to the left."""
    card_symbol: Ints
    card_steep: Bools
    card_arrow: Ints
    """-1 an arrow to the left, 1 to the right, 0 neither (what a jammed rudder forbids)."""
    card_usable: Bools
    """Cards in play under the switches (climb and dive only with altitude cards)."""
    # damage decks
    damage_ids: tuple[str, ...]
    damage_size: Ints
    damage_cards: tuple[tuple[str, ...], ...]
    """Per deck, the card id of each physical slot (composition order)."""
    slot_value: Ints
    """(D, S) points printed on each slot's card (0 for padding)."""
    slot_explosion: Bools
    slot_jammed: Bools
    slot_special: Ints
    """(D, S) bits of the special icons that take effect under ``specials`` (0: none)."""
    tripods: TripodSpec
    """The tripod models and cards (``batch/tripod_spec.py``)."""
    # WW2 airplanes (batch/ww2.py): each maneuver card once per speed marker
    one_card: bool = False
    """WW2 (001): one card and one speed marker per Earthling turn, i.e. per phase."""
    card_speed: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """The speed marker each card is flown at (its arrow scaled), 0 for a WW1 card."""
    card_straight: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """The straight flown in place of each card when it is illegal (at the same speed)."""

    @property
    def slots(self) -> int:
        return int(self.slot_value.shape[1])

    def type_index(self, type_id: str) -> int:
        return self.type_ids.index(type_id)

    def damage_index(self, letter: str) -> int:
        return self.damage_ids.index(letter)

    def card_index(self, type_index: int, card_id: str, speed: int = 0) -> int:
        """A card's global index (for a WW2 airplane: flown at speed marker ``speed``)."""
        deck = int(self.type_deck[type_index])
        start, size = int(self.deck_start[deck]), int(self.deck_size[deck])
        for i in range(start, start + size):
            if self.card_ids[i] == card_id and int(self.card_speed[i]) == speed:
                return i
        raise DataError("plan", "cards", card_id, f"not in deck {self.deck_ids[deck]}")


def uncovered(rules: Rules) -> list[str]:
    """What of these rules the batch does not play (empty: it plays all of it)."""
    missing: list[str] = []
    if rules.ruleset.name not in RULESETS:
        missing.append(f"ruleset {rules.ruleset.name!r} (covered: {', '.join(RULESETS)})")
    # The Standard Rules' rockets and black smoke are refused table by table
    # (``bridge.not_covered``): the batch's bots never launch nor lay them.
    if rules.specials not in SPECIALS:
        missing.append(f"special damage {rules.specials!r} (covered: 000, 002, 003)")
    # A switch added to the referee after this module was written is not played here.
    for name, info in type(rules.switches).model_fields.items():
        if name not in KNOWN_SWITCHES and getattr(rules.switches, name) != info.default:
            missing.append(f"switch {name}={getattr(rules.switches, name)!r}")
    return missing


def build_spec(rules: Rules) -> Spec:
    """The arrays of ``rules``; raises :class:`DataError` for rules the batch does not play."""
    missing = uncovered(rules)
    if missing:
        raise DataError("--engine", "engine", "batch", "not covered: " + "; ".join(missing))
    catalog = rules.catalog
    sw = rules.switches
    ww2 = sw.era == "ww2"
    flown = ww2_decks(rules) if ww2 else wow_decks(rules)
    deck_ids = tuple(flown)
    if ww2:
        # WW2 airplanes take counters (001), of the ruleset's set
        prefix = f"{sw.airplane_counters}-"
        damage_ids = tuple(sorted(k for k in catalog.damage_decks if k.startswith(prefix)))
    else:
        # WW1 rulesets draw cards only: the WW2 counter sets (counters/) stay out
        damage_ids = tuple(sorted(k for k, d in catalog.damage_decks.items() if not d.counters))
    type_ids = tuple(sorted(catalog.airplanes))
    starts: list[int] = []
    sizes: list[int] = []
    straight: list[int] = []
    ids: list[str] = []
    fwd: list[float] = []
    left: list[float] = []
    turn: list[float] = []
    sym: list[int] = []
    steep: list[bool] = []
    arrow: list[int] = []
    usable: list[bool] = []
    speed: list[int] = []
    straight_of: list[int] = []
    for d in deck_ids:
        deck, speeds = flown[d]
        starts.append(len(ids))
        sizes.append(len(deck.cards) * len(speeds))
        first = len(ids)
        for card in deck.cards:
            for k, marker in enumerate(speeds):
                if card.id == deck.straight and k == 0:
                    straight.append(len(ids))
                scaled = scale(card, marker, sw.card_speed) if marker else card
                ids.append(card.id)
                fwd.append(scaled.forward)
                left.append(scaled.left)
                turn.append(card.turn)
                sym.append(SYMBOLS.index(card.symbol))
                steep.append(card.is_steep)
                arrow.append({Direction.LEFT: -1, Direction.RIGHT: 1}.get(card.arrow, 0))
                usable.append(sw.altitude_cards or card.symbol not in (Symbol.CLIMB, Symbol.DIVE))
                speed.append(marker)
                at = [c.id for c in deck.cards].index(deck.straight)
                straight_of.append(first + at * len(speeds) + k)
    d_sizes = [len(catalog.damage_decks[d].composition()) for d in damage_ids]
    width = max(d_sizes)
    value = np.zeros((len(damage_ids), width), dtype=np.int64)
    boom = np.zeros((len(damage_ids), width), dtype=np.bool_)
    jam = np.zeros((len(damage_ids), width), dtype=np.bool_)
    special = np.zeros((len(damage_ids), width), dtype=np.int64)
    in_force = _SPECIALS_OF.get(rules.specials or "", frozenset())
    names: list[tuple[str, ...]] = []
    for i, d in enumerate(damage_ids):
        deck_d = catalog.damage_decks[d]
        specs = {dc.id: dc for dc in deck_d.cards}
        comp = deck_d.composition()
        names.append(tuple(comp))
        for slot, card_id in enumerate(comp):
            printed = specs[card_id]
            value[i, slot] = printed.value
            boom[i, slot] = printed.explosion
            jam[i, slot] = Special.JAMMED in printed.specials
            for icon in printed.specials:
                if icon in in_force:
                    special[i, slot] |= _SPECIAL_BITS[icon]
    weapon_deck = np.full((len(type_ids), 2), -1, dtype=np.int64)
    for t, tid in enumerate(type_ids):
        for w, letter in enumerate(catalog.airplanes[tid].firepower):
            pile = rules.damage_deck(letter, tid)
            # an airplane of the other era (refused on a table: bridge.not_covered)
            weapon_deck[t, w] = damage_ids.index(pile) if pile in damage_ids else -1
    c = catalog.constants
    return Spec(
        rules=rules,
        width=rules.table_width,
        height=rules.table_height,
        ruler=rules.ruler,
        half=rules.half,
        base_length=rules.base_length,
        base_width=rules.base_width,
        base_radius=math.hypot(rules.base_length, rules.base_width) / 2.0,
        arc_centre=np.array([c.arcs.front.centre, c.arcs.rear.centre]),
        arc_half=np.array([c.arcs.front.width / 2.0, c.arcs.rear.width / 2.0]),
        jam_maneuvers=c.jam_maneuvers,
        illegal=_ILLEGAL[sw.illegal_maneuver],
        illegal_deck=damage_ids.index(_pile(rules, sw.illegal_damage_deck)),
        explosion_eliminates=sw.explosion is Explosion.ELIMINATED,
        aim_bonus=sw.aim_bonus,
        auto_nearest=sw.auto_target.value == "nearest",
        immelmann_counter=sw.immelmann_counter,
        steep_after_turn_or_straight=sw.steep_after_turn_or_straight,
        friendly_blocking=sw.blocking == "friendly",
        blind_spot=sw.blind_spot,
        specials=rules.specials,
        tailing=sw.tailing,
        fire_deck=damage_ids.index(_pile(rules, "A")),
        type_ids=type_ids,
        type_deck=np.array([deck_ids.index(deck_key(rules, t)) for t in type_ids], dtype=np.int64),
        type_resistance=np.array([catalog.airplanes[t].damage for t in type_ids], dtype=np.int64),
        type_weapon_deck=weapon_deck,
        deck_ids=deck_ids,
        deck_start=np.array(starts, dtype=np.int64),
        deck_size=np.array(sizes, dtype=np.int64),
        deck_straight=np.array(straight, dtype=np.int64),
        card_ids=tuple(ids),
        card_forward=np.array(fwd),
        card_left=np.array(left),
        card_turn=np.array(turn),
        card_dx=np.array(fwd)
        + rules.base_length / 2.0 * (1.0 + np.cos(np.radians(np.array(turn)))),
        card_dy=np.array(left) + rules.base_length / 2.0 * np.sin(np.radians(np.array(turn))),
        card_symbol=np.array(sym, dtype=np.int64),
        card_steep=np.array(steep, dtype=np.bool_),
        card_arrow=np.array(arrow, dtype=np.int64),
        card_usable=np.array(usable, dtype=np.bool_),
        damage_ids=damage_ids,
        damage_size=np.array(d_sizes, dtype=np.int64),
        damage_cards=tuple(names),
        slot_value=value,
        slot_explosion=boom,
        slot_jammed=jam,
        slot_special=special,
        tripods=build_tripod_spec(rules, damage_ids, width),
        one_card=ww2,
        card_speed=np.array(speed, dtype=np.int64),
        card_straight=np.array(straight_of, dtype=np.int64),
    )


def _pile(rules: Rules, letter: str) -> str:
    """The deck (WW1) or counter set (WW2, ``ww2-<letter>``) a damage letter draws from."""
    sw = rules.switches
    return f"{sw.airplane_counters}-{letter}" if sw.era == "ww2" else letter


def deck_key(rules: Rules, type_id: str) -> str:
    """The batch's maneuver deck of an airplane model: its deck, and for a WW2 airplane
    its speed markers too (every card once per speed: ``A@2345``)."""
    plane = rules.catalog.airplanes[type_id]
    if rules.switches.era == "ww2" and plane.era == "ww2":
        return f"{plane.maneuver_deck}@{''.join(map(str, plane.speeds))}"
    return plane.maneuver_deck


def wow_decks(rules: Rules) -> dict[str, tuple[ManeuverDeck, tuple[int, ...]]]:
    """Every maneuver deck as printed (speed 0: not scaled)."""
    decks = rules.catalog.maneuver_decks
    return {d: (decks[d], (0,)) for d in sorted(decks)}


def ww2_decks(rules: Rules) -> dict[str, tuple[ManeuverDeck, tuple[int, ...]]]:
    """The printed decks (for the WW1 models) and, for each WW2 model's deck and speed
    markers, the deck flown at each speed (``rules.ww2.scale``)."""
    out = wow_decks(rules)
    for tid, plane in rules.catalog.airplanes.items():
        if plane.era == "ww2":
            out[deck_key(rules, tid)] = (
                rules.catalog.maneuver_decks[plane.maneuver_deck],
                tuple(plane.speeds),
            )
    return dict(sorted(out.items()))

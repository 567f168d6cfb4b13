"""Martian tripods as arrays: their models, their maneuver cards and the Energy icons of
the damage decks, indexed the way the batched engine indexes them (000's basic tripod
rules, ``dogfight.rules.tripods``).

Built from the referee's :class:`dogfight.rules.context.Rules` (read only), like
:mod:`dogfight.batch.spec` for the airplanes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from dogfight.catalog.models import TripodSymbol
from dogfight.errors import DataError
from dogfight.geometry.hexbase import Side, hexagon
from dogfight.geometry.pose import Pose
from dogfight.rules.arrays import Bools as Bools
from dogfight.rules.arrays import Floats as Floats
from dogfight.rules.arrays import Ints as Ints
from dogfight.rules.context import Rules

TRIPOD_SYMBOLS = list(TripodSymbol)
MOVE = TRIPOD_SYMBOLS.index(TripodSymbol.MOVE)
STAND = TRIPOD_SYMBOLS.index(TripodSymbol.STAND)
REVERSE = TRIPOD_SYMBOLS.index(TripodSymbol.REVERSE)

# action tokens of 000's basic rules, as codes of ``BatchState.token``
NO_TOKEN, HEAT_RAY, CHANGE_FACING, RECHARGE, DESTROY_OBJECTIVE = range(5)
TOKENS = ("none", "heat_ray", "change_facing", "recharge", "destroy_objective")
GREEN = frozenset({CHANGE_FACING, RECHARGE, DESTROY_OBJECTIVE})
"""000: "A Tripod player can place a green Action token (Change Facing, Recharge, Destroy
Objective) only when the planned card is a standing still card."""


@dataclass(frozen=True, eq=False)
class TripodSpec:
    """Tripod models and cards. Card indexes are global over every tripod deck."""

    type_ids: tuple[str, ...]
    type_deck: Ints
    """(T,) tripod deck index of each model."""
    type_resistance: Ints
    type_energy: Ints
    """(T,) Energy rating (000: a protected hit by an explosion discards this much)."""
    type_projectors: Bools
    """(T, 6) sides with a heat-ray projector (``Side`` order)."""
    type_protected: Bools
    """(T, 6) sides of the electrified armour."""
    type_facing: Ints
    """(T,) sides one change of facing may turn."""
    type_ray_deck: Ints
    """(T,) damage deck index of the heat-ray (its firepower)."""
    type_ray_length: Floats
    """(T,) the heat-ray ruler's length."""
    type_recharge: Ints
    """(T,) Energy a recharge on an objective gives (``Rules.recharge_level``)."""
    deck_ids: tuple[str, ...]
    deck_start: Ints
    deck_size: Ints
    card_ids: tuple[str, ...]
    card_symbol: Ints
    card_moves: Bools
    card_stop: Bools
    card_energy: Bools
    card_dx: Floats
    """Where the centre ends, in the start pose's frame (forward), as
    :func:`dogfight.geometry.maneuver.apply_card` with the hexagon's depth."""
    card_dy: Floats
    card_turn: Floats
    slot_energy: Bools
    """(D, S) damage slots with the Energy icon (a protected hit discards 1 Energy)."""

    def type_index(self, type_id: str) -> int:
        return self.type_ids.index(type_id)

    def card_index(self, type_index: int, card_id: str) -> int:
        return index_in_deck(self, int(self.type_deck[type_index]), card_id)


class Deck(Protocol):
    """The card tables both specs share: decks laid one after the other."""

    @property
    def deck_ids(self) -> tuple[str, ...]: ...
    @property
    def deck_start(self) -> Ints: ...
    @property
    def deck_size(self) -> Ints: ...
    @property
    def card_ids(self) -> tuple[str, ...]: ...


def index_in_deck(spec: Deck, deck: int, card_id: str) -> int:
    """The global index of card ``card_id`` of deck ``deck``; a card not in it is a
    :class:`DataError` naming the deck."""
    start, size = int(spec.deck_start[deck]), int(spec.deck_size[deck])
    for i in range(start, start + size):
        if spec.card_ids[i] == card_id:
            return i
    raise DataError("plan", "cards", card_id, f"not in deck {spec.deck_ids[deck]}")


def _sides(names: list[str]) -> list[bool]:
    chosen = {Side.parse(s) for s in names}
    return [side in chosen for side in Side]


def build_tripod_spec(rules: Rules, damage_ids: tuple[str, ...], slots: int) -> TripodSpec:
    """The arrays of the catalog's tripods (``damage_ids``/``slots``: the airplane spec's
    damage decks and their width, which the tripods share)."""
    catalog = rules.catalog
    type_ids = tuple(sorted(catalog.tripods))
    deck_ids = tuple(sorted({catalog.tripods[t].maneuver_deck for t in type_ids}))
    half = rules.hex_apothem()
    starts: list[int] = []
    sizes: list[int] = []
    ids: list[str] = []
    symbol: list[int] = []
    moves: list[bool] = []
    stop: list[bool] = []
    energy: list[bool] = []
    dx: list[float] = []
    dy: list[float] = []
    turn: list[float] = []
    for d in deck_ids:
        deck = catalog.tripod_decks[d]
        starts.append(len(ids))
        sizes.append(len(deck.cards))
        for card in deck.cards:
            ids.append(card.id)
            symbol.append(TRIPOD_SYMBOLS.index(card.symbol))
            moves.append(card.moves)
            stop.append(card.stop)
            energy.append(card.energy)
            rad = math.radians(card.turn)
            dx.append(card.forward + half * (1.0 + math.cos(rad)))
            dy.append(card.left + half * math.sin(rad))
            turn.append(card.turn)
    slot_energy = np.zeros((len(damage_ids), slots), dtype=np.bool_)
    for i, letter in enumerate(damage_ids):
        deck_d = catalog.damage_decks[letter]
        specs = {dc.id: dc for dc in deck_d.cards}
        for slot, card_id in enumerate(deck_d.composition()):
            slot_energy[i, slot] = specs[card_id].energy
    models = [catalog.tripods[t] for t in type_ids]
    return TripodSpec(
        type_ids=type_ids,
        type_deck=np.array([deck_ids.index(m.maneuver_deck) for m in models], dtype=np.int64),
        type_resistance=np.array([rules.tripod_resistance(t) for t in type_ids], dtype=np.int64),
        type_energy=np.array([m.energy for m in models], dtype=np.int64),
        type_projectors=np.array(
            [_sides(list(m.projectors)) for m in models], dtype=np.bool_
        ).reshape(len(models), 6),
        type_protected=np.array(
            [_sides(list(m.protected)) for m in models], dtype=np.bool_
        ).reshape(len(models), 6),
        type_facing=np.array([m.facing_limit for m in models], dtype=np.int64),
        # -1: the ruleset draws no such deck (ww2's counters), where no tripod is played
        type_ray_deck=np.array(
            [damage_ids.index(m.firepower) if m.firepower in damage_ids else -1 for m in models],
            dtype=np.int64,
        ),
        type_ray_length=np.array([rules.heat_ray_ruler(t).length for t in type_ids]),
        type_recharge=np.array([rules.recharge_level(t) for t in type_ids], dtype=np.int64),
        deck_ids=deck_ids,
        deck_start=np.array(starts, dtype=np.int64),
        deck_size=np.array(sizes, dtype=np.int64),
        card_ids=tuple(ids),
        card_symbol=np.array(symbol, dtype=np.int64),
        card_moves=np.array(moves, dtype=np.bool_),
        card_stop=np.array(stop, dtype=np.bool_),
        card_energy=np.array(energy, dtype=np.bool_),
        card_dx=np.array(dx),
        card_dy=np.array(dy),
        card_turn=np.array(turn),
        slot_energy=slot_energy,
    )


def hexagons(side: float, x: Floats, y: Floats, heading: Floats) -> Floats:
    """(P, 6, 2) corners of tripod bases, in :func:`dogfight.geometry.hexbase.hexagon`'s
    order (counter-clockwise from the front side's right end)."""
    offsets = np.array(hexagon(Pose(0.0, 0.0, 0.0), side))
    rad = np.radians(heading)[:, None]
    c, s = np.cos(rad), np.sin(rad)
    f, lft = offsets[:, 0], offsets[:, 1]
    out: Floats = np.stack([x[:, None] + f * c - lft * s, y[:, None] + f * s + lft * c], axis=-1)
    return out

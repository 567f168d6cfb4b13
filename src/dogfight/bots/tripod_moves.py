"""A tripod's legal plans as arrays (every card sequence its Energy, damage and 000's
"at least one stationary or running card" allow) and where each leaves it; shared by
the bots' model of an enemy tripod, the ``martian`` planner and the random bot."""

from __future__ import annotations

import itertools

import numpy as np

from dogfight.bots.view import (
    Bools,
    Floats,
    Ints,
    advance,
    card_table,
)
from dogfight.catalog.models import (
    TripodSymbol,
)
from dogfight.rules.context import Rules
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import planned_cards

_TRIPOD_SEQS: dict[tuple[int, int], tuple[object, Ints]] = {}


def _all_tripod_sequences(deck: object, size: int, count: int) -> Ints:
    key = (id(deck), count)
    hit = _TRIPOD_SEQS.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    out = np.array(list(itertools.permutations(range(size), count)), dtype=np.int64).reshape(
        -1, count
    )
    _TRIPOD_SEQS[key] = (deck, out)
    return out


def tripod_sequences(
    state: GameState, vehicle: Vehicle
) -> tuple[Ints, tuple[Floats, Floats, Floats]]:
    """A tripod's legal plans (card indexes, shape (n, cards)) and its poses after each
    of the three phases (shape (n, 3)), lying down for the phases it cannot plan."""
    assert vehicle.tripod is not None
    rules = state.rules
    deck = rules.tripod_deck_of(vehicle.type)
    count = planned_cards(state, vehicle)
    every = _all_tripod_sequences(deck, len(deck.cards), count)
    cards = deck.cards
    moves = np.array([c.moves for c in cards])
    stand_or_run = np.array([c.symbol is not TripodSymbol.MOVE for c in cards])
    energy = np.array([c.energy for c in cards], dtype=np.int64)
    reverse = np.array([c.symbol is TripodSymbol.REVERSE for c in cards])
    ok = energy[every].sum(axis=1) <= vehicle.tripod.energy
    if count == 3:
        ok &= stand_or_run[every].any(axis=1)
    if rules.switches.standard_rules:
        status = vehicle.status
        if status.get("reverse_destroyed"):
            ok &= ~reverse[every].any(axis=1)
        engine = status.get("engine", 0)
        if engine >= 2:
            ok &= ~moves[every].any(axis=1)
        elif engine == 1 and count == 3:
            ok &= ~moves[every].all(axis=1)
    seqs = every[ok]
    if len(seqs) == 0:
        seqs = every[:1]
    table = card_table(deck)
    depth = 2.0 * rules.hex_apothem()
    n = len(seqs)
    x = np.full(n, vehicle.pose.x)
    y = np.full(n, vehicle.pose.y)
    h = np.full(n, vehicle.pose.heading)
    backward = np.full(n, vehicle.tripod.reverse_pending)
    xs, ys, hs = np.empty((n, 3)), np.empty((n, 3)), np.empty((n, 3))
    offset = 3 - count
    for p in range(3):
        if p >= offset:
            idx = seqs[:, p - offset]
            f, left, t = table.forward[idx], table.left[idx], table.turn[idx]
            ax, ay, ah = advance(x, y, h, f, left, t, depth)
            bx, by, bh = advance(x, y, h + 180.0, f, left, t, depth)
            bh = np.mod(bh + 180.0, 360.0)
            go = moves[idx]
            x = np.where(go, np.where(backward, bx, ax), x)
            y = np.where(go, np.where(backward, by, ay), y)
            h = np.where(go, np.where(backward, bh, ah), h)
            backward = reverse[idx]
        xs[:, p], ys[:, p], hs[:, p] = x, y, h
    return seqs, (xs, ys, hs)


def outside_except(rules: Rules, x: Floats, y: Floats, edge: str | None) -> Bools:
    """Poses off the table (with a margin) by any edge other than ``edge``."""
    w, h = rules.table_width, rules.table_height
    m = 2.0
    bad = np.zeros(x.shape, dtype=np.bool_)
    if edge != "west":
        bad |= x < m
    if edge != "east":
        bad |= x > w - m
    if edge != "south":
        bad |= y < m
    if edge != "north":
        bad |= y > h - m
    return bad

"""What a computer player makes of 002's bombing and photographic missions.

A carrier of an open mission likes the plans that end one of its maneuvers with its
centre on the target card (the success test, docs/rulings.md M3) and, among the others,
those that bring it nearer the card; everything else about its plans is scored as for
any airplane (:mod:`dogfight.bots.airplanes`). The target cards lie open on the table:
the bot's rebuilt state holds them (:func:`dogfight.rules.missions.targets_of`).

After its side's success, 002: "After success, exiting from own side no longer gives
enemy points." The carrier that did it, and any airplane of the side with half its
resistance gone, then flies home: it takes a plan that leaves across its side's edge
when it has one, else it likes the plans that end nearer that edge (:func:`homeward`).
"""

from __future__ import annotations

import numpy as np

from dogfight.bots.view import Bools, Flights, Floats
from dogfight.rules.missions import succeeded
from dogfight.rules.state import GameState, TargetCard, Vehicle

ON_TARGET = 12.0
"""The bonus of a plan that accomplishes the mission this turn: worth more than the
damage a turn usually trades (a sure +2 in the match score)."""
APPROACH = 4.0
"""The weight of the nearest distance to the card, over the table's half-perimeter."""


def on_card(card: TargetCard, x: Floats, y: Floats) -> Bools:
    """Which points lie on the card (its edge included)."""
    rad = np.radians(card.pose.heading)
    dx, dy = x - card.pose.x, y - card.pose.y
    along = dx * np.cos(rad) + dy * np.sin(rad)
    across = -dx * np.sin(rad) + dy * np.cos(rad)
    eps = 1e-9
    inside: Bools = (np.abs(along) <= card.length / 2 + eps) & (
        np.abs(across) <= card.width / 2 + eps
    )
    return inside


def mission_bonus(state: GameState, me: Vehicle, flights: Flights) -> Floats:
    """Each plan's bonus for ``me``'s open missions (zero when it carries none), or for
    flying home after its side's success (:func:`home_edge`)."""
    n = flights.x.shape[0]
    out = np.zeros(n)
    home = home_edge(state, me)
    if home is not None:
        out += homeward(state, flights, home)
    half_perimeter = state.rules.table_width + state.rules.table_height
    for card in state.targets.values():
        if card.done_by is not None or not card.carried_by(me):
            continue
        hits = on_card(card, flights.x, flights.y).any(axis=1)
        distance = np.hypot(flights.x - card.pose.x, flights.y - card.pose.y).min(axis=1)
        out += np.where(hits, ON_TARGET, -APPROACH * distance / half_perimeter)
    return out


HOMEWARD = 24.0
"""The weight of the end position's distance to the home edge, over the table's
half-perimeter, for an airplane flying home: ending a turn 40 cm nearer home is worth
about 4.6, more than a chance shot at an enemy across the table."""


def home_edge(state: GameState, me: Vehicle) -> str | None:
    """The edge ``me`` flies home across, or None while it has no reason to: its side's
    mission has not succeeded, or it did not carry it out and is not badly hurt."""
    if not succeeded(state, me.side):
        return None
    cards = [t for t in state.targets.values() if t.side == me.side and t.home is not None]
    if not cards:
        return None
    carried = any(t.done_by == me.id for t in cards)
    if not carried and 2 * me.damage < me.resistance:
        return None
    return cards[0].home


def leaving_home(state: GameState, flights: Flights, edge: str) -> Bools:
    """The plans whose centre dot first leaves the table across ``edge`` (the edge it
    is furthest beyond when it first is off, as the referee decides)."""
    w, h = state.rules.table_width, state.rules.table_height
    x, y = flights.x, flights.y
    off = (x < 0) | (x > w) | (y < 0) | (y > h)
    rows = np.arange(len(x))
    first = np.argmax(off, axis=1)
    fx, fy = x[rows, first], y[rows, first]
    inside = np.stack([fy, h - fy, fx, w - fx])  # south, north, west, east
    crossed = np.argmin(inside, axis=0)
    out: Bools = off.any(axis=1) & (crossed == EDGES.index(edge))
    return out


EDGES = ("south", "north", "west", "east")


def homeward(state: GameState, flights: Flights, edge: str) -> Floats:
    """Each plan's bonus for ending nearer the home edge (0 on it or beyond)."""
    w, h = state.rules.table_width, state.rules.table_height
    x, y = flights.x[:, -1], flights.y[:, -1]
    distance = {"south": y, "north": h - y, "west": x, "east": w - x}[edge]
    out: Floats = -HOMEWARD * np.clip(distance, 0.0, None) / (w + h)
    return out

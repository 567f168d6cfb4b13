"""What a computer player makes of 002's bombing and photographic missions.

A carrier of an open mission likes the plans that end one of its maneuvers with its
centre on the target card (the success test, docs/rulings.md M3) and, among the others,
those that bring it nearer the card; everything else about its plans is scored as for
any airplane (:mod:`dogfight.bots.airplanes`). The target cards lie open on the table:
the bot's rebuilt state holds them (:func:`dogfight.rules.missions.targets_of`).
"""

from __future__ import annotations

import numpy as np

from dogfight.bots.view import Bools, Flights, Floats
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
    """Each plan's bonus for ``me``'s open missions (zero when it carries none)."""
    n = flights.x.shape[0]
    out = np.zeros(n)
    half_perimeter = state.rules.table_width + state.rules.table_height
    for card in state.targets.values():
        if card.done_by is not None or not card.carried_by(me):
            continue
        hits = on_card(card, flights.x, flights.y).any(axis=1)
        distance = np.hypot(flights.x - card.pose.x, flights.y - card.pose.y).min(axis=1)
        out += np.where(hits, ON_TARGET, -APPROACH * distance / half_perimeter)
    return out

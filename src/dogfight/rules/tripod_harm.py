"""What harm does to a tripod's console: Energy lost and toppling.

Kept apart from :mod:`dogfight.rules.tripods` (the tripod's turn) because damage of
every kind lands here: the Standard Rules' special damage (:mod:`~dogfight.rules.standard`),
bombs, tripods' heat-rays at each other and the tripod's own actions.
"""

from __future__ import annotations

from dogfight.rules import events as ev
from dogfight.rules.state import Vehicle

TOPPLE_TOKENS = 2
"""000: "take two reminder tokens. Put them on the tripod console, in the "toppled" box"."""


def spend(vehicle: Vehicle, amount: int, reason: str, events: list[ev.Event]) -> int:
    """Take up to ``amount`` Energy from the tripod (never below 0); returns what it lost."""
    assert vehicle.tripod is not None
    spent = min(amount, vehicle.tripod.energy)
    if spent:
        vehicle.tripod.energy -= spent
        events.append(ev.EnergyChanged(vehicle.id, vehicle.tripod.energy, -spent, reason))
    return spent


def topple(vehicle: Vehicle, reason: str, events: list[ev.Event]) -> None:
    """000: "When a tripod topples, discard all cards planned for it and take two reminder
    tokens." The base stays where it is."""
    assert vehicle.tripod is not None
    vehicle.tripod.toppled = TOPPLE_TOKENS
    vehicle.tripod.reverse_pending = False
    if vehicle.plan is not None:
        vehicle.plan = vehicle.plan.model_copy(update={"cards": ()})
    events.append(ev.Toppled(vehicle.id, reason))

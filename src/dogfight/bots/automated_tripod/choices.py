"""What the Automated Tripod decided at a movement step: the card and action token with
the branch of 001 that chose them, and what it keeps for its firing step."""

from __future__ import annotations

from dataclasses import dataclass

from dogfight.catalog.models import TripodCard
from dogfight.rules.plans import Action


@dataclass(slots=True)
class Memo:
    """What the tripod chose before movement, for the firing step."""

    heat_ready: bool
    card: TripodCard | None
    action: Action | None


@dataclass(slots=True)
class Choice:
    card: TripodCard | None
    action: Action | None
    branch: str
    note: str = ""

"""The working context of one action phase, handed from step to step.

Each step of :data:`dogfight.rules.steps.MOVEMENT` and :data:`dogfight.rules.steps.FIRING`
reads what the steps before it left here (the cards revealed, where the vehicles started,
which guns are silenced) and adds its own; the state inside is this phase's copy, changed
in place, and the events are appended in the order the rules resolve them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dogfight.catalog.models import ManeuverCard, TripodCard
from dogfight.geometry.pose import Pose
from dogfight.rules.decisions import Asking
from dogfight.rules.events import Event
from dogfight.rules.plans import Action
from dogfight.rules.rays import RayOption
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import PhaseActions


@dataclass(slots=True)
class Phase:
    """One action phase being resolved (slots: every step reads its fields)."""

    state: GameState
    rng: np.random.Generator
    phase: int
    """1, 2 or 3: the phase of the turn."""
    number: int
    """Phases played in the whole game, this one included (skills count them)."""
    events: list[Event]
    movers: list[Vehicle]
    """The vehicles in play when the phase began, by id."""
    chosen: dict[str, Action | None]
    """Each tripod's action token for this phase."""
    acts: PhaseActions = field(default_factory=lambda: PhaseActions({}, {}, {}, {}))
    flown: dict[str, ManeuverCard] = field(default_factory=dict)
    """The card each airplane flies this phase, after the illegal-maneuver rules."""
    walked: dict[str, TripodCard] = field(default_factory=dict)
    """The card each tripod walks this phase."""
    starts: dict[str, Pose] = field(default_factory=dict)
    """Where each mover stood before moving."""
    backward: set[str] = field(default_factory=set)
    """Tripods whose card was applied backwards."""
    silenced: set[tuple[str, str]] = field(default_factory=set)
    """(vehicle, weapon) pairs that discarded a jam counter this phase: they cannot fire."""
    drops: dict[str, int] = field(default_factory=dict)
    """Bomb loads each bomber dropped this phase (001)."""
    bomb_rays: list[tuple[Vehicle, RayOption]] = field(default_factory=list)
    """Heat-rays fired at falling bomb cards this firing step (001)."""
    aimed: set[str] = field(default_factory=set)
    """Tripods whose heat-ray target was named after movement (checked against reach)."""
    asking: Asking = field(default_factory=lambda: Asking({}))
    """The players' answers to this phase's decisions (:mod:`dogfight.rules.decisions`)."""

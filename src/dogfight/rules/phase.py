"""The working context of one action phase, handed from step to step.

Each step of :data:`dogfight.rules.steps.MOVEMENT` and :data:`dogfight.rules.steps.FIRING`
reads what the steps before it left here (the cards revealed, where the vehicles started,
which guns are silenced) and adds its own; the state inside is this phase's copy, changed
in place, and the events are appended in the order the rules resolve them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dogfight.catalog.models import ManeuverCard, TripodCard
from dogfight.geometry.pose import Pose
from dogfight.rules.decisions import Asking
from dogfight.rules.events import Event
from dogfight.rules.plans import Action
from dogfight.rules.rays import RayOption
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.tripods import PhaseActions


@dataclass(slots=True, init=False)
class Phase:
    """One action phase being resolved (slots: every step reads its fields).

    Its ``__init__`` is written out: the dataclass's would test each of the ten fields
    that start empty for a value passed in and call a default factory for it, and every
    phase makes one (``tests/test_rules_phase.py`` holds it to those defaults)."""

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
    acts: PhaseActions
    """What the tripods committed to (empty until the actions are declared)."""
    flown: dict[str, ManeuverCard]
    """The card each airplane flies this phase, after the illegal-maneuver rules (and
    scaled by its speed marker, for a WW2 airplane)."""
    speeds: dict[str, int]
    """The speed marker each WW2 airplane flies its card at this phase (001)."""
    walked: dict[str, TripodCard]
    """The card each tripod walks this phase."""
    starts: dict[str, Pose]
    """Where each mover stood before moving."""
    backward: set[str]
    """Tripods whose card was applied backwards."""
    silenced: set[tuple[str, str]]
    """(vehicle, weapon) pairs that discarded a jam counter this phase: they cannot fire."""
    drops: dict[str, int]
    """Bomb loads each bomber dropped this phase (001)."""
    bomb_rays: list[tuple[Vehicle, RayOption]]
    """Heat-rays fired at falling bomb cards this firing step (001)."""
    aimed: set[str]
    """Tripods whose heat-ray target was named after movement (checked against reach)."""
    aims: dict[str, str]
    """Those targets, for the tripods whose token is chosen in this phase (a decision of
    :mod:`dogfight.rules.action_tokens`): put on the heat-ray once it is chosen."""
    asking: Asking
    """The players' answers to this phase's decisions (:mod:`dogfight.rules.decisions`)."""

    def __init__(
        self,
        state: GameState,
        rng: np.random.Generator,
        phase: int,
        number: int,
        events: list[Event],
        movers: list[Vehicle],
        chosen: dict[str, Action | None],
        aimed: set[str] | None = None,
        asking: Asking | None = None,
        aims: dict[str, str] | None = None,
    ) -> None:
        self.state = state
        self.rng = rng
        self.phase = phase
        self.number = number
        self.events = events
        self.movers = movers
        self.chosen = chosen
        self.acts = PhaseActions({}, {}, {}, {})
        self.flown = {}
        self.speeds = {}
        self.walked = {}
        self.starts = {}
        self.backward = set()
        self.silenced = set()
        self.drops = {}
        self.bomb_rays = []
        self.aimed = set() if aimed is None else aimed
        self.asking = Asking({}) if asking is None else asking
        self.aims = {} if aims is None else aims

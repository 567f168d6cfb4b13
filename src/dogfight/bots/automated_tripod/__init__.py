"""The Automated Tripod (001, "AUTOMATED TRIPOD RULES"): a Martian tripod that plays
itself, so that one player can fly airplanes against it.

001 replaces the tripod player's planning with a procedure run at the start of every
movement step: check the tripod's energy status, whether enemies are nearby and whether
rockets are coming, then draw or choose a maneuver card from the tripod's *current*
deck (the *reserve* deck lends it cards when airplanes come close) and, where the rules
say so, stand still to recharge or change facing. After every vehicle has moved, the
tripod fires at its best target if it can.

The bot sees only its seat's observation (:func:`dogfight.rules.observation.observe`)
and the public events it is shown (:meth:`AutomatedTripod.see`); it keeps the decks in
itself and draws every random number from the generator it is given, so a seeded game
replays exactly. Each decision is a :class:`Decision` quoting the branch of 001 that
produced it; :func:`decision_events` turns them into ``tripod_decision`` events for the
game's log.

The readings of 001 that this module makes are ``docs/rulings.md`` A1-A30.

The package is laid out by what it holds: :mod:`.branches` (the text of 001's
branches), :mod:`.decisions`, :mod:`.decks`, :mod:`.scene` (what the tripod sees),
:mod:`.measures` (distances, facings, aims), :mod:`.choices` (what a step chose),
:mod:`.cruise` (the procedure with no enemy nearby) and :mod:`.bot` (the rest of the
procedure: enemies nearby, no power, rockets, firing).
"""

from __future__ import annotations

from dogfight.bots.automated_tripod.bot import AutomatedTripod
from dogfight.bots.automated_tripod.branches import RULES, Status
from dogfight.bots.automated_tripod.decisions import (
    Decision,
    action_text,
    decision_events,
    with_decisions,
)
from dogfight.bots.automated_tripod.decks import Decks, solo_deck
from dogfight.bots.automated_tripod.measures import after, facing_earth, on_objective
from dogfight.bots.automated_tripod.scene import Plane, Scene, energy_status, scene_of

__all__ = [
    "RULES",
    "AutomatedTripod",
    "Decision",
    "Decks",
    "Plane",
    "Scene",
    "Status",
    "action_text",
    "after",
    "decision_events",
    "energy_status",
    "facing_earth",
    "on_objective",
    "scene_of",
    "solo_deck",
    "with_decisions",
]

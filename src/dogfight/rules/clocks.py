"""The two clocks of a game with WW2 airplanes (001, "THE MARTIAN GAME TURN AND THE
EARTHLING GAME TURN").

000's turn is one planning phase of three cards and three action phases. 001 keeps it
for the Martians ("A Martian game turn is composed of six phases: a first planning phase,
followed by a first action phase, followed by a second planning phase ...") and gives the
WW2 airplanes their own: "An Earthling game turn ... with one planning phase and one
action phase ... Three consecutive Earthling game turns are equivalent to a Martian game
turn."

Each vehicle carries its clock (:attr:`Vehicle.clock`): tripods and WW1 airplanes run on
:data:`THREE_PHASES`, WW2 airplanes on :data:`ONE_PHASE`. The game's ``turn`` and
``phase`` count Martian turns and their action phases; an Earthling turn is one action
phase. Everything that happens "each turn" asks :func:`turn_begins` / :func:`turn_ends`
with the vehicle's clock, so a rule means the turn of the text it comes from (001: "When
a Tripods & Triplanes rule refers to a "turn", it is considered to refer to a Martian game
turn ... When a WW2 Wings of Glory rule refers to a "turn", it is considered to refer to
an Earthling game turn.").
"""

from __future__ import annotations

from typing import Literal

Clock = Literal["three_phases", "one_phase"]

THREE_PHASES: Clock = "three_phases"
"""000's turn, the Martian turn: three cards planned at once, three action phases."""
ONE_PHASE: Clock = "one_phase"
"""The Earthling turn of WW2 airplanes: one card and a speed marker, one action phase."""

PHASES = 3
"""Action phases in a Martian turn (000: "three action phases")."""

PLANNING_RULE = (
    '001: "In the first planning phase, Martian players choose and plan three cards from '
    "their maneuver decks, while Earthling players choose one maneuver card with a speed "
    'marker."'
)
LATER_PLANNING_RULE = (
    '001: "In the second and third planning phases, Martian players only choose their '
    'actions, while Earthling players choose one new maneuver card with a speed marker."'
)


def clock_for(era: str) -> Clock:
    """The clock of a vehicle: WW2 airplanes fly Earthling turns, everything else (tripods,
    WW1 airplanes) 000's turn of three phases."""
    return ONE_PHASE if era == "ww2" else THREE_PHASES


def cards_per_planning(clock: Clock) -> int:
    """Cards planned in a planning phase where the clock's turn begins."""
    return 1 if clock == ONE_PHASE else PHASES


def plans_at(clock: Clock, phase: int) -> bool:
    """Whether a vehicle on ``clock`` plans cards in the planning phase before action phase
    ``phase + 1`` (``phase`` = the action phases of the Martian turn already resolved)."""
    return phase == 0 or clock == ONE_PHASE


def turn_begins(clock: Clock, phase: int) -> bool:
    """Whether action phase ``phase`` (1..3) is the first of one of the clock's turns."""
    return phase == 1 or clock == ONE_PHASE


def turn_ends(clock: Clock, phase: int) -> bool:
    """Whether action phase ``phase`` (1..3) is the last of one of the clock's turns."""
    return phase == PHASES or clock == ONE_PHASE


def earthling_turn(turn: int, phase: int) -> int:
    """The Earthling turn of the game that action phase ``phase`` of Martian turn ``turn``
    is (001: "Three consecutive Earthling game turns are equivalent to a Martian game
    turn")."""
    return (turn - 1) * PHASES + phase


def turn_of(clock: Clock, turn: int, phase: int) -> int:
    """The number of the clock's own turn that action phase ``phase`` (1..3) of Martian
    turn ``turn`` belongs to: the Martian turn, or the Earthling turn."""
    return earthling_turn(turn, phase) if clock == ONE_PHASE else turn

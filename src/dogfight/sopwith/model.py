"""Written orders as data: what one player asks his plane to do in one turn.

The parser (:mod:`dogfight.sopwith.orders`) turns text into these; the turn resolver
(:mod:`dogfight.sopwith.game`) reads them. Nothing here guesses: a default that 004
defines (NMR, ambiguous fire, BETA for take-off) is applied by the resolver, which knows
the plane's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Manoeuvre(StrEnum):
    """004: "RT = Right Turn; RS = Right Slip; A = Ahead; LT = Left Turn; LS = Left Slip;
    0 or N = No Move ...; and I = Immelman Turn"."""

    AHEAD = "A"
    LEFT_TURN = "LT"
    RIGHT_TURN = "RT"
    LEFT_SLIP = "LS"
    RIGHT_SLIP = "RS"
    NO_MOVE = "0"
    IMMELMANN = "I"


class Line(StrEnum):
    """A line of fire: 004: "Firing for the ordinary player is in the left, right and
    ahead directions"."""

    LEFT = "L"
    RIGHT = "R"
    AHEAD = "A"


class Strip(StrEnum):
    """004: "the three airstrips will be noted, from left to right, as ALPHA, BETA, GAMMA
    [or Left, Centre, Right]"."""

    ALPHA = "ALPHA"
    BETA = "BETA"
    GAMMA = "GAMMA"


@dataclass(frozen=True, slots=True)
class MoveOrder:
    """One move and the fire that goes with it.

    ``fire`` lists the bursts in the order written (``fire L+R+A`` is three bursts);
    ``ambiguous_fire`` is true for a bare "FIRE" with no line, which 004 "centralises".
    """

    manoeuvre: Manoeuvre
    fire: tuple[Line, ...] = ()
    ambiguous_fire: bool = False
    line: int = 0
    """Line number of the move in the orders text (for messages); 0 when not from text."""


@dataclass(frozen=True, slots=True)
class Orders:
    """One player's orders for one turn.

    ``player`` is the name the orders are filed under (the plane); ``pilot`` the name the
    player chose to fly under, if written. ``take_off``/``land`` are set when the orders
    declare a take-off or a landing; ``strip`` is the airstrip written on the turn line
    or with the declaration (None: not written).
    """

    player: str
    turn: int
    moves: tuple[MoveOrder, MoveOrder, MoveOrder]
    pilot: str | None = None
    take_off: bool = False
    land: bool = False
    strip: Strip | None = None
    source: str = ""
    """Where the orders came from (file name), for messages."""

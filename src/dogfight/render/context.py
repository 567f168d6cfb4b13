"""What every layer of a drawing shares: the state, frame, colours, labels and view."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dogfight.geometry.hexbase import hexagon
from dogfight.geometry.maneuver import Card, card_area, card_path
from dogfight.geometry.pose import Point, Pose
from dogfight.geometry.shapes import Polygon, rectangle
from dogfight.render.labels import _Labels
from dogfight.render.markup import _Frame
from dogfight.render.style import PALETTE, SIDE_SLOTS
from dogfight.rules.events import (
    Event,
    FacingChanged,
    LeftArea,
    Moved,
    MovedAtSpeed,
    PhaseStarted,
    PutBack,
    TurnStarted,
)
from dogfight.rules.state import GameState, Vehicle
from dogfight.rules.ww2 import card_flown


def side_slots(sides: Sequence[str]) -> dict[str, int]:
    """Each side's place in the palette: a side of :data:`SIDE_SLOTS` takes its own
    (unless another side of the game holds it), the others in name order the first places
    left. So a side keeps its colour from scenario to scenario, and two unknown sides
    still get the most distinct colours. The table page (board.js) places sides alike."""
    slots: dict[str, int] = {}
    named = sorted(set(sides))
    for side in named:
        if side in SIDE_SLOTS and SIDE_SLOTS[side] not in slots.values():
            slots[side] = SIDE_SLOTS[side]
    free = (i for i in itertools.count() if i not in slots.values())
    for side in named:
        if side not in slots:
            slots[side] = next(free)
    return slots


def side_colours(sides: Sequence[str]) -> dict[str, str]:
    """A colour per side, by :func:`side_slots`.

    ``GameState.sides`` counts eliminated airplanes too, so a side keeps its colour for
    the whole game. The palette repeats beyond eight sides.
    """
    return {side: PALETTE[i % len(PALETTE)] for side, i in side_slots(sides).items()}


def _timed(events: Sequence[Event]) -> Iterator[tuple[int, int, Event]]:
    """Each event with the (turn, phase) it happened in (0 while not known)."""
    turn = phase = 0
    for event in events:
        if isinstance(event, TurnStarted):
            turn, phase = event.turn, 0
        elif isinstance(event, PhaseStarted):
            turn, phase = event.turn, event.phase
        yield turn, phase, event


def _when(turn: int, phase: int) -> str:
    """ " (turn 1, phase 2)" for hover texts, or nothing when not known."""
    if turn == 0:
        return ""
    return f" (turn {turn}, phase {phase})" if phase else f" (turn {turn})"


def _polar(origin: Point, degrees: float, radius: float) -> Point:
    rad = math.radians(degrees)
    return (origin[0] + radius * math.cos(rad), origin[1] + radius * math.sin(rad))


def _unit(a: Point, b: Point) -> Point | None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return None if length < 1e-9 else (dx / length, dy / length)


@dataclass(slots=True)
class _Context:
    """What every layer needs: the state, the frame, side colours and the label placer."""

    state: GameState
    frame: _Frame
    colours: dict[str, str]
    labels: _Labels

    def speed_of(self, move: Moved) -> int | None:
        """The speed marker a WW2 airplane's move was flown at (None for any other)."""
        return move.speed if isinstance(move, MovedAtSpeed) else None

    def colour(self, vehicle: Vehicle) -> str:
        return self.colours[vehicle.side]

    def base(self, pose: Pose) -> Polygon:
        """An airplane's base at ``pose``."""
        return rectangle(pose, self.state.rules.base_length, self.state.rules.base_width)

    def shape(self, vehicle: Vehicle, pose: Pose | None = None) -> Polygon:
        """The vehicle's base (a hexagon for a tripod) where it is, or at ``pose``."""
        where = vehicle.pose if pose is None else pose
        if vehicle.kind == "tripod":
            return hexagon(where, self.state.rules.hex_side)
        return self.base(where)

    def has_tripods(self) -> bool:
        return any(v.kind == "tripod" for v in self.state.vehicles.values())

    def pose_at(self, events: Sequence[Event], index: int, vid: str) -> Pose:
        """Where vehicle ``vid`` (known to the state) stood at ``events[index]``."""
        return _pose_at(self.state, events, index, vid)

    def vehicles(self) -> list[Vehicle]:
        """Every vehicle, in id order (the drawing must not depend on dict order)."""
        return sorted(self.state.vehicles.values(), key=lambda v: v.id)

    def moves(self, events: Sequence[Event]) -> Iterator[tuple[int, int, Moved, Vehicle]]:
        """The moves among ``events`` of vehicles this state knows, with their time."""
        for turn, phase, event in _timed(events):
            if isinstance(event, Moved) and event.vehicle in self.state.vehicles:
                yield turn, phase, event, self.state.vehicles[event.vehicle]

    def beside(self, a: Point, b: Point, at: float, text: str, size: float, fill: str) -> None:
        """Label the line ``a``-``b`` at fraction ``at`` of its length, on the left of its
        direction (two airplanes firing at each other get their labels on either side),
        sliding away from the line or along it when the spot is taken."""
        direction = _unit(a, b) or (1.0, 0.0)
        normal = (-direction[1], direction[0])
        spot = (
            a[0] + at * (b[0] - a[0]) + 0.9 * normal[0],
            a[1] + at * (b[1] - a[1]) + 0.9 * normal[1],
        )
        if normal[0] > 0.3:
            anchor = "start"
        elif normal[0] < -0.3:
            anchor = "end"
        else:
            anchor = "middle"
        step = 1.3
        self.labels.add(
            spot,
            text,
            size=size,
            anchor=anchor,
            nudges=(
                (step * direction[0], step * direction[1]),
                (-step * direction[0], -step * direction[1]),
                (step * normal[0], step * normal[1]),
            ),
            fill=fill,
        )


@dataclass(frozen=True, slots=True)
class _View:
    """The drawn region in table cm, ``left``..``right`` by ``bottom``..``top``; the
    title, caption and legend take the top ``header`` cm."""

    left: float
    right: float
    bottom: float
    top: float
    header: float


@dataclass(frozen=True, slots=True)
class _Laid:
    """A maneuver card as laid against a base: for an airplane at the nose of its start
    pose; for a tripod at its front side, or at its rear side (the start pose turned
    round) when the card is applied backwards after a reverse."""

    pose: Pose
    depth: float
    """Distance from the side the card is laid against to the opposite one."""
    card: Card
    length: float
    width: float
    area_length: float
    """The deck's card length, which ``card_area`` uses for cards without their own."""


def _laid(ctx: _Context, move: Moved, vehicle: Vehicle) -> _Laid:
    rules = ctx.state.rules
    if vehicle.kind == "tripod":
        tdeck = rules.tripod_deck_of(vehicle.type)
        start = move.start
        if move.backward:
            start = Pose(start.x, start.y, (start.heading + 180.0) % 360.0)
        return _Laid(
            start,
            2.0 * rules.hex_apothem(),
            tdeck.card(move.card),
            tdeck.card_length,
            tdeck.card_width,
            tdeck.card_length,
        )
    deck = rules.deck_of(vehicle.type)
    card = card_flown(rules, vehicle.type, move)
    length = card.length or deck.card_length
    return _Laid(move.start, rules.base_length, card, length, deck.card_width, deck.card_length)


def _move_shapes(ctx: _Context, move: Moved, vehicle: Vehicle) -> tuple[Polygon, list[Point]]:
    """The card rectangle and the centre dot's path of a move, laid at its start pose."""
    laid = _laid(ctx, move, vehicle)
    area = card_area(laid.pose, laid.card, laid.depth, laid.area_length, laid.width)
    return area, card_path(laid.pose, laid.card, laid.depth)


def _pose_after(event: Event, vid: str) -> Pose | None:
    """Where ``event`` left vehicle ``vid`` (None: it did not move it)."""
    if isinstance(event, Moved) and event.vehicle == vid:
        return event.end
    if isinstance(event, FacingChanged | PutBack | LeftArea) and event.vehicle == vid:
        return event.pose
    return None


def _pose_before(event: Event, vid: str) -> Pose | None:
    """Where vehicle ``vid`` stood before ``event`` (None: it did not move it)."""
    if isinstance(event, Moved) and event.vehicle == vid:
        return event.start
    if isinstance(event, FacingChanged) and event.vehicle == vid:
        return Pose(event.pose.x, event.pose.y, (event.pose.heading - 60.0 * event.sides) % 360.0)
    if isinstance(event, PutBack | LeftArea) and event.vehicle == vid:
        # reached before any move of its own: a tripod lying where it was, or a plane
        # that left without a move in these events
        return event.pose
    return None


def _pose_at(state: GameState, events: Sequence[Event], index: int, vid: str) -> Pose:
    """Where vehicle ``vid`` stood when ``events[index]`` happened: after the last event
    before it that moved it, else before the first one after it, else where it is now."""
    for event in reversed(events[:index]):
        after = _pose_after(event, vid)
        if after is not None:
            return after
    for event in events[index + 1 :]:
        before = _pose_before(event, vid)
        if before is not None:
            return before
    return state.vehicles[vid].pose

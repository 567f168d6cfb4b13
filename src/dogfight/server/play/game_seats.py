"""Who is who in a live game: a seat found by its token, the vehicles each seat plays,
the seats in order, the seat playing a vehicle and the seats with a vehicle in play.

:class:`GameSeats` is the part of :class:`~dogfight.server.play.games.LiveGame` that answers
these from the game's seats and state. Each answer is asked many times per request and
changes only with the seats or with which vehicles are in the game: they are kept with
the seats and state they were worked out from (compared by identity, as a new state or
new seats are new objects), and worked out again when those change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dogfight.rules.state import GameState
from dogfight.server.db.records import Seat
from dogfight.server.errors import ApiError
from dogfight.server.play.seats import token_matches


class GameSeats:
    """The seat look-ups of a live game (a base of
    :class:`~dogfight.server.play.games.LiveGame`, which holds ``id``, ``seats`` and ``state``)."""

    id: str
    seats: dict[str, Seat]
    state: GameState

    def _forget_seats(self) -> None:
        """Drop every answer kept (the game is loaded again)."""
        self._vehicles_of: tuple[Any, Any, dict[str, frozenset[str]]] = (None, None, {})
        self._vehicles_by_ids: tuple[Any, Any, dict[str, frozenset[str]]] = (None, None, {})
        self._to_plan: tuple[Any, Any, list[Seat]] = (None, None, [])
        self._seats_in_order: tuple[Any, list[Seat]] = (None, [])

    def seat(self, seat_id: str, token: str | None) -> Seat:
        """The seat, if ``token`` is its own: else 404 (no such seat) or 403."""
        seat = self.seats.get(seat_id)
        if seat is None:
            raise ApiError(404, f"no seat {seat_id!r} in game {self.id}", "seat_id")
        if not token_matches(token, seat.token_hash):
            raise ApiError(403, "this seat's token is missing or wrong", "token")
        return seat

    def seat_vehicles(self, seat_id: str, state: GameState | None = None) -> frozenset[str]:
        """The vehicles the seat plays in ``state`` (default: the current one): its own,
        and for the first seat of a side the side's vehicles no seat names. Worked out
        once per seat while the seats and the ids of the vehicles on the table and in
        reserve stay the same (asked many times per request, for every new state)."""
        state = state or self.state
        known = self._vehicles_of
        if known[0] is not state or known[1] is not self.seats:
            # what a seat plays depends only on the seats and on which vehicles (each of
            # its side for good) are on the table or in reserve: kept while those stay
            ids = (tuple(state.vehicles), tuple(state.reserves))
            held = self._vehicles_by_ids
            if held[0] is not self.seats or held[1] != ids:
                held = self._vehicles_by_ids = (self.seats, ids, {})
            known = self._vehicles_of = (state, self.seats, held[2])
        mine = known[2].get(seat_id)
        if mine is None:
            mine = known[2][seat_id] = self._seat_vehicles(seat_id, state)
        return mine

    def _seat_vehicles(self, seat_id: str, state: GameState) -> frozenset[str]:
        seat = self.seats[seat_id]
        mine = set(seat.vehicles)
        first = min(
            (s for s in self.seats.values() if s.side == seat.side), key=lambda s: s.position
        )
        if first.id == seat.id:
            claimed = {v for s in self.seats.values() for v in s.vehicles}
            everyone = [*state.vehicles.values(), *state.reserves.values()]
            mine |= {v.id for v in everyone if v.side == seat.side and v.id not in claimed}
        return frozenset(mine)

    def _ordered(self) -> list[Seat]:
        """The seats by position (worked out once per ``seats``)."""
        known = self._seats_in_order
        if known[0] is not self.seats:
            known = self._seats_in_order = (
                self.seats,
                sorted(self.seats.values(), key=lambda s: s.position),
            )
        return known[1]

    def owner(self, vehicle_id: str) -> Seat | None:
        for seat in self._ordered():
            if vehicle_id in self.seat_vehicles(seat.id):
                return seat
        return None

    def seats_to_plan(self) -> Sequence[Seat]:
        """The seats with a vehicle in play, by position: worked out once per state and
        seats (asked a dozen times a turn: who is awaited, what the computer players
        plan, whether a plan is the turn's last). The list kept, not a copy: read only."""
        state = self.state
        known = self._to_plan
        if known[0] is not state or known[1] is not self.seats:
            playing = {v.id for v in state.in_play()}
            seats = [s for s in self._ordered() if self.seat_vehicles(s.id, state) & playing]
            known = self._to_plan = (state, self.seats, seats)
        return known[2]

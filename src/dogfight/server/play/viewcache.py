"""A live game's views, worked out once: the parts of a seat's view for the game's
current version (the summary, the table as each seat sees it, its stage...) and each
resolved step as each seat saw it, each put in JSON once (a :class:`Raw` part, put as it
is in every message that sends it: :mod:`dogfight.output.encoding`).

Without it every request and every WebSocket message rebuilt and re-encoded the whole
view, and every step's events in words, for each seat and each message. A step never
changes once resolved; the cache is made anew whenever the game is loaded again
(:meth:`dogfight.server.play.games.LiveGame.reload`), and the parts are dropped whenever the
game's ``version`` moves (every change to a game bumps it). It is only touched while the
game's work is serialised (its worker task, with the game locked).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dogfight.output.encoding import Raw, raw

T = TypeVar("T")

_MISSING: Any = object()
"""What :meth:`ViewCache.value` finds for a value not worked out yet."""


@dataclass
class ViewCache:
    version: int = -1
    """The game's version the parts were made for."""
    parts: dict[Hashable, Raw] = field(default_factory=dict)
    """The parts at ``version`` (each seat's stage), put in JSON."""
    values: dict[Hashable, Any] = field(default_factory=dict)
    """Values several parts are made from (who is awaited), at ``version``."""
    steps: dict[int, Raw] = field(default_factory=dict)
    """Each resolved step with no secret event, by its index, put in JSON: the same for
    every seat."""
    whole_events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Every event of each resolved step with a secret event, as the seat it is no
    secret to sees it (``records.event_json``), by the step's index."""
    seat_steps: dict[tuple[int, frozenset[str]], Raw] = field(default_factory=dict)
    """Each resolved step with a secret event as a seat saw it, put in JSON, by its
    index and the seat's vehicles."""
    state: object = None
    """The state object the parts in ``stately`` were made from."""
    stately: dict[Hashable, Raw] = field(default_factory=dict)
    seats: dict[Hashable, Raw] = field(default_factory=dict)
    """Each seat's part by everything it is made of: the same across versions until the
    seat changes (auto-fire, a computer player)."""
    lasting: dict[Hashable, Any] = field(default_factory=dict)
    """Values parts are made from, by everything they are made of, kept across versions
    (what never changes in the summary, each seat's entry in it)."""

    def _at(self, version: int) -> None:
        """Drop what was made for an earlier version of the game."""
        if self.version != version:
            self.parts.clear()
            self.values.clear()
            self.version = version

    def part(self, version: int, key: Hashable, make: Callable[..., Any], *args: Any) -> Raw:
        """Part ``key`` at ``version`` put in JSON (``make(*args)`` if missing: arguments
        rather than a closure, so nothing is made for a part made already, as most
        parts of a view are)."""
        self._at(version)
        got = self.parts.get(key)
        if got is None:
            got = self.parts[key] = raw(make(*args))
        return got

    def value(self, version: int, key: Hashable, make: Callable[..., T], *args: Any) -> T:
        """A value at ``version`` that several parts are made from, worked out once
        (``make(*args)``) instead of once per part: not put in JSON."""
        self._at(version)
        got: T = self.values.get(key, _MISSING)
        if got is _MISSING:
            got = self.values[key] = make(*args)
        return got

    def kept(self, key: Hashable, make: Callable[..., T], *args: Any) -> T:
        """The value ``make(*args)``, kept under ``key`` for the game's life: ``key``
        holds everything it is made of."""
        got: T = self.lasting.get(key, _MISSING)
        if got is _MISSING:
            got = self.lasting[key] = make(*args)
        return got

    def seat(
        self, seat: Any, vids: frozenset[str], make: Callable[[Any, frozenset[str]], Any]
    ) -> Raw:
        """A seat's part (``make(seat, vids)``) put in JSON, made again only when one of
        the seat's fields it shows changed."""
        key = (seat.id, seat.label, seat.side, vids, seat.auto_fire, seat.bot)
        got = self.seats.get(key)
        if got is None:
            got = self.seats[key] = raw(make(seat, vids))
        return got

    def of_state(self, state: object, key: Hashable, make: Callable[..., Any], *args: Any) -> Raw:
        """Part ``key`` (``make(*args)``) put in JSON, for a part that depends only on the
        game's current state object (the table as a seat sees it, the briefing...): kept
        while that object is the game's state, across versions that changed only who is
        awaited."""
        if self.state is not state:
            self.stately.clear()
            self.state = state
        got = self.stately.get(key)
        if got is None:
            got = self.stately[key] = raw(make(*args))
        return got

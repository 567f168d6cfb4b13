"""A live game's views, worked out once: the parts of a seat's view for the game's
current version (the summary, the table as each seat sees it, its stage...) and each
resolved step as each seat saw it, each with its JSON text.

Without it every request and every WebSocket message rebuilt and re-encoded the whole
view, and every step's events in words, for each seat and each message. A step never
changes once resolved; the cache is made anew whenever the game is loaded again
(:meth:`dogfight.server.play.games.LiveGame.reload`), and the parts are dropped whenever the
game's ``version`` moves (every change to a game bumps it). It is only touched while the
game's work is serialised (its worker task, with the game locked).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

_MISSING: Any = object()
"""What :meth:`ViewCache.value` finds for a value not worked out yet."""


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, separators=(",", ":"), check_circular=False
)
"""One encoder for every call (``json.dumps`` with options makes a new one each time).
Without the check for circular references: what is encoded here is always a tree made
by ``to_json`` methods and views, and the check (every list and dict put in a table of
ids and taken out again) was a quarter of the time of encoding a seat's table (the same
text)."""

str_json: Callable[[str], str] = json.encoder.encode_basestring
"""``to_json`` of a string (what the encoder itself calls for one, without its checks
of the value's type)."""

_make_c_encoder: Any = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODER: Callable[[Any, int], tuple[str, ...]] | None = (
    None
    if _make_c_encoder is None
    else _make_c_encoder(None, _ENCODER.default, str_json, None, ":", ",", False, False, False)
)
"""The C encoder ``_ENCODER.encode`` makes anew at every call (with its settings: no
check for cycles, strict floats, compact separators), made once: a third of the cost of
putting a small part (a seat, a step's head) in JSON was making it again. None where
Python has no C accelerator."""


def to_json(value: Any) -> str:
    """Strict, compact JSON (no NaN: a value the checks let through is refused here)."""
    if _C_ENCODER is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


def four_decimals(value: float) -> str:
    """``to_json(round(value, 4))`` of a float below 1e10 in size (the caller checks):
    the value written with four decimals, its trailing zeros dropped — the same
    correctly rounded decimal as ``round``'s, with at most 14 digits, so the shortest
    text that gives the rounded float back (``repr``'s, the encoder's), its sign kept on
    a zero (``-0.0``, as ``round`` keeps it). One conversion to decimal instead of
    ``round``'s and ``repr``'s: the events' and the tables' numbers are written so."""
    text = f"{value:.4f}".rstrip("0")
    return text + "0" if text[-1] == "." else text


def scalar_json(value: Any) -> str:
    """``to_json`` of a single value, a bool, None, an int or a string written without the
    encoder (the same text: a part written piece by piece has a few of these, each of
    which cost as much through the encoder as a small dict)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return str_json(value)
    return to_json(value)


@dataclass
class ViewCache:
    version: int = -1
    """The game's version the parts were made for."""
    parts: dict[Hashable, str] = field(default_factory=dict)
    """The JSON texts of parts at ``version`` (each seat's stage)."""
    values: dict[Hashable, Any] = field(default_factory=dict)
    """Values several parts are made from (who is awaited), at ``version``."""
    steps: dict[int, str] = field(default_factory=dict)
    """The JSON text of each resolved step with no secret event, by its index: the same
    for every seat."""
    whole_events: dict[int, list[str]] = field(default_factory=dict)
    """The JSON text of every event of each resolved step with a secret event, as the
    seat it is no secret to sees it, by the step's index."""
    seat_steps: dict[tuple[int, frozenset[str]], str] = field(default_factory=dict)
    """The JSON text of each resolved step with a secret event as a seat saw it, by its
    index and the seat's vehicles."""
    state: object = None
    """The state object the parts in ``stately`` were made from."""
    stately: dict[Hashable, str] = field(default_factory=dict)
    seats: dict[Hashable, str] = field(default_factory=dict)
    """Each seat's part by everything it is made of: the same across versions until the
    seat changes (auto-fire, a computer player)."""
    lasting: dict[Hashable, str] = field(default_factory=dict)
    """Pieces of parts' texts by everything they are made of, kept across versions (what
    never changes in the summary, each seat's entry in it)."""

    def _at(self, version: int) -> None:
        """Drop what was made for an earlier version of the game."""
        if self.version != version:
            self.parts.clear()
            self.values.clear()
            self.version = version

    def text(self, version: int, key: Hashable, make: Callable[..., str], *args: Any) -> str:
        """The JSON text of part ``key`` at ``version`` (``make(*args)`` if missing:
        arguments rather than a closure, so nothing is made for a part made already, as
        most parts of a view are)."""
        self._at(version)
        got = self.parts.get(key)
        if got is None:
            got = self.parts[key] = make(*args)
        return got

    def open_object(self, key: Hashable, make: Callable[..., Any], *args: Any) -> str:
        """The JSON text of the object ``make(*args)`` without its closing brace (more
        keys are written after it), kept under ``key`` for the game's life: ``key``
        holds everything it is made of."""
        got = self.lasting.get(key)
        if got is None:
            got = self.lasting[key] = to_json(make(*args))[:-1]
        return got

    def value(self, version: int, key: Hashable, make: Callable[..., T], *args: Any) -> T:
        """A value at ``version`` that several parts are made from, worked out once
        (``make(*args)``) instead of once per part: not put in JSON."""
        self._at(version)
        got: T = self.values.get(key, _MISSING)
        if got is _MISSING:
            got = self.values[key] = make(*args)
        return got

    def seat(
        self, seat: Any, vids: frozenset[str], make: Callable[[Any, frozenset[str]], Any]
    ) -> str:
        """The JSON text of a seat's part (``make(seat, vids)``), made again only when one
        of the seat's fields it shows changed."""
        key = (seat.id, seat.label, seat.side, vids, seat.auto_fire, seat.bot)
        got = self.seats.get(key)
        if got is None:
            got = self.seats[key] = to_json(make(seat, vids))
        return got

    def of_state(self, state: object, key: Hashable, make: Callable[..., Any], *args: Any) -> str:
        """The JSON text of part ``key`` (``make(*args)`` put in JSON) that depends only on
        the game's current state object (the briefing...): kept while that object is the
        game's state, across versions that changed only who is awaited."""
        got = self.of(state).get(key)
        if got is None:
            got = self.stately[key] = to_json(make(*args))
        return got

    def of_state_text(
        self, state: object, key: Hashable, make: Callable[..., str], *args: Any
    ) -> str:
        """:meth:`of_state` for a part ``make(*args)`` gives as JSON text already (the
        table as a seat sees it)."""
        got = self.of(state).get(key)
        if got is None:
            got = self.stately[key] = make(*args)
        return got

    def of(self, state: object) -> dict[Hashable, str]:
        """The JSON texts of the parts that depend only on ``state``, the game's current
        state object, by their keys (:attr:`stately`, emptied first if it was made for
        another state): for a caller looking up several parts of it."""
        if self.state is not state:
            self.stately.clear()
            self.state = state
        return self.stately

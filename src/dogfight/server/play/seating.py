"""Seating a new game: a setup checked once into what seating needs (:class:`Table`),
and the request's seats turned into (label, side, vehicles, computer player)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dogfight.bots.base import flies
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError, DogfightError, shown
from dogfight.rules.state import GameState
from dogfight.server.errors import ApiError
from dogfight.server.schemas import CreateGame
from dogfight.situation.format import build, parse_situation

Json = dict[str, Any]

AUTOMATED = "automated-tripod"
"""The computer player given by default to a seat of automated tripods (solo scenarios)."""


def known_bots() -> list[str]:
    from dogfight.bots import load_all
    from dogfight.bots.base import REGISTRY

    try:
        load_all()
    except Exception:  # a bot module being written must not take the server down
        return sorted(REGISTRY)
    return sorted(REGISTRY)


@dataclass(frozen=True)
class Table:
    """What seating needs from a checked setup: each vehicle's side (reinforcements
    included), the vehicles on the table in order, and the automated tripods."""

    sides: dict[str, str]
    vehicles: tuple[str, ...]
    automated: frozenset[str]
    tripods: frozenset[str] = frozenset()
    """The tripods (reinforcements included): with :attr:`automated`, what each vehicle
    is for the computer players that may fly it (:data:`dogfight.bots.base.FLIES`)."""

    def kinds(self, vehicles: list[str]) -> frozenset[str]:
        """The vehicle kinds of ``vehicles``, as the bots' :data:`~dogfight.bots.base.FLIES`
        names them."""
        return frozenset(
            "automated" if v in self.automated else "tripod" if v in self.tripods else "airplane"
            for v in vehicles
        )


def kinds_of(state: GameState, vehicles: Iterable[str]) -> frozenset[str]:
    """The vehicle kinds of a game's ``vehicles`` (on the table or still to come), as the
    bots' :data:`~dogfight.bots.base.FLIES` names them."""
    automated: set[str] = set()
    if state.scenario is not None:
        automated = {v.id for v in state.scenario.vehicles if getattr(v, "automated", False)}
    every = {**state.reserves, **state.vehicles}
    tripods = frozenset(v for v in vehicles if v in every and every[v].tripod is not None)
    return Table({}, (), frozenset(automated), tripods).kinds(list(vehicles))


def bots_for(kinds: frozenset[str]) -> list[str]:
    """The computer players that fly every vehicle kind of ``kinds``."""
    return [b for b in known_bots() if flies(b, kinds)]


def table_of(setup: Json, catalog: Catalog) -> Table:
    """Check a game's setup (422 naming the field) and read its :class:`Table`."""
    try:
        situation = parse_situation(setup, "situation")
        planned = [f"vehicles[{i}].plans" for i, v in enumerate(situation.vehicles) if v.plans]
        planned += [
            f"reinforcements[{i}].plans" for i, r in enumerate(situation.reinforcements) if r.plans
        ]
        if planned:
            raise ApiError(
                422,
                "a game's setup has no plans: each seat plans its turns",
                f"situation.{planned[0]}",
            )
        if situation.decisions:
            raise ApiError(
                422,
                "a game's setup has no answers: each seat answers its own decisions",
                "situation.decisions",
            )
        if not situation.move:
            raise ApiError(
                422,
                "a table whose vehicles stand where they are ('move': false) is a referee's "
                "question, not a game: rule on it with 'dogfight adjudicate' or 'render'",
                "situation.move",
            )
        state = build(situation, catalog, 0, "situation")
    except DataError as exc:
        raise ApiError(
            422, f"{exc.allowed} (got {shown(exc.value)})", f"situation.{exc.field}"
        ) from None
    except DogfightError as exc:
        raise ApiError(422, str(exc), "situation") from None
    sides: dict[str, str] = {v.id: v.side for v in state.vehicles.values()}
    sides.update({v.id: v.side for v in state.reserves.values()})
    automated: set[str] = set()
    if state.scenario is not None:
        automated = {v.id for v in state.scenario.vehicles if getattr(v, "automated", False)}
    tripods = {v.id for v in (*state.vehicles.values(), *state.reserves.values()) if v.tripod}
    return Table(sides, tuple(state.vehicles), frozenset(automated), frozenset(tripods))


def seats_of(
    body: CreateGame, table: Table, max_vehicles: int = 0
) -> list[tuple[str, str, list[str], str | None]]:
    """Turn the request's seating of a checked setup into (label, side, vehicles, bot)."""
    sides = table.sides
    if max_vehicles and len(sides) > max_vehicles:
        raise ApiError(
            422,
            f"{len(sides)} vehicles (reinforcements included): this server plays at most "
            f"{max_vehicles} in a game",
            "situation.vehicles",
        )
    seats: list[tuple[str, str, list[str], str | None]] = []
    if body.seats is not None:
        seen: set[str] = set()
        for i, spec in enumerate(body.seats):
            for vid in spec.vehicles:
                if vid not in sides:
                    raise ApiError(
                        422,
                        f"no vehicle {vid!r}; vehicles: {', '.join(sides)}",
                        f"seats[{i}].vehicles",
                    )
                if vid in seen:
                    raise ApiError(422, f"{vid} is in two seats", f"seats[{i}].vehicles")
                seen.add(vid)
            own = {sides[v] for v in spec.vehicles}
            if len(own) != 1:
                raise ApiError(422, "a seat's vehicles are all of one side", f"seats[{i}].vehicles")
            seats.append((spec.label, own.pop(), list(spec.vehicles), spec.bot))
        missing = sorted(set(sides.values()) - {s[1] for s in seats})
        if missing:
            sides_word = "side" if len(missing) == 1 else "sides"
            raise ApiError(422, f"no seat plays {sides_word}: {', '.join(missing)}", "seats")
    elif body.seating == "side":
        for side in sorted(set(sides.values())):
            seats.append((side, side, sorted(v for v, s in sides.items() if s == side), None))
    else:
        for vid in table.vehicles:
            seats.append((vid, sides[vid], [vid], None))
    automated = table.automated
    labels = [s[0] for s in seats]
    if len(set(labels)) != len(labels):
        raise ApiError(422, "seat labels must differ", "seats")
    bots = known_bots()
    for label in body.computer:
        if label not in labels:
            raise ApiError(
                422, f"no seat {label!r}; seats: {', '.join(labels)}", f"computer.{label}"
            )
    out = []
    for label, side, vehicles, bot in seats:
        chosen = body.computer.get(label, bot)
        if chosen is None and vehicles and set(vehicles) <= automated and AUTOMATED in bots:
            chosen = AUTOMATED  # 001's Automated Tripod plays itself
        if chosen is not None and chosen not in bots:
            raise ApiError(
                422,
                f"no computer player {chosen!r}; known: {', '.join(bots) or 'none yet'}",
                f"computer.{label}",
            )
        if chosen is not None:
            check_flies(chosen, label, table.kinds(vehicles), f"computer.{label}")
            check_makes(chosen, label, f"computer.{label}")
        out.append((label, side, vehicles, chosen))
    return out


def check_makes(bot: str, seat: str, field: str) -> None:
    """422 naming ``field``, the seat and why, when the computer player ``bot`` cannot be
    made (unknown, or its data unreadable: a learned bot's weights missing or of another
    shape...), so that no game is made, nor a seat handed over, that nobody can play."""
    from dogfight.bots.base import make

    try:
        make(bot, field)
    except DataError as exc:
        raise ApiError(422, f"the {bot} computer player cannot play {seat}: {exc}", field) from None


def check_flies(bot: str, seat: str, kinds: frozenset[str], field: str) -> None:
    """422 naming ``field`` when the computer player ``bot`` cannot fly the seat's
    vehicles (an airplane handed to the Automated Tripod, say)."""
    if not flies(bot, kinds):
        raise ApiError(
            422,
            f"the {bot} computer player does not fly {seat}'s vehicles "
            f"({', '.join(sorted(kinds))}); for this seat: {', '.join(bots_for(kinds)) or 'none'}",
            field,
        )

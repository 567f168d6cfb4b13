"""The Games Master's week, around the rules core: read the orders files, resolve the
turn, write every report. Used by ``dogfight sopwith`` and by the benchmark.

This layer reads and writes files; the core (:mod:`dogfight.sopwith.game`) does not.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from dogfight.errors import DataError, DogfightError, OrdersError
from dogfight.output.files import write_atomic
from dogfight.sopwith import events as ev
from dogfight.sopwith.game import GameError, GameState, resolve_turn, turn_rng
from dogfight.sopwith.maps import render_svg, scene
from dogfight.sopwith.model import Orders
from dogfight.sopwith.orders import parse_orders
from dogfight.sopwith.raster import render_png
from dogfight.sopwith.report import notation, player_result, published_report, start_sheet
from dogfight.sopwith.store import Issued, events_json
from dogfight.words.terms import plural


@dataclass(frozen=True)
class Played:
    """One resolved turn and its reports."""

    before: GameState
    after: GameState
    events: list[ev.Event]
    issued: Issued


def slug(name: str) -> str:
    """A name made safe for a file name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "x"


def find_plane(state: GameState, name: str, source: str) -> str:
    """The plane a player's name stands for (case does not matter)."""
    for p in state.planes:
        if p.name.casefold() == name.strip().casefold():
            return p.name
    raise GameError(
        f"{source}: no plane {name.strip()!r} in this game (planes: "
        + ", ".join(p.name for p in state.planes)
        + ")"
    )


def read_text(path: str) -> str:
    """A file's text, or standard input for ``-``."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        try:
            return Path(path).read_text(encoding="latin-1")
        except OSError as exc:
            raise DataError(path, "(file)", path, f"cannot be read: {exc.strerror}") from None
    except OSError as exc:
        raise DataError(path, "(file)", path, f"cannot be read: {exc.strerror}") from None


@dataclass(frozen=True)
class Refused:
    """An orders file not kept, and why. ``player`` is the plane the file was for when
    that much is known; ``malformed`` says its text could not be read as orders (the
    Games Master may apply the NMR default to it, S23)."""

    source: str
    reason: str
    player: str | None = None
    text: str | None = None
    malformed: bool = False


@dataclass(frozen=True)
class Batch:
    """A batch of orders files read against a game: the good ones and the refused ones."""

    accepted: list[tuple[Orders, str]]
    refused: list[Refused]

    def summary(self) -> str:
        """One message naming every refused file and why (the good ones are kept)."""
        kept = len({o.source for o, _ in self.accepted})
        head = (
            f"{plural(len(self.refused), 'orders file')} refused"
            + (f" ({plural(kept, 'other')} kept)" if kept else "")
            + ": "
        )
        return head + "; ".join(r.reason for r in self.refused)


def read_batch(state: GameState, paths: Sequence[str], player: str | None = None) -> Batch:
    """Every file's orders with its text, checked against the game: each file holds one
    player's orders (``player``, or the file's name without extension) for the turn to
    play, for a plane still in the game. A file is kept whole or refused whole; a bad
    file does not stop the others."""
    if player is not None and len(paths) != 1:
        raise GameError("--player names the player of one orders file; give one file")
    accepted: list[tuple[Orders, str]] = []
    refused: list[Refused] = []
    seen: dict[str, str] = {}
    for path in paths:
        source = "stdin" if path == "-" else path
        if player is None and path == "-":
            raise GameError("orders read from standard input need --player NAME")
        name: str | None = None
        text: str | None = None
        try:
            text = read_text(path)
            name = find_plane(state, player if player is not None else Path(path).stem, source)
            found = _orders_of(state, name, text, source, seen)
        except OrdersError as exc:
            refused.append(Refused(source, str(exc), name, text, malformed=True))
            continue
        except DogfightError as exc:
            refused.append(Refused(source, str(exc), name, text))
            continue
        seen[name] = source
        accepted.extend((orders, text) for orders in found)
    return Batch(accepted, refused)


def _orders_of(
    state: GameState, name: str, text: str, source: str, seen: Mapping[str, str]
) -> list[Orders]:
    """One file's orders for ``name``, checked against the game."""
    out = []
    for orders in parse_orders(text, name, source):
        plane = state.plane(name)
        if not plane.in_game:
            raise GameError(f"{source}: {name} is out of the game ({plane.status.value})")
        if orders.turn != state.turn:
            raise GameError(
                f"{source}: orders for turn {orders.turn}, but the turn to play is {state.turn}"
            )
        if name in seen:
            raise GameError(
                f"{source}: a second set of orders of {name} for turn {orders.turn} "
                f"(the first is in {seen[name]})"
            )
        out.append(orders)
    return out


def read_orders(
    state: GameState, paths: Sequence[str], player: str | None = None
) -> list[tuple[Orders, str]]:
    """Every file's orders with its text (:func:`read_batch`), all or nothing: the first
    refused file's reason is raised."""
    batch = read_batch(state, paths, player)
    if batch.refused:
        raise GameError(batch.refused[0].reason)
    return batch.accepted


def issue_start(game: str, state: GameState, aces: Sequence[tuple[str, int]]) -> Issued:
    """Turn 0: the start sheet and the map."""
    picture = scene(game, state, [], f"Sopwith: {game}, the start")
    return Issued(
        0,
        start_sheet(game, state, aces),
        {},
        render_svg(picture),
        render_png(picture),
        [],
    )


def issue_turn(game: str, before: GameState, after: GameState, events: list[ev.Event]) -> Issued:
    """Every report of a resolved turn: the published report, each player's result (the
    planes that were in the game at its start), the map as SVG and PNG."""
    picture = scene(game, after, events, f"Sopwith: {game}, after turn {before.turn}")
    published = published_report(game, before, after, events)
    notes = notation(events, before.turn)
    return Issued(
        before.turn,
        published,
        {
            p.name: player_result(game, before, after, events, p.name, published, notes)
            for p in before.planes
            if p.in_game
        },
        render_svg(picture),
        render_png(picture),
        events_json(events),
    )


def play(
    game: str,
    seed: int,
    before: GameState,
    orders: Mapping[str, Orders],
    clouds: Mapping[int, int | None] | None = None,
) -> Played:
    """Resolve the turn to play and write its reports (in memory)."""
    after, events = resolve_turn(before, orders, turn_rng(seed, before.turn), clouds)
    return Played(before, after, events, issue_turn(game, before, after, events))


def files_of(game: str, issued: Issued) -> dict[str, str | bytes]:
    """File name → contents of a turn's reports."""
    stem = f"{slug(game)}-turn-{issued.turn:02d}"
    out: dict[str, str | bytes] = {
        f"{stem}.txt": issued.report,
        f"{stem}.svg": issued.svg,
        f"{stem}.png": issued.png,
    }
    for player, text in issued.results.items():
        out[f"{stem}-{slug(player)}.txt"] = text
    return out


def write_files(folder: str | Path, files: Mapping[str, str | bytes]) -> list[Path]:
    """Write each file whole (through a temporary file) into ``folder``."""
    directory = Path(folder)
    if not directory.is_dir():
        raise DataError("--out", "folder", str(folder), "the folder does not exist")
    written = []
    for name, content in files.items():
        path = directory / name
        try:
            write_atomic(path, content, "--out")
        except DataError as exc:
            raise DataError(
                "--out",
                "file",
                str(path),
                f"{exc.allowed}; the game is stored: write the reports again with "
                "'dogfight sopwith report'",
            ) from None
        written.append(path)
    return written

"""Time the Games Master's week of Sopwith: a 20-plane turn from orders files to reports.

One sample reads and parses the twenty orders files, resolves the turn and writes every
report (the published one, each player's result, the map as SVG and PNG) into a
temporary folder: what ``dogfight sopwith orders`` and ``turn`` do, without the database.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from dogfight.sopwith.board import Board, random_clouds
from dogfight.sopwith.game import GameState, PlaneSetup, Status, new_game
from dogfight.sopwith.hexes import radius
from dogfight.sopwith.model import Line, Manoeuvre, MoveOrder, Orders
from dogfight.sopwith.orders import format_orders
from dogfight.sopwith.referee import files_of, play, read_orders, write_files
from dogfight.sopwith.rules import load_ruleset

MANOEUVRES = (
    Manoeuvre.AHEAD,
    Manoeuvre.LEFT_TURN,
    Manoeuvre.RIGHT_TURN,
    Manoeuvre.LEFT_SLIP,
    Manoeuvre.RIGHT_SLIP,
)
LINES = (Line.LEFT, Line.RIGHT, Line.AHEAD)


def melee(planes: int, rng: np.random.Generator) -> GameState:
    """A game in full swing: ``planes`` planes in flight over the middle of the board,
    facing every way, and four clouds."""
    rules = load_ruleset()
    board = Board(rules.board_side)
    state = new_game(
        rules,
        [PlaneSetup(f"pilot{i:02d}") for i in range(planes)],
        random_clouds(board, 4, rng),
    )
    middle = [h for h in board.hexes if radius(h) <= 6]
    spots = rng.choice(len(middle), size=planes, replace=False)
    flying = tuple(
        replace(
            p,
            status=Status.FLYING,
            hex=middle[int(spot)],
            facing=int(rng.integers(6)),
        )
        for p, spot in zip(state.planes, spots, strict=True)
    )
    return replace(state, planes=flying)


def random_orders(state: GameState, rng: np.random.Generator) -> list[Orders]:
    """Orders for every plane: random manoeuvres, three bursts spread at random."""
    out = []
    for p in state.planes:
        moves = []
        left = 3
        for _ in range(3):
            count = int(rng.integers(left + 1))
            left -= count
            fire = tuple(LINES[int(i)] for i in rng.integers(3, size=count))
            moves.append(MoveOrder(MANOEUVRES[int(rng.integers(len(MANOEUVRES)))], fire))
        out.append(Orders(p.name, state.turn, (moves[0], moves[1], moves[2])))
    return out


def turn_times(samples: int, planes: int = 20, seed: int = 0) -> list[float]:
    """CPU seconds of this process per sample (the machine is shared), after one
    warm-up run, which draws the board once."""
    rng = np.random.Generator(np.random.PCG64(seed))
    state = melee(planes, rng)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = []
        for orders in random_orders(state, rng):
            path = folder / f"{orders.player}.txt"
            path.write_text(format_orders(orders), encoding="utf-8")
            paths.append(str(path))
        out = folder / "reports"
        out.mkdir()
        for i in range(samples + 1):
            began = time.process_time()
            accepted = read_orders(state, paths)
            played = play("bench", seed, state, {o.player: o for o, _ in accepted})
            write_files(out, files_of("bench", played.issued))
            if i:
                times.append(time.process_time() - began)
    return times


def turn_20_planes_median_ms(quick: bool = False) -> float:
    """Median milliseconds of a 20-plane turn, orders files to reports."""
    return round(statistics.median(turn_times(5 if quick else 25)) * 1e3, 1)

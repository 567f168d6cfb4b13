"""Starting a Sopwith game: planes on the ground at their airfields, clouds placed (some
at random from the game's seed), 004's Ace list published on the start sheet, and the
game stored with its turn 0. Used by ``dogfight sopwith new`` and by a Sopwith
campaign's next game."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dogfight.sopwith.board import Board, Cloud, random_clouds
from dogfight.sopwith.game import GameState, PlaneSetup, new_game
from dogfight.sopwith.hexes import label
from dogfight.sopwith.referee import issue_start
from dogfight.sopwith.rules import Ruleset
from dogfight.sopwith.store import Issued, Store

Aces = list[tuple[str, int]]


def start_game(
    store: Store,
    game: str,
    rules: Ruleset,
    setups: Sequence[PlaneSetup],
    clouds: Sequence[Cloud],
    random_count: int,
    seed: int,
) -> tuple[GameState, Issued, Aces]:
    """Create and store ``game``; returns its state, its start sheet and the Ace list.
    Nothing is stored when a plane, an airfield or a cloud is refused."""
    careers = store.careers()
    placed = list(clouds)
    if random_count:
        extra = random_clouds(
            Board(rules.board_side),
            random_count,
            np.random.Generator(np.random.PCG64([seed, 0])),
        )
        placed.extend(Cloud(len(placed) + c.number, c.hexes) for c in extra)
    state = new_game(rules, setups, placed)
    # 004: "When an ace starts in a new game, the fact that he is an ace will be
    # published": every known player at or above the mark, this game's at their scores
    known = dict(careers) | {s.name.casefold(): (s.name, s.score) for s in setups}
    aces = sorted(
        (
            (name, points)
            for name, points in known.values()
            if points >= rules.ace_threshold and rules.ace_basis == "career"
        ),
        key=lambda a: (-a[1], a[0].casefold()),
    )
    issued = issue_start(game, state, aces)
    side = rules.board_side
    setup = {
        "ruleset": rules.model_dump(mode="json"),
        "planes": [
            {"name": s.name, "airfield": p.airfield, "pilot": s.pilot, "score": s.score}
            for s, p in zip(setups, state.planes, strict=True)
        ],
        "clouds": [[label(h, side) for h in c.hexes] for c in state.clouds],
        "seed": seed,
    }
    store.create(game, seed, setup, state, issued)
    return state, issued, aces

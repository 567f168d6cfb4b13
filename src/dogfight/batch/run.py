"""Whole games on a batch: tables that finish are harvested and refilled with new games
until the requested number is played, so the batch stays full.

Each side's airplanes are planned by a batch policy (``random`` or ``easy``); results
come back as :class:`dogfight.sim.run.GameResult`, like the referee's games. A run is
reproducible from its seed and batch size (one generator drives every table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from itertools import compress
from typing import Any

import numpy as np

from dogfight.batch import easy as _easy  # noqa: F401  (registers the easy bot)
from dogfight.batch.game import resolve_phase
from dogfight.batch.policies import POLICIES, Policy
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import REASONS, WEAPONS, BatchState, reset, take, tile
from dogfight.batch.tailing import bots_reorder
from dogfight.errors import DataError
from dogfight.sim.run import GameResult
from dogfight.sim.spec import RunSpec

Progress = Callable[[int], None]


def check_policies(bots: Mapping[str, str]) -> None:
    for side, name in bots.items():
        if name not in POLICIES:
            raise DataError(
                "--bots",
                side,
                name,
                "the batch engine plays the bots " + ", ".join(sorted(POLICIES)),
            )


def _results(
    state: BatchState, rows: Ints, index: Ints, seed: int, max_turns: int
) -> list[GameResult]:
    """The finished games on tables ``rows`` as :class:`GameResult` (damage by weapon
    and by illegal maneuvers, why each airplane left the game).

    The arrays are read out whole, their columns put in the order of the results' keys
    (damage sources, vehicle ids: sorted), so each game's dictionaries are made in one
    pass over its rows (``compress`` keeps the entries with a value)."""
    count = len(rows)
    # damage by (slot, weapon), then by illegal maneuvers
    dealt = np.concatenate(
        [state.dealt[rows].reshape(count, -1), state.illegal_points[rows, None]], axis=1
    )
    # why each airplane left, by name ("" for none: a row's names are their own filter)
    gone = _REASON_NAMES[np.where(state.present[rows], state.reason[rows], 0)]
    over = state.over[rows]
    winner = state.winner[rows]
    sides = np.array([*state.side_names, None], dtype=object)
    winners = sides[np.where(over & (winner >= 0), winner, len(state.side_names))].tolist()
    turns = np.minimum(state.turn[rows], max_turns).tolist()
    phases = state.phases_played[rows].tolist()
    indexes = index[rows].tolist()
    overs = over.tolist()
    names = [state.names[b] for b in rows.tolist()]
    groups: dict[tuple[str, ...], list[int]] = {}
    if names.count(names[0]) == count:
        groups[names[0]] = list(range(count))
    else:
        for k, layout in enumerate(names):
            groups.setdefault(layout, []).append(k)
    out: list[GameResult | None] = [None] * count
    for layout, mine in groups.items():
        sources, vehicles = _layout(layout)
        picked = np.array(mine, dtype=np.int64)
        d_keys = [key for key, _ in sources]
        d_rows = dealt[picked[:, None], [i for _, i in sources]].tolist()
        v_keys = [vid for vid, _ in vehicles]
        v_rows = gone[picked[:, None], [n for _, n in vehicles]].tolist()
        for k, d_row, v_row in zip(mine, d_rows, v_rows, strict=True):
            out[k] = GameResult(
                index=indexes[k],
                seed=seed,
                winner=winners[k],
                over=overs[k],
                turns=turns[k],
                phases=phases[k],
                damage=dict(compress(zip(d_keys, d_row, strict=True), d_row)),
                eliminated=dict(compress(zip(v_keys, v_row, strict=True), v_row)),
            )
    return [r for r in out if r is not None]


_REASON_NAMES = np.array(REASONS, dtype=object)


@lru_cache(maxsize=64)
def _layout(names: tuple[str, ...]) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The damage sources of a table layout (name, column of :func:`_results`'s damage
    rows: 2 slot + weapon, then the illegal maneuvers) and its vehicles (id, slot), each
    sorted by name (the order of the results' dictionaries)."""
    sources = sorted(
        [(f"{vid} {WEAPONS[w]}", 2 * n + w) for n, vid in enumerate(names) for w in (0, 1)]
        + [("illegal maneuver", 2 * len(names))]
    )
    vehicles = sorted((vid, n) for n, vid in enumerate(names))
    return sources, vehicles


def _by_policy(state: BatchState, bots: Mapping[str, str]) -> dict[str, Bools]:
    """The airplanes each policy plans (B, N), sides of one policy together (their
    plans are drawn independently, airplane by airplane)."""
    out: dict[str, Bools] = {}
    for i, name in enumerate(state.side_names):
        if name in bots:
            mine = state.side == i
            policy = bots[name]
            out[policy] = out[policy] | mine if policy in out else mine
    return out


def play(
    template: BatchState,
    bots: Mapping[str, str],
    games: int,
    seed: int = 0,
    max_turns: int = 30,
    tables: int = 4096,
    progress: Progress | None = None,
    policies: Mapping[str, Policy] = POLICIES,
) -> list[GameResult]:
    """Play ``games`` games from the template's first table (``side -> policy``)."""
    if policies is POLICIES:
        check_policies(bots)
    rng = np.random.default_rng(seed)
    size = max(1, min(tables, games))
    state = tile(template, size)
    rows = np.arange(size)
    reset(state, rows, template, rng)
    index = rows.copy()
    started = size
    results: list[GameResult] = []
    live = np.ones(size, dtype=np.bool_)
    sides = _by_policy(state, bots)
    while live.any():
        for name, mask in sides.items():
            policies[name](state, rng, mask & live[:, None])
        resolve_phase(state, rng, reorder=bots_reorder)
        capped = live & ~state.over & (state.turn > max_turns)
        done = np.flatnonzero(live & (state.over | capped))
        if len(done) == 0:
            continue
        results.extend(_results(state, done, index, seed, max_turns))
        if progress:
            progress(len(done))
        fresh = done[: max(0, games - started)]
        if len(fresh):
            reset(state, fresh, template, rng)
            index[fresh] = np.arange(started, started + len(fresh))
            started += len(fresh)
        stale = done[len(fresh) :]
        live[stale] = False
        state.over[stale] = True
        if started >= games and 2 * int(live.sum()) <= len(live):
            # no game left to start: play on with the tables still in play only
            keep = np.flatnonzero(live)
            state, index, live = take(state, keep), index[keep], live[keep]
            sides = {k: mask[keep] for k, mask in sides.items()}
    return sorted(results, key=lambda r: r.index)


CHUNK = 4096
"""Games per task when a run is split between processes or Ray workers: fixed, so the
results do not depend on the number of workers."""


def template_of(situation: dict[str, Any], data: str | None) -> BatchState:
    """The batch template of a situation (refusing what the batch does not play)."""
    from dogfight.batch.bridge import from_states
    from dogfight.catalog.loader import load_catalog
    from dogfight.situation import build, parse_situation

    catalog = load_catalog(data)
    return from_states([build(parse_situation(situation), catalog, 0)])


def play_chunk(
    spec: RunSpec, indices: list[int], progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Games ``indices`` (consecutive) of a run, played on one batch seeded by the run's
    seed and the first index; results as plain dicts."""
    template = template_of(spec.situation, spec.data)
    seed = int(np.random.SeedSequence([spec.seed, indices[0]]).generate_state(1)[0])
    games = play(template, spec.bots, len(indices), seed, spec.max_turns, progress=progress)
    out = []
    for index, game in zip(indices, games, strict=True):
        data = game.to_json()
        data["index"] = index
        out.append(data)
    return out

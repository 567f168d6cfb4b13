"""Whole games on a batch: tables that finish are harvested and refilled with new games
until the requested number is played, so the batch stays full.

Each side's airplanes are planned by a batch policy (``random``, ``easy``, ``learned``),
its tripods by ``random`` or ``martian`` (:data:`TRIPOD_PILOTS`); results
come back as :class:`dogfight.sim.run.GameResult`, like the referee's games. A run is
reproducible from its seed and batch size (one generator drives every table).
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from dogfight.batch import easy as _easy  # noqa: F401  (registers the easy bot)
from dogfight.batch import learned as _learned  # noqa: F401  (registers the learned bot)
from dogfight.batch import martian as _martian  # noqa: F401  (registers the martian bot)
from dogfight.batch.game import resolve_phase
from dogfight.batch.policies import POLICIES, Policy
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import REASONS, WEAPONS, BatchState, reset, take, tile
from dogfight.batch.tailing import bots_reorder
from dogfight.errors import DataError
from dogfight.sim.run import GameResult
from dogfight.sim.spec import RunSpec

Progress = Callable[[int], None]


TRIPOD_PILOTS = {"random": "random", "martian": "martian", "easy": "martian", "learned": "martian"}
"""The batch policy that flies the tripods of a side given to each policy: as in the
referee, where the planning bots (``easy``, ``hard``, ``learned``) plan a tripod as the
Martian bot does (``tripod_planner.plan_tripod``). The ``easy`` and ``learned`` policies
plan airplanes only (on a tripod table ``easy`` takes the enemy tripod as batch/foes.py
does, ``learned`` as the referee's bot)."""


def check_policies(bots: Mapping[str, str], tripod_sides: Collection[str] = ()) -> None:
    """Refuse a bot the batch does not have, or, for a side with a tripod
    (``tripod_sides``), one that does not fly tripods."""
    for side, name in bots.items():
        if name not in POLICIES:
            raise DataError(
                "--bots",
                side,
                name,
                "the batch engine plays the bots " + ", ".join(sorted(POLICIES)),
            )
        if side in tripod_sides and name not in TRIPOD_PILOTS:
            raise DataError(
                "--bots",
                side,
                name,
                f"the side {side} has a tripod: the batch engine flies it with the bots "
                + ", ".join(sorted(TRIPOD_PILOTS))
                + f" ({name} plans airplanes only)",
            )


def tripod_sides(state: BatchState) -> set[str]:
    """The sides with a tripod on any table of ``state``."""
    return {state.side_names[int(s)] for s in np.unique(state.side[state.tripod]).tolist()}


def _results(
    state: BatchState, rows: Ints, index: Ints, seed: int, max_turns: int
) -> list[GameResult]:
    """The finished games on tables ``rows`` as :class:`GameResult` (damage by weapon
    and by illegal maneuvers, why each airplane left the game).

    The arrays are read out whole, their columns put in the order of the results' keys
    (damage sources, vehicle ids: sorted); games whose dictionaries have the same keys
    are made together (:func:`_dicts`)."""
    count = len(rows)
    # damage by (slot, weapon), then by illegal maneuvers
    dealt = np.concatenate(
        [state.dealt[rows].reshape(count, -1), state.illegal_points[rows, None]], axis=1
    )
    gone = np.where(state.present[rows], state.reason[rows], 0)
    over = state.over[rows]
    winner = state.winner[rows]
    sides = np.array([*state.side_names, None], dtype=object)
    winners = sides[np.where(over & (winner >= 0), winner, len(state.side_names))].tolist()
    turns = np.minimum(state.turn[rows], max_turns).tolist()
    phases = state.phases_played[rows].tolist()
    indexes = index[rows].tolist()
    overs = over.tolist()
    # a tripod's heat-ray damage is kept in its first weapon's column
    rayed = state.tripod[rows]
    marks: list[tuple[bool, ...]] = (
        [tuple(row) for row in rayed.tolist()] if rayed.any() else [()] * count
    )
    names = [(state.names[b], marks[k]) for k, b in enumerate(rows.tolist())]
    groups: dict[tuple[tuple[str, ...], tuple[bool, ...]], list[int]] = {}
    if names.count(names[0]) == count:
        groups[names[0]] = list(range(count))
    else:
        for k, key in enumerate(names):
            groups.setdefault(key, []).append(k)
    damages: list[dict[str, int]] = [{}] * count
    eliminated: list[dict[str, str]] = [{}] * count
    for (layout, tripods), mine in groups.items():
        sources, vehicles = _layout(layout, tripods)
        picked = np.array(mine, dtype=np.int64)[:, None]
        values = dealt[picked, [i for _, i in sources]]
        reasons = gone[picked, [n for _, n in vehicles]]
        keys = [key for key, _ in sources]
        for members, used in _patterns(values != 0):
            chosen = [keys[c] for c in used.tolist()]
            rows_of = values[members[:, None], used].tolist()
            for m, row in zip(members.tolist(), rows_of, strict=True):
                damages[mine[m]] = dict(zip(chosen, row, strict=True))
        vids = [vid for vid, _ in vehicles]
        for members, used in _patterns(reasons):
            why = {
                vids[c]: REASONS[r]
                for c, r in zip(used.tolist(), reasons[members[0], used].tolist(), strict=True)
            }
            for m in members.tolist():
                eliminated[mine[m]] = why.copy()
    return [
        _result(
            indexes[k], seed, winners[k], overs[k], turns[k], phases[k], damages[k], eliminated[k]
        )
        for k in range(count)
    ]


_FIELDS = [(f.name, f.default, f.default_factory) for f in dataclasses.fields(GameResult)]
_PLAIN = (
    [f[0] for f in _FIELDS[:8]]
    == ["index", "seed", "winner", "over", "turns", "phases", "damage", "eliminated"]
    and _FIELDS[8:]
    == [
        ("refused", 0, dataclasses.MISSING),
        ("stopped", None, dataclasses.MISSING),
        ("points", dataclasses.MISSING, dict),
        ("missions", dataclasses.MISSING, dict),
    ]
    and not hasattr(GameResult, "__post_init__")
    and not hasattr(GameResult, "__slots__")
)
"""Whether :class:`GameResult` only stores its fields (then :func:`_result` fills its
``__dict__`` at once, as unpickling does; else it calls the constructor)."""


def _result(
    index: int,
    seed: int,
    winner: str | None,
    over: bool,
    turns: int,
    phases: int,
    damage: dict[str, int],
    eliminated: dict[str, str],
) -> GameResult:
    """A :class:`GameResult` with its other fields at their defaults. The frozen
    dataclass's constructor sets the fields one ``object.__setattr__`` at a time, which
    costs as much as the rest of a game's summary; its ``__dict__`` is filled at once
    here instead, as unpickling fills it."""
    given: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "winner": winner,
        "over": over,
        "turns": turns,
        "phases": phases,
        "damage": damage,
        "eliminated": eliminated,
    }
    if not _PLAIN:
        return GameResult(**given)
    out = _new(GameResult)
    out.__dict__.update(given, refused=0, stopped=None, points={}, missions={})
    return out


_new = object.__new__


def _patterns(codes: npt.NDArray[Any]) -> list[tuple[Ints, Ints]]:
    """The rows of ``codes`` (G, C) grouped by their values: per group, its rows and
    the columns where they are not 0."""
    rows, columns = codes.shape
    if rows == 0:
        return []
    if columns <= 20 and codes.max(initial=0) < 8 and codes.min(initial=0) >= 0:
        # each row's codes as one number
        key = codes.astype(np.int64) @ (8 ** np.arange(columns, dtype=np.int64))
    else:
        key = np.unique(codes, axis=0, return_inverse=True)[1].reshape(-1)
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    starts = np.flatnonzero(np.concatenate([[True], ordered[1:] != ordered[:-1]]))
    return [(members, np.flatnonzero(codes[members[0]])) for members in np.split(order, starts[1:])]


@lru_cache(maxsize=64)
def _layout(
    names: tuple[str, ...], tripods: tuple[bool, ...] = ()
) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """The damage sources of a table layout (name, column of :func:`_results`'s damage
    rows: 2 slot + weapon, then the illegal maneuvers; a tripod's heat-ray in its first
    weapon's column, ``tripods`` saying which slots hold one) and its vehicles (id, slot),
    each sorted by name (the order of the results' dictionaries)."""
    weapons = [("heat-ray", "") if tripods and tripods[n] else WEAPONS for n in range(len(names))]
    sources = sorted(
        [
            (f"{vid} {weapons[n][w]}", 2 * n + w)
            for n, vid in enumerate(names)
            for w in (0, 1)
            if weapons[n][w]
        ]
        + [("illegal maneuver", 2 * len(names))]
    )
    vehicles = sorted((vid, n) for n, vid in enumerate(names))
    return sources, vehicles


def _by_policy(state: BatchState, bots: Mapping[str, str]) -> dict[str, Bools]:
    """The vehicles each policy plans (B, N), sides of one policy together (their
    plans are drawn independently, vehicle by vehicle); a side's tripods go to the
    policy that flies them for its bot (:data:`TRIPOD_PILOTS`)."""
    out: dict[str, Bools] = {}
    for i, name in enumerate(state.side_names):
        if name in bots:
            mine = state.side == i
            policy = bots[name]
            pilot = TRIPOD_PILOTS.get(policy, policy)
            for who, mask in ((policy, mine & ~state.tripod), (pilot, mine & state.tripod)):
                if mask.any():
                    out[who] = out[who] | mask if who in out else mask
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
    """Play ``games`` games from the template's first table (``side -> policy``).

    The garbage collector waits while they are played: the results are many small
    objects with no cycles among them, and every full collection their number sets off
    walks the whole heap again (an eighth of a duel run's time)."""
    if policies is POLICIES:
        check_policies(bots, tripod_sides(template))
    with _collector_paused():
        return _play(template, bots, games, seed, max_turns, tables, progress, policies)


@contextmanager
def _collector_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _play(
    template: BatchState,
    bots: Mapping[str, str],
    games: int,
    seed: int,
    max_turns: int,
    tables: int,
    progress: Progress | None,
    policies: Mapping[str, Policy],
) -> list[GameResult]:
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


SETUPS = 256
"""Setups of a scenario drawn for a batch run with ``vary`` (a scenario named without a
situation file): each new game starts from one of them at random."""


def template_of(
    situation: dict[str, Any], data: str | None, vary: bool = False, seed: int = 0
) -> BatchState:
    """The batch template of a situation (refusing what the batch does not play). With
    ``vary`` and a scenario: :data:`SETUPS` of its setups, drawn from ``seed`` by the
    referee's own ``scenario_situation`` (as ``simulate`` redraws each game's)."""
    from dogfight.batch.bridge import from_states
    from dogfight.catalog.loader import load_catalog
    from dogfight.situation.format import build, parse_situation
    from dogfight.situation.scenarios import scenario_situation

    catalog = load_catalog(data)
    parsed = parse_situation(situation)
    if vary and parsed.scenario is not None:
        rng = np.random.default_rng([seed, 99])
        return from_states(
            [
                build(scenario_situation(catalog, parsed.scenario, rng), catalog, 0)
                for _ in range(SETUPS)
            ]
        )
    return from_states([build(parsed, catalog, 0)])


def play_chunk(
    spec: RunSpec, indices: list[int], progress: Progress | None = None
) -> list[dict[str, Any]]:
    """Games ``indices`` (consecutive) of a run, played on one batch seeded by the run's
    seed and the first index; results as plain dicts."""
    seed = int(np.random.SeedSequence([spec.seed, indices[0]]).generate_state(1)[0])
    template = template_of(spec.situation, spec.data, spec.vary, seed)
    games = play(template, spec.bots, len(indices), seed, spec.max_turns, progress=progress)
    out = []
    for index, game in zip(indices, games, strict=True):
        data = game.to_json()
        data["index"] = index
        out.append(data)
    return out

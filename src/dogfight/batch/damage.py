"""Damage piles as per-table index arrays: drawing, running out, shuffling cards back,
and what the drawn cards do (as :mod:`dogfight.rules.decks` and the referee's
``_apply_cards``).

Each damage deck's physical cards are slots 0..size-1 (composition order). A table's
pile is an order of slots with the next card at ``top - 1``; ``holder`` says which
airplane holds each drawn card. 000: "If a deck of damage cards is exhausted ... all the
damage cards are shuffled back into their deck" (vehicles keep their totals); an
eliminated airplane's cards are shuffled back into their piles.
"""

from __future__ import annotations

import numpy as np

from dogfight.batch.arrays import any_slot
from dogfight.batch.spec import Bools, Ints
from dogfight.batch.state import BatchState
from dogfight.rules.chance import step_rng


class Dice:
    """Where the shuffles' randomness comes from.

    By default one generator shuffles every table at once (random keys, argsort). With
    ``seeds`` each table shuffles as the referee would with
    :func:`dogfight.rules.chance.step_rng` of its seed, turn and phase: the same
    permutations of the same card lists in the same order, so the batch and the referee
    draw the same cards after a reshuffle (the differential test's stacked decks).
    """

    def __init__(self, rng: np.random.Generator, seeds: Ints | None = None) -> None:
        self.rng = rng
        self.seeds = seeds
        self._steps: dict[int, np.random.Generator] = {}

    @property
    def exact(self) -> bool:
        return self.seeds is not None

    def step(self, state: BatchState, table: int) -> np.random.Generator:
        """Table ``table``'s generator for the phase being resolved."""
        gen = self._steps.get(table)
        if gen is None:
            assert self.seeds is not None
            gen = step_rng(
                int(self.seeds[table]), int(state.turn[table]), int(state.phase[table]) + 1
            )
            self._steps[table] = gen
        return gen


def _reshuffle(
    state: BatchState, tables: Ints, decks: Ints, keep: Bools, rng: np.random.Generator
) -> None:
    """New piles for (table, deck) rows: the slots marked ``keep`` (rows, S) in a random
    order; the other slots stay out."""
    keys = rng.random(keep.shape)
    keys[~keep] = np.inf
    state.order[tables, decks] = np.argsort(keys, axis=1)
    state.top[tables, decks] = keep.sum(axis=1)


def _lay(
    state: BatchState, table: int, deck: int, cards: list[int], gen: np.random.Generator
) -> None:
    """The referee's ``shuffled(cards, rng)`` for one pile: slots in ``cards`` order."""
    perm = gen.permutation(len(cards))
    pile = [cards[int(i)] for i in perm]
    rest = sorted(set(range(state.spec.slots)) - set(pile))
    state.order[table, deck] = pile + rest
    state.top[table, deck] = len(pile)


def draw(state: BatchState, tables: Ints, decks: Ints, holders: Ints, dice: Dice) -> Ints:
    """Draw the next card of ``decks[i]`` on ``tables[i]`` for airplane ``holders[i]`` (each
    table at most once per call); an empty pile first gets the whole deck back, shuffled.
    Returns the slots drawn."""
    spec = state.spec
    empty = state.top[tables, decks] == 0
    if empty.any():
        t, d = tables[empty], decks[empty]
        state.holder[t, d] = -1
        if dice.exact:
            for tt, dd in zip(t.tolist(), d.tolist(), strict=True):
                _lay(state, tt, dd, list(range(int(spec.damage_size[dd]))), dice.step(state, tt))
        else:
            keep = np.arange(spec.slots)[None, :] < spec.damage_size[d][:, None]
            _reshuffle(state, t, d, keep, dice.rng)
    # flat indexes into the (B, D) and (B, D, S) arrays (one gather or scatter each)
    pile = tables * state.top.shape[1] + decks
    top = _flat(state.top)[pile] - 1
    slots = _flat(state.order).take(pile * spec.slots + top)
    _flat(state.top)[pile] = top
    card = pile * spec.slots + slots
    _flat(state.holder)[card] = holders
    _flat(state.drawn_at)[card] = state.clock[tables]
    state.clock[tables] += 1
    out: Ints = slots
    return out


def _flat(a: Ints) -> Ints:
    """A state array as a flat view (the state's arrays are C-contiguous: they are made
    whole and changed in place)."""
    if not a.flags.c_contiguous:
        raise ValueError("a batch state array is not contiguous")
    out: Ints = a.reshape(-1)
    return out


def return_cards(state: BatchState, gone: Bools, dice: Dice) -> None:
    """Shuffle the cards held by the airplanes ``gone`` (B, N) back into their piles."""
    if dice.exact:
        _return_exact(state, gone, dice)
        return
    tables = np.flatnonzero(any_slot(gone))
    if len(tables) == 0:
        return
    holder = state.holder[tables]  # (t, D, S)
    # whether each card's holder is gone
    returning = gone.reshape(-1).take(
        (tables * gone.shape[1])[:, None, None] + np.maximum(holder, 0)
    ) & (holder >= 0)
    d_count, s_count = holder.shape[1], holder.shape[2]
    t_rows = np.repeat(tables, d_count)
    d_rows = np.tile(np.arange(d_count), len(tables))
    ret = returning.reshape(-1, s_count)
    rows = ret.any(axis=1)
    if not rows.any():
        return
    t_rows, d_rows, ret = t_rows[rows], d_rows[rows], ret[rows]
    in_pile = np.zeros_like(ret)
    order, top = state.order[t_rows, d_rows], state.top[t_rows, d_rows]
    placed = np.arange(s_count)[None, :] < top[:, None]
    np.put_along_axis(in_pile, order, placed, axis=1)
    state.holder[t_rows, d_rows] = np.where(ret, -1, state.holder[t_rows, d_rows])
    _reshuffle(state, t_rows, d_rows, in_pile | ret, dice.rng)


def _return_exact(state: BatchState, gone: Bools, dice: Dice) -> None:
    """The referee's order: airplane by airplane (by id), deck by deck (by letter), the
    pile with the airplane's cards added in the order it drew them, shuffled."""
    for b, n in zip(*np.nonzero(gone), strict=True):
        for d in range(len(state.spec.damage_ids)):
            held = np.flatnonzero(state.holder[b, d] == n)
            if len(held) == 0:
                continue
            held = held[np.argsort(state.drawn_at[b, d, held], kind="stable")]
            pile = state.order[b, d, : state.top[b, d]].tolist()
            state.holder[b, d, held] = -1
            _lay(state, int(b), d, pile + held.tolist(), dice.step(state, int(b)))


def points(
    state: BatchState,
    tables: Ints,
    target: Ints,
    decks: Ints,
    slots: Ints,
    aimed: Bools,
) -> tuple[Ints, Bools]:
    """What drawn cards do to their targets: damage points (the aim bonus adds 1 to each
    card with a value; under ``half_resistance`` an explosion is half the target's
    resistance, rounded up) and whether an explosion eliminates it."""
    spec = state.spec
    card = decks * spec.slots + slots
    value = spec.slot_value.reshape(-1).take(card)
    boom = spec.slot_explosion.reshape(-1).take(card)
    resistance = state.resistance.reshape(-1).take(tables * state.slots + target)
    if spec.explosion_eliminates:
        pts = np.where(boom, 0, value + ((value > 0) & aimed))
        return pts, boom
    pts = np.where(boom, (resistance + 1) // 2, value + ((value > 0) & aimed))
    return pts, np.zeros_like(boom)


def put_back(state: BatchState, tables: Ints, decks: Ints, cards: Ints, dice: Dice) -> None:
    """``decks.shuffle_back``: the drawn ``cards`` (R, K; -1 for none) of each table
    (one row per table) go under its pile of ``decks``, which is shuffled (000: a
    protected tripod's revealed cards "are shuffled back into their deck after all their
    effects have been applied")."""
    drawn = cards >= 0
    rows, which = np.nonzero(drawn)
    state.holder[tables[rows], decks[rows], cards[rows, which]] = -1
    if dice.exact:
        for r, (table, deck) in enumerate(zip(tables.tolist(), decks.tolist(), strict=True)):
            pile = state.order[table, deck, : state.top[table, deck]].tolist()
            back = cards[r][drawn[r]].tolist()
            _lay(state, table, deck, pile + back, dice.step(state, table))
        return
    order, top = state.order[tables, decks], state.top[tables, decks]
    keep = np.zeros(order.shape, dtype=np.bool_)
    np.put_along_axis(keep, order, np.arange(order.shape[1])[None, :] < top[:, None], axis=1)
    keep[rows, cards[rows, which]] = True
    _reshuffle(state, tables, decks, keep, dice.rng)

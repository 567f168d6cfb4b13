"""Enemy tripods as the batched airplane bot (``easy``) sees them.

The bots were made for airplanes against airplanes. On a table with a tripod they take
each enemy tripod as an enemy that stands where it is for the whole turn (its walks are
short beside a flight), measured at its centre as an airplane's base, with one weapon
that fires all round: its heat-ray, reaching the ray ruler's length from the hexagon's
edge, with the heat-ray's damage deck. An approximation, not the rules: the projectors'
sides, the facing, the Energy, the armour and the tripod's own moves are not looked at
(docs/batch.md "Policies"). The tripods' own plans are the ``random`` policy's
(:mod:`dogfight.batch.tripod_plans`) or the ``martian`` policy's
(:mod:`dogfight.batch.martian`).
"""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import Floats, Ints
from dogfight.batch.state import BatchState


def stand_still(state: BatchState, b: Ints, x: Floats, y: Floats, h: Floats) -> None:
    """Put every tripod of tables ``b`` (V,) at its pose now in the enemy poses ``x``,
    ``y``, ``h`` (V, N, M, 3), in place: it is expected to stand for the turn."""
    vb, vn = np.nonzero(state.tripod[b])
    if len(vb) == 0:
        return
    tb = b[vb]
    x[vb, vn] = state.x[tb, vn][:, None, None]
    y[vb, vn] = state.y[tb, vn][:, None, None]
    h[vb, vn] = state.heading[tb, vn][:, None, None]


def weapon_decks(state: BatchState, b: Ints, decks: Ints) -> Ints:
    """The weapons' damage decks (V, N, 2) of every slot of tables ``b`` with a tripod's
    heat-ray as its first weapon and no second one (``decks``: the airplanes' decks of
    those slots, :meth:`BatchState.weapon_deck`)."""
    tripod = state.tripod[b]
    if not tripod.any():
        return decks
    ray = state.spec.tripods.type_ray_deck[state.ttype[b]]
    out: Ints = np.where(tripod[..., None], np.stack([ray, np.full_like(ray, -1)], axis=-1), decks)
    return out


def unjammed(state: BatchState, b: Ints, jams: Ints) -> Ints:
    """``jams`` (V, N, 2) with none for the tripods (a heat-ray never jams)."""
    out: Ints = np.where(state.tripod[b][..., None], 0, jams)
    return out


def ray_reach(state: BatchState, b: Ints) -> Floats:
    """(V, N) how far each tripod's heat-ray reaches from its centre (the hexagon's
    apothem and the ray ruler), 0 for the airplanes."""
    spec = state.spec
    apothem = spec.rules.hex_side * np.sqrt(3.0) / 2.0
    length = spec.tripods.type_ray_length[state.ttype[b]]
    out: Floats = np.where(state.tripod[b], apothem + length, 0.0)
    return out

"""How the batch's bots reckon a shot: the expected points of a damage card against a
target, the sample points of a base (its centre and corners), and the nearest of them
inside a firing arc. The bots' approximations (the rules are the engines'), shared by the
``easy`` policy and the WW2 planners."""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import Floats, Ints, Spec


def odds(spec: Spec, decks: Ints, resistance: Ints) -> tuple[Floats, Floats]:
    """Expected points of one card of ``decks`` against targets of ``resistance``, and
    the chance it has a value (the aim bonus adds 1 to those)."""
    size = spec.damage_size[decks].astype(np.float64)
    value = spec.slot_value[decks].sum(axis=-1) / size
    booms = spec.slot_explosion[decks].sum(axis=-1) / size
    nonzero = ((spec.slot_value[decks] > 0) & ~spec.slot_explosion[decks]).sum(axis=-1) / size
    hit = resistance if spec.explosion_eliminates else (resistance + 1) // 2
    points: Floats = value + booms * hit
    return points, nonzero


POINTS = np.array([(0.0, 0.0), (1, 1), (1, -1), (-1, 1), (-1, -1)])


def sample_points(spec: Spec, x: Floats, y: Floats, h: Floats) -> tuple[Floats, Floats]:
    """The centre and corners of bases at poses (...): arrays (..., 5)."""
    rad = np.radians(h)[..., None]
    c, s = np.cos(rad), np.sin(rad)
    f = POINTS[:, 0] * spec.base_length / 2.0
    lft = POINTS[:, 1] * spec.base_width / 2.0
    return x[..., None] + f * c - lft * s, y[..., None] + f * s + lft * c


def nearest_in_arc(
    spec: Spec, ox: Floats, oy: Floats, axis: Floats, half: float, px: Floats, py: Floats
) -> Floats:
    """Squared distance from dots (...) to the nearest sample point (..., 5) in the arc
    (inf when none is)."""
    rad = np.radians(axis)[..., None]
    c, s = np.cos(rad), np.sin(rad)
    dx, dy = px - ox[..., None], py - oy[..., None]
    along = dx * c + dy * s
    across = np.abs(dy * c - dx * s)
    d2 = np.where(across <= along * np.tan(np.radians(half)), dx * dx + dy * dy, np.inf)
    out: Floats = d2.min(axis=-1)
    return out

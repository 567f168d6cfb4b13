"""The ``easy`` bot's shots between two airplane bases, looked up by their relative pose.

How many cards a weapon would fire at a base, as the easy bot reckons it (the nearest of
the base's sample points — centre and corners — inside the arc, within the ruler, two
cards within the half mark, the bases apart: :mod:`dogfight.batch.aim`), depends only on
where the target stands in the firer's frame: (dx, dy) and the difference of their
headings. So does the reverse shot. One table over a grid of relative poses holds both,
for the front and rear arcs: a byte per cell, two bits per shot. The bot looks its shots
up instead of measuring them pair by pair (:mod:`dogfight.batch.easy`).

This is an approximation of the bot's own approximation: each cell holds the shots
measured at its centre, so a pose within half a cell (:data:`STEP` / 2 cm along each
axis, half of :data:`HEADING_STEP` degrees) of a range or arc boundary may be counted on
the other side of it. The rules themselves are the engine's, measured exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dogfight.batch.aim import nearest_in_arc, sample_points
from dogfight.batch.spec import Floats, Spec

STEP = 0.5
"""cm between two cells' centres along x and y."""
HEADINGS = 64
"""Cells along the difference of headings (a power of two: the index wraps with ``&``)."""
HEADING_STEP = 360.0 / HEADINGS
WRAP = float(HEADINGS * 64)
"""Added to heading indexes before truncating them, so that truncating floors: any
difference of headings above -23,040 degrees (the batch's headings are in [0, 360),
a plan turns at most a few hundred degrees); small enough for float32 to keep a
hundredth of a cell."""

Codes = npt.NDArray[np.uint8]
Floats32 = npt.NDArray[np.float32]

# the four shots of a cell: (whose weapon, which weapon) -> its two bits
MINE_FRONT, MINE_REAR, THEIRS_FRONT, THEIRS_REAR = 0, 1, 2, 3


@dataclass(frozen=True)
class ShotTable:
    """Cards fired by each of the four shots between a firer F and a target T, by T's
    pose in F's frame: ``codes[(ix * size + iy) * HEADINGS + ih]``, two bits per shot
    (:data:`MINE_FRONT` is F's front weapon at T, :data:`THEIRS_FRONT` T's at F...)."""

    codes: Codes
    size: int
    """Cells along x and along y (the border cells hold no shot: poses further out are
    clipped into them)."""
    cards: tuple[Floats32, Floats32, Floats32, Floats32]
    """Per shot, the cards (0, 1 or 2) of each of the 256 codes."""

    @property
    def centre(self) -> float:
        """The x (and y) index, as a float, of dx = 0."""
        return self.size / 2.0


def _geometry(spec: Spec) -> tuple[float, ...]:
    return (
        float(spec.ruler),
        float(spec.half),
        float(spec.base_length),
        float(spec.base_width),
        *(float(a) for a in spec.arc_centre),
        *(float(a) for a in spec.arc_half),
    )


_BUILT: dict[tuple[tuple[float, ...], bool], ShotTable] = {}


def shot_table(spec: Spec, rear: bool) -> ShotTable:
    """The table of ``spec``'s bases, arcs and ruler (built once per geometry); with
    ``rear``, the rear arc's shots too (else they may be counted as none: a table
    without them is quicker to build)."""
    key = _geometry(spec)
    table = _BUILT.get((key, True)) or (None if rear else _BUILT.get((key, False)))
    if table is None:
        table = _BUILT[key, rear] = _build(spec, rear)
    return table


def _build(spec: Spec, rear: bool) -> ShotTable:
    reach = spec.ruler + spec.base_radius
    size = 2 * (math.ceil(reach / STEP) + 2)
    along = (np.arange(size) - size / 2.0 + 0.5) * STEP
    turn = np.arange(HEADINGS, dtype=np.float64) * HEADING_STEP
    codes = np.zeros((size, size, HEADINGS), dtype=np.uint8)
    # the cells of dy > 0 only: the bases, the arcs and the ruler are symmetric about the
    # firer's axis, so (dx, -dy, -dh) holds the shots of (dx, dy, dh)
    top = size // 2
    gx, gy = np.meshgrid(along, along[top:], indexing="ij")
    inner = np.ones(gx.shape, dtype=np.bool_)
    inner[[0, -1], :] = False  # the border cells hold no shot
    inner[:, -1] = False
    inner &= gx * gx + gy * gy > (spec.base_length * 0.9) ** 2  # the bases apart
    rad = np.radians(turn)
    c, s = np.cos(rad)[None, None, :], np.sin(rad)[None, None, :]
    # F's pose in T's frame, for T's shots at F
    bx = -(gx[..., None] * c + gy[..., None] * s)
    by = gx[..., None] * s - gy[..., None] * c
    half = codes[:, top:]
    for weapon in (0, 1) if rear else (0,):
        mine, theirs = (MINE_FRONT, THEIRS_FRONT) if weapon == 0 else (MINE_REAR, THEIRS_REAR)
        # F's shots: only at centres within reach of the arc's wedge (any heading)
        ix, iy = np.nonzero(inner & _wedge(spec, gx, gy, weapon, reach))
        px, py = sample_points(spec, gx[ix, iy][:, None], gy[ix, iy][:, None], turn[None, :])
        cards = _cards(spec, px, py, weapon)  # (cells, headings)
        half[ix, iy] |= (cards << (2 * mine)).astype(np.uint8)
        # T's shots at F: where F's centre is within reach of T's wedge
        ix, iy, ih = np.nonzero(inner[..., None] & _wedge(spec, bx, by, weapon, reach))
        px, py = sample_points(spec, bx[ix, iy, ih], by[ix, iy, ih], -turn[ih])
        cards = _cards(spec, px, py, weapon)
        half[ix, iy, ih] |= (cards << (2 * theirs)).astype(np.uint8)
    codes[:, :top] = half[:, ::-1][:, :, (-np.arange(HEADINGS)) % HEADINGS]
    every = np.arange(256)
    decoded = tuple(((every >> (2 * k)) & 3).astype(np.float32) for k in range(4))
    return ShotTable(codes.reshape(-1), size, (decoded[0], decoded[1], decoded[2], decoded[3]))


def _wedge(spec: Spec, x: Floats, y: Floats, weapon: int, reach: float) -> npt.NDArray[np.bool_]:
    """Centres (x, y) of bases, in the frame of a firer at the origin facing 0 degrees,
    that may have a sample point in the weapon's arc within the ruler: within ``reach``
    of the firer and within a base's radius of the arc."""
    axis = math.radians(float(spec.arc_centre[weapon]))
    half = math.radians(float(spec.arc_half[weapon]))
    along = x * math.cos(axis) + y * math.sin(axis)
    across = np.abs(y * math.cos(axis) - x * math.sin(axis))
    # distance to the arc's edge ray (or the apex) beyond it
    edge = np.where(
        along * math.cos(half) + across * math.sin(half) >= 0.0,
        np.abs(across * math.cos(half) - along * math.sin(half)),
        np.hypot(along, across),
    )
    inside = across <= along * math.tan(half)
    out: npt.NDArray[np.bool_] = (x * x + y * y <= reach**2) & (
        inside | (edge <= spec.base_radius + STEP)
    )
    return out


def _cards(spec: Spec, px: Floats, py: Floats, weapon: int) -> npt.NDArray[np.uint8]:
    """Cards a weapon at the origin facing 0 degrees fires at bases of sample points
    (px, py) (..., 5), by the bot's measure (the bases apart is the caller's)."""
    zero = np.zeros(())
    axis = np.array(float(spec.arc_centre[weapon]))
    d2 = nearest_in_arc(spec, zero, zero, axis, float(spec.arc_half[weapon]), px, py)
    out: npt.NDArray[np.uint8] = (d2 <= spec.half**2).astype(np.uint8) + (d2 <= spec.ruler**2)
    return out

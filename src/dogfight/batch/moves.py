"""Maneuver cards on arrays: the rigid move of each card (as
:func:`dogfight.geometry.maneuver.apply_card`), the flight restrictions (as
:func:`dogfight.rules.plans.card_problem`) and leaving the table."""

from __future__ import annotations

import numpy as np

from dogfight.batch.spec import IMMELMANN, LEFT, RIGHT, STRAIGHT, Bools, Floats, Ints, Spec


def normalize(degrees: Floats) -> Floats:
    """Headings into [0, 360), as :func:`dogfight.geometry.pose.normalize_heading`."""
    value = np.fmod(degrees, 360.0)
    value = np.where(value < 0, value + 360.0, value)
    out: Floats = np.where(value >= 360.0, 0.0, value)
    return out


def fly(
    spec: Spec,
    x: Floats,
    y: Floats,
    h: Floats,
    card: Ints,
    cos_sin: tuple[Floats, Floats] | None = None,
) -> tuple[Floats, Floats, Floats]:
    """Poses after flying ``card`` (global card indexes, broadcast with the poses): the
    card laid on the nose, the base's rear edge put on the arrowhead — one rigid move
    per card (``Spec.card_dx``, ``card_dy``), as
    :func:`dogfight.geometry.maneuver.apply_card` composes it (``cos_sin``: of the
    headings, when known)."""
    if cos_sin is None:
        rad = np.radians(h)
        cos_sin = np.cos(rad), np.sin(rad)
    nx, ny = dots(spec, x, y, card, cos_sin)
    return nx, ny, turned(h, spec.card_turn[card])


def dots(
    spec: Spec, x: Floats, y: Floats, card: Ints, cos_sin: tuple[Floats, Floats]
) -> tuple[Floats, Floats]:
    """Where ``card`` puts the centre dots (:func:`fly` without the new headings), from
    dots whose headings have these cosines and sines."""
    c, s = cos_sin
    dx, dy = spec.card_dx[card], spec.card_dy[card]
    out: tuple[Floats, Floats] = (x + dx * c - dy * s, y + dx * s + dy * c)
    return out


def turned(h: Floats, turn: Floats) -> Floats:
    """``normalize(normalize(h) + turn)``, without the first when every heading is
    already in [0, 360) (it would change none)."""
    if not ((h >= 0.0) & (h < 360.0)).all():
        h = normalize(h)
    return normalize(h + turn)


def problem(
    spec: Spec, prev_symbol: Ints, prev_steep: Bools, card: Ints, opening: Bools | bool = False
) -> Bools:
    """Whether ``card`` breaks a flight restriction right after the previous maneuver
    (``prev_symbol`` -1: none), as :func:`dogfight.rules.plans.card_problem`: two steep
    cards in a row, an Immelmann not after a straight, anything but a straight after an
    Immelmann (002's Immelmann counter lets a turn ``opening`` with an Immelmann follow
    one), and under 003 a steep card not after a left turn, a right turn or a straight."""
    symbol = spec.card_symbol[card]
    steep = spec.card_steep[card]
    has_prev = prev_symbol >= 0
    steep_twice = steep & has_prev & prev_steep
    after_immelmann = (prev_symbol == IMMELMANN) & (symbol != STRAIGHT)
    no_straight_before = (symbol == IMMELMANN) & (prev_symbol != STRAIGHT)
    if spec.immelmann_counter:
        counter = opening & (prev_symbol == IMMELMANN) & (symbol == IMMELMANN)
        after_immelmann = after_immelmann & ~counter
        no_straight_before = no_straight_before & ~counter
    out: Bools = steep_twice | after_immelmann | no_straight_before
    if spec.steep_after_turn_or_straight:
        turn_or_straight = np.isin(prev_symbol, (LEFT, RIGHT, STRAIGHT))
        out = out | (steep & (~has_prev | prev_steep | ~turn_or_straight))
    return out


def outside(spec: Spec, x: Floats, y: Floats) -> Bools:
    """The centre dot strictly outside the table (on the edge is still on it)."""
    out: Bools = (x < 0) | (y < 0) | (x > spec.width) | (y > spec.height)
    return out


def inside(spec: Spec, x: Floats, y: Floats, margin: float) -> Bools:
    """The centre dot at least ``margin`` cm inside every edge."""
    out: Bools = (
        (x >= margin) & (x <= spec.width - margin) & (y >= margin) & (y <= spec.height - margin)
    )
    return out

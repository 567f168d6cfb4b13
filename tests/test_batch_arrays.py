"""The batch's fast array helpers give numpy's own answers (they only change how numpy
loops), and the pieces of the engine written with them agree with the referee's
geometry and with the plain numpy they replaced."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dogfight.batch import arrays, sight
from dogfight.batch.game import _nearest
from dogfight.batch.policies import _first
from dogfight.batch.run import _patterns, _result
from dogfight.geometry.pose import Pose
from dogfight.geometry.shapes import convex_overlap, rectangle
from dogfight.sim.run import GameResult

bools = hnp.arrays(np.bool_, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=12))


@given(bools)
def test_nonzero_is_numpys(a: np.ndarray) -> None:
    ours = arrays.nonzero(a)
    theirs = np.nonzero(a)
    assert len(ours) == len(theirs)
    for x, y in zip(ours, theirs, strict=True):
        assert np.array_equal(x, y)


@given(bools)
def test_any_slot_is_any_over_the_last_axis(a: np.ndarray) -> None:
    assert np.array_equal(arrays.any_slot(a), a.any(axis=-1))


@given(hnp.arrays(np.int64, st.integers(0, 20)), st.integers(0, 5))
def test_per_slot_repeats_each_tables_value(values: np.ndarray, slots: int) -> None:
    out = arrays.per_slot(values, slots)
    assert out.shape == (len(values), slots)
    assert np.array_equal(out, np.broadcast_to(values[:, None], (len(values), slots)))


def test_ordered_pairs_are_the_off_diagonal_in_nonzero_order() -> None:
    i, j = arrays.ordered_pairs(3)
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == [
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
    ]


@given(hnp.arrays(np.bool_, st.tuples(st.integers(1, 6), st.integers(0, 30))))
def test_first_is_argmax_down_the_rows(ok: np.ndarray) -> None:
    assert np.array_equal(_first(ok), ok.argmax(axis=0))


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 4), st.integers(0, 3), st.sampled_from([0.5, 1.0, 2.0, np.inf, np.nan])
        ),
        max_size=30,
    )
)
def test_nearest_is_argmin_per_key(drawn: list[tuple[int, int, float]]) -> None:
    """Candidates (key, other, distance) sorted by key then other: the chosen one of each
    key is numpy's argmin over that key's distances (ties to the first; a NaN least
    distance is never a hit)."""
    rows = sorted({(k, o): d for k, o, d in drawn}.items())
    key = np.array([k for (k, _), _ in rows], dtype=np.int64)
    other = np.array([o for (_, o), _ in rows], dtype=np.int64)
    dist = np.array([d for _, d in rows], dtype=np.float64)
    best, best_d = _nearest(key, other, dist)
    hits = {
        int(key[b]): (int(other[b]), float(d))
        for b, d in zip(best, best_d, strict=True)
        if d <= 1.5
    }
    expected: dict[int, tuple[int, float]] = {}
    for k in np.unique(key).tolist():
        mine = np.flatnonzero(key == k)
        pick = mine[np.argmin(dist[mine])]
        if dist[pick] <= 1.5:
            expected[k] = (int(other[pick]), float(dist[pick]))
    assert hits == expected


coordinates = st.floats(-5.0, 5.0, allow_nan=False)


@settings(max_examples=200)
@given(
    coordinates, coordinates, st.floats(0.0, 360.0), coordinates, coordinates, st.floats(0.0, 360.0)
)
def test_overlap_is_the_referees(
    x1: float, y1: float, h1: float, x2: float, y2: float, h2: float
) -> None:
    a = rectangle(Pose(x1, y1, h1), 4.0, 3.0)
    b = rectangle(Pose(x2, y2, h2), 4.0, 3.0)
    ours = sight.overlap(np.array([a], dtype=float), np.array([b], dtype=float))
    assert bool(ours[0]) == convex_overlap(a, b)


@given(
    hnp.arrays(
        np.int64, st.tuples(st.integers(0, 30), st.integers(1, 5)), elements=st.integers(0, 3)
    )
)
def test_patterns_group_equal_rows(codes: np.ndarray) -> None:
    groups = _patterns(codes)
    seen = sorted(int(m) for members, _ in groups for m in members)
    assert seen == list(range(len(codes)))
    for members, used in groups:
        assert (codes[members] == codes[members[0]]).all()
        assert np.array_equal(used, np.flatnonzero(codes[members[0]]))
    assert len({tuple(codes[m[0]].tolist()) for m, _ in groups}) == len(groups)


def test_result_is_the_constructors() -> None:
    made = _result(3, 7, "allies", True, 4, 11, {"a front": 2}, {"b": "shot_down"})
    expected = GameResult(
        index=3,
        seed=7,
        winner="allies",
        over=True,
        turns=4,
        phases=11,
        damage={"a front": 2},
        eliminated={"b": "shot_down"},
    )
    assert made == expected
    assert made.to_json() == expected.to_json()
    assert made.points is not _result(0, 0, None, False, 0, 0, {}, {}).points

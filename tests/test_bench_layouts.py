"""The benchmark's tables (issue 13: "every phase figure samples only phases in which all
N vehicles are in play and apart")."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from dogfight.bench import layouts
from dogfight.bench.engine import phase_times
from dogfight.catalog.loader import Catalog
from dogfight.geometry.shapes import convex_overlap
from dogfight.rules.engine import resolve_phase
from dogfight.rules.events import Event
from dogfight.rules.firing import table_of
from dogfight.rules.state import GameState
from dogfight.situation.format import build


@pytest.mark.parametrize("count", [4, 8, 16, 32, 64])
def test_constant_density_bases_are_legal_and_apart(catalog: Catalog, count: int) -> None:
    state = build(layouts.constant_density(count, np.random.default_rng(count)), catalog, 0)
    assert len(state.in_play()) == count
    area = state.rules.table_width * state.rules.table_height
    assert area == pytest.approx(layouts.AREA_PER_VEHICLE * count)
    bases = [state.base(v) for v in state.in_play()]
    for i, a in enumerate(bases):
        assert all(
            0 < x < state.rules.table_width and 0 < y < state.rules.table_height for x, y in a
        )
        assert not any(convex_overlap(a, b) for b in bases[i + 1 :])
    assert {v.side for v in state.in_play()} == {"allies", "central"}


def test_crowded_table_and_tripods_fit_apart(catalog: Catalog) -> None:
    for situation in (
        layouts.crowded(32, np.random.default_rng(1)),
        layouts.tripods_and_airplanes(np.random.default_rng(2)),
    ):
        state = build(situation, catalog, 0)
        assert state.rules.table_width == 90.0
        assert not any(table_of(state).overlaps.values())


def test_too_many_bases_for_the_table_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        layouts.crowded(400, np.random.default_rng(0))


def test_only_phases_with_every_vehicle_in_play_are_timed(catalog: Catalog) -> None:
    """A resolver that records what it was given: every timed phase starts with all 32
    airplanes in play and apart on the crowded table."""
    seen: list[int] = []

    def resolver(state: GameState, rng: np.random.Generator) -> tuple[GameState, list[Event]]:
        assert not any(table_of(state).overlaps.values())
        seen.append(len(state.in_play()))
        return resolve_phase(state, rng)

    sample = phase_times(catalog, functools.partial(layouts.crowded, 32), 4, resolver=resolver)
    assert len(sample.times) == 4
    assert seen == [32, 32, 32, 32]

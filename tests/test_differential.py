"""Issue 13: "keep every event byte-identical ... a new 10,000-phase differential test (old
vs new resolver on random crowded tables)". The normal suite compares a few hundred
phases; ``dogfight bench --differential`` runs the full 10,000."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from dogfight.bench import layouts
from dogfight.bench.differential import compare
from dogfight.bots.random_plans import random_plans
from dogfight.catalog.loader import Catalog
from dogfight.rules import firing
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.events import as_dicts
from dogfight.rules.state import GameState, Vehicle
from dogfight.situation.format import build


def test_new_firing_geometry_agrees_with_the_reference(catalog: Catalog) -> None:
    report = compare(catalog, 240, seed=13)
    assert report.phases == 240
    assert report.shots > 1000  # crowded tables: plenty of shots, many of them blocked
    assert report.differences == []


def test_a_difference_is_reported(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: drop the nearest option of every weapon and it says so."""
    real = firing.options

    def fewer(
        state: GameState,
        table: firing.Table,
        firer: Vehicle,
        weapon: str,
        protection: bool = True,
    ) -> list[firing.Option]:
        return real(state, table, firer, weapon, protection)[1:]

    monkeypatch.setattr(firing, "options", fewer)
    report = compare(catalog, 6, seed=13)
    assert report.differences


def _snapshot(state: GameState) -> str:
    vehicles = {
        vid: (v.pose, v.damage, list(v.held), dict(v.jams), dict(v.aim), v.eliminated, v.plan)
        for vid, v in state.vehicles.items()
    }
    return repr((vehicles, state.piles, state.turn, state.phase, state.salvos, state.clouds))


def test_resolving_leaves_its_input_alone_and_repeats_exactly(catalog: Catalog) -> None:
    """Copying the state cheaply must not share anything the resolver changes: the same
    state resolved twice gives the same events, and is itself unchanged."""
    for seed in range(6):
        rng = np.random.Generator(np.random.PCG64([seed, 5]))
        state = build(layouts.crowded(24, rng), catalog, seed)
        state, _ = start_turn(state, random_plans(state, rng))
        for phase in (1, 2, 3):
            if state.over:
                break
            before = _snapshot(state)
            first, events = resolve_phase(state, step_rng(seed, 1, phase))
            _, again = resolve_phase(state, step_rng(seed, 1, phase))
            assert _snapshot(state) == before
            assert as_dicts(events) == as_dicts(again)
            state = first


def test_constant_density_tables_agree_too(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Big, sparse tables take the batched path of :class:`firing.Table`."""
    from dogfight.bench import differential

    monkeypatch.setattr(differential, "MAKERS", (functools.partial(layouts.constant_density, 40),))
    report = compare(catalog, 9, seed=3)
    assert report.phases == 9 and report.differences == []


@pytest.mark.parametrize(("count", "tables"), [(32, 40), (40, 4)])
def test_nearest_option_is_the_first_option(catalog: Catalog, count: int, tables: int) -> None:
    """The firing step's ``auto`` shot measures targets only until none left can be
    nearer (``firing.nearest_option``): it is exactly ``options(...)[0]``, the same
    target and the same measure, on crowded and on sparse tables. (Among these crowded
    tables, a few times the target whose in-arc part is nearest is partly hidden and
    another is nearer: stopping at the first target seen fails here.)"""
    make = layouts.crowded if count != 40 else layouts.constant_density
    compared = 0
    for seed in range(tables):
        rng = np.random.Generator(np.random.PCG64([seed, 11]))
        state = build(make(count, rng), catalog, seed)
        state, _ = start_turn(state, random_plans(state, rng))
        for phase in (1, 2, 3):
            if state.over:
                break
            moved, _ = resolve_phase(state, step_rng(seed, 1, phase), stop_before_firing=True)
            table = firing.table_of(moved)
            for vehicle in moved.in_play():
                for weapon, _ in moved.rules.weapons(vehicle.type):
                    every = firing.options(moved, table, vehicle, weapon)
                    first = firing.nearest_option(moved, firing.table_of(moved), vehicle, weapon)
                    if not every:
                        assert first is None
                        continue
                    assert first is not None
                    expected = every[0]
                    assert (first.target, first.sight.distance, first.sight.point) == (
                        expected.target,
                        expected.sight.distance,
                        expected.sight.point,
                    )
                    assert (first.short, first.candidates, first.protected) == (
                        expected.short,
                        expected.candidates,
                        expected.protected,
                    )
                    assert first.blockers == expected.blockers
                    compared += 1
            state, _ = resolve_phase(state, step_rng(seed, 1, phase))
    assert compared > 50

"""The hand-written ``__init__`` of the per-phase working objects (issue 13): a
:class:`~dogfight.rules.phase.Phase` and a firing :class:`~dogfight.rules.firing.Table`
start as the dataclass defaults would have them, every container fresh per instance."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any

import numpy as np

from dogfight.catalog.loader import Catalog
from dogfight.geometry.pose import Pose
from dogfight.rules import firing
from dogfight.rules.decisions import Asking
from dogfight.rules.phase import Phase
from dogfight.rules.tripods import PhaseActions
from dogfight.sim.duel import duel_situation, melee_situation, tripods_situation
from dogfight.situation.format import build


def _containers(obj: Any) -> list[Any]:
    return [
        getattr(obj, f.name)
        for f in fields(obj)
        if isinstance(getattr(obj, f.name), (list, dict, set))
    ]


def test_phase_starts_empty_and_fresh(catalog: Catalog) -> None:
    state = build(tripods_situation(), catalog, 0)
    rng = np.random.Generator(np.random.PCG64(0))
    made = [Phase(state, rng, 1, 1, [], [], {}) for _ in range(2)]
    for ph in made:
        assert ph.acts == PhaseActions({}, {}, {}, {})
        assert (ph.flown, ph.speeds, ph.walked, ph.starts, ph.drops) == ({}, {}, {}, {}, {})
        assert (ph.backward, ph.silenced, ph.aimed) == (set(), set(), set())
        assert ph.bomb_rays == []
        assert ph.asking.answers == {} and not ph.asking.interactive and ph.asking.asked == []
    first, second = made
    assert all(a is not b for a, b in zip(_containers(first), _containers(second), strict=True))
    assert first.acts is not second.acts and first.asking is not second.asking
    assert all(
        a is not b for a, b in zip(_containers(first.acts), _containers(second.acts), strict=True)
    )


def test_phase_keeps_what_it_is_given(catalog: Catalog) -> None:
    state = build(tripods_situation(), catalog, 0)
    rng = np.random.Generator(np.random.PCG64(0))
    aimed = {"t1"}
    asking = Asking({"x": ("a",)}, interactive=True)
    ph = Phase(state, rng, 2, 5, [], [], {}, aimed, asking)
    assert ph.aimed is aimed and ph.asking is asking
    assert (ph.phase, ph.number, ph.state, ph.rng) == (2, 5, state, rng)


def test_table_caches_start_empty_and_fresh(catalog: Catalog) -> None:
    state = build(tripods_situation(), catalog, 0)
    tables = [firing.table_of(state) for _ in range(2)]
    for table in tables:
        assert table._index == {} and table._reach == {} and table._near == {}
        assert table._batch == {} and table.shades == {}
        assert table._centres is None and table._distance is None and table._bearings is None
        assert table.ids == [v.id for v in state.in_play()]
        assert table.radius == state.rules.base_radius
        assert [table.index(v) for v in table.ids] == list(range(len(table.ids)))
    first, second = tables
    assert all(a is not b for a, b in zip(_containers(first), _containers(second), strict=True))
    assert firing.table_of(state, state.in_play()) == firing.table_of(state)


def test_table_bases_are_made_when_first_read(catalog: Catalog) -> None:
    """A table's bases are every vehicle's base in table order, the same whenever they are
    made; a table whose bases are all far apart does not make them to look for overlaps."""
    far = build(duel_situation(), catalog, 0)
    table = firing.table_of(far)
    assert table._bases is None
    bases = table.bases
    assert bases == {v.id: far.base(v) for v in far.in_play()}
    assert list(bases) == table.ids and table.bases is bases
    near = build(tripods_situation(), catalog, 0)
    assert firing.table_of(near).bases == {v.id: near.base(v) for v in near.in_play()}


def test_a_table_apart_has_no_target_for_any_ruler_weapon(catalog: Catalog) -> None:
    """``Table.apart`` (no enemy within a ruler and a base of another) lets a firing step's
    weapons skip their look-ups: on random duels and melees, some right at that distance,
    the options and nearest shots are those of the same table not marked apart."""
    rng = np.random.default_rng(7)
    apart_seen = near_seen = shots_seen = 0
    for trial in range(120):
        state = build(melee_situation(4) if trial % 3 == 0 else duel_situation(), catalog, trial)
        rules = state.rules
        limit = rules.ruler + rules.base_radius
        vehicles = list(state.vehicles.values())
        for v in vehicles:
            x, y, heading = (float(c) for c in rng.uniform(0.0, [90.0, 90.0, 360.0]))
            v.pose = Pose(x, y, heading)
        if trial % 2:  # the second vehicle at the very reach of the first (either side of it)
            first, second = vehicles[0], vehicles[1]
            angle = float(rng.uniform(0.0, 2.0 * math.pi))
            d = limit + float(rng.choice([-1e-9, 0.0, 1e-9]))
            x, y = first.pose.x + d * math.cos(angle), first.pose.y + d * math.sin(angle)
            second.pose = Pose(x, y, float(rng.uniform(0.0, 360.0)))
        table = firing.table_of(state)
        plain = firing.table_of(state)
        plain.apart = False
        apart_seen += table.apart
        near_seen += not table.apart
        for v in vehicles:
            for weapon, _ in rules.weapons(v.type):
                got = firing.options(state, table, v, weapon)
                assert repr(got) == repr(firing.options(state, plain, v, weapon))
                nearest = firing.nearest_option(state, table, v, weapon)
                assert repr(nearest) == repr(firing.nearest_option(state, plain, v, weapon))
                assert not (table.apart and got)
                shots_seen += bool(got)
    assert apart_seen and near_seen and shots_seen

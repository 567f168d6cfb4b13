"""The state's copies (issue 13: "copy state cheaply"): every field is carried over, and
nothing the resolver changes in place is shared with the original."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from dogfight.catalog.loader import Catalog
from dogfight.rules.decks import draw, shuffle_back
from dogfight.rules.events import Event
from dogfight.rules.state import GameState, Objective, TripodState, Vehicle
from dogfight.sim.duel import tripods_situation
from dogfight.situation.format import build


def _marked(obj: Any) -> Any:
    """Set every field of ``obj`` to a value of its own (a fresh container holding a
    unique marker, or a unique object), so a field a copy forgets shows up."""
    for f in fields(obj):
        value = getattr(obj, f.name)
        marker = object()
        if isinstance(value, list):
            new: Any = [marker]
        elif isinstance(value, dict):
            new = {marker: marker}
        elif isinstance(value, set):
            new = {marker}
        elif isinstance(value, TripodState):
            new = _marked(value.copy())
        else:
            new = marker
        object.__setattr__(obj, f.name, new)
    return obj


def _check(original: Any, copied: Any) -> None:
    assert type(copied) is type(original)
    for f in fields(original):
        before, after = getattr(original, f.name), getattr(copied, f.name)
        if isinstance(before, (list, dict, set)):
            assert after == before and after is not before, f.name
        elif isinstance(before, TripodState):
            assert after is not before, f.name
            _check(before, after)
        else:
            assert after is before, f.name


def test_tripod_console_copy_keeps_every_field(catalog: Catalog) -> None:
    state = build(tripods_situation(), catalog, 0)
    console = state.vehicles["t1"].tripod
    assert console is not None
    original = _marked(console.copy())
    _check(original, original.copy())


@pytest.mark.parametrize("vid", ["t1", "p0"])
def test_vehicle_copy_keeps_every_field(catalog: Catalog, vid: str) -> None:
    state = build(tripods_situation(), catalog, 0)
    vehicle: Vehicle = state.vehicles[vid].copy()
    tripod = vehicle.tripod
    original = _marked(vehicle)
    if tripod is not None:
        original.tripod = _marked(tripod)
    else:
        original.tripod = None
    _check(original, original.copy())


def test_state_copy_keeps_every_field_and_copies_what_changes(catalog: Catalog) -> None:
    state = build(tripods_situation(), catalog, 0)
    copied = state.copy()
    for f in fields(GameState):
        before, after = getattr(state, f.name), getattr(copied, f.name)
        assert after == before, f.name
        if isinstance(before, (list, dict, set)):
            assert after is not before, f.name
    for vid, vehicle in state.vehicles.items():
        assert copied.vehicles[vid] is not vehicle
        assert copied.vehicles[vid] == vehicle
    assert copied.piles is not state.piles
    for letter, pile in state.piles.items():
        assert copied.piles[letter] is pile  # shared: never changed in place


def test_a_copy_draws_and_shuffles_back_without_changing_the_original(catalog: Catalog) -> None:
    """The piles' lists are shared by copies (``GameState.copy``): drawing from a copy,
    running a pile out and shuffling cards back put new lists in the copy alone."""
    state = build(tripods_situation(), catalog, 0)
    before = {letter: list(pile) for letter, pile in state.piles.items()}
    copied = state.copy()
    rng = np.random.default_rng(0)
    events: list[Event] = []
    top = draw(copied, "A", rng, events)
    assert top == before["A"][-1] and copied.piles["A"] == before["A"][:-1]
    shuffle_back(copied, "A", [top], rng)
    assert sorted(copied.piles["A"]) == sorted(before["A"])
    copied.piles["B"] = []
    draw(copied, "B", rng, events)
    assert len(copied.piles["B"]) == len(before["B"]) - 1
    assert state.piles == before


def test_state_copy_passes_every_field(catalog: Catalog) -> None:
    """A field :meth:`GameState.copy` forgot would come back as its default: every field
    holds a value of its own here (containers a marked element), and the copy has it."""
    state = build(tripods_situation(), catalog, 0)
    vehicle = state.vehicles["p0"]
    for f in fields(GameState):
        value = getattr(state, f.name)
        marker = object()
        if isinstance(value, list):
            new: Any = [marker]
        elif f.name in ("vehicles", "reserves"):
            new = {"marked": vehicle.copy()}
        elif f.name == "piles":
            new = {"marked": [marker]}
        elif f.name in ("objectives", "targets"):
            new = {"marked": Objective("marked", 1.0, 2.0)}
        elif isinstance(value, dict):
            new = {marker: marker}
        else:
            new = marker
        object.__setattr__(state, f.name, new)
    copied = state.copy()
    for f in fields(GameState):
        before, after = getattr(state, f.name), getattr(copied, f.name)
        if isinstance(before, (list, dict)):
            assert after == before and after is not before, f.name
        else:
            assert after is before, f.name

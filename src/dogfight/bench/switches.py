"""``dogfight bench --switches N``: N random rule-switch sets, each either refused when
its game is made or played for a few turns without an exception (issue 28, defect 2).

A set draws switch names from :class:`~dogfight.catalog.models.Switches` and unknown
ones, and values of every JSON type: booleans, small, negative and huge whole numbers
(``10**400``), fractions, long strings, the catalog's deck and counter set names and
names that are not, every choice of the literal switches, lists, objects and null. The
set goes into a situation (an airplane duel, tripods against WW1 airplanes, or London's
Burning: tripods against WW2 airplanes), which is made as the command line and the web
make it (:func:`~dogfight.situation.format.parse_situation` then
:func:`~dogfight.situation.format.build`): a :class:`~dogfight.errors.DogfightError` there is a
refusal. Anything made is played by random bots (the ``random`` bot of every side) for
a few turns: an exception there is a *failed game*, the figure whose target is 0.

The generator is numpy's, seeded: a run is repeatable. The test suite runs a few hundred
sets (tests/test_switches.py); the 20,000 of the issue are this benchmark's figure.
"""

from __future__ import annotations

import enum
import traceback
import typing
from collections.abc import Callable
from typing import Any

import numpy as np

from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import Switches
from dogfight.errors import DogfightError
from dogfight.sim.duel import duel_situation, tripods_situation
from dogfight.sim.run import play_game
from dogfight.situation.format import build, parse_situation
from dogfight.situation.scenarios import scenario_situation

Json = dict[str, Any]

TURNS = 4
"""Turns each accepted set is played (enough to draw damage and fly every card kind)."""

UNKNOWN = ["zz", "tripod_factors", "airplane-counters", "switches", "Era", "x" * 40]
"""Switch names that are not switches (a typo, another spelling, the limit's length)."""


def _own_values(name: str, catalog: Catalog) -> list[Any]:
    """Values of a switch's own kind: both booleans, whole numbers around its bounds, every
    choice of a choice switch, the catalog's deck and counter set names (and none)."""
    kind = Switches.model_fields[name].annotation
    if kind is bool:
        return [True, False]
    if kind is int:
        return list(range(-1, 9))
    if kind is str:
        decks = sorted(catalog.damage_decks)
        return ["", *decks, *sorted({d.rsplit("-", 1)[0] for d in decks if "-" in d})]
    out: list[Any] = []
    for arg in (*typing.get_args(kind), kind):
        if isinstance(arg, type) and issubclass(arg, enum.Enum):
            out += [m.value for m in arg]
        elif typing.get_origin(arg) is typing.Literal:
            out += list(typing.get_args(arg))
        elif arg is type(None):
            out.append(None)
    return out


def _values(catalog: Catalog) -> list[Any]:
    """The values a switch is drawn from: every JSON type, the catalog's names and near
    misses, huge and negative numbers, long strings."""
    decks = sorted(catalog.damage_decks)
    sets = sorted({d.rsplit("-", 1)[0] for d in decks if "-" in d})
    return [
        None,
        True,
        False,
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        -1,
        2**31,
        2**63,
        10**400,
        -(10**400),
        1.5,
        2.0,
        1e308,
        "",
        "zz-Q",
        "zz",
        "a" * 10_000,
        "2",
        "true",
        "A-A",
        "ww2-A",
        *decks,
        *sets,
        *[s.upper() for s in sets],
        *(v for name in Switches.model_fields for v in _own_values(name, catalog)),
        [],
        ["A"],
        {},
        {"A": 1},
    ]


def random_switches(catalog: Catalog, rng: np.random.Generator) -> Json:
    """One random switch set: one to four names (known ones mostly), each with a value of
    its own kind (:func:`_own_values`) most of the time, else any of :func:`_values`."""
    names = list(Switches.model_fields)
    values = _values(catalog)
    out: Json = {}
    for _ in range(int(rng.integers(1, 5))):
        if rng.random() < 0.1:
            out[UNKNOWN[int(rng.integers(len(UNKNOWN)))]] = True
            continue
        name = names[int(rng.integers(len(names)))]
        pool = _own_values(name, catalog) if rng.random() < 0.75 else values
        out[name] = pool[int(rng.integers(len(pool)))]
    return out


def _pose(x: float, y: float, heading: float) -> Json:
    return {"x": x, "y": y, "heading": heading}


def bases(catalog: Catalog) -> list[tuple[str, Json]]:
    """The situations the switch sets go into, as JSON (a set replaces their switches),
    their vehicles close enough to fire in the first turns (damage cards and counters are
    drawn): a WW1 duel (wog), tripods against WW1 airplanes, a tripod against two WW2
    airplanes (ww2) and London's Burning (ww2)."""
    setup = np.random.Generator(np.random.PCG64(0))
    ww2 = {
        "ruleset": "ww2",
        "vehicles": [
            {"id": "t", "type": "mk1-locust", "side": "martians", "pose": _pose(45, 55, 270)},
            {"id": "p", "type": "bf-109e", "side": "earth", "pose": _pose(40, 25, 90)},
            {"id": "q", "type": "ju-87-stuka", "side": "earth", "pose": _pose(55, 25, 90)},
        ],
    }
    return [
        ("duel", duel_situation(height=45.0).model_dump(mode="json")),
        ("tripods", tripods_situation(60.0, 60.0).model_dump(mode="json")),
        ("ww2", ww2),
        (
            "londons-burning",
            scenario_situation(catalog, "londons-burning", setup).model_dump(mode="json"),
        ),
    ]


def _ruleset(rng: np.random.Generator, catalog: Catalog, base: Json) -> Json:
    """The base, half the time with another ruleset than its own."""
    if rng.random() < 0.5:
        return base
    return {**base, "ruleset": sorted(catalog.rulesets)[int(rng.integers(len(catalog.rulesets)))]}


def one(catalog: Catalog, situation: Json, seed: int) -> str:
    """``"refused"`` or ``"played"``; an exception that is not a refusal propagates."""
    try:
        parsed = parse_situation(situation, "situation")
        state = build(parsed, catalog, seed, "situation")
    except DogfightError:
        return "refused"
    bots = {side: "random" for side in state.sides()}
    play_game(parsed, catalog, bots, np.random.SeedSequence([seed, 28]), max_turns=TURNS)
    return "played"


def run(
    catalog: Catalog, count: int, seed: int = 0, progress: Callable[[int], None] | None = None
) -> Json:
    """Make and play ``count`` random switch sets; count the refused, the played and the
    failed (an exception out of making or playing: target 0), with the first failures."""
    rng = np.random.Generator(np.random.PCG64([seed, 28]))
    made = bases(catalog)
    counts = {"refused": 0, "played": 0, "failed": 0}
    failures: list[Json] = []
    for i in range(count):
        name, base = made[int(rng.integers(len(made)))]
        switches = random_switches(catalog, rng)
        situation = {**_ruleset(rng, catalog, base), "switches": switches}
        try:
            counts[one(catalog, situation, seed + i)] += 1
        except Exception as exc:  # a failed game: what this benchmark counts
            counts["failed"] += 1
            if len(failures) < 10:
                failures.append(
                    {
                        "base": name,
                        "ruleset": situation.get("ruleset"),
                        "switches": {k: repr(v)[:60] for k, v in switches.items()},
                        "error": "".join(traceback.format_exception_only(exc)).strip()[:300],
                    }
                )
        if progress is not None:
            progress(i + 1)
    return {"sets": count, **counts, "failed_target": 0, "failures": failures}

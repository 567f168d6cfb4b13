"""Time and check the batched simulator (``dogfight bench --batch``): complete random
duels per second on one core, the same duels by the referee from the same run, one
phase of 32 airplanes on 256 tables, WW2 random duels, tripod games and *First Contact*
games per second (random bots, and with the bots: ``easy`` and ``martian``), the
differential test
and the statistical comparison with the referee (the WW1 rulesets and ``ww2``).

Times are the process's CPU time (both engines run on one core), so the figures hold
on a machine shared with other work."""

from __future__ import annotations

import platform
import statistics
import time
from typing import Any

import numpy as np

from dogfight.batch.bridge import from_states
from dogfight.batch.compare import (
    MATCHUPS,
    TRIPOD_MATCHUPS,
    WW2_MATCHUP,
    matchup,
    scenario_matchup,
    tripod_matchup,
)
from dogfight.batch.differential import run as differential
from dogfight.batch.game import resolve_phase
from dogfight.batch.policies import playout_plans
from dogfight.batch.run import play, template_of
from dogfight.batch.state import BatchState, reset, tile
from dogfight.bench.engine import peak_memory_mb
from dogfight.catalog.loader import Catalog
from dogfight.sim.duel import duel_situation, melee_situation, random_game, tripod_situation
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation

TARGETS = {
    "batch_games_per_second": 20000.0,
    "batch_to_referee_ratio": 50.0,
    "batch_phase_32x256_per_table_ms": 2.0,
    "tripod_games_per_second": 2000.0,
    "first_contact_games_per_second": 2000.0,
    "first_contact_bot_games_per_second": 500.0,
}


def batch_games_per_second(catalog: Catalog, games: int, tables: int, seed: int = 0) -> float:
    """Complete random duels (the random playouts' plans, ``wog`` rules with jams,
    explosions and reshuffles) per second on this core."""
    template = from_states([build(duel_situation(), catalog, seed)])
    play(template, {"allies": "playout", "central": "playout"}, 256, seed, policies=_PLAYOUT)
    began = time.process_time()
    play(
        template,
        {"allies": "playout", "central": "playout"},
        games,
        seed,
        tables=tables,
        policies=_PLAYOUT,
    )
    return games / (time.process_time() - began)


_PLAYOUT = {"playout": playout_plans}


def tripod_games_per_second(catalog: Catalog, games: int, tables: int, seed: int = 0) -> float:
    """Complete games of a Mk I Locust against a Sopwith Camel and a SPAD XIII (First
    Contact's line-up under 000's basic rules, :func:`tripod_situation`) with the random
    bot on both sides, per second on this core."""
    situation = tripod_situation("mk1-locust", ["sopwith-camel", "spad-xiii"])
    template = from_states([build(situation, catalog, seed)])
    bots = {"martians": "random", "earth": "random"}
    return _random_games_per_second(template, bots, games, tables, seed)


def first_contact_games_per_second(
    catalog: Catalog, games: int, tables: int, seed: int = 0
) -> float:
    """Complete games of *First Contact* (000's scenario as printed: the Standard Rules,
    its objectives, setups, ace skills and victories; each game from one of the setups
    ``simulate`` draws) with the random bot on both sides, per second on this core."""
    situation = scenario_situation(catalog, "first-contact")
    template = template_of(situation.model_dump(mode="json", exclude_defaults=True), None, True)
    bots = {"martians": "random", "earth": "random"}
    return _random_games_per_second(template, bots, games, tables, seed)


FIRST_CONTACT_BOTS = {"earth": "easy", "martians": "martian"}
"""*First Contact* with the bots: the Earth's airplanes flown by ``easy``, the Locust by
``martian`` (issue 33's "with the bots")."""


def first_contact_bot_games_per_second(
    catalog: Catalog,
    games: int,
    tables: int,
    seed: int = 0,
    bots: dict[str, str] = FIRST_CONTACT_BOTS,
) -> float:
    """Complete games of *First Contact* (as :func:`first_contact_games_per_second`)
    with the bots (``bots``, by default :data:`FIRST_CONTACT_BOTS`), per second on this
    core."""
    situation = scenario_situation(catalog, "first-contact")
    template = template_of(situation.model_dump(mode="json", exclude_defaults=True), None, True)
    return _random_games_per_second(template, dict(bots), games, tables, seed)


def ww2_games_per_second(catalog: Catalog, games: int, tables: int, seed: int = 0) -> float:
    """Complete WW2 duels (:data:`WW2_MATCHUP` under ``ww2``: a card and a speed marker
    per Earthling turn, counters, 000's special damage) with the ``random`` bot on both
    sides, per second on this core."""
    situation = duel_situation(*WW2_MATCHUP).model_copy(update={"ruleset": "ww2"})
    template = from_states([build(situation, catalog, seed)])
    bots = {"allies": "random", "central": "random"}
    return _random_games_per_second(template, bots, games, tables, seed)


def _random_games_per_second(
    template: BatchState, bots: dict[str, str], games: int, tables: int, seed: int
) -> float:
    """Complete games of the template's table with these policies, per CPU-second."""
    play(template, bots, 256, seed)
    began = time.process_time()
    play(template, bots, games, seed, tables=tables)
    return games / (time.process_time() - began)


def referee_games_per_second(catalog: Catalog, games: int, seed: int = 0) -> float:
    """The same duels played by the referee (:func:`dogfight.sim.duel.random_game`)."""
    began = time.process_time()
    for i in range(games):
        random_game(catalog, seed + i)
    return games / (time.process_time() - began)


def phase_per_table_ms(
    catalog: Catalog, airplanes: int = 32, tables: int = 256, samples: int = 5, seed: int = 0
) -> float:
    """Median time of the first action phase of ``tables`` fresh tables of ``airplanes``
    airplanes (all in play, two lines closing in: the costliest phase; planning not
    included), divided by the number of tables."""
    template = from_states([build(melee_situation(airplanes), catalog, seed)])
    state = tile(template, tables)
    rng = np.random.default_rng(seed)
    times: list[float] = []
    for _ in range(samples):
        reset(state, np.arange(tables), template, rng)
        playout_plans(state, rng)
        began = time.process_time()
        resolve_phase(state, rng)
        times.append(time.process_time() - began)
    return statistics.median(times) * 1000.0 / tables


def run(catalog: Catalog, quick: bool = False) -> dict[str, Any]:
    """All figures as one JSON-ready dictionary, with the targets beside them."""
    games = 4000 if quick else 100_000
    batch_rate = batch_games_per_second(catalog, games, 8192)
    referee_rate = referee_games_per_second(catalog, 20 if quick else 300)
    figures = {
        "batch_games_per_second": round(batch_rate, 1),
        "referee_games_per_second": round(referee_rate, 1),
        "batch_to_referee_ratio": round(batch_rate / referee_rate, 1),
        "batch_phase_32x256_per_table_ms": round(
            phase_per_table_ms(catalog, samples=1 if quick else 5), 3
        ),
        "tripod_games_per_second": round(
            tripod_games_per_second(catalog, 2000 if quick else 20_000, 4096), 1
        ),
        "first_contact_games_per_second": round(
            first_contact_games_per_second(catalog, 2000 if quick else 20_000, 4096), 1
        ),
        "first_contact_bot_games_per_second": round(
            first_contact_bot_games_per_second(catalog, 200 if quick else 2000, 4096), 1
        ),
        "first_contact_martian_vs_random_games_per_second": round(
            first_contact_bot_games_per_second(
                catalog,
                500 if quick else 5000,
                4096,
                bots={"earth": "random", "martians": "martian"},
            ),
            1,
        ),
        "batch_ww2_random_games_per_second": round(
            ww2_games_per_second(catalog, games // 4, 8192), 1
        ),
    }
    tables = 200 if quick else 10_000
    same = {
        ruleset: differential(catalog, tables, seed=1, ruleset=ruleset).to_json()
        for ruleset in ("wog", "wow", "wow-basic", "ww2")
    }
    same["tripods"] = differential(catalog, tables, seed=1, tripods=True).to_json()
    same["tripods_standard_rules"] = differential(
        catalog, tables, seed=1, tripods=True, standard=True
    ).to_json()
    same["first_contact"] = differential(
        catalog, tables, seed=1, max_turns=30, scenario="first-contact"
    ).to_json()
    for report in same.values():
        report["examples"] = report["examples"][:3]
    ours, theirs = (1000, 100) if quick else (10_000, 2_000)
    stats = [matchup(catalog, a, b, ours, theirs, seed=2) for a, b in MATCHUPS]
    stats += [
        tripod_matchup(catalog, t, planes, ours, theirs // 4, seed=2, max_turns=12)
        for t, planes in TRIPOD_MATCHUPS
    ]
    stats.append(matchup(catalog, *WW2_MATCHUP, ours, theirs, seed=2, ruleset="ww2"))
    stats.append(
        scenario_matchup(catalog, "first-contact", ours, theirs // 4, seed=2, max_turns=12)
    )
    # the martian bot against the referee's: with random and with easy airplanes
    for bots, (mine, refereed) in (
        ({"earth": "random", "martians": "martian"}, (ours // 2, theirs // 5)),
        (FIRST_CONTACT_BOTS, (ours // 5, theirs // 7)),
    ):
        stats.append(scenario_matchup(catalog, "first-contact", mine, refereed, 2, 30, bots))
    return {
        "figures": figures,
        "targets": TARGETS,
        "met": {
            k: (figures[k] <= v if k.endswith("_ms") else figures[k] >= v)
            for k, v in TARGETS.items()
        },
        "differential": same,
        "statistical": stats,
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }

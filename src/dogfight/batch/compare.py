"""Batched games against referee games: do win rates and game lengths agree?

Win rates (each side, draws, games stopped by the turn cap) agree when the 95% interval
of their difference (Newcombe's, from the two Wilson intervals) contains 0; game lengths agree
when the mean number of turns does (normal interval of a difference of means) and the
two-sample Kolmogorov-Smirnov distance between the length distributions is below its
95% critical value.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from dogfight.catalog.loader import Catalog
from dogfight.sim.run import GameResult
from dogfight.sim.stats import Z95, wilson
from dogfight.situation.format import Situation

KS95 = 1.358
"""The asymptotic 95% critical value of the Kolmogorov-Smirnov statistic."""


def _outcome(r: GameResult) -> str:
    if not r.over:
        return "turn cap"
    return r.winner or "draw"


def _proportions(a: Sequence[GameResult], b: Sequence[GameResult], label: str) -> dict[str, Any]:
    """Newcombe's hybrid score interval of the difference of two proportions (built from
    the two Wilson intervals, so a count of zero on one side is handled)."""
    ka = sum(_outcome(r) == label for r in a)
    kb = sum(_outcome(r) == label for r in b)
    x, y = ka / len(a), kb / len(b)
    lx, ux = wilson(ka, len(a))
    ly, uy = wilson(kb, len(b))
    low = (x - y) - math.sqrt((x - lx) ** 2 + (uy - y) ** 2)
    high = (x - y) + math.sqrt((ux - x) ** 2 + (y - ly) ** 2)
    return {
        "batch": round(x, 4),
        "referee": round(y, 4),
        "difference": round(x - y, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "agree": low <= 0.0 <= high,
    }


def ks_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """The largest gap between the two empirical distribution functions."""
    values = sorted(set(a) | set(b))
    sa, sb = sorted(a), sorted(b)
    best = 0.0
    i = j = 0
    for v in values:
        while i < len(sa) and sa[i] <= v:
            i += 1
        while j < len(sb) and sb[j] <= v:
            j += 1
        best = max(best, abs(i / len(sa) - j / len(sb)))
    return best


def compare(batch: Sequence[GameResult], referee: Sequence[GameResult]) -> dict[str, Any]:
    """Win rates and game lengths of the two sets of games, and whether they agree."""
    labels = sorted({_outcome(r) for r in [*batch, *referee]})
    rates = {label: _proportions(batch, referee, label) for label in labels}
    ta = [float(r.turns) for r in batch]
    tb = [float(r.turns) for r in referee]
    ma, mb = statistics.fmean(ta), statistics.fmean(tb)
    half = Z95 * math.sqrt(statistics.pvariance(ta) / len(ta) + statistics.pvariance(tb) / len(tb))
    ks = ks_distance(ta, tb)
    critical = KS95 * math.sqrt((len(ta) + len(tb)) / (len(ta) * len(tb)))
    lengths = {
        "batch_mean": round(ma, 3),
        "referee_mean": round(mb, 3),
        "ci95": round(half, 3),
        "ks": round(ks, 4),
        "ks_critical95": round(critical, 4),
        "agree": abs(ma - mb) <= half and ks <= critical,
    }
    return {
        "games": {"batch": len(batch), "referee": len(referee)},
        "outcomes": rates,
        "turns": lengths,
        "agree": all(r["agree"] for r in rates.values()) and lengths["agree"],
    }


MATCHUPS = (
    ("sopwith-camel", "albatros-d5a"),
    ("spad-xiii", "fokker-dr1"),
    ("bristol-f2b", "fokker-d7"),
)
"""Three duels: two single-seaters of different decks, a fast plane against a
triplane, and a two-seater (rear gun) against a single-seater."""
WW2_MATCHUP = ("spitfire-mk1", "bf-109e")
"""The WW2 duel under the ``ww2`` ruleset (speed markers, counters, 000's special
damage): a Spitfire Mk.I (deck B) against a Bf.109E (deck A, cannon)."""


def matchup(
    catalog: Catalog,
    first: str,
    second: str,
    batch_games: int,
    referee_games: int,
    seed: int = 0,
    max_turns: int = 30,
    bot: str = "random",
    ruleset: str = "wog",
) -> dict[str, Any]:
    """The same duel (:func:`dogfight.sim.duel.duel_situation`) under ``ruleset`` played
    by both engines with the same bot on both sides, compared."""
    from dogfight.sim.duel import duel_situation

    situation = duel_situation(first, second).model_copy(update={"ruleset": ruleset})
    out = _both(catalog, situation, batch_games, referee_games, seed, max_turns, bot)
    out["matchup"] = f"{first} vs {second}" + ("" if ruleset == "wog" else f" ({ruleset})")
    return out


TRIPOD_MATCHUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("mk1-locust", ("sopwith-camel", "spad-xiii")),
    ("mk2-scarab", ("bristol-f2b", "sopwith-camel")),
    ("mk3-squid", ("nieuport-17", "albatros-d5a", "spad-xiii")),
)
"""The statistical test's tripods against airplanes: First Contact's Locust against two
fighters, the heavily armoured Scarab against a two-seater and a fighter, the Squid
(front and rear projectors) against three airplanes."""


def tripod_matchup(
    catalog: Catalog,
    tripod: str,
    planes: Sequence[str],
    batch_games: int,
    referee_games: int,
    seed: int = 0,
    max_turns: int = 30,
) -> dict[str, Any]:
    """One tripod against airplanes (:func:`dogfight.sim.duel.tripod_situation`, 000's
    basic rules) played by both engines with the random bot on both sides, compared."""
    from dogfight.sim.duel import tripod_situation

    situation = tripod_situation(tripod, planes)
    out = _both(catalog, situation, batch_games, referee_games, seed, max_turns, "random")
    out["matchup"] = f"{tripod} vs {', '.join(planes)}"
    return out


def scenario_matchup(
    catalog: Catalog,
    scenario: str,
    batch_games: int,
    referee_games: int,
    seed: int = 0,
    max_turns: int = 30,
    bots: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A scenario named without a situation file (*First Contact*) played by both
    engines with the random bot on both sides (or ``bots``, side -> bot, the same name
    in both engines), each game from a setup drawn as ``simulate`` draws it, compared."""
    from dogfight.situation.scenarios import scenario_situation

    situation = scenario_situation(catalog, scenario)
    sides = {s.name for s in catalog.scenario(scenario, "scenario").sides}
    chosen = {side: (bots or {}).get(side, "random") for side in sorted(sides)}
    out = _both(catalog, situation, batch_games, referee_games, seed, max_turns, "random", chosen)
    out["matchup"] = f"scenario {scenario}" + (
        "" if bots is None else " (" + ", ".join(f"{k}={v}" for k, v in chosen.items()) + ")"
    )
    return out


def _both(
    catalog: Catalog,
    situation: Situation,
    batch_games: int,
    referee_games: int,
    seed: int,
    max_turns: int,
    bot: str,
    bots: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The situation played by both engines, ``bot`` on every side (or ``bots``: a
    scenario's sides, its setups varied), compared."""
    from dogfight.batch.bridge import from_states
    from dogfight.batch.run import play, template_of
    from dogfight.sim.run import play_games
    from dogfight.situation.format import build

    vary = bots is not None
    if bots is None:
        bots = {v.side: bot for v in situation.vehicles if v.side is not None}
        template = from_states([build(situation, catalog, seed)])
    else:
        data = situation.model_dump(mode="json", exclude_defaults=True)
        template = template_of(data, None, True, seed)
    ours = play(template, bots, batch_games, seed, max_turns)
    theirs = play_games(
        situation,
        catalog,
        bots,
        seed,
        list(range(referee_games)),
        referee_games,
        max_turns,
        vary,
    )
    return compare(ours, theirs)

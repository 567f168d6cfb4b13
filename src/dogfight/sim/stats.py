"""Summaries of many bot games: win rates with Wilson 95% intervals, game length, damage
dealt by weapon, and the CSV/JSON files ``dogfight simulate`` writes."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections.abc import Sequence
from typing import Any

from dogfight.rules.match_series import standing
from dogfight.sim.run import GameResult

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 1 when there are no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _spread(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0}
    return {
        "mean": round(statistics.fmean(values), 4),
        "median": float(statistics.median(values)),
        "min": float(min(values)),
        "max": float(max(values)),
    }


def weapon_of(source: str) -> str:
    """The weapon named by a damage source: ``"camel front"`` -> ``front``; sources that
    name no firer (``fire``, ``illegal maneuver``, ``black smoke``) stay whole."""
    parts = source.rsplit(" ", 1)
    if len(parts) == 2 and parts[1] in ("front", "rear", "heat-ray", "rockets"):
        return parts[1]
    return source


def summarize(results: Sequence[GameResult], sides: Sequence[str]) -> dict[str, Any]:
    """Win rates per side (and draws, games stopped by the turn cap, games stopped because
    some vehicle had no legal plan) with Wilson 95% intervals; turns and phases per game;
    damage points by source and by weapon."""
    n = len(results)
    outcomes: dict[str, int] = {side: 0 for side in sides}
    draws = capped = stopped = 0
    for r in results:
        if r.stopped is not None:
            stopped += 1
        elif not r.over:
            capped += 1
        elif r.winner is None:
            draws += 1
        else:
            outcomes[r.winner] = outcomes.get(r.winner, 0) + 1

    def rate(count: int) -> dict[str, Any]:
        low, high = wilson(count, n)
        return {
            "count": count,
            "rate": round(count / n, 4) if n else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
        }

    by_source: dict[str, int] = {}
    by_weapon: dict[str, int] = {}
    for r in results:
        for source, points in r.damage.items():
            by_source[source] = by_source.get(source, 0) + points
            weapon = weapon_of(source)
            by_weapon[weapon] = by_weapon.get(weapon, 0) + points
    eliminations: dict[str, int] = {}
    for r in results:
        for reason in r.eliminated.values():
            eliminations[reason] = eliminations.get(reason, 0) + 1
    return {
        "games": n,
        "wins": {side: rate(count) for side, count in sorted(outcomes.items())},
        "draws": rate(draws),
        "turn_capped": rate(capped),
        "stopped": rate(stopped),
        "turns": _spread([float(r.turns) for r in results]),
        "phases": _spread([float(r.phases) for r in results]),
        "damage_by_source": {
            s: {"total": t, "per_game": round(t / n, 4) if n else 0.0}
            for s, t in sorted(by_source.items())
        },
        "damage_by_weapon": {
            w: {"total": t, "per_game": round(t / n, 4) if n else 0.0}
            for w, t in sorted(by_weapon.items())
        },
        "eliminations": dict(sorted(eliminations.items())),
        "refused_plans": sum(r.refused for r in results),
        "match_points": match_points(results, sides),
        "missions": missions_done(results),
    }


def match_points(results: Sequence[GameResult], sides: Sequence[str]) -> dict[str, Any]:
    """The games as a match series (:mod:`dogfight.rules.match_series`): each side's points totalled
    across the games, per game, and the side ahead (None: level)."""
    n = len(results)
    series = standing(sides, (r.points for r in sorted(results, key=lambda r: r.index)))
    return {
        "totals": series.totals,
        "per_game": {s: round(t / n, 4) if n else 0.0 for s, t in series.totals.items()},
        "leader": series.leader,
    }


def missions_done(results: Sequence[GameResult]) -> dict[str, int]:
    """How many games each mission succeeded in."""
    out: dict[str, int] = {}
    for r in results:
        for mission in r.missions:
            out[mission] = out.get(mission, 0) + 1
    return dict(sorted(out.items()))


CSV_FIELDS = ("game", "seed", "winner", "over", "turns", "phases", "refused", "stopped")


def games_csv(results: Sequence[GameResult]) -> str:
    """One row per game; a ``damage:<source>`` column per damage source seen, an
    ``out:<vehicle>`` column per vehicle eliminated in some game, and each side's match
    points (``points:<side>``) with their running total over the series (``total:<side>``)."""
    sources = sorted({s for r in results for s in r.damage})
    vehicles = sorted({v for r in results for v in r.eliminated})
    ordered = sorted(results, key=lambda r: r.index)
    sides = sorted({s for r in results for s in r.points})
    series = standing(sides, (r.points for r in ordered))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            *CSV_FIELDS,
            *(f"damage:{s}" for s in sources),
            *(f"out:{v}" for v in vehicles),
            *(f"points:{s}" for s in sides),
            *(f"total:{s}" for s in sides),
        ]
    )
    for r, (_, running) in zip(ordered, series.rows, strict=True):
        writer.writerow(
            [
                r.index,
                r.seed,
                r.winner or "",
                int(r.over),
                r.turns,
                r.phases,
                r.refused,
                r.stopped or "",
                *(r.damage.get(s, 0) for s in sources),
                *(r.eliminated.get(v, "") for v in vehicles),
                *(r.points.get(side, 0) for side in sides),
                *(running[side] for side in sides),
            ]
        )
    return buffer.getvalue()


def results_json(config: dict[str, Any], summary: dict[str, Any]) -> str:
    return json.dumps({"config": config, "summary": summary}, indent=2, sort_keys=False) + "\n"

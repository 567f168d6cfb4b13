"""Time the computer players: the hard and learned airplane bots' decisions, whole
bot-vs-bot games of *A Spark of Hope* on two worker processes, and the learned bot's
figures (``dogfight bench --bots``): its win rate against the hard bot in referee duels,
its decision time, batched duels per CPU-second."""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

import numpy as np

from dogfight.batch.compare import MATCHUPS, WW2_MATCHUP
from dogfight.bots.base import make
from dogfight.catalog.loader import Catalog
from dogfight.rules.chance import step_rng
from dogfight.rules.engine import resolve_phase, start_turn
from dogfight.rules.observation import observe, side_seat
from dogfight.sim.duel import duel_situation
from dogfight.sim.parallel import RunSpec, run_local
from dogfight.sim.stats import wilson
from dogfight.situation.format import build
from dogfight.situation.scenarios import scenario_situation


def hard_bot_decision_median_ms(catalog: Catalog, quick: bool = False) -> float:
    """Median time of the ``hard`` bot's plan_turn (see :func:`decision_median_ms`)."""
    return decision_median_ms(catalog, "hard", quick)


def decision_median_ms(catalog: Catalog, bot: str, quick: bool = False) -> float:
    """Median time of ``bot``'s plan_turn (one airplane against one) at the start of
    every turn of seeded duels against the ``random`` bot."""
    samples = 15 if quick else 80
    times: list[float] = []
    game = 0
    while len(times) < samples:
        state = build(duel_situation(), catalog, game)
        hard, other = make(bot), make("random")
        rng = np.random.default_rng(game)
        while not state.over and state.turn <= 10 and len(times) < samples:
            allies, central = side_seat(state, "allies"), side_seat(state, "central")
            seen = observe(state, allies)
            began = time.process_time()
            mine = hard.plan_turn(seen, state.rules, allies, rng)
            times.append(time.process_time() - began)
            theirs = other.plan_turn(observe(state, central), state.rules, central, rng)
            state, _ = start_turn(state, {**mine, **theirs})
            while not state.over:
                state, _ = resolve_phase(state, step_rng(game, state.turn, state.phase + 1))
                if state.phase == 0:
                    break
        game += 1
    return round(statistics.median(times) * 1000.0, 2)


def spark_of_hope_games_per_second(
    catalog: Catalog, quick: bool = False, workers: int = 2
) -> float:
    """Whole games of *A Spark of Hope* (hard Earth pilot against the Martian bot, setup
    redrawn per game) per second of wall time on ``workers`` processes, start-up
    included."""
    games = 8 if quick else 40
    situation = scenario_situation(catalog, "a-spark-of-hope")
    spec = RunSpec(
        situation=situation.model_dump(mode="json", exclude_defaults=True),
        bots={"earth": "hard", "martians": "martian"},
        seed=0,
        games=games,
        vary=True,
        data=catalog.folders[1] if len(catalog.folders) > 1 else None,
    )
    began = time.process_time()
    run_local(spec, workers)
    return round(games / (time.process_time() - began), 2)


def learned_against(
    catalog: Catalog,
    games: int,
    first: str = "sopwith-camel",
    second: str = "albatros-d5a",
    ruleset: str = "wog",
    opponent: str = "hard",
    workers: int = 2,
) -> dict[str, Any]:
    """The learned bot against ``opponent`` in ``games`` referee duels of ``first``
    (allies) against ``second`` as each side, and ``opponent`` against itself from the
    same seats and seeds (how much the airplanes alone decide): the share of the decided
    games each won, with the 95% (Wilson) interval."""
    from dogfight.learned.duels import Record, against, workers_pool
    from dogfight.learned.weights import current

    def shares(records: dict[str, Record]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        both = records["allies"] + records["central"]
        for side, r in [*records.items(), ("both_sides", both)]:
            low, high = wilson(r.wins, r.decided)
            out[side] = {
                "wins": r.wins,
                "decided": r.decided,
                "share": round(r.wins / max(1, r.decided), 4),
                "ci95": [round(low, 4), round(high, 4)],
            }
        return out

    matchup = (first, second)
    with workers_pool(workers) as pool:
        learned = against(catalog, current(), games, 1, opponent, matchup, ruleset, pool)
        alike = against(catalog, opponent, games, 1, opponent, matchup, ruleset, pool)
    return {
        "matchup": f"{first} vs {second} ({ruleset})",
        "games": games,
        **shares(learned),
        f"{opponent}_against_itself": shares(alike),
    }


def batched_duels_per_cpu_second(catalog: Catalog, bot: str, games: int) -> float:
    """Complete batched duels (Camel against Albatros) per CPU-second with ``bot`` on
    both sides."""
    from dogfight.batch.bridge import from_states
    from dogfight.batch.run import play

    template = from_states([build(duel_situation(), catalog, 0)])
    began = time.process_time()
    play(template, {"allies": bot, "central": bot}, games, 0)
    return round(games / (time.process_time() - began), 1)


OTHER_MATCHUPS = (
    ("spad-xiii", "fokker-dr1", "wog"),
    ("bristol-f2b", "fokker-d7", "wog"),
    ("bristol-f2b", "fokker-d7", "wow"),
    ("sopwith-camel", "albatros-d5a", "wow-basic"),
)
"""The statistical tests' other airplane matchups (``dogfight.batch.compare.MATCHUPS``
under ``wog``, and the ``wow`` and ``wow-basic`` ones of ``tests/test_batch_sim.py``):
every one but the ``duel``'s Camel and Albatros under ``wog``."""


def learned_figures(catalog: Catalog, quick: bool = False) -> dict[str, Any]:
    """``dogfight bench --bots``: the learned bot against the hard bot in referee duels
    (``duel`` as each side, 2,000 games; the four other matchups and the WW2 duel; beside
    each, the hard bot against itself from the same seats), its decision time and
    the hard bot's, batched duels per CPU-second with learned or easy bots on both sides;
    the machine's load average beside them."""
    from dogfight.learned.weights import current

    weights = current()
    games = 20 if quick else 2000
    others = 10 if quick else 500
    out: dict[str, Any] = {
        "weights": weights.source,
        "recipe": weights.recipe.model_dump() if weights.recipe else None,
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "learned_decision_median_ms": decision_median_ms(catalog, "learned", quick),
        # the planner the learned bot runs from both seats (docs/architecture.md)
        "hard_decision_median_ms": hard_bot_decision_median_ms(catalog, quick),
        "targets": {
            "duel_share": 0.65,
            "duel_ci_low": 0.60,
            "decision_median_ms": 2.0,
            "batched_duels_per_cpu_second": 2000,
        },
    }
    out["duel"] = learned_against(catalog, games)
    out["other_matchups"] = [
        learned_against(catalog, others, first, second, ruleset)
        for first, second, ruleset in OTHER_MATCHUPS
    ]
    # no target: the learned bot's prediction on WW2 airplanes (docs/ww2.md, "Playing")
    out["ww2"] = learned_against(catalog, others, *WW2_MATCHUP, "ww2")
    batched = 64 if quick else 4000
    out["batched_duels_per_cpu_second"] = {
        # the batch plays the learned bot through the referee's, table by table
        "learned": batched_duels_per_cpu_second(catalog, "learned", batched // 16),
        "easy": batched_duels_per_cpu_second(catalog, "easy", batched),
    }
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out["verdicts"] = verdicts(out)
    return out


def _met(share: dict[str, Any], targets: dict[str, Any]) -> bool:
    return bool(
        share["share"] >= targets["duel_share"] and share["ci95"][0] >= targets["duel_ci_low"]
    )


def verdicts(figures: dict[str, Any]) -> dict[str, Any]:
    """Each target of issue 33 met or not, read from ``figures``: the duel as each side;
    the statistical test's three airplane matchups (:data:`dogfight.batch.compare.
    MATCHUPS` under ``wog``, the ``duel``'s Camel and Albatros first: both seats together,
    at least two of the three); the decision time; the batched duels per CPU-second
    with learned or easy bots (the better of the two)."""
    targets = figures["targets"]
    duel = figures["duel"]
    matchups = [("sopwith-camel vs albatros-d5a (wog)", duel["both_sides"])]
    for first, second in MATCHUPS[1:]:
        name = f"{first} vs {second} (wog)"
        found = [m for m in figures["other_matchups"] if m["matchup"] == name]
        matchups.append((name, found[0]["both_sides"]))
    tested = [
        {"matchup": name, "share": s["share"], "ci95": s["ci95"], "met": _met(s, targets)}
        for name, s in matchups
    ]
    batched = figures["batched_duels_per_cpu_second"]
    return {
        "duel_allies": _met(duel["allies"], targets),
        "duel_central": _met(duel["central"], targets),
        "statistical_test_matchups": tested,
        "statistical_test_matchups_met": sum(t["met"] for t in tested) >= 2,
        "decision_median_ms": figures["learned_decision_median_ms"]
        <= targets["decision_median_ms"],
        "batched_duels_per_cpu_second": max(batched.values())
        >= targets["batched_duels_per_cpu_second"],
    }

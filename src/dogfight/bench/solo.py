"""Time the Automated Tripod (001): its decisions over seeded solo games."""

from __future__ import annotations

import statistics

from dogfight.catalog.loader import Catalog, load_catalog
from dogfight.sim.solo import SOLO_SCENARIOS, play_solo


def decision_times_ms(catalog: Catalog, games: int, seed: int = 0) -> list[float]:
    """Milliseconds taken by each automated-tripod decision (in one phase: the card and
    token at the start of the movement step plus the firing decision after it) over
    ``games`` seeded solo games, alternating *A Lonely Invader* and *Down from the Alps*."""
    times: list[float] = []
    for i in range(games):
        scenario = SOLO_SCENARIOS[i % len(SOLO_SCENARIOS)]
        times.extend(play_solo(catalog, scenario, seed + i, max_turns=20).decision_ms)
    return times


def decision_median_ms(quick: bool = False, catalog: Catalog | None = None) -> float:
    """The median time of an automated-tripod decision, in milliseconds (target: 5)."""
    times = decision_times_ms(catalog or load_catalog(), 4 if quick else 24)
    return round(statistics.median(times), 3)

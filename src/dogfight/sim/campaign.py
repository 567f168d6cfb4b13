"""Whole campaigns between bots: every mission an ordinary bot game (:func:`play_game`),
its result written back to the campaign, until the campaign ends.

Each mission's game is seeded from the campaign's seed and the mission's number
(:func:`~dogfight.campaign.record.mission_seed`, as ``dogfight campaign next`` does), so a
campaign replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dogfight.campaign.missions import prepare, result_of
from dogfight.campaign.record import Campaign, apply_result, mission_seed, start
from dogfight.campaign.spec import CampaignSpec
from dogfight.catalog.loader import Catalog
from dogfight.rules.events import Event
from dogfight.sim.run import MAX_TURNS, play_game
from dogfight.sim.stats import wilson
from dogfight.situation.format import build


def play_campaign(
    spec: CampaignSpec,
    catalog: Catalog,
    seed: int,
    bots: Mapping[str, str] | None = None,
    max_turns: int = MAX_TURNS,
) -> Campaign:
    """Play one campaign to its end; ``bots`` maps campaign sides to bot names (sides not
    named get the default bot of each mission's table)."""
    campaign = start(spec, seed)
    while not campaign.over:
        assert campaign.current is not None
        mission = spec.mission(campaign.current)
        campaign, situation = prepare(spec, campaign, catalog)
        initial = build(situation, catalog, 0)
        sides = {v.id: v.side for v in (*initial.vehicles.values(), *initial.reserves.values())}
        chosen = {
            side: (bots or {})[spec.campaign_side(mission, side)]
            for side in set(sides.values())
            if spec.campaign_side(mission, side) in (bots or {})
        }
        events: list[Event] = []
        game = play_game(
            situation,
            catalog,
            chosen,
            np.random.SeedSequence(mission_seed(seed, campaign.number)),
            campaign.number,
            max_turns,
            events_out=events,
        )
        result = result_of(spec, campaign, events, game.winner, sides, game=f"seed {game.seed}")
        campaign = apply_result(spec, campaign, result)
    return campaign


@dataclass(frozen=True)
class CampaignSummary:
    """What many simulated campaigns say: who wins the campaign, how long it lasts and how
    long pilots survive."""

    campaigns: int
    wins: dict[str, dict[str, Any]]
    draws: dict[str, Any]
    missions: float
    """Mean missions per campaign."""
    pilots: dict[str, dict[str, float]]
    """Per side: pilots who flew, share killed or captured, mean missions flown, mean
    victories."""

    def to_json(self) -> dict[str, Any]:
        return {
            "campaigns": self.campaigns,
            "wins": self.wins,
            "draws": self.draws,
            "missions": self.missions,
            "pilots": self.pilots,
        }


def summarize_campaigns(spec: CampaignSpec, played: list[Campaign]) -> CampaignSummary:
    n = len(played)

    def share(count: int) -> dict[str, Any]:
        low, high = wilson(count, n)
        return {"count": count, "rate": count / n if n else 0.0, "ci95": [low, high]}

    wins = {side: share(sum(1 for c in played if c.winner == side)) for side in spec.sides}
    draws = share(sum(1 for c in played if c.winner is None))
    pilots: dict[str, dict[str, float]] = {}
    for side in spec.sides:
        flown = [p for c in played for p in c.pilots if p.side == side and p.missions]
        lost = [p for p in flown if p.status in ("killed", "captured")]
        pilots[side] = {
            "pilots": float(len(flown)),
            "lost_rate": len(lost) / len(flown) if flown else 0.0,
            "missions_mean": sum(p.missions for p in flown) / len(flown) if flown else 0.0,
            "missions_before_loss": (sum(p.missions for p in lost) / len(lost) if lost else 0.0),
            "victories_mean": sum(p.victories for p in flown) / len(flown) if flown else 0.0,
            "aces": float(sum(1 for p in flown if p.ace)),
        }
    missions = sum(len(c.history) for c in played) / n if n else 0.0
    return CampaignSummary(n, wins, draws, missions, pilots)

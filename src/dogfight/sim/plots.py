"""PNG charts of a simulation run (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from dogfight.sim.run import GameResult


def win_rates_png(summary: dict[str, Any], path: str | Path, title: str = "") -> None:
    """Bars of each side's win rate (and draws, turn-capped games) with 95% intervals."""
    labels: list[str] = []
    rates: list[float] = []
    low: list[float] = []
    high: list[float] = []
    rows = [(side, data) for side, data in summary["wins"].items()]
    rows += [("draw", summary["draws"]), ("turn cap", summary["turn_capped"])]
    for label, data in rows:
        labels.append(label)
        rates.append(data["rate"])
        low.append(max(0.0, data["rate"] - data["ci95"][0]))
        high.append(max(0.0, data["ci95"][1] - data["rate"]))
    fig, ax = plt.subplots(figsize=(6.0, 3.6), dpi=100)
    try:
        colours = ["#3b6ea5", "#b5473a", "#8a8a8a", "#c9a227", "#5b8c5a", "#7d5ba6"]
        ax.bar(
            labels,
            rates,
            yerr=[low, high],
            capsize=6,
            color=[colours[i % len(colours)] for i in range(len(labels))],
        )
        ax.set_ylim(0.0, 1.0)
        ax.set_ylabel("share of games")
        ax.set_title(title or f"Win rates over {summary['games']} games (95% Wilson intervals)")
        for i, rate in enumerate(rates):
            ax.text(i, min(0.95, rate + 0.03), f"{rate:.0%}", ha="center", fontsize=9)
        fig.tight_layout()
        fig.savefig(str(path), format="png")
    finally:
        plt.close(fig)


def lengths_png(results: Sequence[GameResult], path: str | Path, title: str = "") -> None:
    """A histogram of game lengths in turns, stacked by outcome."""
    outcomes = sorted({_outcome(r) for r in results})
    longest = max((r.turns for r in results), default=1)
    bins = list(range(1, longest + 2))
    fig, ax = plt.subplots(figsize=(6.0, 3.6), dpi=100)
    try:
        data = [[r.turns for r in results if _outcome(r) == o] for o in outcomes]
        if results:
            ax.hist(data, bins=bins, stacked=True, label=outcomes, align="left", rwidth=0.85)
            ax.legend(fontsize=8)
        ax.set_xlabel("turns")
        ax.set_ylabel("games")
        ax.set_title(title or f"Game length over {len(results)} games")
        fig.tight_layout()
        fig.savefig(str(path), format="png")
    finally:
        plt.close(fig)


def _outcome(result: GameResult) -> str:
    if not result.over:
        return "turn cap"
    return result.winner or "draw"

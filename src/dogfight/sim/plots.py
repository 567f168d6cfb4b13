"""PNG charts of a simulation run (matplotlib, Agg backend: no display needed).

Every chart names what was simulated (the scenario and the bots of each side) in its
title; a side has one colour across all charts (draws and turn-capped games too); the
percentages above the bars never sit on an error bar; the turn axis has whole turns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator

from dogfight.sim.run import GameResult

SIDE_COLOURS = ("#3b6ea5", "#b5473a", "#5b8c5a", "#7d5ba6", "#c77700", "#00838f")
"""The sides' colours, given in the order of their sorted names."""
DRAW = "#8a8a8a"
TURN_CAP = "#c9a227"


def outcome_colours(sides: Sequence[str]) -> dict[str, str]:
    """One colour per outcome: each side (sorted by name), ``draw`` and ``turn cap``."""
    out = {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sorted(sides))}
    out["draw"] = DRAW
    out["turn cap"] = TURN_CAP
    return out


def subject(table: str, bots: Mapping[str, str]) -> str:
    """What a run simulated, for chart titles: the scenario and each side's bot."""
    return f"{table} — " + ", ".join(f"{side}: {bot}" for side, bot in sorted(bots.items()))


def label_spot(rate: float, high: float, top: float = 1.0) -> tuple[float, str]:
    """Where a bar's percentage goes: above the upper end of its error bar (``rate +
    high``) or, when that would leave the axes, inside the bar just under its top (the
    caller sets it left of the error bar's line there). Returns (y, "above"|"inside")."""
    above = rate + high + 0.02
    if above + 0.06 <= top:
        return above, "above"
    return max(0.02, rate - 0.08), "inside"


def win_rates_png(
    summary: dict[str, Any], path: str | Path, title: str = "", what: str = ""
) -> None:
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
    colours = outcome_colours(list(summary["wins"]))
    fig, ax = plt.subplots(figsize=(6.4, 3.9), dpi=100)
    try:
        ax.bar(
            labels,
            rates,
            yerr=[low, high],
            capsize=6,
            color=[colours[label] for label in labels],
        )
        ax.set_ylim(0.0, 1.0)
        ax.set_ylabel("share of games")
        heading = title or f"Win rates over {summary['games']} games (95% Wilson intervals)"
        ax.set_title(f"{what}\n{heading}" if what else heading, fontsize=10)
        for i, rate in enumerate(rates):
            y, where = label_spot(rate, high[i])
            if where == "above":
                ax.text(i, y, f"{rate:.0%}", ha="center", va="bottom", fontsize=9)
            else:
                # inside the bar, left of the error bar's line through its centre
                ax.text(i - 0.2, y, f"{rate:.0%}", ha="right", fontsize=9, color="white")
        fig.tight_layout()
        fig.savefig(str(path), format="png")
    finally:
        plt.close(fig)


def lengths_png(
    results: Sequence[GameResult],
    path: str | Path,
    title: str = "",
    what: str = "",
    sides: Sequence[str] = (),
) -> None:
    """A histogram of game lengths in whole turns, stacked by outcome."""
    outcomes = sorted({_outcome(r) for r in results})
    colours = outcome_colours(list(sides) or [o for o in outcomes if o not in ("draw", "turn cap")])
    longest = max((r.turns for r in results), default=1)
    bins = list(range(1, longest + 2))
    fig, ax = plt.subplots(figsize=(6.4, 3.9), dpi=100)
    try:
        data = [[r.turns for r in results if _outcome(r) == o] for o in outcomes]
        if results:
            ax.hist(
                data,
                bins=bins,
                stacked=True,
                label=outcomes,
                align="left",
                rwidth=0.85,
                color=[colours.get(o, DRAW) for o in outcomes],
            )
            ax.legend(fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("turns")
        ax.set_ylabel("games")
        heading = title or f"Game length over {len(results)} games"
        ax.set_title(f"{what}\n{heading}" if what else heading, fontsize=10)
        fig.tight_layout()
        fig.savefig(str(path), format="png")
    finally:
        plt.close(fig)


def _outcome(result: GameResult) -> str:
    if not result.over:
        return "turn cap"
    return result.winner or "draw"

"""``dogfight bench --bots`` prints the hard bot's decision time beside the learned bot's."""

from __future__ import annotations

from typing import Any

import pytest

from dogfight.bench import bots
from dogfight.catalog.loader import load_catalog


def test_the_bots_figures_hold_both_decision_medians(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both medians come from the same measure (the bot named), with the hard bot's target
    of 1 ms beside the learned bot's 2 ms; the games are stubbed here (they take minutes)."""
    timed: list[str] = []

    def median(catalog: Any, bot: str, quick: bool = False) -> float:
        timed.append(bot)
        return 1.5

    monkeypatch.setattr(bots, "decision_median_ms", median)
    monkeypatch.setattr(bots, "learned_against", lambda *a, **k: {})
    monkeypatch.setattr(bots, "batched_duels_per_cpu_second", lambda *a, **k: 0.0)
    out = bots.learned_figures(load_catalog(), quick=True)
    assert sorted(timed) == ["hard", "learned"]
    assert out["hard_decision_median_ms"] == out["learned_decision_median_ms"] == 1.5
    assert "hard_decision_median_ms" not in out["targets"]  # the issue sets none for hard
    assert out["targets"]["decision_median_ms"] == 2.0

"""Simulation charts (``dogfight.sim.plots``): named for what was simulated, one colour
per side in every chart, percentages off the error bars, whole turns."""

from __future__ import annotations

from pathlib import Path

from dogfight.sim.plots import label_spot, outcome_colours, subject, win_rates_png


def test_a_side_keeps_its_colour_whatever_else_is_drawn() -> None:
    one = outcome_colours(["central", "allies"])
    two = outcome_colours(["allies", "central"])
    assert one == two
    assert len({one["allies"], one["central"], one["draw"], one["turn cap"]}) == 4


def test_the_title_names_the_scenario_and_the_bots() -> None:
    assert subject("A Lonely Invader", {"martians": "automated-tripod", "earth": "hard"}) == (
        "A Lonely Invader — earth: hard, martians: automated-tripod"
    )


def test_a_percentage_never_sits_on_its_error_bar() -> None:
    y, where = label_spot(0.4, 0.1)
    assert where == "above" and y > 0.5
    # no room above the error bar: inside the bar, below its top
    y, where = label_spot(0.9, 0.06)
    assert where == "inside" and y < 0.9


def test_the_win_rate_chart_is_written(tmp_path: Path) -> None:
    summary = {
        "games": 10,
        "wins": {"allies": {"rate": 0.6, "ci95": [0.3, 0.85]}},
        "draws": {"rate": 0.3, "ci95": [0.1, 0.6]},
        "turn_capped": {"rate": 0.1, "ci95": [0.02, 0.4]},
    }
    win_rates_png(summary, tmp_path / "w.png", what="duel — allies: hard, central: easy")
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"

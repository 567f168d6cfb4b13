"""``dogfight bench --server --open N --active M`` (issue 32, item 6): many open games on
two processes sharing a throwaway PostgreSQL, a few played live, the others waiting a
day and visited now and then. The quick variant runs here: every field the docs need is
reported, nothing is refused or lost. No timing is asserted (the figures are the
benchmark's: ``docs/deploy.md``)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dogfight.bench.open_games import capacity
from dogfight.bench.pgcluster import _bin_dir
from dogfight.cli.app import app

needs_postgres = pytest.mark.skipif(_bin_dir() is None, reason="needs PostgreSQL")


@needs_postgres
def test_the_quick_open_games_run_reports_every_figure_and_no_error() -> None:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "--server",
            "--quick",
            "--open",
            "120",
            "--active",
            "8",
            "--processes",
            "2",
            "--seconds",
            "4",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["errors"] == 0, report["first_errors"]
    assert report["scenario"]["waiting_games"] == 112
    assert report["scenario"]["think_time_s"] == [0.2, 2.0]  # --quick's pace
    assert report["scenario"]["database"] == "postgresql (throwaway cluster)"
    # the waiting games were made, through the route
    assert report["making"]["games"] == 112 and report["making"]["games_per_s"] > 0
    # the active games played in both measured phases
    for phase in ("alone", "open"):
        latency = report["latency_ms"][phase]
        assert latency["turns"] > 0 and latency["p99"] >= latency["p50"] > 0
    # the idle players came back: 5 a second for 4 seconds, two requests each, all served
    assert report["idle_players"]["visits"] == 20
    assert report["idle_players"]["requests_served"] == 40
    visit = report["idle_players"]["cost"]
    assert visit["visits"] == 112 and visit["requests_served"] == 224
    assert visit["servers_ms_per_visit"] > 0 and visit["database_ms_per_visit"] > 0
    # each server's memory with the active games alone and with every game open
    assert len(report["server_memory_mb"]) == 2
    for memory in report["server_memory_mb"]:
        for phase in ("alone", "open"):
            assert memory[phase]["rss_mb"] > memory[phase]["uss_mb"] > 0
    for kind in ("rss", "uss"):
        assert all(r > 0 for r in report["memory_ratio"][kind])
    assert report["load_average"]["max_1_min"] is not None
    assert set(report["load_average"]["samples"]) == {"ramp", "alone", "making", "open"}
    # the turns' CPU time, measured by a burst, and the capacity made from it
    cost = report["turn_cost"]
    assert cost["errors"] == 0 and cost["turns_measured"] > 0
    assert cost["servers_ms_per_turn_played"] > 0 and cost["database_ms_per_turn_played"] > 0
    table = report["capacity"]
    assert table["servers_cpu_ms_per_turn"] == cost["servers_ms_per_turn_played"]
    assert table["live_servers_cpu_ms_per_turn"] == report["cpu_s"]["alone"]["servers_ms_per_turn"]
    assert set(table["processes_needed"]) == {"100", "500", "2000", "10000"}
    assert table["memory_per_open_game_kb"]["database"] > 0
    assert report["targets"] == {"latency_p99_ms": 300.0, "memory_ratio": 1.5, "errors": 0}
    assert report["meets_targets"]["errors"] is True


def test_the_capacity_follows_from_the_cpu_time_of_a_turn() -> None:
    """4 ms a turn: 250 turns a second on a core; at half a core, a turn every 10 s,
    1,250 games a process; 10,000 such games need 8 processes; the database apart."""
    table = capacity(4.0, 1.0, 6.0, 2.5, 30.0)
    assert table["turns_per_s_per_core"] == {"server_process": 250.0, "with_its_database": 200.0}
    assert table["active_games_per_process"]["a turn every 10 s"] == 1250
    assert table["active_games_per_process"]["a turn every 30 s"] == 3750
    assert table["processes_needed"]["10000"]["a turn every 10 s"] == 8
    assert table["processes_needed"]["2000"]["a turn every 10 s"] == 2
    assert table["processes_needed"]["100"]["a turn a day"] == 1
    assert table["database_cores_needed"]["10000"]["a turn every 10 s"] == 2.0
    assert table["memory_per_open_game_kb"] == {"server": 2.5, "database": 30.0}
    assert table["processes_needed_at_live_cost"] is None
    # live play's CPU time per turn (8 ms here), when the run measured it: twice the processes
    live = capacity(4.0, 1.0, 6.0, 2.5, 30.0, 8.0)["processes_needed_at_live_cost"]
    assert live["10000"]["a turn every 10 s"] == 16
    assert live["100"]["a turn every 30 s"] == 1


@pytest.mark.parametrize("given", ["5", "3,1", "a,b", "-1,2", "1,2,3", "0,601"])
def test_a_bad_thinking_time_is_refused_before_anything_starts(given: str) -> None:
    """``--think MIN,MAX``: two seconds, 0 ≤ MIN ≤ MAX ≤ 600; anything else one message
    and exit 2, no server or cluster started."""
    result = CliRunner().invoke(app, ["bench", "--server", "--open", "10", "--think", given])
    assert result.exit_code == 2
    assert "--think" in result.output and "MIN,MAX" in result.output
    assert "Traceback" not in result.output

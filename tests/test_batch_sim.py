"""The batched simulator where users meet it: ``dogfight simulate --engine batch`` (the
same files as the other engines, refusals naming what the batch does not play), and
batched games that are statistically the referee's games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_simulate import EXAMPLES, _outputs, dogfight

from dogfight.batch.compare import MATCHUPS, WW2_MATCHUP, compare, ks_distance, matchup
from dogfight.batch.run import play_chunk
from dogfight.catalog.loader import Catalog
from dogfight.sim.parallel import RunSpec, run
from dogfight.sim.run import GameResult


def test_simulate_with_the_batch_engine_writes_the_same_files(tmp_path: Path) -> None:
    out = tmp_path / "duel"
    args = ["simulate", str(EXAMPLES / "duel.json"), "--engine", "batch", "--games", "300"]
    result = dogfight(*args, "--bots", "random", "--workers", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = _outputs(out)
    assert data["config"]["engine"] == "batch"
    summary = data["summary"]
    assert summary["games"] == 300
    total = sum(w["count"] for w in summary["wins"].values())
    assert total + summary["draws"]["count"] + summary["turn_capped"]["count"] == 300
    assert "300/300" in result.stderr


def test_batch_runs_do_not_depend_on_workers() -> None:
    spec = RunSpec(
        situation=json.loads((EXAMPLES / "duel.json").read_text()),
        bots={"allies": "random", "central": "random"},
        seed=4,
        games=40,
        max_turns=8,
    )
    one = run(spec, workers=1, per_task=4096, player=play_chunk)
    assert one == run(spec, workers=2, per_task=4096, player=play_chunk)
    assert [g["index"] for g in one] == list(range(40))


@pytest.mark.parametrize(
    "args,needle",
    [
        (["a-spark-of-hope"], "rockets"),
        (["wings-over-the-flanders"], "its victory 'last_in_play'"),
        ([str(EXAMPLES / "ww2-locust-bf109.json")], "tripods (mk1-locust)"),
        ([str(EXAMPLES / "duel.json"), "--bots", "hard"], "random"),
    ],
)
def test_batch_engine_refuses_what_it_does_not_play(args: list[str], needle: str) -> None:
    result = dogfight("simulate", *args, "--engine", "batch", "--games", "2")
    assert result.returncode == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


def _game(winner: str | None, turns: int, over: bool = True) -> GameResult:
    return GameResult(0, 0, winner, over, turns, turns * 3)


def test_comparison_flags_different_games() -> None:
    same = [_game("a", 5), _game("b", 6)] * 100
    other = [_game("a", 12)] * 150 + [_game("b", 13)] * 50
    assert compare(same, same)["agree"]
    report = compare(same, other)
    assert not report["agree"]
    assert not report["outcomes"]["a"]["agree"]
    assert not report["turns"]["agree"]
    assert ks_distance([1, 2, 3], [1, 2, 3]) == 0.0
    assert ks_distance([1, 1], [2, 2]) == 1.0


@pytest.mark.parametrize("first,second", MATCHUPS)
def test_batched_games_are_the_referees_games(catalog: Catalog, first: str, second: str) -> None:
    """Win rates and game lengths of batched random duels agree with the referee's within
    95% intervals (10,000 against 2,000 games in ``dogfight bench --batch``)."""
    report = matchup(catalog, first, second, 2000, 90, seed=3, max_turns=12)
    assert report["agree"], report


@pytest.mark.parametrize(
    "ruleset,first,second",
    [("wow", "bristol-f2b", "fokker-d7"), ("wow-basic", "sopwith-camel", "albatros-d5a")],
)
def test_batched_games_are_the_referees_games_under_002_and_003(
    catalog: Catalog, ruleset: str, first: str, second: str
) -> None:
    """The shipped ``wow`` (tailing, the blind spot, 002's special damage, the Immelmann
    counter) and ``wow-basic`` (003's steep rule, friendly-only blocking, engine damage)
    rulesets: batched random duels agree with the referee's."""
    report = matchup(catalog, first, second, 2000, 90, seed=3, max_turns=12, ruleset=ruleset)
    assert report["agree"], report


def test_batched_ww2_games_are_the_referees_games(catalog: Catalog) -> None:
    """WW2 airplanes under ``ww2`` (a card and a speed per Earthling turn, counters,
    000's special damage): batched random duels agree with the referee's."""
    report = matchup(catalog, *WW2_MATCHUP, 2000, 90, seed=3, max_turns=12, ruleset="ww2")
    assert report["agree"], report


@pytest.mark.parametrize("bot", ["random", "easy"])
def test_simulate_plays_a_ww2_duel_with_the_batch_engine(tmp_path: Path, bot: str) -> None:
    out = tmp_path / bot
    args = ["simulate", str(EXAMPLES / "ww2-duel.json"), "--engine", "batch", "--games", "60"]
    result = dogfight(*args, "--workers", "1", "--bots", bot, "--out", str(out))
    assert result.returncode == 0, result.stderr
    summary = _outputs(out)["summary"]
    assert summary["games"] == 60
    assert sum(w["count"] for w in summary["wins"].values()) > 30


def test_simulate_plays_the_wow_rulesets_with_the_batch_engine(tmp_path: Path) -> None:
    situation = json.loads((EXAMPLES / "duel.json").read_text())
    for ruleset in ("wow", "wow-basic"):
        path = tmp_path / f"{ruleset}.json"
        path.write_text(json.dumps({**situation, "ruleset": ruleset}))
        out = tmp_path / ruleset
        args = ["simulate", str(path), "--engine", "batch", "--games", "50", "--workers", "1"]
        result = dogfight(*args, "--bots", "random", "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert _outputs(out)["summary"]["games"] == 50

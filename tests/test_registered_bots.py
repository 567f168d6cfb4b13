"""Any registered computer player plays wherever bots are named (issue 33 item 3: the
learned bot, once registered, in `simulate --bots` and campaigns): a bot registered
here under a new name is accepted by `simulate`, `simulate --campaign` and
`campaign next --bots`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bot_helpers import register_for_test
from typer.testing import CliRunner

from dogfight.bots.airplanes import HardBot
from dogfight.cli.app import app


class Copycat(HardBot):
    """The hard bot under another name (as the learned bot will stand beside it)."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "copycat"


@pytest.fixture(name="copycat")
def copycat_fixture(monkeypatch: pytest.MonkeyPatch) -> str:
    return register_for_test(monkeypatch, "copycat", Copycat)


def test_simulate_plays_any_registered_bot(tmp_path: Path, copycat: str) -> None:
    out = tmp_path / "sim"
    ran = CliRunner().invoke(
        app,
        [
            "simulate", "duel", "--games", "2", "--workers", "1", "--max-turns", "3",
            "--bots", f"allies={copycat},central=random", "--out", str(out),
        ],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    results = json.loads((out / "results.json").read_text())
    assert copycat in json.dumps(results)


def test_campaigns_play_any_registered_bot(tmp_path: Path, copycat: str) -> None:
    runner = CliRunner()
    out = tmp_path / "campaigns"
    ran = runner.invoke(
        app,
        [
            "simulate", "--campaign", "bloody-april", "--games", "1", "--max-turns", "2",
            "--bots", copycat, "--out", str(out),
        ],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    db = str(tmp_path / "c.db")
    made = runner.invoke(app, ["campaign", "new", "bloody-april", "--db", db, "--seed", "2"])
    assert made.exit_code == 0, made.output
    campaign_id = made.output.split(":")[0]
    played = runner.invoke(
        app, ["campaign", "next", campaign_id, "--db", db, "--bots", copycat, "--max-turns", "2"]
    )
    assert played.exit_code == 0, played.output
    assert "Result:" in played.output

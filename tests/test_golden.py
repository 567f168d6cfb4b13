"""Golden transcripts: three seeded games replay byte for byte.

If a change alters the rules on purpose, regenerate with
``DOGFIGHT_REGEN_GOLDEN=1 pytest tests/test_golden.py`` and bump ``ENGINE_VERSION``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dogfight.catalog import load_catalog
from dogfight.output.transcript import transcript
from dogfight.sim.duel import duel_situation, random_game, replay

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "duel-camel-albatros-seed-7": (7, "sopwith-camel", "albatros-d5a"),
    "duel-spad-dr1-seed-11": (11, "spad-xiii", "fokker-dr1"),
    "duel-breguet-d7-seed-23": (23, "breguet-14", "fokker-d7"),
}


def play(name: str) -> str:
    seed, first, second = GAMES[name]
    game = random_game(load_catalog(), seed, duel_situation(first, second))
    return transcript(game.events, seed=seed, first=first, second=second, plans=game.plans)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    """The same scenario, seed and plans give the same transcript, byte for byte."""
    text = play(name)
    path = GOLDEN / f"{name}.jsonl"
    if os.environ.get("DOGFIGHT_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


def test_replay_twice_is_identical() -> None:
    assert play("duel-spad-dr1-seed-11") == play("duel-spad-dr1-seed-11")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_game_replays_from_scenario_seed_and_plans(name: str) -> None:
    """The header's plans, the scenario and the seed are enough to replay the game."""
    path = GOLDEN / f"{name}.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    situation = duel_situation(header["first"], header["second"])
    _, events = replay(load_catalog(), header["seed"], situation, header["plans"])
    assert transcript(
        events, **{k: v for k, v in header.items() if k not in ("kind", "engine")}
    ) == ("".join(lines))

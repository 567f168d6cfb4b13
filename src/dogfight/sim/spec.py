"""What a run of bot games is: the situation, the bots, the seed, how many games
(plain, picklable data sent to every worker and every engine that plays a share)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RunSpec:
    """Everything a worker needs to play its share of a run (plain, picklable data)."""

    situation: dict[str, Any]
    """The situation JSON (see ``docs/situations.md``)."""
    bots: dict[str, str]
    """side -> bot name; sides not named get :func:`dogfight.sim.run.default_bot`."""
    seed: int
    games: int
    max_turns: int = 30
    vary: bool = False
    """Redraw a scenario's setup for each game from the game's seed."""
    data: str | None = None
    """The catalog override folder (``--data``)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

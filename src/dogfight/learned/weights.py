"""The learned bot's weights: a small JSON file holding the engine version it was
trained on, the parameter names and values, and the recipe that made it.

The parameters are the planning bots' valuation (:class:`~dogfight.bots.plane_planner.
Valuation`: how much damage taken weighs, what an end position is worth, the cost of
being trapped at the edge) and ``predict``, the share of its model of an enemy airplane
that goes to the plans the ``hard`` bot would fly in the enemy's seat.

The shipped file is ``learned/data/weights.json`` (package data); a user loads their own
with ``--weights FILE`` or the environment variable ``DOGFIGHT_LEARNED_WEIGHTS``. A file
that is missing, truncated, of other parameters (another shape) or of another engine
version is refused with one :class:`dogfight.errors.DataError` naming the file and what
it expected.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from dogfight import ENGINE_VERSION
from dogfight.bots.plane_planner import HAND_SET, Valuation
from dogfight.errors import DataError

SHIPPED = Path(__file__).parent / "data" / "weights.json"
ENV = "DOGFIGHT_LEARNED_WEIGHTS"
"""The environment variable naming a weights file to use instead of the shipped one."""
FORMAT = "dogfight-learned-weights-2"

BOUNDS: dict[str, tuple[float, float]] = {
    "predict": (0.0, 1.0),
    "risk": (0.0, 10.0),
    "risk_damage": (0.0, 10.0),
    "ahead": (0.0, 20.0),
    "behind": (0.0, 20.0),
    "near_at": (0.0, 2.0),
    "near_width": (0.05, 2.0),
    "far": (0.0, 20.0),
    "trapped": (0.0, 200.0),
}
"""Every parameter, in the file's order, with the range it may take."""
NAMES = tuple(BOUNDS)


class Recipe(BaseModel):
    """How a weights file was trained (``dogfight train`` with these reproduces it)."""

    model_config = ConfigDict(extra="forbid")
    seed: int
    generations: int
    population: int
    games: int
    """Referee duels per candidate and generation."""
    minutes: float
    """The wall-time budget the run was given (it stops at whichever comes first)."""


class WeightsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: str
    engine: int
    parameters: dict[str, float]
    recipe: Recipe
    progress: list[dict[str, Any]] = []


@dataclass(frozen=True)
class Weights:
    """The learned bot's parameters (see the module docstring)."""

    predict: float
    valuation: Valuation
    recipe: Recipe | None = None
    progress: list[dict[str, Any]] = field(default_factory=list)
    source: str = "built-in"

    def vector(self) -> list[float]:
        """The parameters in :data:`NAMES` order."""
        return [self.predict] + [getattr(self.valuation, n) for n in NAMES[1:]]

    @staticmethod
    def of(vector: list[float], **extra: Any) -> Weights:
        """Weights from parameters in :data:`NAMES` order (clipped to their ranges)."""
        values = {
            n: min(max(float(v), BOUNDS[n][0]), BOUNDS[n][1])
            for n, v in zip(NAMES, vector, strict=True)
        }
        predict = values.pop("predict")
        return Weights(predict, Valuation(**values), **extra)

    def to_json(self) -> str:
        recipe = self.recipe or Recipe(seed=0, generations=0, population=0, games=0, minutes=0)
        data = WeightsFile(
            format=FORMAT,
            engine=ENGINE_VERSION,
            parameters={n: round(v, 6) for n, v in zip(NAMES, self.vector(), strict=True)},
            recipe=recipe,
            progress=self.progress,
        )
        return data.model_dump_json(indent=1) + "\n"


assert tuple(f.name for f in fields(Valuation)) == NAMES[1:]
STARTING = Weights(0.5, HAND_SET)
"""Where training starts: the ``hard`` bot's hand-set valuation, half the enemy model on
the prediction. (Not at 0: a little prediction in place of ``hard``'s best replies plays
worse than either, and a search started at 0 stays there — docs/learned.md.)"""


def load(path: str | Path) -> Weights:
    """The weights in ``path``; :class:`DataError` naming the file and what it expected."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(name, "file", name, "no such weights file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise DataError(name, "file", name, f"a readable UTF-8 weights file ({e})") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(
            name, "file", f"{len(text)} characters", f"a whole JSON weights file ({e.msg})"
        ) from None
    try:
        data = WeightsFile.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise DataError(name, where, first.get("input"), first["msg"]) from None
    if data.format != FORMAT:
        raise DataError(name, "format", data.format, f"{FORMAT!r}")
    if data.engine != ENGINE_VERSION:
        raise DataError(
            name,
            "engine",
            data.engine,
            f"weights trained for this engine version ({ENGINE_VERSION}): train again "
            "with 'dogfight train'",
        )
    if list(data.parameters) != list(NAMES):
        raise DataError(
            name,
            "parameters",
            list(data.parameters),
            f"the {len(NAMES)} parameters {', '.join(NAMES)}, in this order",
        )
    for n, v in data.parameters.items():
        low, high = BOUNDS[n]
        if not (math.isfinite(v) and low <= v <= high):
            raise DataError(name, f"parameters.{n}", v, f"a number from {low:g} to {high:g}")
    return Weights.of(
        list(data.parameters.values()), recipe=data.recipe, progress=data.progress, source=name
    )


@lru_cache(maxsize=8)
def _cached(path: str, stamp: float) -> Weights:
    return load(path)


def current(path: str | Path | None = None) -> Weights:
    """The weights to play with: ``path``, else the file the environment variable names,
    else the shipped file (read once per file and modification time)."""
    chosen = Path(path or os.environ.get(ENV) or SHIPPED)
    try:
        stamp = chosen.stat().st_mtime
    except OSError:
        stamp = -1.0
    return _cached(str(chosen), stamp)

"""The learned policy's weights: a small JSON file with the engine version it was
trained on, the feature names, the weights' shape and the recipe that made it.

The shipped file is ``learned/data/weights.json`` (package data); a user loads their own
with ``--weights FILE`` or the environment variable ``DOGFIGHT_LEARNED_WEIGHTS``. A file
that is missing, truncated, of another shape, of other features or of another engine
version is refused with one :class:`dogfight.errors.DataError` naming the file and what
it expected.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from dogfight import ENGINE_VERSION
from dogfight.batch.spec import Floats
from dogfight.errors import DataError
from dogfight.learned.features import COLUMNS as NAMES

SHIPPED = Path(__file__).parent / "data" / "weights.json"
ENV = "DOGFIGHT_LEARNED_WEIGHTS"
"""The environment variable naming a weights file to use instead of the shipped one."""
FORMAT = "dogfight-learned-weights"
OWN_PLANS = 64
ENEMY_PLANS = 6
REPLIES = 4
REPLY_POOL = 150


class Recipe(BaseModel):
    """How a weights file was trained (``dogfight train`` with these reproduces it)."""

    model_config = ConfigDict(extra="forbid")
    seed: int
    generations: int
    population: int
    games: int
    """Batched games per candidate and generation."""
    minutes: float
    """The wall-time budget the run was given (it stops at whichever comes first)."""


class WeightsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: str
    engine: int
    features: list[str]
    shape: list[int]
    weights: list[float]
    own_plans: int
    enemy_plans: int
    replies: int
    reply_pool: int
    recipe: Recipe
    progress: list[dict[str, Any]] = []


@dataclass(frozen=True)
class Weights:
    """A linear scorer: the value of a plan is ``features @ vector``."""

    vector: Floats
    own_plans: int = OWN_PLANS
    enemy_plans: int = ENEMY_PLANS
    replies: int = REPLIES
    reply_pool: int = REPLY_POOL
    recipe: Recipe | None = None
    progress: list[dict[str, Any]] = field(default_factory=list)
    source: str = "built-in"

    def to_json(self) -> str:
        recipe = self.recipe or Recipe(seed=0, generations=0, population=0, games=0, minutes=0)
        data = WeightsFile(
            format=FORMAT,
            engine=ENGINE_VERSION,
            features=list(NAMES),
            shape=[len(NAMES)],
            weights=[round(float(w), 6) for w in self.vector],
            own_plans=self.own_plans,
            enemy_plans=self.enemy_plans,
            replies=self.replies,
            reply_pool=self.reply_pool,
            recipe=recipe,
            progress=self.progress,
        )
        return data.model_dump_json(indent=1) + "\n"


_HALF = [1.0, -1.0, -1.0, 0.5, -0.5, 0.6, -0.6, -0.3, 0.3, -0.3, 0.6, 0.0, 1.0, -0.2]
STARTING = np.array(_HALF + _HALF)
"""Hand-set weights training starts from (deal damage, avoid it, end behind the enemy,
keep off the edge)."""


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
    if data.features != list(NAMES):
        raise DataError(name, "features", data.features, f"the features {', '.join(NAMES)}")
    if data.shape != [len(NAMES)] or len(data.weights) != len(NAMES):
        raise DataError(
            name,
            "shape",
            [data.shape, len(data.weights)],
            f"shape [{len(NAMES)}] and {len(NAMES)} weights",
        )
    if not all(np.isfinite(data.weights)):
        raise DataError(name, "weights", data.weights, "finite numbers")
    for key, low in (("own_plans", 1), ("enemy_plans", 1), ("replies", 0), ("reply_pool", 1)):
        value = getattr(data, key)
        if not low <= value <= 4096:
            raise DataError(name, key, value, f"a whole number from {low} to 4096")
    if data.replies > data.reply_pool:
        raise DataError(name, "replies", data.replies, "at most reply_pool")
    return Weights(
        np.array(data.weights, dtype=np.float64),
        data.own_plans,
        data.enemy_plans,
        data.replies,
        data.reply_pool,
        data.recipe,
        data.progress,
        name,
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

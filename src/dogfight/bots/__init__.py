"""Computer players: they see only their seat's observation and return plans.

``dogfight.bots.base`` defines the interface and the registry; :func:`load_all` imports
every module that registers a bot.
"""

from __future__ import annotations

import importlib

BOT_MODULES = (
    "dogfight.bots.random_plans",
    "dogfight.bots.airplanes",
    "dogfight.bots.automated_tripod",
    "dogfight.bots.learned",
)
"""Modules that register bots when imported (new bot modules add themselves here)."""


def load_all() -> None:
    for name in BOT_MODULES:
        importlib.import_module(name)

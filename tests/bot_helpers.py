"""Helpers of the tests that need a computer player of their own: one registered for the
test only (as the learned bot will stand beside the others)."""

from __future__ import annotations

import pytest

from dogfight.bots.base import BotFactory


def register_for_test(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    factory: BotFactory,
    flies: frozenset[str] = frozenset({"airplane"}),
) -> str:
    """Register ``factory`` as the bot ``name`` (flying ``flies``) until the test ends;
    the shipped bots are registered first, so none of them is left out. Its name."""
    from dogfight.bots import base, load_all

    load_all()
    monkeypatch.setitem(base.REGISTRY, name, factory)
    monkeypatch.setitem(base.FLIES, name, flies)
    return name

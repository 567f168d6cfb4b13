"""Tests only: crash points, where a server process kills itself when the environment
names the point, to prove that a killed server loses nothing committed and resolves
nothing twice (``tests/test_server_persistence.py``, ``tests/test_server_postgres.py``
start servers with ``DOGFIGHT_TEST_CRASH`` set)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dogfight.server.db.store import Store

CRASH_ENV = "DOGFIGHT_TEST_CRASH"
"""Tests only: the name of a point at which the server process kills itself (to prove
that nothing committed is lost and nothing is resolved twice)."""

CRASH_AT = os.environ.get(CRASH_ENV)
"""The point named in the environment the process started with (the tests start a
server with it): read once, as a look-up in ``os.environ`` (encoding the name, a
``KeyError`` caught) cost more than the rest of a crash point, passed several times a
turn."""


def crash_point(name: str, store: Store | None = None) -> None:
    """Tests only: die here if ``DOGFIGHT_TEST_CRASH`` names this point. A point just
    after a write made on the event loop dies once that write is committed (with the
    loop's transaction, :mod:`dogfight.server.db.commits`): where it stands for."""
    if name == CRASH_AT:
        group = store.group if store is not None else None
        if group is None or not group.hold(_die):
            _die()


def _die() -> None:
    os._exit(70)

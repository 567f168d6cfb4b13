"""``/healthz`` and ``/readyz``: what a supervisor, a load balancer or an admin asks.

``/healthz`` answers while the process's event loop runs (200 ``{"ok": true}``), without
touching the database: a process that answers it needs no restart. ``/readyz`` answers 200
only when every check of :data:`READINESS` passes (the database answers a query), else
503 with a JSON body naming each check that failed: a proxy or an orchestrator sends no
players to a process that is not ready, and the admin reads why.

A check is a function of the store giving None (passed) or what failed, in words that
name no secret (the database URL and its password stay out: anyone who can reach the
server can ask). The schema's revision is checked too: a process whose database was
moved to another revision under it (an upgrade by a newer dogfight) must not take players.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from dogfight.server.db import migrations
from dogfight.server.db.store import Store

Check = Callable[[Store], str | None]
"""A readiness check: None when it passes, else what failed."""

DEADLINE = 5.0
"""Seconds the checks together may take: a database that does not answer by then is
not ready (a TCP connection to a host that went away can hang for minutes)."""


def database_reachable(store: Store) -> str | None:
    """The database answers ``SELECT 1`` (a connection of the pool, or a new one)."""
    try:
        with store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except (SQLAlchemyError, OSError) as exc:
        return f"the database cannot be reached ({type(exc).__name__})"
    return None


def migrations_current(store: Store) -> str | None:
    """The database's schema revision is the one this dogfight's migrations end at."""
    try:
        version = migrations.current(store.engine)
    except (SQLAlchemyError, OSError) as exc:
        return f"the schema's revision cannot be read ({type(exc).__name__})"
    if version.current:
        return None
    return f"the schema is at {version.name}, this dogfight needs revision {version.head}"


READINESS: list[tuple[str, Check]] = [
    ("database", database_reachable),
    ("migrations", migrations_current),
]
"""The checks ``/readyz`` runs, in order, by name."""


def run_checks(store: Store) -> dict[str, str | None]:
    """Each check's outcome by name (None: passed)."""
    return {name: check(store) for name, check in READINESS}


async def readiness(store: Store) -> tuple[int, dict[str, Any]]:
    """The status and body of ``/readyz``: the checks run on a thread of their own (not
    the games' workers, which may all be busy), within :data:`DEADLINE`."""
    try:
        outcomes = await asyncio.wait_for(asyncio.to_thread(run_checks, store), DEADLINE)
    except TimeoutError:
        outcomes = {"deadline": f"the checks gave no answer within {DEADLINE:.0f} s"}
    failed = {name: problem for name, problem in outcomes.items() if problem is not None}
    if not failed:
        return 200, {"ok": True, "checks": {name: "ok" for name in outcomes}}
    return 503, {
        "ok": False,
        "error": "not ready: " + "; ".join(f"{name}: {why}" for name, why in failed.items()),
        "field": None,
        "failed": failed,
    }

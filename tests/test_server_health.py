"""``/healthz`` and ``/readyz`` (issue 32 item 5): the process answers while its loop
runs, without the database; it is ready only while the database answers, else 503 with a
JSON body naming what failed (and no secret of the database's address)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest
from postgres_helpers import pg_url, postgres  # noqa: F401  (fixtures)
from server_helpers import client

from dogfight.server.db.notify import libpq_url
from dogfight.server.web import health


def test_alive_and_ready_on_sqlite(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        alive = c.get("/healthz")
        assert alive.status_code == 200 and alive.json() == {"ok": True}
        ready = c.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"ok": True, "checks": {"database": "ok", "migrations": "ok"}}


def test_not_ready_while_the_database_is_gone(pg_url: str) -> None:  # noqa: F811
    """The game database dropped under a running server: /readyz is 503 naming the
    database, /healthz still 200; nothing of the URL is shown."""
    name = pg_url.partition("@/")[2].partition("?")[0]
    with client(pg_url) as c:
        assert c.get("/readyz").status_code == 200
        with psycopg.connect(
            libpq_url(pg_url.replace(f"/{name}?", "/postgres?")), autocommit=True
        ) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        answer = c.get("/readyz")
        assert answer.status_code == 503, answer.text
        body = answer.json()
        assert body["ok"] is False and set(body["failed"]) == {"database", "migrations"}
        assert "database" in body["error"] and "cannot be reached" in body["error"]
        assert name not in answer.text and "host=" not in answer.text
        assert c.get("/healthz").json() == {"ok": True}


def test_not_ready_on_a_schema_moved_under_it(tmp_path: Path) -> None:
    """The database upgraded under a running process by a newer dogfight (its revision
    unknown here): /readyz is 503 naming the migrations, /healthz still 200."""
    with client(tmp_path / "g.sqlite") as c:
        assert c.get("/readyz").status_code == 200
        with sqlite3.connect(tmp_path / "g.sqlite") as db:
            db.execute("UPDATE alembic_version SET version_num = '9999'")
        answer = c.get("/readyz")
        assert c.get("/healthz").json() == {"ok": True}
    assert answer.status_code == 503, answer.text
    failed = answer.json()["failed"]
    assert set(failed) == {"migrations"} and "9999" in failed["migrations"]


def test_a_check_is_one_more_entry_of_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failing check of the list makes the server not ready, named in the body."""
    monkeypatch.setattr(
        health, "READINESS", [*health.READINESS, ("disk", lambda _: "no room left")]
    )
    with client(tmp_path / "g.sqlite") as c:
        answer = c.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"disk": "no room left"}

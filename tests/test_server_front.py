"""The server's own ASGI layer (``Guard``) stands in front of FastAPI's whole stack
(``app.Api``): what it passes on still gets FastAPI's handling, a crash included, and
every answer its headers."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _client(db: Path) -> TestClient:
    app = create_app(f"sqlite:///{db}", limits=Limits(allowed_hosts=("testserver",)))
    return TestClient(app, raise_server_exceptions=False)


def test_a_crash_behind_the_front_gets_the_json_500_with_the_security_headers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _client(tmp_path / "g.sqlite") as c:
        service = c.app.state.service  # type: ignore[attr-defined]

        def broken(_game_id: str, keep: bool = True) -> Any:
            raise RuntimeError("a bug")

        monkeypatch.setattr(service, "get", broken)
        answer = c.get("/api/games/nope")
        assert answer.status_code == 500
        assert answer.json() == {"error": "internal error (RuntimeError)", "field": None}
        assert answer.headers["x-frame-options"] == "DENY"
        assert "content-security-policy" in answer.headers


def test_a_foreign_host_is_refused_in_front_of_fastapi(tmp_path: Path) -> None:
    with _client(tmp_path / "g.sqlite") as c:
        answer = c.get("/api/games", headers={"host": "evil.example"})
        assert answer.status_code == 400 and answer.json()["field"] == "Host"
        assert c.get("/api/games").status_code == 200


def test_serve_builds_no_access_log_line() -> None:
    """uvicorn puts each request's access-log line together unless told not to, even
    when its level drops it: ``dogfight serve`` tells it (and logs at warning)."""
    from dogfight.cli.web import server_config

    config = server_config(object(), Limits())
    assert config.access_log is False and config.log_level == "warning"

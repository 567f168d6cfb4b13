"""Who a client is (issue 28, defect 4): its connection's address, unless the connection
comes from a reverse proxy the operator named with ``--trusted-proxy``; only then does
``X-Forwarded-For`` name it. uvicorn's default believed the header from 127.0.0.1, so
anything on the machine could make 40 of 40 games past a limit of a few a minute.

Real ``dogfight serve`` processes: the header is read (or not) by uvicorn, in front of
the application, which the test client does not run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from server_helpers import serving

from dogfight.cli.web import server_config
from dogfight.errors import DataError
from dogfight.server.web.limits import Limits
from dogfight.server.web.request_log import NotePeer


def created(base: str, forwarded: list[str | None]) -> list[int]:
    """The status of ``POST /api/games`` for each ``X-Forwarded-For`` (None: none)."""
    statuses = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for address in forwarded:
            extra = {} if address is None else {"X-Forwarded-For": address}
            statuses.append(client.post("/api/games", json={"preset": "duel"}, headers=extra))
    return [response.status_code for response in statuses]


def test_a_forged_forwarded_for_is_ignored_without_a_trusted_proxy(tmp_path: Path) -> None:
    """40 creations from 127.0.0.1, each claiming another address, are 40 creations from
    127.0.0.1: as many pass as 40 without the header would (5)."""
    forged: list[str | None] = [f"203.0.113.{i}" for i in range(40)]
    with serving(tmp_path / "g.sqlite", args=["--games-per-minute", "5"]) as server:
        statuses = created(server.base, forged)
    assert statuses == [201] * 5 + [429] * 35


def test_a_trusted_proxy_names_each_client(tmp_path: Path) -> None:
    """Behind a named proxy, each forwarded address has its own count: 6 clients make a
    game each, a seventh's third is one too many."""
    clients: list[str | None] = [f"203.0.113.{i}" for i in range(6)]
    args = ["--games-per-minute", "2", "--trusted-proxy", "192.0.2.1,127.0.0.1"]
    with serving(tmp_path / "g.sqlite", args=args) as server:
        statuses = created(server.base, [*clients, "198.51.100.7", "198.51.100.7"])
        # the proxy appends the peer it saw to what the client sent: the client is the
        # address the proxy gave, not the one the client claimed
        chained = created(server.base, ["198.51.100.9, 198.51.100.7"])
    assert statuses == [201] * 8
    assert chained == [429]


def test_the_header_is_ignored_from_a_peer_that_is_not_the_trusted_proxy(
    tmp_path: Path,
) -> None:
    """A proxy is named (by the environment here) but the requests do not come from it:
    their header is ignored, 127.0.0.1 is the client of all 40."""
    forged: list[str | None] = [f"203.0.113.{i}" for i in range(40)]
    env = {"DOGFIGHT_TRUSTED_PROXY": "192.0.2.1, 10.0.0.0/8"}
    with serving(tmp_path / "g.sqlite", env=env, args=["--games-per-minute", "3"]) as server:
        statuses = created(server.base, forged)
    assert statuses == [201] * 3 + [429] * 37


def test_uvicorn_reads_proxy_headers_only_from_the_named_proxies() -> None:
    plain = server_config(object(), Limits.from_env())
    assert plain.proxy_headers is False
    behind = server_config(object(), Limits.from_env(trusted_proxies=["127.0.0.1, ::1"]))
    # read by uvicorn's ProxyHeadersMiddleware behind NotePeer (which takes the proxy's
    # X-Request-ID), not by uvicorn's own copy of it, which would hide the peer
    assert behind.proxy_headers is False
    assert isinstance(behind.app, NotePeer)
    assert "127.0.0.1" in behind.app.trusted and "::1" in behind.app.trusted
    assert "192.0.2.1" not in behind.app.trusted


def test_trusted_proxies_come_from_the_option_then_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOGFIGHT_TRUSTED_PROXY", "10.0.0.1, fd00::/8")
    assert Limits.from_env().trusted_proxies == ("10.0.0.1", "fd00::/8")
    given = Limits.from_env(trusted_proxies=["127.0.0.1", "192.0.2.0/24,::1"])
    assert given.trusted_proxies == ("127.0.0.1", "192.0.2.0/24", "::1")
    monkeypatch.setenv("DOGFIGHT_TRUSTED_PROXY", "proxy.example")
    with pytest.raises(DataError, match=r"DOGFIGHT_TRUSTED_PROXY.*proxy\.example"):
        Limits.from_env()


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            *(sys.executable, "-m", "dogfight", "serve", "--db", str(tmp_path / "g.sqlite")),
            *("--port", "0", "--trusted-proxy", "*"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "--trusted-proxy" in result.stderr and "IP address" in result.stderr

"""``dogfight serve --public-url`` (issue 32 item 1): behind a TLS proxy the server writes
every link with the address players open, not the one it listens on; anything but
``http(s)://host[:port][/path]`` is refused before the server starts, naming the option
(or the variable) it came from, exit status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_cli import assert_clean_refusal

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits
from dogfight.server.web.public_url import checked

PUBLIC = "https://dogfight.example.org"


def serve(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``dogfight serve`` with ``args`` on a port this test holds: a server that went on
    past the public address would stop there, refused the port, never serving."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = str(held.getsockname()[1])
        command = [sys.executable, "-m", "dogfight", "serve", "--port", port, *args]
        return subprocess.run(
            [*command, "--db", str(tmp_path / "g.sqlite")],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, **(env or {})},
        )


@pytest.mark.parametrize(
    "bad",
    [
        "dogfight.example.org",
        "ftp://dogfight.example.org",
        "https://",
        "https://user:secret@dogfight.example.org",
        "https://dogfight.example.org/?x=1",
        "https://dogfight.example.org:99999",
        "https://dogfight.example.org/#seat",
    ],
)
def test_a_bad_public_url_is_one_message_naming_the_option(tmp_path: Path, bad: str) -> None:
    result = serve(tmp_path, "--public-url", bad)
    assert_clean_refusal(result, "--public-url", "http(s)://host[:port][/path]")
    assert result.stderr.count("\n") == 1  # one message
    assert not (tmp_path / "g.sqlite").exists()  # refused before anything was made


def test_a_bad_public_url_in_the_environment_names_the_variable(tmp_path: Path) -> None:
    result = serve(tmp_path, env={"DOGFIGHT_PUBLIC_URL": "dogfight.example.org"})
    assert_clean_refusal(result, "DOGFIGHT_PUBLIC_URL")


def test_the_address_is_kept_as_a_prefix() -> None:
    assert checked("HTTPS://Dogfight.Example.org/", "--public-url") == PUBLIC
    assert checked("http://[::1]:8443/club/", "--public-url") == "http://[::1]:8443/club"


def test_every_link_of_a_new_game_starts_with_the_public_url(tmp_path: Path) -> None:
    limits = Limits(allowed_hosts=("testserver",))
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", limits=limits, public_url=PUBLIC)
    with TestClient(app) as client:
        made = client.post("/api/games", json={"preset": "duel"}).json()
        game = made["game"]["id"]
        assert made["hotseat_link"].startswith(f"{PUBLIC}/play/{game}#seats=")
        assert made["watch_link"].startswith(f"{PUBLIC}/watch/{game}#token=")
        for seat in made["seats"]:
            assert seat["link"] == f"{PUBLIC}/play/{game}#seat={seat['id']}&token={seat['token']}"
        catalog = client.get("/api/catalog").json()
        # the page builds a held seat's link again from it; and players on other
        # machines reach the server through the proxy, whatever it listens on
        assert catalog["public_url"] == PUBLIC and catalog["loopback"] is False


def test_without_a_public_url_the_links_are_paths(tmp_path: Path) -> None:
    limits = Limits(allowed_hosts=("testserver",))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.sqlite'}", limits=limits)) as client:
        made = client.post("/api/games", json={"preset": "duel"}).json()
        assert made["hotseat_link"].startswith("/play/")
        assert all(seat["link"].startswith("/play/") for seat in made["seats"])
        catalog = client.get("/api/catalog").json()
        assert catalog["public_url"] is None and catalog["loopback"] is True

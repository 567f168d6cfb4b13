"""Every page and static file is revalidated on every load (``Cache-Control: no-cache``,
``dogfight.server.web.pages``): after an upgrade no browser runs an older script against the
newer server's messages, and an unchanged file still costs only a 304."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_helpers import client

PAGES = ["/", "/play/some-game", "/replay/some-game", "/campaigns", "/series"]
PAGES += ["/static/table.js", "/static/cards.js", "/static/table.css"]


@pytest.mark.parametrize(
    "url",
    PAGES,
)
def test_pages_and_their_files_are_revalidated(tmp_path: Path, url: str) -> None:
    with client(tmp_path / "g.sqlite") as c:
        first = c.get(url)
        assert first.status_code == 200, first.text
        assert first.headers["cache-control"] == "no-cache"
        assert "default-src 'self'" in first.headers["content-security-policy"]


def test_an_unchanged_file_is_a_304_that_says_so_again(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        first = c.get("/static/board.js")
        again = c.get("/static/board.js", headers={"if-none-match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["cache-control"] == "no-cache"

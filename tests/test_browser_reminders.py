"""The seat form of turn-a-day reminders (issue 32 item 3) in Chromium: a seat gives a
webhook URL in the table's seat tools and the server keeps it (its answer shown in the
form); a server without a public address says in the form that it sends no reminder."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    new_page,
    open_link,
    server_fixture,  # noqa: F401
)
from server_helpers import Server

from dogfight.server.db import clock_rows
from dogfight.server.db.store import Store, sqlite_url

pytestmark = needs_chromium
PUBLIC = "https://club.example.org"


def _form(browser: Any, server: Server, link: str) -> Any:
    page = open_link(new_page(browser), server, link.removeprefix(PUBLIC))
    page.click("#seat-tools summary")
    page.wait_for_selector("#reminder-note:not(:empty)")
    return page


def test_a_seat_sets_its_webhook_in_the_seat_tools(browser: Any, tmp_path: Path) -> None:
    server = Server(
        tmp_path / "games.sqlite",
        args=["--public-url", PUBLIC, "--allow-private-webhooks"],
    )
    try:
        made = create_game(server, {"preset": "duel"})
        seat = made["seats"][0]
        page = _form(browser, server, seat["link"])
        assert page.is_disabled("#reminder-kind option[value=email]")  # no SMTP settings
        page.fill("#reminder-to", "http://127.0.0.1:9/hook")
        page.click("#reminder-set")
        page.wait_for_selector("#reminder-note:has-text('Reminders go to http://127.0.0.1:9/hook')")
        got = httpx.get(
            f"{server.base}/api/games/{made['game']['id']}/seats/{seat['id']}/reminder",
            headers={"X-Seat-Token": seat["token"]},
            timeout=10,
        ).json()
        assert got["webhook"] == "http://127.0.0.1:9/hook"
        page.fill("#reminder-to", "ftp://nowhere")
        page.click("#reminder-set")
        page.wait_for_selector("#reminder-note:has-text('webhook:')")
        assert page.errors == []
    finally:
        server.kill()


def test_without_a_public_address_the_form_says_none_is_sent(browser: Any, server: Server) -> None:
    made = create_game(server, {"preset": "duel"})
    page = _form(browser, server, made["seats"][0]["link"])
    assert "--public-url" in page.text_content("#reminder-note")
    assert page.is_disabled("#reminder-set") and page.is_disabled("#reminder-to")
    assert page.errors == []


def test_the_lobby_makes_a_game_with_a_turn_clock(browser: Any, server: Server) -> None:
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("input[name=preset][value=duel]")
    page.select_option("#clock", "48")
    page.click("#create")
    page.wait_for_selector("#hotseat[href^='/play/']")
    href = page.get_attribute("#hotseat", "href")
    assert href is not None
    game = href.partition("#")[0].split("/")[-1]
    store = Store(str(server.db) if "://" in str(server.db) else sqlite_url(server.db))
    try:
        assert clock_rows.hours_of(store, game) == 48
    finally:
        store.close()
    assert page.errors == []


def test_the_table_shows_the_turn_clock_near_its_header(browser: Any, server: Server) -> None:
    """A clocked game's table says "Turn clock: 24 h — 23 h 59 min left", in view and on
    one line at a phone's 390x844; a game without a clock shows none."""
    made = create_game(server, {"preset": "duel", "clock": 24})
    page = open_link(new_page(browser, 390, 844), server, made["seats"][0]["link"])
    page.wait_for_selector("#turn-clock:not([hidden])")
    shown = page.text_content("#turn-clock") or ""
    assert re.fullmatch(r"Turn clock: 24 h — 2[34] h \d+ min left", shown), shown
    box = page.locator("#turn-clock").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["height"] < 30  # one line
    plain = create_game(server, {"preset": "duel"})
    page = open_link(page, server, plain["seats"][0]["link"])
    page.wait_for_selector("#status:not(:empty)")
    assert page.is_hidden("#turn-clock")
    assert page.errors == []

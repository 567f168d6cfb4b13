"""A page reopened late in a game shows it as it stands and animates at most the last
turn (issue 29 item 1: "Reopening the link of *Captured tripods* at turn 15 showed "Turn
1: every plan is in." ... then animated every turn again"). The time to be ready is
measured by ``dogfight bench --reopen`` (:mod:`dogfight.bench.reopen`), not asserted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import both_viewports, browser_fixture, needs_chromium, screenshots
from server_helpers import Server

from dogfight.bench.reopen import TURN, late_game, open_page, reload_page, turns_shown

pytestmark = needs_chromium
browser = browser_fixture


@pytest.fixture(scope="module", name="late")
def late_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """A server holding *Captured tripods* at the planning of turn 15, and earth's link."""
    path = tmp_path_factory.mktemp("reopen") / "games.sqlite"
    _, link = late_game(path)
    server = Server(path)
    try:
        yield server, link
    finally:
        server.kill()


def test_a_page_opened_at_turn_15_animates_only_the_last_turn(
    browser: Any, late: tuple[Server, str]
) -> None:
    server, link = late
    shots = screenshots("reopen")
    _, _, page = open_page(browser, server.base + link)
    try:
        page.screenshot(path=str(shots / "reopened.png"))
        both_viewports(page, "item01-reopened")
        # the page offers its cards (open_page waited for them) while the last turn plays
        page.wait_for_function(
            "t => document.getElementById('status').textContent === t",
            arg=f"Turn {TURN}: planning",
        )
        texts = list(page.evaluate("window.__statuses"))
        shown = turns_shown(texts)
        assert shown and min(shown) >= TURN - 1, texts
        assert page.is_hidden("#curtain")
        # reloaded, it has seen the last turn: nothing is animated again
        _, again = reload_page(page)
        assert turns_shown(again) in ([], [TURN]), again
    finally:
        page.context.close()


def test_the_replay_still_has_every_turn(browser: Any, late: tuple[Server, str]) -> None:
    """What the page no longer animates is in the replay slider."""
    server, link = late
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(server.base + link.replace("/play/", "/replay/"))
        page.wait_for_selector("#replay-bar:not([hidden])")
        frames = int(page.get_attribute("#replay-slider", "max") or 0)
        assert frames >= 4 * (TURN - 1)
    finally:
        context.close()

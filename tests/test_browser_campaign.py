"""A campaign played to its end in the browser (issue 15): started on the campaigns page,
each mission started from the campaign page as an ordinary game (computer players on
both sides here), its result written back to the roster and the history, until the
campaign says who won. A screenshot of the end goes to a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    needs_chromium,
    new_page,
    server_fixture,  # noqa: F401
    shots_fixture,  # noqa: F401
)
from server_helpers import Server

pytestmark = needs_chromium


def test_a_campaign_to_its_end(server: Server, browser: Any, shots: Path) -> None:
    page = new_page(browser)
    page.set_default_timeout(60000)
    page.goto(server.base + "/campaigns")
    page.click("[data-campaign='bloody-april']")
    page.wait_for_url("**/campaign/c-*")
    page.wait_for_selector("#roster tbody tr")
    flown = 0
    while not page.query_selector("#winner"):
        page.wait_for_selector("#start-mission")
        page.select_option("#bot-allies", "random")
        page.select_option("#bot-central", "random")
        page.click("#start-mission")
        flown += 1
        page.wait_for_selector(f"#history li[data-mission='{flown}']", timeout=120000)
        assert flown <= 5, "Bloody April has at most five missions"
    assert flown >= 3
    assert page.locator("#history > li").count() == flown
    assert "win the campaign" in page.inner_text("#winner") or "draw" in page.inner_text("#winner")
    missions = {
        row.get_attribute("data-pilot"): int(row.query_selector_all("td")[3].inner_text())
        for row in page.query_selector_all("#roster tbody tr")
    }
    assert sum(missions.values()) >= 2 * flown  # every mission flies at least two pilots
    page.screenshot(path=str(shots / "campaign-over.png"), full_page=True)
    assert not page.errors

"""A match series of three games in the browser: started on the series page (linked from
the lobby), each game an ordinary game between the same computer players, the page showing
every game's match points and the running totals per side (002: "Match Scoring (for
multiple matches)" / "Used to compare performance across matches"). And a mission's target
card on the table with the mission in the briefing panel (002: "Place target cards (for
bombing/photo missions) as specified in scenarios.")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    new_page,
    open_seat,
    server_fixture,  # noqa: F401
    shots_fixture,  # noqa: F401
)
from server_helpers import Server

pytestmark = needs_chromium


def _cells(page: Any, row: str, css: str) -> dict[str, int]:
    return {
        cell.get_attribute("data-side"): int(cell.inner_text())
        for cell in page.query_selector_all(f"{row} td.{css}")
    }


def test_a_series_of_three_games_with_running_totals(
    server: Server, browser: Any, shots: Path
) -> None:
    page = new_page(browser)
    page.set_default_timeout(60000)
    page.goto(server.base + "/")
    page.click("a[href='/series']")
    page.wait_for_selector("#preset option[value='duel']", state="attached")
    page.select_option("#preset", "duel")
    page.fill("#games", "3")
    page.select_option("#seat-choices select[data-seat='allies']", "random")
    page.select_option("#seat-choices select[data-seat='central']", "random")
    page.click("#start")
    page.wait_for_url("**/series/s-*")
    series_id = page.url.rstrip("/").split("/")[-1]
    for number in (1, 2, 3):
        row = f"#results tbody tr[data-game='{number}']"
        page.wait_for_selector(f"{row} td.total", timeout=120000)
        page.wait_for_function(
            "r => document.querySelector(r + ' td.winner').textContent !== 'playing'",
            arg=row,
            timeout=120000,
        )
        if number < 3:
            page.click("#next")
    api = httpx.get(f"{server.base}/api/series/{series_id}", timeout=30).json()
    assert api["over"] and len(api["games"]) == 3
    running = {"allies": 0, "central": 0}
    for game in api["games"]:
        row = f"#results tbody tr[data-game='{game['number']}']"
        shown_points = _cells(page, row, "points")
        assert shown_points == game["points"]
        for side in running:
            running[side] += game["points"][side]
        assert _cells(page, row, "total") == running
    totals = {
        cell.get_attribute("data-side"): int(cell.inner_text())
        for cell in page.query_selector_all("#results tfoot th.grand-total")
    }
    assert totals == running == api["totals"]
    assert "Series over after 3 games" in page.inner_text("#series-state")
    assert page.is_hidden("#next")
    page.screenshot(path=str(shots / "series-over.png"), full_page=True)
    assert not page.errors


def test_the_target_card_is_on_the_table_and_the_mission_in_the_briefing(
    server: Server, browser: Any, shots: Path
) -> None:
    made = create_game(server, {"preset": "wings-over-the-flanders"}, timeout=30)
    page = open_seat(browser, server, made["hotseat_link"], speed=None)
    page.wait_for_selector("#board g.target-card[data-target='flanders-depot']", state="attached")
    assert page.get_attribute("#board g.target-card", "data-mission") == "bombing"
    briefing = page.inner_text("#briefing .mission[data-mission='flanders-depot']")
    assert "Bombing mission flanders-depot (allies)" in briefing
    assert "breguet must end a maneuver with its centre on the target card" in briefing
    page.screenshot(path=str(shots / "target-card.png"), full_page=True)
    assert not page.errors

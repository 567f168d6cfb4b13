"""Why a computer player chose its plan, in the browser's log: a collapsed detail per
computer seat's vehicle, its three best plans with their values, shown once the turn is
resolved and never before, still there when the page is opened again, and on the
spectators' watch page."""

from __future__ import annotations

from typing import Any

from browser_helpers import (  # the fixtures are used by name
    both_viewports,
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    new_page,
    open_link,
    open_seat,
    pick,
    plan_for,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Server

pytestmark = needs_chromium

WHY = "#log-entries details.log.plan_explained"


def test_the_log_shows_why_the_computer_chose_its_plan(server: Server, browser: Any) -> None:
    made = create_game(server, {"preset": "duel", "computer": {"central": "hard"}})
    allies = next(s for s in made["seats"] if s["label"] == "allies")
    page = open_seat(browser, server, allies["link"])
    assert plan_for(page, "camel") == "camel"
    # the computer has planned turn 1: nothing of why shows before the turn is resolved
    assert page.query_selector(WHY) is None
    pick(page, "camel", ["1", "2", "3"])
    page.wait_for_selector("#submit-plans:not([disabled])")
    submit(page)
    page.wait_for_selector(WHY)
    why = page.locator(WHY)
    assert why.count() == 1
    assert why.get_attribute("open") is None  # collapsed
    summary = why.locator("summary").inner_text()
    assert summary.startswith("Why albatros flew ") and "(hard bot, turn 1)" in summary
    assert not why.locator("li").first.is_visible()
    why.locator("summary").click()
    lines = why.locator("li").all_inner_texts()
    assert len(lines) == 3 and all(": value " in line for line in lines)
    # the page opened again (a reopened game) shows it from what the server stored
    again = open_link(new_page(browser), server, allies["link"])
    again.wait_for_selector(WHY)
    assert again.locator(f"{WHY} summary").inner_text() == summary
    # and so does the spectators' page
    watcher = open_link(new_page(browser), server, made["watch_link"])
    watcher.wait_for_selector(WHY)
    assert watcher.locator(f"{WHY} summary").inner_text() == summary
    assert page.errors == [] and again.errors == [] and watcher.errors == []


def test_the_learned_computer_seat_plays_and_says_why(server: Server, browser: Any) -> None:
    """Issue 33 item 3: a `learned` computer seat in the browser, its why in the log."""
    made = create_game(server, {"preset": "duel", "computer": {"central": "learned"}})
    allies = next(s for s in made["seats"] if s["label"] == "allies")
    page = open_seat(browser, server, allies["link"])
    assert plan_for(page, "camel") == "camel"
    pick(page, "camel", ["1", "2", "3"])
    page.wait_for_selector("#submit-plans:not([disabled])")
    submit(page)
    page.wait_for_selector(WHY)
    why = page.locator(WHY)
    assert "(learned bot, turn 1)" in why.locator("summary").inner_text()
    why.locator("summary").click()
    lines = why.locator("li").all_inner_texts()
    assert 1 <= len(lines) <= 3 and all(": value " in line for line in lines)
    both_viewports(page, "issue33-learned-why", show=WHY)
    assert page.errors == []

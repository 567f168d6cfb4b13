"""The tripod's action token asked on the page at the start of each action phase (000), in
a real browser, two seats on two pages: "At the start of each Movement step, all Tripod
players may choose an Action token and place it face up"; "During the second action
phase, all Tripod players may choose to play an Action token on the second planned
maneuver card." The tripod's seat places its second-phase token after seeing the first
phase resolved; the airplane's seat sees the token face up before the card is revealed.
Screenshots in ``artifacts/browser/action-tokens/``."""

from __future__ import annotations

from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    open_seat,
    pick,
    plan_for,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Server

pytestmark = needs_chromium


def plan(page: Any, cards: list[str]) -> None:
    pick(page, plan_for(page), cards)
    submit(page)


def test_the_second_phase_token_after_the_first_phase_face_up(server: Server, browser: Any) -> None:
    folder = screenshots("action-tokens")
    made = create_game(server, {"seed": 3, "analysis": True, "preset": "a-spark-of-hope"})
    seats = made["seats"]
    [martian] = [s for s in seats if "locust" in s["vehicles"]]
    airplanes = [s for s in seats if s is not martian]
    tripod_page = open_seat(browser, server, martian["link"])
    plane_pages = [open_seat(browser, server, s["link"]) for s in airplanes]
    for page in plane_pages:
        plan(page, ["1", "2", "3"])
    # no token in the plan: the planning panel offers none (000: chosen at the phase)
    tripod_page.wait_for_selector("[data-plan='locust'] [data-card='1']")
    assert tripod_page.query_selector("[data-plan='locust'] select[data-action]") is None
    pick(tripod_page, "locust", ["1", "11", "2"])
    submit(tripod_page)

    # phase 1: the prompt, the token face up; no token this phase
    tripod_page.wait_for_selector("#submit-tokens:not([disabled])")
    legend = tripod_page.inner_text("#action-tokens")
    assert "face up: every seat sees it" in legend
    assert "phase 1" in legend
    # card 1 walks: the green tokens are not offered, and the page says why (000 quoted)
    refused = tripod_page.text_content("#action-tokens [data-refused='recharge']") or ""
    assert "only when the planned card is a standing still card" in refused
    tripod_page.check(
        "fieldset[data-decision='action_token:locust@1.1'] [data-token-option='none'] input"
    )
    tripod_page.click("#submit-tokens")

    # phase 2: asked once phase 1 has resolved — its reveal is in the log already
    tripod_page.wait_for_selector("fieldset[data-decision='action_token:locust@1.2']")
    log = tripod_page.inner_text("#log-entries")
    assert "locust reveals card 1" in log
    # card 11 stands still: the green Recharge token is offered, and placed
    option = "fieldset[data-decision='action_token:locust@1.2'] [data-token-option='recharge']"
    tripod_page.wait_for_selector(option)
    tripod_page.screenshot(path=str(folder / "second-phase-token.png"))
    tripod_page.check(f"{option} input")
    tripod_page.click("#submit-tokens")

    # the airplane seat: the token face up, before the locust's second card is revealed
    plane = plane_pages[0]
    plane.wait_for_function(
        "() => document.getElementById('log-entries').innerText.includes('reveals card 11')"
    )
    text = plane.inner_text("#log-entries")
    placed = "locust chooses its action token, face up: recharge."
    assert placed in text
    # the log reads in the order things happened: phase 1's reveal, the token, phase 2's
    assert text.index("locust reveals card 1 (") < text.index(placed)
    assert text.index(placed) < text.index("locust reveals card 11")
    plane.screenshot(path=str(folder / "airplane-sees-token.png"))
    for page in (tripod_page, *plane_pages):
        assert page.errors == []

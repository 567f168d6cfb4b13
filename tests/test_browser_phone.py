"""A phone you can plan on (issue 29 item 5), on a 390 x 844 viewport in Debian's
chromium: "the board stays in view (sticky or split) while cards are picked, the ghost
of the tapped card is visible at the same time, bases are ≥ 44 px touch targets when
zoomed to the player's own vehicle (pinch or a zoom control), labels ≥ 12 px, the
lobby's Create within the first screen"."""

from __future__ import annotations

from typing import Any

from browser_helpers import (
    both_viewports,
    browser_fixture,
    create_game,
    needs_chromium,
    new_page,
    open_link,
    screenshots,
    server_fixture,
)
from server_helpers import Server

pytestmark = needs_chromium
browser = browser_fixture
server = server_fixture

PHONE = {"width": 390, "height": 844}


def _rect(page: Any, selector: str) -> dict[str, float]:
    rect: dict[str, float] = page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); "
        "return {top: r.top, bottom: r.bottom, width: r.width, height: r.height}; }",
    )
    return rect


def phone(browser: Any) -> Any:
    return new_page(browser, PHONE["width"], PHONE["height"], is_mobile=True, has_touch=True)


def test_the_lobbys_create_is_on_the_first_screen(server: Server, browser: Any) -> None:
    page = phone(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-preset='duel']")
    assert _rect(page, "#create")["bottom"] <= PHONE["height"]
    page.screenshot(path=str(screenshots("phone-lobby") / "lobby.png"))
    both_viewports(page, "item05-lobby")


def test_a_phone_plans_with_the_board_in_view_and_zooms_to_its_own_base(
    server: Server, browser: Any
) -> None:
    shots = screenshots("phone-table")
    made = create_game(server, {"preset": "duel"})
    camel = next(s for s in made["seats"] if s["label"] == "allies")
    page = open_link(phone(browser), server, camel["link"], speed=None)
    page.wait_for_selector("[data-plan='camel'] [data-card]")
    # the hand is below the board: a card tapped and scrolled to the bottom of the
    # screen, the board is still in view above it
    page.click("[data-plan='camel'] [data-card='2']")
    # the server's check redraws the hand and the ghost: measure once it is in
    page.wait_for_selector("#board [data-ghost='camel']")
    # scrolled and measured in one go (nothing redrawn in between)
    board, card = page.evaluate(
        """() => {
          const card = document.querySelector("[data-plan='camel'] [data-card='2']");
          card.scrollIntoView({block: "end"});
          const box = (e) => {
            const r = e.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom};
          };
          return [box(document.getElementById("board")), box(card)];
        }"""
    )
    assert board["top"] >= 0 and board["bottom"] <= PHONE["height"]
    assert card["top"] >= board["bottom"] - 1 and card["bottom"] <= PHONE["height"]
    ghost = _rect(page, "#board [data-ghost='camel']")
    assert ghost["top"] >= board["top"] and ghost["bottom"] <= board["bottom"]
    page.screenshot(path=str(shots / "planning.png"))
    both_viewports(page, "item05-planning")
    # zoomed to its own vehicle, the base is a touch target and its label readable
    page.click("#zoom-mine")
    base = _rect(page, "#board g.base[data-vehicle='camel']")
    assert min(base["width"], base["height"]) >= 44, base
    label = page.eval_on_selector_all(
        "#board text.label",
        "ts => Math.max(...ts.filter(t => t.textContent.startsWith('camel'))"
        ".map(t => t.getBoundingClientRect().height))",
    )
    assert label >= 12
    page.screenshot(path=str(shots / "zoomed.png"))
    page.click("#zoom-all")
    assert _rect(page, "#board g.base[data-vehicle='camel']")["width"] < 44
    assert page.errors == []

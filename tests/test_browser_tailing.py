"""Tailing (002) at the browser table, each seat in its own page: before the first and
the second maneuver the tailing seat is shown the tailed plane's next card and reorders
its remaining cards (by dragging, and with the ↑/↓ buttons); the tailed seat's page never
receives the decision, the revealed card or the reorder — not on screen, not over HTTP,
not over the WebSocket. Screenshots go to ``artifacts/browser/tailing/``."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    needs_chromium,
    new_page,
    pick,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Json, Server

pytestmark = needs_chromium

# what only the tailing seat may receive
SECRETS = ("tailed_card_shown", "cards_reordered", '"shown"', "you are tailing")


def tailing_situation() -> Json:
    """002: a SPAD 30 cm behind another, both flying east: ``spad`` tails ``prey``."""
    return {
        "ruleset": "wow",
        "table": {"width": 300, "height": 100},
        "vehicles": [
            {"id": "spad", "type": "spad-xiii", "side": "allies", "pose": {"x": 30, "y": 50}},
            {"id": "prey", "type": "spad-xiii", "side": "central", "pose": {"x": 60, "y": 50}},
        ],
    }


def seat_page(browser: Any, server: Server, link: str) -> Any:
    """A page holding one seat, recording every HTTP body and WebSocket frame it gets."""
    page = new_page(browser)
    page.received = []

    def on_response(response: Any) -> None:
        if "/api/" in response.url:
            # a redirect or an aborted request has no body
            with contextlib.suppress(Exception):
                page.received.append(response.text())

    page.on("response", on_response)
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda frame: page.received.append(str(frame))),
    )
    path, _, fragment = link.partition("#")
    page.goto(f"{server.base}{path}?speed=40#{fragment}")
    return page


def order_of(page: Any) -> list[str]:
    return [
        str(li.get_attribute("data-card"))
        for li in page.query_selector_all("#tailing [data-order='spad'] .reorder-card")
    ]


def send_reorder(page: Any) -> None:
    before = page.get_attribute("#stage", "data-stage")
    page.click("#submit-reorder")
    page.wait_for_function("b => document.getElementById('stage').dataset.stage !== b", arg=before)


def test_tailing_across_two_maneuvers_in_the_browser(server: Server, browser: Any) -> None:
    folder = screenshots("tailing")
    made = httpx.post(
        server.base + "/api/games",
        json={"situation": tailing_situation(), "seed": 3, "analysis": True},
        timeout=10,
    ).json()
    links = {s["label"]: s["link"] for s in made["seats"]}
    tokens = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
    game = made["game"]["id"]
    hunter = seat_page(browser, server, links["allies"])
    prey = seat_page(browser, server, links["central"])

    hunter.wait_for_selector("[data-plan='spad'] [data-card='1']")
    pick(hunter, "spad", ["1", "2", "3"])
    submit(hunter)
    prey.wait_for_selector("[data-plan='prey'] [data-card='1']")
    pick(prey, "prey", ["2", "3", "1"])
    submit(prey)

    # Before the first maneuver: the tailed card (2) is shown to the SPAD's seat.
    hunter.wait_for_selector("#tailing [data-decision^='tailing:spad@1.1']")
    assert hunter.inner_text("#tailing [data-tailed='prey'] .id") == "2"
    assert "phase 1" in hunter.inner_text("#tailing [data-tailed='prey']")
    assert "002" in hunter.inner_text("#tailing .rule")
    assert order_of(hunter) == ["1", "2", "3"]
    # drag the third card onto the first, then move card 1 down with its button
    hunter.drag_and_drop(
        "#tailing [data-card='3']",
        "#tailing [data-order='spad'] [data-card='1']",
    )
    assert order_of(hunter) == ["3", "1", "2"]
    hunter.click("#tailing [data-order='spad'] [data-card='1'] .down")
    assert order_of(hunter) == ["3", "2", "1"]
    # the first card has no "earlier", the last no "later"
    assert hunter.is_disabled("#tailing [data-order='spad'] [data-card='3'] .up")
    assert hunter.is_disabled("#tailing [data-order='spad'] [data-card='1'] .down")
    hunter.screenshot(path=str(folder / "tailer-phase-1.png"))
    # the tailed seat waits, and sees nothing of it
    prey.wait_for_selector("#stage .waiting")
    assert prey.query_selector("#tailing") is None
    prey.screenshot(path=str(folder / "tailed-phase-1.png"))
    send_reorder(hunter)

    # Before the second maneuver: card 3 shown; the two cards left, reordered by keys.
    hunter.wait_for_selector("#tailing [data-decision^='tailing:spad@1.2']")
    assert hunter.inner_text("#tailing [data-tailed='prey'] .id") == "3"
    assert order_of(hunter) == ["2", "1"]
    hunter.focus("#tailing [data-order='spad'] [data-card='1'] .up")
    hunter.keyboard.press("Enter")
    assert order_of(hunter) == ["1", "2"]
    hunter.screenshot(path=str(folder / "tailer-phase-2.png"))
    send_reorder(hunter)

    # The turn is flown in the new order: 3, then 1, then 2.
    a_id, a_tok = tokens["allies"]
    for _ in range(50):
        view = httpx.get(
            f"{server.base}/api/games/{game}/seats/{a_id}",
            headers={"X-Seat-Token": a_tok},
            timeout=10,
        ).json()
        if view["stage"]["kind"] == "planning" and view["stage"]["turn"] == 2:
            break
        hunter.wait_for_timeout(100)
    flown = [
        e["card"]
        for s in view["steps"]
        for e in s["events"]
        if e["kind"] == "revealed" and e["vehicle"] == "spad"
    ]
    assert flown == ["3", "1", "2"]
    hunter.wait_for_selector("[data-plan='spad']")
    assert "reorders its cards" in hunter.inner_text("#log-entries")
    prey.wait_for_selector("[data-plan='prey']")
    log = prey.inner_text("#log-entries")
    assert "spad is tailing prey" in log  # the public part: who tails whom
    assert "reorders" not in log and "shows spad its card" not in log
    for body in prey.received:
        for secret in SECRETS:
            assert secret not in body, (secret, body[:300])
    assert any("tailed_card_shown" in body for body in hunter.received)
    prey.screenshot(path=str(folder / "tailed-turn-2.png"))
    assert hunter.errors == [] and prey.errors == []

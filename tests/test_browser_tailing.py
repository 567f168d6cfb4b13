"""Tailing (002) at the browser table, each seat in its own page: before the first and
the second maneuver the tailing seat is shown the tailed plane's next card and reorders
its remaining cards (by dragging, and with the ↑/↓ buttons); the tailed seat's page never
receives the decision, the revealed card or the reorder — not on screen, not over HTTP,
not over the WebSocket. Screenshots go to ``artifacts/browser/tailing/``."""

from __future__ import annotations

from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    next_to_plan,
    open_seat,
    pick,
    recording_seat,
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


def order_of(page: Any) -> list[str]:
    return [
        str(li.get_attribute("data-card"))
        for li in page.query_selector_all("#tailing [data-order='spad'] .reorder-card")
    ]


def lift_until(page: Any, wanted: str) -> list[str]:
    """Lift hot-seat curtains (a reveal to watch, the device to pass) until ``wanted``
    shows; the curtains' texts."""
    lifted = []
    for _ in range(20):
        page.wait_for_selector(f"{wanted}, #curtain:not([hidden]) #curtain-go")
        if page.query_selector("#curtain:not([hidden]) #curtain-go") is None:
            break
        lifted.append(page.inner_text("#curtain-text"))
        page.click("#curtain-go")
    page.wait_for_selector(wanted)
    return lifted


def send_reorder(page: Any) -> None:
    before = page.get_attribute("#stage", "data-stage")
    page.click("#submit-reorder")
    page.wait_for_function("b => document.getElementById('stage').dataset.stage !== b", arg=before)


def test_tailing_across_two_maneuvers_in_the_browser(server: Server, browser: Any) -> None:
    folder = screenshots("tailing")
    made = create_game(server, {"situation": tailing_situation(), "seed": 3, "analysis": True})
    links = {s["label"]: s["link"] for s in made["seats"]}
    tokens = {s["label"]: (s["id"], s["token"]) for s in made["seats"]}
    game = made["game"]["id"]
    hunter = recording_seat(browser, server, links["allies"])
    prey = recording_seat(browser, server, links["central"])
    # issue 32: a spectator watches the whole turn, tailing and secret damage included
    watcher = recording_seat(browser, server, made["watch_link"])
    watcher.wait_for_selector("#stage[data-steps='0']")

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
    assert "your decision" in hunter.inner_text("#status")
    # 002's special damage is in force in wow: the console does not say it is off
    assert hunter.query_selector("[data-switch='standard_rules']") is None
    # on the board: the tailed plane's revealed move, and the SPAD's next card, as ghosts
    hunter.wait_for_selector("#board [data-ghost='prey']")
    assert hunter.text_content("#board [data-ghost='prey'] .ghost-label") == "2"
    assert hunter.text_content("#board [data-ghost='spad'] .ghost-label") == "1"
    # drag the third card onto the first, then move card 1 down with its button
    hunter.drag_and_drop(
        "#tailing [data-card='3']",
        "#tailing [data-order='spad'] [data-card='1']",
    )
    assert order_of(hunter) == ["3", "1", "2"]
    assert hunter.text_content("#board [data-ghost='spad'] .ghost-label") == "3"
    hunter.click("#tailing [data-order='spad'] [data-card='1'] .down")
    assert order_of(hunter) == ["3", "2", "1"]
    # the first card has no "earlier", the last no "later"
    assert hunter.is_disabled("#tailing [data-order='spad'] [data-card='3'] .up")
    assert hunter.is_disabled("#tailing [data-order='spad'] [data-card='1'] .down")
    hunter.screenshot(path=str(folder / "tailer-phase-1.png"))
    # the tailed seat waits, and sees nothing of it
    prey.wait_for_selector("#stage .waiting")
    assert prey.query_selector("#tailing") is None
    assert prey.query_selector("#board [data-ghost]") is None
    assert "your decision" not in prey.inner_text("#status")
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
    # the spectator saw the turn flown and who tails whom, and no seat's secret: not the
    # tailing decision, the card shown or the reorder, not the damage card drawn (002:
    # secret), on its screen, over HTTP or over its WebSocket
    watcher.wait_for_function("() => Number(document.getElementById('stage').dataset.steps) > 0")
    watched = watcher.inner_text("#log-entries")
    assert "spad is tailing prey" in watched and "reorders" not in watched
    drawn = '"kind":"damage_drawn"'
    assert any(drawn in body.replace(" ", "") for body in prey.received)  # there was one
    for body in watcher.received:
        for secret in (*SECRETS, drawn, a_tok, tokens["central"][1]):
            assert secret not in body.replace(" ", ""), (secret, body[:300])
    assert any('"type":"watch"' in body.replace(" ", "") for body in watcher.received)
    assert watcher.errors == []


def test_tailing_hot_seat_hands_the_decision_to_the_tailer_behind_the_curtain(
    server: Server, browser: Any
) -> None:
    """Both seats in one browser (``dogfight play``): after the plans, the curtain hands
    the table to the tailing seat for its reorder, then the turn goes on."""
    folder = screenshots("tailing-hot-seat")
    made = create_game(server, {"situation": tailing_situation(), "seed": 3, "analysis": True})
    page = open_seat(browser, server, made["hotseat_link"])
    planned: set[str] = set()
    for _ in range(20):
        vehicle = next_to_plan(page)
        if vehicle is None:
            continue
        pick(page, vehicle, ["1", "2", "3"])
        submit(page)
        planned.add(vehicle)
        if planned == {"spad", "prey"}:
            break
    assert planned == {"spad", "prey"}
    # the curtain comes up for the tailing seat; behind it, the reorder
    page.wait_for_selector("#curtain:not([hidden]) #curtain-go")
    lifted = lift_until(page, "#tailing [data-decision^='tailing:spad@1.1']")
    assert "Pass the device to allies (spad)." in lifted
    page.screenshot(path=str(folder / "decision.png"))
    send_reorder(page)
    lift_until(page, "#tailing [data-decision^='tailing:spad@1.2']")
    send_reorder(page)
    # the turn ends: the next planning comes up (behind a curtain or not)
    page.wait_for_function(
        "() => document.querySelector('[data-plan]') || "
        "document.querySelector('#curtain:not([hidden])')"
    )
    assert page.errors == []

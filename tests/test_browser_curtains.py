"""Hot-seat curtains counted (issue 29 item 7): *Captured tripods* played hot-seat in a
real browser (both sides' seats in one browser, the lobby's hot-seat link) for twelve
turns of a fight, counting the pass-the-device screens; and an airplane duel. A curtain
only where the next screen holds something the previous seat must not see (docs/web.md,
"Hot-seat")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    NEXT,
    answer_choices,
    both_viewports,
    browser_fixture,  # noqa: F401
    create_in_lobby,
    needs_chromium,
    new_page,
    place_directions,
    place_tokens,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Json, Server, headers, seat_url, slowest_plan

pytestmark = needs_chromium

TURNS = 12
"""Turns played: the curtains of turns 1 to 12, up to turn 13's first planning screen."""

BOUND = 72
"""At most this many curtains in ``TURNS`` turns of the fight below (seed 7). Before issue
29 item 7 the same game showed 75: after a reveal the Earth seat was always handed the
device first, so when the reveal of secret action cards began with an Earth tripod's
direction (the Earth Locust's, initiative 3, before the Martian Locust's 2) it needed a
curtain of its own; now the seat whose tripod acts first in 001's initiative order chooses
its tokens last and goes on to its direction on the same screen (and plans first). What
is left is needed (docs/web.md, "Hot-seat"): a curtain after each reveal everybody
watched, between the two seats' plans, between their secret action cards, and between
the directions the reveal asks one tripod at a time, each after the cards shown before
it."""

DUEL_TURNS = 3
"""Turns of the duel: the curtains up to turn 4's planning (or its end)."""


RIGHT = ("earth-locust", "martian-locust", "martian-scarab")
"""The tripods that circle to their right once the sides have closed in (the others to
their left): each keeps inside the table."""


def plan_fight(page: Any, turn: int) -> None:
    """Each tripod of the seat walks two steps forward in turns 1 and 2, then walks a
    60- and a 30-degree turn: the sides close in and fight, walking in two phases of three
    and standing in the third (where a standing card lets it recharge)."""
    for vehicle in page.eval_on_selector_all("[data-plan]", "els => els.map(e => e.dataset.plan)"):
        stand = "11" if vehicle.endswith("locust") else "9"
        turning = ["6", "4"] if vehicle in RIGHT else ["5", "3"]
        for card in ["1", "2", stand] if turn <= 2 else [*turning, stand]:
            button = f"[data-plan='{vehicle}'] [data-card='{card}']:not([disabled])"
            if page.query_selector(button):  # a toppled tripod plans fewer cards
                page.click(button)
    submit_plans(page)


def plan_straight(page: Any, _turn: int) -> None:
    """The seat's airplane flies its first three cards."""
    for vehicle in page.eval_on_selector_all("[data-plan]", "els => els.map(e => e.dataset.plan)"):
        for card in ["1", "2", "3", "4", "5"]:
            button = f"[data-plan='{vehicle}'] [data-card='{card}']:not([disabled])"
            if page.query_selector(button):
                page.click(button)
    submit_plans(page)


def submit_plans(page: Any) -> None:
    page.wait_for_selector("#submit-plans:not([disabled])")
    submit(page)


def fire_tokens(page: Any) -> None:
    """Each tripod asked fires its heat-ray when the rules let it (the first projector
    offered), else recharges when it may, else keeps the preselected token."""
    chosen: dict[str, str] = {}
    for decision in page.eval_on_selector_all(
        "#action-tokens [data-decision]", "els => els.map(e => e.dataset.decision)"
    ):
        vehicle = decision.split(":")[1].split("@")[0]
        options = page.eval_on_selector_all(
            f"fieldset[data-decision='{decision}'] [data-token-option]",
            "els => els.map(e => e.dataset.tokenOption)",
        )
        rays = [o for o in options if o.startswith("heat_ray")]
        if rays:
            chosen[vehicle] = rays[0]
        elif "recharge" in options:
            chosen[vehicle] = "recharge"
    place_tokens(page, chosen)


def play_counting(page: Any, turns: int, plan: Callable[[Any, int], None]) -> list[str]:
    """Play ``turns`` turns, each seat planning with ``plan(page, turn)``; the curtains
    lifted, each as ``kind: text``."""
    curtains: list[str] = []
    planned: list[str] = []
    for _ in range(1000):
        page.wait_for_selector(f"{NEXT}, #submit-targets, #submit-decisions")
        curtain = page.query_selector("#curtain:not([hidden]) #curtain-go")
        if curtain is not None:
            kind = page.get_attribute("#curtain", "data-kind")
            # behind a curtain no seat's console, plans or decisions are on the page
            assert page.query_selector("#console .vehicle-console") is None
            assert page.query_selector("#stage [data-plan], #stage [data-decision]") is None
            if not curtains:
                both_viewports(page, "item07-curtain")
            curtains.append(f"{kind}: {page.inner_text('#curtain-text')}")
            curtain.click()
            page.wait_for_timeout(50)
            continue
        if page.query_selector("#end-screen"):
            return curtains
        if page.query_selector("#submit-tokens:not([disabled])"):
            fire_tokens(page)
            continue
        if page.query_selector("#submit-directions:not([disabled])"):
            place_directions(page)
            continue
        if page.query_selector("#submit-choices:not([disabled])"):
            answer_choices(page)
            continue
        if page.query_selector("#submit-targets"):
            page.click("#submit-targets")
            page.wait_for_selector("#submit-targets", state="detached")
            continue
        if page.query_selector("[data-plan]"):
            if len(planned) == 2 * turns:
                return curtains
            planned.append(page.inner_text("#seat-label"))
            plan(page, (len(planned) + 1) // 2)
            continue
        page.wait_for_timeout(100)
    raise AssertionError(f"not {turns} turns: {curtains}")


def test_captured_tripods_curtains_in_twelve_turns(server: Server, browser: Any) -> None:
    page = new_page(browser)
    create_in_lobby(page, server, "captured-tripods")
    curtains = play_counting(page, TURNS, plan_fight)
    assert not page.query_selector("#end-screen"), f"the game ended too soon: {curtains}"
    assert len(curtains) <= BOUND, (len(curtains), curtains)
    # every curtain passes the device (no curtain only to watch a reveal)
    assert all(c.startswith("seat: ") for c in curtains), curtains
    assert page.errors == []


def test_airplane_duel_two_curtains_a_turn(server: Server, browser: Any) -> None:
    page = new_page(browser)
    create_in_lobby(page, server, "duel")
    curtains = play_counting(page, DUEL_TURNS, plan_straight)
    # a turn: the device to the second seat to plan, then after the reveal to the first
    assert len(curtains) <= 2 * DUEL_TURNS, curtains
    assert all(c.startswith("seat: ") for c in curtains), curtains
    assert page.errors == []


def chase() -> Json:
    """Two Allied airplanes flying north side by side and a German 25 cm behind them: after
    each phase both are in its guns' reach, so its seat is asked its target."""
    return {
        "table": {"width": 200, "height": 200},
        "vehicles": [
            {"id": "spad", "type": "spad-xiii", "side": "allies", "pose": pose(90, 60)},
            {"id": "camel", "type": "sopwith-camel", "side": "allies", "pose": pose(110, 60)},
            {"id": "fokker", "type": "fokker-dr1", "side": "central", "pose": pose(100, 35)},
        ],
    }


def pose(x: float, y: float) -> Json:
    return {"x": x, "y": y, "heading": 90}


def test_after_a_reveal_awaiting_only_a_seat_elsewhere_a_curtain(
    server: Server, browser: Any
) -> None:
    """Two seats in this browser, the third on another device: after a reveal everybody
    here watched, only the other device's seat is awaited (its target). The seat at the
    controls gets the device back behind a curtain, not its console in front of everybody
    who watched."""
    made = httpx.post(
        server.base + "/api/games",
        json={"situation": chase(), "seating": "vehicle", "seed": 2, "analysis": True},
        timeout=10,
    ).json()
    game = made["game"]["id"]
    seats = {s["vehicles"][0]: (s["id"], s["token"]) for s in made["seats"]}
    catalog = httpx.get(server.base + "/api/catalog", timeout=10).json()
    kinds = {v["id"]: v["type"] for v in chase()["vehicles"]}
    for vehicle, (sid, tok) in seats.items():
        answer = httpx.post(
            server.base + seat_url(game, sid, "plans"),
            headers=headers(tok),
            json={"turn": 1, "plans": {vehicle: slowest_plan(catalog, kinds[vehicle])}},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
    page = new_page(browser)
    here = ",".join(f"{sid}:{tok}" for v, (sid, tok) in seats.items() if v != "fokker")
    page.goto(f"{server.base}/play/{game}?speed=25#seats={here}")
    page.wait_for_selector("#console .vehicle-console")  # the seat at the controls waits
    fokker, tok = seats["fokker"]
    view = httpx.get(server.base + seat_url(game, fokker), headers=headers(tok), timeout=10)
    stage = view.json()["stage"]
    assert stage["kind"] == "targets" and stage["waiting_for"] == [fokker], stage
    question = stage["questions"][0]
    answer = httpx.post(
        server.base + seat_url(game, fokker, "targets"),
        headers=headers(tok),
        json={"turn": 1, "phase": 1, "fire": {"fokker": {question["weapon"]: "spad"}}},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    again = httpx.get(server.base + seat_url(game, fokker), headers=headers(tok), timeout=10)
    assert again.json()["stage"]["waiting_for"] == [fokker]  # asked again, in phase 2
    # the reveal of phase 1 played here; then a curtain, or the console again
    page.wait_for_function(
        "() => !document.getElementById('curtain').hidden"
        " || (document.querySelector('#console .vehicle-console')"
        " && [...document.querySelectorAll('#log-entries h4')]"
        ".some(h => h.textContent === 'Turn 1, phase 1'))"
    )
    assert page.is_visible("#curtain"), "the console came back in front of everybody"
    assert page.query_selector("#console .vehicle-console") is None
    assert "Turn 1, phase 1 revealed" in page.inner_text("#curtain-text")
    assert page.errors == []

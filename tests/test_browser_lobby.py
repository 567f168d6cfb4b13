"""The lobby gets friends into a game (issue 29 item 9), in Debian's chromium: each
preset in one line, only the computer players that fly a seat, a note when the server
listens on loopback only, this browser's games with whose turn it is, and a rematch at
the end of a game."""

from __future__ import annotations

from typing import Any

from browser_helpers import (
    END,
    both_viewports,
    browser_fixture,
    create_game,
    needs_chromium,
    new_page,
    next_to_plan,
    open_link,
    open_seat,
    pick,
    screenshots,
    server_fixture,
    submit,
)
from server_helpers import Server, duel_situation

pytestmark = needs_chromium
browser = browser_fixture
server = server_fixture


def test_the_lobby_describes_seats_and_keeps_this_browsers_games(
    server: Server, browser: Any
) -> None:
    shots = screenshots("lobby")
    page = new_page(browser, 1366, 768)
    page.goto(server.base + "/")
    duel = page.inner_text("[data-preset='duel']")
    assert "allies: Sopwith Camel · central: Albatros D.Va · wog rules" in duel
    # the Automated Tripod plays its seat; the airplanes' seat is not offered it
    page.check("input[name='preset'][value='a-lonely-invader']")
    page.wait_for_selector("[data-automated='martians']")
    assert page.query_selector("select[data-seat='martians']") is None
    earth = page.eval_on_selector_all(
        "select[data-seat='earth'] option", "os => os.map(o => o.value)"
    )
    assert "automated-tripod" not in earth and "hard" in earth
    page.screenshot(path=str(shots / "lonely-invader-seats.png"))
    both_viewports(page, "item09-lobby-seats")
    # a duel made here: its links, and the note that only this machine can open them
    page.check("input[name='preset'][value='duel']")
    page.click("#create")
    page.wait_for_selector("#links:not([hidden])")
    assert page.is_visible("#loopback-note")
    page.screenshot(path=str(shots / "links.png"))
    both_viewports(page, "item09-lobby-links")
    # back in the lobby, the game is listed with whose turn it is
    page.goto(server.base + "/")
    item = page.wait_for_selector("#my-games-list li.ongoing")
    assert "Airplane duel" in item.inner_text() and "your turn" in item.inner_text()
    assert page.is_visible("#create")
    assert page.errors == []


def test_a_finished_hot_seat_game_offers_a_rematch(server: Server, browser: Any) -> None:
    sit = duel_situation()
    for v in sit["vehicles"]:  # both fly off the north edge in the first phase
        v["pose"] = {"x": v["pose"]["x"], "y": 86.0, "heading": 90.0}
    made = create_game(server, {"situation": sit})
    page = open_seat(browser, server, made["hotseat_link"])
    for _ in range(20):
        vehicle = next_to_plan(page)
        if vehicle == END:
            break
        if vehicle is not None:
            pick(page, vehicle, ["1", "2", "3"])
            submit(page)
    assert page.query_selector("#end-screen")
    old = made["game"]["id"]
    page.click("#rematch")
    page.wait_for_url(lambda url: "/play/" in url and old not in url)
    assert next_to_plan(page) in ("camel", "albatros", None)
    assert page.errors == []


def _serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations of the page as it stands."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {v['help']} ({[n['target'] for n in v['nodes'][:3]]})"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_the_lobby_and_the_table_pass_an_accessibility_check(server: Server, browser: Any) -> None:
    """Issue 29: "an accessibility pass of the lobby and the table with axe-core
    (`axe-playwright-python`): no "serious" or "critical" violations"."""
    page = new_page(browser, 1366, 768)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-preset='duel']")
    assert _serious(page) == []
    made = create_game(server, {"preset": "duel"})
    open_link(page, server, made["hotseat_link"])
    vehicle = None
    while vehicle is None:
        vehicle = next_to_plan(page)
    assert _serious(page) == []  # planning: the hand, the fire choices, the console
    phone = open_link(new_page(browser, 390, 844), server, made["hotseat_link"])
    while next_to_plan(phone) is None:
        pass
    assert _serious(phone) == []

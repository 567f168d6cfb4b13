"""The table page in a real browser (Playwright driving Debian's chromium, headless):
a whole airplane duel played hot-seat by clicking, from the lobby to the end screen and
the replay, and a whole game of *A Spark of Hope* (a tripod's cards and action
tokens). Screenshots of planning and firing go to a temporary folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"no chromium at {CHROMIUM} (apt-get install chromium)",
)

NEXT = "#end-screen, #curtain:not([hidden]) #curtain-go, [data-plan] [data-card]:not([disabled])"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("browser") / "games.sqlite")
    try:
        yield srv
    finally:
        srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    return folder


def new_page(browser: Any) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the pages run under the server's Content-Security-Policy: nothing may be blocked
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.errors = errors
    return page


def create_in_lobby(page: Any, base: str, preset: str) -> str:
    """Make a game in the lobby; go to its hot-seat link (animations sped up)."""
    page.goto(base + "/")
    page.check(f"input[name=preset][value='{preset}']")
    page.check("#analysis")  # a chosen seed: an open analysis game
    page.fill("#seed", "7")
    page.click("#create")
    page.wait_for_selector("#hotseat[href^='/play/']")
    href = page.get_attribute("#hotseat", "href")
    assert href is not None
    path, _, fragment = href.partition("#")
    page.goto(f"{base}{path}?speed=25#{fragment}")
    return str(path.split("/")[-1])


def submit(page: Any) -> None:
    """Click "Submit plans" and wait until the page shows the next stage."""
    before = page.get_attribute("#stage", "data-stage")
    page.click("#submit-plans")
    page.wait_for_function(
        "before => { const s = document.getElementById('stage');"
        " return !s || s.dataset.stage !== before; }",
        arg=before,
    )


END = "<end screen>"


def pick(page: Any, vehicle: str, cards: list[str]) -> None:
    for card in cards:
        page.click(f"[data-plan='{vehicle}'] [data-card='{card}']")


def next_to_plan(page: Any) -> str | None:
    """Wait for the page to settle: the end screen gives ``END``; a hot-seat curtain is
    lifted (None: look again); otherwise the id of the vehicle to plan."""
    page.wait_for_selector(NEXT)
    if page.query_selector("#end-screen"):
        return END
    curtain = page.query_selector("#curtain:not([hidden]) #curtain-go")
    if curtain is not None:
        curtain.click()
        return None
    vehicle = page.get_attribute("[data-plan]", "data-plan")
    assert vehicle is not None
    return str(vehicle)


def test_a_whole_duel_hot_seat(server: Server, browser: Any, shots: Path) -> None:
    page = new_page(browser)
    game = create_in_lobby(page, server.base, "duel")
    planned = 0
    finished = False
    for _ in range(80):
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        assert vehicle in ("camel", "albatros")
        pick(page, vehicle, ["1", "2", "3"])
        page.wait_for_selector("#submit-plans:not([disabled])")
        if planned == 0:
            # the ghost of the sequence is drawn while choosing
            page.wait_for_selector("#board .ghost-final")
            page.screenshot(path=str(shots / "duel-planning.png"))
        submit(page)
        planned += 1
    assert finished, "the duel did not reach its end screen"
    assert planned >= 4
    text = page.inner_text("#end-screen")
    assert "Game over" in text
    log = page.inner_text("#log-entries")
    assert "fires" in log
    page.screenshot(path=str(shots / "duel-end.png"))
    # the replay steps through the game; find a firing step
    page.click("#end-screen a[href^='/replay/']")
    page.wait_for_selector("#replay-bar:not([hidden])")
    for _ in range(60):
        if page.query_selector("#log-entries .log.fired"):
            break
        page.click("#replay-next")
    assert page.query_selector("#log-entries .log.fired") is not None
    assert page.query_selector("#board line.shot") is not None
    page.screenshot(path=str(shots / "duel-firing.png"))
    assert page.errors == []
    assert (shots / "duel-planning.png").stat().st_size > 0
    del game


def test_a_whole_spark_of_hope(server: Server, browser: Any, shots: Path) -> None:
    page = new_page(browser)
    create_in_lobby(page, server.base, "a-spark-of-hope")
    turns = {"locust": 0, "nieuport": 0}
    finished = False
    for _ in range(120):
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        if vehicle == "locust":
            pick(page, "locust", ["1", "11", "2"])
            # a heat-ray from the front projector in phase 2 (on the standing card)
            page.select_option(
                "[data-plan='locust'] select[data-action='1']",
                value='{"token":"heat_ray","projector":"front"}',
            )
            if turns["locust"] == 1:
                # Standard Rules: black smoke from the rear projector on the other card
                # that allows a token
                page.select_option(
                    "[data-plan='locust'] select[data-action='2']",
                    value='{"token":"black_smoke","projector":"rear"}',
                )
        else:
            assert vehicle is not None and vehicle.startswith("nieuport")
            pick(page, vehicle, ["1", "2", "3"])
        page.wait_for_selector("#submit-plans:not([disabled])")
        if turns.get(vehicle, 0) == 0:
            page.wait_for_selector("#board .ghost-final")
            page.screenshot(path=str(shots / f"spark-planning-{vehicle}.png"))
        submit(page)
        turns[vehicle] = turns.get(vehicle, 0) + 1
        if turns["locust"] == 2:
            page.screenshot(path=str(shots / "spark-firing.png"))
    assert turns["locust"] >= 3
    assert finished, "A Spark of Hope did not reach its end screen"
    log = page.inner_text("#log-entries")
    assert "heat-ray" in log
    assert "black smoke" in log
    page.screenshot(path=str(shots / "spark-end.png"))
    assert page.errors == []

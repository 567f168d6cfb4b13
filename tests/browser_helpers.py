"""Helpers of the browser tests: Debian's chromium driven by Playwright (headless, with
the launch arguments the team uses), a page that records its script errors (and, for
the tests of secrets, every HTTP body and WebSocket frame it receives), a game made
over the API or in the lobby and its links opened, the hot-seat loop's next-seat step,
and where screenshots go (``artifacts/browser/``, git-ignored, kept after the run)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Json, Server

from dogfight.bench.browser import ARGS, CHROMIUM

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"no chromium at {CHROMIUM} (apt-get install chromium)",
)

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "browser"

NEXT = (
    "#end-screen, #curtain:not([hidden]) #curtain-go, [data-plan] [data-card]:not([disabled]), "
    "#submit-directions:not([disabled]), #submit-tokens:not([disabled]), "
    "#submit-choices:not([disabled])"
)
END = "<end screen>"


@pytest.fixture(scope="module", name="server")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``dogfight serve`` on a fresh database, one per test module."""
    srv = Server(tmp_path_factory.mktemp("browser") / "games.sqlite")
    try:
        yield srv
    finally:
        srv.kill()


@pytest.fixture(scope="module", name="browser")
def browser_fixture() -> Iterator[Any]:
    """Debian's chromium, headless, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(name="shots")
def shots_fixture(tmp_path: Path) -> Path:
    """A temporary folder for a test's screenshots."""
    folder = tmp_path / "screenshots"
    folder.mkdir()
    return folder


def screenshots(name: str) -> Path:
    """A folder for one test's screenshots (emptied first)."""
    folder = ARTIFACTS / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


def new_page(browser: Any, width: int = 1280, height: int = 860, **options: Any) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height}, **options)
    # a wait that succeeds returns at once; the margin is for a 2-core machine running
    # the suite beside other work, where a resolved turn can take seconds to arrive
    page.set_default_timeout(45000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the pages run under the server's Content-Security-Policy: nothing may be blocked
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.errors = errors
    return page


def create_game(server: Server, body: Json, timeout: float = 10) -> Json:
    """A game made over the API (``POST /api/games``, refused unless 201): the server's
    answer, with the game, its seats (each with its link and token) and the hot-seat
    link."""
    answer = httpx.post(server.base + "/api/games", json=body, timeout=timeout)
    assert answer.status_code == 201, answer.text
    made: Json = answer.json()
    return made


def open_link(page: Any, server: Server, link: str, speed: int | None = 40) -> Any:
    """Open a seat's (or the hot-seat) link on ``page``, its animations sped up ``speed``
    times (None: as a player sees them); the page."""
    path, _, fragment = link.partition("#")
    query = "" if speed is None else f"?speed={speed}"
    page.goto(f"{server.base}{path}{query}#{fragment}")
    return page


def open_seat(browser: Any, server: Server, link: str, speed: int | None = 40) -> Any:
    """A new page opened on a seat's (or the hot-seat) link (:func:`open_link`)."""
    return open_link(new_page(browser), server, link, speed)


def recording_seat(browser: Any, server: Server, link: str) -> Any:
    """A new page opened on a seat's link, recording in ``page.received`` every HTTP body
    of the API and every WebSocket frame it gets: what a secret must never be in."""
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
    return open_link(page, server, link)


def create_in_lobby(page: Any, server: Server, preset: str) -> str:
    """Make a game in the lobby (an open analysis game, seed 7) and go to its hot-seat
    link (animations sped up); the game's id."""
    page.goto(server.base + "/")
    page.check(f"input[name=preset][value='{preset}']")
    page.check("#analysis")  # a chosen seed: an open analysis game
    page.fill("#seed", "7")
    page.click("#create")
    page.wait_for_selector("#hotseat[href^='/play/']")
    href = page.get_attribute("#hotseat", "href")
    assert href is not None
    open_link(page, server, href, speed=25)
    return str(href.partition("#")[0].split("/")[-1])


def next_to_plan(page: Any) -> str | None:
    """Wait for the page to settle: the end screen gives ``END``; a hot-seat curtain is
    lifted, the tripods' action tokens placed as the plan pencilled them (none), their
    directions at the reveal of their action cards placed as written with the card, or
    the choices of the firing step and the drops answered with their defaults (None: look
    again); otherwise the id of the vehicle to plan."""
    page.wait_for_selector(NEXT)
    if page.query_selector("#end-screen"):
        return END
    directions = page.query_selector("#submit-directions:not([disabled])")
    if directions is not None:
        place_directions(page)
        return None
    if page.query_selector("#submit-tokens:not([disabled])") is not None:
        place_tokens(page)
        return None
    if page.query_selector("#submit-choices:not([disabled])") is not None:
        answer_choices(page)
        return None
    curtain = page.query_selector("#curtain:not([hidden]) #curtain-go")
    if curtain is not None:
        curtain.click()
        return None
    vehicle = page.get_attribute("[data-plan]", "data-plan")
    assert vehicle is not None
    return str(vehicle)


def plan_for(page: Any, wanted: str | None = None) -> str:
    """Lift curtains and answer prompts (:func:`next_to_plan`) until a vehicle is to be
    planned (``wanted``, when given); its id."""
    for _ in range(10):
        vehicle = next_to_plan(page)
        if vehicle is not None and vehicle != END and wanted in (None, vehicle):
            return vehicle
        page.wait_for_timeout(50)
    raise AssertionError(f"never asked to plan {wanted or 'a vehicle'}")


def pick(page: Any, vehicle: str, cards: list[str]) -> None:
    for card in cards:
        page.click(f"[data-plan='{vehicle}'] [data-card='{card}']")


def submit(page: Any) -> None:
    """Click "Submit plans" (and "Submit anyway" if the plans carry warnings) and wait
    until the page shows the next stage."""
    before = page.get_attribute("#stage", "data-stage")
    page.click("#submit-plans")
    changed = "b => document.getElementById('stage').dataset.stage !== b"
    page.wait_for_function(
        "b => document.getElementById('confirm-submit')"
        " || document.getElementById('stage').dataset.stage !== b",
        arg=before,
    )
    if page.query_selector("#confirm-submit"):
        page.click("#submit-anyway")
        page.wait_for_function(changed, arg=before)


def place_directions(page: Any, chosen: dict[str, str] | None = None) -> None:
    """Answer the reveal's direction decisions on the page (001: "places the action token
    to specify its facing change or fire direction"): ``chosen`` maps a tripod to the
    direction clicked; the others keep the direction written with the card."""
    for vehicle, direction in (chosen or {}).items():
        page.check(
            f"fieldset[data-decision^='action_direction:{vehicle}@'] "
            f"[data-direction='{direction}'] input"
        )
    asked = page.eval_on_selector_all(
        "#reveal [data-decision]", "els => els.map(e => e.dataset.decision)"
    )
    page.click("#submit-directions")
    for decision in asked:
        page.wait_for_selector(f"[data-decision='{decision}']", state="detached")


def place_tokens(page: Any, chosen: dict[str, str] | None = None) -> None:
    """Answer the action-token decisions of the phase on the page (000: "At the start of
    each Movement step, all Tripod players may choose an Action token"): ``chosen`` maps a
    tripod to the option clicked, when the rules offer it now; the others keep the
    preselected one."""
    asked = page.eval_on_selector_all(
        "#action-tokens [data-decision]", "els => els.map(e => e.dataset.decision)"
    )
    for vehicle, option in (chosen or {}).items():
        radio = (
            f"fieldset[data-decision^='action_token:{vehicle}@'] "
            f"[data-token-option='{option}'] input"
        )
        if page.query_selector(radio):
            page.check(radio)
    page.click("#submit-tokens")
    for decision in asked:
        page.wait_for_selector(f"[data-decision='{decision}']", state="detached")


def answer_choices(page: Any) -> None:
    """Answer the choices on the page (guns or rockets, a skill, a bomber's drop) with
    their preselected defaults, and wait until they are gone."""
    asked = page.eval_on_selector_all(
        "#choices [data-decision]", "els => els.map(e => e.dataset.decision)"
    )
    page.click("#submit-choices")
    for decision in asked:
        page.wait_for_selector(f"[data-decision='{decision}']", state="detached")


TokenChoice = Callable[[str, int, int, list[str]], str | None]
"""(tripod, turn, phase, options) -> the option to click (None: keep the preselected)."""


def answer_tokens(page: Any, choose: TokenChoice) -> bool:
    """Wait for the page to settle; when it asks the phase's action tokens, answer them
    with ``choose`` (True), else leave the page as it is (False)."""
    page.wait_for_selector(NEXT)
    if page.query_selector("#submit-tokens:not([disabled])") is None:
        return False
    rows = page.eval_on_selector_all(
        "#action-tokens [data-decision]",
        "els => els.map(e => [e.dataset.decision,"
        " [...e.querySelectorAll('[data-token-option]')].map(o => o.dataset.tokenOption)])",
    )
    chosen: dict[str, str] = {}
    for did, options in rows:
        vid, _, when = str(did).removeprefix("action_token:").partition("@")
        turn, _, phase = when.partition(".")
        option = choose(vid, int(turn), int(phase), list(options))
        if option:
            chosen[vid] = option
    place_tokens(page, chosen)
    return True


VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}
"""The issue's two screens (issue 29, Tests: "screenshots kept as artifacts at both
viewports")."""

VIEWPORT_SHOTS = ARTIFACTS / "viewports"
"""Where :func:`both_viewports` keeps its screenshots: ``<name>-<viewport>.png``."""


def both_viewports(page: Any, name: str, show: str | None = None) -> list[Path]:
    """Screenshots of the page as it stands at each of :data:`VIEWPORTS` (the page laid
    out again at each size, then its own size given back), kept in
    :data:`VIEWPORT_SHOTS` as ``<name>-desktop.png`` and ``<name>-phone.png``; ``name``
    says the issue's item (``item06-confirm``). ``show``: a selector of what the shot is
    about, scrolled into view at each size if it is not (an end screen under the table
    on a phone). Returns the files written."""
    VIEWPORT_SHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    written = []
    try:
        for label, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            if show is not None:
                page.locator(show).first.scroll_into_view_if_needed()
            # two frames: the resize laid out and painted (no timed wait)
            page.evaluate(
                "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )
            path = VIEWPORT_SHOTS / f"{name}-{label}.png"
            png = page.screenshot(path=str(path))
            # a PNG's IHDR holds its width and height: the shot is of that viewport
            assert int.from_bytes(png[16:20], "big") == width, (path, png[16:24])
            written.append(path)
    finally:
        if before:
            page.set_viewport_size(before)
    return written

"""``dogfight bench --reopen``: a page reopened late in a game is ready to plan at once.

Issue 29 item 1: "Reopening the link of *Captured tripods* at turn 15 showed "Turn 1:
every plan is in." ... then animated every turn again: 39 s before the player could
plan." Here *Captured tripods* (four tripods) is played by computer players up to the
planning of turn 15, the earth seat handed back to a person, and its link opened in a
fresh Chromium page (nothing seen in that browser), then reloaded: how long until the
page offers its cards, and which turns it animated on the way. Target: ready ≤ 1 s.

The browser test (``tests/test_browser_reopen.py``) drives the same functions and checks
what the page animates, not the time.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path
from typing import Any

PRESET = "captured-tripods"
TURN = 15
TARGET_MS = 1000.0
READY = "[data-plan] [data-card]:not([disabled])"
"""The page is ready to plan: its cards can be picked."""

RECORD_STATUS = """
window.__statuses = [];
new MutationObserver(() => {
  const s = document.getElementById("status");
  const c = document.getElementById("curtain-text");
  for (const t of [s && s.textContent, c && c.textContent]) {
    if (t && window.__statuses[window.__statuses.length - 1] !== t) window.__statuses.push(t);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
"""Records every text the status line and the curtain show while the page loads."""


def late_game(path: Path, turn: int = TURN, seed: int = 0) -> tuple[str, str]:
    """An SQLite file at ``path`` holding *Captured tripods* played by computer players
    up to the planning of ``turn``, its earth seat then given back to a person: the game's
    id and the earth seat's link (``/play/...#seat=earth&token=...``)."""
    from dogfight.catalog import load_catalog
    from dogfight.server.db.store import Store, sqlite_url
    from dogfight.server.play.seat_actions import set_bot
    from dogfight.server.play.seating import seats_of, table_of
    from dogfight.server.play.service import GameService
    from dogfight.server.play.setups import presets
    from dogfight.server.schemas import CreateGame

    catalog = load_catalog()
    store = Store(sqlite_url(path))
    service = GameService(store, catalog)
    setup = presets(catalog)[PRESET]["setup"]
    bots = {"martians": "martian", "earth": "martian"}
    seats = seats_of(CreateGame(preset=PRESET, computer=bots), table_of(setup, catalog))
    game, tokens = service.create(setup, PRESET, seats, seed, True)
    while not game.state.over and game.state.turn < turn:
        if not game.advance(limit=1):
            break
    if game.state.over or game.state.turn != turn:
        raise RuntimeError(f"the bots' game did not reach turn {turn} (seed {seed})")
    set_bot(game, "earth", None)
    store.engine.dispose()
    return game.id, f"/play/{game.id}#seat=earth&token={tokens['earth']}"


def open_page(browser: Any, url: str) -> tuple[float, list[str], Any]:
    """Open ``url`` in a fresh browser context (nothing seen there): milliseconds until
    it is ready to plan, the status and curtain texts it showed on the way, and the
    page (its context is closed with it)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60000)
    page.add_init_script(RECORD_STATUS)
    began = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(READY)
    ready = 1000 * (time.perf_counter() - began)
    return ready, list(page.evaluate("window.__statuses")), page


def reload_page(page: Any) -> tuple[float, list[str]]:
    """Reload a page (its browser has seen the game): milliseconds until it is ready to
    plan, and the texts it showed."""
    began = time.perf_counter()
    page.reload()
    page.wait_for_selector(READY)
    ready = 1000 * (time.perf_counter() - began)
    return ready, list(page.evaluate("window.__statuses"))


def turns_shown(texts: list[str]) -> list[int]:
    """The turns named in the status and curtain texts ("Turn 14, phase 2" -> 14)."""
    return sorted({int(n) for t in texts for n in re.findall(r"Turn (\d+)", t)})


def run(quick: bool = False) -> dict[str, Any]:
    """The figures: first load and reload of the late game's page, the turns each
    animated, with the target beside them."""
    from playwright.sync_api import sync_playwright

    from dogfight.bench.browser import ARGS, CHROMIUM
    from dogfight.bench.server import _servers

    loads = 1 if quick else 3
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "reopen.sqlite"
        _, link = late_game(path)
        with _servers(f"sqlite:///{path}", 1) as (bases, _), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                first, again, shown = [], [], set()
                for _ in range(loads):
                    ms, texts, page = open_page(browser, bases[0] + link)
                    first.append(ms)
                    shown.update(turns_shown(texts))
                    ms, texts = reload_page(page)
                    again.append(ms)
                    shown.update(turns_shown(texts))
                    page.context.close()
            finally:
                browser.close()
    worst = max(first + again)
    return {
        "scenario": f"{PRESET}, reopened at turn {TURN} (4 tripods), Chromium 1366x768",
        "ready_to_plan_ms": [round(x) for x in first],
        "ready_after_reload_ms": [round(x) for x in again],
        "turns_animated": sorted(shown),
        "target_ms": TARGET_MS,
        "met": worst <= TARGET_MS,
    }

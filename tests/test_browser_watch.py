"""The watch page (issue 32 item 4): a spectator opens a game's watch link while its two
seats play a whole game over the API; the page shows the moves live, and nothing a seat keeps secret
(an explosion drawn, a lost observer) reaches its screen, its HTTP bodies or its
WebSocket frames. Screenshots at both viewports go to ``artifacts/browser/viewports/``."""

from __future__ import annotations

from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    both_viewports,
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    recording_seat,
    server_fixture,  # noqa: F401
)
from conftest import default_plans
from server_helpers import Server
from test_browser_secrets import SECRETS, secrets_situation

pytestmark = needs_chromium


def test_a_spectator_watches_a_duel_live_and_sees_no_secret(server: Server, browser: Any) -> None:
    made = create_game(server, {"situation": secrets_situation()})
    game = made["game"]["id"]
    watcher = recording_seat(browser, server, made["watch_link"])
    watcher.wait_for_selector("#stage[data-steps='0']")
    seats = (("allies", "bristol", "bristol-f2b"), ("central", "chaser", "fokker-d7"))
    for seat, vid, kind in seats:
        s = next(x for x in made["seats"] if x["label"] == seat)
        answer = httpx.post(
            f"{server.base}/api/games/{game}/seats/{s['id']}/plans",
            headers={"X-Seat-Token": s["token"]},
            json={"turn": 1, "plans": {vid: default_plans(kind)[0]}},
            timeout=20,
        )
        assert answer.status_code < 300, answer.text
    # the turn flown reaches the page over its socket
    watcher.wait_for_function("() => Number(document.getElementById('stage').dataset.steps) > 0")
    log = watcher.inner_text("#log-entries")
    assert "bristol" in log and "chaser" in log
    assert watcher.locator("#board [data-vehicle]").count() == 2
    both_viewports(watcher, "item32-watch")
    # a large table leaves the bases small: the spectator zooms onto the vehicles and back
    whole = watcher.get_attribute("#board", "viewBox")
    watcher.click("#zoom-fight")
    zoomed = watcher.get_attribute("#board", "viewBox")
    assert whole and zoomed and float(zoomed.split()[2]) < float(whole.split()[2])
    watcher.click("#zoom-all")
    assert watcher.get_attribute("#board", "viewBox") == whole
    # on to the end of the game (the airplanes fly straight off the table)
    for turn in range(2, 12):
        summary = httpx.get(f"{server.base}/api/games/{game}", timeout=20).json()
        if summary["over"]:
            break
        for seat, vid, kind in seats:
            s = next(x for x in made["seats"] if x["label"] == seat)
            if seat not in summary["waiting_for"] and s["id"] not in summary["waiting_for"]:
                continue
            answer = httpx.post(
                f"{server.base}/api/games/{game}/seats/{s['id']}/plans",
                headers={"X-Seat-Token": s["token"]},
                json={"turn": turn, "plans": {vid: default_plans(kind)[0]}},
                timeout=20,
            )
            assert answer.status_code < 300, answer.text
    assert httpx.get(f"{server.base}/api/games/{game}", timeout=20).json()["over"]
    watcher.wait_for_function("() => document.getElementById('status').innerText === 'Game over'")
    screen = watcher.inner_text("body")
    for secret in SECRETS:
        assert secret not in screen
        for body in watcher.received:
            assert secret not in body, (secret, body[:300])
    assert any('"type":"watch"' in body.replace(" ", "") for body in watcher.received)
    for s in made["seats"]:
        assert all(s["token"] not in body for body in watcher.received)

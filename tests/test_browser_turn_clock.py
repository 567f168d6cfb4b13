"""The game's log says when a seat's turn clock ran out (issue 32 item 3), in Chromium:
the seat's log live and after a reload, and the spectators' log. The server runs in this
process (uvicorn in a thread) with an injected time source moved a day on."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from browser_helpers import browser_fixture, needs_chromium, new_page  # noqa: F401
from server_helpers import duel_situation, free_port, straights_plan

from dogfight.server.web.app import create_app
from dogfight.server.web.limits import Limits

pytestmark = needs_chromium


@dataclass
class Clocked:
    base: str
    offset: float = 0.0

    def now(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def clocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Clocked]:
    monkeypatch.setenv("DOGFIGHT_CLOCK_TICK", "0.1")
    port = free_port()
    served = Clocked(f"http://127.0.0.1:{port}")
    app = create_app(
        f"sqlite:///{tmp_path / 'g.sqlite'}",
        limits=Limits(allowed_hosts=("127.0.0.1",)),
        now=served.now,
    )
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server never started"
        time.sleep(0.05)
    yield served
    server.should_exit = True
    thread.join(10)


def test_every_log_says_the_seats_clock_ran_out(browser: Any, clocked: Clocked) -> None:
    situation = duel_situation(width=400, height=400, gap=0)
    for plane, x in zip(situation["vehicles"], (40, 360), strict=True):
        plane["pose"] = {"x": x, "y": 20, "heading": 90}
    made = httpx.post(
        clocked.base + "/api/games", json={"situation": situation, "clock": 24}, timeout=20
    ).json()
    game, (a, b) = made["game"]["id"], made["seats"]
    planned = httpx.post(
        f"{clocked.base}/api/games/{game}/seats/{a['id']}/plans",
        json={"turn": 1, "plans": {vid: straights_plan() for vid in a["vehicles"]}},
        headers={"X-Seat-Token": a["token"]},
        timeout=20,
    )
    assert planned.status_code == 200, planned.text
    page = new_page(browser, 390, 844)
    path, _, fragment = b["link"].partition("#")
    page.goto(f"{clocked.base}{path}?speed=40#{fragment}")
    page.wait_for_selector("#turn-clock:not([hidden])")
    assert page.query_selector(".log.clock_ran_out") is None
    clocked.offset = 24 * 3600 + 1
    said = "Turn 1: central's turn clock ran out; the easy computer player plans for this seat"
    page.wait_for_selector(f'.log.clock_ran_out:has-text("{said}")', timeout=30000)
    page.reload()  # from the stored row
    page.wait_for_selector(f'.log.clock_ran_out:has-text("{said}")', timeout=30000)
    watcher = new_page(browser)
    watcher.goto(clocked.base + made["watch_link"])
    watcher.wait_for_selector(f'.log.clock_ran_out:has-text("{said}")', timeout=30000)
    assert page.errors == [] and watcher.errors == []

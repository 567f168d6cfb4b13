"""The table page's labels can be read (issue 29 item 11): a base's label covers no
objective token nor its label (board.js ``labelSpot``), in a real browser."""

from __future__ import annotations

from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    open_seat,
    server_fixture,  # noqa: F401
)
from server_helpers import Server, duel_situation

pytestmark = needs_chromium

BOXES = """() => {
  const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  return {
    labels: [...document.querySelectorAll('#board [data-label]')].map(box),
    tokens: [...document.querySelectorAll('#board [data-objective] circle')].map(box),
    tokenLabels: [...document.querySelectorAll('#board [data-objective] text')].map(box),
  };
}"""


def _meet(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_bases_label_covers_no_objective(server: Server, browser: Any) -> None:
    # the objective token just above the Camel's base, where its label went first
    situation = duel_situation(gap=50.0)  # the Camel at (45, 20), heading up the table
    situation["objectives"] = [{"id": "village", "x": 45.0, "y": 27.0}]
    made = create_game(server, {"situation": situation}, timeout=30)
    [link] = [s["link"] for s in made["seats"] if s["label"] == "allies"]
    page = open_seat(browser, server, link, speed=None)
    page.wait_for_selector("#board [data-label='camel']")
    page.wait_for_selector("#board [data-objective]")
    found = page.evaluate(BOXES)
    assert found["labels"] and found["tokens"]
    for label in found["labels"]:
        for other in found["tokens"] + found["tokenLabels"]:
            assert not _meet(label, other), (label, other)
    assert page.errors == []

"""The table page's labels can be read (issue 29 item 11): a base's label covers no
objective token nor its label, and an objective's label covers no base, no token and no
other label (board.js ``labelSpot``), in a real browser."""

from __future__ import annotations

from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    new_page,
    open_seat,
    screenshots,
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


def allies_table(server: Server, browser: Any, situation: dict[str, Any]) -> Any:
    """The Allies' table of a new game of ``situation``, once the Camel's label is drawn."""
    made = create_game(server, {"situation": situation}, timeout=30)
    [link] = [s["link"] for s in made["seats"] if s["label"] == "allies"]
    page = open_seat(browser, server, link, speed=None)
    page.wait_for_selector("#board [data-label='camel']")
    return page


def test_a_bases_label_covers_no_objective(server: Server, browser: Any) -> None:
    # the objective token just above the Camel's base, where its label went first
    situation = duel_situation(gap=50.0)  # the Camel at (45, 20), heading up the table
    situation["objectives"] = [{"id": "village", "x": 45.0, "y": 27.0}]
    page = allies_table(server, browser, situation)
    page.wait_for_selector("#board [data-objective]")
    found = page.evaluate(BOXES)
    assert found["labels"] and found["tokens"]
    for label in found["labels"]:
        for other in found["tokens"] + found["tokenLabels"]:
            assert not _meet(label, other), (label, other)
    assert page.errors == []


RECTS = """() => {
  const box = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box);
  return {
    bases: all('#board [data-vehicle] .body'),
    tokens: all('#board [data-objective] circle'),
    tokenLabels: all('#board [data-objective] text'),
    labels: all('#board [data-label]'),
  };
}"""


def test_an_objectives_label_covers_no_base_and_no_label(server: Server, browser: Any) -> None:
    # an objective token just above the Camel's base, where its label went first, and a
    # second one beside it, where the first one's label might go next (Alsace Again!'s
    # village rows)
    situation = duel_situation(gap=50.0)  # the Camel at (45, 20), heading up the table
    situation["objectives"] = [
        {"id": "village", "x": 45.0, "y": 27.0},
        {"id": "bridge", "x": 52.0, "y": 27.0},
    ]
    page = allies_table(server, browser, situation)
    page.wait_for_selector("#board [data-objective='bridge']")
    found = page.evaluate(RECTS)
    assert len(found["tokenLabels"]) == 2 and found["bases"]
    for i, label in enumerate(found["tokenLabels"]):
        others = found["tokenLabels"][:i] + found["tokenLabels"][i + 1 :]
        for other in found["bases"] + found["tokens"] + others + found["labels"]:
            assert not _meet(label, other), (label, other)
    assert page.errors == []


def test_a_crowded_table_keeps_every_label_clear(server: Server, browser: Any) -> None:
    """Four airplanes nose to tail around an objective token: every label (the bases'
    and the token's) finds a spot on no base, no token and no other label, farther out
    when the spots beside its thing are taken."""
    situation = duel_situation()
    camel, albatros = situation["vehicles"]
    situation["vehicles"] = [
        {**camel, "pose": {"x": 40.0, "y": 40.0, "heading": 0}},
        {**albatros, "pose": {"x": 49.0, "y": 40.0, "heading": 180}},
        {**camel, "id": "spad", "type": "spad-xiii", "pose": {"x": 40.0, "y": 48.0, "heading": 0}},
        {**albatros, "id": "fokker", "pose": {"x": 49.0, "y": 48.0, "heading": 180}},
    ]
    situation["objectives"] = [{"id": "depot", "x": 44.5, "y": 44.0}]
    page = allies_table(server, browser, situation)
    page.wait_for_selector("#board [data-label='fokker']")
    page.locator("#board").screenshot(path=str(screenshots("labels") / "crowded.png"))
    found = page.evaluate(RECTS)
    assert len(found["labels"]) == 4 and len(found["tokenLabels"]) == 1
    labels = found["labels"] + found["tokenLabels"]
    for i, label in enumerate(labels):
        for other in found["bases"] + found["tokens"] + labels[:i] + labels[i + 1 :]:
            assert not _meet(label, other), (i, label, other)
    assert page.errors == []


DRAW = """async ([state, extra]) => {
  const { Board } = await import("/static/board.js");
  const catalog = await (await fetch("/api/catalog")).json();
  const root = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  root.setAttribute("width", "800");
  root.setAttribute("height", "800");
  document.body.prepend(root);
  new Board(root, catalog).draw(state, extra);
  const box = (e) => {
    const b = e.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  return {
    labels: [...root.querySelectorAll("[data-label], [data-objective] text")].map(box),
    exits: [...root.querySelectorAll("[data-exit] text")].map(box),
  };
}"""


def test_a_label_keeps_off_an_exit_edges_words(server: Server, browser: Any) -> None:
    """An airplane at the west edge's middle, where the words of a west exit are written
    ("allies exit"), and one just under the south edge's: their labels keep off the
    words (board.js drawing the state in the page, as the table does)."""
    page = new_page(browser)
    page.goto(server.base + "/")
    plane = {"type": "sopwith-camel", "side": "allies", "eliminated": False}
    state = {
        "table": {"width": 90.0, "height": 90.0},
        "vehicles": [
            {**plane, "id": "west", "pose": {"x": 6.0, "y": 45.0, "heading": 90.0}},
            {**plane, "id": "south", "pose": {"x": 45.0, "y": 5.0, "heading": 90.0}},
            {**plane, "id": "above", "pose": {"x": 45.0, "y": 12.0, "heading": 90.0}},
        ],
        "objectives": [],
    }
    exits = [
        {"side": "allies", "edge": "west", "text": "allies exit"},
        {"side": "allies", "edge": "south", "text": "allies exit"},
    ]
    found = page.evaluate(DRAW, [state, {"exits": exits}])
    assert len(found["labels"]) == 3 and len(found["exits"]) == 2
    for label in found["labels"]:
        for words in found["exits"]:
            assert not _meet(label, words), (label, words)
    assert page.errors == []

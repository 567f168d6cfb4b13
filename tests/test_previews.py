"""The table option ``previews`` (issue 30 item 7). 001: "Players are never allowed to
take any kind of measurement during the game, apart from those required to check firing,
tailing, and such." As printed (``"as_printed"``): no ghost beyond the card's own shape,
no reach shown before the reveal, no distance in warnings; ``"on"`` (the house rule most
groups want, the default) shows them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    browser_fixture,
    create_game,
    needs_chromium,
    open_link,
    open_seat,
    pick,
    plan_for,
    server_fixture,
)
from conftest import state_of
from server_helpers import Server, client, duel_situation, headers, seat_url

from dogfight.rules.foresight import ghosts, warnings

browser = browser_fixture
server = server_fixture
Json = dict[str, Any]


def _near_the_edge(previews: str) -> Json:
    """The Camel 12 cm from the north edge heading north: its straights leave the table."""
    sit = duel_situation(gap=30.0)
    sit["vehicles"][0]["pose"] = {"x": 20.0, "y": 78.0, "heading": 90}
    sit["switches"] = {"previews": previews}
    return sit


@pytest.mark.parametrize("previews", ["on", "as_printed"])
def test_a_warning_gives_a_distance_only_with_previews_on(previews: str) -> None:
    state = state_of(_near_the_edge(previews))
    camel = state.vehicles["camel"]
    (warned,) = warnings(state, {"camel": ghosts(state, camel, ["1", "2", "3"])})["camel"]
    assert warned.kind == "leaves_table" and "north edge" in warned.text
    if previews == "on":
        assert " cm beyond the north edge" in warned.text and warned.distance
    else:
        assert " cm" not in warned.text and warned.distance is None


def test_as_printed_the_check_says_no_place_a_card_takes_the_base(tmp_path: Path) -> None:
    with client(tmp_path / "g.sqlite") as c:
        for previews, measured in (("on", True), ("as_printed", False)):
            made = c.post("/api/games", json={"situation": _near_the_edge(previews)}).json()
            allies = next(s for s in made["seats"] if s["label"] == "allies")
            answer = c.post(
                seat_url(made["game"]["id"], allies["id"], "check"),
                headers=headers(allies["token"]),
                json={"plans": {"camel": {"cards": ["1", "2"]}}},
            )
            assert answer.status_code == 200, answer.text
            check = answer.json()["plans"]["camel"]
            assert [g["card"] for g in check["ghosts"]] == ["1", "2"]
            assert all(("pose" in g) == measured for g in check["ghosts"])
            assert all(("path" in g) == measured for g in check["ghosts"])
            assert check["warnings"] and all(
                (w["distance"] is not None) == measured for w in check["warnings"]
            )


@needs_chromium
def test_as_printed_the_table_draws_no_ghost_and_says_so(server: Server, browser: Any) -> None:
    made = create_game(server, {"situation": _near_the_edge("as_printed")})
    page = open_seat(browser, server, made["hotseat_link"])
    plan_for(page, "camel")
    assert "as printed" in page.inner_text("#measuring")
    pick(page, "camel", ["1", "2", "3"])
    warning = page.wait_for_selector("[data-plan='camel'] [data-warning='leaves_table']")
    assert "north edge" in warning.inner_text() and " cm" not in warning.inner_text()
    assert page.query_selector("#board [data-ghost]") is None
    # no firing reach on a base while planning
    page.hover("#board g.base[data-vehicle='albatros']")
    assert page.query_selector("#board [data-reach]") is None
    assert page.errors == []
    # with previews on, the same hover shows it, and the header says so
    made = create_game(server, {"situation": _near_the_edge("on")})
    open_link(page, server, made["hotseat_link"])
    plan_for(page, "camel")
    assert "previews on" in page.inner_text("#measuring")
    page.hover("#board g.base[data-vehicle='albatros']")
    page.wait_for_selector("#board [data-reach='albatros']")

"""Ruling SR10 in a real browser: a Mk IV Cuttlefish with two engine hits (000: "it can
plan only stationary maneuvers until the end of the game") holds two such cards, a
standing still card and a reverse. Its seat's planning panel asks for two cards, the
plan is taken, the tripod stands still the first phase without a card or a token and
plays its cards in phases 2 and 3; the airplane's seat is never told how many cards it
has before they are revealed. The game goes on (every plan of such a tripod used to be
refused). Screenshots in ``artifacts/browser/damaged-tripod/``."""

from __future__ import annotations

from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    open_seat,
    pick,
    plan_for,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Server

from dogfight.catalog.loader import load_catalog

pytestmark = needs_chromium

DECK = load_catalog().tripod_decks["T4"].cards
STILL = [c.id for c in DECK if c.stationary]


def test_a_tripod_with_two_engine_hits_plans_its_two_cards(server: Server, browser: Any) -> None:
    folder = screenshots("damaged-tripod")
    situation = {
        "ruleset": "wog",
        "switches": {"standard_rules": True},
        "vehicles": [
            {
                "id": "cuttlefish",
                "type": "mk4-cuttlefish",
                "side": "martians",
                "pose": {"x": 45, "y": 75, "heading": 270},
                "status": {"engine": 2},
            },
            {
                "id": "camel",
                "type": "sopwith-camel",
                "side": "earth",
                "pose": {"x": 20, "y": 10, "heading": 0},
            },
        ],
    }
    made = create_game(server, {"seed": 5, "analysis": True, "situation": situation})
    [martian] = [s for s in made["seats"] if "cuttlefish" in s["vehicles"]]
    [earth] = [s for s in made["seats"] if s is not martian]
    tripod_page = open_seat(browser, server, martian["link"])
    plane_page = open_seat(browser, server, earth["link"])

    assert plan_for(tripod_page) == "cuttlefish"
    tripod_page.wait_for_selector(f"[data-plan='cuttlefish'] [data-card='{STILL[0]}']")
    pick(tripod_page, "cuttlefish", STILL)
    # two cards make the plan: the button is there to press
    tripod_page.wait_for_selector("#submit-plans:not([disabled])")
    tripod_page.screenshot(path=str(folder / "two-cards-planned.png"))
    submit(tripod_page)
    assert plan_for(plane_page) == "camel"
    pick(plane_page, "camel", ["1", "2", "3"])
    submit(plane_page)

    # phase 1 has no card: no token is asked then; phase 2's is, for its standing still card
    tripod_page.wait_for_selector("fieldset[data-decision='action_token:cuttlefish@1.2']")
    assert (
        tripod_page.query_selector("fieldset[data-decision='action_token:cuttlefish@1.1']") is None
    )
    tripod_page.check(
        "fieldset[data-decision='action_token:cuttlefish@1.2'] [data-token-option='none'] input"
    )
    tripod_page.click("#submit-tokens")
    tripod_page.wait_for_selector("fieldset[data-decision='action_token:cuttlefish@1.3']")
    tripod_page.check(
        "fieldset[data-decision='action_token:cuttlefish@1.3'] [data-token-option='none'] input"
    )
    tripod_page.click("#submit-tokens")

    plane_page.wait_for_function(
        "c => document.getElementById('log-entries').innerText"
        ".includes('cuttlefish reveals card ' + c)",
        arg=STILL[1],
    )
    log = plane_page.inner_text("#log-entries")
    assert log.index(f"cuttlefish reveals card {STILL[0]}") < log.index(
        f"cuttlefish reveals card {STILL[1]}"
    )
    plane_page.screenshot(path=str(folder / "airplane-log.png"))
    for page in (tripod_page, plane_page):
        assert page.errors == []

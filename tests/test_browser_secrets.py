"""Secrets of the damage cards at the browser table, each seat in its own page (issue 30
item 5): an explosion that is half the damage allowance (000: "The player looks secretly
at the damage cards drawn") and a two-seater's lost observer (002: "Special Damages (Keep
Secret Unless Noted)") reach the Bristol's page only — not the other page's screen, nor
its HTTP bodies, nor its WebSocket frames. Screenshots go to ``artifacts/browser/secrets/``."""

from __future__ import annotations

from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    pick,
    recording_seat,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from conftest import default_plans, explosion_card, plain
from server_helpers import Json, Server

pytestmark = needs_chromium

# what only the Bristol's seat may receive
SECRETS = ("rear_gun_lost", "observer incapacitated", '"kind":"explosion"', "draws an explosion")


def secrets_situation() -> Json:
    """`wog`: a Bristol whose observer is out, a Fokker 20 cm behind it on the same line
    (in the rear gun's reach); the Fokker's first card is an explosion."""
    return {
        "ruleset": "wog",
        "table": {"width": 300, "height": 300},
        "damage_decks": {"A": [explosion_card("A"), *plain("A", 1, 1, 1)]},
        "vehicles": [
            {
                "id": "bristol",
                "type": "bristol-f2b",
                "side": "allies",
                "pose": {"x": 150, "y": 150},
                "status": {"observer": 1},
            },
            {"id": "chaser", "type": "fokker-d7", "side": "central", "pose": {"x": 130, "y": 150}},
        ],
    }


def test_a_secret_explosion_and_a_lost_observer_stay_on_their_page(
    server: Server, browser: Any
) -> None:
    folder = screenshots("secrets")
    made = create_game(server, {"situation": secrets_situation()})
    links = {s["label"]: s["link"] for s in made["seats"]}
    owner = recording_seat(browser, server, links["allies"])
    other = recording_seat(browser, server, links["central"])
    cards: list[str] = default_plans("bristol-f2b")[0]["cards"]
    for page, vid in ((owner, "bristol"), (other, "chaser")):
        page.wait_for_selector(f"[data-plan='{vid}'] [data-card='{cards[0]}']")
        pick(page, vid, cards)
        submit(page)
    # the turn is flown: both pages plan turn 2
    for page, vid in ((owner, "bristol"), (other, "chaser")):
        page.wait_for_function("() => document.getElementById('stage').dataset.stage !== ''")
        page.wait_for_selector(f"[data-plan='{vid}']")
    owner.wait_for_function(
        "() => document.getElementById('log-entries').innerText.includes('draws an explosion')"
    )
    log = owner.inner_text("#log-entries")
    assert "draws an explosion" in log and "observer incapacitated" in log
    owner.screenshot(path=str(folder / "bristol.png"))
    other.wait_for_function(
        "() => document.getElementById('log-entries').innerText.includes('bristol takes')"
    )
    log = other.inner_text("#log-entries")
    assert "explosion" not in log and "observer" not in log
    assert "bristol rear guns: holds fire" in log  # what a gun holding fire shows
    other.screenshot(path=str(folder / "chaser.png"))
    for body in other.received:
        for secret in SECRETS:
            assert secret not in body, (secret, body[:300])
    # the check would see them: the Bristol's page gets both, in the same form
    assert any("rear_gun_lost" in body for body in owner.received)
    assert any('"kind":"explosion"' in body for body in owner.received)
    assert owner.errors == [] and other.errors == []

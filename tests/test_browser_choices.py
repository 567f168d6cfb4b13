"""Choices asked on the page in the firing step, in a real browser (decisions.js
``renderChoices``). Guns or rockets (000, issue 30 item 2): "After all vehicles have
moved, all airplanes can fire"; "An airplane carrying rockets may fire its machine guns
or its rockets, but not both in the same phase." The rocketeer's seat gets a small prompt
once everything has moved, offering only the counters it has left (one after launching
one). A skill used or kept (000, issue 30 item 4: "once every 5 phases, the pilot shoots
first"): the pilot's seat keeps it and the skill is not spent. Screenshots in
``artifacts/browser/choices/`` and ``artifacts/browser/choices-skill/``."""

from __future__ import annotations

from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    both_viewports,
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    open_seat,
    screenshots,
    server_fixture,  # noqa: F401
)
from server_helpers import Server, headers, seat_url
from test_rocket_choice import ID, rocket_duel
from test_skill_choice import facing

from dogfight.catalog.models import Skill

pytestmark = needs_chromium


def planned(server: Server, sit: dict[str, Any], labels: dict[str, str]) -> tuple[str, Any]:
    """A game of ``sit`` made and planned over HTTP by each seat (label: vehicle)."""
    plans = {v["id"]: v.pop("plans")[0] for v in sit["vehicles"]}
    made = create_game(server, {"situation": sit, "seed": 0, "analysis": True})
    game = made["game"]["id"]
    seats = {s["label"]: s for s in made["seats"]}
    for label, vid in labels.items():
        seat = seats[label]
        posted = httpx.post(
            server.base + seat_url(game, seat["id"], "plans"),
            headers=headers(seat["token"]),
            json={"turn": 1, "plans": {vid: plans[vid]}},
            timeout=10,
        )
        assert posted.status_code == 200, posted.text
    return game, seats


def test_the_rocketeer_chooses_rockets_on_the_page(server: Server, browser: Any) -> None:
    folder = screenshots("choices")
    game, seats = planned(server, rocket_duel(), {"earth": "p", "huns": "e"})
    page = open_seat(browser, server, seats["earth"]["link"])
    page.wait_for_selector("#submit-choices:not([disabled])")
    prompt = page.inner_text("#choices")
    assert "guns or rockets" in prompt and "2 Rocket counters left" in prompt
    assert "but not both in the same phase" in prompt  # the rule quoted
    options = page.eval_on_selector_all(
        f"fieldset[data-decision='{ID}'] [data-choice]", "els => els.map(e => e.dataset.choice)"
    )
    assert options == ["guns", "rockets:1", "rockets:2"]
    page.screenshot(path=str(folder / "01-rockets.png"))
    both_viewports(page, "item06-decision")
    page.check(f"fieldset[data-decision='{ID}'] [data-choice='rockets:1'] input")
    page.click("#submit-choices")
    # phase 2 asks again with the one counter left (phase 1 resolved)
    page.wait_for_selector("fieldset[data-decision='rockets:p@1.2']")
    again = page.eval_on_selector_all(
        "fieldset[data-decision='rockets:p@1.2'] [data-choice]",
        "els => els.map(e => e.dataset.choice)",
    )
    assert again == ["guns", "rockets:1"]
    huns = seats["huns"]
    view = httpx.get(
        server.base + seat_url(game, huns["id"]), headers=headers(huns["token"]), timeout=10
    ).json()
    events = [e for s in view["steps"] for e in s["events"]]
    launched = [(e["firer"], e["count"]) for e in events if e["kind"] == "rockets_launched"]
    assert launched == [("p", 1)]
    page.screenshot(path=str(folder / "02-one-rocket-left.png"))


def test_the_pilot_keeps_its_skill_on_the_page(server: Server, browser: Any) -> None:
    folder = screenshots("choices-skill")
    game, seats = planned(
        server, facing(Skill.ITCHY_TRIGGER_FINGER), {"earth": "p", "central": "e"}
    )
    page = open_seat(browser, server, seats["earth"]["link"])
    page.wait_for_selector("#submit-choices:not([disabled])")
    prompt = page.inner_text("#choices")
    assert "itchy trigger finger is ready" in prompt and "the pilot shoots first" in prompt
    page.screenshot(path=str(folder / "01-skill.png"))
    page.check("fieldset[data-decision='skill:p@1.1'] [data-choice='keep'] input")
    page.click("#submit-choices")
    central = seats["central"]
    for _ in range(50):
        view = httpx.get(
            server.base + seat_url(game, central["id"]),
            headers=headers(central["token"]),
            timeout=10,
        ).json()
        events = [e for s in view["steps"] for e in s["events"]]
        if any(e["kind"] == "fired" for e in events):
            break
        page.wait_for_timeout(100)
    assert sorted(e["firer"] for e in events if e["kind"] == "fired") == ["e", "p"]
    assert not [e for e in events if e["kind"] == "skill_used"]

"""001's Invasion played to the end in a real browser (Playwright driving Debian's
chromium, headless), each decision of the rules made on the page:

- Tripods vs. Tripods: captured-tripods' four tripods (two captured ones with human
  pilots against two Martian ones, the Martians played by the computer) set up at close
  range with the Martians worn down, so that the game ends in a few turns; the Earth seat
  places its heat-ray token at the reveal of its action card (001: "places the action
  token to specify its facing change or fire direction"), turning the ray to another
  projector than the one written while planning.
- Bombing Tripods: bombers-over-the-tripods' Caproni and Camel over its Locust and Scarab,
  laid out as 001's worked example (the Caproni's dot on the Scarab), hot-seat; the
  bomber's seat chooses on the page which half of the C cards the Scarab takes.

Screenshots go to ``artifacts/browser/invasion/``."""

from __future__ import annotations

from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    END,
    NEXT,
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    next_to_plan,
    open_seat,
    pick,
    place_directions,
    place_tokens,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Json, Server
from test_rules_tripods import CATALOG
from test_rules_versus import still_cards

from dogfight.bench.invasion import invasion_situation

pytestmark = needs_chromium

WAIT = f"{NEXT}, #submit-decisions, #submit-targets, #submit-choices"
"""NEXT (the planning, the curtain, the end, the reveal's directions, the action tokens),
the bomber's pick, the target questions and the bombers' drops of each phase."""


def worn(vid: str, model: str, x: float, y: float, heading: float, side: str, **kw: Any) -> Json:
    """A tripod entry; a Martian one one point from destroyed, its Energy spent (its
    armour then protects nothing: 001 "If the tripod is hit across a side not protected
    ... or while toppled")."""
    entry: Json = {
        "id": vid,
        "type": model,
        "side": side,
        "pose": {"x": x, "y": y, "heading": heading},
    }
    if side == "martians":
        entry.update(damage=CATALOG.tripods[model].damage - 1, energy=0)
    entry.update(kw)
    return entry


def captured_tripods_close() -> Json:
    """captured-tripods' vehicles (001, Tripods vs. Tripods), 16 cm apart, front to front."""
    return {
        "ruleset": "wog",
        "switches": {"standard_rules": True},
        "table": {"width": 90, "height": 90},
        "vehicles": [
            worn("earth-locust", "mk1-locust", 35.0, 38.0, 90.0, "earth", pilot="human"),
            worn("earth-scarab", "mk2-scarab", 55.0, 38.0, 90.0, "earth", pilot="human"),
            worn("martian-locust", "mk1-locust", 35.0, 54.0, 270.0, "martians"),
            worn("martian-scarab", "mk2-scarab", 55.0, 54.0, 270.0, "martians"),
        ],
    }


def plan_tripod(page: Any, vehicle: str, model: str) -> None:
    """Quiet cards (as many as the tripod plans: fewer when it lies down); the action
    tokens are chosen phase by phase (:func:`tokens_of_phase`)."""
    for card in still_cards(model):
        button = f"[data-plan='{vehicle}'] [data-card='{card}']:not([disabled])"
        if page.query_selector(button):
            page.click(button)


def tokens_of_phase(page: Any, rays: dict[str, str]) -> None:
    """001: "in each movement phase each tripod's player must choose their action card in
    secret": a heat-ray card from the projector ``rays`` gives each tripod, where the
    rules offer it now (the ray cools down after it fired)."""
    legend = page.inner_text("#action-tokens")
    assert "face down: secret until its reveal" in legend
    place_tokens(page, {v: f"heat_ray:{p}" for v, p in rays.items()})


def submit_plans(page: Any) -> None:
    if not page.query_selector("#submit-plans:not([disabled])"):
        page.wait_for_timeout(500)
    assert page.query_selector("#submit-plans:not([disabled])"), page.inner_text("#stage")
    submit(page)


def test_captured_tripods_to_the_end(server: Server, browser: Any) -> None:
    folder = screenshots("invasion")
    made = create_game(
        server,
        {
            "situation": captured_tripods_close(),
            "seed": 5,
            "analysis": True,
            "computer": {"martians": "martian"},
        },
        timeout=30,
    )
    [link] = [s["link"] for s in made["seats"] if s["label"] == "earth"]
    page = open_seat(browser, server, link)
    placed = 0
    finished = False
    for _ in range(60):
        page.wait_for_selector(WAIT)
        if page.query_selector("#end-screen"):
            finished = True
            break
        if page.query_selector("#submit-targets"):
            page.click("#submit-targets")
            page.wait_for_selector("#submit-targets", state="detached")
            continue
        if page.query_selector("#submit-tokens:not([disabled])"):
            tokens_of_phase(page, {"earth-locust": "front-left", "earth-scarab": "front"})
            continue
        if page.query_selector("#submit-directions:not([disabled])"):
            legend = page.inner_text("#reveal")
            assert "places the action token" in legend  # 001's sentence, quoted
            fieldset = "fieldset[data-decision^='action_direction:earth-locust@']"
            if page.query_selector(fieldset):
                # written: front-left; the enemy stands straight ahead: turn to the front
                assert page.is_checked(f"{fieldset} [data-direction='front-left'] input")
                assert page.query_selector("#reveal [data-direction='rear']") is None
                if placed == 0:
                    page.screenshot(path=str(folder / "reveal-direction.png"))
                place_directions(page, {"earth-locust": "front"})
                placed += 1
            else:
                place_directions(page)
            continue
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        panels = page.eval_on_selector_all("[data-plan]", "els => els.map(e => e.dataset.plan)")
        for v in panels:
            plan_tripod(page, v, "mk1-locust" if v == "earth-locust" else "mk2-scarab")
        submit_plans(page)
    assert finished, "the tripods-vs-tripods game did not reach its end screen"
    assert placed >= 1
    log = page.inner_text("#log-entries")
    assert "earth-locust (initiative 3) shows a heat ray card (front)" in log
    assert "heat-ray" in log
    assert "initiative 6" in log  # the Martian Scarab's reveal, by the computer
    page.screenshot(path=str(folder / "tripods-end.png"))
    assert page.errors == []


def bombing_example() -> Json:
    """bombers-over-the-tripods' vehicles laid out as 001's example: the Caproni's straight
    puts its bomb card's dot on the Scarab (and its card over the Locust), the Camel's card
    over the Scarab; the tripods one point from destroyed."""
    vehicles = [
        v for v in invasion_situation(CATALOG)["vehicles"] if not v["id"].startswith("earth-")
    ]
    for v in vehicles:
        v.pop("plans")
        if v["type"].startswith("mk"):
            v["damage"] = CATALOG.tripods[v["type"]].damage - 1
    return {
        "ruleset": "wog",
        "switches": {"standard_rules": True},
        "table": {"width": 90, "height": 90},
        "vehicles": vehicles,
    }


def test_bombers_over_the_tripods_to_the_end(server: Server, browser: Any) -> None:
    folder = screenshots("invasion-bombing")
    made = create_game(
        server, {"situation": bombing_example(), "seed": 2, "analysis": True}, timeout=30
    )
    page = open_seat(browser, server, made["hotseat_link"])
    picked: list[str] = []
    planned: dict[str, int] = {}
    finished = False
    for _ in range(80):
        page.wait_for_selector(WAIT)
        if page.query_selector("#end-screen"):
            finished = True
            break
        if page.query_selector("#submit-targets"):
            page.click("#submit-targets")
            page.wait_for_selector("#submit-targets", state="detached")
            continue
        if page.query_selector("#submit-tokens:not([disabled])"):
            # a heat-ray card in the first phase of every turn after the first
            ids = page.eval_on_selector_all(
                "#action-tokens [data-decision]", "els => els.map(e => e.dataset.decision)"
            )
            rays = {}
            for did in ids:
                vid, _, when = did.removeprefix("action_token:").partition("@")
                turn_of, _, phase_of = when.partition(".")
                if int(turn_of) >= 2 and phase_of == "1":
                    rays[vid] = "front"
            tokens_of_phase(page, rays)
            continue
        if page.query_selector("#submit-choices:not([disabled])"):
            # 001: "each bomber's player can decide to drop one or more loads of bombs":
            # asked each phase; the loads chosen at planning are preselected (the default)
            ids = page.eval_on_selector_all(
                "#choices [data-decision]", "els => els.map(e => e.dataset.decision)"
            )
            assert all(i.startswith("bomb_drop:") for i in ids), ids
            page.click("#submit-choices")
            for did in ids:
                page.wait_for_selector(f"[data-decision='{did}']", state="detached")
            continue
        if page.query_selector("#submit-decisions"):
            # 001: "he assigns his choice of half of them to the tripod": the bomber's
            # seat alone; the choice made here is the opposite of the preselected one.
            group = "fieldset[data-decision^='bomb_pick:caproni@']"
            boxes = page.query_selector_all(f"{group} input[type=checkbox]")
            assert len(boxes) == 4, page.inner_text("#stage")
            page.screenshot(path=str(folder / "bomber-choice.png"))
            for box in boxes:
                if box.is_checked():
                    box.uncheck()
                else:
                    box.check()
                    picked.append(str(box.get_attribute("value")).split(":", 1)[1])
            page.click("#submit-decisions")
            page.wait_for_selector("#submit-decisions", state="detached")
            continue
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        panels = page.eval_on_selector_all("[data-plan]", "els => els.map(e => e.dataset.plan)")
        for v in panels:
            turn = planned.get(v, 0)
            if v in ("locust", "scarab"):
                # no heat-ray at the bombs in the first turn: they land
                pick(page, v, list(still_cards("mk1-locust" if v == "locust" else "mk2-scarab")))
            else:
                pick(page, v, ["2", "1", "3"])
                if turn == 0:
                    loads = "2" if v == "caproni" else "1"
                    page.select_option(f"[data-plan='{v}'] select[data-drop='0']", value=loads)
                    # the guns hold fire while the bombs fall: the bombs finish the work
                    for weapon in ("front", "rear"):
                        hold = f"[data-plan='{v}'] select[data-fire='{weapon}-0']"
                        if page.query_selector(hold):
                            page.select_option(hold, value="none")
            planned[v] = turn + 1
        submit_plans(page)
    assert finished, "the bombing game did not reach its end screen"
    log = page.inner_text("#log-entries")
    assert len(picked) == 2, log
    assert "caproni's bombs land: the dot covers scarab, 2 C cards." in log
    page.screenshot(path=str(folder / "bombing-end.png"))
    assert page.errors == []
    # What the page chose is what the Scarab took (the bomber's seat sees its pick).
    seats = {s["label"]: s for s in made["seats"]}
    earth = seats["earth"]
    body = httpx.get(
        f"{server.base}/api/games/{made['game']['id']}/seats/{earth['id']}",
        headers={"X-Seat-Token": earth["token"]},
        timeout=30,
    ).json()
    [event] = [e for s in body["steps"] for e in s["events"] if e["kind"] == "bomber_picked"]
    assert sorted(event["assigned"]) == sorted(picked)

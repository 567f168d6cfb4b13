"""The table page in a real browser (Playwright driving Debian's chromium, headless):
a whole airplane duel played hot-seat by clicking, from the lobby to the end screen and
the replay, and a whole game of *A Spark of Hope* (a tripod's cards and action
tokens). Screenshots of planning and firing go to a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import (  # the fixtures are used by name
    END,
    NEXT,
    answer_tokens,
    both_viewports,
    browser_fixture,  # noqa: F401
    create_in_lobby,
    needs_chromium,
    new_page,
    next_to_plan,
    pick,
    server_fixture,  # noqa: F401
    shots_fixture,  # noqa: F401
    submit,
)
from server_helpers import Server

pytestmark = needs_chromium


def test_a_whole_duel_hot_seat(server: Server, browser: Any, shots: Path) -> None:
    page = new_page(browser)
    game = create_in_lobby(page, server, "duel")
    planned = 0
    finished = False
    for _ in range(80):
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        assert vehicle in ("camel", "albatros")
        pick(page, vehicle, ["1", "2", "3"])
        page.wait_for_selector("#submit-plans:not([disabled])")
        if planned == 0:
            # the ghost of the sequence is drawn while choosing
            page.wait_for_selector("#board .ghost-final")
            page.screenshot(path=str(shots / "duel-planning.png"))
        submit(page)
        planned += 1
    assert finished, "the duel did not reach its end screen"
    assert planned >= 4
    text = page.inner_text("#end-screen")
    assert "Game over" in text
    # the end screen says the game's one judgement: heading, why, and the match points
    heading = page.inner_text("#end-screen .winner")
    assert heading in ("The Allies win", "The Central Powers win", "A draw"), heading
    assert "Why: " in text and "Match points: " in text
    log = page.inner_text("#log-entries")
    assert "fires" in log
    page.screenshot(path=str(shots / "duel-end.png"))
    both_viewports(page, "item02-duel-end", show="#end-screen")
    # the replay steps through the game; find a firing step
    page.click("#end-screen a[href^='/replay/']")
    page.wait_for_selector("#replay-bar:not([hidden])")
    for _ in range(60):
        if page.query_selector("#log-entries .log.fired"):
            break
        page.click("#replay-next")
    assert page.query_selector("#log-entries .log.fired") is not None
    assert page.query_selector("#board line.shot") is not None
    page.screenshot(path=str(shots / "duel-firing.png"))
    assert page.errors == []
    assert (shots / "duel-planning.png").stat().st_size > 0
    del game


def spark_token(_vid: str, turn: int, phase: int, _options: list[str]) -> str | None:
    return {2: "heat_ray:front", 3: "black_smoke:rear" if turn > 1 else None}.get(phase)


def test_a_whole_spark_of_hope(server: Server, browser: Any, shots: Path) -> None:
    page = new_page(browser)
    create_in_lobby(page, server, "a-spark-of-hope")
    turns = {"locust": 0, "nieuport": 0}
    finished = False
    for _ in range(160):
        # 000: the token is chosen at the start of each phase: a heat-ray from the front
        # projector in phase 2 (on the standing card); from the second turn on, Standard
        # Rules black smoke from the rear projector in phase 3
        if answer_tokens(page, spark_token):
            continue
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        if vehicle == "locust":
            pick(page, "locust", ["1", "11", "2"])
        else:
            assert vehicle is not None and vehicle.startswith("nieuport")
            pick(page, vehicle, ["1", "2", "3"])
        page.wait_for_selector("#submit-plans:not([disabled])")
        if turns.get(vehicle, 0) == 0:
            page.wait_for_selector("#board .ghost-final")
            page.screenshot(path=str(shots / f"spark-planning-{vehicle}.png"))
        submit(page)
        turns[vehicle] = turns.get(vehicle, 0) + 1
        if turns["locust"] == 2:
            page.screenshot(path=str(shots / "spark-firing.png"))
    assert turns["locust"] >= 3
    assert finished, "A Spark of Hope did not reach its end screen"
    log = page.inner_text("#log-entries")
    assert "heat-ray" in log
    assert "black smoke" in log
    page.screenshot(path=str(shots / "spark-end.png"))
    assert page.errors == []


def bombing_token(_vid: str, _turn: int, phase: int, options: list[str]) -> str | None:
    """001: the action cards are secret ("A tripod player can place a blank card"): a
    heat-ray card in phase 2, on the standing card."""
    assert "blank" in options
    return "heat_ray:front" if phase == 2 else None


def test_a_whole_bombing_game(server: Server, browser: Any, shots: Path) -> None:
    """001's Bombing Tripods in the browser, hot-seat, to the end screen: the bombers drop
    their loads while planning (a drop choice per phase), the tripods' action cards are
    secret (the blank card is offered) and shown in initiative order, the bomb cards are
    laid and land."""
    page = new_page(browser)
    create_in_lobby(page, server, "bombers-over-the-tripods")
    turns: dict[str, int] = {}
    finished = False
    assigned = 0
    for _ in range(160):
        page.wait_for_selector(f"{NEXT}, #submit-decisions")
        if page.query_selector("#submit-decisions"):
            # the bomber's choice of half of the C cards (its seat alone is asked)
            page.click("#submit-decisions")
            page.wait_for_selector("#submit-decisions", state="detached")
            assigned += 1
            continue
        if answer_tokens(page, bombing_token):
            continue
        first = next_to_plan(page)
        if first == END:
            finished = True
            break
        if first is None:
            continue
        panels = page.eval_on_selector_all("[data-plan]", "els => els.map(e => e.dataset.plan)")
        for vehicle in panels:
            if vehicle in ("locust", "scarab"):
                stand = "11" if vehicle == "locust" else "9"
                pick(page, vehicle, ["1", stand, "2"])
            else:
                pick(page, vehicle, ["1", "2", "3"])
                if turns.get(vehicle, 0) == 0:
                    page.select_option(f"[data-plan='{vehicle}'] select[data-drop='0']", value="1")
            turns[vehicle] = turns.get(vehicle, 0) + 1
        page.wait_for_selector("#submit-plans:not([disabled])")
        submit(page)
    assert finished, "the bombing game did not reach its end screen"
    log = page.inner_text("#log-entries")
    assert "drops 1 load of bombs" in log
    assert "bomb card" in log
    assert "initiative" in log
    assert assigned == log.count("the dot covers")
    page.screenshot(path=str(shots / "bombing-end.png"))
    assert page.errors == []


def test_tripods_versus_tripods_turns(server: Server, browser: Any, shots: Path) -> None:
    """001's Tripods vs. Tripods in the browser, hot-seat, for three turns: secret action
    cards (the blank card offered), shown one at a time in initiative order in the log,
    heat-rays at the enemy tripods."""
    page = new_page(browser)
    create_in_lobby(page, server, "captured-tripods")
    submitted = 0
    seen = ""

    def wanted(text: str) -> bool:
        return "initiative 7" in text and "blank card" in text and "heat-ray" in text

    def token(_vid: str, _turn: int, phase: int, _options: list[str]) -> str | None:
        return {1: "heat_ray:front", 2: "blank"}.get(phase)

    for _ in range(120):
        if answer_tokens(page, token):
            continue
        first = next_to_plan(page)
        # the hot-seat curtain clears the log between seats: keep what each reveal showed
        seen += page.inner_text("#log-entries")
        if first == END or (submitted >= 6 and wanted(seen)):
            break
        if first is None:
            continue
        panels = page.eval_on_selector_all("[data-plan]", "els => els.map(e => e.dataset.plan)")
        for vehicle in panels:
            stand = "11" if vehicle.endswith("locust") else "9"
            for card in [stand, "1", "2", "3", "4"]:
                button = f"[data-plan='{vehicle}'] [data-card='{card}']:not([disabled])"
                if page.query_selector(button):
                    page.click(button)
        page.wait_for_selector("#submit-plans:not([disabled])")
        submit(page)
        submitted += 1
    assert wanted(seen), seen[-2000:]
    page.screenshot(path=str(shots / "tripods-vs-tripods.png"))


def test_a_whole_alsace_again(server: Server, browser: Any, shots: Path) -> None:
    """001's Alsace Again!: the Locust plans three cards per Martian turn, the Earthling
    seat one card and a speed marker for each of its two WW2 airplanes before every
    action phase (001: "Earthling players choose one new maneuver card with a speed
    marker")."""
    page = new_page(browser)
    create_in_lobby(page, server, "alsace-again")
    plans = {"locust": 0, "messerschmitt": 0, "stuka": 0}
    finished = False

    def token(_vid: str, _turn: int, phase: int, _options: list[str]) -> str | None:
        return "heat_ray:front" if phase == 2 else None

    for _ in range(260):
        if answer_tokens(page, token):
            continue
        vehicle = next_to_plan(page)
        if vehicle == END:
            finished = True
            break
        if vehicle is None:
            continue
        if vehicle == "locust":
            pick(page, "locust", ["1", "11", "2"])
        else:
            # the Earthling seat plans all its WW2 airplanes at once
            planes = [p.get_attribute("data-plan") for p in page.query_selector_all("[data-plan]")]
            assert set(planes) <= {"messerschmitt", "stuka"}
            vehicle = "messerschmitt"
            if plans[vehicle] % 3:
                assert "Earthling turn" in page.inner_text("#stage h2")
            for plane in planes:
                pick(page, str(plane), [["4", "5", "2"][plans[vehicle] % 3]])
            if "messerschmitt" in planes:
                page.select_option("[data-plan='messerschmitt'] select[data-speed]", value="4")
        plans[vehicle] += 1
        try:
            page.wait_for_selector("#submit-plans:not([disabled])")
        except Exception:
            raise AssertionError(f"{vehicle} {plans}: {page.inner_text('#stage')}") from None
        if plans[vehicle] == 2 and vehicle == "messerschmitt":
            page.wait_for_selector("#board .ghost-final")
            page.screenshot(path=str(shots / "alsace-earthling-planning.png"))
        submit(page)
    assert finished, "Alsace Again! did not reach its end screen"
    assert plans["messerschmitt"] >= 3 * plans["locust"] - 2
    log = page.inner_text("#log-entries")
    assert "flies at speed 4" in log
    assert "Earthling turn" in log
    page.screenshot(path=str(shots / "alsace-end.png"))
    both_viewports(page, "item02-alsace-end", show="#end-screen")
    assert page.errors == []

"""The table that tells before you commit (issue 12), in a real browser: a plan that
leaves the table is warned and needs a confirmation; two airplanes of one seat have
their own ghost colours; *A Lonely Invader*'s briefing names the exit edge; the
hot-seat curtain hides a seat's damage before the next seat plans; on a phone-sized
screen a tap on a base shows its arcs; the last turn's moves are drawn from the curves
the server sends. Screenshots go to ``artifacts/browser/``."""

from __future__ import annotations

from typing import Any

import httpx
from browser_helpers import (  # the fixtures are used by name
    NEXT,
    both_viewports,
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    new_page,
    next_to_plan,
    open_link,
    pick,
    plan_for,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Json, Server, duel_situation, straights_plan, three_planes

from dogfight.catalog import load_catalog
from dogfight.geometry.maneuver import card_curve_numbers, card_path
from dogfight.geometry.pose import Pose

pytestmark = needs_chromium


def hot_seat(page: Any, server: Server, body: Json) -> str:
    """Make a game (seed 3, open) over the API and open its hot-seat link; its id."""
    made = create_game(server, {"seed": 3, "analysis": True, **body})
    open_link(page, server, made["hotseat_link"])
    return str(made["game"]["id"])


def test_a_plan_off_the_table_is_warned_and_needs_a_confirmation(
    server: Server, browser: Any
) -> None:
    folder = screenshots("off-the-table")
    page = new_page(browser, 1366, 768)  # the desktop, where it fell below the fold
    # the Camel starts 12 cm from the north edge, heading north
    sit = duel_situation(gap=30.0)
    sit["vehicles"][0]["pose"] = {"x": 20.0, "y": 78.0, "heading": 90}
    hot_seat(page, server, {"situation": sit})
    plan_for(page, "camel")
    pick(page, "camel", ["1", "2", "3"])
    warning = page.wait_for_selector("[data-plan='camel'] [data-warning='leaves_table']")
    text = warning.inner_text()
    assert "north edge" in text and "phase 2" in text and " cm beyond" in text
    # the ghost is drawn beyond the edge: the view grew past the table
    page.wait_for_selector("#board [data-ghost='camel'].warned")
    top = float(page.get_attribute("#board", "viewBox").split()[1])
    assert top < -2.0
    page.screenshot(path=str(folder / "warned.png"))
    # Submit asks first; "change my plans" keeps the plan unsent
    page.click("#submit-plans")
    page.wait_for_selector("#confirm-submit")
    assert "north edge" in page.inner_text("#confirm-submit")
    # issue 29 item 6: "Every question the table asks ... is in view when asked, and
    # focus moves to it."
    top, bottom, height = page.evaluate(
        "(() => { const r = document.getElementById('confirm-submit')"
        ".getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; })()"
    )
    assert top >= 0 and bottom <= height
    assert page.evaluate("document.activeElement.id") == "submit-anyway"
    page.screenshot(path=str(folder / "confirm.png"))
    both_viewports(page, "item06-confirm")
    page.keyboard.press("Escape")  # the same as "change my plans"
    assert page.query_selector("#confirm-submit") is None
    page.click("#submit-plans")
    page.wait_for_selector("#confirm-submit")
    page.click("#submit-back")
    assert page.query_selector("#confirm-submit") is None
    page.click("#submit-plans")
    page.wait_for_selector("#confirm-submit")
    before = page.get_attribute("#stage", "data-stage")
    page.click("#submit-anyway")
    page.wait_for_function("b => document.getElementById('stage').dataset.stage !== b", arg=before)
    assert page.errors == []


def test_two_planes_of_one_seat_have_their_own_ghost_colours(server: Server, browser: Any) -> None:
    folder = screenshots("ghost-colours")
    page = new_page(browser)
    hot_seat(page, server, {"situation": three_planes(), "seating": "side"})
    for _ in range(10):
        if next_to_plan(page) in ("spad", "camel"):
            break
    pick(page, "spad", ["1", "2", "3"])
    pick(page, "camel", ["1", "2", "3"])
    page.wait_for_selector("#board [data-ghost='spad'].ghost-final")
    page.wait_for_selector("#board [data-ghost='camel'].ghost-final")
    spad = {g.get_attribute("data-colour") for g in page.query_selector_all("[data-ghost='spad']")}
    camel = {
        g.get_attribute("data-colour") for g in page.query_selector_all("[data-ghost='camel']")
    }
    assert len(spad) == 1 and len(camel) == 1 and spad != camel
    # the base, its label and the console entry share the ghost's colour
    (colour,) = spad
    assert page.get_attribute("[data-vehicle='spad'] .body", "fill") == colour
    assert page.get_attribute("[data-label='spad']", "fill") == colour
    assert page.get_attribute("[data-plan='spad'] .swatch", "data-colour") == colour
    # every card is drawn from the deck data, with its name; pointing at one draws its
    # ghost from where the plan leaves the airplane
    assert page.query_selector("[data-plan='spad'] [data-card='4'] svg.card-face")
    assert page.inner_text("[data-plan='spad'] [data-card='4'] .name").startswith("bank")
    page.click("[data-plan='spad'] .slot .chosen")  # take the cards back
    page.hover("[data-plan='spad'] [data-card='4']")
    page.wait_for_selector("#board [data-ghost='spad'].preview")
    page.screenshot(path=str(folder / "two-planes.png"))
    assert page.errors == []


def test_a_lonely_invader_names_its_exit_edge(server: Server, browser: Any) -> None:
    folder = screenshots("lonely-invader")
    page = new_page(browser)
    hot_seat(page, server, {"preset": "a-lonely-invader"})
    page.wait_for_selector("#briefing:not([hidden]) .exit-edge")
    text = page.inner_text("#briefing")
    assert "south edge" in text
    assert "tripod exits the playing area from the Earthling side" in text
    assert "needs now" in text
    page.wait_for_selector("#board [data-exit='south']")
    page.screenshot(path=str(folder / "briefing.png"))
    assert page.errors == []


def test_the_curtain_hides_a_seats_damage_before_the_next_seat_plans(
    server: Server, browser: Any
) -> None:
    folder = screenshots("curtain")
    page = new_page(browser)
    # point blank: both fire in every phase of turn 1
    hot_seat(page, server, {"situation": duel_situation(gap=22.0)})
    planned: list[str] = []
    saw_reveal = False
    for _ in range(40):
        page.wait_for_selector(NEXT)  # a reveal plays to its end first
        curtain = page.query_selector("#curtain:not([hidden])")
        if curtain is not None:
            # behind a curtain no seat's console, plans or damage are on the page
            assert page.query_selector("#console .damage") is None
            assert page.query_selector("#stage [data-plan]") is None
            # the reveal plays for everybody at once; the curtain after it passes the device
            if curtain.get_attribute("data-after") == "reveal":
                saw_reveal = True
                page.screenshot(path=str(folder / "after-reveal.png"))
            elif len(planned) >= 2:
                page.screenshot(path=str(folder / "pass-the-device.png"))
        vehicle = next_to_plan(page)
        if vehicle is None:
            continue
        if vehicle == "<end screen>" or len(planned) == 4:
            break
        # only this seat's damage is in the console
        consoles = page.query_selector_all("#console .vehicle-console")
        assert [c.get_attribute("data-console") for c in consoles] == [vehicle]
        pick(page, vehicle, ["1", "2", "3"])
        page.wait_for_selector("#submit-plans:not([disabled])")
        submit(page)
        planned.append(vehicle)
    assert saw_reveal
    assert len(planned) >= 3
    assert page.errors == []


def test_a_phone_can_tap_a_base_for_its_arcs(server: Server, browser: Any) -> None:
    folder = screenshots("phone")
    page = new_page(browser, 390, 844, has_touch=True, is_mobile=True, device_scale_factor=2)
    hot_seat(page, server, {"situation": duel_situation()})
    next_to_plan(page)
    page.wait_for_selector("#board [data-vehicle='camel']")
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    assert width >= 370
    page.tap("#board [data-vehicle='camel']")
    page.wait_for_selector("#board [data-reach='camel'] .arc.half")
    assert page.query_selector("#board [data-reach='camel'] .ruler") is not None
    page.screenshot(path=str(folder / "tapped.png"))
    # a tap on the table elsewhere puts the arcs away
    page.tap("#board .felt", position={"x": 5, "y": 5})
    page.wait_for_selector("#board [data-reach]", state="detached")
    assert page.errors == []


def test_house_rules_and_handing_a_seat_to_the_computer(server: Server, browser: Any) -> None:
    folder = screenshots("lobby-and-seats")
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("input[name=preset][value=duel]")
    page.check("#preset-custom")
    # house rules generated from the ruleset's switches, each with its explanation
    page.wait_for_selector("[data-house-rule='illegal_maneuver'] select")
    assert "illegal maneuver" in page.text_content("[data-house-rule='illegal_maneuver']")
    assert page.query_selector("[data-house-rule='standard_rules'] input[type=checkbox]")
    assert "Standard Rules" in page.text_content("[data-house-rule='standard_rules'] .switch-help")
    page.screenshot(path=str(folder / "house-rules.png"), full_page=True)
    # at the table: the seat links again, and the seat handed to a computer player
    game = hot_seat(page, server, {"situation": duel_situation()})
    next_to_plan(page)
    page.click("#seat-tools summary")
    assert page.query_selector("#seat-tools a.seat-link[data-seat='allies']")
    page.select_option("#hand-to", "random")
    page.click("#hand-over")
    # the computer plans the seat's turn at once: the next seat's curtain comes up
    page.wait_for_selector("#take-back, #curtain:not([hidden])")
    page.screenshot(path=str(folder / "handed-over.png"))
    summary = httpx.get(f"{server.base}/api/games/{game}", timeout=10).json()
    allies = next(s for s in summary["seats"] if s["id"] == "allies")
    assert allies["computer"] == "random"
    assert page.errors == []


def test_a_moves_path_is_drawn_from_its_curve_to_where_it_ended(
    server: Server, browser: Any
) -> None:
    """After a turn, each move of the last turn is drawn from the ``curve`` the server
    sends: the centre, 17 points of the card's arrow, the new centre (19 points), and the
    last move of each airplane ends under its base."""
    page = new_page(browser)
    hot_seat(page, server, {"situation": duel_situation(200.0, 200.0, 150.0)})
    planned = 0
    for _ in range(20):
        vehicle = next_to_plan(page)
        if vehicle is None:
            continue
        if planned == 2:
            break  # turn 2: the board shows turn 1's moves
        pick(page, vehicle, ["1", "2", "3"])
        page.wait_for_selector("#submit-plans:not([disabled])")
        submit(page)
        planned += 1
    assert planned == 2
    for vehicle in ("camel", "albatros"):
        lines = page.query_selector_all(f"#board polyline.path[data-path='{vehicle}']")
        assert len(lines) == 3  # one a phase
        drawn = [
            [tuple(float(n) for n in pair.split(",")) for pair in line_points.split()]
            for line_points in (line.get_attribute("points") or "" for line in lines)
        ]
        assert [len(points) for points in drawn] == [19, 19, 19]
        # each move starts where the one before ended
        assert drawn[1][0] == drawn[0][-1] and drawn[2][0] == drawn[1][-1]
        base = page.get_attribute(f"#board [data-vehicle='{vehicle}']", "transform") or ""
        x, y = (float(n) for n in base.split("translate(")[1].split(")")[0].split())
        end_x, end_y = drawn[2][-1]
        assert abs(end_x - x) <= 0.001 and abs(end_y - y) <= 0.001
    # the page's expansion of a curve is the server's own path of the card (the server
    # draws its pictures with card_path), for every card of a deck, a reversal among them
    catalog = load_catalog()
    deck = catalog.maneuver_decks[catalog.airplanes["sopwith-camel"].maneuver_deck]
    start = Pose(31.5, 12.25, 75.0)
    curves = [list(card_curve_numbers(start, card, 4.0)) for card in deck.cards]
    drawn_curves = page.evaluate(
        """async (curves) => {
            const { curvePoints } = await import("/static/cards.js");
            return curves.map((n) => curvePoints([0, 2, 4, 6, 8, 10].map((i) => [n[i], n[i + 1]])));
        }""",
        curves,
    )
    for card, points in zip(deck.cards, drawn_curves, strict=True):
        expected = card_path(start, card, 4.0)
        assert len(points) == len(expected) == 19
        for (x, y), (ex, ey) in zip(points, expected, strict=True):
            assert abs(x - ex) <= 1e-9 and abs(y - ey) <= 1e-9
    assert any(abs(card.turn) > 150 for card in deck.cards)
    assert page.errors == []


def test_a_failed_games_replay_shows_its_steps_and_says_it_failed(
    server: Server, browser: Any
) -> None:
    """Issue 28, defect 6: the replay page of a failed game (its turn 2 failed, turn 1
    played) steps through turn 1 and says the game failed, and where."""
    from dogfight.server.db import status
    from dogfight.server.db.store import Store, sqlite_url
    from dogfight.server.play.seat_actions import submit_plans
    from dogfight.server.play.service import GameService

    # made and played here, beside the server: the server loads it when it is asked
    store = Store(sqlite_url(server.db))
    try:
        service = GameService(store, load_catalog())
        game, tokens = service.create(
            duel_situation(200.0, 400.0, 300.0),
            "failed",
            [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
            5,
        )
        submit_plans(game, "a", 1, {"camel": straights_plan()})
        submit_plans(game, "b", 1, {"albatros": straights_plan()})
        assert len(game.steps) == 4
        status.mark_failed(store, game.id, 2, 1, IndexError("tuple index out of range"))
    finally:
        store.close()
    page = new_page(browser)
    page.goto(f"{server.base}/replay/{game.id}#seat=a&token={tokens['a']}")
    page.wait_for_selector("#replay-bar:not([hidden])")
    page.wait_for_selector("#message.error")
    said = page.inner_text("#message")
    assert "This game failed" in said and "turn 2 phase 1" in said, said
    assert page.inner_text("#replay-pos") == "step 0 / 4"
    for _ in range(4):
        page.click("#replay-next")
    assert page.inner_text("#replay-pos") == "step 4 / 4"
    assert page.query_selector_all("#board polyline.path")
    assert page.errors == []

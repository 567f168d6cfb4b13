"""Tripods' action tokens as pictures (issue 12, item 1: "Same for tripod cards and action
tokens"), in a real browser: each token the planning slot offers is a small picture drawn
from the tripod model's data (the heat-ray token marks the model's projectors), with its
name and the rule in a tooltip; clicking one chooses it. Screenshot in
``artifacts/browser/tokens/``."""

from __future__ import annotations

import json
from typing import Any

from browser_helpers import (  # the fixtures are used by name
    browser_fixture,  # noqa: F401
    create_game,
    needs_chromium,
    new_page,
    next_to_plan,
    open_link,
    pick,
    screenshots,
    server_fixture,  # noqa: F401
    submit,
)
from server_helpers import Server

from dogfight.catalog.loader import load_catalog
from dogfight.server.play.setups import presets

pytestmark = needs_chromium


def test_action_tokens_are_pictures_with_their_rule(server: Server, browser: Any) -> None:
    folder = screenshots("tokens")
    page = new_page(browser)
    # the house rule that writes the tokens in the plan (as printed they are asked at
    # the start of each phase: test_browser_action_tokens.py)
    setup = presets(load_catalog())["a-spark-of-hope"]["setup"]
    sit = {**setup, "switches": {"actions_at_planning": True}}
    made = create_game(server, {"seed": 3, "analysis": True, "situation": sit})
    open_link(page, server, made["hotseat_link"])
    for _ in range(10):
        vehicle = next_to_plan(page)
        if vehicle == "locust":
            break
        if vehicle is not None:  # the airplane's seat plans first
            pick(page, vehicle, ["1", "2", "3"])
            submit(page)
    else:
        raise AssertionError("never asked to plan the locust")
    pick(page, "locust", ["1", "11", "2"])
    slot = "[data-plan='locust'] [data-slot='1']"
    page.wait_for_selector(f"{slot} .token-strip .token")
    model = load_catalog().tripods["mk1-locust"]
    buttons = page.query_selector_all(f"{slot} .token-strip .token")
    values = [json.loads(b.get_attribute("data-token-value") or "{}") for b in buttons]
    kinds = {v["token"] for v in values}
    assert {"heat_ray", "recharge", "change_facing"} <= kinds
    # one heat-ray token per projector of the model, each marking all its projectors
    rays = [v for v in values if v["token"] == "heat_ray"]
    assert sorted(v["projector"] for v in rays) == sorted(model.projectors)
    front = f"{slot} .token[data-token-value='{json.dumps(rays[0], separators=(',', ':'))}']"
    assert len(page.query_selector_all(f"{front} svg .port")) == len(model.projectors)
    assert page.query_selector(f"{front} svg .chosen") is not None
    title = page.get_attribute(front, "title") or ""
    assert title.startswith("Heat-ray Fire") and '000: "Immediately after selecting' in title
    facing = page.get_attribute(f"{slot} .token:has(svg[data-token='change_facing'])", "title")
    assert facing is not None and "standing still card" in facing  # a green token's rule
    # a click chooses the token in the slot's select
    page.click(front)
    page.wait_for_selector(f"{front}.chosen")
    chosen = page.eval_on_selector(f"{slot} select[data-action='1']", "s => s.value")
    assert json.loads(chosen) == rays[0]
    page.screenshot(path=str(folder / "tokens.png"))
    page.locator("[data-plan='locust']").screenshot(path=str(folder / "tokens-panel.png"))
    assert page.errors == []

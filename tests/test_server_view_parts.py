"""A seat's view put together from parts kept per version (``views._seat_parts``) and
from steps kept per step (``views._steps_text``: one table of the steps every seat sees
alike, the others per seat) is the view made whole, part by part and step by step, and
the very text of a view made from an empty cache: at every version of duels played
until damage cards (secret to the damaged airplane's seat) have been drawn, for each
seat, with every ``since``, asked in turn by the seat that moved and by the other."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from dogfight.catalog import load_catalog
from dogfight.rules.events import DamageDrawn, PhaseStarted, SpecialDamage, TurnStarted
from dogfight.server.db.records import Step
from dogfight.server.db.store import Store
from dogfight.server.play import seat_actions, views
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import seats_of, table_of
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.play.viewcache import ViewCache
from dogfight.server.schemas import CreateGame
from dogfight.words.briefing import briefing, ending

Json = dict[str, Any]

CATALOG = load_catalog()


def _whole_view(game: LiveGame, seat_id: str, since: int) -> Json:
    """The seat's view made whole: each part made anew, each step as ``step_view``."""
    vids = game.seat_vehicles(seat_id)
    state = game.state
    total = len(game.steps)
    since = max(0, min(since, total))
    return {
        "type": "view",
        "game": views.summary(game),
        "seat": views._seat(game.seats[seat_id], vids),
        "state": views.public_view(state, vids),
        "briefing": briefing(state),
        "ending": ending(state),
        "stage": views._stage(game, seat_id, vids),
        "since": since,
        "steps": [views.step_view(game, i, vids) for i in range(since, total)],
        "steps_total": total,
    }


def _check(game: LiveGame, first: str) -> None:
    order = [first, *(s for s in game.seats if s != first)]
    total = len(game.steps)
    texts = {}
    for seat in order:
        for since in (0, total - 1, total, total + 5, -1):
            text = views.seat_view_json(game, seat, since)
            # asked again at the same version: from the parts kept for it
            assert views.seat_view_json(game, seat, since) == text
            assert json.loads(text) == _whole_view(game, seat, since)
            texts[(seat, since)] = text
        update = views.seat_update_json(game, seat)
        whole = json.loads(texts[(seat, 0)])
        assert json.loads(update) == {
            "type": "update",
            **{k: whole[k] for k in ("game", "seat", "stage", "steps_total")},
        }
    kept = game.view_cache
    game.view_cache = ViewCache()  # nothing kept: every part and step made anew
    try:
        for (seat, since), text in texts.items():
            assert views.seat_view_json(game, seat, since) == text
    finally:
        game.view_cache = kept


def test_a_view_from_kept_parts_and_steps_is_the_view_made_whole(tmp_path: Path) -> None:
    service = GameService(Store(f"sqlite:///{tmp_path}/games.sqlite"), CATALOG)
    setup = presets(CATALOG)["duel"]["setup"]
    seats = seats_of(CreateGame(preset="duel"), table_of(setup, CATALOG))
    deck = CATALOG.maneuver_decks[CATALOG.airplanes["sopwith-camel"].maneuver_deck]
    cards = [c.id for c in deck.cards if c.symbol.value not in ("climb", "dive")]
    secret = public = 0
    for seed in range(40):
        game, _ = service.create(setup, "duel", seats, seed, True)
        rng = np.random.default_rng(seed)
        _check(game, next(iter(game.seats)))
        for turn in range(1, 5):
            if game.state.over:
                break
            for sid in game.seats:
                vid = sorted(game.seat_vehicles(sid))[0]
                plan = {"cards": [str(c) for c in rng.choice(cards, size=3, replace=False)]}
                seat_actions.submit_plans(game, sid, turn, {vid: plan}, 0)
                _check(game, sid)
        for step in game.steps:
            if any(isinstance(e, DamageDrawn) for e in step.events):
                secret += 1
            else:
                public += 1
        if secret >= 3:
            break
    assert secret >= 3 and public > 0


def test_a_step_with_secrets_left_out_and_replaced_is_each_seats_step_made_whole(
    tmp_path: Path,
) -> None:
    """A step mixing public events, secrets each seat's page sees redacted and secrets
    it does not see at all (special damage not announced): each seat's part of it, made
    from the events put in words once and its redactions, is the step as it saw it."""
    service = GameService(Store(f"sqlite:///{tmp_path}/games.sqlite"), CATALOG)
    setup = presets(CATALOG)["duel"]["setup"]
    seats = seats_of(CreateGame(preset="duel"), table_of(setup, CATALOG))
    game, _ = service.create(setup, "duel", seats, 1, True)
    (a,), (b,) = (sorted(game.seat_vehicles(s)) for s in game.seats)
    events = [
        TurnStarted(1),
        SpecialDamage(a, "fuel", False),
        DamageDrawn(a, "A", ("1", "2"), 3, 5, b),
        PhaseStarted(1, 1),
        SpecialDamage(b, "engine", True),
        DamageDrawn(b, "B", ("7",), 1, 1, a),
        SpecialDamage(b, "pilot", False),
    ]
    game.steps.append(Step(1, 1, events, game.state))
    index = len(game.steps) - 1
    for seat in [*game.seats, *reversed(game.seats)]:
        vids = game.seat_vehicles(seat)
        (part,) = views._steps(game, index, index + 1, vids)
        assert json.loads(bytes(part)) == views.step_view(game, index, vids)
    assert index in game.view_cache.whole_events

"""The look-ups a live game keeps (the next step per state, the seats to plan as the list
kept, the questions that _awaited asks for without checking again) give what working them
out anew gives, at every step of games of every kind."""

from __future__ import annotations

from pathlib import Path

from dogfight.catalog import load_catalog
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seating import seats_of, table_of
from dogfight.server.play.service import GameService
from dogfight.server.play.setups import presets
from dogfight.server.schemas import CreateGame


def _plain_next_step(game: LiveGame) -> tuple[int, int] | None:
    """LiveGame.next_step as it was before it was kept per state."""
    state = game.state
    if state.over:
        return None
    if state.phase == 0:
        last = game.steps[-1] if game.steps else None
        if last is not None and (last.turn, last.phase) == (state.turn, 0):
            return (state.turn, 1)
        return (state.turn, 0)
    return (state.turn, state.phase + 1)


def _plain_awaited(game: LiveGame) -> list[str]:
    """LiveGame.waiting_for worked out with nothing kept but the pending outcome, every
    check made where the questions are asked for (as before _targets_asked)."""
    nxt = game.next_step()
    if nxt is None:
        return []
    turn, phase = nxt
    if phase == 0:
        done = game.plans.get(turn, {})
        missing = [s.id for s in game.seats_to_plan() if s.id not in done]
        return [sid for sid in missing if not game.seats[sid].bot]
    due = game._earthling_due(turn, phase)
    if due:
        return [sid for sid in due if not game.seats[sid].bot]
    pend = game.pending()
    if pend:
        seats = {s.id for s in (game._decider(d) for d in pend) if s and not s.bot}
        return sorted(seats, key=lambda sid: game.seats[sid].position)
    game._questions.pop(nxt, None)
    asked, _ = game._asked(nxt)
    answered = game.answers.get((turn, phase), {})
    return [sid for sid in asked if sid not in answered]


def test_the_kept_look_ups_are_those_worked_out_anew(tmp_path: Path) -> None:
    catalog = load_catalog()
    ready = presets(catalog)
    store = Store(sqlite_url(tmp_path / "s.sqlite"))
    service = GameService(store, catalog, 5)
    checked = awaited = 0
    try:
        for name in ("duel", "wings-over-the-flanders", "first-contact", "alsace-again"):
            setup = ready[name]["setup"]
            seats = seats_of(CreateGame(preset=name), table_of(setup, catalog))
            game, _ = service.create(setup, name, seats, 11, True)
            for seat in game.seats.values():  # computer players from now on, a step at a time
                seat.bot = seat.bot or "random"
            for _ in range(16):
                assert game.next_step() == _plain_next_step(game)
                assert game.next_step() is game.next_step()  # kept with the state
                assert game.waiting_for() == _plain_awaited(game)
                # and as if people played every seat (asked about targets, waited for)
                bots = {s.id: s.bot for s in game.seats.values()}
                for seat in game.seats.values():
                    seat.bot = None
                game._questions.clear()
                try:
                    first = game.waiting_for()
                    assert first == _plain_awaited(game) == game.waiting_for()
                    awaited += bool(first)
                finally:
                    for seat in game.seats.values():
                        seat.bot = bots[seat.id]
                    game._questions.clear()
                checked += 1
                if not game.advance(limit=1):
                    break
            assert game.next_step() == _plain_next_step(game)
    finally:
        store.close()
    assert checked >= 20
    assert awaited >= 10

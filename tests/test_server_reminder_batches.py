"""Turn-a-day reminders are looked up in batches (issue 32, item 6): a server with a
public address asked the database for a game's reminders after every turn resolved, one
query and one thread hand-off a turn (``dogfight bench --server --open``: a third of a
turn's CPU time, more than half of the database's). The games that come due while one
look-up runs are now looked up together by the next; every seat still gets its message."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Collection

import pytest

from dogfight.server.db import reminder_rows
from dogfight.server.db.reminder_rows import Reminder
from dogfight.server.play.reminders import Due, Reminders, Settings


class _Store:
    """What the reminders ask of the store besides the rows: every change is committed."""

    async def stored(self, game_id: str) -> None:
        return None


def test_games_due_while_a_look_up_runs_are_looked_up_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[set[str]] = []
    sent: list[tuple[str, str, int, str]] = []
    entered, release = threading.Event(), threading.Event()

    def of_games(store: object, games: Collection[str]) -> dict[tuple[str, str], Reminder]:
        asked.append(set(games))
        entered.set()
        assert release.wait(10)
        return {
            (game, seat): Reminder(game, seat, "webhook", f"https://hooks.example/{game}", "t")
            for game in games
            for seat in ("allies", "central")
            if (game, seat) != ("g2", "central")  # a seat without a reminder
        }

    def deliver(self: Reminders, reminder: Reminder, turn: int, body: str) -> None:
        sent.append((reminder.game_id, reminder.seat, turn, body))

    monkeypatch.setattr(reminder_rows, "of_games", of_games)
    monkeypatch.setattr(reminder_rows, "claim", lambda store, game, seat, turn: True)
    monkeypatch.setattr(Reminders, "_deliver", deliver)

    async def play() -> None:
        reminders = Reminders(_Store(), Settings("https://club.example"))  # type: ignore[arg-type]
        labels = {"allies": "Allies", "central": "Central Powers"}
        reminders.start(Due("g1", "first", labels, 3, ["allies", "central"]))
        while not entered.is_set():  # the first game's look-up is under way
            await asyncio.sleep(0.001)
        reminders.start(Due("g2", "second", labels, 5, ["allies", "central"]))
        reminders.start(Due("g3", "third", labels, 1, ["central"]))
        release.set()
        while reminders.tasks:
            await asyncio.gather(*list(reminders.tasks))

    asyncio.run(play())
    assert asked == [{"g1"}, {"g2", "g3"}]
    assert sorted((game, seat, turn) for game, seat, turn, _ in sent) == [
        ("g1", "allies", 3),
        ("g1", "central", 3),
        ("g2", "allies", 5),
        ("g3", "central", 1),
    ]
    # each message the seat's own link, as before
    for game, seat, turn, body in sent:
        assert f"https://club.example/play/{game}#seat={seat}&token=t" in body
        assert f"turn {turn}" in body

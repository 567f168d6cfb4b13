"""A game's seats read back from the store are of the one type the games hold
(:class:`~dogfight.server.db.records.Seat`, made from a stored row by one converter,
``game_rows.seat_of``): no second seat type copied into it field by field. A game takes
copies of a record's seats, so changing a seat's settings leaves the record as read."""

from __future__ import annotations

from pathlib import Path

from server_helpers import duel_situation

from dogfight.catalog import load_catalog
from dogfight.server.db.records import Seat
from dogfight.server.db.store import Store, sqlite_url
from dogfight.server.play.games import LiveGame
from dogfight.server.play.seat_actions import set_auto_fire
from dogfight.server.play.service import GameService


def test_a_stored_games_seats_are_read_back_as_the_games_seats(tmp_path: Path) -> None:
    catalog = load_catalog()
    store = Store(sqlite_url(tmp_path / "games.sqlite"))
    try:
        made, _ = GameService(store, catalog).create(
            duel_situation(),
            "duel",
            [("a", "allies", ["camel"], None), ("b", "central", ["albatros"], None)],
            3,
        )
        record = store.load(made.id)
        assert record is not None
        assert all(type(s) is Seat for s in record.seats)
        assert record.seats == sorted(made.seats.values(), key=lambda s: s.position)
        live = LiveGame(record, catalog, store)
        assert live.seats == made.seats
        set_auto_fire(live, "a", True)
        assert live.seats["a"].auto_fire
        assert not record.seats[0].auto_fire  # the record stays as it was read
        again = store.load(made.id)
        assert again is not None and again.seats[0].auto_fire
    finally:
        store.close()

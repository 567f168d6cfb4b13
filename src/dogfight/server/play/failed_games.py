"""A failed game as it stood before its failed step, for its replay.

A failed game is never advanced (``dogfight.server.db.status``): every request about it is
refused with the failure until the operator rolls it back. Its replay is the exception:
it shows the steps up to the failure (and says the game failed), so the game is rebuilt
here from the rows stored before the failed step — the steps and the inputs that led to
them, nothing of the failed step or after (an input stored later may be what the
referee could not take) — and never advanced nor kept.
"""

from __future__ import annotations

from dataclasses import replace

from dogfight.catalog.loader import Catalog
from dogfight.server.db.game_rows import GameRecord
from dogfight.server.db.status import Failure
from dogfight.server.db.store import Store
from dogfight.server.errors import StepError
from dogfight.server.play.games import LiveGame


def until_failure(store: Store, catalog: Catalog, failure: Failure) -> LiveGame | None:
    """The failed game rebuilt up to its failed step, holding ``failure`` (None when not
    even its setup can be built, or it is gone). If a step stored before the failure no
    longer replays either (an engine changed since), the game stops before that one."""
    record = store.load(failure.game_id)
    if record is None:
        return None
    point = (failure.turn, failure.phase)
    while True:
        try:
            game = LiveGame(_before(record, point), catalog, store)
        except StepError as exc:
            if (exc.turn, exc.phase) >= point:
                return None  # the setup (or a record before any step) cannot be built
            point = (exc.turn, exc.phase)
            continue
        game.failure = failure
        return game


def _before(record: GameRecord, point: tuple[int, int]) -> GameRecord:
    """``record`` with only the steps before ``point`` (turn, phase) and the inputs to
    them: a turn's plans are the input to its phase 0, a phase's answers and decisions
    to that phase (a WW2 Earthling plan, stored as the answer to phase ``-p``, to
    phase ``p``)."""
    return replace(
        record,
        plans=[row for row in record.plans if (row[0], 0) < point],
        answers=[row for row in record.answers if (row[0], abs(row[1])) < point],
        decisions=[row for row in record.decisions if (row[0], row[1]) < point],
        steps=[row for row in record.steps if (row[0], row[1]) < point],
    )

"""``dogfight doctor``: the games whose step the referee could not resolve, and rolling
one back to the planning of the failed turn so that its seats can play on."""

from __future__ import annotations

import datetime
import json
import sys
from typing import Annotated

import typer

from dogfight.cli.db import db_url
from dogfight.cli.web import DbOption
from dogfight.errors import DataError
from dogfight.words.terms import plural


def register(app: typer.Typer) -> None:
    @app.command()
    def doctor(
        db: DbOption = None,
        rollback: Annotated[
            str | None,
            typer.Option(
                "--rollback",
                metavar="GAME",
                help="Take this failed game back to the planning of the failed turn.",
            ),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ) -> None:
        """List failed games (a step the referee could not resolve) with the error; with
        --rollback GAME, delete that turn's plans, answers and steps so it is planned
        again."""
        from dogfight.cli.catalog_option import catalog
        from dogfight.server.db import status
        from dogfight.server.db.store import Store
        from dogfight.server.errors import ApiError
        from dogfight.server.play.service import GameService

        url, _ = db_url(db)
        store = Store(url)
        try:
            if rollback is None:
                found = status.failures(store)
                if as_json:
                    rows = [
                        {
                            "game": f.game_id,
                            "title": f.title,
                            "turn": f.turn,
                            "phase": f.phase,
                            "error": f.error,
                            "failed_at": f.at,
                        }
                        for f in found
                    ]
                    sys.stdout.write(json.dumps({"failed": rows}, indent=2) + "\n")
                    return
                if not found:
                    print("dogfight doctor: no failed game")
                    return
                for f in found:
                    when = datetime.datetime.fromtimestamp(f.at, datetime.UTC)
                    print(
                        f"{f.game_id}  {f.title!r}  failed at turn {f.turn} phase {f.phase} "
                        f"({when:%Y-%m-%d %H:%M:%S} UTC): {f.error}"
                    )
                print(
                    f"dogfight doctor: {plural(len(found), 'failed game')}; 'dogfight doctor "
                    "--rollback GAME' takes one back to the planning of its failed turn"
                )
                return
            failure = status.failure(store, rollback)
            if failure is None:
                raise DataError(
                    "--rollback", "game", rollback, "not a failed game (see 'dogfight doctor')"
                )
            if failure.turn == 0:
                raise DataError(
                    "--rollback",
                    "game",
                    rollback,
                    f"its setup itself cannot be built ({failure.error}): there is no good "
                    "step to go back to",
                )
            turn, deleted = status.rollback(store, rollback)
            print(
                f"dogfight doctor: game {rollback} rolled back to the planning of turn {turn} "
                f"({plural(deleted, 'stored row')} of that turn deleted)"
            )
            try:
                game = GameService(store, catalog()).get(rollback)
            except ApiError as exc:
                raise DataError(
                    "--rollback", "game", rollback, f"still fails: {exc.error}"
                ) from None
            waiting = ", ".join(game.waiting_for()) or "nobody"
            print(f"dogfight doctor: it loads again; waiting for {waiting}")
        finally:
            store.close()

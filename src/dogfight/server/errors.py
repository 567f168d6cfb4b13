"""The server's refusals: an :class:`ApiError` becomes a 4xx with a JSON body naming
the field at fault; a game whose step the referee could not resolve answers 409 (202 to
the request whose stored input completed the step that failed)."""

from __future__ import annotations

from typing import Any

from dogfight.errors import readable, shown_field
from dogfight.server.db.status import Failure

Json = dict[str, Any]


class ApiError(Exception):
    """A refused request: HTTP status, what is wrong, and the field at fault."""

    def __init__(self, status: int, error: str, field: str | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = readable(error)
        self.field = None if field is None else shown_field(field)

    def body(self) -> Json:
        return {"error": self.error, "field": self.field}


class GameFailed(ApiError):
    """A game whose step the referee could not resolve: it answers 409 with the reason
    until the operator rolls it back (``dogfight doctor``). ``stored``: the request's own
    input was stored before the step it completed failed — not a refusal: 202, the body
    saying ``"stored": true`` with the failure (``docs/web.md``)."""

    def __init__(self, failure: Failure, stored: bool = False) -> None:
        super().__init__(202 if stored else 409, failure.public(), "game_id")
        self.failure = failure
        self.stored = stored

    def body(self) -> Json:
        out = {**super().body(), "failed": self.failure.public_json()}
        if self.stored:
            out["stored"] = True
        return out


class StepError(Exception):
    """The engine raised while replaying or resolving (turn, phase): a bug or an input
    stored before it was validated. Never reaches a client: the game is marked failed."""

    def __init__(self, turn: int, phase: int, cause: BaseException) -> None:
        super().__init__(f"turn {turn} phase {phase}: {type(cause).__name__}: {cause}")
        self.turn = turn
        self.phase = phase
        self.cause = cause

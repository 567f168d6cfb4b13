"""The seat's reminder (issue 32 item 3): ``GET`` and ``PUT
/api/games/{game}/seats/{seat}/reminder`` with the seat's token.

``PUT {"email": ...}`` or ``{"webhook": ...}`` sets where the seat's turn-a-day reminder
goes (:mod:`dogfight.server.play.reminders` sends it); ``{}`` (or both null) takes it
away. Refused, nothing stored: a bad address or URL (422 naming ``email`` or
``webhook``), both at once, an e-mail on a server without SMTP settings, any reminder on
a server without a public address (no link would work), a computer player's seat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import FastAPI, Header
from pydantic import Field

from dogfight.server.db import reminder_rows
from dogfight.server.errors import ApiError
from dogfight.server.play.games import LiveGame
from dogfight.server.play.reminders import (
    MAX_ADDRESS,
    NO_SMTP,
    Reminders,
    checked_email,
    checked_webhook,
)
from dogfight.server.schemas import Strict

OnSeat = Callable[[str, str, str | None, Callable[[LiveGame], Any]], Coroutine[Any, Any, Any]]
Json = dict[str, Any]


class ReminderBody(Strict):
    """Where the seat's reminder goes: an e-mail address or a webhook URL (Discord- and
    Slack-compatible); neither: no reminder."""

    email: str | None = Field(default=None, max_length=MAX_ADDRESS)
    webhook: str | None = Field(default=None, max_length=MAX_ADDRESS)


def _person(game: LiveGame, seat_id: str) -> None:
    """Refuse a computer player's seat (run after the token was checked)."""
    if game.seats[seat_id].bot is not None:
        raise ApiError(
            409,
            "a computer player holds this seat: it gets no reminders (take the seat back first)",
            "seat_id",
        )


def register_reminders(
    app: FastAPI,
    reminders: Reminders,
    on_seat: OnSeat,
    token_of: Callable[[str | None, str | None], str | None],
) -> None:
    """Add the reminder routes to ``app`` (``on_seat`` checks the seat's token, which
    ``token_of`` finds in the headers ``X-Seat-Token`` and ``Authorization``)."""
    settings = reminders.settings
    store = reminders.store

    @app.get("/api/games/{game_id}/seats/{seat_id}/reminder")
    async def get_reminder(
        game_id: str,
        seat_id: str,
        x_seat_token: Annotated[str | None, Header(alias="X-Seat-Token")] = None,
        authorization: Annotated[str | None, Header(alias="Authorization")] = None,
    ) -> Json:
        """The seat's reminder (its own address) and what this server offers."""
        await on_seat(game_id, seat_id, token_of(x_seat_token, authorization), lambda g: None)
        found = (await asyncio.to_thread(reminder_rows.of_game, store, game_id)).get(seat_id)
        return {
            "email": found.address if found is not None and found.kind == "email" else None,
            "webhook": found.address if found is not None and found.kind == "webhook" else None,
            "offered": settings.offered(),
        }

    @app.put("/api/games/{game_id}/seats/{seat_id}/reminder")
    async def put_reminder(
        game_id: str,
        seat_id: str,
        body: ReminderBody,
        x_seat_token: Annotated[str | None, Header(alias="X-Seat-Token")] = None,
        authorization: Annotated[str | None, Header(alias="Authorization")] = None,
    ) -> Json:
        """Set or take away the seat's reminder."""
        token = token_of(x_seat_token, authorization)
        await on_seat(game_id, seat_id, token, lambda g: _person(g, seat_id))
        email = (body.email or "").strip() or None
        webhook = (body.webhook or "").strip() or None
        if email is None and webhook is None:
            await asyncio.to_thread(reminder_rows.clear, store, game_id, seat_id)
            return {"email": None, "webhook": None}
        field = "email" if email is not None else "webhook"
        if email is not None and webhook is not None:
            raise ApiError(422, "give an e-mail address or a webhook URL, not both", "webhook")
        why = settings.offered()["why"]
        if why is not None:
            raise ApiError(409, str(why), field)
        assert token is not None  # on_seat checked it
        if email is not None:
            address = checked_email(email)
            if settings.smtp is None:
                raise ApiError(422, NO_SMTP, "email")
            await asyncio.to_thread(
                reminder_rows.put, store, game_id, seat_id, "email", address, token
            )
            return {"email": address, "webhook": None}
        assert webhook is not None
        url = await asyncio.to_thread(checked_webhook, webhook, settings.allow_private)
        await asyncio.to_thread(reminder_rows.put, store, game_id, seat_id, "webhook", url, token)
        return {"email": None, "webhook": url}

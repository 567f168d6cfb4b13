"""Turn-a-day reminders (issue 32 item 3): when a game waits for a seat that gave an
e-mail address or a webhook URL, one message with the seat's own link.

What a message holds: the game's title, the seat's label, the turn, and the seat's own
link (the server's public address, then ``/play/<game>#seat=<seat>&token=<token>``) —
never another seat's link, never anything of the game's state (no plan, no card).

When: the game's worker (after a change) asks :meth:`Reminders.due`, which only looks at
who the game waits for (no I/O). What is due is sent by a task on the loop that first
waits for the change's commit, then does every database read and network send on worker
threads: a turn is never held up by a reminder, and a failure is logged, never told to
a player. At most one message per seat and turn: the reminder is claimed in the database
(:func:`dogfight.server.db.reminder_rows.claim`) before it is sent, so several processes
and restarts do not send it twice; a send that fails is tried again with back-off
(:data:`TRIES` in all), then given up.

Without a public address (``--public-url``) no message could carry a working link: the
server takes no reminder then. E-mail needs the SMTP settings of :class:`Smtp`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import smtplib
import socket
import ssl
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import httpx

from dogfight.server.db import reminder_rows
from dogfight.server.db.reminder_rows import Reminder
from dogfight.server.db.store import Store
from dogfight.server.errors import ApiError
from dogfight.server.play.games import LiveGame

log = logging.getLogger("dogfight.reminders")

TRIES = 4
"""Sends of one reminder before it is given up."""
BACKOFF_ENV = "DOGFIGHT_REMINDER_BACKOFF"
BACKOFF = 30.0
"""Seconds before the second try (doubled before each next one): env ``BACKOFF_ENV``."""
TIMEOUT = 10.0
"""Seconds a webhook or the SMTP server has to answer one try."""
PRIVATE_ENV = "DOGFIGHT_ALLOW_PRIVATE_WEBHOOKS"
MAX_ADDRESS = 500

_EMAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*")


class SmtpMissing(ApiError):
    """An e-mail reminder asked of a server without SMTP settings."""


@dataclass(frozen=True)
class Smtp:
    """How e-mail leaves the server: ``DOGFIGHT_SMTP_HOST``, ``_PORT`` (25, or 587 with
    STARTTLS), ``_FROM`` (the sender's address), ``_USER`` and ``_PASSWORD`` (if the
    server wants a login), ``_STARTTLS`` (1/true/yes). Without a host and a sender: None."""

    host: str
    port: int
    sender: str
    user: str | None
    password: str | None
    starttls: bool

    @staticmethod
    def from_env() -> Smtp | None:
        env = os.environ
        host = env.get("DOGFIGHT_SMTP_HOST", "").strip()
        sender = env.get("DOGFIGHT_SMTP_FROM", "").strip()
        if not host or not sender:
            return None
        starttls = env.get("DOGFIGHT_SMTP_STARTTLS", "").strip().lower() in ("1", "true", "yes")
        port = int(env.get("DOGFIGHT_SMTP_PORT", "").strip() or (587 if starttls else 25))
        return Smtp(
            host,
            port,
            sender,
            env.get("DOGFIGHT_SMTP_USER") or None,
            env.get("DOGFIGHT_SMTP_PASSWORD") or None,
            starttls,
        )


@dataclass
class Settings:
    """The reminders' settings: where links point, how e-mail leaves, what is allowed."""

    public_url: str | None
    smtp: Smtp | None = None
    allow_private: bool = False
    backoff: float = BACKOFF
    tries: int = TRIES

    @staticmethod
    def from_env(public_url: str | None, allow_private: bool = False) -> Settings:
        raw = os.environ.get(BACKOFF_ENV, "").strip()
        private = os.environ.get(PRIVATE_ENV, "").strip().lower() in ("1", "true", "yes")
        return Settings(
            public_url,
            Smtp.from_env(),
            allow_private or private,
            float(raw) if raw else BACKOFF,
        )

    def offered(self) -> dict[str, object]:
        """What the seat form says: which kinds of reminder this server takes, and why not."""
        why = None
        if self.public_url is None:
            why = (
                "this server has no public address (dogfight serve --public-url): a reminder "
                "could not carry a working link, so none is sent"
            )
        return {
            "email": self.public_url is not None and self.smtp is not None,
            "webhook": self.public_url is not None,
            "why": why,
            "email_why": None if self.smtp is not None else NO_SMTP,
        }


NO_SMTP = (
    "this server sends no e-mail (no DOGFIGHT_SMTP_HOST and DOGFIGHT_SMTP_FROM): use a webhook"
)


def checked_email(raw: str) -> str:
    """``raw`` as an e-mail address, or a 422 naming ``email`` (no line break, no second
    address, no display name: nothing that could add a header)."""
    value = raw.strip()
    if len(value) > MAX_ADDRESS or not _EMAIL.fullmatch(value) or "." not in value.split("@")[1]:
        raise ApiError(422, f"not an e-mail address: {raw[:80]!r}", "email")
    return value


def _private(host: str) -> bool:
    """Whether ``host`` is, or resolves to, an address not on the public internet."""
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return True  # unknown: refused as if private (nothing is sent to it)
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global:
            return True
    return False


def checked_webhook(raw: str, allow_private: bool) -> str:
    """``raw`` as a webhook URL (http or https, a host, no user or password), or a 422
    naming ``webhook``; one to a private or loopback address is refused unless
    ``allow_private`` (``--allow-private-webhooks``)."""
    value = raw.strip()
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  (a bad port raises ValueError)
    except ValueError:
        raise ApiError(422, f"not a webhook URL: {raw[:80]!r}", "webhook") from None
    if (
        len(value) > MAX_ADDRESS
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or any(c.isspace() for c in value)
    ):
        raise ApiError(
            422, f"a webhook must be an http:// or https:// URL: {raw[:80]!r}", "webhook"
        )
    if not allow_private and _private(parts.hostname):
        raise ApiError(
            422,
            f"the webhook's host {parts.hostname!r} is a private or loopback address (or "
            "unknown): refused (dogfight serve --allow-private-webhooks allows it)",
            "webhook",
        )
    return value


def link(settings: Settings, reminder: Reminder) -> str:
    """The seat's own link, as its game's answer gave it."""
    return (
        f"{settings.public_url}/play/{reminder.game_id}#seat={reminder.seat}&token={reminder.token}"
    )


def text(title: str, label: str, turn: int, url: str) -> str:
    """The message: the game, the seat, the turn and the seat's link; nothing else."""
    return f"dogfight: {title!r} waits for {label} (turn {turn}). Your seat: {url}"


def send_webhook(url: str, body: str, allow_private: bool) -> None:
    """POST the message as Discord's ``content`` and Slack's ``text``; raises on failure
    (a non-2xx answer included). The host is checked again (its address may have changed)."""
    host = urlsplit(url).hostname or ""
    if not allow_private and _private(host):
        raise OSError(f"webhook host {host!r} is now a private address")
    got = httpx.post(url, json={"content": body, "text": body}, timeout=TIMEOUT)
    got.raise_for_status()


def send_email(smtp: Smtp, to: str, subject: str, body: str) -> None:
    """Send the message by SMTP; raises on failure."""
    mail = EmailMessage()
    mail["From"] = smtp.sender
    mail["To"] = to
    mail["Subject"] = subject
    mail.set_content(body)
    with smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT) as client:
        if smtp.starttls:
            client.starttls(context=ssl.create_default_context())
        if smtp.user is not None:
            client.login(smtp.user, smtp.password or "")
        client.send_message(mail)


@dataclass(frozen=True)
class Due:
    """Reminders due: the game's seats newly awaited in ``turn``, and what a message says."""

    game_id: str
    title: str
    labels: dict[str, str]
    turn: int
    seats: list[str]


@dataclass
class Reminders:
    """The reminders of one server process (see the module's docstring)."""

    store: Store
    settings: Settings
    sent: Callable[[str], None] = field(default=lambda _kind: None)
    """Told each reminder sent (its kind): the operator's counter."""
    failed: Callable[[str], None] = field(default=lambda _kind: None)
    """Told each reminder given up on."""
    seen: dict[str, tuple[int, frozenset[str]]] = field(default_factory=dict)
    """Per game, the turn and the seats already looked at in this process."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    pending: list[Due] = field(default_factory=list)
    """What came due while a look-up ran: the next look-up's batch."""
    looking: asyncio.Task[None] | None = None
    """The task looking up the reminders due, batch after batch (None: not yet)."""

    def due(self, game_id: str, turn: int | None, waiting: list[str]) -> list[str]:
        """The seats newly awaited in ``turn`` (on the game's worker: no I/O)."""
        if self.settings.public_url is None or turn is None or not waiting:
            return []
        seen_turn, seats = self.seen.get(game_id, (turn, frozenset()))
        if seen_turn != turn:
            seats = frozenset()
        new = [s for s in waiting if s not in seats]
        if new:
            self.seen[game_id] = (turn, seats | set(new))
        return new

    def notice(self, game: LiveGame, loop: asyncio.AbstractEventLoop | None) -> None:
        """After a change of ``game`` (on its worker): the seats it now waits for that
        were not reminded of this turn yet get theirs, sent from ``loop`` once the
        change is committed. Nothing at all without a public address (no reminder is
        taken then): the requests of such a server pay nothing for reminders."""
        if self.settings.public_url is None:
            return
        nxt = game.next_step()
        if nxt is None:
            self.seen.pop(game.id, None)  # over: nothing more to remind of
        if loop is None or nxt is None:
            return
        seats = self.due(game.id, nxt[0], game.waiting_for())
        if seats:
            labels = {seat.id: seat.label for seat in game.seats.values()}
            loop.call_soon_threadsafe(self.start, Due(game.id, game.title, labels, nxt[0], seats))

    def start(self, due: Due) -> None:
        """Send what :meth:`notice` found, from a task of the running loop, once the
        change that made the game wait is committed. The games' reminders are looked up
        in batches: while one look-up runs, the games that come due wait for the next,
        which asks for all of them in one query (a busy server made one query and one
        thread hand-off per turn resolved: a third of the CPU time of a turn, and more
        than half of the database's, ``dogfight bench --server --open``); alone, a
        game's look-up starts at once, as before."""
        self.pending.append(due)
        if self.looking is None or self.looking.done():
            self.looking = self._spawn(self._look_up_all())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _look_up_all(self) -> None:
        while self.pending:
            batch, self.pending = self.pending, []
            await self._look_up(batch)

    async def _look_up(self, batch: list[Due]) -> None:
        """The reminders due in ``batch`` looked up (once its changes are committed) and
        each sent by a task of its own (a send's retries wait for no other)."""
        stored: list[Due] = []
        for due in batch:
            try:
                await self.store.stored(due.game_id)
            except Exception:
                log.exception("reminders of game %s not looked up", due.game_id)
                continue
            stored.append(due)
        if not stored:
            return
        games = {due.game_id for due in stored}
        try:
            found = await asyncio.to_thread(reminder_rows.of_games, self.store, games)
        except Exception:
            log.exception("reminders of games %s not looked up", ", ".join(sorted(games)))
            return
        for due in stored:
            for seat in due.seats:
                reminder = found.get((due.game_id, seat))
                if reminder is not None:
                    url = link(self.settings, reminder)
                    body = text(due.title, due.labels.get(seat, seat), due.turn, url)
                    self._spawn(self._send_one(reminder, due.turn, body))

    async def _send_one(self, reminder: Reminder, turn: int, body: str) -> None:
        where = f"game {reminder.game_id} seat {reminder.seat} turn {turn}"
        try:
            mine = await asyncio.to_thread(
                reminder_rows.claim, self.store, reminder.game_id, reminder.seat, turn
            )
        except Exception:
            log.exception("reminder of %s not claimed: not sent", where)
            return
        if not mine:
            return  # sent already (another process, or before a restart)
        delay = self.settings.backoff
        for attempt in range(1, self.settings.tries + 1):
            try:
                await asyncio.to_thread(self._deliver, reminder, turn, body)
            except Exception as exc:
                log.warning(
                    "reminder of %s (%s) failed, try %d of %d: %s",
                    where,
                    reminder.kind,
                    attempt,
                    self.settings.tries,
                    exc,
                )
                if attempt < self.settings.tries:
                    await asyncio.sleep(delay)
                    delay *= 2
                continue
            log.info("reminder of %s sent (%s)", where, reminder.kind)
            self.sent(reminder.kind)
            return
        log.error("reminder of %s given up after %d tries", where, self.settings.tries)
        self.failed(reminder.kind)

    def _deliver(self, reminder: Reminder, turn: int, body: str) -> None:
        if reminder.kind == "webhook":
            send_webhook(reminder.address, body, self.settings.allow_private)
            return
        if self.settings.smtp is None:
            raise SmtpMissing(409, NO_SMTP, "email")
        send_email(self.settings.smtp, reminder.address, f"dogfight: your turn {turn}", body)

    async def close(self) -> None:
        """Stop the sends still waiting (a server stopping)."""
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task

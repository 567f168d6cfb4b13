"""Games kept between the weekly turns: SQLAlchemy 2, SQLite by default.

What is stored, per game: its setup (ruleset with every switch, planes, clouds), the
seed, the current state; every orders text accepted, per player and turn, with the
orders as read; and for every resolved turn (and turn 0, the start sheet) the Games
Master's cloud entry, the events, the state after it and the reports exactly as issued
(text, each player's result, SVG, PNG), so that ``dogfight sopwith report GAME --turn N``
re-issues them byte for byte even after the program has changed.

Every change is one transaction: a refused request leaves the database as it was.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    ForeignKey,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from dogfight.errors import DataError
from dogfight.sopwith.events import Event, as_dicts
from dogfight.sopwith.game import GameError, GameState, state_from_json, state_to_json
from dogfight.sopwith.model import Line, Manoeuvre, MoveOrder, Orders, Strip

DEFAULT_DB = "sopwith.sqlite"


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "sopwith_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    seed: Mapped[int]
    engine: Mapped[int]
    setup: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(Text)
    turn: Mapped[int]
    over: Mapped[bool]


class OrdersRow(Base):
    __tablename__ = "sopwith_orders"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("sopwith_games.id"), index=True)
    turn: Mapped[int]
    player: Mapped[str] = mapped_column(String(200))
    source: Mapped[str] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)
    orders: Mapped[str] = mapped_column(Text)


class TurnRow(Base):
    __tablename__ = "sopwith_turns"
    __table_args__ = (UniqueConstraint("game_id", "turn"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("sopwith_games.id"), index=True)
    turn: Mapped[int]
    clouds: Mapped[str] = mapped_column(Text)
    events: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(Text)
    report: Mapped[str] = mapped_column(Text)
    results: Mapped[str] = mapped_column(Text)
    svg: Mapped[str] = mapped_column(Text)
    png: Mapped[bytes] = mapped_column(LargeBinary)


@dataclass(frozen=True)
class Game:
    """A stored game as the commands need it."""

    name: str
    seed: int
    state: GameState
    setup: dict[str, Any]


@dataclass(frozen=True)
class NoOrders:
    """A player put down as NMR by the Games Master: his orders file (``source``,
    ``text``) could not be read (``reason``)."""

    player: str
    source: str
    text: str
    reason: str


@dataclass(frozen=True)
class Issued:
    """The reports of one turn exactly as they were issued (turn 0: the start sheet)."""

    turn: int
    report: str
    results: dict[str, str]
    svg: str
    png: bytes
    events: list[dict[str, Any]]


# --- orders as JSON ------------------------------------------------------------------------


def orders_to_json(o: Orders) -> dict[str, Any]:
    return {
        "player": o.player,
        "turn": o.turn,
        "pilot": o.pilot,
        "take_off": o.take_off,
        "land": o.land,
        "strip": o.strip.value if o.strip else None,
        "source": o.source,
        "moves": [
            {
                "manoeuvre": m.manoeuvre.value,
                "fire": [line.value for line in m.fire],
                "ambiguous_fire": m.ambiguous_fire,
                "line": m.line,
            }
            for m in o.moves
        ],
    }


def orders_from_json(data: Mapping[str, Any]) -> Orders:
    moves = tuple(
        MoveOrder(
            Manoeuvre(m["manoeuvre"]),
            tuple(Line(x) for x in m["fire"]),
            m["ambiguous_fire"],
            m["line"],
        )
        for m in data["moves"]
    )
    return Orders(
        player=data["player"],
        turn=data["turn"],
        moves=(moves[0], moves[1], moves[2]),
        pilot=data["pilot"],
        take_off=data["take_off"],
        land=data["land"],
        strip=Strip(data["strip"]) if data["strip"] else None,
        source=data["source"],
    )


def _dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


# --- the store -----------------------------------------------------------------------------


def database_url(db: str | None) -> str:
    """``--db``: an SQLAlchemy URL, or a file path for SQLite (default
    ``./sopwith.sqlite``)."""
    if db is None:
        db = DEFAULT_DB
    if "://" in db:
        return db
    return f"sqlite:///{db}"


def describe_url(url: str) -> str:
    """The database for messages: the absolute file of an SQLite URL, else the URL
    without its password."""
    parsed = make_url(url)
    if parsed.drivername.startswith("sqlite") and parsed.database:
        return str(Path(parsed.database).resolve())
    return parsed.render_as_string(hide_password=True)


class Store:
    """The games of one database."""

    def __init__(self, url: str, create: bool = False) -> None:
        self.url = url
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise DataError("--db", "url", url, "not a database URL or file name") from None
        if parsed.drivername.startswith("sqlite") and parsed.database not in (None, ":memory:"):
            path = Path(str(parsed.database))
            if not create and not path.is_file():
                raise GameError(
                    f"no games database at {path.resolve()} "
                    "(start one with 'dogfight sopwith new', or give --db)"
                )
            if create and not path.parent.resolve().is_dir():
                raise DataError("--db", "url", url, "its folder does not exist")
        try:
            self.engine: Engine = create_engine(url)
            Base.metadata.create_all(self.engine)
        except OperationalError as exc:
            raise DataError("--db", "url", url, f"cannot be opened: {exc.orig}") from None
        except ArgumentError as exc:
            raise DataError("--db", "url", url, f"cannot be opened: {exc}") from None
        except ModuleNotFoundError as exc:
            raise DataError("--db", "url", url, f"its driver is not installed: {exc}") from None

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with Session(self.engine) as session, session.begin():
            yield session

    def _game_row(self, session: Session, name: str) -> GameRow:
        row = session.scalars(select(GameRow).where(GameRow.name == name)).one_or_none()
        if row is None:
            known = session.scalars(select(GameRow.name).order_by(GameRow.id)).all()
            hint = ", ".join(known) if known else "none yet"
            raise GameError(f"no game named {name!r} in {describe_url(self.url)}; games: {hint}")
        return row

    # -- games --

    def create(
        self,
        name: str,
        seed: int,
        setup: Mapping[str, Any],
        state: GameState,
        issued: Issued,
    ) -> None:
        try:
            with self._write() as s:
                if s.scalars(select(GameRow.id).where(GameRow.name == name)).first():
                    raise GameError(f"there is already a game named {name!r}")
                row = GameRow(
                    name=name,
                    seed=seed,
                    engine=state_to_json(state)["engine"],
                    setup=_dump(setup),
                    state=_dump(state_to_json(state)),
                    turn=state.turn,
                    over=state.over,
                )
                s.add(row)
                s.flush()
                s.add(self._turn_row(row.id, issued, state, None))
        except IntegrityError:
            raise GameError(f"there is already a game named {name!r}") from None

    def game(self, name: str) -> Game:
        with Session(self.engine) as s:
            row = self._game_row(s, name)
            return Game(
                row.name, row.seed, state_from_json(json.loads(row.state)), json.loads(row.setup)
            )

    def games(self) -> list[Game]:
        with Session(self.engine) as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.id)).all()
            return [
                Game(r.name, r.seed, state_from_json(json.loads(r.state)), json.loads(r.setup))
                for r in rows
            ]

    def careers(self) -> dict[str, tuple[str, int]]:
        """Each player's score carried between games (004's Ace list): his score in the
        latest game he is in, keyed by the name folded to lower case."""
        out: dict[str, tuple[str, int]] = {}
        for game in self.games():
            for p in game.state.planes:
                out[p.name.casefold()] = (p.name, p.score)
        return out

    # -- orders --

    def add_orders(
        self,
        name: str,
        accepted: Sequence[tuple[Orders, str]],
        nmr: Sequence[NoOrders] = (),
    ) -> None:
        """Keep orders (with the text they were read from) and the Games Master's NMRs
        (``nmr``: a player's unreadable orders taken as none received, S23), all in one
        transaction; later orders of a player for a turn replace earlier ones, and an NMR
        replaces them too."""
        with self._write() as s:
            row = self._game_row(s, name)
            for entry in nmr:
                s.add(
                    OrdersRow(
                        game_id=row.id,
                        turn=row.turn,
                        player=entry.player,
                        source=entry.source,
                        text=entry.text,
                        orders=_dump({"nmr": entry.reason}),
                    )
                )
            for orders, text in accepted:
                if orders.turn != row.turn:
                    raise GameError(
                        f"{orders.source}: orders for turn {orders.turn}, "
                        f"but the turn to play is {row.turn}"
                    )
                s.add(
                    OrdersRow(
                        game_id=row.id,
                        turn=orders.turn,
                        player=orders.player,
                        source=orders.source,
                        text=text,
                        orders=_dump(orders_to_json(orders)),
                    )
                )

    def _orders_rows(self, name: str, turn: int) -> list[tuple[str, str, str, Any]]:
        """Every orders row of a turn, in the order filed: (player, source, text, the
        orders or NMR as JSON data)."""
        with Session(self.engine) as s:
            row = self._game_row(s, name)
            rows = s.scalars(
                select(OrdersRow)
                .where(OrdersRow.game_id == row.id, OrdersRow.turn == turn)
                .order_by(OrdersRow.id)
            ).all()
            return [(r.player, r.source, r.text, json.loads(r.orders)) for r in rows]

    def orders(self, name: str, turn: int) -> dict[str, Orders]:
        """The orders in force for a turn: the last accepted of each player (none when
        his last entry is an NMR)."""
        out: dict[str, Orders] = {}
        for player, _, _, data in self._orders_rows(name, turn):
            if "nmr" in data:
                out.pop(player, None)
            else:
                out[player] = orders_from_json(data)
        return out

    def nmrs(self, name: str, turn: int) -> dict[str, str]:
        """The players the Games Master has put down as NMR for a turn (their last
        orders file could not be read), with why."""
        out: dict[str, str] = {}
        for player, _, _, data in self._orders_rows(name, turn):
            if "nmr" in data:
                out[player] = str(data["nmr"])
            else:
                out.pop(player, None)
        return out

    def orders_texts(self, name: str, turn: int) -> list[tuple[str, str, str]]:
        """Every orders text received for a turn, in order: (player, source, text)."""
        return [(p, source, text) for p, source, text, _ in self._orders_rows(name, turn)]

    # -- turns --

    @staticmethod
    def _turn_row(
        game_id: int, issued: Issued, after: GameState, clouds: Mapping[int, int | None] | None
    ) -> TurnRow:
        return TurnRow(
            game_id=game_id,
            turn=issued.turn,
            clouds=_dump({str(k): v for k, v in clouds.items()} if clouds is not None else None),
            events=_dump(issued.events),
            state=_dump(state_to_json(after)),
            report=issued.report,
            results=_dump(issued.results),
            svg=issued.svg,
            png=issued.png,
        )

    def record_turn(
        self,
        name: str,
        before: GameState,
        after: GameState,
        clouds: Mapping[int, int | None] | None,
        issued: Issued,
    ) -> None:
        """Store a resolved turn and move the game on, in one transaction; refused if the
        game moved on meanwhile."""
        try:
            with self._write() as s:
                row = self._game_row(s, name)
                if row.turn != before.turn:
                    raise GameError(
                        f"turn {before.turn} of {name!r} was resolved meanwhile "
                        f"(the turn to play is {row.turn})"
                    )
                s.add(self._turn_row(row.id, issued, after, clouds))
                row.state = _dump(state_to_json(after))
                row.turn = after.turn
                row.over = after.over
        except IntegrityError:
            raise GameError(f"turn {before.turn} of {name!r} is already resolved") from None

    def issued(self, name: str, turn: int | None = None) -> Issued:
        """The reports of ``turn`` (default: the latest) as issued."""
        with Session(self.engine) as s:
            row = self._game_row(s, name)
            query = select(TurnRow).where(TurnRow.game_id == row.id)
            if turn is None:
                query = query.order_by(TurnRow.turn.desc()).limit(1)
            else:
                query = query.where(TurnRow.turn == turn)
            t = s.scalars(query).first()
            if t is None:
                last = row.turn - 1
                raise GameError(
                    f"game {name!r} has no turn {turn}: turns 0 (the start sheet) to {last} "
                    "are resolved"
                )
            return Issued(
                t.turn, t.report, json.loads(t.results), t.svg, t.png, json.loads(t.events)
            )


def events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    return as_dicts(list(events))

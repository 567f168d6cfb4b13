"""Campaigns in SQL, beside the games of the same database.

A campaign row holds its file's text (so a stored campaign keeps its rules if the shipped
file changes), its seed and its record (JSON). Each mission has a row keyed by
(campaign, number): the game it was started as, and its result once written. Writing a
result inserts the result and the new record in one transaction, guarded by the
record's version: a result is applied exactly once, whoever tries it first (two server
processes, a restart half-way), and a second attempt changes nothing.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Engine, Float, Integer, String, Text, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from dogfight.campaign.record import Campaign, CampaignError, MissionResult
from dogfight.storage.sql import create_tables

Json = dict[str, Any]


class Base(DeclarativeBase):
    pass


class CampaignRow(Base):
    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(Text)
    """The campaign file's TOML text."""
    record: Mapped[Json] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)


class MissionRow(Base):
    __tablename__ = "campaign_missions"

    campaign_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    setup: Mapped[Json | None] = mapped_column(JSON, nullable=True)
    result: Mapped[Json | None] = mapped_column(JSON, nullable=True)


@dataclass(frozen=True)
class Stored:
    id: str
    title: str
    source: str
    campaign: Campaign
    version: int
    missions: dict[int, MissionRow]


class CampaignStore:
    """The campaigns of one database (any SQLAlchemy engine)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, Base.metadata)

    def create(self, title: str, source: str, campaign: Campaign) -> str:
        campaign_id = "c-" + secrets.token_hex(5)
        with Session(self.engine) as session, session.begin():
            session.add(
                CampaignRow(
                    id=campaign_id,
                    title=title,
                    created=time.time(),
                    source=source,
                    record=campaign.to_json(),
                    version=1,
                )
            )
        return campaign_id

    def ids(self) -> list[tuple[str, str, float]]:
        with Session(self.engine) as session:
            rows = session.execute(
                select(CampaignRow.id, CampaignRow.title, CampaignRow.created).order_by(
                    CampaignRow.created
                )
            )
            return [(r[0], r[1], r[2]) for r in rows]

    def load(self, campaign_id: str) -> Stored | None:
        with Session(self.engine) as session:
            row = session.get(CampaignRow, campaign_id)
            if row is None:
                return None
            missions = session.scalars(
                select(MissionRow).where(MissionRow.campaign_id == campaign_id)
            ).all()
            session.expunge_all()
            return Stored(
                row.id,
                row.title,
                row.source,
                Campaign.from_json(row.record),
                row.version,
                {m.number: m for m in missions},
            )

    def start_mission(
        self, stored: Stored, campaign: Campaign, game_id: str | None, setup: Json
    ) -> None:
        """Record that mission ``campaign.number`` is being played as ``game_id`` (and who
        flies what, in the record). Refused when another mission start won the race; a
        mission started but never finished is started again."""
        with Session(self.engine) as session, session.begin():
            self._bump(session, stored, campaign)
            row = session.get(MissionRow, (stored.id, campaign.number))
            if row is None:
                session.add(
                    MissionRow(
                        campaign_id=stored.id,
                        number=campaign.number,
                        game_id=game_id,
                        setup=setup,
                        result=None,
                    )
                )
            elif row.result is not None:
                raise CampaignError(f"mission {campaign.number} is already over")
            else:
                # a mission started again (a terminal game left unfinished)
                row.game_id, row.setup = game_id, setup

    def write_result(self, stored: Stored, campaign: Campaign, result: MissionResult) -> None:
        """The mission's result and the campaign after it, in one transaction; a result
        already written (or a record changed meanwhile) is refused, nothing changed."""
        try:
            with Session(self.engine) as session, session.begin():
                row = session.get(MissionRow, (stored.id, result.number))
                if row is None:
                    row = MissionRow(
                        campaign_id=stored.id, number=result.number, game_id=None, setup=None
                    )
                    session.add(row)
                elif row.result is not None:
                    raise CampaignError(
                        f"mission {result.number}'s result is already written: nothing changed"
                    )
                row.result = result.to_json()
                self._bump(session, stored, campaign)
        except IntegrityError as exc:
            raise CampaignError("the campaign changed meanwhile: nothing written") from exc

    def _bump(self, session: Session, stored: Stored, campaign: Campaign) -> None:
        done = session.execute(
            update(CampaignRow)
            .where(CampaignRow.id == stored.id, CampaignRow.version == stored.version)
            .values(record=campaign.to_json(), version=stored.version + 1)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise CampaignError("the campaign changed meanwhile: nothing written")

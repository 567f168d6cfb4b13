"""Campaigns in SQL, beside the games of the same database.

A campaign row holds its file's text (so a stored campaign keeps its rules if the shipped
file changes), its seed and its record (JSON). Each mission has a row keyed by
(campaign, number): the game it was started as, and its result once written. Writing a
result inserts the result and the new record in one transaction, guarded by the
record's version: a result is applied exactly once, whoever tries it first (two server
processes, a restart half-way), and a second attempt changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Engine, Integer, String, Text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from dogfight.campaign.record import Campaign, CampaignError, MissionResult
from dogfight.storage.numbered_games import NumberedGame, NumberedGamesStore
from dogfight.storage.sql import FIRST, Listed

Json = dict[str, Any]


class Base(DeclarativeBase):
    pass


class CampaignRow(Listed, Base):
    __tablename__ = "campaigns"

    source: Mapped[str] = mapped_column(Text)
    """The campaign file's TOML text."""
    record: Mapped[Json] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)


class MissionRow(NumberedGame, Base):
    __tablename__ = "campaign_missions"

    campaign_id: Mapped[str] = mapped_column(String(40), primary_key=True, sort_order=FIRST)
    game_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    setup: Mapped[Json | None] = mapped_column(JSON, nullable=True)


@dataclass(frozen=True)
class Stored:
    id: str
    title: str
    source: str
    campaign: Campaign
    version: int
    missions: dict[int, MissionRow]


class CampaignStore(NumberedGamesStore[CampaignRow, MissionRow, Stored]):
    """The campaigns of one database (any SQLAlchemy engine)."""

    head = CampaignRow
    game = MissionRow
    key = "campaign_id"
    prefix = "c-"

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, Base.metadata)

    def create(self, title: str, source: str, campaign: Campaign) -> str:
        return self.add(self.new_head(title, source=source, record=campaign.to_json(), version=1))

    def held(self, head: CampaignRow, games: list[MissionRow]) -> Stored:
        """The campaign with its missions by number."""
        return Stored(
            head.id,
            head.title,
            head.source,
            Campaign.from_json(head.record),
            head.version,
            {m.number: m for m in games},
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

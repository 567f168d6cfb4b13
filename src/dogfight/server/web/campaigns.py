"""Campaigns in the browser: the campaign pages and their API.

Each mission is started as an ordinary game (seats, private links, computer players);
when that game is over its result is written back to the campaign in one transaction
(:class:`~dogfight.campaign.store.CampaignStore`). The write happens the first time the
campaign is looked at after the game ended: a server stopped between the end of the game
and the update loses nothing, and the result is applied exactly once.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from dogfight.campaign.missions import prepare, result_of
from dogfight.campaign.record import Campaign, CampaignError, apply_result, start
from dogfight.campaign.sopwith import is_sopwith
from dogfight.campaign.spec import CampaignSpec, available, load_campaign, parse_campaign
from dogfight.campaign.store import CampaignStore, Stored
from dogfight.catalog.loader import Catalog
from dogfight.errors import DataError
from dogfight.rules.events import Event
from dogfight.server.errors import ApiError
from dogfight.server.play.service import GameService
from dogfight.server.schemas import CreateGame
from dogfight.server.web.pages import page

Json = dict[str, Any]


class NewCampaign(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: str = Field(min_length=1, max_length=80, description="a shipped campaign id")
    title: str | None = Field(default=None, max_length=200)


class NextMission(BaseModel):
    model_config = ConfigDict(extra="forbid")

    computer: dict[str, str] = Field(
        default_factory=dict, description="campaign side -> computer player name"
    )


def campaign_json(spec: CampaignSpec, stored: Stored) -> Json:
    """What the campaign page shows: roster, history, the next mission and its game."""
    campaign = stored.campaign
    playing = stored.missions.get(campaign.number)
    mission = spec.mission(campaign.current) if campaign.current else None
    return {
        "id": stored.id,
        "title": stored.title,
        "campaign": spec.id,
        "note": spec.note,
        "sides": list(spec.sides),
        "max_missions": spec.max_missions,
        "ace_victories": spec.ace.victories,
        "over": campaign.over,
        "winner": campaign.winner,
        "pilots": [{**p.__dict__, "ace": p.ace} for p in campaign.pilots],
        "history": [e.__dict__ for e in campaign.history],
        "next": None
        if mission is None
        else {
            "number": campaign.number,
            "id": mission.id,
            "title": mission.title or mission.id,
            "scenario": mission.scenario,
            "game": playing.game_id if playing is not None and playing.result is None else None,
            "flights": [f.__dict__ for f in campaign.flights],
        },
    }


def register_campaigns(
    app: FastAPI,
    service: GameService,
    engine: Any,
    catalog: Catalog,
    start_game: Callable[[CreateGame], Json],
    throttle: Callable[[Request], None] = lambda request: None,
) -> CampaignStore:
    """Add the campaign pages and API to ``app``; games go through ``start_game``.
    ``throttle`` refuses a caller over the server's rate of new games (429): a new
    campaign and a campaign's next mission count as new games."""
    store = CampaignStore(engine)

    def opened(campaign_id: str) -> tuple[Stored, CampaignSpec]:
        stored = store.load(campaign_id)
        if stored is None:
            raise ApiError(404, f"no campaign {campaign_id!r}", "campaign_id")
        if is_sopwith(stored.source):
            raise ApiError(
                409,
                f"campaign {campaign_id!r} is a Sopwith league played by post: its Games "
                f"Master runs it with 'dogfight campaign status {campaign_id}'",
                "campaign_id",
            )
        return stored, parse_campaign(stored.source, f"campaign {campaign_id}", catalog)

    def settle(stored: Stored, spec: CampaignSpec) -> Stored:
        """Write the result of the current mission if its game is over."""
        campaign = stored.campaign
        row = stored.missions.get(campaign.number)
        if campaign.over or row is None or row.game_id is None or row.result is not None:
            return stored
        game = service.get(row.game_id, keep=False)
        with game.lock:
            state = game.state
            if not state.over:
                return stored
            events: list[Event] = [e for step in game.steps for e in step.events]
            initial = game.initial
        sides = {v.id: v.side for v in (*initial.vehicles.values(), *initial.reserves.values())}
        result = result_of(spec, campaign, events, state.winner, sides, game=row.game_id)
        with contextlib.suppress(CampaignError):
            # another request (or process) may have written it first: read it back
            store.write_result(stored, apply_result(spec, campaign, result), result)
        fresh = store.load(stored.id)
        assert fresh is not None
        return fresh

    @app.get("/campaigns", include_in_schema=False)
    async def campaigns_page() -> FileResponse:
        return page("campaigns.html")

    @app.get("/campaign/{campaign_id}", include_in_schema=False)
    async def campaign_page(campaign_id: str) -> FileResponse:
        return page("campaign.html")

    @app.get("/api/campaigns")
    async def list_campaigns() -> Json:
        """Stored campaigns and the campaign files one can start."""
        shipped = []
        for name in available():
            spec, _ = load_campaign(name, catalog)
            shipped.append(
                {"id": spec.id, "title": spec.title, "note": spec.note, "sides": spec.sides}
            )
        return {
            "campaigns": [
                {"id": cid, "title": title, "created": created}
                for cid, title, created in store.ids()
            ],
            "shipped": shipped,
        }

    @app.post("/api/campaigns", status_code=201)
    async def create_campaign(body: NewCampaign, request: Request) -> Json:
        """Start a shipped campaign (its seed is the server's secret)."""
        throttle(request)
        if body.campaign not in available():
            raise ApiError(
                422,
                f"no campaign {body.campaign!r}; campaigns: {', '.join(available())}",
                "campaign",
            )
        try:
            spec, text = load_campaign(body.campaign, catalog)
        except DataError as exc:
            raise ApiError(422, str(exc), "campaign") from None
        campaign = start(spec, secrets.randbelow(2**31))
        campaign_id = store.create(body.title or spec.title, text, campaign)
        stored, spec = opened(campaign_id)
        return campaign_json(spec, stored)

    @app.get("/api/campaigns/{campaign_id}")
    async def get_campaign(campaign_id: str) -> Json:
        """Roster, history and the next mission (a finished mission's result is written
        here first)."""
        stored, spec = opened(campaign_id)
        return campaign_json(spec, settle(stored, spec))

    @app.post("/api/campaigns/{campaign_id}/next", status_code=201)
    async def next_mission(campaign_id: str, body: NextMission, request: Request) -> Json:
        """Start the next mission as a game; the answer holds its seats' private links."""
        throttle(request)
        stored, spec = opened(campaign_id)
        stored = settle(stored, spec)
        campaign: Campaign = stored.campaign
        if campaign.over:
            raise ApiError(409, "the campaign is over: there is no next mission", "campaign_id")
        row = stored.missions.get(campaign.number)
        if row is not None and row.game_id is not None and row.result is None:
            raise ApiError(
                409,
                f"mission {campaign.number} is being played as game {row.game_id}: finish it first",
                "campaign_id",
            )
        for side in body.computer:
            if side not in spec.sides:
                raise ApiError(
                    422, f"no side {side!r}; sides: {', '.join(spec.sides)}", f"computer.{side}"
                )
        ready, situation = prepare(spec, campaign, catalog)
        mission = spec.mission(str(campaign.current))
        setup = situation.model_dump(mode="json", exclude_defaults=True)
        game_sides = sorted({f.side for f in ready.flights})
        if mission.scenario is not None:
            scenario = catalog.scenarios[mission.scenario]
            game_sides = sorted(s.name for s in scenario.sides)
        computer = {
            s: body.computer[spec.campaign_side(mission, s)]
            for s in game_sides
            if spec.campaign_side(mission, s) in body.computer
        }
        made = start_game(
            CreateGame(
                title=f"{stored.title}, mission {campaign.number}: {mission.title or mission.id}",
                situation=setup,
                computer=computer,
            )
        )
        try:
            store.start_mission(stored, ready, made["game"]["id"], setup)
        except CampaignError as exc:
            raise ApiError(409, str(exc), "campaign_id") from None
        return {"mission": campaign.number, **made}

    return store

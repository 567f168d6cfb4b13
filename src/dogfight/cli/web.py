"""``dogfight serve | play | export``: the browser game's server, a quick game, and a
stored game's transcript and drawings."""

from __future__ import annotations

import contextlib
import enum
import os
import secrets
import signal
import socket
import sys
import webbrowser
from typing import TYPE_CHECKING, Annotated

import typer

from dogfight.catalog.loader import Catalog
from dogfight.cli.db import db_url
from dogfight.errors import DataError
from dogfight.situation.format import Situation
from dogfight.words.terms import plural

if TYPE_CHECKING:
    import uvicorn

    from dogfight.server.web.limits import Limits

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="Any SQLAlchemy URL (default: an SQLite file in the user's data folder).",
    ),
]
HostOption = Annotated[str, typer.Option(help="Address to listen on.")]
PortOption = Annotated[int, typer.Option(help="Port to listen on (0: any free port).")]
MaxBodyOption = Annotated[
    int | None,
    typer.Option(help="Largest request body in bytes (env DOGFIGHT_MAX_BODY; default 262144)."),
]
MaxVehiclesOption = Annotated[
    int | None,
    typer.Option(help="Most vehicles in a game (env DOGFIGHT_MAX_VEHICLES; default 16)."),
]
GamesPerMinuteOption = Annotated[
    int | None,
    typer.Option(
        help="New games per client address per minute, 0: no limit "
        "(env DOGFIGHT_GAMES_PER_MINUTE; default 30)."
    ),
]
MaxSpectatorsOption = Annotated[
    int | None,
    typer.Option(
        help="Spectators' open sockets per game (in each process), 0: no limit "
        "(env DOGFIGHT_MAX_SPECTATORS; default 20)."
    ),
]
AllowHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        help="Another name this server answers to in the Host header (repeatable; '*': any; "
        "env DOGFIGHT_ALLOWED_HOSTS, comma-separated).",
    ),
]
TrustedProxyOption = Annotated[
    list[str] | None,
    typer.Option(
        "--trusted-proxy",
        metavar="ADDR",
        help="The address (or network) of a reverse proxy in front of this server: rate "
        "limits and logs use the X-Forwarded-For of its requests, and ignore the header "
        "from anyone else (repeatable or comma-separated; env DOGFIGHT_TRUSTED_PROXY; "
        "default: none, the header is always ignored).",
    ),
]


class LogFormat(enum.Enum):
    """``--log-format``: what the server's log lines are (``request_log.configure``)."""

    json = "json"
    text = "text"


def _listen(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:  # several processes on one address: the kernel shares the connections
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise DataError(
            "--port", "port", port, f"cannot listen on {host}: {exc.strerror}"
        ) from None
    sock.listen(2048)  # hundreds of pages (re)connecting at once
    sock.set_inheritable(True)
    return sock


def _address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _can_open_browser() -> bool:
    """Only where a graphical browser can show up: a text browser would take over the
    terminal the server prints to."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _limits(
    host: str,
    max_body: int | None = None,
    max_vehicles: int | None = None,
    games_per_minute: int | None = None,
    allow_host: list[str] | None = None,
    trusted_proxy: list[str] | None = None,
    max_spectators: int | None = None,
) -> Limits:
    from dogfight.server.web.limits import Limits

    return Limits.from_env(
        bound_host=host,
        max_body=max_body,
        max_vehicles=max_vehicles,
        games_per_minute=games_per_minute,
        allowed_hosts=allow_host or None,
        trusted_proxies=trusted_proxy or None,
        max_spectators=max_spectators,
    )


KEEP_ALIVE = 60
"""Seconds an idle HTTP connection is kept open."""


def _run(
    app: object,
    sock: socket.socket,
    limits: Limits,
    log_format: str | None = None,
    more: list[socket.socket] | None = None,
) -> None:
    import uvicorn

    from dogfight.server.play import collector
    from dogfight.server.web import request_log

    collector.tune()  # a long-running process holding every game: see collector.py
    config = server_config(app, limits)
    config.load()  # uvicorn's own logging set up first: configure() then takes it over
    request_log.configure("json" if log_format == "json" else "text", log_format is not None)
    server = uvicorn.Server(config)
    # SIGTERM drains (uvicorn: stop accepting, finish the requests in flight, close the
    # WebSockets with 1012 "service restart"), then uvicorn raises the signal again to
    # the handler it found: this one, so a drained process exits 0 (docs/deploy.md)
    signal.signal(signal.SIGTERM, _drained)
    server.run(sockets=[sock, *(more or [])])


def _drained(signum: int, frame: object) -> None:
    """SIGTERM once uvicorn has drained: nothing left to do (the process exits 0)."""


def server_config(app: object, limits: Limits) -> uvicorn.Config:
    """uvicorn's settings for ``dogfight serve``."""
    import uvicorn
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from dogfight.server.web.request_log import NotePeer

    if limits.trusted_proxies:
        # the proxy's X-Forwarded-For read here (not by uvicorn's own layer, which
        # would hide the connection's address): NotePeer first notes that the request
        # came from the proxy, whose X-Request-ID is then taken (request_log.py)
        handling = ProxyHeadersMiddleware(app, list(limits.trusted_proxies))  # type: ignore[arg-type]
        app = NotePeer(handling, handling.trusted_hosts)  # type: ignore[arg-type]
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        log_level="warning",
        # no access log: at this level it is never written, yet uvicorn put each
        # request's line together before the logger dropped it (16,000 instructions)
        access_log=False,
        ws="websockets-sansio",
        ws_max_size=limits.ws_max_message,
        # a view is a few kB of JSON: compressing every message cost more CPU than the
        # bytes it saved (the server's, under load, is what every player waits for)
        ws_per_message_deflate=False,
        # a player's page sends a plan every few tens of seconds: its connection is
        # kept that long (uvicorn's 5 s made pages reconnect, and under load a request
        # could cross the server's closing of its connection)
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=16 * 1024,
        # a client's address is its connection's unless it comes from a proxy the
        # operator named: uvicorn's default believes X-Forwarded-For from 127.0.0.1, so
        # anything on the machine (or a proxy passing the header on) could claim any
        # address and make any number of games (issue 28)
        proxy_headers=False,
    )


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        db: DbOption = None,
        host: HostOption = "127.0.0.1",
        port: PortOption = 8000,
        max_body: MaxBodyOption = None,
        max_vehicles: MaxVehiclesOption = None,
        games_per_minute: GamesPerMinuteOption = None,
        max_spectators: MaxSpectatorsOption = None,
        allow_host: AllowHostOption = None,
        trusted_proxy: TrustedProxyOption = None,
        reuse_port: Annotated[
            bool,
            typer.Option(
                "--reuse-port",
                help="Let other `dogfight serve --reuse-port` processes listen on the same "
                "address (with a PostgreSQL --db they share the games; docs/web.md).",
            ),
        ] = False,
        public_url: Annotated[
            str | None,
            typer.Option(
                "--public-url",
                metavar="URL",
                help="The address players open, e.g. https://dogfight.example.org behind a "
                "TLS proxy: every link the server writes starts with it (env "
                "DOGFIGHT_PUBLIC_URL; default: links are paths on the page's own address).",
            ),
        ] = None,
        allow_private_webhooks: Annotated[
            bool,
            typer.Option(
                "--allow-private-webhooks",
                help="Let seats send their reminders to webhooks on private or loopback "
                "addresses (env DOGFIGHT_ALLOW_PRIVATE_WEBHOOKS=1; default: refused).",
            ),
        ] = False,
        upgrade: Annotated[
            bool,
            typer.Option(
                "--upgrade",
                help="Upgrade a database of an older dogfight first, as `dogfight db "
                "upgrade` does (an SQLite file is copied beside itself first).",
            ),
        ] = False,
        metrics_token: Annotated[
            str | None,
            typer.Option(
                "--metrics-token",
                metavar="TOKEN",
                help="Let a client on another machine read /metrics with 'Authorization: "
                "Bearer TOKEN' (env DOGFIGHT_METRICS_TOKEN; default: this machine only).",
            ),
        ] = None,
        metrics_port: Annotated[
            int | None,
            typer.Option(
                "--metrics-port",
                help="Also listen on this port (of --host), this process's own: Prometheus "
                "scrapes each process there (with --reuse-port the shared port reaches any "
                "of them; docs/deploy.md, 'Metrics').",
            ),
        ] = None,
        log_format: Annotated[
            LogFormat | None,
            typer.Option(
                "--log-format",
                help="Log each request (one line: id, route, status, ms, client, game): "
                "json, one JSON object a line (every other record too), or text, words for "
                "a terminal (default: no request lines, warnings in words).",
            ),
        ] = None,
    ) -> None:
        """Serve the browser game: the lobby at the printed address."""
        from dogfight.cli.catalog_option import catalog
        from dogfight.server.web.app import create_app
        from dogfight.server.web.metrics import metrics_token as metrics_token_of
        from dogfight.server.web.public_url import public_url as checked_public_url

        public = checked_public_url(public_url)  # refused before anything starts
        url, where = db_url(db)
        if upgrade:
            from dogfight.cli.db import open_engine, print_upgrade

            engine = open_engine(url)
            try:
                print_upgrade(engine)
            finally:
                engine.dispose()
        limits = _limits(
            host,
            max_body,
            max_vehicles,
            games_per_minute,
            allow_host,
            trusted_proxy,
            max_spectators,
        )
        web = create_app(
            url,
            catalog(),
            limits,
            public_url=public,
            metrics_token=metrics_token_of(metrics_token),
            allow_private_webhooks=allow_private_webhooks,
        )
        sock = _listen(host, port, reuse_port)
        own = [] if metrics_port is None else [_listen(host, metrics_port)]
        bound = sock.getsockname()[1]
        print(f"dogfight: games are stored in {where}", flush=True)
        print(f"dogfight: serving on {_address(host, bound)}/ (Ctrl-C to stop)", flush=True)
        if public is not None:
            print(f"dogfight: links are written for {public}/", flush=True)
        for extra in own:
            shown = _address(host, extra.getsockname()[1])
            print(f"dogfight: this process's metrics at {shown}/metrics", flush=True)
        _run(web, sock, limits, None if log_format is None else log_format.value, own)

    @app.command()
    def play(
        scenario: Annotated[
            str, typer.Argument(help="A preset: duel, or a scenario id (dogfight info).")
        ] = "duel",
        db: DbOption = None,
        host: HostOption = "127.0.0.1",
        port: PortOption = 8000,
        computer: Annotated[
            list[str] | None,
            typer.Option(help="SEAT=BOT: hand a seat (a side's name) to a computer player."),
        ] = None,
        no_browser: Annotated[
            bool, typer.Option("--no-browser", help="Only print the address.")
        ] = False,
        seed: Annotated[int | None, typer.Option(help="Seed of the damage decks.")] = None,
        vs: Annotated[
            str | None,
            typer.Option(
                "--vs", help="Play in this terminal against this computer player instead."
            ),
        ] = None,
        side: Annotated[
            str | None, typer.Option("--as", help="With --vs: your side (default: the first).")
        ] = None,
        explain: Annotated[
            bool,
            typer.Option(
                "--explain",
                help="With --vs: after each turn, why the computer chose its plans "
                "(its three best with their values).",
            ),
        ] = False,
        allow_host: AllowHostOption = None,
    ) -> None:
        """Serve, create a game played hot-seat in one browser, and open it; with --vs BOT,
        play it in the terminal against a computer player (``--explain``: and say why it
        chose its plans after each turn)."""
        from dogfight.cli.catalog_option import catalog

        if vs is not None:
            # a new game each time unless --seed asks for a given one (printed either way)
            chosen = seed if seed is not None else secrets.randbelow(2**31)
            _play_in_terminal(catalog(), scenario, vs, side, chosen, explain)
            return
        from dogfight.server.errors import ApiError
        from dogfight.server.schemas import CreateGame
        from dogfight.server.web.app import create_app

        bots: dict[str, str] = {}
        for item in computer or []:
            seat, _, bot = item.partition("=")
            if not seat or not bot:
                raise DataError("--computer", "computer", item, "SEAT=BOT, e.g. central=random")
            bots[seat] = bot
        url, where = db_url(db)
        limits = _limits(host, allow_host=allow_host)
        web = create_app(url, catalog(), limits)
        try:
            made = web.state.new_game(
                CreateGame(preset=scenario, computer=bots, seed=seed, analysis=seed is not None)
            )
        except ApiError as exc:
            field = exc.field or "scenario"
            if field.startswith("computer."):  # a seat's bot: blame --computer, show the bot
                seat = field.partition(".")[2]
                raise DataError("--computer", field, bots.get(seat), exc.error) from None
            raise DataError("play", field, scenario, exc.error) from None
        try:
            sock = _listen(host, port)
        except DataError:
            if port != 8000:
                raise
            sock = _listen(host, 0)  # the default port is taken: any free one will do
        address = _address(host, sock.getsockname()[1])
        link = address + made["hotseat_link"]
        print(f"dogfight: games are stored in {where}", flush=True)
        print(f"dogfight: serving on {address}/ (Ctrl-C to stop)", flush=True)
        print(
            f"dogfight: game {made['game']['id']} ({made['game']['title']}), every seat", flush=True
        )
        print(f"  here: {link}", flush=True)
        for seat in made["seats"]:
            if not seat["computer"]:
                print(f"  {seat['label']} alone: {address}{seat['link']}", flush=True)
        if not no_browser and _can_open_browser():
            with contextlib.suppress(webbrowser.Error):
                webbrowser.open(link)
        _run(web, sock, limits)

    @app.command()
    def export(
        game: Annotated[str, typer.Argument(help="The game's id (from its link).")],
        db: DbOption = None,
        output: Annotated[
            str | None, typer.Option("-o", "--output", help="Transcript file (default GAME.jsonl).")
        ] = None,
        svg: Annotated[str | None, typer.Option(help="Also draw a step to this SVG file.")] = None,
        step: Annotated[
            int | None, typer.Option(help="The step to draw (0: the setup; default: the last).")
        ] = None,
    ) -> None:
        """Write a stored game's transcript (JSON lines, every event, the referee's view)
        and optionally an SVG of one step. Steps whose stored events differ from this
        engine's replay of them (a game stored by another engine version) are named."""
        from dogfight.cli.catalog_option import catalog
        from dogfight.output.files import write_atomic
        from dogfight.output.transcript import transcript
        from dogfight.render.svg import render_svg
        from dogfight.server.db.store import Store
        from dogfight.server.errors import ApiError
        from dogfight.server.play.service import GameService

        url, _ = db_url(db)
        store = Store(url)
        try:
            service = GameService(store, catalog())
            try:
                live = service.get(game)
            except ApiError as exc:
                raise DataError("export", "game", game, exc.error) from None
            with live.lock:
                events = [e for s in live.steps for e in s.events]
                header = {
                    "game": live.id,
                    "title": live.title,
                    "seed": live.seed,
                    "setup": live.setup,
                    "seats": [
                        {"id": s.id, "label": s.label, "side": s.side, "computer": s.bot}
                        for s in sorted(live.seats.values(), key=lambda s: s.position)
                    ],
                    "plans": {
                        str(turn): {
                            seat: {v: p.to_json() for v, p in plans.items()}
                            for seat, plans in by_seat.items()
                        }
                        for turn, by_seat in sorted(live.plans.items())
                    },
                    "steps": len(live.steps),
                }
                if live.diverged:
                    # the events are this engine's replay; the players saw the stored ones
                    header["diverged"] = [list(at) for at in live.diverged]
                target = output or f"{live.id}.jsonl"
                write_atomic(target, transcript(events, **header), "--output")
                print(f"dogfight: {len(events)} events of {len(live.steps)} steps -> {target}")
                if live.diverged:
                    where = ", ".join(f"turn {t} phase {p}" for t, p in live.diverged)
                    print(
                        f"dogfight: {plural(len(live.diverged), 'step')} replay differently "
                        "from what "
                        f"was stored (another engine version?): {where}; the transcript holds "
                        "the replay, the header's 'diverged' lists them"
                    )
                if svg is not None:
                    index = len(live.steps) if step is None else step
                    if not 0 <= index <= len(live.steps):
                        raise DataError(
                            "--step", "step", step, f"0..{len(live.steps)} for this game"
                        )
                    if index == 0:
                        state, shown = live.initial, []
                    else:
                        chosen = live.steps[index - 1]
                        state, shown = chosen.state, chosen.events
                    title = f"{live.title}: step {index}"
                    if index:
                        title += f" (turn {state.turn if state.phase else chosen.turn})"
                    write_atomic(svg, render_svg(state, shown, title), "--svg")
                    print(f"dogfight: step {index} drawn -> {svg}")
        finally:
            store.close()


def human_side(situation: Situation, cat: Catalog, bot: str, sides: list[str]) -> str:
    """The side a human takes against ``bot``: the first side the bot would not be
    chosen to play (``play a-lonely-invader --vs automated-tripod`` seats the human with
    the airplanes), else the first side."""
    from dogfight.sim.run import default_bot
    from dogfight.situation.format import build

    state = build(situation, cat, 0)
    natural = {side: default_bot(state, side) for side in sides}
    if bot in natural.values():
        return next((s for s in sides if natural[s] != bot), sides[0])
    return sides[0]


def _play_in_terminal(
    cat: Catalog, preset: str, bot: str, side: str | None, seed: int, explain: bool = False
) -> None:
    """``dogfight play PRESET --vs BOT [--explain]``: the same presets as the browser, in
    the terminal."""
    from dogfight.bots.base import make
    from dogfight.cli.terminal_play import play_in_terminal
    from dogfight.server.play.setups import presets
    from dogfight.situation.format import parse_situation

    make(bot, "--vs")  # an unknown bot is refused before anything starts
    known = presets(cat)
    if preset not in known:
        raise DataError("play", "scenario", preset, "presets: " + ", ".join(sorted(known)))
    situation = parse_situation(known[preset]["setup"], preset)
    sides = sorted({v.side for v in situation.vehicles if v.side is not None})
    if situation.scenario is not None:
        sides = [s.name for s in cat.scenarios[situation.scenario].sides]
    human = side or human_side(situation, cat, bot, sides)
    if human not in sides:
        raise DataError("--as", "side", human, "sides: " + ", ".join(sides))
    play_in_terminal(situation, cat, human, bot, seed, explain=explain)

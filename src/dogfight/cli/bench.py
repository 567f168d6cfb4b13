"""``dogfight bench``: print the engine's (or, with ``--server``, the browser game
server's) speed and memory figures as JSON."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def bench(
        quick: Annotated[bool, typer.Option(help="Fewer samples (a smoke run).")] = False,
        server: Annotated[
            bool,
            typer.Option(
                "--server",
                help="Benchmark `dogfight serve`: concurrent games of scripted clients on "
                "127.0.0.1, result latency p50/p99 and the server's memory.",
            ),
        ] = False,
        games: Annotated[int, typer.Option(help="With --server: concurrent games.", min=1)] = 50,
        burst: Annotated[
            bool,
            typer.Option(help="With --server: no thinking time, every plan sent at once."),
        ] = False,
    ) -> None:
        """Median phase time with 4 to 64 airplanes all in play (constant density and a
        crowded 90 x 90 table), per-plane cost and its growth, random duels per second,
        bots, peak memory; targets beside each figure. With --server: the web server."""
        if server:
            from dogfight.bench.server import THINK
            from dogfight.bench.server import run as run_server

            figures = run_server(
                games=5 if quick else games,
                turns=2 if quick else 4,
                think=(0.0, 0.0) if burst else THINK,
            )
            sys.stdout.write(json.dumps(figures, indent=2) + "\n")
            return
        from dogfight.bench.engine import run
        from dogfight.cli.app import catalog

        sys.stdout.write(json.dumps(run(catalog(), quick=quick), indent=2) + "\n")

"""``dogfight bench``: print the engine's speed and memory figures as JSON."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def bench(
        quick: Annotated[bool, typer.Option(help="Fewer samples (a smoke run).")] = False,
    ) -> None:
        """Median time of one phase with 4 and 32 airplanes, random duels per second,
        peak memory; targets beside each figure."""
        from dogfight.bench.engine import run
        from dogfight.cli.app import catalog

        sys.stdout.write(json.dumps(run(catalog(), quick=quick), indent=2) + "\n")

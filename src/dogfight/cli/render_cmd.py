"""``dogfight render``: adjudicate a situation and draw the resulting table as an SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``render`` command to ``app`` (called by :mod:`dogfight.cli.app`)."""

    @app.command("render")
    def render(
        situation: Annotated[Path, typer.Argument(help="A situation JSON file.")],
        output: Annotated[str, typer.Option("-o", "--output", help="Write the SVG drawing here.")],
        seed: Annotated[int, typer.Option(help="Seed of the damage decks' shuffles.")] = 0,
        phases: Annotated[
            int | None, typer.Option(help="Resolve only this many phases.", min=0)
        ] = None,
        reach: Annotated[
            bool, typer.Option("--reach/--no-reach", help="Draw the firing arcs.")
        ] = True,
    ) -> None:
        """Resolve a situation's planned phases and draw the table to scale as SVG: bases,
        cards and paths flown, shots with their range, firing arcs, blocked shots; smoke
        clouds, rockets, announced special damage and the scenario's edges and objectives.
        With ``"move": false`` nothing is flown: the ruling on the table as it stands, with
        the reachable part of each target and each blocker's shadow."""
        # Imported here: app.py imports this module at its end, and the catalog must
        # honour the --data option parsed by app's callback.
        from dogfight.cli.catalog_option import catalog
        from dogfight.output.files import write_atomic
        from dogfight.render.svg import render_svg
        from dogfight.situation.format import read_situation
        from dogfight.situation.ruling import judge

        cat = catalog()
        source = str(situation)
        parsed = read_situation(situation)
        done = judge(parsed, cat, seed, phases, source)
        title = f"{situation.name}, seed {seed}"
        if done.ruling is not None:
            title = f"{situation.name}, as it stands"
        elif phases is not None:
            title += f", first {phases} phase{'' if phases == 1 else 's'}"
        svg = render_svg(done.state, done.events, title=title, show_reach=reach, ruling=done.ruling)
        write_atomic(output, svg, "--output")

"""``dogfight train``: train the learned bot's parameters by refereed duels against the
hard bot and earlier versions of itself (:mod:`dogfight.learned.train`) and write them
as a weights file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dogfight.cli.catalog_option import DataOption


def register(app: typer.Typer) -> None:
    @app.command()
    def train(
        seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 0,
        out: Annotated[
            Path,
            typer.Option("--out", help="Where to write the weights (JSON)."),
        ] = Path("weights.json"),
        minutes: Annotated[
            float,
            typer.Option("--minutes", min=0.0, help="Wall-time budget: stop after it."),
        ] = 120.0,
        generations: Annotated[
            int, typer.Option("--generations", min=1, help="Generations of the search.")
        ] = 60,
        population: Annotated[
            int, typer.Option("--population", min=2, help="Candidates per generation.")
        ] = 6,
        games: Annotated[
            int,
            typer.Option("--games", min=4, help="Refereed duels per candidate and generation."),
        ] = 96,
        check_every: Annotated[
            int,
            typer.Option(
                "--check-every",
                min=0,
                help="Play referee duels against the hard bot every this many generations "
                "(0: only at the end).",
            ),
        ] = 10,
        check_games: Annotated[
            int, typer.Option("--check-games", min=2, help="Referee duels per check.")
        ] = 200,
        workers: Annotated[
            int, typer.Option("--workers", min=1, help="Processes playing the duels.")
        ] = 2,
        start: Annotated[
            Path | None,
            typer.Option("--weights", help="Start from these weights (default: the hard bot's)."),
        ] = None,
        data: DataOption = None,
    ) -> None:
        """Train the learned bot's parameters (a cross-entropy evolution strategy over
        refereed duels against the hard bot and earlier versions of itself), printing
        games played and the win rate against the hard bot with its 95% interval. The
        same --seed, --generations, --population and --games write the same file;
        --minutes stops a run early. The defaults are the shipped file's recipe:
        `dogfight train --seed 1` writes it again."""
        from dogfight.cli.catalog_option import catalog, set_data_folder
        from dogfight.learned.train import Plan, train
        from dogfight.learned.weights import load
        from dogfight.output.files import write_atomic

        set_data_folder(data)
        begin = load(start) if start is not None else None
        plan = Plan(
            seed, generations, population, games, minutes, check_every, check_games, workers
        )
        weights = train(catalog(), plan, lambda line: print(line, flush=True), begin)
        write_atomic(out, weights.to_json(), "--out")
        print(f"written to {out}")

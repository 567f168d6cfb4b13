"""``dogfight simulate``: many bot-against-bot games, their statistics and charts."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from dogfight.errors import DataError
from dogfight.output.files import make_folder
from dogfight.words.terms import plural

ENGINES = ("local", "ray", "batch", "ray-batch")


def parse_bots(text: str | None, sides: list[str]) -> dict[str, str]:
    """``allies=hard,central=random`` (or one name for every side) -> side -> bot."""
    from dogfight.bots.base import make

    if not text:
        return {}
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" not in part:
            make(part)
            if len(text.split(",")) != 1:
                raise DataError("--bots", "bots", text, "SIDE=BOT pairs separated by commas")
            return {side: part for side in sides}
        side, _, name = (s.strip() for s in part.partition("="))
        if side not in sides:
            raise DataError("--bots", "side", side, "sides of this table: " + ", ".join(sides))
        make(name)
        out[side] = name
    return out


def victories_line(wins: dict[str, Any], games: int) -> str:
    """The series in words where a scenario's victory is the whole result (000 and 001
    print no match points): who won most often, not a total of points."""
    counts = {side: int(data["count"]) for side, data in wins.items()}
    best = max(counts.values(), default=0)
    ahead = [side for side, count in counts.items() if count == best]
    said = ", ".join(f"{side} {count}" for side, count in counts.items())
    if best and len(ahead) == 1:
        return (
            f"scenario victories over the {games} games: {said}; {ahead[0]} ahead "
            "(the scenario's text gives no match points)"
        )
    return f"scenario victories over the {games} games: {said}; level"


def load_table(target: str, catalog: Any) -> tuple[Any, bool]:
    """A situation file, a scenario id (then each game redraws the setup), or another
    ready-made setup of ``dogfight play`` (``duel``)."""
    from dogfight.server.play.setups import presets
    from dogfight.situation.format import parse_situation, read_situation
    from dogfight.situation.scenarios import scenario_situation

    path = Path(target)
    if path.suffix.lower() == ".json" or path.exists():
        situation = read_situation(path)
        if not situation.move:
            raise DataError(
                target,
                "move",
                False,
                "a table that stands and only fires is a ruling, not a game: use "
                "'dogfight adjudicate' or 'dogfight render' (docs/situations.md)",
            )
        return situation, False
    if target not in catalog.scenarios:
        known = presets(catalog)
        if target in known:
            return parse_situation(known[target]["setup"], target), False
        raise DataError(
            "SCENARIO",
            "scenario",
            target,
            "a situation JSON file, a scenario or a ready-made setup: " + ", ".join(sorted(known)),
        )
    return scenario_situation(catalog, target), True


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""

    @app.command("simulate")
    def simulate(
        scenario: Annotated[
            str | None,
            typer.Argument(
                help="A scenario id (dogfight info), a preset of `dogfight play` (duel) or a "
                "situation JSON file (not with --campaign)."
            ),
        ] = None,
        games: Annotated[int, typer.Option("--games", help="Games to play.", min=1)] = 100,
        workers: Annotated[
            int | None,
            typer.Option("--workers", help="Worker processes (default: CPUs).", min=1),
        ] = None,
        bots: Annotated[
            str | None,
            typer.Option(
                "--bots",
                help="SIDE=BOT pairs, e.g. allies=hard,central=random, or one bot for every "
                "side (any registered bot: random, easy, hard, martian, automated-tripod, "
                "learned...; an unknown name lists them); default: "
                "automated-tripod for a solo scenario's tripods, martian for other tripod "
                "sides, hard for the others.",
            ),
        ] = None,
        seed: Annotated[int, typer.Option("--seed", help="Seed of the whole run.")] = 0,
        engine: Annotated[
            str,
            typer.Option(
                "--engine",
                help="local (processes), ray, batch (the batched simulator: airplane tables "
                "of wog, wow, wow-basic, ww2 and a tripod's; bots random, easy and learned, a "
                "tripod's side random) or ray-batch (batches on Ray workers).",
            ),
        ] = "local",
        address: Annotated[
            str | None, typer.Option("--address", help="Ray cluster address (with --engine ray).")
        ] = None,
        max_turns: Annotated[
            int, typer.Option("--max-turns", help="Stop a game after this many turns.", min=1)
        ] = 30,
        out: Annotated[
            Path, typer.Option("--out", help="Folder for results.json, games.csv and PNGs.")
        ] = Path("simulation"),
        campaign: Annotated[
            str | None,
            typer.Option(
                "--campaign",
                help="Play whole campaigns (a shipped campaign id or a campaign file) instead "
                "of single games: --games campaigns, SIDE=BOT by campaign side.",
            ),
        ] = None,
    ) -> None:
        """Bot-against-bot games: win rates with 95% intervals, game length, damage dealt by
        weapon; writes results.json, games.csv, win_rates.png and lengths.png to --out. Each
        game has its own seed spawned from --seed: the results do not depend on --workers
        or --engine."""
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
        from rich.table import Table

        from dogfight.cli.catalog_option import catalog
        from dogfight.output.files import write_atomic
        from dogfight.sim.parallel import RunSpec, check_address, play_chunk, run
        from dogfight.sim.plots import lengths_png, subject, win_rates_png
        from dogfight.sim.run import GameResult, default_bot, sides_of
        from dogfight.sim.stats import games_csv, results_json, summarize
        from dogfight.situation.format import build

        if campaign is not None:
            if scenario is not None:
                raise DataError("SCENARIO", "scenario", scenario, "give a scenario or --campaign")
            simulate_campaigns(campaign, games, bots, seed, max_turns, out)
            return
        if scenario is None:
            raise DataError("SCENARIO", "scenario", None, "a scenario id or a situation file")
        if engine not in ENGINES:
            raise DataError("--engine", "engine", engine, ", ".join(ENGINES))
        if address is not None and engine not in ("ray", "ray-batch"):
            raise DataError("--address", "address", address, "only with --engine ray or ray-batch")
        if address is not None:
            check_address(address)
        cat = catalog()
        situation, vary = load_table(scenario, cat)
        state = build(situation, cat, seed, scenario)
        sides = sides_of(state)
        chosen = parse_bots(bots, sides)
        batched = engine in ("batch", "ray-batch")
        if batched:
            from dogfight.batch.bridge import not_covered
            from dogfight.batch.run import CHUNK, check_policies
            from dogfight.batch.run import play_chunk as play_batch

            missing = not_covered(state)
            if missing:
                raise DataError(
                    scenario,
                    "engine",
                    "batch",
                    "the batch engine does not play: " + "; ".join(missing),
                )
            # a tripod table's default is random (the martian bot and the airplanes'
            # bots cost a hundred times more a game: docs/batch.md "Benchmark")
            tripods = {v.side for v in state.vehicles.values() if v.tripod is not None}
            default = "random" if tripods else "easy"
            chosen = {side: chosen.get(side) or default for side in sides}
            check_policies(chosen, tripods)
        else:
            chosen = {side: chosen.get(side) or default_bot(state, side) for side in sides}
        make_folder(out)
        count = workers or os.cpu_count() or 1
        spec = RunSpec(
            situation=situation.model_dump(mode="json", exclude_defaults=True),
            bots=chosen,
            seed=seed,
            games=games,
            max_turns=max_turns,
            vary=vary,
            data=cat.folders[1] if len(cat.folders) > 1 else None,
        )
        console = Console(stderr=True)
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        ) as bar:
            on = f"{count} {engine} {'worker' if count == 1 else 'workers'}"
            task = bar.add_task(f"{games} games on {on}", total=games)
            began = time.perf_counter()

            def advance(done: int) -> None:
                bar.advance(task, done)

            if batched and count == 1 and engine == "batch":
                raw = play_batch(spec, list(range(games)), advance)
            else:
                raw = run(
                    spec,
                    count,
                    "ray" if engine == "ray-batch" else "local",
                    address,
                    progress=advance,
                    per_task=CHUNK if batched else None,
                    player=play_batch if batched else play_chunk,
                )
        wall = time.perf_counter() - began
        cores = min(count, os.cpu_count() or 1)
        # On the terminal only: results.json stays the same file for the same seed.
        speed = {
            "games_per_second": round(games / wall, 2),
            "per_worker": round(games / wall / count, 2),
            "per_core": round(games / wall / cores, 2),
            "cores": cores,
        }
        results = [GameResult.from_json(g) for g in raw]
        summary = summarize(results, sides)
        config = {
            "table": scenario,
            "games": games,
            "seed": seed,
            "bots": chosen,
            "max_turns": max_turns,
            "workers": count,
            "engine": engine,
        }
        write_atomic(out / "results.json", results_json(config, summary), "--out")
        write_atomic(out / "games.csv", games_csv(results), "--out")
        what = subject(state.scenario.title if state.scenario is not None else scenario, chosen)
        win_rates_png(summary, out / "win_rates.png", what=what)
        lengths_png(results, out / "lengths.png", what=what, sides=sides)
        table = Table(title=f"{scenario}: {games} games, seed {seed}")
        table.add_column("outcome")
        table.add_column("bot")
        table.add_column("games", justify="right")
        table.add_column("rate", justify="right")
        table.add_column("95% interval", justify="right")
        rows = [(side, chosen[side], data) for side, data in summary["wins"].items()]
        rows += [("draw", "", summary["draws"]), ("turn cap", "", summary["turn_capped"])]
        for label, bot, data in rows:
            low, high = data["ci95"]
            table.add_row(
                label, bot, str(data["count"]), f"{data['rate']:.1%}", f"{low:.1%} - {high:.1%}"
            )
        report = Console()
        report.print(table)
        turns = summary["turns"]
        report.print(
            f"turns per game: mean {turns['mean']:.2f}, median {turns['median']:g}, "
            f"range {turns['min']:g}-{turns['max']:g}"
        )
        for weapon, data in summary["damage_by_weapon"].items():
            report.print(f"damage by {weapon}: {data['total']} ({data['per_game']:.2f} per game)")
        if state.scenario is None or state.scenario.match_points:
            match = summary["match_points"]
            report.print(
                f"match points over the {games} games ({state.rules.switches.match_scoring}): "
                + ", ".join(
                    f"{side} {total} ({match['per_game'][side]:.2f} per game)"
                    for side, total in match["totals"].items()
                )
                + (f"; {match['leader']} ahead" if match["leader"] else "; level")
            )
        else:
            report.print(victories_line(summary["wins"], games))
        for mission, count in summary["missions"].items():
            report.print(f"mission {mission} accomplished in {count} of {games} games")
        report.print(
            f"speed: {speed['games_per_second']:g} games/s on {plural(count, 'worker')}: "
            f"{speed['per_worker']:g} per worker, {speed['per_core']:g} per core "
            f"({plural(cores, 'core')} used, start-up included)"
        )
        report.print(f"written to {out}/: results.json, games.csv, win_rates.png, lengths.png")


def simulate_campaigns(
    name: str, campaigns: int, bots: str | None, seed: int, max_turns: int, out: Path
) -> None:
    """``simulate --campaign``: whole campaigns bot against bot; how often each side wins
    the campaign, how long it lasts and how long pilots survive (campaigns.json)."""
    import json

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from dogfight.campaign.spec import load_campaign
    from dogfight.cli.catalog_option import catalog
    from dogfight.output.files import write_atomic
    from dogfight.sim.campaign import play_campaign, summarize_campaigns

    cat = catalog()
    spec, _ = load_campaign(name, cat)
    chosen = parse_bots(bots, list(spec.sides))
    make_folder(out)
    played = []
    with Progress(console=Console(stderr=True)) as bar:
        task = bar.add_task(f"{campaigns} campaigns of {spec.title}", total=campaigns)
        for k in range(campaigns):
            played.append(play_campaign(spec, cat, seed + k, chosen, max_turns))
            bar.advance(task)
    summary = summarize_campaigns(spec, played)
    config = {"campaign": spec.id, "campaigns": campaigns, "seed": seed, "bots": chosen}
    write_atomic(
        out / "campaigns.json",
        json.dumps({"config": config, "summary": summary.to_json()}, indent=2) + "\n",
        "--out",
    )
    table = Table(title=f"{spec.title}: {campaigns} campaigns, seed {seed}")
    for column in ("winner", "campaigns", "rate", "95% interval"):
        table.add_column(column)
    rows = [*summary.wins.items(), ("draw", summary.draws)]
    for label, data in rows:
        low, high = data["ci95"]
        table.add_row(label, str(data["count"]), f"{data['rate']:.1%}", f"{low:.1%} - {high:.1%}")
    pilots = Table(title="pilots")
    for column in (
        "side",
        "pilots",
        "killed or captured",
        "missions each",
        "missions before loss",
        "aces",
    ):
        pilots.add_column(column)
    for side, p in summary.pilots.items():
        pilots.add_row(
            side,
            f"{p['pilots']:.0f}",
            f"{p['lost_rate']:.1%}",
            f"{p['missions_mean']:.2f}",
            f"{p['missions_before_loss']:.2f}",
            f"{p['aces']:.0f}",
        )
    report = Console()
    report.print(table)
    report.print(pilots)
    report.print(f"missions per campaign: {summary.missions:.2f}; written to {out}/campaigns.json")

"""``dogfight bench``: print the engine's (or, with ``--server``, the browser game
server's) speed and memory figures as JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer


def _progress(option: str, unit: str, every: int) -> Callable[[int], None]:
    """A long run's progress on stderr: ``dogfight bench <option>: <done> <unit>`` every
    ``every`` items (stdout keeps only the JSON)."""

    say = _say(option)

    def progress(done: int) -> None:
        if done % every == 0:
            say(f"{done} {unit}")

    return progress


def _say(option: str) -> Callable[[str], None]:
    """A long run's news on stderr: ``dogfight bench <option>: <what>``."""

    def say(what: str) -> None:
        sys.stderr.write(f"dogfight bench {option}: {what}\n")

    return say


def _think(given: str | None, default: tuple[float, float]) -> tuple[float, float]:
    """``--think MIN,MAX`` as two seconds (0 ≤ MIN ≤ MAX ≤ 600); a bad one exits 2."""
    if given is None:
        return default
    try:
        low, high = (float(part) for part in given.split(","))
    except ValueError:
        low = high = -1.0
    if not 0.0 <= low <= high <= 600.0:
        sys.stderr.write(
            f"dogfight bench: --think {given!r}: expected MIN,MAX seconds, "
            "0 <= MIN <= MAX <= 600 (e.g. 5,20)\n"
        )
        raise typer.Exit(2)
    return (low, high)


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
        games: Annotated[
            int | None,
            typer.Option(
                help="With --server: concurrent games (default 500; with --burst 50 and 200).",
                min=1,
            ),
        ] = None,
        batch: Annotated[
            bool,
            typer.Option(
                "--batch",
                help="Benchmark the batched simulator: random duels per second on one core "
                "and against the referee, a 32-airplane phase on 256 tables, the differential "
                "test (10,000 tables per ruleset) and win rates against the referee.",
            ),
        ] = False,
        bots: Annotated[
            bool,
            typer.Option(
                "--bots",
                help="The learned bot's figures: its win rate against the hard bot in "
                "referee duels (2,000 per side; 20 with --quick), its decision time, batched "
                "duels per CPU-second with learned or easy bots on both sides.",
            ),
        ] = False,
        burst: Annotated[
            bool,
            typer.Option(
                help="With --server: no thinking time, every seat of every game submits at "
                "once, turn after turn."
            ),
        ] = False,
        instructions: Annotated[
            bool,
            typer.Option(
                "--instructions",
                help="With --server: one burst (of 50 games unless --games) with the servers "
                "under valgrind's callgrind: the instructions they execute per turn played "
                "(deterministic where the CPU time per turn is not; about fifty times "
                "slower, so its latencies say nothing).",
            ),
        ] = False,
        differential: Annotated[
            bool,
            typer.Option(
                help="Compare the firing geometry with the frozen pre-issue-13 reference on "
                "10,000 phases of random crowded tables (exit status 1 on any difference)."
            ),
        ] = False,
        runs: Annotated[
            int | None,
            typer.Option(
                help="With --server: runs of each scenario, judged on the median of their "
                "p99s (default 3; 1 with --quick).",
                min=1,
            ),
        ] = None,
        processes: Annotated[
            int,
            typer.Option(
                help="With --server: server processes sharing the games (2 or more: on "
                "PostgreSQL, a throwaway cluster unless --db).",
                min=1,
            ),
        ] = 1,
        db: Annotated[
            str | None, typer.Option(help="With --server: the database URL to serve.")
        ] = None,
        floor: Annotated[
            bool,
            typer.Option(
                help="With --server: the same scenario against a canned server that does "
                "no game work (dogfight.bench.floor): what the scripted clients, the "
                "loopback and uvicorn alone cost."
            ),
        ] = False,
        touch: Annotated[
            int | None,
            typer.Option(
                "--touch",
                metavar="N",
                min=0,
                help="With --server: also the memory of a server that touched N stored "
                "games against one with 200 live games (default 10000; 60 with --quick; "
                "0: not measured).",
            ),
        ] = None,
        fuzz: Annotated[
            int | None,
            typer.Option(
                "--fuzz",
                metavar="N",
                min=1,
                help="Send N hostile inputs (HTTP, WebSocket, situations, orders) in "
                "process; count tracebacks, 5xx and invalid JSON (targets 0). Try 100000.",
            ),
        ] = None,
        switches: Annotated[
            int | None,
            typer.Option(
                "--switches",
                metavar="N",
                min=1,
                help="Make N random rule-switch sets into games (refused when made, or "
                "played 4 turns by random bots); count failed games (target 0). Try 20000.",
            ),
        ] = None,
        reopen: Annotated[
            bool,
            typer.Option(
                "--reopen",
                help="Open a seat's page of a 4-tripod game at turn 15 in Chromium (fresh, "
                "then reloaded): milliseconds until it is ready to plan, and the turns it "
                "animated (target 1 s; needs Playwright and Debian's chromium).",
            ),
        ] = False,
        seed: Annotated[
            int, typer.Option(help="With --fuzz or --switches: the generator's seed.")
        ] = 0,
        open_games: Annotated[
            int | None,
            typer.Option(
                "--open",
                metavar="N",
                min=1,
                help="With --server: N open games, most waiting a day (their players "
                "coming back now and then), --active of them played live: result "
                "latencies, each server's memory against the active games alone, errors, "
                "load average, the capacity figures (docs/deploy.md). Try 10000.",
            ),
        ] = None,
        active: Annotated[
            int | None,
            typer.Option(
                metavar="N",
                min=1,
                help="With --open: games played live at once (default 500; 20 with --quick).",
            ),
        ] = None,
        seconds: Annotated[
            float | None,
            typer.Option(
                min=1.0,
                help="With --open: seconds of each measured phase (default 60; 10 with --quick).",
            ),
        ] = None,
        think: Annotated[
            str | None,
            typer.Option(
                metavar="MIN,MAX",
                help="With --open: each live plan's thinking time, drawn between MIN and MAX "
                "seconds (default 5,20: a person's pace; 0.2,2 with --quick, and the stress "
                "variant).",
            ),
        ] = None,
        visits: Annotated[
            float | None,
            typer.Option(
                min=0.0,
                help="With --open: waiting games' players coming back a second (default 20; "
                "5 with --quick).",
            ),
        ] = None,
    ) -> None:
        """Median phase time with 4 to 64 airplanes all in play (constant density and a
        crowded 90 x 90 table), per-plane cost and its growth, random duels per second,
        bots, peak memory; targets beside each figure. With --server: the web server;
        with --fuzz N: N hostile inputs; with --switches N: N random switch sets."""
        if fuzz is not None:
            from dogfight.bench.fuzz import run as run_fuzz
            from dogfight.cli.catalog_option import catalog as load

            fuzzed = run_fuzz(load(), fuzz, seed, _progress("--fuzz", "cases", 10_000))
            sys.stdout.write(json.dumps(fuzzed, indent=2) + "\n")
            return
        if reopen:
            from dogfight.bench.reopen import run as run_reopen

            sys.stdout.write(json.dumps(run_reopen(quick=quick), indent=2) + "\n")
            return
        if switches is not None:
            from dogfight.bench.switches import run as run_switches
            from dogfight.cli.catalog_option import catalog as load

            counted = run_switches(load(), switches, seed, _progress("--switches", "sets", 1_000))
            sys.stdout.write(json.dumps(counted, indent=2) + "\n")
            if counted["failed"]:
                raise typer.Exit(1)
            return
        if bots:
            from dogfight.bench.bots import learned_figures
            from dogfight.cli.catalog_option import catalog as load

            sys.stdout.write(json.dumps(learned_figures(load(), quick=quick), indent=2) + "\n")
            return
        if batch:
            from dogfight.bench.batch import run as run_batch
            from dogfight.cli.catalog_option import catalog as load

            sys.stdout.write(json.dumps(run_batch(load(), quick=quick), indent=2) + "\n")
            return
        if server and open_games is not None:
            from dogfight.bench import open_games as opened

            measured = opened.run(
                open_games=open_games,
                active=active or (20 if quick else 500),
                processes=processes,
                db=db,
                seconds=seconds or (10.0 if quick else opened.SECONDS),
                visits=(5.0 if quick else opened.VISITS) if visits is None else visits,
                burst=20 if quick else opened.BURST,
                say=_say("--open"),
                think=_think(think, (0.2, 2.0) if quick else opened.HUMAN_THINK),
            )
            sys.stdout.write(json.dumps(measured, indent=2) + "\n")
            return
        if server:
            from dogfight.bench.server import THINK, repeated

            if instructions:
                from dogfight.bench.callgrind import CallgrindMissing
                from dogfight.bench.server import run as run_server

                try:
                    counted = run_server(
                        games=games or (5 if quick else 50),
                        turns=2 if quick else 4,
                        think=(0.0, 0.0),
                        processes=processes,
                        db=db,
                        instructions=True,
                    )
                except CallgrindMissing as exc:
                    sys.stderr.write(f"dogfight bench: {exc}\n")
                    raise typer.Exit(2) from None
                sys.stdout.write(json.dumps(counted, indent=2) + "\n")
                return
            if quick:
                counts = [games or 5]
            elif games is not None:
                counts = [games]
            else:
                counts = [50, 200] if burst else [500]
            figures = [
                repeated(
                    runs or (1 if quick else 3),
                    games=n,
                    turns=2 if quick else 4,
                    think=(0.0, 0.0) if burst else THINK,
                    processes=processes,
                    db=db,
                    floor=floor,
                )
                for n in counts
            ]
            out: Any = figures[0] if len(figures) == 1 else figures
            stored = touch if touch is not None else (60 if quick else 10_000)
            if stored and not floor:
                from dogfight.bench import live_memory

                memory = (
                    live_memory.run(stored, live=20, bound=10) if quick else live_memory.run(stored)
                )
                if isinstance(out, list):
                    out.append({"live_games_memory": memory})
                else:
                    out["live_games_memory"] = memory
            sys.stdout.write(json.dumps(out, indent=2) + "\n")
            return
        from dogfight.cli.catalog_option import catalog

        if differential:
            from dogfight.bench.differential import compare

            report = compare(catalog(), 500 if quick else 10_000)
            out = {
                "phases": report.phases,
                "shots": report.shots,
                "differences": report.differences,
                "new_ms_per_phase": round(1000 * report.new_seconds / report.phases, 3),
                "reference_ms_per_phase": round(1000 * report.old_seconds / report.phases, 3),
            }
            sys.stdout.write(json.dumps(out, indent=2) + "\n")
            if report.differences:
                raise typer.Exit(1)
            return
        from dogfight.bench.engine import run

        sys.stdout.write(json.dumps(run(catalog(), quick=quick), indent=2) + "\n")

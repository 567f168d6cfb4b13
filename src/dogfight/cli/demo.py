"""``dogfight demo``: a seeded airplane duel with random legal plans, narrated turn by
turn, ending with an SVG of the final table."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.rule import Rule

from dogfight.rules import events as ev
from dogfight.rules.observation import visible_events
from dogfight.rules.standard import acting
from dogfight.sim.duel import duel_situation, random_game
from dogfight.words.narration import describe


def last_turn(events: list[ev.Event]) -> list[ev.Event]:
    """The events of the last turn played (drawn on the final table)."""
    starts = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)]
    return events[starts[-1] :] if starts else events


def register(app: typer.Typer) -> None:
    @app.command()
    def demo(
        seed: Annotated[int, typer.Option(help="Seed of the plans and of the decks.")] = 7,
        first: Annotated[str, typer.Option(help="Allied airplane id.")] = "sopwith-camel",
        second: Annotated[str, typer.Option(help="Central airplane id.")] = "albatros-d5a",
        turns: Annotated[int, typer.Option(help="Stop after this many turns.", min=1)] = 30,
        output: Annotated[str, typer.Option("-o", "--output", help="SVG of the final table.")] = (
            "dogfight-demo.svg"
        ),
    ) -> None:
        """Play a complete seeded duel between random legal plans and narrate it."""
        from dogfight.cli.catalog_option import catalog
        from dogfight.output.files import write_atomic
        from dogfight.render.svg import render_svg

        cat = catalog()
        cat.airplane(first)
        cat.airplane(second)
        game = random_game(cat, seed, duel_situation(first, second), max_turns=turns)
        out = Console()
        out.print(f"[bold]Duel[/]: {first} (allies) against {second} (central), seed {seed}")
        for event in visible_events(game.events, None):
            if isinstance(event, ev.TurnStarted):
                out.print(Rule(f"Turn {event.turn}"))
                continue
            if isinstance(event, ev.PhaseStarted):
                out.print(f"[bold cyan]Phase {event.phase}[/]")
                continue
            style = {
                "fired": "yellow",
                "eliminated": "bold red",
                "game_over": "bold green",
                "jammed": "magenta",
                "explosion": "bold red",
                "illegal_maneuver": "red",
            }.get(event.kind, "")
            line = describe(event, game.state.rules.catalog, acting(game.state))
            out.print(f"[{style}]{line}[/]" if style else line, highlight=False, markup=bool(style))
        if not game.state.over:
            out.print(f"[bold]No result after {turns} turns.[/]")
        write_atomic(
            output,
            render_svg(
                game.state,
                last_turn(game.events),
                title=f"dogfight demo, seed {seed}: final table",
            ),
            "--output",
        )
        out.print(f"Final table drawn to [bold]{output}[/]")

"""Typer application: ``dogfight info | adjudicate | schema | render | demo | bench``.

Every error caused by bad input is a :class:`~dogfight.errors.DogfightError`; ``main``
turns it into one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from dogfight.catalog import Catalog
from dogfight.catalog.models import Switches
from dogfight.cli.catalog_option import DataOption, catalog, set_data_folder
from dogfight.errors import DataError, DogfightError, readable
from dogfight.output.files import dumps, write_atomic
from dogfight.rules.events import as_dicts
from dogfight.rules.observation import observe, side_seat, visible_events
from dogfight.situation.format import Situation, read_situation
from dogfight.situation.ruling import judge

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="dogfight: an exact referee for Wings of War / Wings of Glory.",
)
schema_app = typer.Typer(help="Print the JSON Schema of an input format.", no_args_is_help=True)
app.add_typer(schema_app, name="schema")

err = Console(stderr=True)


@app.callback()
def _root(data: DataOption = None) -> None:
    set_data_folder(data)


def emit(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        write_atomic(output, text, "--output")


def catalog_summary(cat: Catalog) -> dict[str, Any]:
    """The catalog and constants as one JSON-ready dictionary."""
    c = cat.constants
    return {
        "data_folders": list(cat.folders),
        "constants": c.model_dump(mode="json"),
        "rulesets": {n: r.model_dump(mode="json") for n, r in sorted(cat.rulesets.items())},
        "switches": Switches.explanations(),
        "airplanes": [
            a.model_dump(mode="json") for a in sorted(cat.airplanes.values(), key=lambda a: a.id)
        ],
        "maneuver_decks": {
            d: {
                "card_length": deck.card_length,
                "card_width": deck.card_width,
                "straight": deck.straight,
                "cards": [
                    card.model_dump(mode="json", exclude_none=True) | {"steep": card.is_steep}
                    for card in deck.cards
                ],
            }
            for d, deck in sorted(cat.maneuver_decks.items())
        },
        "damage_decks": {
            d: {
                "cards": [card.model_dump(mode="json") for card in deck.cards],
                "size": len(deck.composition()),
            }
            for d, deck in sorted(cat.damage_decks.items())
        },
        "specials": {s.value: spec.model_dump(mode="json") for s, spec in cat.specials.items()},
        "scenarios": {
            sid: {
                "title": sc.title,
                "source": sc.source,
                "note": sc.note,
                "ruleset": sc.ruleset,
                "missions": [m.model_dump(mode="json") for m in sc.missions],
            }
            for sid, sc in sorted(cat.scenarios.items())
        },
        "tripods": [
            t.model_dump(mode="json") for t in sorted(cat.tripods.values(), key=lambda t: t.id)
        ],
        "tripod_decks": {
            d: {
                "card_length": deck.card_length,
                "card_width": deck.card_width,
                "cards": [card.model_dump(mode="json") for card in deck.cards],
            }
            for d, deck in sorted(cat.tripod_decks.items())
        },
    }


@app.command()
def info(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ruleset: Annotated[
        str | None,
        typer.Option(help="Only this ruleset's switches, each with its value and what it does."),
    ] = None,
) -> None:
    """The catalog (airplanes, decks, rulesets and their switches) and the constants
    (ruler, bases, arcs)."""
    cat = catalog()
    if ruleset is not None:
        if ruleset not in cat.rulesets:
            raise DataError(
                "--ruleset", "ruleset", ruleset, "rulesets: " + ", ".join(sorted(cat.rulesets))
            )
        if as_json:
            switches = cat.rulesets[ruleset].switches.model_dump(mode="json")
            explained = {
                n: {"value": switches[n], "explanation": text}
                for n, text in Switches.explanations().items()
            }
            sys.stdout.write(dumps({"ruleset": ruleset, "switches": explained}, indent=2) + "\n")
            return
        from dogfight.cli.tables import print_switches

        print_switches(cat, ruleset)
        return
    if as_json:
        sys.stdout.write(dumps(catalog_summary(cat), indent=2, ensure_ascii=False) + "\n")
        return
    from dogfight.cli.tables import print_info

    print_info(cat)


@app.command("adjudicate")
def adjudicate_cmd(
    situation: Annotated[Path, typer.Argument(help="A situation JSON file.")],
    seed: Annotated[int, typer.Option(help="Seed of the damage decks' shuffles.")] = 0,
    phases: Annotated[
        int | None, typer.Option(help="Resolve only this many phases.", min=0)
    ] = None,
    seat: Annotated[
        str | None, typer.Option("--as", help="Show only what this side may see.")
    ] = None,
    output: Annotated[
        str | None, typer.Option("-o", "--output", help="Write the JSON here.")
    ] = None,
) -> None:
    """Resolve a situation's planned phases; print the events and the final state as JSON
    (with ``"move": false``: the ruling on the table as it stands, under ``ruling``)."""
    cat = catalog()
    parsed = read_situation(situation)
    done = judge(parsed, cat, seed, phases, str(situation))
    state, events = done.state, done.events
    viewer = None
    if seat is not None:
        if seat not in state.sides():
            raise DataError("--as", "side", seat, "sides: " + ", ".join(state.sides()))
        viewer = side_seat(state, seat)
    result = {
        "seed": seed,
        "events": as_dicts(visible_events(events, viewer)),
        "state": observe(state, viewer),
    }
    if done.ruling is not None:
        result["ruling"] = done.ruling.as_dict(viewer)
    emit(dumps(result, indent=2, ensure_ascii=False) + "\n", output)


@schema_app.command("situation")
def schema_situation() -> None:
    """The JSON Schema of situation files (``dogfight adjudicate``)."""
    sys.stdout.write(json.dumps(Situation.model_json_schema(), indent=2) + "\n")


def main() -> None:
    """Entry point: run the app; bad input is one message and exit status 2."""
    try:
        app()
    except DogfightError as exc:
        err.print(
            f"[bold red]error:[/] {escape(readable(str(exc)))}", highlight=False, soft_wrap=True
        )
        sys.exit(2)


def _register_commands() -> None:
    from dogfight.cli import bench, demo

    demo.register(app)
    bench.register(app)


_register_commands()

from dogfight.cli.render_cmd import register as _register_render  # noqa: E402

_register_render(app)

from dogfight.cli.sopwith import app as _sopwith_app  # noqa: E402

app.add_typer(_sopwith_app, name="sopwith")

from dogfight.cli.campaign import app as _campaign_app  # noqa: E402

app.add_typer(_campaign_app, name="campaign")

from dogfight.cli.web import register as _register_web  # noqa: E402

_register_web(app)

from dogfight.cli.simulate import register as _register_simulate  # noqa: E402

_register_simulate(app)

from dogfight.cli.doctor import register as _register_doctor  # noqa: E402

_register_doctor(app)

from dogfight.cli.db import app as _db_app  # noqa: E402

app.add_typer(_db_app, name="db")

from dogfight.cli.backup import register as _register_backup  # noqa: E402

_register_backup(app)

from dogfight.cli.train import register as _register_train  # noqa: E402

_register_train(app)

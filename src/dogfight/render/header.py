"""The header above the table: title, legend and the caption of how it stands."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from dogfight.render.context import _Context, _View
from dogfight.render.labels import _text
from dogfight.render.legend import _Key, _legend
from dogfight.render.markup import _cm
from dogfight.render.rockets import _plural
from dogfight.render.style import CAPTION_ROW, GRID, TEXT_SIZE, TITLE_SIZE
from dogfight.rules.events import Event
from dogfight.rules.state import GameState
from dogfight.words.narration import ending


def _caption(state: GameState) -> tuple[str, str]:
    """Two lines: the rules and measures in force, and where the game stands."""
    rules = state.rules
    first = (
        f"{rules.ruleset.title} [{rules.ruleset.name}] · table {_cm(rules.table_width)} x "
        f"{_cm(rules.table_height)} cm, grid {_cm(GRID)} cm · ruler {_cm(rules.ruler)} cm, "
        f"half mark {_cm(rules.half)} cm"
    )
    if state.phase == 0:
        second = f"turn {state.turn}, planning"
    else:
        second = f"turn {state.turn}, after phase {state.phase}"
    if state.over:
        second += " · game over: " + (
            ending(state.result)["heading"]
            if state.result is not None
            else (f"{state.winner} won" if state.winner else "draw")
        )
    return first, second


def _caption_more(state: GameState, events: Sequence[Event], width: float) -> list[str]:
    """Caption lines beyond the first two, wrapped to ``width`` cm: how a scenario was
    won, the reinforcements still to come, the rockets still in flight. None at all for
    a drawing that has none of these."""
    items: list[str] = []
    if state.result is not None and state.scenario is not None:  # the one judgement's words
        said = ending(state.result)
        items.append(f"{said['heading']}: {said['reason']}")
    for tid, card in sorted(state.targets.items()):
        items.append(
            f"{card.mission} mission {tid} of the {card.side} side: "
            + (f"accomplished by {card.done_by} (+{card.points})" if card.done_by else "not yet")
        )
    if state.reserves:
        items.append(
            "reserves not yet entered: "
            + ", ".join(f"{v.id} ({v.side}, {v.type})" for _, v in sorted(state.reserves.items()))
        )
    if state.salvos:
        items.append(
            "rockets in flight: "
            + ", ".join(
                f"{s.firer} → {s.target} ({_plural(s.count, 'rocket')})" for s in state.salvos
            )
        )
    chars = max(20, int(width / (0.62 * TEXT_SIZE)))
    return [line for item in items for line in textwrap.wrap(item, chars)]


def _header(
    ctx: _Context,
    view: _View,
    title: str,
    rows: Sequence[Sequence[_Key]],
    more: Sequence[str] = (),
) -> list[str]:
    """Title, caption (two lines and ``more``) and legend above the table."""
    f = ctx.frame
    top = view.top
    first, second = _caption(ctx.state)
    extra = [
        _text(f, (0.0, top - 6.6 - CAPTION_ROW * (k + 1)), line, TEXT_SIZE, "start", "caption")
        for k, line in enumerate(more)
    ]
    return [
        _text(f, (0.0, top - 2.4), title, TITLE_SIZE, "start", "title"),
        _text(f, (0.0, top - 4.9), first, TEXT_SIZE, "start", "caption"),
        _text(f, (0.0, top - 6.6), second, TEXT_SIZE, "start", "caption"),
        *extra,
        *_legend(f, rows, top - 8.6 - CAPTION_ROW * len(more)),
    ]

"""The Games Master's reports, in plain text for e-mail: each player's result in 004's
notation, the published report (everybody's moves, what happened, standings, the Ace
list, the clouds) and a text map of the board.

004's notation: "An asterisk in front of your fire (i.e. A -*fire A) means you have
made a hit that move. A bracketed 'Move' (i.e. [A] - fire 0) means you have been hit
that move." A move is written ``A - fire L+R``, with ``fire 0`` for no fire.

Everything here is a pure function of the states and events: the same turn gives the
same text, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dogfight.sopwith import events as ev
from dogfight.sopwith.game import GameState, Plane, Status, airfield_at
from dogfight.sopwith.hexes import (
    FACING_NAMES,
    Hex,
    board_hexes,
    facing_name,
    label,
    offset_row,
    on_board,
)

RULE = "=" * 76


# --- 004 notation -----------------------------------------------------------------------


def notation(events: Sequence[ev.Event], turn: int) -> dict[str, list[str]]:
    """Each plane's turn in 004's notation: a ``Turn N:`` heading and its three
    ``Move 1: A - *fire A`` lines (events of one turn).

    The manoeuvre is the one flown (after NMR and corrections); the fire is the bursts
    actually fired; ``*`` if one of them hit, ``[..]`` if the plane was hit that move. A
    move not flown (the plane went out, or had landed) is ``-``; a plane that never left
    the ground has its heading alone. The heading carries 004's airstrip for a take-off
    ("Turn 1: ALPHA/BETA/GAMMA airstrip") and says NMR when no orders came.
    """
    heading: dict[str, str] = {}
    flown: dict[str, dict[int, str]] = {}
    fired: dict[tuple[str, int], list[str]] = {}
    made_hit: set[tuple[str, int]] = set()
    was_hit: set[tuple[str, int]] = set()
    for e in events:
        if isinstance(e, ev.TookOff):
            heading[e.plane] = f"Turn {turn}: {e.strip.value} airstrip (take-off from {e.airfield})"
        elif isinstance(e, ev.OrdersMissing):
            heading[e.plane] = f"Turn {turn}: NMR" + ("" if e.flying else " (on the ground)")
        elif isinstance(e, ev.Moved):
            flown.setdefault(e.plane, {})[e.move] = e.manoeuvre.value
        elif isinstance(e, ev.Fired):
            fired.setdefault((e.plane, e.move), []).append(e.line.value)
            if e.hits:
                made_hit.add((e.plane, e.move))
            for h in e.hits:
                was_hit.add((h.target, e.move))
    out: dict[str, list[str]] = {}
    for plane in {*heading, *flown}:
        lines = [heading.get(plane, f"Turn {turn}:")]
        moves = flown.get(plane, {})
        for move in (1, 2, 3) if moves else ():
            key = (plane, move)
            if move not in moves:
                lines.append(f"Move {move}: -")
                continue
            head = f"[{moves[move]}]" if key in was_hit else moves[move]
            fire = "+".join(fired.get(key, [])) or "0"
            star = "*" if key in made_hit else ""
            lines.append(f"Move {move}: {head} - {star}fire {fire}")
        out[plane] = lines
    return out


def plane_notation(notes: dict[str, list[str]], turn: int, plane: str) -> list[str]:
    """One plane's lines of :func:`notation` (a plane with no event: the bare heading)."""
    return notes.get(plane, [f"Turn {turn}:"])


# --- words ------------------------------------------------------------------------------


def _names(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe(e: ev.Event, side: int) -> str | None:
    """One event in words (None for the ones the notation already says: moves)."""
    if isinstance(e, ev.TookOff):
        how = "" if e.declared else " (no airstrip written: 004's default)"
        return f"{e.plane} takes off from airfield {e.airfield} along {e.strip.value}{how}"
    if isinstance(e, ev.OrdersMissing):
        if e.flying:
            return f"{e.plane}: no orders received (NMR): flies Ahead for the three moves"
        return f"{e.plane}: no orders received: stays on the ground"
    if isinstance(e, ev.ManoeuvreChanged):
        return f"{e.plane}, move {e.move}: {e.written.value} flown as {e.flown.value} ({e.reason})"
    if isinstance(e, ev.Crashed):
        where = "" if not on_board(e.hex, side) else f" at {label(e.hex, side)}"
        return f"{e.plane} {e.reason}{where} and crashes ({e.strength} damage points left)"
    if isinstance(e, ev.CloudDamage):
        return f"{e.plane} takes {e.damage} damage inside a cloud ({e.strength} left)"
    if isinstance(e, ev.PointsShared):
        return (
            f"{e.crashed}'s {e.points} damage points are shared among the "
            f"{len(e.players)} players still in the game: {e.each} each"
        )
    if isinstance(e, ev.Landed):
        reload = ", reloads" if e.reloaded else ""
        return f"{e.plane} lands on {e.strip.value} at airfield {e.airfield}{reload}"
    if isinstance(e, ev.LandingRefused):
        return f"{e.plane}: no landing ({e.reason})"
    if isinstance(e, ev.Fired):
        if e.hits:
            what = _names(f"{h.target} at {h.distance} ({h.damage} damage)" for h in e.hits)
            text = f"{e.plane} fires {e.line.value}: hits {what}"
        else:
            text = f"{e.plane} fires {e.line.value}: no hit"
        if e.blocked is not None:
            text += f" (cloud at {label(e.blocked, side)})"
        return text
    if isinstance(e, ev.BurstNotFired):
        line = e.line.value if e.line is not None else "FIRE"
        return f"{e.plane}: burst {line} not fired ({e.reason})"
    if isinstance(e, ev.ShotDown):
        if not e.by:
            return f"{e.plane} is destroyed by the cloud"
        return f"{e.plane} is shot down by {_names(e.by)}"
    if isinstance(e, ev.Repaired):
        return f"{e.plane} repairs {e.points} damage points on the ground (now {e.strength})"
    if isinstance(e, ev.AceGained):
        return f"{e.plane} becomes an Ace ({e.score} points)"
    if isinstance(e, ev.AceLost):
        return f"{e.plane} loses Ace status ({e.score} points)"
    if isinstance(e, ev.CloudMoved):
        hexes = " ".join(label(h, side) for h in e.hexes)
        if e.direction is None:
            return f"cloud {e.cloud} stays at {hexes}"
        return f"cloud {e.cloud} moves {facing_name(e.direction)} to {hexes}"
    if isinstance(e, ev.GameOver):
        if e.winner is None:
            return "no plane is left flying: the game ends without a winner"
        return f"{e.winner} is the last surviving plane and wins (+{e.bonus} points)"
    return None


def _move_of(e: ev.Event) -> int:
    move = getattr(e, "move", 0)
    return move if isinstance(move, int) else 0


def event_lines(events: Sequence[ev.Event], side: int, only: str | None = None) -> list[str]:
    """What happened, grouped under ``Before the moves``, ``Move 1``... ``End of turn``.
    ``only``: the events that concern one plane."""
    groups: dict[str, list[str]] = {}
    for e in events:
        if only is not None and not _concerns(e, only):
            continue
        text = describe(e, side)
        if text is None:
            continue
        move = _move_of(e)
        if isinstance(e, ev.ManoeuvreChanged | ev.TookOff | ev.OrdersMissing):
            key = "Before the moves"
        else:
            key = f"Move {move}" if move else "End of turn"
        groups.setdefault(key, []).append(text)
    out: list[str] = []
    for key in ("Before the moves", "Move 1", "Move 2", "Move 3", "End of turn"):
        if key in groups:
            out.append(f"{key}:")
            out.extend(f"  {t}" for t in groups[key])
    return out


def _concerns(e: ev.Event, plane: str) -> bool:
    if isinstance(e, ev.Fired):
        return e.plane == plane or any(h.target == plane for h in e.hits)
    if isinstance(e, ev.PointsShared):
        return e.crashed == plane or plane in e.players
    if isinstance(e, ev.ShotDown):
        return e.plane == plane or plane in e.by
    if isinstance(e, ev.GameOver):
        return True
    return getattr(e, "plane", None) == plane


# --- tables ------------------------------------------------------------------------------


def who(p: Plane) -> str:
    return f"{p.name} ({p.pilot})" if p.pilot else p.name


def where(p: Plane, state: GameState) -> str:
    """Where a plane is, in words: hex and facing, airfield, or out."""
    if p.status is Status.GROUND:
        return f"on the ground at airfield {airfield_at(state.board, p)}"
    if p.status is Status.FLYING:
        return f"{label(p.hex, state.ruleset.board_side)} facing {facing_name(p.facing)}"
    return p.status.value


def standings(state: GameState) -> list[str]:
    """Every plane, best score first: where it is, damage points, ammunition, score."""
    rows = sorted(state.planes, key=lambda p: (-p.score, p.name.casefold()))
    width = max(len(who(p)) for p in rows)
    out = [
        f"  {'':1} {'plane':<{width}}  {'score':>5}  {'dge':>3}  {'ammo':>4}  ace  where",
    ]
    for p in rows:
        out.append(
            f"  {p.letter} {who(p):<{width}}  {p.score:>5}  {p.strength:>3}  {p.ammo:>4}  "
            f"{'yes' if p.ace else '   '}  {where(p, state)}"
        )
    return out


def ace_lines(aces: Sequence[tuple[str, int]], threshold: int) -> list[str]:
    """004: "When an ace starts in a new game, the fact that he is an ace will be
    published for the benefit of new players"."""
    if not aces:
        return [f"  none yet ({threshold} points make an Ace)"]
    return [f"  {name} ({score} points)" for name, score in aces]


def game_aces(state: GameState) -> list[tuple[str, int]]:
    return [(who(p), p.score) for p in sorted(state.planes, key=lambda p: -p.score) if p.ace]


def cloud_lines(state: GameState) -> list[str]:
    side = state.ruleset.board_side
    if not state.clouds:
        return ["  none"]
    return [
        f"  cloud {c.number}: " + " ".join(label(h, side) for h in c.hexes) for c in state.clouds
    ]


# --- the text map ------------------------------------------------------------------------

STRIP_MARK = {"ALPHA": "=A=", "BETA": "=B=", "GAMMA": "=G="}


def ascii_map(state: GameState) -> str:
    """The board as text for e-mail: each hex shows its label, a plane (its letter and
    facing: ``Bne`` is plane B facing NE), a cloud ``~~~``, an airfield ``@S`` or an
    airstrip ``=A=``/``=B=``/``=G=``. Odd columns sit half a line lower, as on the board.
    """
    side = state.ruleset.board_side
    n = side - 1
    cells: dict[Hex, str] = {}
    for name, field in state.board.airfields.items():
        cells[field.corner] = f"@{name}"
        for strip in field.strips:
            for h in strip.hexes:
                cells[h] = STRIP_MARK[strip.strip.value]
    for cloud in state.clouds:
        for h in cloud.hexes:
            cells[h] = "~~~"
    here: dict[Hex, list[Plane]] = {}
    for p in state.planes:
        if p.flying:
            here.setdefault(p.hex, []).append(p)
    for h, planes in here.items():
        if len(planes) == 1:
            cells[h] = planes[0].letter + FACING_NAMES[planes[0].facing].lower()
        else:
            letters = "".join(p.letter for p in planes)
            cells[h] = letters if len(letters) <= 3 else letters[:2] + "+"
    rows: dict[int, dict[int, str]] = {}
    for h in board_hexes(side):
        y = 2 * (offset_row(h) + n) + (h.q & 1)
        text = cells.get(h, label(h, side))
        rows.setdefault(y, {})[h.q + n] = f"{text:>3}"
    width = 4 * (2 * n + 1)
    header = [" "] * width
    for c in range(2 * n + 1):
        header[4 * c + 2] = chr(ord("A") + c)
    out = ["".join(header).rstrip()]
    for y in sorted(rows):
        line = [" "] * width
        for c, text in rows[y].items():
            line[4 * c : 4 * c + 3] = list(text)
        out.append("".join(line).rstrip())
    return "\n".join(out) + "\n"


def map_legend(state: GameState) -> list[str]:
    out = [f"  {p.letter} = {who(p)}: {where(p, state)}" for p in state.planes]
    out.append("  @ airfield (corner), =A= =B= =G= its ALPHA, BETA, GAMMA airstrips, ~~~ cloud")
    return out


# --- whole reports -------------------------------------------------------------------------


def _title(game: str, what: str) -> list[str]:
    return [RULE, f"SOPWITH  {game}  {what}", RULE]


def published_report(
    game: str, before: GameState, after: GameState, events: Sequence[ev.Event]
) -> str:
    """The report every player gets for one turn."""
    side = after.ruleset.board_side
    turn = before.turn
    out = _title(game, f"report of turn {turn}")
    out.append(f"Rules: {after.ruleset.title} [{after.ruleset.name}]")
    out.append("")
    out.append("ORDERS AS FLOWN  (* a burst that hit, [ ] hit that move)")
    notes = notation(events, turn)
    for p in before.planes:
        if not p.in_game:
            continue
        out.append(f"{p.letter} {who(after.plane(p.name))}")
        out.extend(f"  {line}" for line in plane_notation(notes, turn, p.name))
    out.append("")
    out.append("WHAT HAPPENED")
    out.extend(event_lines(events, side) or ["  nothing"])
    out.append("")
    out.append(f"STANDINGS AFTER TURN {turn}")
    out.extend(standings(after))
    out.append("")
    out.append("ACES")
    out.extend(ace_lines(game_aces(after), after.ruleset.ace_threshold))
    out.append("")
    if after.over:
        out.append("THE GAME IS OVER")
    else:
        out.append(f"CLOUDS FOR TURN {after.turn}")
        out.extend(cloud_lines(after))
    out.append("")
    out.append(f"MAP AFTER TURN {turn}")
    out.append(ascii_map(after).rstrip("\n"))
    out.extend(map_legend(after))
    if not after.over:
        out.append("")
        out.append(f"Orders for turn {after.turn}, please.")
    return "\n".join(out) + "\n"


def player_result(
    game: str,
    before: GameState,
    after: GameState,
    events: Sequence[ev.Event],
    name: str,
    published: str | None = None,
    notes: dict[str, list[str]] | None = None,
) -> str:
    """One player's result: his turn in 004's notation, what happened to him, where his
    plane is now; the published report (``published``, made here if not given) follows.
    ``notes``: :func:`notation` of ``events``, when the caller writes every player's."""
    side = after.ruleset.board_side
    turn = before.turn
    p = after.plane(name)
    out = _title(game, f"turn {turn}: result for {who(p)}")
    out.extend(plane_notation(notation(events, turn) if notes is None else notes, turn, name))
    out.append("")
    out.extend(event_lines(events, side, only=name) or ["Nothing happened to you."])
    out.append("")
    out.append(
        f"Now: {where(p, after)}; damage points {p.strength}, ammo {p.ammo}, "
        f"score {p.score}{', Ace' if p.ace else ''}."
    )
    out.append("")
    if published is None:
        published = published_report(game, before, after, events)
    return "\n".join(out) + "\n" + published


def start_sheet(game: str, state: GameState, aces: Sequence[tuple[str, int]]) -> str:
    """The sheet sent at the start of a game: planes and their airfields, the clouds (004:
    "players will be notified of their position at the start of the game"), the Ace list,
    the rules in force and the map."""
    r = state.ruleset
    out = _title(game, "a new game")
    out.append(f"Rules: {r.title} [{r.name}]")
    out.append(
        f"Board: {r.board_side} hexes a side ({len(state.board.hexes)} hexes); "
        f"ammo {r.ammo}, damage points {r.damage_capacity}, {r.bursts_per_turn} bursts a "
        f"turn, range {r.range}"
    )
    out.append("")
    out.append("PLANES")
    for p in state.planes:
        home = state.board.airfield(p.airfield)
        strips = ", ".join(
            f"{s.strip.value} {'+'.join(label(h, r.board_side) for h in s.hexes)}"
            for s in home.strips
        )
        out.append(f"  {p.letter} {who(p)}: airfield {p.airfield} ({strips})")
    out.append("")
    out.append("ACES")
    out.extend(ace_lines(aces, r.ace_threshold))
    out.append("")
    out.append("CLOUDS FOR TURN 1")
    out.extend(cloud_lines(state))
    out.append("")
    out.append("MAP")
    out.append(ascii_map(state).rstrip("\n"))
    out.extend(map_legend(state))
    out.append("")
    out.append("Orders for turn 1, please (e.g. 'Turn 1: BETA airstrip / Move 1: A / ...').")
    return "\n".join(out) + "\n"

"""Events in words, for logs a player can read."""

from __future__ import annotations

from collections.abc import Collection

from dogfight.catalog.loader import Catalog
from dogfight.catalog.models import Special
from dogfight.rules import events as ev
from dogfight.words.terms import (
    cause_words,
    damage_card_words,
    out_words,
    plural,
    side_name,
    side_wins,
)


def _face(catalog: Catalog | None, deck: str, card: str, acting: Collection[Special] | None) -> str:
    """A drawn damage card's face (with ``acting``, only the icons that take effect), or
    its id where the catalog is not at hand."""
    found = catalog.damage_decks.get(deck) if catalog is not None else None
    for c in found.cards if found is not None else ():
        if c.id == card:
            return damage_card_words(c, acting)
    return card


def ending(over: ev.GameOver) -> dict[str, str]:
    """The words of a game's end, from its one judgement (:class:`GameOver`): the
    ``heading`` ("martians win", "earth win: a strategic victory", "A draw"), the
    ``reason`` (why, in words), the ``scores`` ("" where no match points apply) and the log
    ``line`` made of them. The browser's result, the terminal, the log and ``render`` all
    say these words."""
    if over.winner is None:
        heading = "A draw"
    elif over.level:
        heading = f"{side_wins(over.winner)}: a {over.level} victory"
    else:
        heading = side_wins(over.winner)
    reason = over.reason[:1].upper() + over.reason[1:] if over.reason else ""
    scores = ", ".join(f"{s} {p:+d}" for s, p in sorted(over.scores.items()))
    line = f"Game over: {heading}."
    if reason:
        line += f" {reason.rstrip('.')}."
    if scores:
        line += f" Match points: {scores}."
    return {"heading": heading, "reason": reason, "scores": scores, "line": line}


def why_words(event: ev.PlanExplained) -> tuple[str, list[str]]:
    """Why a computer player chose a plan, in words: the heading ("Why allied flew 1, 2,
    3 (hard bot, turn 2)") and a line per plan it weighed, best first ("1, 2, 3: value
    4.21"). The browser shows the lines under the heading (a collapsed detail), the log
    and the terminal say them after it."""
    chosen = ", ".join(event.plans[0][0]) if event.plans else "no plan"
    heading = f"Why {event.vehicle} flew {chosen} ({event.bot} bot, turn {event.turn})"
    lines = [f"{', '.join(cards)}: value {value:.2f}" for cards, value in event.plans]
    return heading, lines


def describe(
    event: ev.Event,
    catalog: Catalog | None = None,
    acting: Collection[Special] | None = None,
) -> str:
    """One line of English for an event; with the game's ``catalog``, damage cards are
    named by their faces ("3 and smoke"), not by their ids; with ``acting``
    (:func:`dogfight.rules.standard.acting` of the game), a face tells only the icons
    that take effect ("3", not "3 and fire", where special damage is off).

    The cases are tried in turn (each an ``isinstance``): the events of every turn of a
    dogfight come first, the rarer after (each event class is a case of its own, so the
    order says nothing else; a class's several cases keep theirs)."""
    match event:
        case ev.Revealed(vehicle=v, card=card, symbol=symbol, steep=steep):
            extra = ", steep" if steep and symbol not in ("steep", "stall") else ""
            return f"{v} reveals card {card} ({symbol}{extra})."
        case ev.Moved(vehicle=v, card=card, end=end):
            return (
                f"{v} flies card {card} to ({end.x:.1f}, {end.y:.1f}) "
                f"heading {end.heading:.0f} deg."
            )
        case ev.PhaseStarted(turn=turn, phase=phase):
            return f"Turn {turn}, phase {phase}."
        case ev.TurnStarted(turn=turn):
            return f"Turn {turn}: plans are down."
        case ev.Fired(firer=f, weapon=w, target=t, range=r, distance=d, cards=n, aimed=aimed):
            aim = ", aimed +1" if aimed else ""
            at = f"{d:.1f} cm" if d >= 0.05 else "the bases touching"
            return f"{f} fires {w} guns at {t}: {r} range ({at}), {plural(n, 'card')}{aim}."
        case ev.DamageDrawn(vehicle=v, deck=deck, cards=cards, points=points, total=total):
            faces = ", ".join(_face(catalog, deck, card, acting) for card in cards)
            return (
                f"{v} draws {plural(len(cards), 'damage card')} from deck {deck} ({faces}): "
                f"{plural(points, 'point')}, {total} in all (secret)."
            )
        case ev.Reminder(vehicle=v, counter=counter):
            return f"{v} takes a {counter} reminder counter."
        case ev.IllegalManeuver(vehicle=v, card=card, rule=rule, outcome=outcome):
            return f"{v}'s card {card} is illegal ({rule.replace('_', ' ')}): {outcome}."
        case ev.HeldFire(firer=f, weapon=w, reason=reason):
            return f"{f} {w} guns: {reason}."
        case ev.LeftArea(vehicle=v):
            return f"{v} leaves the playing area."
        case ev.Eliminated(vehicle=v, reason=reason, by=by, means=str(means), deck=deck):
            # R33: what brought it down is public, the card only where everyone saw it
            card = event.card
            told = (
                f"damage card {deck}, secret"
                if card is None or deck is None
                else f"damage card {deck}: {_face(catalog, deck, card, acting)}"
            )
            cause = cause_words(by, means)
            if by is None:
                cause = cause[:1].upper() + cause[1:]
            return f"{cause} brought {v} down ({told}): {out_words(reason)}."
        case ev.Eliminated(vehicle=v, reason=reason):
            return f"{v} is out of the game: {out_words(reason)}."
        case ev.GameOver():
            return ending(event)["line"]
        case ev.DeckReshuffled(deck=deck, reason=reason):
            return f"Damage deck {deck} is reshuffled ({reason})."
        case ev.EarthlingTurnStarted(earthling_turn=n):
            return f"Earthling turn {n}: the WW2 airplanes' cards and speed markers are down."
        case ev.SpeedRevealed(vehicle=v, speed=speed):
            return f"{v} flies at speed {speed}."
        case ev.ObjectiveReached(objective=o, vehicle=v):
            return f"{v} reaches objective {o}."
        case ev.JamCounterDiscarded(vehicle=v, weapon=w, left=left):
            return f"{v}'s {w} guns are jammed this phase ({plural(left, 'counter')} left)."
        case ev.DamageCardsTaken(vehicle=v, deck=deck, count=count):
            return f"{v} takes {plural(count, f'{deck} damage card')}."
        case ev.Jammed(firer=f, weapon=w, card=card):
            return f"Card {card} is shown: {f}'s {w} guns jam."
        case ev.Explosion(vehicle=v, card=card, eliminates=outright):
            if outright:
                return f"{v} draws an explosion ({card})!"
            return f"{v} draws an explosion ({card}): half its damage allowance (secret)."
        case ev.RearGunLost(firer=f, weapon=w):
            return f"{f} {w} guns: observer incapacitated (002, secret)."
        case ev.MissionAccomplished(
            mission=m, mission_kind=kind, vehicle=v, side=side, points=points
        ):
            what = "bombs" if kind == "bombing" else "photographs"
            return f"{v} {what} target {m}: mission accomplished, +{points} to {side}."
        case ev.HomeAfterMission(vehicle=v, edge=edge):
            return (
                f"{v} goes home across its own {edge} edge after the mission: "
                "no point for the enemy."
            )
        case ev.ActionChosen(vehicle=v, token=token, detail=detail):
            more = f" ({detail})" if detail else ""
            return f"{v} places a {token.replace('_', ' ')} token{more}."
        case ev.ActionTokenPlaced(vehicle=v, action=action, face_down=down):
            if down:
                what = f": {action}" if action else ""
                return f"{v} chooses its action card and places it face down{what}."
            if action == "none":
                return f"{v} chooses no action token."
            return f"{v} chooses its action token, face up: {action}."
        case ev.ActionWasted(vehicle=v, token=token, reason=reason, energy_lost=lost):
            cost = f", losing {lost} Energy" if lost else ""
            return f"{v}'s {token.replace('_', ' ')} token has no effect: {reason}{cost}."
        case ev.EnergyChanged(vehicle=v, energy=energy, change=change, reason=reason):
            verb = "gains" if change > 0 else "spends"
            return f"{v} {verb} {abs(change)} Energy ({reason}): {energy} left."
        case ev.Toppled(vehicle=v, reason=reason):
            return f"{v} topples: {reason}."
        case ev.ToppledTokens(vehicle=v, tokens=tokens):
            return (
                f"{v} stands up again." if tokens == 0 else f"{v} lies down ({tokens} token left)."
            )
        case ev.PutBack(vehicle=v, card=card, value=value, toppled=toppled):
            fall = "and topples" if toppled else "and stays up"
            return f"{v} overlaps a tripod: put back, draws {card} ({value}) {fall}."
        case ev.FacingChanged(vehicle=v, sides=sides):
            return (
                f"{v} turns {plural(abs(sides), 'side')} to the {'left' if sides > 0 else 'right'}."
            )
        case ev.HeatRay(firer=f, projector=p, target=None, reason=reason):
            why = f": {reason}" if reason else ""
            return f"{f} fires its {p} heat-ray projector and reaches nothing{why}."
        case ev.HeatRay(firer=f, projector=p, target=t, range=r, distance=d, protected=shield):
            armour = ""
            if shield is not None:
                armour = ", across its armour" if shield else ", across a bare side"
            at = f"{d:.1f} cm" if d and d >= 0.05 else "the bases touching"
            return f"{f} fires its {p} heat-ray at {t}: {r} range ({at}){armour}."
        case ev.ActionCardRevealed(
            vehicle=v, token=token, detail=detail, initiative=init, order=order, drawn=drawn
        ):
            tie = ", the draw decided the order" if drawn else ""
            card = "no action card" if token == "none" else f"a {token.replace('_', ' ')} card"
            more = f" ({detail})" if detail and token != "none" else ""
            return f"#{order}: {v} (initiative {init}{tie}) shows {card}{more}."
        case ev.BombsDropped(bomber=b, loads=n, left=left):
            return f"{b} drops {plural(n, 'load')} of bombs ({left} left)."
        case ev.BombCardPlaced(bomber=b, loads=n, dot=dot, covered=covered):
            under = ", ".join([*(f"{t} (dot)" for t in dot), *covered]) or "no tripod"
            return f"{b}'s bomb card ({plural(n, 'load')}) falls over {under}."
        case ev.BombsShot(bombs=bombs, firer=f, points=points, destroyed=destroyed, fragments=fr):
            if not destroyed:
                return f"{f}'s heat-ray hits {bombs} for {points}: not enough, they still fall."
            frag = "; fragments hit the bomber" if fr else ""
            return f"{f}'s heat-ray blows up {bombs} in the air{frag}."
        case ev.BombsLanded(bomber=b, target=None):
            return f"{b}'s bombs miss."
        case ev.BombsLanded(bomber=b, target=t, how=how, cards=n):
            where = "the dot covers" if how == "dot" else "the card covers"
            return f"{b}'s bombs land: {where} {t}, {plural(n, 'C card')}."
        case ev.BomberPicked(bomber=b, target=t, drawn=drawn, assigned=assigned):
            return (
                f"{b} draws {', '.join(drawn)} and assigns {', '.join(assigned)} to {t} (secret)."
            )
        case ev.CardRevealed(vehicle=v, card=card, value=value):
            return f"{v} reveals damage card {card} ({value})."
        case ev.ProtectedHit(vehicle=v, firer=f, cards=cards, energy_lost=lost):
            return (
                f"{f}'s shot hits {v}'s electrified armour: cards {', '.join(cards)} revealed, "
                f"{lost} Energy lost, no damage."
            )
        case ev.Recharged(vehicle=v, gained=gained, energy=energy, objective=objective):
            where = f" from objective {objective}" if objective else ""
            return f"{v} recharges {gained} Energy{where}: {energy}."
        case ev.ObjectiveDestroyed(vehicle=v, objective=o):
            return f"{v} destroys objective {o}."
        case ev.SpecialDamage(vehicle=v, special=special, announced=announced):
            how = "announced" if announced else "secret"
            return f"{v} suffers special damage: {special.replace('_', ' ')} ({how})."
        case ev.FlameCounter(vehicle=v, left=left):
            return f"{v} burns: a flame counter discarded ({left} left), an A card drawn."
        case ev.RocketsLaunched(firer=f, target=t, count=n, left=left):
            return f"{f} launches {plural(n, 'rocket')} at {t} ({left} left)."
        case ev.RocketsHit(firer=f, target=t, count=n, instead_of=other):
            instead = f" instead of {other}" if other else ""
            return f"{f}'s rockets hit {t}{instead}: {plural(n, 'D card')}."
        case ev.RocketsMissed(firer=f, target=t, reason=reason):
            return f"{f}'s rockets miss {t}: {reason}."
        case ev.SmokeCloud(firer=f, projector=p, cloud=c, x=x, y=y):
            return f"{f} fires black smoke from its {p} projector: cloud {c} at ({x:.1f}, {y:.1f})."
        case ev.CloudDispersed(cloud=c, vehicle=v):
            return f"{v} flies into black smoke: cloud {c} is dispersed."
        case ev.ScenarioWon(winner=None, condition=condition):
            return f"No victory condition is met, and {condition}."
        case ev.ScenarioWon(winner=str(w), condition=condition):
            name = side_name(w)
            quoted = f"\u201c{condition.rstrip('.')}\u201d"
            return f"{name[:1].upper()}{name[1:]}: victory condition met, {quoted}."
        case ev.Reinforcement(vehicle=v, type=kind, pose=pose):
            return f"{v} ({kind}) enters at ({pose.x:.1f}, {pose.y:.1f})."
        case ev.SkillUsed(vehicle=v, skill=skill, detail=detail):
            return f"{v} uses {skill.replace('_', ' ')}: {detail}."
        case ev.TripodDecision(vehicle=v, branch=branch, card=None, action=None):
            return f"{v} (automated tripod) applies {branch}."
        case ev.TripodDecision(vehicle=v, branch=branch, card=card, action=action):
            plays = f"card {card}" if card is not None else "no card"
            token = f", {action.replace('_', ' ')}" if action else ""
            return f"{v} (automated tripod, {branch}): {plays}{token}."
        case ev.PlanExplained():
            heading, lines = why_words(event)
            return f"{heading}: {'; '.join(lines)}."
        case ev.Tailing(tailer=t, tailed=f, phase=phase):
            when = "at the start of the turn" if phase == 1 else f"before maneuver {phase}"
            return f"{t} is tailing {f} {when}: {f} shows its next card to {t}."
        case ev.TailedCardShown(tailer=t, tailed=f, phase=phase, card=card):
            return f"{f} shows {t} its card for phase {phase}: {card} (secret)."
        case ev.CardsReordered(vehicle=v, phase=phase, cards=cards):
            return f"{v} reorders its cards from phase {phase}: {', '.join(cards)} (secret)."
    return event.kind

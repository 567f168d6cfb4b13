"""A pilot's skill used when the player chooses (000, issue 30 item 4).

000 gives two pilots' skills, each "once every 5 phases": Itchy Trigger Finger ("the pilot
shoots first") and Sniper ("the pilot draws two damage cards, chooses one to give to the
opponent, reshuffles the other one"). "Once every 5 phases" limits how often; it does not
spend the skill at the first chance. So when a skill is ready and would apply in this
firing step (the pilot has a shot: Itchy before the early firing, Sniper before its two
cards are drawn), its seat alone is asked the decision ``skill:<pilot>@turn.phase``:
``use`` (now; the skill then rests for five phases) or ``keep`` (fire as anyone else, the
skill still ready). Unanswered (``adjudicate``, ``simulate``, a PettingZoo agent) it is
``use``, as the skills were always spent before, so no transcript changes.

A pilot with both skills answers one decision for both in a phase (its id names the
pilot, not the skill); the scenarios of 000 give each pilot one.
"""

from __future__ import annotations

from dogfight.catalog.models import Skill
from dogfight.rules import firing
from dogfight.rules.decisions import Asking, Decision
from dogfight.rules.state import GameState, Vehicle

KIND = "skill"
"""The kind of the decision (:attr:`Decision.kind`)."""

USE = "use"
KEEP = "keep"

RULES = {
    Skill.ITCHY_TRIGGER_FINGER: (
        '000: "One pilot has the Itchy Trigger Finger skill (once every 5 phases, the pilot '
        'shoots first)"'
    ),
    Skill.SNIPER: (
        '000: "another pilot has the Sniper skill (once every 5 phases, the pilot draws two '
        'damage cards, chooses one to give to the opponent, reshuffles the other one)."'
    ),
}


def threatened(state: GameState, table: firing.Table, vehicle: Vehicle) -> bool:
    """Whether an enemy airplane's guns reach ``vehicle`` this firing step (what the table
    shows every seat once everything has moved)."""
    for enemy in state.in_play():
        if enemy.side == vehicle.side or enemy.kind != "airplane":
            continue
        for weapon, _ in state.rules.weapons(enemy.type):
            for option in firing.options(state, table, enemy, weapon, protection=False):
                if option.target == vehicle.id:
                    return True
    return False


def decision(
    state: GameState, vehicle: Vehicle, skill: Skill, option: firing.Option, danger: bool
) -> Decision:
    """Use ``skill`` now or keep it, for the shot ``option``: shown (to the pilot's seat
    alone) the skill, the target, the range and whether an enemy's guns reach the pilot."""
    shown = {
        "skill": skill.value,
        "target": option.target,
        "range": "short" if option.short else "long",
        "threatened": danger,
    }
    return Decision.one_of(
        KIND, vehicle.id, (state.turn, state.phase), (USE, KEEP), USE, RULES[skill], shown
    )


def kept(asking: Asking | None, asked: list[Decision]) -> set[str]:
    """The pilots whose seats keep their skill, of those ``asked`` together."""
    answers = {d.id: d.default for d in asked} if asking is None else asking.ask(asked)
    return {d.vehicle for d in asked if answers[d.id][0] == KEEP}


def used(asking: Asking | None, asked: Decision) -> bool:
    """Whether the seat uses the skill (unanswered, or resolved without asking: yes)."""
    answer = asked.default if asking is None else asking.ask([asked])[asked.id]
    return answer[0] == USE

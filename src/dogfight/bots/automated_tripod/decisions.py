"""The Automated Tripod's decisions, each quoting its branch of 001, and the
``tripod_decision`` events they become in a game's log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dogfight.rules.events import Event, TripodDecision
from dogfight.rules.plans import Action


@dataclass(frozen=True, slots=True)
class Decision:
    """One step of the automated tripod's reasoning in one phase: the ``branch`` of 001
    that produced it (a key of :data:`RULES`), the rule quoted (``text``), the card it
    concerns and the action token. The last decision of a phase before movement holds
    the card the tripod plays; a ``firing-*`` decision, made after movement, holds the
    token it finally uses."""

    tripod: str
    phase: int
    branch: str
    text: str
    card: str | None
    action: Action | None
    note: str = ""

    def event(self) -> TripodDecision:
        rule = self.text if not self.note else f"{self.text} ({self.note})"
        return TripodDecision(self.tripod, self.branch, rule, self.card, action_text(self.action))


def action_text(action: Action | None) -> str | None:
    """A token in words: ``heat_ray front-left at p1``, ``recharge from village``..."""
    if action is None:
        return None
    if action.token == "heat_ray":
        return f"heat_ray {action.projector} at {action.target}"
    if action.token == "recharge":
        return "recharge" + (f" from {action.objective}" if action.objective else "")
    if action.token == "change_facing":
        return f"change_facing {action.sides or 0:+d}"
    return action.token


def decision_events(decisions: Iterable[Decision]) -> list[TripodDecision]:
    """The ``tripod_decision`` events for a driver to append to the game's log."""
    return [d.event() for d in decisions]


def with_decisions(events: list[Event], decisions: Sequence[Decision]) -> list[Event]:
    """A phase's events with its decisions put right after its ``phase_started`` event
    (before anything the phase resolves)."""
    extra: list[Event] = list(decision_events(decisions))
    if not extra:
        return list(events)
    at = next((i + 1 for i, e in enumerate(events) if e.kind == "phase_started"), 0)
    return [*events[:at], *extra, *events[at:]]

"""A seat's plans as JSON text, written without pydantic's dump where it can be.

A plan that gives only its cards (an airplane's, as a person plans it: every other
field holds its default) is written as its cards' text between the text of the other
fields' defaults, made once; any other plan is dumped and encoded whole. Pydantic's dump
and the encoder's walk through a plan's defaults cost several times the rest of storing
a person's plan, or of writing a seat's stage. The store and the seats' pages write the
same plans with different encoders (``json.dumps`` for the stored rows, compact JSON for
the pages): :class:`PlansText` is made once for each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dogfight.rules.plans import Plan

_CARDS_ONLY = frozenset({"cards"})

_MARK = "\x00cards\x00"
"""Stands for the cards while the text around them is made (in no card id)."""


class PlansText:
    """``encode({vehicle: plan.model_dump(mode="json")})`` for one encoder: ``encode``
    a value, ``string`` a string as ``encode`` writes it, and the separators it puts
    between items and after keys."""

    def __init__(
        self, encode: Callable[[Any], str], string: Callable[[str], str], comma: str, colon: str
    ) -> None:
        self.encode, self.string, self.comma, self.colon = encode, string, comma, colon
        dumped = Plan(cards=()).model_dump(mode="json")
        dumped["cards"] = _MARK
        before, after = encode(dumped).split(encode(_MARK))
        self.around = before + "[", "]" + after
        """A cards-only plan's text before and after its cards' texts."""

    def __call__(self, plans: Mapping[str, Plan]) -> str:
        string, colon, plan = self.string, self.colon, self.plan
        return (
            "{" + self.comma.join([string(vid) + colon + plan(p) for vid, p in plans.items()]) + "}"
        )

    def plan(self, plan: Plan) -> str:
        """``encode(plan.model_dump(mode="json"))``: one plan's text."""
        if plan.__pydantic_fields_set__ <= _CARDS_ONLY:
            before, after = self.around
            return "".join((before, self.comma.join([self.string(c) for c in plan.cards]), after))
        return self.encode(plan.model_dump(mode="json"))

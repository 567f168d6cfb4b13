"""The branches of 001 ("AUTOMATED TRIPOD RULES") that a decision quotes, and the
tripod's energy statuses.
"""

from __future__ import annotations

from typing import Literal

Status = Literal["full", "cruising", "emergency", "powerless"]


RULES: dict[str, str] = {
    "toppled": (
        '000: "When a tripod topples, discard all cards planned for it" / "When it '
        'discards the last token, it is put standing again": a lying tripod plays no card.'
    ),
    "powerless-1": (
        '001: "If the tripod is overlapping an unused objective template, or if none can be '
        'reached with one maneuver card, the tripod stands still and recharges."'
    ),
    "powerless-2": (
        '001: "If there are no enemies nearby and the tripod is not on an unused objective '
        "template, but one can be reached with one maneuver card from either the current "
        "deck or the reserve deck, move the tripod using the maneuver that brings it onto "
        'the objective template (if there are several options, choose one at random)."'
    ),
    "powerless-3": (
        '001: "If there are enemies nearby and the tripod is not on an unused objective '
        "template, but one can be reached with one maneuver card from either the current "
        "deck or the reserve deck, choose a maneuver as above, shuffle its card with a "
        'standing card, then draw one of the two at random and apply it."'
    ),
    "no-enemies-1": (
        '001: "A cruising tripod that is overlapping an unused objective template and that '
        'is at least 2 energy points below its maximum stands still and recharges."'
    ),
    "no-enemies-2": (
        '001: "A full or cruising tripod that is not facing the Earthling side of the '
        'table, changes facing on the spot to face towards the Earthling side."'
    ),
    "no-enemies-3": (
        '001: "A full or cruising tripod facing the Earthling side moves. To move the '
        'tripod, draw and apply the first card from the current deck."'
    ),
    "draw-off-table": (
        '001: "If the drawn card would bring the tripod outside the playing area, draw '
        "another card from the current deck to replace the first (draw again if the "
        'condition persists)."'
    ),
    "draw-cruising-standing": (
        '001: "If a cruising tripod drew a standing maneuver, the tripod stands still and '
        'recharges."'
    ),
    "draw-full-standing": '001: "If a full tripod drew a standing maneuver, draw another card."',
    "draw-third-running": (
        '001: "If the moving tripod has drawn three maneuvers in a row, replace the third '
        'maneuver with the running card from the reserve."'
    ),
    "draw-steep": (
        '001: "If a steep maneuver is used and another one is drawn in the following '
        'phase, replace the newly drawn maneuver by drawing another card."'
    ),
    "draw-exit-earth": (
        "dogfight (rulings A8): every card left would bring the tripod outside the playing "
        "area; one leaves it across the Earthling side, 001's goal for the invader "
        '("He loses if the tripod exits the playing area from the Earthling side").'
    ),
    "draw-damaged": (
        '000: "The tripod cannot plan the reverse maneuver until the end of the game" / '
        '"it can never plan three movement maneuvers in the same turn" / "it can plan only '
        'stationary maneuvers until the end of the game" -- drawn again (rulings A24).'
    ),
    "draw-exhausted": (
        "dogfight (rulings A12): no card of the current deck may be played, so the tripod "
        "stands still (and recharges)."
    ),
    "emergency-1": (
        '001: "If the Earthling side of the gaming area is within a distance of one '
        "airplane ruler, treat the tripod as if it was full or cruising (see above), with "
        "the exception that if the tripod has drawn three maneuvers in a row the third one "
        'is replaced by a standing maneuver and the tripod recharges instead."'
    ),
    "emergency-2a": (
        '001: "If there are one or more airplanes within a distance of two and a half '
        "airplane rulers, ... treat the tripod as if it was full or cruising, but move or "
        'change facing towards the best available objective" / "a) The objective template '
        "can be reached with one maneuver, or with one maneuver after changing facing or "
        'with a reverse"'
    ),
    "emergency-2b": (
        '001: "move or change facing towards the best available objective" / "b) The '
        "objective template within a distance of one airplane ruler and a half from the "
        'tripod that is closest to the Earthling side of the playing area"'
    ),
    "emergency-2c": (
        '001: "move or change facing towards the best available objective" / "c) The '
        "objective template closest to the tripod among all those that are closer than "
        'the tripod to the Earthling side of the playing area"'
    ),
    "emergency-3": (
        '001: "If none of the above applies, the tripod moves toward the Earthling side of '
        'the playing area."'
    ),
    "emergency-third": (
        '001: "In all cases, if the tripod draws three maneuvers, the third one is replaced '
        'by a standing card and the tripod recharges."'
    ),
    "enemies-reserve": (
        '001: "First, add any maneuvers in the reserve deck to the current deck, with the '
        "exception of the running and reverse cards. Keep them in the current deck as long "
        'as there are enemies nearby."'
    ),
    "ready-a": (
        '001: "a) Maneuver to acquire a target: Take a maneuver card from the current deck '
        "(standing maneuvers included) that allows the tripod to acquire its best target "
        '... (If more than one card allows targeting a vehicle, choose one card randomly)."'
    ),
    "ready-b": (
        '001: "b) Change facing to aim: If no maneuver allows the tripod to acquire a '
        "target, the tripod stands still changes facing until the red part of the automated "
        "tripod template is touched by the tripod ruler placed on its frontal heat-ray. ... "
        "Among the available options, choose the facing that would allow firing with the "
        'ruler in a straight position; if this is not possible, choose randomly."'
    ),
    "cooling-a": (
        '001: "a) Stand still and recharge: If any red part of the automated tripod '
        "template is touched by the tripod ruler placed on one of the tripod's heat-rays "
        "and the tripod is 2 or more energy points below its maximum, the tripod stands "
        'still and recharges."'
    ),
    "cooling-b": (
        '001: "b) Maneuver to aim: If none of the above applies and there are movement '
        "maneuvers that allow the tripod ruler, placed in front of an heat-ray, to touch the "
        "red part of the automated tripod template, randomly draw and execute one maneuver "
        'from among them."'
    ),
    "cooling-c": (
        '001: "c) Change facing to aim: If no movement maneuver allows the tripod to aim at '
        "an airplane, the tripod stands still and changes facing until the red part of an "
        "automated tripod template is touched by the tripod ruler placed on its frontal "
        'heat-ray."'
    ),
    "enemies-fallback": (
        "001: \"If none of the above applies, choose the tripod's behavior as if there were "
        "no enemies nearby, but keep the maneuvers you added from the reserve deck in the "
        'current deck."'
    ),
    "evasive-1": (
        '001: "If it is the first action phase of a turn and the tripod has at least 1 '
        "energy counter, draw at random from among the evasive maneuvers that allow firing; "
        "if there aren't any, draw at random from among all evasive maneuvers.\""
    ),
    "evasive-2": (
        '001: "If it is the first action phase of a turn and the tripod is powerless, draw '
        "at random from among the evasive maneuvers that move the tripod over an unused "
        "objective template; if there aren't any, draw at random among all evasive "
        'maneuvers."'
    ),
    "evasive-3": (
        '001: "If it is not the first action phase of a turn, mix the running card and the '
        "reverse card and choose one at random. If the running card is drawn, follow the "
        "procedure for case 2 above. If the reverse card is drawn, follow the usual "
        'procedure, as if rockets were not shot in the previous phase."'
    ),
    "evasive-4": (
        '001: "If rockets are coming from several airplanes, choose the maneuver that allows '
        "evasion of all of them. If this is not possible, draw at random from among those "
        'maneuvers that will avoid the highest number of rocket volleys."'
    ),
    "firing-fire": (
        '001: "After all vehicles have moved, the tripod fires if it has at least 1 energy '
        "counter, the heat-ray projector is not cooling, and the tripod has acquired a "
        'target." / "1) The target at closest range; 2) The target that can be hit by the '
        'most powerful heat-ray; 3) The target that has already drawn more damage cards."'
    ),
    "firing-recharge": (
        '001: "If the tripod stands still and does not fire for any reason, it recharges."'
    ),
    "firing-none": (
        '001: "the tripod fires if it has at least 1 energy counter, the heat-ray projector '
        'is not cooling, and the tripod has acquired a target."'
    ),
}
"""Every branch a decision may name, with the rule it applies (quoted)."""

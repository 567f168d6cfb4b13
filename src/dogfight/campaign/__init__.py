"""Campaigns: a squadron's war told mission by mission (issue 15).

``spec`` reads and checks a campaign file (sides, squadrons, pilots, the graph of
missions); ``record`` holds what a campaign remembers between games (each pilot's record,
the missions flown) and applies a mission's result to it, purely; ``missions`` turns the
next mission into an ordinary situation and a finished game back into a mission result.
The layers (``cli/campaign.py``, ``server/campaigns.py``, ``sim/campaign.py``) play the
missions and store the campaign.
"""

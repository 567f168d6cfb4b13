"""dogfight: a referee engine for Wings of War / Wings of Glory and their relatives.

The rules core (``dogfight.geometry``, ``dogfight.catalog``, ``dogfight.rules``) is pure:
state + plans + an explicit random generator give a new state and typed events.
The command line (``dogfight.cli``) and the SVG renderer (``dogfight.render``) are layers
around it.
"""

ENGINE_VERSION = 5
"""Bumped whenever the behaviour of the rules core changes (not on refactors)."""

__version__ = "0.1.0"

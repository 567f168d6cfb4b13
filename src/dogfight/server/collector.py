"""Python's cycle collector tuned for a long-running server process.

The server holds every live game in memory (states, steps, events: a few hundred
thousand objects for 500 duels) and allocates many short-lived objects per request. With
the interpreter's default thresholds (700, 10, 10) the collector ran over a thousand times
during ``dogfight bench --server``, its full collections walked every game's objects
again and again, and together they took about half the server's CPU time, with pauses
of up to two seconds in which no game moved.

:func:`tune` freezes what start-up made (modules, the catalog, the application: never
garbage, never walked again) and collects the young generation only every
:data:`THRESHOLDS`\\[0] new container objects (most of a request's objects are freed by
reference counting before then), the older ones rarely. Garbage in reference cycles is
still collected, later.
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 20, 20)
"""Allocations before a young collection; young collections before a middle one; middle
collections before a full one (the interpreter's: 700, 10, 10)."""


def tune() -> None:
    """Collect once, freeze what is alive (start-up's objects) and set the thresholds.
    Called by ``dogfight serve`` once its application is made, not by tests (which make
    many applications in one process)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)

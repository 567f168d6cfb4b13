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

A young collection walks every object made since the last one and still alive (mostly
the games' new states, steps and views): its pause grows with the threshold, and faster
than it (the objects of a large young generation are no longer in the CPU's caches). At
50,000 one took 20-35 ms of CPU time during a burst of 200 duels, a pause every waiting
game sat through; at 10,000 about 2-15 ms, for the same CPU time overall (11 collections
instead of 2). The middle generation is collected every 50 young collections (500,000
objects, half the 1,000,000 of 50,000 x 20: shorter pauses, twice as often).
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 50, 20)
"""Allocations before a young collection; young collections before a middle one; middle
collections before a full one (the interpreter's: 700, 10, 10)."""


def tune() -> None:
    """Collect once, freeze what is alive (start-up's objects) and set the thresholds.
    Called by ``dogfight serve`` once its application is made, not by tests (which make
    many applications in one process)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)

"""The pure rules core: game state, plans, the phase resolver, events and observations.

Nothing here does I/O, reads a clock or uses module-level randomness: every random draw
comes from the ``numpy.random.Generator`` the caller passes in.
"""

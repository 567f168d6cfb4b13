"""``dogfight bench``: speed and memory figures of the engine (a benchmark, not a test)."""

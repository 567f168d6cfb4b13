"""Research interfaces: the game as a multi-agent environment (PettingZoo)."""

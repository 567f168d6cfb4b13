"""Whole games without players: random playouts for the demo, tests and benchmark."""

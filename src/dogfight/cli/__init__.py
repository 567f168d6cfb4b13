"""The ``dogfight`` command line: a thin layer over the rules core."""

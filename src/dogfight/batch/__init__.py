"""The batched simulator: the airplane game of the ``wog``, ``wow`` and ``wow-basic``
rulesets as numpy arrays with a leading batch axis (B tables x N airplanes).

It plays the same game as the referee in :mod:`dogfight.rules` (same catalog, same
definitions of reach, cover, overlaps and damage) many tables at a time; see
``docs/batch.md`` for what it covers and how it is checked against the referee.

- :mod:`~dogfight.batch.spec`: the catalog and switches as arrays;
- :mod:`~dogfight.batch.state`: the batch of tables;
- :mod:`~dogfight.batch.moves`: maneuver cards, flight restrictions, leaving the table;
- :mod:`~dogfight.batch.sight`: overlaps, arcs, whole-base reach, partial cover;
- :mod:`~dogfight.batch.damage`: per-table damage piles, draws and reshuffles;
- :mod:`~dogfight.batch.game`: one action phase for every table, turns and victory;
- :mod:`~dogfight.batch.policies`: random legal plans and the vectorised easy bot;
- :mod:`~dogfight.batch.bridge`: to and from the referee's ``GameState``.
"""

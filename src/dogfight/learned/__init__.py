"""A learned opponent for airplanes: the planning bots' search with a valuation and an
enemy model (how much to expect the enemy to fly as the ``hard`` bot would) found by an
evolution strategy over refereed games (:mod:`~dogfight.learned.train`), shipped as a
small data file (:mod:`~dogfight.learned.weights`); :mod:`~dogfight.learned.policy` turns
the weights into the level the bot plays at. See docs/learned.md."""

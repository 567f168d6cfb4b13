"""A learned opponent for airplanes: hand-built features of every candidate plan
(:mod:`~dogfight.learned.features`), a linear scorer whose weights are trained by an
evolution strategy on the batched engine (:mod:`~dogfight.learned.train`) and shipped as
a small data file (:mod:`~dogfight.learned.weights`), one policy for both engines
(:mod:`~dogfight.learned.policy`). See docs/learned.md."""

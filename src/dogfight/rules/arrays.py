"""The numpy array types the rules' measures and the layers above them (bots, the
batched engine) share: one declaration, so that a ``Floats`` of one module is the
``Floats`` of every other."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

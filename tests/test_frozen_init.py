"""The fast ``__init__`` of frozen dataclasses (:mod:`dogfight.geometry.frozen`) against
the dataclass's own: the same fields stored, the same defaults, still frozen."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dogfight.geometry.heatray
import dogfight.rules.engine
import dogfight.rules.rockets  # noqa: F401
from dogfight.geometry.frozen import PLAIN_INITS, fast_init
from dogfight.geometry.pose import Pose
from dogfight.rules.events import EVENT_TYPES

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.tuples(st.floats(allow_nan=False), st.floats(allow_nan=False)),
)
CLASSES = sorted(PLAIN_INITS, key=lambda c: c.__module__ + "." + c.__qualname__)


def test_every_event_and_pose_has_the_fast_init() -> None:
    assert set(EVENT_TYPES.values()) <= set(PLAIN_INITS)
    assert Pose in PLAIN_INITS
    names = {c.__name__ for c in PLAIN_INITS}
    assert {"Option", "RayOption", "Hit", "Salvo", "Cloud", "BombCard", "RayShot"} <= names


def _plain(cls: type, *args: object, **kwargs: object) -> object:
    made: object = object.__new__(cls)
    PLAIN_INITS[cls](made, *args, **kwargs)
    return made


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
@settings(deadline=None)  # no timing: the machine may be loaded
@given(data=st.data())
def test_fast_init_stores_what_the_dataclass_init_stores(cls: type, data: st.DataObject) -> None:
    fields = dataclasses.fields(cls)
    values = [data.draw(VALUES, label=f.name) for f in fields]
    # the optional fields left out, some of the time: their defaults are taken
    given_count = data.draw(
        st.integers(
            min_value=sum(
                f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
                for f in fields
            ),
            max_value=len(fields),
        ),
        label="positional",
    )
    by_keyword = data.draw(st.booleans(), label="by keyword")
    if by_keyword:
        kwargs = {f.name: v for f, v in zip(fields[:given_count], values, strict=False)}
        fast, plain = cls(**kwargs), _plain(cls, **kwargs)
    else:
        fast, plain = cls(*values[:given_count]), _plain(cls, *values[:given_count])
    for f in fields:
        assert getattr(fast, f.name) is getattr(plain, f.name)
    assert fast == plain
    assert repr(fast) == repr(plain)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(fast, fields[0].name, None)


def test_missing_and_unknown_arguments_are_refused_alike() -> None:
    with pytest.raises(TypeError):
        Pose(1.0, 2.0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Pose(1.0, 2.0, 3.0, 4.0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Pose(1.0, 2.0, heading=3.0, tilt=1.0)  # type: ignore[call-arg]


def test_pickling_and_replace_keep_working() -> None:
    pose = Pose(1.0, 2.5, 90.0)
    assert pickle.loads(pickle.dumps(pose)) == pose
    assert dataclasses.replace(pose, y=3.0) == Pose(1.0, 3.0, 90.0)
    event = EVENT_TYPES["moved"]("p1", "2", pose, Pose(4.0, 5.0, 0.0))  # type: ignore[call-arg]
    assert pickle.loads(pickle.dumps(event)) == event


def test_only_plain_frozen_slotted_dataclasses_are_taken() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(slots=True)
    class NotFrozen:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        a: list[int] = dataclasses.field(default_factory=list)

    for cls in (NoSlots, NotFrozen, Factory):
        with pytest.raises(TypeError):
            fast_init(cls)

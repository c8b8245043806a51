"""The weights-only allowlist (``ember.serialization.add_safe_globals`` & co.) and what a
weights-only load of an ember file's pickle section reconstructs with it."""

from __future__ import annotations

import copyreg
import io
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ember
from ember import serialization as ser


class Point:
    """A plain class: pickled as NEWOBJ (protocol 2+) or copyreg._reconstructor, then BUILD."""

    def __init__(self, x: Any, y: Any) -> None:
        self.x, self.y = x, y


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b


class WithState:
    """BUILD goes through __setstate__, which may rename and check the state."""

    def __init__(self, w: Any) -> None:
        self.w = w

    def __getstate__(self) -> dict[str, Any]:
        return {"weights": self.w}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.w = state["weights"]
        self.restored = True


class Pair:
    """Pickled by REDUCE of the class itself: loading calls Pair(a, b)."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pair, (self.a, self.b))


class Gadget:
    def __init__(self, target: Any, *args: Any) -> None:
        self.target, self.args = target, args

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.target, self.args)


@pytest.fixture(autouse=True)
def empty_allowlist() -> Iterator[None]:
    ser.clear_safe_globals()
    yield
    ser.clear_safe_globals()


def round_trip(obj: Any, **save_kwargs: Any) -> bytes:
    buffer = io.BytesIO()
    ember.save(obj, buffer, **save_kwargs)
    return buffer.getvalue()


def load(raw: bytes, **kwargs: Any) -> Any:
    return ember.load(io.BytesIO(raw), **kwargs)


def test_add_get_clear() -> None:
    assert ser.get_safe_globals() == []
    ser.add_safe_globals([Point, (Slotted, "elsewhere.Slotted")])
    ser.add_safe_globals([Point])  # a set: adding twice keeps one
    assert sorted(map(repr, ser.get_safe_globals())) == sorted(
        [repr(Point), repr((Slotted, "elsewhere.Slotted"))]
    )
    ser.clear_safe_globals()
    assert ser.get_safe_globals() == []


def test_bad_entries_are_typed_errors() -> None:
    with pytest.raises(TypeError, match="add_safe_globals"):
        ser.add_safe_globals(Point)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tuple of length 2"):
        ser.add_safe_globals([(Point, "a", "b")])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="str of callable full path"):
        ser.add_safe_globals([(Point, 3)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="__qualname__"):
        ser.add_safe_globals([3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="safe_globals"):
        ser.safe_globals("Point")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[add_safe_globals\] entries must be hashable"):
        ser.add_safe_globals([([Point], "x.y")])  # type: ignore[list-item]
    assert ser.get_safe_globals() == []


def test_the_context_manager_nests_and_restores_on_exceptions() -> None:
    ser.add_safe_globals([Pair])
    with ser.safe_globals([Point]):
        assert set(ser.get_safe_globals()) == {Pair, Point}
        with ser.safe_globals([Slotted]):
            assert set(ser.get_safe_globals()) == {Pair, Point, Slotted}
        assert set(ser.get_safe_globals()) == {Pair, Point}
        with pytest.raises(KeyError), ser.safe_globals([WithState]):
            raise KeyError("inside")
        assert set(ser.get_safe_globals()) == {Pair, Point}
    assert ser.get_safe_globals() == [Pair]


def test_skip_data_is_not_implemented() -> None:
    with pytest.raises(NotImplementedError, match="skip_data"), ser.skip_data():
        pass


@pytest.mark.parametrize("protocol", [0, 1, 2, 4, 5])
def test_allowlisted_classes_are_rebuilt(protocol: int) -> None:
    w = ember.arange(6.0).reshape(2, 3)
    obj = {"p": Point(w, [1, "two"]), "s": WithState(w[1]), "pair": Pair(3, Point(0.5, None))}
    if protocol >= 2:
        obj["slots"] = Slotted(w, (True,))  # slots without __getstate__ need protocol 2
    raw = round_trip(obj, pickle_protocol=protocol)
    with pytest.raises(pickle.UnpicklingError, match=r"test_safe_globals\.") as info:
        load(raw)
    message = str(info.value)
    assert "weights_only=False" in message and "add_safe_globals" in message
    assert isinstance(info.value, ValueError)
    with ser.safe_globals([Point, Slotted, WithState, Pair]):
        back = load(raw)
    np.testing.assert_array_equal(back["p"].x.numpy(), np.arange(6.0).reshape(2, 3))
    assert back["p"].y == [1, "two"] and type(back["p"]) is Point
    assert back["s"].restored and back["s"].w.tolist() == [3.0, 4.0, 5.0]
    assert back["pair"].a == 3 and back["pair"].b.x == 0.5
    assert back["s"].w._is_view_of(back["p"].x)  # one storage in the pickle, still shared
    if protocol >= 2:
        assert back["slots"].b == (True,) and back["slots"].a._is_view_of(back["p"].x)


def test_only_the_listed_classes_are_allowed() -> None:
    raw = round_trip([Point(Slotted(1, 2), 3)])
    with ser.safe_globals([Point]), pytest.raises(pickle.UnpicklingError, match="Slotted"):
        load(raw)
    with ser.safe_globals([Slotted]), pytest.raises(pickle.UnpicklingError, match="Point"):
        load(raw)


def test_tuple_entries_name_an_object_under_another_name() -> None:
    raw = round_trip([Point(1, 2)])
    with ser.safe_globals([(Point, f"{Point.__module__}.Point")]):
        assert load(raw)[0].x == 1
    with ser.safe_globals([(Point, "other.Point")]), pytest.raises(pickle.UnpicklingError):
        load(raw)


def test_reconstructor_and_newobj_need_an_allowlisted_class() -> None:
    # REDUCEs of copyreg's helpers (protocol 1 keeps __newobj__ a REDUCE), class not allowlisted
    for helper, args in (
        (copyreg._reconstructor, (Point, object, None)),
        (copyreg.__newobj__, (Point,)),  # type: ignore[attr-defined]
    ):
        raw = round_trip([Gadget(helper, *args)], pickle_protocol=1)
        with pytest.raises(pickle.UnpicklingError, match="Point"):
            load(raw)
        with ser.safe_globals([Point]):
            assert type(load(raw)[0]) is Point
    # _reconstructor over another base (it would call base.__init__) is refused
    raw = round_trip([Gadget(copyreg._reconstructor, Point, dict, {})], pickle_protocol=1)
    with ser.safe_globals([Point]), pytest.raises(pickle.UnpicklingError, match=r"builtins\.dict"):
        load(raw)
    with ser.safe_globals([Point, dict]), pytest.raises(pickle.UnpicklingError, match="plain"):
        load(raw)
    # the helpers' first argument must be an allowlisted class, not any allowed object
    raw = round_trip([Gadget(copyreg.__newobj__, ember.float32)], pickle_protocol=1)  # type: ignore[attr-defined]
    with pytest.raises(pickle.UnpicklingError, match="cannot create"):
        load(raw)


def test_gadgets_in_an_ember_pickle_section_run_nothing(tmp_path: Path) -> None:
    import builtins

    marker = tmp_path / "pwned"
    gadgets = [
        Gadget(os.system, f"touch {marker}"),
        Gadget(builtins.eval, f"open({str(marker)!r}, 'w')"),
        Gadget(builtins.getattr, Point, "__init__"),
    ]
    for gadget in gadgets:
        for protocol in (0, 2, 5):
            raw = round_trip({"x": gadget}, pickle_protocol=protocol)
            with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
                load(raw)
            # an allowlisted class does not make other callables callable
            with ser.safe_globals([Point]), pytest.raises(pickle.UnpicklingError):
                load(raw)
    # os, sys, posix and nt stay blocked even when allowlisted, as in torch
    with ser.safe_globals([os.system]), pytest.raises(pickle.UnpicklingError, match="never"):
        load(round_trip([Gadget(os.system, f"touch {marker}")]))
    assert not marker.exists()


def test_state_is_set_only_on_allowlisted_instances() -> None:
    # BUILD on a class object (here: Point itself) would setattr for the whole process
    class Builder:
        def __reduce__(self) -> tuple[Any, ...]:
            return (getattr, (Point, "__class__"), {"x": 1})

    raw = round_trip([Builder()])
    with ser.safe_globals([Point, getattr]), pytest.raises(pickle.UnpicklingError, match="state"):
        load(raw)
    assert not hasattr(type, "x")


def test_weights_only_false_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = round_trip([Point(1, 2)])
    assert load(raw, weights_only=False)[0].y == 2
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    assert load(raw)[0].y == 2
    with pytest.raises(pickle.UnpicklingError):
        load(raw, weights_only=True)
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "true")
    with pytest.raises(pickle.UnpicklingError):
        load(raw, weights_only=False)
    with ser.safe_globals([Point]):
        assert load(raw, weights_only=False)[0].x == 1  # forced weights-only, allowlisted


def test_tensors_and_containers_need_no_allowlist() -> None:
    # ember's own rebuild functions, OrderedDict, set, Size, device and dtypes are implicit
    import collections

    t = ember.arange(4, dtype=ember.int16)
    obj = [
        Point(0, 0),
        collections.OrderedDict(a=t),
        {1, 2},
        frozenset({3}),
        ember.Size([2, 3]),
        ember.device("cpu"),
        ember.bfloat16,
        ember.channels_last,
        bytearray(b"xy"),
        2 + 3j,
    ]
    with ser.safe_globals([Point]):
        back = load(round_trip(obj))
    assert back[1]["a"].tolist() == [0, 1, 2, 3] and back[1]["a"].dtype == ember.int16
    assert back[2:] == obj[2:]


def test_get_unsafe_globals_in_checkpoint_lists_what_load_would_refuse(tmp_path: Path) -> None:
    import torch_pickles as tp

    path = tmp_path / "objects.pt"
    ember.save({"p": Point(Slotted(1, 2), ember.ones(2)), "w": ember.zeros(3)}, path)
    module = Point.__module__
    unsafe = ser.get_unsafe_globals_in_checkpoint(path)
    assert unsafe == [f"{module}.Point", f"{module}.Slotted"]
    with ser.safe_globals([Slotted]):
        assert ser.get_unsafe_globals_in_checkpoint(path) == [f"{module}.Point"]
    assert ser.get_unsafe_globals_in_checkpoint(io.BytesIO(round_trip([ember.ones(2)]))) == []
    # torch zip and legacy files, hand-assembled: gadgets are listed, never run
    marker = tmp_path / "pwned"
    gadget = tp.PickleWriter().glob("posix", "system").value((f"touch {marker}",)).op(b"R")
    zipped = tp.archive(gadget.done())
    assert ser.get_unsafe_globals_in_checkpoint(io.BytesIO(zipped)) == ["posix.system"]
    legacy = tp.legacy_file(tp.PickleWriter().glob("__builtin__", "eval").done())
    assert ser.get_unsafe_globals_in_checkpoint(io.BytesIO(legacy)) == ["builtins.eval"]
    tensor = tp.PickleWriter().tensor("0", 2, (2,), (1,), legacy=True).done()
    clean = tp.legacy_file(tensor, {"0": (2, b"\0" * 8)})
    assert ser.get_unsafe_globals_in_checkpoint(io.BytesIO(clean)) == []
    assert not marker.exists()
    with pytest.raises(ValueError, match=r"^\[load\]"):
        ser.get_unsafe_globals_in_checkpoint(io.BytesIO(zipped[:40]))
    with pytest.raises(TypeError, match="get_unsafe_globals_in_checkpoint"):
        ser.get_unsafe_globals_in_checkpoint(3)

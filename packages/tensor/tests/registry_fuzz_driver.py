"""Calls every op variant of the registry with hostile arguments drawn by parameter type.

Run as a child process by test_fuzz_registry.py (a crash must not take pytest down):

    python registry_fuzz_driver.py SEED CALLS_PER_ROW [NAME_FILTER]

Values come from pools of edge cases per declared type: tensors of every dtype and odd layouts
(empty, 0-d, transposed, expanded, conjugate views, requiring grad), huge and negative ints,
NaN/inf floats, long and nested sequences, unknown strings, wrong types where ``Any`` is
declared. Every call must return or raise a typed error (see TYPED); anything else is printed
as one JSON line ``{"op": ..., "error": ..., "args": ...}``. The process exits 0 unless it
crashes, which the parent reports with the last op it started (printed to stderr first).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import resource
import signal
import sys
from collections.abc import Callable
from typing import Any

from registry_fuzz_rows import FUZZ_ROWS

import ember
from ember_core import _C

try:  # recording paths are part of what is fuzzed, where ember-autograd is installed
    import ember.autograd

    HAS_AUTOGRAD = True
except ImportError:  # ember-tensor alone (the release check runs each distribution alone)
    HAS_AUTOGRAD = False

# Exception types a bad argument may raise: torch raises these (RuntimeError and its
# subclasses included); an argument conversion error (OverflowError for an int that fits no
# C++ integer) is a TypeError-like refusal too.
TYPED = (TypeError, ValueError, IndexError, RuntimeError, NotImplementedError, OverflowError)

# Ops that change this process's global state or block: skipped, with the reason.
SKIP = {
    "Tensor.share_memory_": "creates shared-memory segments (tested in ember-multiprocessing)",
    "Tensor.__iter__": "returns a generator that may be unbounded over huge first dims",
}

# Under ASan (no RLIMIT_AS: its shadow needs terabytes) the sanitizer build caps one tensor
# (EMBER_SANITIZE_MAX_ALLOCATION_MB, ci/sanitize.sh) but not std containers, whose operator new
# under ASan aborts on failure instead of throwing std::bad_alloc. These calls return one tensor
# per `chunks` (torch's too: chunk of an empty dim gives `chunks` empty tensors), so 2**31 of them
# fill 16 GiB of vectors before the alarm; the capped normal run gets the typed error.
ASAN_HUGE_COUNTS = {"chunk", "Tensor.chunk"}
UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")


def too_big_for_asan(name: str, args: list[Any], kwargs: dict[str, Any]) -> bool:
    values = [*args, *kwargs.values()]
    return name in ASAN_HUGE_COUNTS and any(type(v) is int and abs(v) >= 2**31 for v in values)


INTS = [0, 1, -1, 2, 3, -2, 7, 64, 2**31, -(2**31) - 1, 2**62, 2**63 - 1, -(2**63), 10**6]
FLOATS = [0.0, -0.0, 0.5, -1.5, 1e-300, 1e308, -1e308, math.nan, math.inf, -math.inf]
STRS = ["", "sum", "mean", "none", "fro", "nuc", "reflect", "ortho", "floor", "trunc", "L", "xy"]
DTYPES = [
    ember.bool,
    ember.uint8,
    ember.int8,
    ember.int16,
    ember.int32,
    ember.int64,
    ember.float16,
    ember.bfloat16,
    ember.float32,
    ember.float64,
    ember.complex64,
    ember.complex128,
]
SHAPES: list[tuple[int, ...]] = [(), (0,), (1,), (3,), (2, 3), (3, 3), (1, 4, 1), (2, 0, 3)]


def make_tensor(rng: random.Random) -> ember.Tensor:
    dtype = rng.choice(DTYPES)
    shape = rng.choice(SHAPES)
    t = (ember.rand(shape) * 6 - 3).to(dtype) if dtype != ember.bool else ember.rand(shape) > 0.5
    layout = rng.random()
    if layout < 0.15 and t.dim() >= 2:
        t = t.transpose(0, 1)
    elif layout < 0.25 and t.dim() >= 1 and t.numel() > 0:
        t = t[:1].expand(4, *t.shape[1:]) if t.dim() > 0 else t
    elif layout < 0.32 and t.is_complex():
        t = t.conj()
    elif layout < 0.45 and t.is_floating_point() and HAS_AUTOGRAD:
        t = t.detach().requires_grad_(True)
    return t


def int_value(rng: random.Random) -> int:
    return rng.choice(INTS)


def int_list(rng: random.Random) -> Any:
    n = rng.choice([0, 1, 2, 3, 3, 70])
    values = [int_value(rng) if rng.random() < 0.3 else rng.randint(-3, 3) for _ in range(n)]
    kind = rng.random()
    if kind < 0.1 and values:
        return [values, values]  # nested: a sequence where ints are expected
    return tuple(values) if kind < 0.5 else values


def anything(rng: random.Random) -> Any:
    return rng.choice(
        [
            lambda: make_tensor(rng),
            lambda: int_value(rng),
            lambda: rng.choice(FLOATS),
            lambda: int_list(rng),
            lambda: rng.choice(STRS),
            lambda: None,
            lambda: rng.choice(DTYPES),
            lambda: [make_tensor(rng) for _ in range(rng.randint(0, 3))],
            lambda: object(),
            lambda: slice(None, None, rng.choice([None, -1, 2])),
            lambda: Ellipsis,
            lambda: 1.5 + 2j,
        ]
    )()


def value_for(annotation: str, rng: random.Random) -> Any:
    """A value of one member of the declared type, or (1 in 10) of any type."""
    if rng.random() < 0.1:
        return anything(rng)
    members = [m.strip() for m in re.split(r"\|(?![^\[]*\])", annotation)]
    member = rng.choice(members)
    makers: dict[str, Callable[[], Any]] = {
        "Tensor": lambda: make_tensor(rng),
        "int": lambda: int_value(rng) if rng.random() < 0.4 else rng.randint(-3, 3),
        "float": lambda: rng.choice(FLOATS),
        "bool": lambda: rng.random() < 0.5,
        "complex": lambda: complex(rng.choice(FLOATS), rng.choice(FLOATS)),
        "Number": lambda: rng.choice([int_value(rng), rng.choice(FLOATS), True]),
        "str": lambda: rng.choice(STRS),
        "dtype": lambda: rng.choice(DTYPES),
        "None": lambda: None,
        "Generator": lambda: ember.Generator().manual_seed(rng.randint(0, 9)),
        "Device": lambda: rng.choice(["cpu", "cuda", 0, "meta", "bogus"]),
        "Sequence[int]": lambda: int_list(rng),
        "Sequence[Tensor]": lambda: [make_tensor(rng) for _ in range(rng.randint(0, 3))],
        "list[Tensor]": lambda: [make_tensor(rng) for _ in range(rng.randint(0, 3))],
        "tuple[int, ...]": lambda: tuple(int_list(rng)),
    }
    return makers.get(member, lambda: anything(rng))()


def draw_call(
    params: tuple[tuple[str, str, str, bool], ...], rng: random.Random
) -> tuple[list[Any], dict[str, Any]]:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    positional_open = True
    for name, kind, annotation, required in params:
        if not required and rng.random() < 0.5:
            if kind == "pos":
                positional_open = False  # later positionals must go by keyword
            continue
        if kind == "var":
            if positional_open:
                args += [value_for(annotation, rng) for _ in range(rng.randint(0, 3))]
        elif kind == "pos" and positional_open:
            args.append(value_for(annotation, rng))
        else:
            kwargs[name] = value_for(annotation, rng)
    return args, kwargs


def target(name: str, rng: random.Random) -> tuple[Callable[..., Any], ember.Tensor | None]:
    """The callable, and the tensor it is a method of (None for functions)."""
    if name.startswith("Tensor."):
        self = make_tensor(rng)
        return getattr(self, name.removeprefix("Tensor.")), self
    return getattr(_C, name), None


def describe(value: Any) -> str:
    if isinstance(value, ember.Tensor):
        return f"Tensor({value.dtype}, {tuple(value.shape)}, strides={value.stride()})"
    if isinstance(value, (list, tuple)):
        return type(value).__name__ + "(" + ", ".join(describe(v) for v in value[:5]) + ")"
    return repr(value)[:80]


# A call that runs longer than this is a hang: SIGALRM's default action ends the process, and the
# parent names the op from the last "calling" line.
CALL_SECONDS = 20


def main() -> int:
    seed, calls = int(sys.argv[1]), int(sys.argv[2])
    if not UNDER_ASAN:  # ASan reserves terabytes of shadow
        limit = 2 << 30  # a huge size must fail fast as a typed error, not fill the machine
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    only = sys.argv[3] if len(sys.argv) > 3 else ""
    rng = random.Random(seed)
    for name, params in FUZZ_ROWS:
        if name in SKIP or (only and only not in name):
            continue
        for _ in range(calls):
            args, kwargs = draw_call(params, rng)
            call, self = target(name, rng)
            if UNDER_ASAN and too_big_for_asan(name, args, kwargs):
                continue  # drawn all the same: the later draws stay those of the normal run
            shown = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]
            on = f" on {describe(self)}" if self is not None else ""
            print(f"calling {name}{on}({', '.join(shown)})", file=sys.stderr, flush=True)
            signal.alarm(CALL_SECONDS)
            try:
                call(*args, **kwargs)
            except TYPED:
                pass
            except Exception as e:
                record = {
                    "op": name,
                    "error": f"{type(e).__name__}: {e}"[:300],
                    "args": [describe(a) for a in args],
                    "kwargs": {k: describe(v) for k, v in kwargs.items()},
                }
                print(json.dumps(record), flush=True)
            finally:
                signal.alarm(0)
    print("calling <done>", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Calls every public Python-level callable of the named modules with malformed arguments.

Run as a child process by each package's test_api_sweep.py (a crash must not take pytest down):

    python api_sweep_driver.py SEED CALLS MODULE [MODULE ...]

Discovery is by introspection: a module's ``__all__`` (else its public names); functions are
called directly, classes through their constructor and then, for one instance built from
plausible arguments, through each public method (``forward`` through ``__call__``). Arguments
follow the signature: each parameter gets junk (None, strings, huge and negative ints, NaN/inf,
nested, deep and cyclic lists, tensors of odd dtypes and shapes, objects whose ``__index__`` /
``__float__`` / ``__len__`` raise) or, now and then, a plausible value, so checks past the first
are reached. Every call must return or raise a typed error (TYPED); anything else is printed as
one line ``SWEEP {"callable": ..., "error": ..., "args": ...}``. Before each call its name goes to
stderr, so the parent names the call a crash (signal) or hang (SIGALRM's default action after
CALL_SECONDS) killed. The last stdout line is ``SWEEP {"summary": {module: counts}}``.

Native ops (nanobind functions of ember_core) are left to registry_fuzz_driver.py, which draws
their arguments by declared type; this sweep covers the Python layer above them.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import math
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import types
import warnings
from collections.abc import Callable, Collection, Iterator
from typing import Any

import ember

try:  # ember's finder raises a ModuleNotFoundError naming the distribution to install
    _HAS_AUTOGRAD = importlib.util.find_spec("ember.autograd") is not None
except ModuleNotFoundError:
    _HAS_AUTOGRAD = False

# Refusals torch makes (RuntimeError's subclasses include NotImplementedError and LinAlgError);
# StopIteration ends an iterator. KeyError, ZeroDivisionError and OSError are typed only for the
# callables where torch raises them too (TYPED_FOR).
TYPED: tuple[type[BaseException], ...] = (
    TypeError,
    ValueError,
    RuntimeError,
    IndexError,
    OverflowError,
    StopIteration,
)
TYPED_FOR: dict[str, tuple[type[BaseException], ...]] = {
    # a path that names no file, a directory, or an unwritable place: torch raises OSError
    "ember.load": (OSError,),
    "ember.save": (OSError,),
    "ember.serialization": (OSError,),
    # torch's load_state_dict reports a missing key of a state dict with KeyError
    "ember.optim": (KeyError,),
    # a missing key of a module dict, an empty popitem: torch's KeyError (they are dicts)
    "ember.nn.ModuleDict": (KeyError,),
    "ember.nn.ParameterDict": (KeyError,),
    # an existing attribute's name given to register_buffer / register_parameter / add_module
    "ember.nn.Module": (KeyError,),
    # a dotted path naming no submodule / parameter / buffer: torch documents AttributeError
    "ember.nn.Module.get_submodule": (AttributeError,),
    "ember.nn.Module.set_submodule": (AttributeError,),
    "ember.nn.Module.get_parameter": (AttributeError,),
    "ember.nn.Module.get_buffer": (AttributeError,),
    # default_collate({}) looks up the first element as torch's does: KeyError 0
    "ember.utils.data.default_collate": (KeyError,),
}
# Untyped errors torch raises identically (callable, type, message start): pickle's refusal of
# a local function passed to save.
SAME_AS_TORCH = {
    ("ember.save", "AttributeError", "Can't pickle local object"),
    ("ember.serialization.save", "AttributeError", "Can't pickle local object"),
}

# Callables that would change the process beyond what a restore undoes, block, or spawn.
SKIP = {
    "ember.set_default_device": "moves every later factory call to a junk device",
    "ember.utils.data.get_worker_info": "no arguments",
    "ember.utils.data.DataLoader.__iter__": "may start worker processes (test_dataloader's job)",
}

# Methods never called on an instance: they mutate global state or spawn processes.
SKIP_METHODS = {"share_memory", "share_memory_", "cuda", "ipu", "xpu", "mtia"}
# Protocol methods swept like public ones (a dataset's indexing, a container's length).
PROTOCOL = {"__getitem__", "__len__", "__iter__", "__contains__"}

CALL_SECONDS = 20


class Hostile:
    """Every conversion protocol raises: the error must surface, typed, not crash."""

    def __index__(self) -> int:
        raise ValueError("hostile __index__")

    def __int__(self) -> int:
        raise ValueError("hostile __int__")

    def __float__(self) -> float:
        raise ValueError("hostile __float__")

    def __len__(self) -> int:
        raise ValueError("hostile __len__")

    def __iter__(self) -> Iterator[Any]:
        raise ValueError("hostile __iter__")

    def __getitem__(self, key: Any) -> Any:
        raise ValueError("hostile __getitem__")

    def __repr__(self) -> str:
        return "Hostile()"


class Growing:
    """A number whose conversion appends to the list holding it (re-validation after Python)."""

    def __init__(self, owner: list[Any]) -> None:
        self.owner = owner

    def __float__(self) -> float:
        self.owner.append(1.0)
        return 1.0

    def __index__(self) -> int:
        self.owner.append(1)
        return 1

    __int__ = __index__

    def __repr__(self) -> str:
        return "Growing()"


class LyingLen:
    """A sequence whose ``__len__`` says 5 while indexing ends after 3 items."""

    def __len__(self) -> int:
        return 5

    def __getitem__(self, i: int) -> float:
        if i >= 3:
            raise IndexError(i)
        return 1.0

    def __repr__(self) -> str:
        return "LyingLen()"


def cyclic() -> list[Any]:
    a: list[Any] = [1.0]
    a.append(a)
    return a


def deep(depth: int) -> list[Any]:
    a: list[Any] = [1.0]
    for _ in range(depth):
        a = [a]
    return a


def growing() -> list[Any]:
    a: list[Any] = [1.0]
    a.append(Growing(a))
    return a


DTYPES = [
    ember.bool,
    ember.uint8,
    ember.int8,
    ember.int32,
    ember.int64,
    ember.float16,
    ember.bfloat16,
    ember.float32,
    ember.float64,
    ember.complex64,
]
SHAPES: list[tuple[int, ...]] = [(), (0,), (1,), (3,), (2, 3), (3, 3), (2, 0, 3), (2, 3, 4, 5)]


def make_tensor(rng: random.Random) -> ember.Tensor:
    dtype = rng.choice(DTYPES)
    t = ember.rand(rng.choice(SHAPES)) * 6 - 3
    t = t > 0 if dtype == ember.bool else t.to(dtype)
    if t.dim() >= 2 and rng.random() < 0.2:
        t = t.transpose(0, 1)
    # Without ember-autograd (ember-tensor's wheel tested alone) requires_grad=True raises.
    if t.is_floating_point() and rng.random() < 0.3 and _HAS_AUTOGRAD:
        t = t.detach().requires_grad_(True)
    return t


JUNK: list[Callable[[random.Random], Any]] = [
    lambda r: None,
    lambda r: r.choice(["", "abc", "sum", "mean", "cpu", "cuda", "fro", "\x00", "x" * 300]),
    lambda r: r.choice([0, -1, 1, 3, -(2**31) - 1, 2**31, 2**32, 2**62, 2**63 - 1, -(2**63)]),
    lambda r: r.choice([2**64, -(2**100), 10**30]),
    lambda r: r.choice([math.nan, math.inf, -math.inf, -0.0, 1e308, 0.5, -1.5]),
    lambda r: r.choice([True, False]),
    lambda r: 1.5 + 2j,
    lambda r: r.choice([[], (), [[1, 2], [3]], [1, "a"], [None], (2**63 - 1, -1)]),
    lambda r: cyclic(),
    lambda r: deep(r.choice([64, 5000])),
    lambda r: growing(),
    lambda r: Hostile(),
    lambda r: LyingLen(),
    lambda r: object(),
    lambda r: {},
    lambda r: {"a": 1},
    lambda r: b"\x00\x01",
    lambda r: r.choice(DTYPES),
    lambda r: slice(None, None, -1),
    lambda r: lambda *a, **k: None,
    lambda r: make_tensor(r),
    lambda r: make_tensor(r),
    lambda r: [make_tensor(r) for _ in range(r.randint(0, 3))],
    lambda r: ember.Generator().manual_seed(r.randint(0, 9)),
]


def junk(rng: random.Random) -> Any:
    return rng.choice(JUNK)(rng)


TENSOR_NAMES = {"input", "x", "tensor", "other", "target", "weight", "a", "b", "A", "B", "self"}


def plausible(param: inspect.Parameter, rng: random.Random) -> Any:
    """A value that likely passes the parameter's checks, so later ones get reached."""
    if param.default is not inspect.Parameter.empty and rng.random() < 0.7:
        return param.default
    note = str(param.annotation)
    name = param.name
    if "Tensor" in note or name in TENSOR_NAMES or name.endswith(("tensor", "input")):
        return ember.rand(2, 3)
    if "params" in name or "parameters" in name:
        return [ember.zeros(3, requires_grad=True)]
    if "bool" in note:
        return False
    if "int" in note or name.startswith(("num_", "n_")) or name.endswith(("size", "dim", "s")):
        return rng.choice([1, 2, 3])
    if "float" in note or name in {"lr", "p", "eps", "momentum", "alpha", "beta"}:
        return 0.5
    if "str" in note:
        return rng.choice(["mean", "sum", "none"])
    if name in {"loc", "scale", "probs", "rate", "concentration", "df", "low", "high", "logits"}:
        return ember.full((3,), 0.5)
    if name in {"dataset", "data_source"}:
        return list(range(4))
    return ember.rand(2, 3)


def draw(
    sig: inspect.Signature | None, rng: random.Random, sane: float
) -> tuple[list[Any], dict[str, Any]]:
    """Arguments by signature: junk per parameter, a plausible value with probability ``sane``."""
    if sig is None:
        return [junk(rng) for _ in range(rng.randint(0, 3))], {}
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    positional = True
    for p in sig.parameters.values():
        if p.name in {"self", "cls"} and not args:
            continue
        if p.kind is p.VAR_KEYWORD:
            if rng.random() < 0.2:
                kwargs["bogus_keyword"] = junk(rng)
            continue
        if p.kind is p.VAR_POSITIONAL:
            if positional and rng.random() < sane:
                args += [ember.rand(4, 2) for _ in range(rng.randint(1, 2))]
            elif positional:
                args += [junk(rng) for _ in range(rng.randint(0, 2))]
            continue
        optional = p.default is not inspect.Parameter.empty
        if optional and (rng.random() < 0.4 or p.name.startswith("_")):  # private: not the API
            positional = positional and p.kind is p.KEYWORD_ONLY
            continue
        value = plausible(p, rng) if rng.random() < sane else junk(rng)
        if p.kind is p.POSITIONAL_ONLY or (p.kind is p.POSITIONAL_OR_KEYWORD and positional):
            args.append(value)
        else:
            kwargs[p.name] = value
    return args, kwargs


def signature(obj: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def describe(value: Any, depth: int = 0) -> str:
    if isinstance(value, ember.Tensor):
        return f"Tensor({value.dtype}, {tuple(value.shape)})"
    if isinstance(value, (list, tuple)) and depth < 2:
        inner = ", ".join(describe(v, depth + 1) for v in value[:4])
        more = ", ..." if len(value) > 4 else ""
        return f"{type(value).__name__}({inner}{more})"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}(...)"
    try:
        return repr(value)[:60]
    except Exception:  # a hostile repr
        return type(value).__name__


def is_native(obj: Any) -> bool:
    """A nanobind function or op: the registry fuzzer's job."""
    if isinstance(obj, type):
        return False  # a class's Python-level methods are swept even when its base is native
    return type(obj).__module__ in {"nanobind", "ember_core._C"} or (
        type(obj).__name__ in {"nb_func", "nb_method", "op"}
    )


def public_names(module: types.ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    return sorted(set(names))


def discover(modname: str) -> list[tuple[str, Any]]:
    """(qualified name, callable) for each public Python-level function and class."""
    module = importlib.import_module(modname)
    found = []
    for name in public_names(module):
        obj = getattr(module, name, None)
        if isinstance(obj, types.ModuleType) or obj is None or not callable(obj):
            continue
        if is_native(obj) or (inspect.isbuiltin(obj) and not isinstance(obj, type)):
            continue
        origin = getattr(obj, "__module__", "") or ""
        if not origin.startswith(("ember", "ember_core", modname)):
            continue  # re-exported from the standard library or typing
        found.append((f"{modname}.{name}", obj))
    return found


def methods(cls: type) -> list[str]:
    """Public Python-level methods a class defines in ember (not object's or native ones)."""
    names = []
    for klass in cls.__mro__:
        if not (getattr(klass, "__module__", "") or "").startswith("ember"):
            continue
        for name, value in vars(klass).items():
            public = not name.startswith("_") or name in PROTOCOL
            if not public or name in SKIP_METHODS or name in names:
                continue
            if inspect.isfunction(value):
                names.append(name)
    return sorted(names)


class Sweep:
    def __init__(self, seed: int, calls: int) -> None:
        self.rng = random.Random(seed)
        self.calls = calls
        self.counts: dict[str, dict[str, int]] = {}
        self.module = ""
        self.swept: set[Any] = set()  # functions already swept (inherited methods go once)

    def tally(self, key: str) -> None:
        row = self.counts.setdefault(self.module, {"callables": 0, "calls": 0, "untyped": 0})
        row[key] += 1

    def call(self, name: str, fn: Callable[..., Any], args: list[Any], kw: dict[str, Any]) -> Any:
        """One call under the alarm; an untyped error is printed. Returns the result or None."""
        shown = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kw.items()]
        print(f"calling {name}({', '.join(shown)})", file=sys.stderr, flush=True)
        self.tally("calls")
        parts = name.split(".")
        prefixes = (".".join(parts[:i]) for i in range(1, len(parts) + 1))
        allowed = TYPED + tuple(e for p in prefixes for e in TYPED_FOR.get(p, ()))
        signal.alarm(CALL_SECONDS)
        try:
            result = fn(*args, **kw)
            if isinstance(result, types.GeneratorType) or name.endswith("__iter__"):
                next(iter(result), None)  # a generator's checks run at the first next()
            return result
        except allowed:
            return None
        except Exception as e:
            if any(
                name == c and type(e).__name__ == t and str(e).startswith(m)
                for c, t, m in SAME_AS_TORCH
            ):
                return None
            self.tally("untyped")
            record = {
                "callable": name,
                "type": type(e).__name__,
                "error": f"{type(e).__name__}: {e}"[:240],
                "args": shown,
            }
            print("SWEEP " + json.dumps(record), flush=True)
            return None
        finally:
            signal.alarm(0)
            restore()

    def function(self, name: str, fn: Callable[..., Any]) -> None:
        sig = signature(fn)
        for i in range(self.calls):
            args, kw = draw(sig, self.rng, sane=0.6 if i % 2 else 0.2)
            self.call(name, fn, args, kw)

    def klass(self, name: str, cls: type) -> None:
        self.function(name, cls)  # the constructor with junk
        sig = signature(cls)
        instance = None
        for _ in range(4):  # an instance built from plausible arguments, for its methods
            args, kw = draw(sig, self.rng, sane=1.0)
            try:
                signal.alarm(CALL_SECONDS)
                instance = cls(*args, **kw)
                break
            except Exception:
                continue
            finally:
                signal.alarm(0)
                restore()
        if instance is None:
            return
        targets = methods(cls)
        if callable(instance) and "forward" in targets:
            targets = ["__call__"] + [m for m in targets if m != "forward"]
        for method in targets:
            bound = getattr(instance, method, None)
            if bound is None or not callable(bound):
                continue
            owner = next(k for k in cls.__mro__ if method in vars(k))
            if method != "__call__":  # forward differs per class; other methods go once
                if vars(owner)[method] in self.swept:
                    continue
                self.swept.add(vars(owner)[method])
            where = (
                name if owner is cls or method == "__call__" else f"{self.module}.{owner.__name__}"
            )
            sig_of = getattr(instance, "forward", bound) if method == "__call__" else bound
            sig = signature(sig_of)
            if f"{where}.{method}" in SKIP:
                continue
            takes = sig is None or any(p.name != "self" for p in sig.parameters.values())
            for i in range(self.calls if takes else 1):
                args, kw = draw(sig, self.rng, sane=0.5 if i % 2 else 0.1)
                self.call(f"{where}.{method}", bound, args, kw)

    def run(self, modname: str) -> None:
        self.module = modname
        for name, obj in discover(modname):
            if name in SKIP:
                continue
            self.tally("callables")
            if isinstance(obj, type):
                self.klass(name, obj)
            else:
                self.function(name, obj)


DEFAULTS: dict[str, Any] = {}


def restore() -> None:
    """Undo what a call may have set globally, so later calls run in the usual state."""
    ember.set_default_dtype(ember.float32)
    ember.set_grad_enabled(True)
    ember.set_printoptions(profile="default")
    if ember.get_num_threads() != DEFAULTS["threads"]:
        ember.set_num_threads(DEFAULTS["threads"])
    if ember.are_deterministic_algorithms_enabled():
        ember.use_deterministic_algorithms(False)


def seeds() -> list[int]:
    """The seeds a test sweeps: fixed in CI; ``EMBER_SWEEP_SEEDS=0-99`` searches wider locally."""
    low, _, high = os.environ.get("EMBER_SWEEP_SEEDS", "0-1").partition("-")
    return list(range(int(low), int(high or low) + 1))


def sweep_in_child(modules: list[str], seed: int, known_hangs: Collection[str] = ()) -> str:
    """Runs the sweep in a child process; returns "" when it found nothing, else what failed
    (the signal and call of a crash, the call of a hang, each untyped error). ``known_hangs``
    names callables not called at all (a hang ends the child's sweep)."""
    calls = os.environ.get("EMBER_SWEEP_CALLS", "3")
    child = subprocess.run(
        [sys.executable, __file__, str(seed), calls, *modules],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "EMBER_SWEEP_SKIP": ",".join(known_hangs)},
    )
    started = [line for line in child.stderr.splitlines() if line.startswith("calling ")]
    last = started[-1].removeprefix("calling ") if started else "<nothing>"
    if child.returncode == -signal.SIGALRM:
        return f"seed {seed}: hang (over {CALL_SECONDS} s) in {last}"
    if child.returncode < 0:
        return (
            f"seed {seed}: the process died of {signal.Signals(-child.returncode).name} in {last}"
        )
    if child.returncode != 0 or last != "<done>":
        return f"seed {seed}: exit {child.returncode} in {last}\n{child.stderr[-2000:]}"
    records = [json.loads(s[6:]) for s in child.stdout.splitlines() if s.startswith("SWEEP ")]
    untyped = [r for r in records if "summary" not in r]
    return "\n".join(f"seed {seed}: {r}" for r in untyped)


def main() -> int:
    seed, calls, modules = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    if "asan" not in os.environ.get("LD_PRELOAD", ""):  # ASan reserves terabytes of shadow
        limit = 3 << 30  # a huge size must fail fast as a typed error, not fill the machine
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.setrecursionlimit(3000)
    warnings.simplefilter("ignore")
    DEFAULTS["threads"] = ember.get_num_threads()
    for name in filter(None, os.environ.get("EMBER_SWEEP_SKIP", "").split(",")):
        SKIP[name] = "a known hang (the calling test lists it)"
    os.chdir(tempfile.mkdtemp(prefix="ember-api-sweep-"))  # junk paths land here
    ember.manual_seed(seed)  # the tensors drawn are the same every run too
    sweep = Sweep(seed, calls)
    for modname in modules:
        sweep.run(modname)
    print("calling <done>", file=sys.stderr, flush=True)
    print("SWEEP " + json.dumps({"summary": sweep.counts}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

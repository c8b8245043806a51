"""Run the same workloads on ember, numpy and (when importable) torch in one process.

    uv run python benchmarks/run.py                      # all workloads, full repeats
    uv run python benchmarks/run.py --quick --only add   # fewer repeats, workloads matching "add"
    EMBER_BENCH_TORCH_SITE=/tmp/torchenv/lib/python3.11/site-packages \
        uv run python benchmarks/run.py                  # with torch from another venv

torch is not part of the workspace. It is imported when the running interpreter has it, or from
the site-packages folder named by EMBER_BENCH_TORCH_SITE, which is appended to the END of sys.path
(so it never shadows the workspace's own packages). See benchmarks/README.md.

Times are medians of repeated batches (time.perf_counter). A ratio a/b is library a's time divided
by library b's (ember/torch, ember/numpy; torch/numpy with --no-ember): below 1.00x, a is faster.
A library lacking an operation shows "missing"; one that raises or returns a wrong value shows
"error"/"WRONG", with the reason under the table.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import autograd_workloads as ag
import dataloader as dl
from harness import Batch, Settings, format_seconds, import_time, measure, print_table

TORCH_SITE_ENV = "EMBER_BENCH_TORCH_SITE"
N_ELEMENTWISE = 1 << 24  # 2**24 float32 = 64 MiB per tensor
NUMPY_NAMES = {"mul": "multiply"}  # torch-style name -> numpy name


class Missing(Exception):
    """The library lacks the operation (reported as "missing", never a crash)."""


# --------------------------------------------------------------------------------------------
# Libraries. numpy's API is wrapped so that every workload is written once.


@dataclass
class Lib:
    name: str
    mod: ModuleType
    np: ModuleType

    def from_numpy(self, a: Any) -> Any:
        if self.name == "numpy":
            return a
        return self.attr("from_numpy")(a)

    def attr(self, name: str) -> Any:
        if self.name == "numpy":
            name = NUMPY_NAMES.get(name, name)
        try:
            return getattr(self.mod, name)
        except AttributeError:
            raise Missing(f"{self.name}.{name}") from None

    def to_numpy(self, x: Any) -> Any:
        if self.name == "numpy":
            return x
        try:
            return x.numpy()
        except Exception:
            return self.np.asarray(x.tolist())  # a library without .numpy() yet

    def num_threads(self) -> str:
        if self.name == "numpy":
            return "BLAS default"
        get = getattr(self.mod, "get_num_threads", None)
        return str(get()) if get is not None else "?"


def load_torch() -> tuple[ModuleType | None, str]:
    site = os.environ.get(TORCH_SITE_ENV)
    if site and site not in sys.path:
        sys.path.append(site)  # at the end: never shadows the workspace's packages
    try:
        return importlib.import_module("torch"), ""
    except Exception as e:  # ImportError, or a broken install raising anything else
        return None, f"{type(e).__name__}: {e}"


# --------------------------------------------------------------------------------------------
# Workloads. `make(lib, data)` returns (batch, result): batch(n) runs the operation n times,
# result() runs it once and returns the value compared against numpy's.


@dataclass
class Workload:
    name: str
    description: str
    unit: str  # "us/call", "GB/s" or "GFLOP/s"
    work: float  # bytes moved or flops per call (for GB/s and GFLOP/s)
    inputs: Callable[[Any], dict[str, Any]]  # numpy module -> named numpy inputs
    make: Callable[[Lib, dict[str, Any]], tuple[Batch, Callable[[], Any]]]
    rtol: float = 1e-4


def _elementwise_inputs(np: Any, lo: float = 0.0, hi: float = 1.0) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    a = rng.uniform(lo, hi, N_ELEMENTWISE).astype(np.float32)
    b = rng.uniform(lo, hi, N_ELEMENTWISE).astype(np.float32)
    return {"a": a, "b": b}


def _binary(op: str, out: bool) -> Callable[[Lib, dict[str, Any]], tuple[Batch, Callable[[], Any]]]:
    def make(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
        a, b = lib.from_numpy(data["a"]), lib.from_numpy(data["b"])
        if out:
            c = lib.from_numpy(lib.np.empty_like(data["a"]))
            fn = lib.attr(op)

            def batch(n: int) -> None:
                for _ in range(n):
                    fn(a, b, out=c)

            def result() -> Any:
                fn(a, b, out=c)
                return c

            return batch, result

        if op == "add":

            def batch(n: int) -> None:
                for _ in range(n):
                    a + b

            return batch, lambda: a + b

        def batch_mul(n: int) -> None:
            for _ in range(n):
                a * b

        return batch_mul, lambda: a * b

    return make


def _tiny_add(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    a, b = lib.from_numpy(data["a"]), lib.from_numpy(data["b"])

    def batch(n: int) -> None:
        for _ in range(n):
            a + b

    return batch, lambda: a + b


def _exp(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    a = lib.from_numpy(data["a"])
    exp = lib.attr("exp")

    def batch(n: int) -> None:
        for _ in range(n):
            exp(a)

    return batch, lambda: exp(a)


def _sum(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    x = lib.from_numpy(data["x"])
    if not hasattr(x, "sum"):
        raise Missing(f"{lib.name} tensor .sum()")

    def batch(n: int) -> None:
        for _ in range(n):
            x.sum()

    return batch, lambda: x.sum()


def _nan_reduce(name: str) -> Callable[[Lib, dict[str, Any]], tuple[Batch, Callable[[], Any]]]:
    def make(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
        x = lib.from_numpy(data["x"])
        fn = getattr(lib.np, name) if lib.name == "numpy" else lib.attr(name)
        return _repeat(lambda: fn(x))

    return make


def _with_nans(np: Any) -> dict[str, Any]:
    """[4096, 4096] float32 in [0, 1) with about 1% NaN."""
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, (4096, 4096)).astype(np.float32)
    x[rng.uniform(0, 1, x.shape) < 0.01] = np.nan
    return {"x": x}


def _matmul(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    a, b = lib.from_numpy(data["a"]), lib.from_numpy(data["b"])

    def batch(n: int) -> None:
        for _ in range(n):
            a @ b

    return batch, lambda: a @ b


def _repeat(fn: Callable[[], Any]) -> tuple[Batch, Callable[[], Any]]:
    def batch(n: int) -> None:
        for _ in range(n):
            fn()

    return batch, fn


def _sort(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    x = lib.from_numpy(data["x"])
    if lib.name == "numpy":
        return _repeat(lambda: lib.np.sort(x))
    sort = lib.attr("sort")
    return _repeat(lambda: sort(x).values)


def _topk(k: int) -> Callable[[Lib, dict[str, Any]], tuple[Batch, Callable[[], Any]]]:
    def make(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
        x = lib.from_numpy(data["x"])
        if lib.name == "numpy":  # no topk in numpy: partition, then sort the k largest
            np = lib.np
            return _repeat(lambda: np.sort(np.partition(x, x.size - k)[-k:])[::-1])
        topk = lib.attr("topk")
        return _repeat(lambda: topk(x, k).values)

    return make


def _index_inputs(np: Any) -> dict[str, Any]:
    """2**22-element sources: rows of 1024 added at 4096 random rows of 2048 (index_add_), and a
    [2048, 2048] scatter along dim 0 with random indices (scatter_reduce_)."""
    rng = np.random.default_rng(0)
    return {
        "x": np.zeros((2048, 1024), np.float32),
        "rows": rng.integers(0, 2048, 4096).astype(np.int64),
        "src_rows": rng.standard_normal((4096, 1024)).astype(np.float32),
        "y": rng.standard_normal((2048, 2048)).astype(np.float32),
        "index": rng.integers(0, 2048, (2048, 2048)).astype(np.int64),
        "src": rng.standard_normal((2048, 2048)).astype(np.float32),
    }


def _gather_inputs(np: Any) -> dict[str, Any]:
    """2**22 float32 values, 2**22 random positions (repeats allowed) to read, and a permutation
    of 2**22 positions to write (no repeats: every library then writes the same result)."""
    rng = np.random.default_rng(0)
    n = 1 << 22
    return {
        "x": rng.standard_normal(n).astype(np.float32),
        "idx": rng.integers(0, n, n).astype(np.int64),
        "perm": rng.permutation(n).astype(np.int64),
    }


def _index_gather(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    x, idx = lib.from_numpy(data["x"]), lib.from_numpy(data["idx"])
    return _repeat(lambda: x[idx])


def _index_put(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    x, perm = lib.from_numpy(data["x"]), lib.from_numpy(data["perm"])
    out = lib.from_numpy(data["x"].copy())

    def run() -> Any:
        out[perm] = x
        return out

    return _repeat(run)


def _index_add(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    x, rows, src = data["x"], data["rows"], data["src_rows"]
    if lib.name == "numpy":  # numpy's unbuffered accumulate
        np = lib.np

        def run() -> Any:
            out = x.copy()
            np.add.at(out, rows, src)
            return out

        return _repeat(run)
    target, index, source = lib.from_numpy(x.copy()), lib.from_numpy(rows), lib.from_numpy(src)

    def batch(n: int) -> None:
        for _ in range(n):
            target.index_add_(0, index, source)

    return batch, lambda: lib.from_numpy(x.copy()).index_add_(0, index, source)


def _scatter_reduce(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    y, idx, src = data["y"], data["index"], data["src"]
    if lib.name == "numpy":
        np = lib.np

        def run() -> Any:
            out = y.copy()
            np.add.at(out, (idx, np.arange(y.shape[1])[None, :]), src)
            return out

        return _repeat(run)
    target, index, source = lib.from_numpy(y.copy()), lib.from_numpy(idx), lib.from_numpy(src)

    def batch(n: int) -> None:
        for _ in range(n):
            target.scatter_reduce_(0, index, source, "sum")

    return batch, lambda: lib.from_numpy(y.copy()).scatter_reduce_(0, index, source, "sum")


def _matrices(n: int) -> Callable[[Any], dict[str, Any]]:
    def inputs(np: Any) -> dict[str, Any]:
        rng = np.random.default_rng(0)
        return {
            "a": rng.uniform(-1, 1, (n, n)).astype(np.float32),
            "b": rng.uniform(-1, 1, (n, n)).astype(np.float32),
        }

    return inputs


def _linalg_inputs(n: int, dtype: str) -> Callable[[Any], dict[str, Any]]:
    def inputs(np: Any) -> dict[str, Any]:
        rng = np.random.default_rng(0)
        # A dominant diagonal keeps inv/solve well conditioned, so float32 results compare.
        a = rng.uniform(-1, 1, (n, n)) + n / 4 * np.eye(n)
        return {"a": a.astype(dtype), "b": rng.uniform(-1, 1, (n, n)).astype(dtype)}

    return inputs


def _linalg(op: str) -> Callable[[Lib, dict[str, Any]], tuple[Batch, Callable[[], Any]]]:
    """inv(a), solve(a, b) or the singular values of svd(a) through each library's linalg."""

    def make(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
        a, b = lib.from_numpy(data["a"]), lib.from_numpy(data["b"])
        linalg = lib.attr("linalg")
        if op == "inv":
            return _repeat(lambda: linalg.inv(a))
        if op == "solve":
            return _repeat(lambda: linalg.solve(a, b))
        return _repeat(lambda: linalg.svd(a, full_matrices=False)[1])

    return make


def _eig_inputs(batch: tuple[int, ...], n: int, dtype: str) -> Callable[[Any], dict[str, Any]]:
    def inputs(np: Any) -> dict[str, Any]:
        a = np.random.default_rng(0).standard_normal((*batch, n, n))
        return {"a": a.astype(dtype)}

    return inputs


def _eig(vectors: bool) -> Callable[[Lib, dict[str, Any]], tuple[Batch, Callable[[], Any]]]:
    """linalg.eig(a) or eigvals(a); sum(|w|) compares, as libraries may order eigenvalues apart."""

    def make(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
        a, linalg = lib.from_numpy(data["a"]), lib.attr("linalg")
        if vectors:
            return _repeat(lambda: abs(linalg.eig(a)[0]).sum())
        return _repeat(lambda: abs(linalg.eigvals(a)).sum())

    return make


def _rfft(lib: Lib, data: dict[str, Any]) -> tuple[Batch, Callable[[], Any]]:
    """rfft(x); results compare as (n/2+1, 2) real arrays (torch.view_as_real's layout)."""
    x = lib.from_numpy(data["x"])
    if lib.name == "numpy":
        np = lib.np
        batch, _ = _repeat(lambda: np.fft.rfft(x))
        return batch, lambda: np.stack([np.fft.rfft(x).real, np.fft.rfft(x).imag], -1)
    fft = getattr(lib.mod, "fft", None)
    if lib.name == "torch" or hasattr(fft, "rfft"):
        assert fft is not None
        batch, _ = _repeat(lambda: fft.rfft(x))
        return batch, lambda: lib.attr("view_as_real")(fft.rfft(x))
    r2c = lib.attr("_C")._fft_r2c  # ember before its public ember.fft: the native kernel
    return _repeat(lambda: r2c(x, [0], "backward", True))


def workloads() -> list[Workload]:
    n = N_ELEMENTWISE
    ws = [
        Workload(
            "add_1elem",
            "a + b, 1-element float32 (per-call overhead)",
            "us/call",
            0.0,
            lambda np: {"a": np.ones(1, np.float32), "b": np.ones(1, np.float32)},
            _tiny_add,
        ),
    ]
    for op, sym in (("add", "+"), ("mul", "*")):
        ws.append(
            Workload(
                f"{op}_2^24",
                f"a {sym} b, 2**24 float32, fresh output",
                "GB/s",
                3 * 4 * n,
                _elementwise_inputs,
                _binary(op, out=False),
            )
        )
        ws.append(
            Workload(
                f"{op}_2^24_out",
                f"{op}(a, b, out=c), 2**24 float32, preallocated",
                "GB/s",
                3 * 4 * n,
                _elementwise_inputs,
                _binary(op, out=True),
            )
        )
    ws += [
        Workload(
            "exp_2^24",
            "exp(a), 2**24 float32 in [-1, 1), fresh output",
            "GB/s",
            2 * 4 * n,
            lambda np: _elementwise_inputs(np, -1.0, 1.0),
            _exp,
        ),
        Workload(
            "sum_4096^2",
            "x.sum(), [4096, 4096] float32",
            "GB/s",
            4 * 4096 * 4096,
            lambda np: {
                "x": np.random.default_rng(0).uniform(0, 1, (4096, 4096)).astype(np.float32)
            },
            _sum,
            rtol=1e-3,
        ),
    ]

    for name in ("nansum", "nanmean"):
        ws.append(
            Workload(
                f"{name}_4096^2",
                f"{name}(x), [4096, 4096] float32, 1% NaN",
                "GB/s",
                4 * 4096 * 4096,
                _with_nans,
                _nan_reduce(name),
                rtol=1e-3,
            )
        )

    def normal_2_22(np: Any) -> dict[str, Any]:
        return {"x": np.random.default_rng(0).standard_normal(1 << 22).astype(np.float32)}

    ws += [
        Workload("sort_2^22", "sort(x).values, 2**22 float32", "us/call", 0.0, normal_2_22, _sort),
        Workload(
            "topk_2^22_k100",
            "topk(x, 100).values, 2**22 float32",
            "us/call",
            0.0,
            normal_2_22,
            _topk(100),
        ),
    ]
    ws += [
        Workload(
            "index_gather_2^22",
            "x[idx]: 2**22 float32 read at 2**22 random int64 positions",
            "us/call",
            0.0,
            _gather_inputs,
            _index_gather,
        ),
        Workload(
            "index_put_2^22",
            "out[perm] = x: 2**22 float32 written at a permutation of positions",
            "us/call",
            0.0,
            _gather_inputs,
            _index_put,
        ),
        Workload(
            "index_add_2^22",
            "x.index_add_(0, index, src), src [4096, 1024] float32 into [2048, 1024]",
            "us/call",
            0.0,
            _index_inputs,
            _index_add,
        ),
        Workload(
            "scatter_reduce_2^22",
            "x.scatter_reduce_(0, index, src, 'sum'), [2048, 2048] float32",
            "us/call",
            0.0,
            _index_inputs,
            _scatter_reduce,
        ),
    ]
    ws.append(
        Workload(
            "rfft_2^20",
            "rfft(x), 2**20 float32",
            "us/call",
            0.0,
            lambda np: {"x": np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)},
            _rfft,
            rtol=1e-3,
        )
    )
    for size in (1024, 2048):
        ws.append(
            Workload(
                f"matmul_{size}",
                f"a @ b, [{size}, {size}] float32",
                "GFLOP/s",
                2.0 * size**3,
                _matrices(size),
                _matmul,
                rtol=1e-3,
            )
        )
    for op, what in (("inv", "inv(a)"), ("solve", "solve(a, b)"), ("svd", "svd(a).S")):
        for dtype in ("float32", "float64"):
            ws.append(
                Workload(
                    f"{op}_512_{dtype[-2:]}",
                    f"linalg.{what}, [512, 512] {dtype}",
                    "us/call",
                    0.0,
                    _linalg_inputs(512, dtype),
                    _linalg(op),
                    rtol=1e-3,
                )
            )
    ws += [
        Workload(
            "eigvals_256_64",
            "linalg.eigvals(a), [256, 256] float64 (sum of |w|)",
            "us/call",
            0.0,
            _eig_inputs((), 256, "float64"),
            _eig(False),
            rtol=1e-6,
        ),
        Workload(
            "eig_64x16_32",
            "linalg.eig(a) with vectors, [64, 16, 16] float32 (sum of |w|)",
            "us/call",
            0.0,
            _eig_inputs((64,), 16, "float32"),
            _eig(True),
            rtol=1e-4,
        ),
    ]
    ws += [
        Workload(
            "autograd_chain_100",
            "record + backward of a 100-op chain on [16] float32 (per chain; /100 for per op)",
            "us/call",
            0.0,
            ag.chain_inputs,
            ag.chain,
        ),
        Workload(
            "matmul_backward_1024",
            "backward of a @ b, [1024, 1024] float32 (graph retained)",
            "us/call",
            0.0,
            ag.matmul_inputs,
            ag.matmul_backward,
            rtol=1e-3,
        ),
        Workload(
            "softmax_backward_4096^2",
            "backward of x.softmax(-1), [4096, 4096] float32 (graph retained)",
            "us/call",
            0.0,
            ag.softmax_inputs,
            ag.softmax_backward,
            rtol=1e-3,
        ),
    ]
    return ws


# --------------------------------------------------------------------------------------------
# Running and reporting.


@dataclass
class Cell:
    seconds: float | None = None
    status: str = ""  # "", "missing", "error", "WRONG", "skipped"
    note: str = ""

    def text(self, unit: str, work: float) -> str:
        if self.seconds is None:
            return self.status or "-"
        t = format_seconds(self.seconds)
        if unit == "GB/s":
            t = f"{work / self.seconds / 1e9:.1f} GB/s ({t})"
        elif unit == "GFLOP/s":
            t = f"{work / self.seconds / 1e9:.1f} GFLOP/s ({t})"
        elif unit == "samples/s":  # seconds per sample
            t = f"{1 / self.seconds:,.0f} samples/s"
        return t + (" WRONG" if self.status == "WRONG" else "")


@dataclass
class Row:
    name: str
    unit: str
    work: float
    cells: dict[str, Cell] = field(default_factory=dict)


def check(lib: Lib, got: Any, expected: Any, rtol: float) -> tuple[str, str]:
    """(status, note) of `got` against numpy's `expected`: ("", "") when it matches."""
    np = lib.np
    try:
        g = np.asarray(lib.to_numpy(got), dtype=np.float64)
    except Exception as e:
        return "", f"unchecked: cannot convert the result to numpy ({type(e).__name__}: {e})"
    e64 = np.asarray(expected, dtype=np.float64)
    if g.shape != e64.shape:
        return "WRONG", f"shape {g.shape}, expected {e64.shape}"
    scale = float(np.max(np.abs(e64))) if e64.size else 1.0
    if not np.allclose(g, e64, rtol=rtol, atol=rtol * scale):
        return "WRONG", f"max abs error {float(np.max(np.abs(g - e64))):.3g} (scale {scale:.3g})"
    return "", ""


def run_workload(w: Workload, libs: list[Lib], settings: Settings, np: Any) -> Row:
    row = Row(w.name, w.unit, w.work)
    data = w.inputs(np)
    expected = None
    for lib in libs:
        cell = Cell()
        row.cells[lib.name] = cell
        try:
            batch, result = w.make(lib, data)
            got = result()
            if lib.name == "numpy":
                expected = lib.to_numpy(got)
            elif expected is not None:
                cell.status, cell.note = check(lib, got, expected, w.rtol)
            del got
            cell.seconds = measure(batch, settings)
        except Missing as e:
            cell.status, cell.note = "missing", str(e)
        except (AttributeError, NotImplementedError) as e:
            cell.status, cell.note = "missing", f"{type(e).__name__}: {e}"
        except Exception as e:
            cell.seconds = None
            cell.status, cell.note = "error", f"{type(e).__name__}: {e}"
    return row


def import_row(libs: list[Lib], settings: Settings) -> Row:
    row = Row("import", "ms", 0.0)
    site = os.environ.get(TORCH_SITE_ENV)
    for lib in libs:
        prefix = f"import sys; sys.path.append({site!r}); " if lib.name == "torch" and site else ""
        try:
            t = import_time(f"{prefix}import {lib.name}", prefix + "pass", settings.import_runs)
            row.cells[lib.name] = Cell(t)
        except Exception as e:
            row.cells[lib.name] = Cell(None, "error", f"{type(e).__name__}: {e}")
    return row


def dataloader_rows(libs: list[Lib], names: list[str], quick: bool) -> list[Row]:
    """DataLoader rows (benchmarks/dataloader.py): each library in fresh subprocesses."""
    measured = dl.compare([lib.name for lib in libs if lib.name != "numpy"], quick, names)
    rows = []
    for name, by_lib in measured.items():
        row = Row(name, "samples/s" if "epoch" in name else "s", 0.0)
        for lib in libs:
            seconds, note = by_lib.get(lib.name, (None, ""))
            row.cells[lib.name] = Cell(seconds, "error" if seconds is None and note else "", note)
        rows.append(row)
    return rows


def ratio(row: Row, a: str, b: str) -> str:
    ca, cb = row.cells.get(a), row.cells.get(b)
    if ca is None or cb is None or ca.seconds is None or cb.seconds is None or cb.seconds == 0:
        return "-"
    return f"{ca.seconds / cb.seconds:.2f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="run workloads whose name contains NAME (repeatable); "
        "'import' selects the import-time row",
    )
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter budgets")
    parser.add_argument("--no-ember", action="store_true", help="benchmark only numpy and torch")
    parser.add_argument("--no-torch", action="store_true", help="do not import torch")
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads for every library (sets OMP/OPENBLAS env before imports "
        "and calls set_num_threads)",
    )
    parser.add_argument("--list", action="store_true", help="list workload names and exit")
    args = parser.parse_args(argv)

    all_workloads = workloads()
    if args.list:
        for w in all_workloads:
            print(f"{w.name:16} {w.description}")
        print(f"{'import':16} import time (subprocess, minus bare interpreter start)")
        for name, what in dl.ROWS.items():
            print(f"{name:16} {what}")
        return 0

    if args.threads is not None:  # before numpy/torch/ember load their thread pools
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(args.threads)

    np = importlib.import_module("numpy")
    libs = [Lib("numpy", np, np)]
    if not args.no_torch:
        torch, why = load_torch()
        if torch is not None:
            libs.append(Lib("torch", torch, np))
        else:
            print(f"torch: not importable ({why}); set {TORCH_SITE_ENV} to use it")
    if not args.no_ember:
        try:
            libs.append(Lib("ember", importlib.import_module("ember"), np))
        except Exception as e:
            print(f"ember: not importable ({type(e).__name__}: {e})")
    if args.threads is not None:
        for lib in libs:
            setter = getattr(lib.mod, "set_num_threads", None)
            if setter is not None and lib.name != "numpy":
                setter(args.threads)

    settings = Settings.make(args.quick)
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {'quick' if args.quick else 'full'} mode"
    )
    for lib in libs:
        version = getattr(lib.mod, "__version__", "?")
        print(f"  {lib.name:6} {version:14} threads: {lib.num_threads()}")
    print("cells: median time per call (throughput)")
    print("ratios a/b: a's time / b's time (below 1.00x: a is faster)")
    print()

    def selected(name: str) -> bool:
        return not args.only or any(o in name for o in args.only)

    rows: list[Row] = []
    for w in all_workloads:
        if selected(w.name):
            print(f"  running {w.name} ...", flush=True)
            rows.append(run_workload(w, libs, settings, np))
    if selected("import"):
        print("  running import ...", flush=True)
        rows.append(import_row(libs, settings))
    if loader_rows := [name for name in dl.ROWS if selected(name)]:
        print(f"  running {', '.join(loader_rows)} (fresh processes) ...", flush=True)
        rows += dataloader_rows(libs, loader_rows, args.quick)

    names = [lib.name for lib in libs]
    if "ember" in names:
        pairs = [("ember", other) for other in ("torch", "numpy") if other in names]
    else:  # --no-ember: compare torch with numpy so the table still has ratios
        pairs = [("torch", "numpy")] if "torch" in names else []
    header = ["workload", *names, *(f"{a}/{b}" for a, b in pairs)]
    table = [
        [
            r.name,
            *(r.cells[n].text(r.unit, r.work) for n in names),
            *(ratio(r, a, b) for a, b in pairs),
        ]
        for r in rows
    ]
    print()
    print_table(header, table)
    notes = [
        f"  {r.name} [{n}] {c.status + ': ' if c.status else ''}{c.note}"
        for r in rows
        for n, c in r.cells.items()
        if c.note
    ]
    if notes:
        print("\nnotes:")
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())

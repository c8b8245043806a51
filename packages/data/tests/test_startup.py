"""What a DataLoader worker imports and runs with, and the lazily loaded names of ember.utils.data.

A worker started with ``spawn`` is a fresh interpreter: every module it imports is start-up time
before its first batch. It needs the worker loop, collate and the dataset's own module, never the
DataLoader, the samplers, DistributedSampler, ember.multiprocessing.spawn or ember.nn. Workers run
one intra-op thread each, as torch's do.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import ember_data_helpers as helpers
import pytest

import ember.utils.data as data

MAIN_PROCESS_ONLY = {
    "ember.utils.data.dataloader",
    "ember.utils.data.sampler",
    "ember.utils.data.distributed",
    "ember.utils.data._multiprocess_iter",
    "ember.multiprocessing._spawn",
    "ember.nn",
}


@pytest.mark.parametrize("kind", ["python", "tensor"])
def test_spawned_worker_imports_only_what_it_needs(kind: str) -> None:
    import ember

    if kind == "python":
        dataset: object = helpers.ModulesSeen()
    else:  # a TensorDataset of a tensor, with the module list fetched as collate_fn's result
        dataset = data.TensorDataset(ember.arange(2.0))
    loader = data.DataLoader(
        dataset,  # type: ignore[arg-type]
        batch_size=None if kind == "python" else 1,
        num_workers=1,
        multiprocessing_context="spawn",
        collate_fn=None if kind == "python" else helpers.ModulesSeen().__getitem__,
    )
    seen = set(next(iter(loader)).split(","))
    # a real listing from the worker: it holds the worker loop, the reductions, the dataset
    assert {"ember", "ember.utils.data.worker", "ember.multiprocessing._reductions"} <= seen
    if kind == "tensor":
        assert "ember.utils.data.dataset" in seen
    assert not (seen & MAIN_PROCESS_ONLY), seen & MAIN_PROCESS_ONLY
    assert "numpy" not in seen  # numpy is imported only when the dataset uses it


def test_every_public_name_resolves_to_its_defining_module() -> None:
    homes = {
        "DataLoader": "dataloader",
        "TensorDataset": "dataset",
        "random_split": "dataset",
        "BatchSampler": "sampler",
        "DistributedSampler": "distributed",
        "default_collate": "collate",
        "get_worker_info": "worker",
        "WorkerInfo": "worker",
    }
    for name, home in homes.items():
        module = importlib.import_module(f"ember.utils.data.{home}")
        assert getattr(data, name) is getattr(module, name)
    for name in data.__all__:
        assert getattr(data, name).__module__.startswith("ember.utils.data.")
        assert name in dir(data)
    namespace: dict[str, object] = {}
    exec("from ember.utils.data import *", namespace)
    assert set(data.__all__) <= set(namespace)


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"ember.utils.data.*no attribute 'Dataloader'"):
        data.Dataloader  # noqa: B018
    with pytest.raises(ImportError):
        exec("from ember.utils.data import Dataloader", {})


def test_importing_the_package_loads_no_submodule() -> None:
    code = (
        "import sys, ember.utils.data\n"
        "print(sorted(m for m in sys.modules if m.startswith('ember.utils.data')))\n"
        "from ember.utils.data import DataLoader\n"
        "print('ember.utils.data.dataloader' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "['ember.utils.data']" and out[1] == "True"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_run_one_intra_op_thread(method: str) -> None:
    import ember

    before = ember.get_num_threads()
    ember.set_num_threads(2)
    try:
        loader = data.DataLoader(
            helpers.ThreadsSeen(), batch_size=None, num_workers=2, multiprocessing_context=method
        )
        assert [int(n) for n in loader] == [1, 1, 1, 1]  # as torch's workers
        assert ember.get_num_threads() == 2  # the main process keeps its own
    finally:
        ember.set_num_threads(before)

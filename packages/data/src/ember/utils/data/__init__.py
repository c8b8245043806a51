"""Datasets, samplers, collation and DataLoader with PyTorch's API (``ember.utils.data``).

The names are loaded on first use (PEP 562): a DataLoader worker started with ``spawn`` imports
only the modules its dataset and collate function need (worker, collate, and the dataset's own
module), not the DataLoader, the samplers or DistributedSampler, which only the main process uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ember.utils.data.collate import default_collate, default_convert
    from ember.utils.data.dataloader import DataLoader
    from ember.utils.data.dataset import (
        ChainDataset,
        ConcatDataset,
        Dataset,
        IterableDataset,
        StackDataset,
        Subset,
        TensorDataset,
        random_split,
    )
    from ember.utils.data.distributed import DistributedSampler
    from ember.utils.data.sampler import (
        BatchSampler,
        RandomSampler,
        Sampler,
        SequentialSampler,
        SubsetRandomSampler,
        WeightedRandomSampler,
    )
    from ember.utils.data.worker import WorkerInfo, get_worker_info

# public name -> the submodule that defines it
_HOME = {
    "BatchSampler": "sampler",
    "ChainDataset": "dataset",
    "ConcatDataset": "dataset",
    "DataLoader": "dataloader",
    "Dataset": "dataset",
    "DistributedSampler": "distributed",
    "IterableDataset": "dataset",
    "RandomSampler": "sampler",
    "Sampler": "sampler",
    "SequentialSampler": "sampler",
    "StackDataset": "dataset",
    "Subset": "dataset",
    "SubsetRandomSampler": "sampler",
    "TensorDataset": "dataset",
    "WeightedRandomSampler": "sampler",
    "WorkerInfo": "worker",
    "default_collate": "collate",
    "default_convert": "collate",
    "get_worker_info": "worker",
    "random_split": "dataset",
}

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "DistributedSampler",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "WorkerInfo",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'ember.utils.data' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"ember.utils.data.{home}"), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

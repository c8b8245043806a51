"""The content of data/torch_state_dict.pt, as a function of the tensor library (torch or ember).

Every value is a closed form (aranges scaled by powers of two), so the loaded file can be
compared with numpy exactly. Regenerate the file, with torch 2.13 installed, by running
``python packages/tensor/tests/torch_fixture.py packages/tensor/tests/data/torch_state_dict.pt``
(and ``... --legacy packages/tensor/tests/data/torch_legacy_state_dict.pt`` for the legacy
non-zip format).
"""

from __future__ import annotations

import collections
import sys
from typing import Any


def build(lib: Any) -> dict[str, Any]:
    """The checkpoint: a state dict of every dtype, views and strides, and plain values."""
    weight = lib.arange(12.0).reshape(3, 4) / 8
    sd = collections.OrderedDict()
    sd["fc.weight"] = weight
    sd["fc.bias"] = (lib.arange(3, dtype=lib.float64) - 1) * 0.25
    sd["fc.row"] = weight[1]  # a view of fc.weight's storage
    sd["emb.t"] = lib.arange(6, dtype=lib.int32).reshape(2, 3).t()  # non-contiguous
    sd["bn.mean16"] = lib.arange(4, dtype=lib.float16) / 4
    sd["bn.bf16"] = lib.tensor([1.5, -2.0], dtype=lib.bfloat16)
    sd["bn.num_batches_tracked"] = lib.tensor(7)
    sd["z"] = lib.tensor([1 + 2j, -0.5j], dtype=lib.complex64)
    sd["z128"] = lib.tensor([3 - 1j], dtype=lib.complex128)
    sd["mask"] = lib.tensor([True, False, True])
    sd["u8"] = lib.tensor([0, 255], dtype=lib.uint8)
    sd["i8"] = lib.tensor([-128, 127], dtype=lib.int8)
    sd["i16"] = lib.tensor([-3, 3], dtype=lib.int16)
    sd["empty"] = lib.zeros(0, 3)
    return {
        "state_dict": sd,
        "epoch": 3,
        "lr": 0.1,
        "name": "run",
        "history": [1, (2.5, None)],
        "big": 2**70,
        "flags": {"amp": True, 4: "four"},
        "size": lib.Size([2, 3]),
        "dtype": lib.float16,
    }


if __name__ == "__main__":
    import torch

    # --legacy: torch's non-zip format (data/torch_legacy_state_dict.pt)
    legacy = "--legacy" in sys.argv
    path = next(a for a in sys.argv[1:] if a != "--legacy")
    torch.save(build(torch), path, _use_new_zipfile_serialization=not legacy)

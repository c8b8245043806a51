"""Every public torch.nn name is either in ember.nn or listed as missing with a reason."""

from __future__ import annotations

from pathlib import Path

import ember.nn as nn
from ember.nn._missing_names import MISSING

NAMES = Path(__file__).with_name("data").joinpath("torch_nn_names.txt").read_text().split()


def test_every_torch_nn_name_is_implemented_or_listed() -> None:
    unaccounted = [n for n in NAMES if not hasattr(nn, n) and n not in MISSING]
    assert unaccounted == [], (
        f"implement these or list them in ember/nn/_missing_names.py: {unaccounted}"
    )


def test_missing_list_is_current() -> None:
    stale = [n for n in MISSING if hasattr(nn, n)]
    assert stale == [], f"implemented now: remove from ember/nn/_missing_names.py: {stale}"
    unknown = [n for n in MISSING if n not in NAMES]
    assert unknown == [], f"not torch.nn names: {unknown}"
    assert all(reason.strip() for reason in MISSING.values())

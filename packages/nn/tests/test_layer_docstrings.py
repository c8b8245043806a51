"""The docstring examples of the activation, loss, dropout, embedding, normalization and
distance layers (functions and modules) run and print what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

import ember
import ember.nn as nn
import ember.nn.functional as F

MODULES = [
    f"ember.nn.{family}.{name}"
    for family, names in (
        (
            "_functional",
            [
                "activation",
                "loss",
                "loss_margin",
                "loss_ctc",
                "dropout",
                "sparse",
                "normalization",
                "distance",
            ],
        ),
        (
            "modules",
            [
                "activation",
                "loss",
                "dropout",
                "sparse",
                "normalization",
                "batchnorm",
                "instancenorm",
                "distance",
            ],
        ),
    )
    for name in names
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    ember.manual_seed(0)
    for test in finder.find(module, name, globs={"ember": ember, "nn": nn, "F": F}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"

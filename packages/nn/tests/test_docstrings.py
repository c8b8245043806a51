"""The examples in the docstrings of ember.nn's core modules run and print what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

import ember

MODULES = [
    "ember.nn.parameter",
    "ember.nn.init",
    "ember.nn._factory",
    "ember.nn._functional.linear",
    "ember.nn.modules.module",
    "ember.nn.modules._call",
    "ember.nn.modules._global_hooks",
    "ember.nn.modules._hooks",
    "ember.nn.modules._state_dict",
    "ember.nn.modules.container",
    "ember.nn.modules.linear",
    "ember.nn.modules.lazy",
    "ember.nn.modules.flatten",
    "ember.nn.utils.clip_grad",
    "ember.nn.utils.convert_parameters",
    "ember.nn.utils.parametrize",
    "ember.nn.utils.parametrizations",
    "ember.nn.utils.stateless",
    "ember.nn.utils.fusion",
    "ember.nn.utils.weight_norm",
    "ember.nn.utils.init",
    "ember.utils.checkpoint",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in finder.find(module, name, globs={"ember": ember}):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"

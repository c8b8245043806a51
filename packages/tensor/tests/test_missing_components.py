"""Importing an ember component whose distribution is not installed names what to install."""

from __future__ import annotations

import importlib
import importlib.metadata
import subprocess
import sys

import pytest

from ember._missing import DISTRIBUTIONS


def installed(distribution: str) -> bool:
    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.parametrize(("module", "distribution"), DISTRIBUTIONS.items())
def test_missing_component_names_its_distribution(module: str, distribution: str) -> None:
    if installed(distribution):
        pytest.skip(f"{distribution} is installed here")
    # A fresh interpreter: this process may have tried the import already.
    code = f"import ember\ntry:\n    import {module}\nexcept ModuleNotFoundError as e:\n print(e)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith(f"No module named '{module.split('.')[0]}.")
    assert f"pip install {distribution}" in out.stdout


def test_unknown_modules_keep_the_plain_error() -> None:
    with pytest.raises(ModuleNotFoundError, match=r"^No module named 'ember.no_such_thing'$"):
        importlib.import_module("ember.no_such_thing")

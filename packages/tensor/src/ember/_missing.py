"""Friendly errors for ember components that are not installed (`import ember.nn` without ember-nn).

A finder placed last on ``sys.meta_path`` sees an ``ember.<component>`` import only after every
real finder missed it, and raises ModuleNotFoundError naming the distribution to install.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

# Subpackage of `ember` -> the distribution that ships it.
DISTRIBUTIONS = {
    "ember.autograd": "ember-autograd",
    "ember.nn": "ember-nn",
    "ember.optim": "ember-nn",
    "ember.jit": "ember-jit",
    "ember.multiprocessing": "ember-multiprocessing",
    "ember.utils": "ember-data",  # a PEP 420 folder: only ember-data ships it so far
    "ember.utils.data": "ember-data",
}


class MissingComponentFinder:
    """Raises a ModuleNotFoundError that names the distribution of a missing ember component."""

    # A plain meta path finder (sys.meta_path needs only find_spec): importlib.abc would pull
    # importlib.resources into every `import ember` (~7 ms on Python 3.11).

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        distribution = DISTRIBUTIONS.get(fullname)
        if distribution is None:
            return None
        hint = f"pip install {distribution}, or all of ember: pip install ember"
        raise ModuleNotFoundError(
            f"No module named {fullname!r}: it comes with the {distribution} distribution, "
            f"which is not installed ({hint})",
            name=fullname,
        )


def install() -> None:
    """Appends the finder once (last, so installed components are always found first)."""
    if not any(isinstance(f, MissingComponentFinder) for f in sys.meta_path):
        sys.meta_path.append(MissingComponentFinder())

"""``ember.nn.functional``: the functions behind the modules (torch.nn.functional).

Each family lives in ``ember/nn/_functional/<family>.py``; this file only re-exports them.
"""

# ruff: noqa: F401 - re-exports

# linear, bilinear (branch nn-module)
from ember.nn._functional.linear import bilinear, linear

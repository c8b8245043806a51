"""Settings every package's tests share (the release check copies this file next to the tests
it runs from wheels, so wheel-only runs get the same profile).

Hypothesis: no deadline (a deadline is a timing assertion, and CI machines are loaded); CI sets
EMBER_HYPOTHESIS_DERANDOMIZE=1 so a landing never depends on which examples were drawn, while
local runs keep exploring (pin a failure found locally with ``@example``).

Torch as a differential oracle: EMBER_TEST_TORCH_SITE names the site-packages of a separate
environment holding PyTorch (ci/torch_differential.sh makes one); it is appended to sys.path, so
ember's own environment wins every shared package, and torch must then import.
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ember",
    max_examples=int(os.environ.get("EMBER_HYPOTHESIS_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("EMBER_HYPOTHESIS_DERANDOMIZE") == "1",
)
settings.load_profile("ember")

_torch_site = os.environ.get("EMBER_TEST_TORCH_SITE")
if _torch_site:
    sys.path.append(_torch_site)
    import torch  # noqa: F401  (fails the run when the named environment has no torch)

"""Settings every package's tests share (the release check copies this file next to the tests
it runs from wheels, so wheel-only runs get the same profile).

Hypothesis: no deadline (a deadline is a timing assertion, and CI machines are loaded); CI sets
EMBER_HYPOTHESIS_DERANDOMIZE=1 so a landing never depends on which examples were drawn, while
local runs keep exploring (pin a failure found locally with ``@example``).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ember",
    max_examples=int(os.environ.get("EMBER_HYPOTHESIS_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=os.environ.get("EMBER_HYPOTHESIS_DERANDOMIZE") == "1",
)
settings.load_profile("ember")

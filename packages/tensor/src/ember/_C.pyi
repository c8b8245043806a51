from ember_core._C import *  # noqa: F403

"""ember-tensor alone: no autograd installed means no recording and clear messages.

The check runs in a subprocess whose import system hides ember.autograd, so it holds whether or
not ember-autograd is installed in the test environment.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys

    class HideAutograd:
        def find_spec(self, name, path=None, target=None):
            if name == "ember.autograd" or name.startswith("ember.autograd."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, HideAutograd())
    import ember

    assert "ember.autograd" not in sys.modules
    assert not ember._C._has_grad_recorder()
    x = ember.ones(3)
    assert x.grad is None and x.grad_fn is None and x.is_leaf and not x.requires_grad
    for call in (
        lambda: ember.zeros(2, requires_grad=True),
        lambda: ember.tensor([1.0], requires_grad=True),
        lambda: x.requires_grad_(),
        lambda: x.backward(),
        lambda: x.new_zeros(2, requires_grad=True),
    ):
        try:
            call()
        except RuntimeError as error:
            assert "ember-autograd" in str(error), error
        else:
            raise AssertionError("requires_grad=True did not raise")
    with ember.no_grad():
        assert not ember.is_grad_enabled()
    assert (x * 2).sum().item() == 6.0
    print("ok")
    """
)


def test_requires_grad_without_autograd_names_the_distribution() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"

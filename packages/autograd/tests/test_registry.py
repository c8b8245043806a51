"""The derivative tables load on the first op that would record, and nothing else changes.

Each case runs in a fresh interpreter: in this process the tables are loaded already.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from ember.autograd import _record, _registry


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_first_op_on_a_grad_tensor_loads_the_tables_and_records() -> None:
    out = _run(
        """
        import sys, ember
        x = ember.tensor([1.0, 2.0, 3.0], requires_grad=True)
        print("ember.autograd.derivatives" in sys.modules)
        y = (x * x).sum()
        print("ember.autograd.derivatives" in sys.modules, y.grad_fn.name())
        y.backward()
        print(x.grad.tolist())
        """
    )
    # ember.tensor(requires_grad=True) is a factory call: the first recorded op loads them.
    assert out.splitlines() == ["True", "True SumBackward0", "[2.0, 4.0, 6.0]"]


def test_first_call_not_differentiable_runs_plainly() -> None:
    # The first op reaching the recorder has no gradient (argmax, the method is_conj, eq): it
    # runs down the plain dispatch path and returns what it returns without ember.autograd.
    out = _run(
        """
        import sys, ember
        x = ember.tensor([1.0, 3.0, 2.0])
        x.requires_grad_()
        print("ember.autograd.derivatives" in sys.modules)
        print(ember.argmax(x).item(), "ember.autograd.derivatives" in sys.modules)
        c = ember.tensor([1 + 2j, 3j]).conj()
        c.requires_grad_()
        print(c.is_conj(), ember.eq(x, x).tolist(), (x * 2).grad_fn.name())
        """
    )
    assert out.splitlines() == ["False", "1 True", "True [True, True, True] MulBackward0"]


def test_first_call_a_method_with_an_error_names_the_op() -> None:
    out = _run(
        """
        import ember
        x = ember.ones(2, 3).requires_grad_()
        try:
            x.argmax(dim=5)
        except IndexError as error:
            print(type(error).__name__, "argmax" in str(error) or "dim" in str(error))
        """
    )
    assert out == "IndexError True"


def test_loaded_registration_is_the_classification() -> None:
    _registry.load()
    expected = {n for n in _registry.dispatch_names() if _registry.classify(n) != "none"}
    assert expected == _registry._RECORDED
    assert _registry.load() is _registry.load()  # loads once
    assert {n for n in expected if _registry.classify(n) == "missing"} == _record.MISSING

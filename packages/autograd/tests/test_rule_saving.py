"""What derivative rules save for backward, as inferred from the names their formulas read.

The registry gives each rule its parameters; the formulas decide what is kept alive until
backward. These cases pin the inference down, so a formula edit that starts saving a whole
tensor where a shape was enough shows up here.
"""

from __future__ import annotations

import pytest

from ember.autograd.derivatives import all_rules

RULES = all_rules()


def saved(name: str) -> tuple[list[str], list[str], bool]:
    rule = RULES[name]
    names = [p.name for p in rule.params]
    return (
        [names[i] for i in rule.saved_params],
        [names[i] for i in rule.shape_params],
        rule.saves_result,
    )


@pytest.mark.parametrize(
    ("op", "tensors", "shapes", "result"),
    [
        ("sum", ["dim", "keepdim"], ["input"], False),  # only the input's shape
        ("mul", ["input", "other"], [], False),  # each gradient needs the other factor
        ("exp", [], [], True),  # d exp(x) = exp(x): the output is enough
        ("neg", [], [], False),  # nothing at all
        ("matmul", ["input", "other"], [], False),
    ],
)
def test_rules_save_only_what_their_formulas_read(
    op: str, tensors: list[str], shapes: list[str], result: bool
) -> None:
    assert saved(op) == (tensors, shapes, result)

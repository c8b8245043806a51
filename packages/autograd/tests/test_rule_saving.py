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


def test_every_rule_resolves_its_parameters() -> None:
    # Rules bind their formulas to their parameters on first use (import ember stays fast), so a
    # formula naming an unknown parameter would only fail when recorded: resolve them all here.
    for name, rule in RULES.items():
        assert rule.params is not None, name
        assert all(0 <= i < len(rule.params) for i, _ in rule.formulas), name


def test_a_formula_for_an_unknown_parameter_fails_on_first_use() -> None:
    from ember.autograd._rule import Rule

    rule = Rule("input", other=lambda g, a: g).named("bogus")
    with pytest.raises(ValueError, match=r"formulas for unknown parameters \['other'\]"):
        _ = rule.formulas

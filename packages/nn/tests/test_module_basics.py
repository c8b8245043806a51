"""Smoke tests of the Module core: registration, forward, backward, state_dict round trip."""

import numpy as np

import ember
import ember.nn as nn


def test_sequential_forward_backward_and_state_dict():
    model = nn.Sequential(nn.Linear(3, 4), nn.Flatten(), nn.Linear(4, 2))
    x = ember.randn(5, 3)
    y = model(x)
    w0, b0 = model[0].weight.detach().numpy(), model[0].bias.detach().numpy()
    w2, b2 = model[2].weight.detach().numpy(), model[2].bias.detach().numpy()
    expected = (x.numpy() @ w0.T + b0) @ w2.T + b2
    np.testing.assert_allclose(y.detach().numpy(), expected, rtol=1e-5, atol=1e-6)
    y.sum().backward()
    assert model[0].weight.grad.shape == (4, 3)
    assert list(model.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    other = nn.Sequential(nn.Linear(3, 4), nn.Flatten(), nn.Linear(4, 2))
    assert repr(other.load_state_dict(model.state_dict())) == "<All keys matched successfully>"
    np.testing.assert_array_equal(other(x).detach().numpy(), y.detach().numpy())


def test_parameter_repr_and_identity():
    p = nn.Parameter(ember.ones(2))
    assert repr(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert isinstance(p, ember.Tensor) and p.requires_grad and p.is_leaf
    assert type(p * 2) is ember.Tensor

"""Wrong argument types meet a typed error that names the function or layer and the argument.

The classes of check (ember/nn/_functional/_checks.py): the functional layer, the layers' bases
(norms, recurrent, transposed conv, the transformer stacks), the losses, nn.utils, nn.init, the
Module path lookups and the optimizer base. Each case asserts the exception type torch users
catch and the words of the message: the callable, the argument, the type that was given.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
import ember.nn.functional as F
from ember import nn, optim


def _x() -> ember.Tensor:
    return ember.rand(2, 3)


def _p() -> ember.Tensor:
    return ember.zeros(3, requires_grad=True)


# (id, call, exception type, words the message must hold)
CASES: list[tuple[str, Callable[[], Any], type[BaseException], tuple[str, ...]]] = [
    # functional layer
    ("linear", lambda: F.linear("a", _x()), TypeError, ("linear()", "'input'", "str")),
    ("linear bias", lambda: F.linear(_x(), _x(), 3), TypeError, ("linear()", "'bias'", "int")),
    ("dropout", lambda: F.dropout(None), TypeError, ("dropout()", "'input'", "NoneType")),
    ("dropout2d", lambda: F.dropout2d([1.0]), TypeError, ("dropout2d()", "'input'", "list")),
    ("alpha_dropout", lambda: F.alpha_dropout(b"x"), TypeError, ("alpha_dropout()", "bytes")),
    ("mse target", lambda: F.mse_loss(_x(), 3.0), TypeError, ("mse_loss()", "'target'", "float")),
    ("l1 weight", lambda: F.l1_loss(_x(), _x(), weight=2), TypeError, ("l1_loss()", "'weight'")),
    (
        "cross_entropy target",
        lambda: F.cross_entropy(_x(), [1, 0]),
        TypeError,
        ("cross_entropy()", "'target'", "list"),
    ),
    ("nll_loss", lambda: F.nll_loss({}, _x()), TypeError, ("nll_loss()", "'input'", "dict")),
    (
        "bce_with_logits pos_weight",
        lambda: F.binary_cross_entropy_with_logits(_x(), _x(), pos_weight=1.5),
        TypeError,
        ("binary_cross_entropy_with_logits()", "'pos_weight'", "float"),
    ),
    (
        "gaussian_nll var",
        lambda: F.gaussian_nll_loss(_x(), _x(), "a"),
        TypeError,
        ("gaussian_nll_loss()", "'var'", "str"),
    ),
    (
        "triplet",
        lambda: F.triplet_margin_loss(_x(), _x(), None),
        TypeError,
        ("triplet_margin_loss()", "'negative'", "NoneType"),
    ),
    (
        "ctc_loss",
        lambda: F.ctc_loss(1.5, _x(), [1], [1]),
        TypeError,
        ("ctc_loss()", "'log_probs'", "float"),
    ),
    (
        "batch_norm running_mean",
        lambda: F.batch_norm(_x(), "a", None),
        TypeError,
        ("batch_norm()", "'running_mean'", "str"),
    ),
    ("layer_norm", lambda: F.layer_norm(True, [3]), TypeError, ("layer_norm()", "bool")),
    ("group_norm", lambda: F.group_norm(1 + 2j, 1), TypeError, ("group_norm()", "complex")),
    ("normalize out", lambda: F.normalize(_x(), out=3), TypeError, ("normalize()", "'out'")),
    ("lp_pool2d", lambda: F.lp_pool2d("a", 2, 2), TypeError, ("lp_pool2d()", "'input'", "str")),
    (
        "lp_pool1d norm_type 0",
        lambda: F.lp_pool1d(ember.ones(1, 1, 4), 0, 2),
        ValueError,
        ("lp_pool1d", "norm_type"),
    ),
    ("pixel_shuffle", lambda: F.pixel_shuffle(b"x", 2), TypeError, ("pixel_shuffle()", "bytes")),
    ("grid_sample", lambda: F.grid_sample(_x(), [0.0]), TypeError, ("grid_sample()", "'grid'")),
    ("cosine_similarity", lambda: F.cosine_similarity(_x(), 1), TypeError, ("'x2'", "int")),
    ("pdist", lambda: F.pdist(object()), TypeError, ("pdist()", "object")),
    (
        "embedding weight",
        lambda: F.embedding(ember.tensor([0]), [[1.0]]),
        TypeError,
        ("embedding()", "'weight'", "list"),
    ),
    (
        "multi_head_attention_forward query",
        lambda: F.multi_head_attention_forward(
            None, _x(), _x(), 3, 1, None, None, None, None, False, 0.0, _x(), None
        ),
        TypeError,
        ("multi_head_attention_forward()", "'query'", "NoneType"),
    ),
    (
        "multi_head_attention_forward 1-D query",
        lambda: F.multi_head_attention_forward(
            *[ember.ones(3)] * 3, 3, 1, None, None, None, None, False, 0.0, ember.ones(3, 3), None
        ),
        ValueError,
        ("query should be unbatched 2D or batched 3D", "1-D"),
    ),
    # layers: the checks sit in forward (or the lazy initializer), not in Module.__call__
    ("ReLU", lambda: nn.ReLU()("a"), TypeError, ("relu()", "'input'", "str")),
    (
        "Linear",
        lambda: nn.Linear(3, 4)(None),
        TypeError,
        ("[Linear(in_features=3, out_features=4, bias=True)]", "Linear.forward()", "NoneType"),
    ),
    ("Bilinear", lambda: nn.Bilinear(2, 2, 1)(_x(), 3), TypeError, ("'input2'", "int")),
    ("LazyLinear", lambda: nn.LazyLinear(4)("a"), TypeError, ("LazyLinear.forward()", "str")),
    ("BatchNorm1d", lambda: nn.BatchNorm1d(3)("a"), TypeError, ("BatchNorm1d", "'input'")),
    ("LazyBatchNorm2d", lambda: nn.LazyBatchNorm2d()(7), TypeError, ("LazyBatchNorm2d", "int")),
    ("InstanceNorm1d", lambda: nn.InstanceNorm1d(3)([]), TypeError, ("InstanceNorm1d", "list")),
    ("LayerNorm", lambda: nn.LayerNorm(3)({}), TypeError, ("layer_norm()", "dict")),
    ("Dropout", lambda: nn.Dropout()(None), TypeError, ("dropout()", "NoneType")),
    ("Flatten", lambda: nn.Flatten()(1.5), TypeError, ("Flatten.forward()", "float")),
    ("MSELoss", lambda: nn.MSELoss()(_x(), 3), TypeError, ("mse_loss()", "'target'", "int")),
    ("LSTM", lambda: nn.LSTM(3, 4)([1.0]), TypeError, ("LSTM.forward()", "'input'", "list")),
    ("GRU h_0", lambda: nn.GRU(3, 4)(ember.rand(2, 1, 3), "h"), TypeError, ("'h_0'", "str")),
    (
        "GRUCell hx",
        lambda: nn.GRUCell(3, 4)(_x(), "h"),
        TypeError,
        ("GRUCell.forward()", "'hx'", "str"),
    ),
    ("ConvTranspose2d", lambda: nn.ConvTranspose2d(1, 1, 2)("a"), TypeError, ("ConvTranspose2d",)),
    (
        "MultiheadAttention key",
        lambda: nn.MultiheadAttention(3, 1)(ember.rand(2, 3), None, ember.rand(2, 3)),
        TypeError,
        ("MultiheadAttention.forward()", "'key'", "NoneType"),
    ),
    (
        "TransformerEncoderLayer mask",
        lambda: nn.TransformerEncoderLayer(4, 2, 8)(ember.rand(2, 4), src_mask=[1]),
        TypeError,
        ("'src_mask'", "list"),
    ),
    (
        "TransformerEncoder layer",
        lambda: nn.TransformerEncoder(ember.rand(2, 3), 2**62),
        TypeError,
        ("TransformerEncoder()", "'layer'", "Tensor"),
    ),
    # torch asserts these; ember's error is a ValueError that is an AssertionError too
    ("Embedding padding_idx", lambda: nn.Embedding(3, 4, padding_idx=9), ValueError, ("Padding",)),
    ("EmbeddingBag padding_idx", lambda: nn.EmbeddingBag(3, 4, padding_idx=-9), ValueError, ()),
    ("Hardtanh bounds", lambda: nn.Hardtanh(1.0, 0.5), ValueError, ("max_val", "min_val")),
    ("MultiheadAttention heads", lambda: nn.MultiheadAttention(3, 2), ValueError, ("divisible",)),
    ("Transformer heads", lambda: nn.Transformer(d_model=3, nhead=2), ValueError, ("divisible",)),
    # Module and containers
    (
        "get_submodule target",
        lambda: nn.Linear(2, 2).get_submodule(3),
        TypeError,
        ("get_submodule()", "'target'", "int"),
    ),
    ("get_buffer target", lambda: nn.Linear(2, 2).get_buffer(None), TypeError, ("get_buffer()",)),
    (
        "named_modules memo",
        lambda: list(nn.Linear(2, 2).named_modules(memo=[])),
        TypeError,
        ("named_modules()", "'memo'", "list"),
    ),
    ("Module.type None", lambda: nn.Linear(2, 2).type(None), TypeError, ("must return a Tensor",)),
    ("GroupNorm 0 groups", lambda: nn.GroupNorm(0, 3), ValueError, ("num_groups", "positive")),
    ("ParameterDict missing key", lambda: nn.ParameterDict()["x"], KeyError, ("'x'",)),
    ("ParameterDict attribute name", lambda: nn.ParameterDict()["training"], KeyError, ()),
    ("factory_kwargs", lambda: nn.factory_kwargs(3), TypeError, ("factory_kwargs()", "int")),
    ("LazyModuleMixin alone", lambda: nn.LazyModuleMixin(), TypeError, ("mixin",)),
    # nn.init and nn.utils
    (
        "kaiming mode",
        lambda: nn.init.kaiming_normal_(ember.ones(2, 2), mode=3),
        TypeError,
        ("mode", "int"),
    ),
    (
        "clip_grad_norm_ element",
        lambda: nn.utils.clip_grad_norm_([_p(), 3], 1.0),
        TypeError,
        ("clip_grad_norm_()", "'parameters'", "element 1", "int"),
    ),
    ("clip_grad_value_", lambda: nn.utils.clip_grad_value_(5, 1.0), TypeError, ("'parameters'",)),
    (
        "parameters_to_vector",
        lambda: nn.utils.parameters_to_vector(["a"]),
        TypeError,
        ("parameters_to_vector()", "str"),
    ),
    ("weight_norm", lambda: nn.utils.weight_norm("a"), TypeError, ("weight_norm()", "'module'")),
    (
        "fuse_conv_bn_eval",
        lambda: nn.utils.fuse_conv_bn_eval(3, nn.BatchNorm2d(1)),
        TypeError,
        ("fuse_conv_bn_eval()", "'conv'", "int"),
    ),
    (
        "fuse_conv_bn_eval training",
        lambda: nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), nn.BatchNorm2d(1)),
        ValueError,
        ("eval",),
    ),
    (
        "fuse_linear_bn_weights",
        lambda: nn.utils.fuse_linear_bn_weights(_x(), None, None, _x(), 1e-5, _x(), _x()),
        TypeError,
        ("fuse_linear_bn_weights()", "'bn_rm'", "NoneType"),
    ),
    # the optimizer base
    ("SGD lr str", lambda: optim.SGD([_p()], lr="x"), TypeError, ("Invalid learning rate", "'x'")),
    ("SGD lr -1", lambda: optim.SGD([_p()], lr=-1), ValueError, ("Invalid learning rate: -1",)),
    ("SGD params int", lambda: optim.SGD(3, lr=0.1), TypeError, ("int",)),
    ("Adam param str", lambda: optim.Adam(["a"]), TypeError, ("optimize Tensors", "str")),
    ("Optimizer defaults", lambda: optim.Optimizer([_p()], 1), TypeError, ("'defaults'", "int")),
    (
        "load_state_dict",
        lambda: optim.SGD([_p()], lr=0.1).load_state_dict(None),
        TypeError,
        ("load_state_dict()", "'state_dict'", "NoneType"),
    ),
]


@pytest.mark.parametrize(
    ("call", "exc", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_argument_types_raise_typed_errors_naming_the_argument(
    call: Callable[[], Any], exc: type[BaseException], words: tuple[str, ...]
) -> None:
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)


@pytest.mark.parametrize(
    "call",
    [
        lambda: nn.Embedding(3, 4, padding_idx=9),
        lambda: nn.MultiheadAttention(3, 2),
        lambda: nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), nn.BatchNorm2d(1)),
    ],
)
def test_torch_asserted_checks_stay_catchable_as_assertion_error(call: Callable[[], Any]) -> None:
    # Code written against torch catches AssertionError; ember's ValueError is one too.
    with pytest.raises(AssertionError):
        call()


def test_missing_parameter_dict_key_is_key_error_and_torch_attribute_error() -> None:
    pd = nn.ParameterDict({"w": nn.Parameter(ember.ones(1))})
    with pytest.raises(AttributeError):  # torch's type
        pd["v"]
    with pytest.raises(KeyError):  # a dict's
        pd.pop("v")
    assert pd.get("v") is None and pd["w"].shape == (1,)


def _named_model() -> nn.Module:
    fc1 = nn.Linear(10, 5)
    return nn.Sequential(OrderedDict(encoder=nn.Sequential(OrderedDict(fc1=fc1))))


def test_errors_name_the_layer_and_its_path() -> None:
    # issue 13 item 8: the layer, its configuration and its path in the model, torch's type.
    model = _named_model()
    with pytest.raises(RuntimeError) as info:
        model(ember.rand(3, 7))
    assert str(info.value) == (
        "[Linear(in_features=10, out_features=5, bias=True) at 'encoder.fc1'] expected input "
        "with last dimension 10, got shape (3, 7)"
    )
    with pytest.raises(TypeError) as type_info:
        model("not a tensor")
    message = str(type_info.value)
    assert message.startswith(
        "[Linear(in_features=10, out_features=5, bias=True) at 'encoder.fc1']"
    )
    assert "argument 'input' must be Tensor, not str" in message


def test_forward_hooks_may_take_anything() -> None:
    # Module.__call__ checks nothing: a pre-hook may turn any input into a tensor.
    m = nn.Linear(3, 2)
    m.register_forward_pre_hook(lambda mod, args: (ember.tensor(args[0], dtype=ember.float32),))
    assert m([[1.0, 2.0, 3.0]]).shape == (1, 2)


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=5),
    st.lists(st.floats(allow_nan=False, width=32), max_size=4),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)

_TAKES_TENSOR: list[tuple[str, Callable[[Any], Any]]] = [
    ("linear", lambda v: F.linear(v, _x())),
    ("mse_loss", lambda v: F.mse_loss(v, _x())),
    ("cross_entropy", lambda v: F.cross_entropy(_x(), v)),
    ("dropout", lambda v: F.dropout(v)),
    ("layer_norm", lambda v: F.layer_norm(v, [3])),
    ("batch_norm", lambda v: F.batch_norm(v, None, None, training=True)),
    ("pixel_shuffle", lambda v: F.pixel_shuffle(v, 1)),
    ("lp_pool1d", lambda v: F.lp_pool1d(v, 2, 2)),
    ("cosine_embedding_loss", lambda v: F.cosine_embedding_loss(_x(), _x(), v)),
    ("Linear.forward", lambda v: nn.Linear(3, 2)(v)),
    ("BatchNorm1d.forward", lambda v: nn.BatchNorm1d(3)(v)),
    ("RNN.forward", lambda v: nn.RNN(3, 2)(v)),
]


@pytest.mark.parametrize(("name", "call"), _TAKES_TENSOR, ids=[n for n, _ in _TAKES_TENSOR])
@given(value=_JUNK)
def test_any_non_tensor_is_a_type_error_naming_the_callable(
    name: str, call: Callable[[Any], Any], value: Any
) -> None:
    with pytest.raises(TypeError, match=rf"{name}\(\): argument '\w+' must be Tensor"):
        call(value)

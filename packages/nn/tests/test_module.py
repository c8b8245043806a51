"""Module: registration, traversal order, state_dict, errors, modes, conversion, repr.

Expected strings were produced by PyTorch 2.13 on the same model, with "torch" read "ember".
"""

from __future__ import annotations

import copy
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import ember
import ember.nn as nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.Sequential(OrderedDict(fc1=nn.Linear(10, 5), flat=nn.Flatten()))
        self.heads = nn.ModuleList([nn.Linear(5, 2), nn.Linear(5, 2), nn.Identity()])
        self.register_buffer("steps", ember.zeros(()))
        self.register_buffer("tmp", ember.zeros(2), persistent=False)
        self.scale = nn.Parameter(ember.ones(1))

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        return self.heads[0](self.encoder(x)) * self.scale


NET_REPR = (
    "Net(\n  (encoder): Sequential(\n    (fc1): Linear(in_features=10, out_features=5, bias=True)\n"
    "    (flat): Flatten(start_dim=1, end_dim=-1)\n  )\n  (heads): ModuleList(\n"
    "    (0-1): 2 x Linear(in_features=5, out_features=2, bias=True)\n    (2): Identity()\n  )\n)"
)


def test_repr_matches_torch() -> None:
    assert repr(Net()) == NET_REPR


def test_named_members_order_and_prefixes() -> None:
    m = Net()
    assert [n for n, _ in m.named_parameters()] == [
        "scale",
        "encoder.fc1.weight",
        "encoder.fc1.bias",
        "heads.0.weight",
        "heads.0.bias",
        "heads.1.weight",
        "heads.1.bias",
    ]
    assert [n for n, _ in m.named_buffers()] == ["steps", "tmp"]
    assert [n for n, _ in m.named_modules()] == [
        "",
        "encoder",
        "encoder.fc1",
        "encoder.flat",
        "heads",
        "heads.0",
        "heads.1",
        "heads.2",
    ]
    assert [n for n, _ in m.named_children()] == ["encoder", "heads"]
    assert [n for n, _ in m.named_parameters(prefix="net", recurse=False)] == ["net.scale"]
    assert [n for n, _ in m.encoder.named_modules(prefix="enc")] == ["enc", "enc.fc1", "enc.flat"]
    assert len(list(m.parameters())) == 7
    assert len(list(m.modules())) == 8


def test_shared_parameters_and_modules_are_listed_once() -> None:
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert [n for n, _ in seq.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4
    assert [n for n, _ in seq.named_modules()] == ["", "0"]
    assert [n for n, _ in seq.named_modules(remove_duplicate=False)] == ["", "0", "1"]
    # state_dict keeps both names, as torch.
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]


def test_attribute_routing_and_deletion() -> None:
    m = Net()
    assert isinstance(m.scale, nn.Parameter)
    assert "scale" in m._parameters and "scale" not in m.__dict__
    m.scale = None
    assert m._parameters["scale"] is None
    assert next(n for n, _ in m.named_parameters()) == "encoder.fc1.weight"
    m.steps = ember.ones(())
    assert m._buffers["steps"].item() == 1.0
    m.tmp = ember.ones(2)
    assert "tmp" in m._non_persistent_buffers_set  # reassigning keeps persistence
    del m.encoder
    assert "encoder" not in m._modules
    m.plain = 3
    del m.plain
    assert not hasattr(m, "plain")
    # Assigning a Module replaces a plain attribute of the same name.
    m.other = 1
    m.other = nn.Identity()
    assert "other" in m._modules and "other" not in m.__dict__


def test_buffer_class_registers_with_persistence() -> None:
    m = nn.Module()
    m.keep = nn.Buffer(ember.zeros(2))
    m.drop = nn.Buffer(ember.ones(2), persistent=False)
    assert type(m.keep) is ember.Tensor
    assert list(m.state_dict()) == ["keep"]
    assert [n for n, _ in m.named_buffers()] == ["keep", "drop"]


@pytest.mark.parametrize(
    ("action", "kind", "message"),
    [
        (lambda m: m.register_buffer("a.b", None), KeyError, 'buffer name can\'t contain "."'),
        (lambda m: m.register_buffer("", None), KeyError, 'buffer name can\'t be empty string ""'),
        (
            lambda m: m.register_buffer(1, None),
            TypeError,
            "buffer name should be a string. Got int",
        ),
        (lambda m: m.register_buffer("scale", None), KeyError, "attribute 'scale' already exists"),
        (
            lambda m: m.register_buffer("q", 3),
            TypeError,
            "cannot assign 'int' object to buffer 'q' (ember Tensor or None required)",
        ),
        (
            lambda m: m.register_parameter("q", ember.ones(1)),
            TypeError,
            "cannot assign 'torch.FloatTensor' object to parameter 'q' "
            "(ember.nn.Parameter or None required)",
        ),
        (
            lambda m: setattr(m, "scale", ember.ones(1)),
            TypeError,
            "cannot assign 'torch.FloatTensor' as parameter 'scale' "
            "(ember.nn.Parameter or None expected)",
        ),
        (
            lambda m: setattr(m, "encoder", 3),
            TypeError,
            "cannot assign 'int' as child module 'encoder' (ember.nn.Module or None expected)",
        ),
        (lambda m: m.add_module("x", 3), TypeError, "int is not a Module subclass"),
        (
            lambda m: m.add_module("a.b", nn.Identity()),
            KeyError,
            'module name can\'t contain ".", got: a.b',
        ),
        (lambda m: m.foo, AttributeError, "'Net' object has no attribute 'foo'"),
        (
            lambda m: m.get_submodule("encoder.zz"),
            AttributeError,
            "Sequential has no attribute `zz`",
        ),
        (lambda m: m.get_submodule("steps"), AttributeError, "`steps` is not an nn.Module"),
        (
            lambda m: m.get_parameter("encoder.fc1.zz"),
            AttributeError,
            "Linear has no attribute `zz`",
        ),
        (lambda m: m.get_parameter("steps"), AttributeError, "`steps` is not an nn.Parameter"),
        (lambda m: m.get_buffer("scale"), AttributeError, "`scale` is not a buffer"),
        (
            lambda m: m.to(ember.int64),
            TypeError,
            "nn.Module.to only accepts floating point or complex dtypes, but got desired "
            "dtype=ember.int64",
        ),
        (
            lambda m: nn.Module(3),
            TypeError,
            "Module.__init__() takes 1 positional argument but 2 were given",
        ),
        (
            lambda m: nn.Module(a=3),
            TypeError,
            "Module.__init__() got an unexpected keyword argument 'a'",
        ),
        (
            lambda m: nn.Module()(1),
            NotImplementedError,
            'Module [Module] is missing the required "forward" function',
        ),
        (lambda m: m.train("yes"), ValueError, "training mode is expected to be boolean"),
    ],
)
def test_errors_match_torch(action, kind, message) -> None:
    with pytest.raises(kind) as info:
        action(Net())
    text = info.value.args[0] if kind is KeyError else str(info.value)
    assert text == message


def test_non_leaf_parameter_rejected_and_before_init() -> None:
    m = nn.Module()
    w = ember.ones(2, requires_grad=True)
    p = nn.Parameter(w)
    assert p.is_leaf and p.grad_fn is None  # Parameter(x) is a new leaf over x's storage

    class Early(nn.Module):
        def __init__(self) -> None:
            self.w = nn.Parameter(ember.ones(1))

    with pytest.raises(AttributeError, match=r"before Module\.__init__"):
        Early()
    assert m.get_submodule("") is m


def test_get_and_set_submodule() -> None:
    m = Net()
    assert m.get_submodule("encoder.fc1") is m.encoder.fc1
    assert m.get_parameter("encoder.fc1.bias") is m.encoder.fc1.bias
    assert m.get_buffer("steps") is m.steps
    new = nn.Linear(10, 5)
    m.set_submodule("encoder.fc1", new)
    assert m.encoder.fc1 is new
    with pytest.raises(AttributeError):
        m.set_submodule("encoder.nope", nn.Identity(), strict=True)


def test_state_dict_keys_values_share_storage_and_metadata() -> None:
    m = Net()
    sd = m.state_dict()
    assert isinstance(sd, OrderedDict)
    assert list(sd) == [
        "scale",
        "steps",
        "encoder.fc1.weight",
        "encoder.fc1.bias",
        "heads.0.weight",
        "heads.0.bias",
        "heads.1.weight",
        "heads.1.bias",
    ]
    assert not sd["scale"].requires_grad and type(sd["scale"]) is ember.Tensor
    assert sd["scale"].data_ptr() == m.scale.data_ptr()
    assert sd._metadata[""] == {"version": 1}
    assert "encoder.fc1" in sd._metadata
    kept = m.state_dict(keep_vars=True)
    assert kept["scale"] is m.scale
    prefixed = m.state_dict(prefix="model.")
    assert next(iter(prefixed)) == "model.scale"


def test_load_state_dict_errors_match_torch() -> None:
    m = Net()
    sd = m.state_dict()
    del sd["scale"]
    sd["extra.w"] = ember.ones(1)
    sd["encoder.fc1.bias"] = ember.ones(3)
    with pytest.raises(RuntimeError) as info:
        m.load_state_dict(sd)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "scale". \n\t'
        'Unexpected key(s) in state_dict: "extra.w". \n\tsize mismatch for encoder.fc1.bias: '
        "copying a param with shape ember.Size([3]) from checkpoint, the shape in current model "
        "is ember.Size([5])."
    )
    result = m.load_state_dict({}, strict=False)
    assert result.missing_keys[:2] == ["scale", "steps"] and result.unexpected_keys == []
    assert repr(result).startswith("_IncompatibleKeys(missing_keys=['scale', 'steps'")
    with pytest.raises(RuntimeError, match='While copying the parameter named "weight"'):
        nn.Linear(2, 3).load_state_dict({"weight": 1, "bias": ember.ones(3)})
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        nn.Linear(2, 3).load_state_dict([1, 2])


def test_load_state_dict_copies_in_place_or_assigns() -> None:
    src, dst = nn.Linear(3, 2), nn.Linear(3, 2)
    weight = dst.weight
    dst.load_state_dict(src.state_dict())
    assert dst.weight is weight  # copied into the existing Parameter
    np.testing.assert_array_equal(dst.weight.detach().numpy(), src.weight.detach().numpy())
    new_w = ember.full((2, 3), 0.5)
    out = dst.load_state_dict({"weight": new_w, "bias": ember.zeros(2)}, assign=True)
    assert repr(out) == "<All keys matched successfully>"
    assert isinstance(dst.weight, nn.Parameter) and dst.weight.requires_grad
    assert dst.weight.data_ptr() == new_w.data_ptr()  # assign keeps the given storage
    # A 0-d parameter accepts a 1-element 1-d tensor (torch's backward compatibility).
    m = nn.Module()
    m.s = nn.Parameter(ember.zeros(()))
    m.load_state_dict({"s": ember.tensor([3.0])})
    assert m.s.item() == 3.0


def test_load_state_dict_dtype_cast_and_non_strict_unexpected() -> None:
    m = nn.Linear(2, 2)
    sd = {k: v.double() for k, v in nn.Linear(2, 2).state_dict().items()}
    m.load_state_dict(sd)
    assert m.weight.dtype == ember.float32
    sd["junk"] = ember.ones(1)
    assert m.load_state_dict(sd, strict=False).unexpected_keys == ["junk"]


def test_extra_state_round_trip() -> None:
    class WithExtra(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.counter = 0

        def get_extra_state(self):
            return {"counter": self.counter}

        def set_extra_state(self, state):
            self.counter = state["counter"]

    a, b = WithExtra(), WithExtra()
    a.counter = 7
    sd = a.state_dict()
    assert list(sd) == ["_extra_state"]
    b.load_state_dict(sd)
    assert b.counter == 7
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "_extra_state"'):
        b.load_state_dict({})
    with pytest.raises(RuntimeError, match="Unexpected key"):
        nn.Identity().load_state_dict({"_extra_state": 1})


def test_state_dict_hooks() -> None:
    m = nn.Linear(2, 2)
    seen: list[str] = []
    m.register_state_dict_pre_hook(lambda mod, prefix, keep: seen.append("pre:" + prefix))

    def drop_bias(mod, sd, prefix, md):
        del sd[prefix + "bias"]

    m.register_state_dict_post_hook(drop_bias)
    outer = nn.Sequential(m)
    assert list(outer.state_dict()) == ["0.weight"]
    assert seen == ["pre:0."]

    def bad_post(mod, sd, prefix, md):
        return {}

    m2 = nn.Linear(2, 2)
    m2.register_state_dict_post_hook(bad_post)
    with pytest.raises(RuntimeError, match="must return None"):
        m2.state_dict()
    m3 = nn.Linear(2, 2)
    m3._register_state_dict_hook(lambda mod, sd, prefix, md: OrderedDict(only=1))
    assert m3.state_dict() == OrderedDict(only=1)

    loads: list[object] = []
    m4 = nn.Linear(2, 2)

    def pre(module, sd, prefix, md, strict, missing, unexpected, errors):
        loads.append(("pre", module is m4, prefix))
        sd[prefix + "bias"] = ember.zeros(2)

    m4.register_load_state_dict_pre_hook(pre)

    def post(module, keys):
        loads.append(("post", list(keys.missing_keys)))
        keys.missing_keys.clear()

    m4.register_load_state_dict_post_hook(post)
    h = m4.register_load_state_dict_post_hook(lambda module, keys: None)
    h.remove()
    assert repr(m4.load_state_dict({"weight": ember.ones(2, 2)})) == (
        "<All keys matched successfully>"
    )
    assert loads == [("pre", True, ""), ("post", [])]
    assert m4.bias.abs().sum().item() == 0.0


def test_train_eval_requires_grad_zero_grad() -> None:
    m = Net()
    assert m.training and m.encoder.fc1.training
    assert m.eval() is m and not m.encoder.fc1.training and not m.heads[2].training
    m.train()
    assert m.heads[2].training
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())
    m.requires_grad_()
    m(ember.randn(3, 10)).sum().backward()
    assert all(
        p.grad is not None
        for p in m.parameters()
        if p is not m.heads[1].weight and p is not m.heads[1].bias
    )
    m.zero_grad(set_to_none=False)
    assert m.scale.grad is not None and m.scale.grad.abs().sum().item() == 0.0
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())


def test_grad_accumulates_on_parameters() -> None:
    lin = nn.Linear(3, 1)
    x = ember.randn(4, 3)
    lin(x).sum().backward()
    first = lin.weight.grad.clone()
    lin(x).sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), 2 * first.numpy(), rtol=1e-6)
    np.testing.assert_allclose(first.numpy()[0], x.numpy().sum(0), rtol=1e-5)
    # An optimizer-style in-place update under no_grad keeps the parameter a leaf.
    with ember.no_grad():
        lin.weight -= 0.1 * lin.weight.grad
    assert lin.weight.is_leaf and lin.weight.requires_grad


def test_to_and_dtype_conversions_keep_parameter_objects() -> None:
    m = Net()
    w = m.encoder.fc1.weight
    m(ember.randn(2, 10)).sum().backward()
    m.double()
    assert m.encoder.fc1.weight is w and w.dtype == ember.float64
    assert w.grad.dtype == ember.float64
    assert m.steps.dtype == ember.float64
    m.to(ember.float32)
    assert w.dtype == ember.float32
    m.half()
    assert w.dtype == ember.float16
    m.bfloat16()
    assert w.dtype == ember.bfloat16
    m.float()
    m.to("cpu")
    m.to(ember.ones(1, dtype=ember.float64))
    assert w.dtype == ember.float64
    m.to(device="cpu", dtype=ember.float32)
    assert w.dtype == ember.float32
    m.type(ember.float64)
    assert w.dtype == ember.float64
    assert m.cpu() is m
    ints = nn.Module()
    ints.register_buffer("idx", ember.arange(3))
    ints.double()
    assert ints.idx.dtype == ember.int64  # integer buffers keep their dtype


def test_cuda_on_cpu_build_raises_clearly() -> None:
    if ember.cuda.is_available():
        pytest.skip("a CUDA device is present")
    with pytest.raises(RuntimeError, match="ember not compiled with CUDA enabled"):
        nn.Linear(2, 2).cuda()


def test_share_memory_names_the_missing_piece() -> None:
    m = nn.Linear(2, 2)
    if hasattr(ember.Tensor, "share_memory_"):
        assert m.share_memory() is m
    else:
        with pytest.raises(RuntimeError, match="ember-multiprocessing"):
            m.share_memory()


def test_apply_and_dir() -> None:
    m = Net()
    names: list[str] = []
    m.apply(lambda mod: names.append(type(mod).__name__))
    assert names == [
        "Linear",
        "Flatten",
        "Sequential",
        "Linear",
        "Linear",
        "Identity",
        "ModuleList",
        "Net",
    ]
    d = dir(m)
    for name in ("encoder", "scale", "steps", "forward", "state_dict", "training"):
        assert name in d
    assert d == sorted(d)


def test_parameter_deepcopy() -> None:
    p = nn.Parameter(ember.ones(2))
    p.tag = "w"
    q = copy.deepcopy(p)
    assert type(q) is nn.Parameter and q.requires_grad and q.tag == "w"
    assert q.data_ptr() != p.data_ptr()


def test_deepcopy_of_a_parameter_only_model() -> None:
    m = nn.Sequential(nn.Linear(2, 3), nn.Bilinear(3, 3, 1))
    m[0].register_forward_hook(lambda mod, args, out: out * 2)
    c = copy.deepcopy(m)
    assert c[0].weight is not m[0].weight and isinstance(c[0].weight, nn.Parameter)
    assert c[0].weight.data_ptr() != m[0].weight.data_ptr()
    assert len(c[0]._forward_hooks) == 1  # hooks are copied with the module, as torch
    x = ember.randn(2, 2)
    np.testing.assert_array_equal(c[0](x).detach().numpy(), m[0](x).detach().numpy())
    with ember.no_grad():
        c[0].weight.zero_()
    assert m[0].weight.abs().sum().item() > 0


def test_module_deepcopy() -> None:
    m = Net()
    c = copy.deepcopy(m)
    x = ember.randn(2, 10)
    np.testing.assert_array_equal(c(x).detach().numpy(), m(x).detach().numpy())
    assert c.encoder.fc1.weight is not m.encoder.fc1.weight
    assert c.encoder.fc1.weight.data_ptr() != m.encoder.fc1.weight.data_ptr()
    assert list(c.state_dict()) == list(m.state_dict())


def test_module_pickle_round_trip() -> None:
    m = nn.Sequential(nn.Linear(2, 3))
    c = pickle.loads(pickle.dumps(m))
    assert isinstance(c[0].weight, nn.Parameter)
    np.testing.assert_array_equal(c[0].weight.detach().numpy(), m[0].weight.detach().numpy())


def test_buffer_pickle_round_trip_keeps_type_flag_and_values() -> None:
    buf = nn.Buffer(ember.arange(4.0), persistent=False)
    back = pickle.loads(pickle.dumps(buf))
    assert type(back) is nn.Buffer and back.persistent is False
    np.testing.assert_array_equal(back.numpy(), np.arange(4.0, dtype=np.float32))
    assert back.data_ptr() != buf.data_ptr()  # plain pickle copies; multiprocessing shares
    grad_buf = pickle.loads(pickle.dumps(nn.Buffer(ember.ones(2).requires_grad_())))
    assert grad_buf.requires_grad and grad_buf.is_leaf and grad_buf.persistent is True
    m = nn.Module()
    m.stats = back  # still registers as a (non-persistent) buffer
    assert "stats" in dict(m.named_buffers()) and list(m.state_dict()) == []


def test_parameter_basics() -> None:
    base = ember.ones(2, 3)
    p = nn.Parameter(base)
    assert p.data_ptr() == base.data_ptr() and not base.requires_grad
    assert isinstance(p, ember.Tensor) and p.requires_grad
    assert repr(nn.Parameter(ember.ones(2), requires_grad=False)) == (
        "Parameter containing:\ntensor([1., 1.])"
    )
    assert repr(nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(ember.ones(2, dtype=ember.int64))
    assert not nn.Parameter(ember.ones(2, dtype=ember.int64), requires_grad=False).requires_grad
    with pytest.raises(TypeError, match="Parameter"):
        nn.Parameter([1.0])
    assert type(p + 1) is ember.Tensor and type(p.detach()) is ember.Tensor
    p.data = ember.zeros(4)
    assert p.shape == (4,) and p.requires_grad and isinstance(p, nn.Parameter)
    assert type(p.data) is ember.Tensor


def test_uninitialized_parameter_materialize() -> None:
    p = nn.UninitializedParameter()
    assert repr(p) == "<UninitializedParameter>"
    assert nn.parameter.is_lazy(p)
    with pytest.raises(RuntimeError, match="Can't access the shape"):
        _ = p.shape
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and p.shape == (2, 3) and p.requires_grad
    b = nn.UninitializedBuffer()
    assert repr(b) == "<UninitializedBuffer>"


def test_typed_call_returns_forward_result() -> None:
    lin = nn.Linear(2, 2)
    out = lin(ember.ones(1, 2))
    assert isinstance(out, ember.Tensor)
    # __call__ is the hook-running implementation at run time.
    assert type(lin).__call__ is nn.Module._call_impl

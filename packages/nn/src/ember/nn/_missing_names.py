"""torch.nn public names that ember.nn does not provide yet, each with the reason.

tests/test_torch_names.py fails for a torch.nn name that is neither in ember.nn nor here, and for
a name listed here that ember.nn now has: remove an entry in the same commit that implements it.
"""

MISSING: dict[str, str] = {
    # pooling layers
    "FractionalMaxPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "FractionalMaxPool3d": "not built yet (ember-nn 0.1): pooling layers",
    # normalization layers
    "CrossMapLRN2d": "not built yet (ember-nn 0.1): legacy Lua-torch LRN; use LocalResponseNorm",
    # losses
    "AdaptiveLogSoftmaxWithLoss": "not built yet (ember-nn 0.1): losses",
    "LinearCrossEntropyLoss": "not built yet (ember-nn 0.1): losses",
    "LinearCrossEntropyOptions": "not built yet (ember-nn 0.1): losses",
    # torch.nn submodules and multi-device wrappers
    "attention": "not built yet (ember-nn 0.1): torch.nn.attention (sdpa backends, flex attention)",
    "common_types": "not built yet: typing aliases module (torch.nn.common_types)",
    "grad": "not built yet: torch.nn.grad (conv weight/input gradient helpers)",
    "intrinsic": "not planned: quantization-aware fused modules (torch.ao)",
    "qat": "not planned: quantization-aware training modules (torch.ao)",
    "quantizable": "not planned: quantizable modules (torch.ao)",
    "quantized": "not planned: quantized modules (torch.ao)",
}

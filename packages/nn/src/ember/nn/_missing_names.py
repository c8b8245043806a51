"""torch.nn public names that ember.nn does not provide yet, each with the reason.

tests/test_torch_names.py fails for a torch.nn name that is neither in ember.nn nor here, and for
a name listed here that ember.nn now has: remove an entry in the same commit that implements it.
"""

MISSING: dict[str, str] = {
    # convolution layers
    "Conv1d": "not built yet (ember-nn 0.1): convolution layers",
    "Conv2d": "not built yet (ember-nn 0.1): convolution layers",
    "Conv3d": "not built yet (ember-nn 0.1): convolution layers",
    "ConvTranspose1d": "not built yet (ember-nn 0.1): convolution layers",
    "ConvTranspose2d": "not built yet (ember-nn 0.1): convolution layers",
    "ConvTranspose3d": "not built yet (ember-nn 0.1): convolution layers",
    "LazyConv1d": "not built yet (ember-nn 0.1): convolution layers",
    "LazyConv2d": "not built yet (ember-nn 0.1): convolution layers",
    "LazyConv3d": "not built yet (ember-nn 0.1): convolution layers",
    "LazyConvTranspose1d": "not built yet (ember-nn 0.1): convolution layers",
    "LazyConvTranspose2d": "not built yet (ember-nn 0.1): convolution layers",
    "LazyConvTranspose3d": "not built yet (ember-nn 0.1): convolution layers",
    # pooling layers
    "AdaptiveAvgPool1d": "not built yet (ember-nn 0.1): pooling layers",
    "AdaptiveAvgPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "AdaptiveAvgPool3d": "not built yet (ember-nn 0.1): pooling layers",
    "AdaptiveMaxPool1d": "not built yet (ember-nn 0.1): pooling layers",
    "AdaptiveMaxPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "AdaptiveMaxPool3d": "not built yet (ember-nn 0.1): pooling layers",
    "AvgPool1d": "not built yet (ember-nn 0.1): pooling layers",
    "AvgPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "AvgPool3d": "not built yet (ember-nn 0.1): pooling layers",
    "FractionalMaxPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "FractionalMaxPool3d": "not built yet (ember-nn 0.1): pooling layers",
    "LPPool1d": "not built yet (ember-nn 0.1): pooling layers",
    "LPPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "LPPool3d": "not built yet (ember-nn 0.1): pooling layers",
    "MaxPool1d": "not built yet (ember-nn 0.1): pooling layers",
    "MaxPool2d": "not built yet (ember-nn 0.1): pooling layers",
    "MaxPool3d": "not built yet (ember-nn 0.1): pooling layers",
    "MaxUnpool1d": "not built yet (ember-nn 0.1): pooling layers",
    "MaxUnpool2d": "not built yet (ember-nn 0.1): pooling layers",
    "MaxUnpool3d": "not built yet (ember-nn 0.1): pooling layers",
    # normalization layers
    "CrossMapLRN2d": "not built yet (ember-nn 0.1): legacy Lua-torch LRN; use LocalResponseNorm",
    # dropout layers
    # losses
    "AdaptiveLogSoftmaxWithLoss": "not built yet (ember-nn 0.1): losses",
    "LinearCrossEntropyLoss": "not built yet (ember-nn 0.1): losses",
    "LinearCrossEntropyOptions": "not built yet (ember-nn 0.1): losses",
    # padding layers
    "CircularPad1d": "not built yet (ember-nn 0.1): padding layers",
    "CircularPad2d": "not built yet (ember-nn 0.1): padding layers",
    "CircularPad3d": "not built yet (ember-nn 0.1): padding layers",
    "ConstantPad1d": "not built yet (ember-nn 0.1): padding layers",
    "ConstantPad2d": "not built yet (ember-nn 0.1): padding layers",
    "ConstantPad3d": "not built yet (ember-nn 0.1): padding layers",
    "ReflectionPad1d": "not built yet (ember-nn 0.1): padding layers",
    "ReflectionPad2d": "not built yet (ember-nn 0.1): padding layers",
    "ReflectionPad3d": "not built yet (ember-nn 0.1): padding layers",
    "ReplicationPad1d": "not built yet (ember-nn 0.1): padding layers",
    "ReplicationPad2d": "not built yet (ember-nn 0.1): padding layers",
    "ReplicationPad3d": "not built yet (ember-nn 0.1): padding layers",
    "ZeroPad1d": "not built yet (ember-nn 0.1): padding layers",
    "ZeroPad2d": "not built yet (ember-nn 0.1): padding layers",
    "ZeroPad3d": "not built yet (ember-nn 0.1): padding layers",
    # embedding layers
    # activation layers
    # shape, upsampling and distance layers
    "ChannelShuffle": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "Fold": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "PixelShuffle": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "PixelUnshuffle": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "Unfold": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "Upsample": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "UpsamplingBilinear2d": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    "UpsamplingNearest2d": "not built yet (ember-nn 0.1): shape, upsampling and distance layers",
    # torch.nn submodules and multi-device wrappers
    "DataParallel": "not planned: one CPU device per process (see ember.multiprocessing)",
    "parallel": "not planned: multi-device data parallelism (torch.nn.parallel)",
    "attention": "not built yet (ember-nn 0.1): torch.nn.attention (sdpa backends, flex attention)",
    "common_types": "not built yet: typing aliases module (torch.nn.common_types)",
    "grad": "not built yet: torch.nn.grad (conv weight/input gradient helpers)",
    "intrinsic": "not planned: quantization-aware fused modules (torch.ao)",
    "qat": "not planned: quantization-aware training modules (torch.ao)",
    "quantizable": "not planned: quantizable modules (torch.ao)",
    "quantized": "not planned: quantized modules (torch.ao)",
}

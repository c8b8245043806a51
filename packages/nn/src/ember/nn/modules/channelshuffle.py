"""``ChannelShuffle``: interleaves channel groups (ShuffleNet)."""

from __future__ import annotations

from ember._tensor import Tensor
from ember.nn._functional.vision import channel_shuffle
from ember.nn.modules.module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """Splits the channels of [N, C, *] into ``groups`` groups and interleaves them.

    Example:
        >>> ember.nn.ChannelShuffle(2)(ember.arange(4.0).reshape(1, 4, 1)).flatten()
        tensor([0., 2., 1., 3.])
    """

    _ember_builtin = True

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"

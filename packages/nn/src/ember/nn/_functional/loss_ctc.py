"""Connectionist temporal classification loss (``F.ctc_loss``, torch 2.13 semantics).

The forward (alpha) recursion runs in log space over time, vectorized over the batch and the
extended label sequence (blank, l1, blank, l2, ..., blank); autograd differentiates the
recursion. Unreachable states hold a large finite negative number instead of -inf, so no NaN
reaches the gradient; a loss that is impossible (target longer than the input allows) is
reported as inf, or 0 with ``zero_infinity=True``, as torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensors

from . import _reduction

__all__ = ["ctc_loss"]

_NEG = -1e30  # "log 0" that stays finite through logaddexp and its gradient
_IMPOSSIBLE = -1e29


def _lengths(name: str, value: Tensor | Sequence[int], batch: int) -> list[int]:
    seq = [int(v) for v in value.tolist()] if isinstance(value, Tensor) else [int(v) for v in value]
    if len(seq) != batch:
        raise RuntimeError(
            f"ctc_loss: expected {name} to have {batch} elements (the batch size), got {len(seq)}"
        )
    return seq


def ctc_loss(
    log_probs: Tensor,
    targets: Tensor,
    input_lengths: Tensor | Sequence[int],
    target_lengths: Tensor | Sequence[int],
    blank: int = 0,
    reduction: str = "mean",
    zero_infinity: bool = False,
) -> Tensor:
    """CTC loss of log-probabilities (T, N, C) (or (T, C)) against label sequences.

    Example:
        >>> lp = ember.randn(5, 1, 3).log_softmax(2)
        >>> F.ctc_loss(lp, ember.tensor([[1, 2]]), [5], [2]).dim()
        0
    """
    check_tensors("ctc_loss", log_probs=log_probs, targets=targets)
    _reduction.check(reduction)
    unbatched = log_probs.dim() == 2
    lp: Any = log_probs.unsqueeze(1) if unbatched else log_probs
    if lp.dim() != 3:
        raise RuntimeError(
            "ctc_loss: expected log_probs of shape (T, N, C) or (T, C), got "
            f"{list(log_probs.size())}"
        )
    steps, batch, classes = lp.size()
    if not 0 <= blank < classes:
        raise RuntimeError(
            f"ctc_loss: blank must be in label range, got blank={blank} for {classes} classes"
        )
    in_len = _lengths("input_lengths", input_lengths, batch)
    tg_len = _lengths("target_lengths", target_lengths, batch)
    if any(n > steps or n < 0 for n in in_len):
        raise RuntimeError(f"ctc_loss: input_lengths must be in [0, {steps}], got {in_len}")
    tg: Any = targets.long()
    if unbatched and tg.dim() == 1 and tg.numel() == tg_len[0]:
        tg = tg.unsqueeze(0)
    if tg.dim() == 1:  # concatenated targets: split and pad
        if tg.numel() != sum(tg_len):
            raise RuntimeError(
                f"ctc_loss: 1-D targets must hold sum(target_lengths)={sum(tg_len)} labels, got "
                f"{tg.numel()}"
            )
        width = max(tg_len) if tg_len else 0
        rows, start = [], 0
        for n in tg_len:
            row = tg[start : start + n]
            rows.append(ember.cat([row, ember.full([width - n], blank, dtype=ember.int64)]))
            start += n
        tg = ember.stack(rows) if rows else ember.zeros([0, 0], dtype=ember.int64)
    width = tg.size(1) if tg.dim() == 2 else 0
    if any(n > width or n < 0 for n in tg_len):
        raise RuntimeError(f"ctc_loss: target_lengths must be in [0, {width}], got {tg_len}")
    labels = 2 * width + 1
    ext = ember.full([batch, labels], blank, dtype=ember.int64)
    if width:
        ext[:, 1::2] = tg
    # A label may skip the blank before it when it differs from the label two places back.
    skip = ember.zeros([batch, labels], dtype=ember.bool)
    if width > 1:
        skip[:, 3::2] = ext[:, 3::2] != ext[:, 1:-2:2]
    emit = lp.permute(1, 0, 2).gather(2, ext.unsqueeze(1).expand(batch, steps, labels))
    neg = ember.full([batch, labels], _NEG, dtype=lp.dtype)
    alpha = neg.clone()
    alpha[:, :2] = emit[:, 0, :2] if labels > 1 else emit[:, 0, :1]
    pad1 = ember.full([batch, 1], _NEG, dtype=lp.dtype)
    pad2 = ember.full([batch, 2], _NEG, dtype=lp.dtype)
    running = ember.tensor(in_len, dtype=ember.int64)
    for t in range(1, steps):
        prev1 = ember.cat([pad1, alpha[:, :-1]], 1)
        prev2 = ember.where(skip, ember.cat([pad2, alpha[:, :-2]], 1), neg)
        step = ember.logaddexp(alpha, ember.logaddexp(prev1, prev2)) + emit[:, t]
        alpha = ember.where((running > t).unsqueeze(1), step, alpha)
    last = ember.tensor([2 * n for n in tg_len], dtype=ember.int64).unsqueeze(1)
    before = (last - 1).clamp(min=0)
    end = alpha.gather(1, last).squeeze(1)
    end_prev = alpha.gather(1, before).squeeze(1)
    has_labels = ember.tensor([n > 0 for n in tg_len])
    log_like = ember.where(has_labels, ember.logaddexp(end, end_prev), end)
    loss = -log_like
    empty = ember.tensor([n == 0 for n in in_len])
    impossible = (log_like < _IMPOSSIBLE) | (empty & has_labels)
    loss = ember.where(empty & ~has_labels, ember.zeros_like(loss), loss)
    fill = 0.0 if zero_infinity else float("inf")
    loss = ember.where(impossible, ember.full_like(loss, fill), loss)
    if reduction == "mean":
        denom = ember.tensor(tg_len, dtype=lp.dtype).clamp(min=1)
        return (loss / denom).mean()
    if reduction == "sum":
        return loss.sum()
    return loss.squeeze(0) if unbatched else loss

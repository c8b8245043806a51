"""numpy references for the attention and transformer tests (float64, torch's equations)."""

from __future__ import annotations

import math

import numpy as np


def np_mha(q, k, v, w_in, b_in, w_out, b_out, heads, mask=None, kpm=None):
    tgt, bsz, e = q.shape
    hd = e // heads
    wq, wk, wv = np.split(w_in, 3)
    bq, bk, bv = np.split(b_in, 3)
    qp, kp, vp = q @ wq.T + bq, k @ wk.T + bk, v @ wv.T + bv
    src = kp.shape[0]

    def split(x, n):
        return x.reshape(n, bsz * heads, hd).transpose(1, 0, 2)

    qh, kh, vh = split(qp, tgt), split(kp, src), split(vp, src)
    s = qh @ kh.transpose(0, 2, 1) / math.sqrt(hd)
    if mask is not None:
        s = s + (np.where(mask, -np.inf, 0.0) if mask.dtype == bool else mask)
    if kpm is not None:
        add = np.where(kpm, -np.inf, 0.0)[:, None, None, :]
        s = (s.reshape(bsz, heads, tgt, src) + add).reshape(bsz * heads, tgt, src)
    w = np.exp(s - s.max(-1, keepdims=True))
    w = w / w.sum(-1, keepdims=True)
    o = (w @ vh).transpose(1, 0, 2).reshape(tgt, bsz, e)
    return o @ w_out.T + b_out, w.reshape(bsz, heads, tgt, src)

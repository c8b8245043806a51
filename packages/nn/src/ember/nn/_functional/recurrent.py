"""The time loop of RNN, LSTM and GRU layers as one autograd node per layer and direction.

The input projection of every time step is one GEMM done outside (recorded by autograd); this
node then runs the recurrence with plain ops (nothing recorded per step) and saves each step's
gate activations, so backward-through-time needs a handful of ops per step plus one GEMM for
the hidden weights' gradient over all steps together.

Sequences are handled in packed layout: rows of step ``t`` are ``data[offset_t : offset_t +
batch_sizes[t]]`` with decreasing batch sizes (a padded batch is the case where every step has
all rows), so finished sequences drop out of the loop and keep their last state.
"""

from __future__ import annotations

from typing import Any

import ember
from ember._tensor import Tensor
from ember.autograd import Function
from ember.autograd.function import once_differentiable

__all__ = ["recurrent_layer"]

MODES = ("RNN_TANH", "RNN_RELU", "LSTM", "GRU")


def _offsets(batch_sizes: list[int]) -> list[int]:
    offsets, total = [], 0
    for b in batch_sizes:
        offsets.append(total)
        total += b
    return offsets


class _RecurrentLayer(Function):
    """One layer, one direction: returns (output rows, h_n, c_n); c_n is h_n except for LSTM."""

    @staticmethod
    def forward(
        ctx: Any,
        xp: Tensor,
        h0: Tensor,
        c0: Tensor,
        w_hh: Tensor,
        b_hh: Tensor | None,
        w_hr: Tensor | None,
        mode: str,
        reverse: bool,
        batch_sizes: list[int],
    ) -> tuple[Tensor, Tensor, Tensor]:
        hidden = w_hh.size()[1]  # w_hh: (gates * H, H or proj_size)
        cell = c0.size()[1]
        n = xp.size()[0]
        offsets = _offsets(batch_sizes)
        w_t = w_hh.t()
        out = xp.new_empty((n, hidden))
        acts = ember.empty_like(xp)  # activated gates of every step
        h_prev_all = xp.new_empty((n, hidden))
        c_all = xp.new_empty((n, cell)) if mode == "LSTM" else None
        c_prev_all = xp.new_empty((n, cell)) if mode == "LSTM" else None
        m_all = xp.new_empty((n, cell)) if w_hr is not None else None  # o * tanh(c)
        hh_n = xp.new_empty((n, cell)) if mode == "GRU" else None  # h W_hn^T + b_hn
        h_n = ember.empty_like(h0)
        c_n = ember.empty_like(c0)
        h, c = h0, c0
        steps = range(len(batch_sizes) - 1, -1, -1) if reverse else range(len(batch_sizes))
        for t in steps:
            b, off = batch_sizes[t], offsets[t]
            cur = h.size()[0]
            if b < cur:  # forward direction: sequences b..cur ended at the previous step
                h_n[b:cur] = h[b:]
                c_n[b:cur] = c[b:]
                h, c = h[:b], c[:b]
            elif b > cur:  # reverse direction: sequences cur..b start here from h0
                h = ember.cat([h, h0[cur:b]])
                c = ember.cat([c, c0[cur:b]])
            x_t = xp[off : off + b]
            a_t = acts[off : off + b]
            h_prev_all[off : off + b] = h
            if mode == "LSTM":
                assert c_all is not None and c_prev_all is not None
                gates = ember.addmm(x_t, h, w_t)
                ember.sigmoid(gates, out=a_t)
                ember.tanh(gates[:, 2 * cell : 3 * cell], out=a_t[:, 2 * cell : 3 * cell])
                i, f = a_t[:, :cell], a_t[:, cell : 2 * cell]
                g, o = a_t[:, 2 * cell : 3 * cell], a_t[:, 3 * cell :]
                c_prev_all[off : off + b] = c
                c_new = c_all[off : off + b]
                ember.mul(f, c, out=c_new)
                c_new.addcmul_(i, g)
                c = c_new
                if w_hr is None:
                    h = ember.mul(o, c.tanh(), out=out[off : off + b])
                else:
                    assert m_all is not None
                    m = ember.mul(o, c.tanh(), out=m_all[off : off + b])
                    h = ember.matmul(m, w_hr.t(), out=out[off : off + b])
            elif mode == "GRU":
                assert hh_n is not None
                hp = ember.matmul(h, w_t) if b_hh is None else ember.addmm(b_hh, h, w_t)
                ember.sigmoid(x_t[:, : 2 * cell] + hp[:, : 2 * cell], out=a_t[:, : 2 * cell])
                r, z = a_t[:, :cell], a_t[:, cell : 2 * cell]
                hn = hp[:, 2 * cell :]
                hh_n[off : off + b] = hn
                n_t = a_t[:, 2 * cell :]
                ember.tanh(ember.addcmul(x_t[:, 2 * cell :], r, hn), out=n_t)
                # h' = n + z * (h - n)
                h = ember.addcmul(n_t, z, h - n_t, out=out[off : off + b])
            else:
                pre = ember.addmm(x_t, h, w_t)
                act = ember.tanh if mode == "RNN_TANH" else ember.relu
                act(pre, out=a_t)
                out[off : off + b] = a_t
                h = out[off : off + b]
        last = h.size()[0]
        h_n[:last] = h
        c_n[:last] = c
        ctx.save_for_backward(
            w_hh, w_hr, acts, h_prev_all, c_all, c_prev_all, m_all, hh_n, out, h0, c0
        )
        ctx.meta = (mode, reverse, batch_sizes, b_hh is not None)
        return out, h_n, c_n

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, g_out: Tensor, g_hn: Tensor, g_cn: Tensor) -> tuple[Tensor | None, ...]:
        w_hh, w_hr, acts, h_prev_all, c_all, c_prev_all, m_all, hh_n, out, h0, c0 = (
            ctx.saved_tensors
        )
        mode, reverse, batch_sizes, has_b_hh = ctx.meta
        offsets = _offsets(batch_sizes)
        cell = c0.size()[1]
        g_x = ember.empty_like(acts)  # gradient of the pre-activation gates (input side)
        g_hp = ember.empty_like(acts) if mode == "GRU" else g_x  # hidden side
        g_m = ember.empty_like(out) if w_hr is not None else None  # gradient of h = W_hr m
        g_h0 = ember.empty_like(h0)
        g_c0 = ember.empty_like(c0)
        # Backward visits the steps in the opposite order of forward.
        steps = range(len(batch_sizes)) if reverse else range(len(batch_sizes) - 1, -1, -1)
        dh: Tensor | None = None
        dc: Tensor | None = None
        for t in steps:
            b, off = batch_sizes[t], offsets[t]
            cur = 0 if dh is None else dh.size()[0]
            if dh is None or b > cur:  # forward direction: rows cur..b ended at step t
                add_h, add_c = g_hn[cur:b], g_cn[cur:b]
                dh = add_h.clone() if dh is None else ember.cat([dh, add_h])
                dc = add_c.clone() if dc is None else ember.cat([dc, add_c])
            elif b < cur:  # reverse direction: rows b..cur started from h0 at step t + 1
                assert dc is not None
                g_h0[b:cur] = dh[b:]
                g_c0[b:cur] = dc[b:]
                dh, dc = dh[:b], dc[:b]
            assert dc is not None
            dh = dh + g_out[off : off + b]
            a_t = acts[off : off + b]
            gx_t = g_x[off : off + b]
            if mode == "LSTM":
                if w_hr is not None:
                    assert g_m is not None
                    g_m[off : off + b] = dh
                    dh = ember.matmul(dh, w_hr)
                i, f = a_t[:, :cell], a_t[:, cell : 2 * cell]
                g, o = a_t[:, 2 * cell : 3 * cell], a_t[:, 3 * cell :]
                tc = c_all[off : off + b].tanh()
                # dc += dh * o * (1 - tanh(c)^2)
                dc = dc + dh * o * (1.0 - tc * tc)
                ember.mul(dh * tc, o * (1.0 - o), out=gx_t[:, 3 * cell :])
                ember.mul(dc * g, i * (1.0 - i), out=gx_t[:, :cell])
                c_prev = c_prev_all[off : off + b]
                ember.mul(dc * c_prev, f * (1.0 - f), out=gx_t[:, cell : 2 * cell])
                ember.mul(dc * i, 1.0 - g * g, out=gx_t[:, 2 * cell : 3 * cell])
                dc = dc * f
                dh = ember.matmul(gx_t, w_hh)
            elif mode == "GRU":
                r, z, n_t = a_t[:, :cell], a_t[:, cell : 2 * cell], a_t[:, 2 * cell :]
                h_prev = h_prev_all[off : off + b]
                ghp_t = g_hp[off : off + b]
                dn_pre = ember.mul(dh * (1.0 - z), 1.0 - n_t * n_t, out=gx_t[:, 2 * cell :])
                dr = dn_pre * hh_n[off : off + b]
                ember.mul(dr, r * (1.0 - r), out=gx_t[:, :cell])
                ember.mul(dh * (h_prev - n_t), z * (1.0 - z), out=gx_t[:, cell : 2 * cell])
                ghp_t[:, : 2 * cell] = gx_t[:, : 2 * cell]
                ember.mul(dn_pre, r, out=ghp_t[:, 2 * cell :])
                dh = ember.addmm(dh * z, ghp_t, w_hh)
            else:
                if mode == "RNN_TANH":
                    ember.mul(dh, 1.0 - a_t * a_t, out=gx_t)
                else:
                    ember.mul(dh, a_t > 0, out=gx_t)
                dh = ember.matmul(gx_t, w_hh)
        assert dh is not None and dc is not None
        last = dh.size()[0]
        g_h0[:last] = dh
        g_c0[:last] = dc
        g_w_hh = ember.matmul(g_hp.t(), h_prev_all)
        g_b_hh = g_hp.sum(0) if has_b_hh else None
        g_w_hr = None
        if w_hr is not None:
            assert g_m is not None
            g_w_hr = ember.matmul(g_m.t(), m_all)
        return g_x, g_h0, g_c0, g_w_hh, g_b_hh, g_w_hr, None, None, None


def recurrent_layer(
    xp: Tensor,
    h0: Tensor,
    c0: Tensor | None,
    w_hh: Tensor,
    b_hh: Tensor | None,
    w_hr: Tensor | None,
    mode: str,
    reverse: bool,
    batch_sizes: list[int],
) -> tuple[Tensor, Tensor, Tensor | None]:
    """Runs one recurrent layer in one direction over packed, pre-projected inputs.

    Args:
        xp: ``(N, gates * H)``: ``x @ W_ih^T + b_ih`` of every step's rows (packed layout; for
            LSTM and the RNNs ``b_hh`` is folded in here too, for GRU it is passed apart).
        h0: ``(B, H or proj_size)``; c0: ``(B, H)`` for LSTM, else None.
        w_hh, b_hh, w_hr: hidden weights (``b_hh`` only for GRU, ``w_hr`` only with proj_size).
        mode: one of ``RNN_TANH``, ``RNN_RELU``, ``LSTM``, ``GRU``.
        reverse: run from the last step to the first.
        batch_sizes: rows per step (non-increasing).

    Returns:
        ``(output rows (N, H), h_n (B, H), c_n or None)``.
    """
    if mode not in MODES:
        raise ValueError(f"recurrent_layer: unknown mode {mode!r}, expected one of {MODES}")
    cell_state = c0 if c0 is not None else h0
    out, h_n, c_n = _RecurrentLayer.apply(
        xp, h0, cell_state, w_hh, b_hh, w_hr, mode, reverse, batch_sizes
    )
    return out, h_n, (c_n if mode == "LSTM" else None)

"""The time loop of RNN, LSTM and GRU layers as one autograd node per layer and direction.

The input projection of every time step is one GEMM done outside (recorded by autograd); this
node then runs the recurrence (nothing recorded per step): per LSTM/GRU step one GEMM for the
hidden projection and one fused native cell (``_C._nn_lstm_cell`` / ``_nn_gru_cell``: gate
nonlinearities and state update in one pass, writing the activations backward needs). Backward
through time is one fused cell backward and one GEMM per step, plus one GEMM for the hidden
weights' gradient over all steps together.

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
from ember_core import _C

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
                # Gate pre-activations straight into the saved buffer; the fused cell
                # activates them in place and writes c and h (or m = o * tanh(c)).
                ember.addmm(x_t, h, w_t, out=a_t)
                c_prev_all[off : off + b] = c
                c_new = c_all[off : off + b]
                if w_hr is None:
                    h = _C._nn_lstm_cell(a_t, c, c_new, out[off : off + b])
                else:
                    assert m_all is not None
                    m = _C._nn_lstm_cell(a_t, c, c_new, m_all[off : off + b])
                    h = ember.matmul(m, w_hr.t(), out=out[off : off + b])
                c = c_new
            elif mode == "GRU":
                assert hh_n is not None
                hp = ember.matmul(h, w_t) if b_hh is None else ember.addmm(b_hh, h, w_t)
                h = _C._nn_gru_cell(x_t, hp, h, a_t, hh_n[off : off + b], out[off : off + b])
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
        gru = mode == "GRU"
        g_h0 = ember.empty_like(h0)
        g_c0 = ember.empty_like(c0)
        # Backward visits the steps in the opposite order of forward.
        steps = list(range(len(batch_sizes)) if reverse else range(len(batch_sizes) - 1, -1, -1))
        dh: Tensor | None = None
        dc: Tensor | None = None
        dh_prev = g_h0.new_empty((batch_sizes[0] if batch_sizes else 0, cell)) if gru else None
        folded = False  # whether dh already holds this step's g_out rows
        for idx, t in enumerate(steps):
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
            if not folded:
                dh = dh + g_out[off : off + b]
            a_t = acts[off : off + b]
            gx_t = g_x[off : off + b]
            # The next step's g_out rows fold into its dh GEMM when its batch is the same.
            g_next = None
            if idx + 1 < len(steps) and batch_sizes[steps[idx + 1]] == b:
                start = offsets[steps[idx + 1]]
                g_next = g_out[start : start + b]
            folded = g_next is not None
            if mode == "LSTM":
                if w_hr is not None:
                    assert g_m is not None
                    g_m[off : off + b] = dh
                    dh = ember.matmul(dh, w_hr)
                c_t, c_prev = c_all[off : off + b], c_prev_all[off : off + b]
                # One pass: the gates' gradient into g_x, dc becomes the gradient of c_prev.
                _C._nn_lstm_cell_backward(a_t, c_t, c_prev, dh, dc, gx_t)
                if g_next is not None:
                    dh = ember.addmm(g_next, gx_t, w_hh)
                else:
                    dh = ember.matmul(gx_t, w_hh)
            elif mode == "GRU":
                assert dh_prev is not None
                ghp_t = g_hp[off : off + b]
                dz = dh_prev[:b]
                _C._nn_gru_cell_backward(
                    a_t, hh_n[off : off + b], h_prev_all[off : off + b], dh, gx_t, ghp_t, dz
                )
                dh = ember.addmm(dz, ghp_t, w_hh)
                if g_next is not None:
                    dh.add_(g_next)
            else:
                if mode == "RNN_TANH":
                    ember.mul(dh, 1.0 - a_t * a_t, out=gx_t)
                else:
                    ember.mul(dh, a_t > 0, out=gx_t)
                dh = ember.matmul(gx_t, w_hh) if g_next is None else ember.addmm(g_next, gx_t, w_hh)
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
    # The fused cells read rows with unit stride: a user's transposed state is copied once here.
    h0 = h0.contiguous()
    cell_state = (c0 if c0 is not None else h0).contiguous()
    out, h_n, c_n = _RecurrentLayer.apply(
        xp, h0, cell_state, w_hh, b_hh, w_hr, mode, reverse, batch_sizes
    )
    return out, h_n, (c_n if mode == "LSTM" else None)

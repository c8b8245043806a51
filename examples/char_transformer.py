"""A character-level Transformer language model trained on a few KB of Alice in Wonderland.

Run from the repository root:

    uv run python examples/char_transformer.py [--steps 300] [--temperature 0.8]

The text (examples/data/alice_chapter1.txt, public domain) is encoded one id per character. Each
step draws a batch of random 64-character windows and trains the model to predict every next
character: token embedding + learned positional embedding, an ``nn.TransformerEncoder`` with the
causal mask from ``nn.Transformer.generate_square_subsequent_mask``, and a Linear head, with
``F.cross_entropy`` and AdamW. It prints the loss as it falls, then samples text one character at a
time (softmax at a temperature, ``ember.multinomial``). Replace ``ember`` with ``torch`` and the
same code runs on PyTorch.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import ember
import ember.nn as nn
import ember.nn.functional as F

TEXT = Path(__file__).resolve().parent / "data" / "alice_chapter1.txt"


class CharTransformer(nn.Module):
    """[B, T] character ids -> [B, T, vocab] next-character logits (causal)."""

    def __init__(
        self, vocab: int, seq_len: int, d_model: int = 64, nhead: int = 4, layers: int = 2
    ) -> None:
        super().__init__()
        self.seq_len = seq_len
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(seq_len, d_model)
        layer = nn.TransformerEncoderLayer(
            d_model, nhead, dim_feedforward=4 * d_model, dropout=0.1, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids: ember.Tensor) -> ember.Tensor:
        t = ids.shape[1]
        x = self.tok(ids) * math.sqrt(self.tok.embedding_dim) + self.pos(ember.arange(t))
        mask = nn.Transformer.generate_square_subsequent_mask(t)  # -inf above the diagonal
        return self.head(self.norm(self.encoder(x, mask=mask, is_causal=True)))


def random_windows(data: ember.Tensor, batch: int, seq_len: int) -> tuple[ember.Tensor, ...]:
    """A batch of (input, target) windows, the target shifted one character right."""
    starts = ember.randint(0, data.shape[0] - seq_len - 1, (batch,))
    offsets = ember.arange(seq_len + 1)
    windows = data[starts[:, None] + offsets]  # [batch, seq_len + 1]
    return windows[:, :-1], windows[:, 1:]


@ember.no_grad()
def sample(
    model: CharTransformer, prompt: ember.Tensor, length: int, temperature: float
) -> ember.Tensor:
    """Extend a 1-D id prompt by ``length`` ids drawn from the model's softmax at a temperature."""
    model.eval()
    ids = prompt[None]  # [1, T]
    for _ in range(length):
        logits = model(ids[:, -model.seq_len :])[:, -1]  # [1, vocab], the last position
        probs = F.softmax(logits / temperature, dim=-1)
        ids = ember.cat([ids, ember.multinomial(probs, 1)], dim=1)
    return ids[0]


def main(
    steps: int = 300,
    seq_len: int = 64,
    batch: int = 32,
    log_every: int = 50,
    sample_len: int = 300,
    temperature: float = 0.8,
    seed: int = 0,
) -> str:
    """Train, print the losses, and return (and print) the sampled text."""
    ember.manual_seed(seed)
    text = TEXT.read_text(encoding="utf-8")
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    data = ember.tensor([index[c] for c in text])  # int64 ids
    print(f"{len(text)} characters, vocabulary of {len(chars)}")

    model = CharTransformer(len(chars), seq_len)
    optimizer = ember.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    scheduler = ember.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=steps)
    for step in range(1, steps + 1):
        model.train()
        x, y = random_windows(data, batch, seq_len)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        if step % log_every == 0 or step in (1, steps):
            print(f"step {step:4d}  loss {loss.item():.4f}")

    prompt = ember.tensor([index[c] for c in "Alice "])
    out = sample(model, prompt, sample_len, temperature)
    generated = "".join(chars[int(i)] for i in out.tolist())
    print(f"--- sample (temperature {temperature}) ---")
    print(generated)
    return generated


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="training steps (default 300)")
    parser.add_argument("--sample-len", type=int, default=300, help="characters to generate")
    parser.add_argument("--temperature", type=float, default=0.8, help="sampling temperature")
    parser.add_argument("--seed", type=int, default=0, help="seed of the weights, batches, sample")
    args = parser.parse_args()
    main(
        steps=args.steps,
        sample_len=args.sample_len,
        temperature=args.temperature,
        seed=args.seed,
    )

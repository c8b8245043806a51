"""Optimizers and learning-rate schedulers with PyTorch's API."""

"""Datasets, samplers, collation and DataLoader with PyTorch's API."""

"""A drop-in for the standard multiprocessing module that shares ember tensors."""

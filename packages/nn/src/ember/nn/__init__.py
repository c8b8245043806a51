"""Neural-network modules, layers, losses and functional ops with PyTorch's API."""

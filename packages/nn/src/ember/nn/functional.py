"""``ember.nn.functional``: the functions behind the modules (torch.nn.functional)."""

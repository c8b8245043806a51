"""``ember.nn.utils``: gradient clipping, parameter vectors, parametrizations, fusion."""

"""Implementation modules behind ``ember.nn.functional``, one per family of ops."""

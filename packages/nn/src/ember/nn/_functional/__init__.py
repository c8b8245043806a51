"""Implementations behind ``ember.nn.functional``, one file per family of ops."""

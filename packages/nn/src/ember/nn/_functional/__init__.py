"""Implementations behind ``ember.nn.functional``, one file per family (re-exported there)."""

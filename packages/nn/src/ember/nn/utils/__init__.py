"""``ember.nn.utils``: gradient clipping, parameter vectors, parametrizations, fusion."""

from ember.nn.utils import rnn as rnn  # nn-seq

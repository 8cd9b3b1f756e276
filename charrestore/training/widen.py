"""Grow a trained char model's BiLSTMs to more units without changing what it computes.

A model that has stopped gaining at its width (train and dev loss level, the learning rate annealed) would
otherwise have to be trained again from nothing at the larger width: many CPU hours. Here every old unit
keeps its weights, and each new unit starts silent: its weights into the old units' gates and into the next
layer (the next BiLSTM, or the logits) are zero, while its own input weights are drawn as Keras draws them.
The widened model's outputs are the old model's; training then finds a use for the new units (their outgoing
weights get gradients at once), which is the Net2Net idea of growing a network from a trained one.

Keras orders an LSTM's weights as kernel (in, 4h), recurrent kernel (h, 4h) and bias (4h), the four gates
i, f, c, o side by side; a ``Bidirectional`` layer holds the forward layer's three, then the backward's.
"""

from __future__ import annotations

import numpy as np

GATES = 4


def widen_weights(old: dict[str, list[np.ndarray]], new: dict[str, list[np.ndarray]], old_units: int,
                  new_units: int) -> dict[str, list[np.ndarray]]:
    """The weights of the wider model, layer by layer (``name -> weights``, as ``layer.get_weights()`` gives):
    ``new`` holds the wider model's freshly initialised weights, whose new units' input weights are kept."""
    if new_units < old_units:
        raise ValueError(f"a BiLSTM cannot shrink ({old_units} -> {new_units} units)")
    out = {}
    for name, fresh in new.items():
        if name.startswith("bilstm"):
            first = name == "bilstm0"  # its input is the convolutions', whose width does not change
            out[name] = [w for d in (0, 3) for w in _lstm(old[name][d:d + 3], fresh[d:d + 3], old_units,
                                                          new_units, first)]
        elif name == "logits":
            kernel, bias = old[name]
            out[name] = [_rows(kernel, fresh[0].shape[0], old_units, new_units), bias]
        else:
            out[name] = old[name]
    return out


def _lstm(old, fresh, h, wide, first):
    """One direction: each gate block's first ``h`` columns are the old units', whose weights from the new
    units (of this layer, or of the BiLSTM below) are zero; the new units' columns keep their fresh weights."""
    kernel, recurrent, bias = (w.copy() for w in fresh)
    o_kernel, o_recurrent, o_bias = old
    for g in range(GATES):
        old_cols, new_cols = slice(g * h, (g + 1) * h), slice(g * wide, g * wide + h)
        kernel[:, new_cols] = o_kernel[:, old_cols] if first else _rows(o_kernel[:, old_cols], 2 * wide, h, wide)
        recurrent[:, new_cols] = _placed(o_recurrent[:, old_cols], wide, np.arange(h))
        bias[new_cols] = o_bias[old_cols]
    return [kernel, recurrent, bias]


def _old_rows(h, wide):
    """Where the old units of a BiLSTM's output (forward, then backward) sit once the layer is ``wide``."""
    return np.r_[0:h, wide:wide + h]


def _rows(matrix, n_rows, h, wide):
    """``matrix``'s rows (a BiLSTM's 2h outputs) placed at the old units' rows of ``n_rows``; the rest zero."""
    return _placed(matrix, n_rows, _old_rows(h, wide))


def _placed(matrix, n_rows, rows):
    """``matrix``'s rows placed at ``rows`` of ``n_rows`` rows; the rest zero."""
    out = np.zeros((n_rows, *matrix.shape[1:]), matrix.dtype)
    out[rows] = matrix
    return out


def widen_model(old, new, old_units: int, new_units: int) -> None:
    """Set the Keras model ``new`` (built ``new_units`` wide) from the trained ``old`` (``old_units`` wide)."""
    named = {layer.name: layer for layer in new.layers if layer.weights}
    weights = widen_weights({n: old.get_layer(n).get_weights() for n in named},
                            {n: layer.get_weights() for n, layer in named.items()}, old_units, new_units)
    for n, layer in named.items():
        layer.set_weights(weights[n])

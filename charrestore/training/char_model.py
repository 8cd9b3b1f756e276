"""The char E2E tagger: embeddings -> residual dilated CNN -> BiLSTM -> logits over the 2^n classes.

The dilated convolutions give cheap, parallel local context (a ~30-grapheme receptive field); the BiLSTM
carries the long context that sentence ends and commas need. Outputs logits (no softmax) so that the
runtime can add per-feature decoding biases before the argmax.
"""

from __future__ import annotations

import keras
from keras import layers


def build_char_model(vocab_size: int, n_classes: int, emb: int = 64, conv: int = 96, kernel: int = 5,
                     dilations=(1, 2, 4), lstm: int = 128, lstm_layers: int = 1, dropout: float = 0.1) -> keras.Model:
    ids = keras.Input(shape=(None,), dtype="int32", name="ids")
    x = layers.Embedding(vocab_size, emb, name="embed")(ids)
    x = layers.Dense(conv, name="proj")(x)
    for d in dilations:
        h = layers.Conv1D(conv, kernel, padding="same", dilation_rate=d, activation="relu", name=f"conv_d{d}")(x)
        h = layers.Dropout(dropout)(h)
        x = layers.LayerNormalization(name=f"norm_d{d}")(layers.Add()([x, h]))
    for i in range(lstm_layers):
        x = layers.Bidirectional(layers.LSTM(lstm, return_sequences=True), name=f"bilstm{i}")(x)
        x = layers.Dropout(dropout)(x)
    logits = layers.Dense(n_classes, name="logits")(x)
    return keras.Model(ids, logits, name="char_e2e")

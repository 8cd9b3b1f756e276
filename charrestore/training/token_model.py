"""The token-level CNN-BiLSTM of Edge-Punct-Casing: punctuation and casing of every word in one pass.

subword embeddings -> 3 residual Conv1D(k=3) + LayerNorm -> the first subword of each word -> 2 BiLSTM
-> 1 LSTM -> punctuation head on [s_t, s_t+1] and casing head on [s_t-1, s_t] (section 3 of the paper).

Padded subword positions (id 0) are zeroed after every encoder layer, so a window's output does not
depend on how much padding its batch needed: batch size never changes the runtime's output.
"""

from __future__ import annotations

import keras
from keras import layers, ops

PUNCT_LABELS = ("O", "COMMA", "PERIOD", "QUESTION")
CASE_LABELS = ("O", "UPP", "CAP", "MIX")


@keras.saving.register_keras_serializable("charrestore")
class ZeroPads(layers.Layer):
    """x * (ids != 0): padded subwords read as the zeros of 'same' convolution padding."""

    def call(self, x, ids):
        return x * ops.expand_dims(ops.cast(ops.not_equal(ids, 0), x.dtype), -1)


@keras.saving.register_keras_serializable("charrestore")
class GatherWords(layers.Layer):
    """[B, T, D] subword states, [B, W] first-subword positions -> [B, W, D] word vectors."""

    def call(self, x, starts):
        return ops.take_along_axis(x, ops.expand_dims(ops.cast(starts, "int32"), -1), axis=1)


@keras.saving.register_keras_serializable("charrestore")
class Shift(layers.Layer):
    """s_{t+offset} along time, zeros beyond the ends (offset +1: next word, -1: previous word)."""

    def __init__(self, offset: int, **kwargs):
        super().__init__(**kwargs)
        self.offset = offset

    def call(self, x):
        if self.offset > 0:
            return ops.pad(x[:, self.offset:], [[0, 0], [0, self.offset], [0, 0]])
        return ops.pad(x[:, :self.offset], [[0, 0], [-self.offset, 0], [0, 0]])

    def get_config(self):
        return {**super().get_config(), "offset": self.offset}


def build_token_model(vocab_size: int, emb: int = 64, lstm: int = 128, conv_layers: int = 3, kernel: int = 3,
                      dropout: float = 0.2) -> keras.Model:
    ids = keras.Input(shape=(None,), dtype="int32", name="ids")
    starts = keras.Input(shape=(None,), dtype="int32", name="starts")
    x = ZeroPads(name="zero_emb")(layers.Embedding(vocab_size, emb, name="embed")(ids), ids)
    for i in range(conv_layers):
        h = layers.Conv1D(emb, kernel, padding="same", activation="relu", name=f"conv{i}")(x)
        h = layers.Dropout(dropout)(h)
        x = ZeroPads(name=f"zero{i}")(layers.LayerNormalization(name=f"norm{i}")(layers.Add()([x, h])), ids)
    w = GatherWords(name="first_subword")(x, starts)
    for i in range(2):
        w = layers.Bidirectional(layers.LSTM(lstm, return_sequences=True), name=f"bilstm{i}")(w)
        w = layers.Dropout(dropout)(w)
    s = layers.LSTM(lstm, return_sequences=True, name="lstm")(w)
    s = layers.Dropout(dropout)(s)
    punct = layers.Dense(len(PUNCT_LABELS), name="punct")(layers.Concatenate()([s, Shift(1, name="next")(s)]))
    case = layers.Dense(len(CASE_LABELS), name="case")(layers.Concatenate()([Shift(-1, name="prev")(s), s]))
    return keras.Model([ids, starts], [punct, case], name="token_cnn_bilstm")

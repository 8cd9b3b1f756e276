"""A char card's decoding settings (tuned on dev by ``charrestore tune char``) and the additive scores they make:
per-class logit offsets, and the masks that enforce or weigh spaces by their input state (char_e2e.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..packs import SPACE, LanguagePack
from .char_input import GIVEN_JOIN, GIVEN_SPACE, HAS_SPACE, NB_JOIN, NB_SPACE, NO_SPACE

# The card keys that decoding reads (tuned on dev by ``charrestore tune char``; ``nb_spaces``: the NB segmenter's
# spaces on unspaced input). The window keys are the export's first (a retrained model's are set anew).
WINDOW_KEYS = ("window", "overlap", "cut")
DECODING_KEYS = WINDOW_KEYS + ("bias", "nb_spaces", "nb_space", "nb_join", "capital_after_mark_penalty", "pair_bonus",
                               "given_space", "given_join", "reread", "end_bias", "common_capital_penalty",
                               "sentence_opener_weight")


@dataclass(frozen=True)
class CharSettings:
    """Decoding settings of a char model, as its card gives them (tuned on dev)."""
    window: int
    overlap: int
    cut: int
    bias: dict[str, float] = field(default_factory=dict)  # per-feature logit offsets
    capital_after_mark_penalty: float = math.inf  # inf: every "mark, Capital" pair is kept
    given_space: float = 0.0  # restored spaces in spaced input: logit bonus of a space where the input has one
    given_join: float = 0.0  # ... and the cost of a space where it has none (both 0: the input's spaces ignored)
    pair_bonus: float = 0.0  # paired marks (char_pairs.py): what a sentence gains by taking both ends ("¿" … "?")
    nb_space: float = math.inf  # NB spaces (nb_spaces): logit bonus of a space where the segmenter cuts (inf: enforced)
    nb_join: float = math.inf  # ... and the cost of a space where it joins
    # restored spaces: the weight of a second reading of the input with the decided spaces given (as spaced input is
    # read), mixed into the first reading's logits to decide marks and case again; 0: one reading
    reread: float = 0.0
    # the input's last grapheme, where it must take a sentence mark: offsets of those marks against each other (the
    # biases are fit to documents, where a "?" is rare in the middle and the end is one mark in hundreds)
    end_bias: dict[str, float] = field(default_factory=dict)
    # capital_after_mark_penalty where the capital starts one of the card's ``common_words`` (no name: "vie, J'ai")
    common_capital_penalty: float = math.inf
    # the input's last mark: what the lift of its sentence's first word (the card's ``sentence_openers``) weighs
    sentence_opener_weight: float = 0.0

    @property
    def soft_nb(self) -> bool:
        """The NB segmenter's spaces are evidence the model may overrule, not constraints."""
        return math.isfinite(self.nb_space) and math.isfinite(self.nb_join)

    @classmethod
    def from_card(cls, card: dict) -> "CharSettings":
        def number(key, default):  # None (JSON null) stands for inf
            value = card.get(key, default)
            return math.inf if value is None else float(value)

        return cls(card["window"], card["overlap"], card["cut"], dict(card.get("bias", {})),
                   number("capital_after_mark_penalty", None), number("given_space", 0.0),
                   number("given_join", 0.0), number("pair_bonus", 0.0), number("nb_space", None),
                   number("nb_join", None), number("reread", 0.0), dict(card.get("end_bias", {})),
                   number("common_capital_penalty", None), number("sentence_opener_weight", 0.0))


def class_bias(pack: LanguagePack, bias: dict[str, float]) -> np.ndarray:
    """Per-class logit offsets from per-feature ones (tuned on dev to trade precision for recall). A class with
    several marks ("etc.,") takes its largest mark offset, not their sum: a sum lifts combinations the model
    rarely means over the single marks (an input's last letter came out as "o.,?")."""
    out = np.zeros(pack.n_classes, np.float32)
    for c in range(pack.n_classes):
        on = [(f, v) for f, v in bias.items() if c & pack.bit(f)]
        out[c] = sum(v for f, v in on if f not in pack.marks) + max((v for f, v in on if f in pack.marks), default=0.0)
    return out


def agreed(nb: np.ndarray, spaced: np.ndarray) -> np.ndarray:
    """Spaced input with NB spaces: where NB's cut or join (``nb``, its states) agrees with the typed text, the
    card's ``given_space`` or ``given_join`` weighs it (GIVEN_SPACE, GIVEN_JOIN); where they disagree ("нато" typed,
    "на то" cut), NB's own state, and the model decides."""
    cut = np.isin(nb, (HAS_SPACE, NB_SPACE))
    return np.where(cut == spaced, np.where(cut, GIVEN_SPACE, GIVEN_JOIN), nb).astype(np.int32)


def state_masks(pack: LanguagePack, settings: CharSettings) -> np.ndarray:
    """[state, class] additive masks: kept spaces allow only classes whose SPACE bit agrees; where spaces are
    restored in spaced input, the classes with a space gain ``given_space`` at a space of the input (GIVEN_SPACE)
    and lose ``given_join`` where it has none (GIVEN_JOIN); the NB segmenter's soft spaces likewise, by
    ``nb_space`` and ``nb_join`` (NB_SPACE, NB_JOIN; enforced NB spaces never take these states)."""
    masks = np.zeros((NB_SPACE + 1, pack.n_classes), np.float32)
    space_bit = pack.bit(SPACE)
    if space_bit:
        has = (np.arange(pack.n_classes) & space_bit) != 0
        masks[HAS_SPACE, ~has] = -np.inf
        masks[NO_SPACE, has] = -np.inf
        masks[GIVEN_SPACE, has] = settings.given_space
        masks[GIVEN_JOIN, has] = -settings.given_join
        if settings.soft_nb:
            masks[NB_SPACE, has] = settings.nb_space
            masks[NB_JOIN, has] = -settings.nb_join
    return masks

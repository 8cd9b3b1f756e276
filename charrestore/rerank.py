"""Reranks the NB segmenter's k best segmentations with evidence the bigram model does not weigh.

The NB Viterbi's best path is right on about 83% of STAN-large dev hashtags, but a right one is among its 5 best
on about 96%: the word model alone cannot tell "eu phonic" from "euphonic". A linear score over a few features of
each candidate, as differences from the NB best (its NB score; how many words, unknown words, one- and two-letter
words it has; its longest word; its unigram-only score; the letter/digit and case changes it leaves uncut;
optionally the char model's log odds of a space at its cuts) picks among them. The weights are data:
``models/<lang>/rerank.json`` (the card) names the weights file, learned on STAN-large train hashtags and short
prose phrases, k and L2 chosen on dev, by ``charrestore tune rerank``. A language without that card segments with
the plain NB (:func:`best_segmenter`).

>>> from charrestore.segmenter import Segmenter
>>> seg = Segmenter({"maris": 5, "coming": 50, "mari": 8, "scoming": 1}, {}, L=8)
>>> Reranker(seg, {"nb": 1.0}, k=4).segment("mariscoming") == seg.segment("mariscoming")
True
>>> Reranker(seg, {"nb": 1.0, "longest": 2.0}, k=4).segment("mariscoming")
'mari scoming'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import numpy as np

from .cards import ModelError, load_card
from .kbest import MAX_CHARS, nbest
from .kbest import Path as NBPath
from .paths import models_dir
from .segmenter import Segmenter
from .word_runs import CAMEL, DIGIT_CHANGE
from .validate import SchemaError, fields

FEATURES = ("nb", "words", "unknown", "single", "short", "longest", "unigram", "digits", "camel", "char")
CARD = "rerank"


@dataclass(frozen=True)
class Candidate:
    """One segmentation: its cuts (text positions that take a space), NB log10 score, features (differences from
    the NB best) and reranked score (the NB best scores 0)."""
    cuts: list[int]
    nb: float
    features: tuple[float, ...]
    score: float


class Reranker:
    """NB k-best plus a linear rescoring. ``weights`` maps feature names to weights (missing ones: 0); ``char``
    (an ONNX session, its vocabulary, its SPACE classes) is needed only for a non-zero ``char`` weight. A text longer
    than ``max_chars`` (the longest the weights were learned on) keeps the NB's best."""

    def __init__(self, segmenter: Segmenter, weights: Mapping[str, float], k: int = 8, char=None,
                 max_chars: int = MAX_CHARS):
        unknown = set(weights) - set(FEATURES)
        if unknown:
            raise ValueError(f"unknown features {sorted(unknown)} (known: {', '.join(FEATURES)})")
        self.segmenter, self.k, self.max_chars = segmenter, int(k), int(max_chars)
        self.weights = np.array([float(weights.get(f, 0.0)) for f in FEATURES])
        self.char = char if self.weights[-1] else None

    @classmethod
    def load(cls, lang: str, root: Path | None = None) -> Reranker:
        """The shipped reranker of a language (``models/<lang>/rerank.json``), read once and cached. Raises
        ``ModelError`` naming the file if it is missing, unreadable or does not match its card."""
        return _load(lang, None if root is None else Path(root))

    def candidates(self, text: str) -> list[Candidate]:
        """The NB k best of ``text``, best reranked score first (ties keep the NB order)."""
        paths, X = self.features(text)
        scores = X @ self.weights
        order = sorted(range(len(paths)), key=lambda i: -scores[i])
        return [Candidate(paths[i].cuts, paths[i].score, tuple(X[i].tolist()), float(scores[i])) for i in order]

    def features(self, text: str, k: int | None = None) -> tuple[list[NBPath], np.ndarray]:
        """The NB candidates (NB order) and their feature rows (``FEATURES``), as differences from the first."""
        paths = nbest(self.segmenter, text, (self.k if k is None else k) if len(text) <= self.max_chars else 1)
        if len(paths) == 1:
            return paths, np.zeros((1, len(FEATURES)))
        uni, unk0, unk1 = self.segmenter._uni, self.segmenter._unk0, self.segmenter._unk1
        odds = self.space_odds(text) if self.char is not None else None
        digits = {m.start() for m in DIGIT_CHANGE.finditer(text)}
        camel = {m.start() for m in CAMEL.finditer(text)}
        rows = []
        for p in paths:
            cuts = set(p.cuts)
            logp = [uni.get(w) for w in p.words]
            lengths = [len(w) for w in p.words]
            rows.append((p.score, len(p.words), logp.count(None), lengths.count(1), lengths.count(2), max(lengths),
                         sum(unk0 - unk1 * n if lp is None else lp for lp, n in zip(logp, lengths)),
                         len(digits - cuts), len(camel - cuts), float(odds[p.cuts].sum()) if odds is not None else 0.0))
        X = np.array(rows)
        return paths, X - X[0]

    def configured(self, **params) -> Reranker:
        """A copy over ``self.segmenter.configured(**params)`` (the weights were tuned for the card's values)."""
        other = object.__new__(Reranker)
        other.__dict__.update(self.__dict__, segmenter=self.segmenter.configured(**params))
        return other

    def cuts(self, text: str) -> list[int]:
        """Positions in ``text`` where a space is to be inserted (ascending), as ``Segmenter.cuts``."""
        return self.candidates(text)[0].cuts

    def segment(self, text: str) -> str:
        """``text`` with spaces inserted at the reranked best cuts; no other character changes."""
        return spaced(text, self.cuts(text))

    def space_odds(self, text: str) -> np.ndarray:
        """Per text position, the char model's log odds of a space there (0 where it cannot say)."""
        from . import runtime
        from .codec import graphemes
        from .engines.char_input import HAS_SPACE, UNKNOWN, input_ids

        session, index, space_classes = self.char
        gs, ends, states = [], [], []
        pos = 0
        for g in graphemes(text):
            pos += len(g)
            if g.isspace():
                if states:
                    states[-1] = HAS_SPACE
                continue
            gs.append(index.get(g.lower(), 1))
            ends.append(pos)
            states.append(UNKNOWN)
        odds = np.zeros(len(text) + 1)
        if not gs:
            return odds
        logits = runtime.run(session, input_ids(np.array(gs, np.int32), np.array(states, np.int32))[None])[0]
        p = np.exp(logits - logits.max(-1, keepdims=True))
        space = p[:, space_classes].sum(-1)
        odds[ends] = np.log(space + 1e-9) - np.log(p.sum(-1) - space + 1e-9)
        odds[len(text)] = 0.0
        return odds


def spaced(text: str, cuts: list[int]) -> str:
    """``text`` with a space inserted at each of ``cuts``."""
    return " ".join(text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)]))


def ranked(model: Reranker | Segmenter, text: str, k: int = 8) -> list[Candidate]:
    """The candidates ``model`` chooses among, best first: a reranker's, or the plain NB's ``k`` best (features
    empty, score the NB log10 score minus the best one's)."""
    if isinstance(model, Reranker):
        return model.candidates(text)
    paths = nbest(model, text, k)
    return [Candidate(p.cuts, p.score, (), 0.0 if len(paths) == 1 else p.score - paths[0].score) for p in paths]


def best_segmenter(lang: str, root: Path | None = None) -> Reranker | Segmenter:
    """The reranker of ``lang`` when it has a ``rerank.json``, else its plain NB segmenter (both have ``cuts``
    and ``segment``). A reranker that is there but damaged raises ``ModelError``."""
    if (Path(root or models_dir()) / lang / f"{CARD}.json").is_file():
        return Reranker.load(lang, root)
    return Segmenter.load(lang, root)


def char_scorer(lang: str, name: str, root: Path | None = None):
    """(session, vocabulary index, SPACE classes) of the char model ``name``: what the ``char`` feature runs."""
    from . import runtime
    from .engines.char_input import vocab_index

    card, path = load_card(lang, name, root)
    if "SPACE" not in card["features"]:
        raise ModelError(f"{path}: the char model has no SPACE feature to score cuts with")
    space = card["features"].index("SPACE")
    classes = [c for c in range(1 << len(card["features"])) if c >> space & 1]
    return runtime.session(path, 1), vocab_index(card["vocab"]), classes


@lru_cache(maxsize=8)
def _load(lang: str, root: Path | None) -> Reranker:
    card, path = load_card(lang, CARD, root, kind=CARD)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        fields(data, {"weights": "numbers", "k": "int"}, {"max_chars": "int"})
        if data["k"] < 1 or data.get("max_chars", 1) < 1:
            raise SchemaError(f"'k' and 'max_chars' must be >= 1, not {data['k']}, {data.get('max_chars')}")
        reranker = Reranker(Segmenter.load(lang, root), data["weights"], data["k"],
                            max_chars=data.get("max_chars", MAX_CHARS))
    except (OSError, ValueError, RecursionError) as exc:
        raise ModelError(f"{path}: bad reranker weights ({exc})") from None
    if reranker.weights[-1]:
        if not card.get("char_model"):
            raise ModelError(f"{path}: a 'char' weight needs the card's 'char_model'")
        reranker.char = char_scorer(lang, card["char_model"], root)
    return reranker

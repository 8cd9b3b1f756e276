"""Dev documents decoded as the runtime decodes them, and their char-level scores: what every char tuning grid
(tuning/char.py) compares its settings by."""

from __future__ import annotations

import math

import numpy as np

from ..engines.char_settings import class_bias
from ..engines.char_input import UNKNOWN, grapheme_ids
from .dev import unspaced_docs


def decodable(refs: list[str], engine) -> tuple[list, list]:
    """The reference classes of ``refs`` and their de-spaced documents as ``decode`` reads them: (base, ids, the
    states decoded with), the NB segmenter's where ``engine`` has one."""
    ref_cls, encoded = unspaced_docs(refs, engine.pack, engine)
    return ref_cls, [(base, gids, enforce) for base, gids, _, enforce in encoded]


def feature_scores(pack, refs, preds) -> dict:
    """Char-level F per feature and micro ALL over concatenated class arrays."""
    ref, hyp = np.concatenate(refs), np.concatenate(preds)
    out, tot = {}, np.zeros(3)
    for f in pack.features:
        b = pack.bit(f)
        r, h = (ref & b) != 0, (hyp & b) != 0
        counts = np.array([np.sum(r & h), np.sum(h & ~r), np.sum(r & ~h)], float)
        tot += counts
        out[f] = _f1(counts)
    out["ALL"] = _f1(tot)
    return out


def objective(scores: dict, features) -> float:
    """The tuner's objective over ``features``: their mean F plus half of ALL (for one feature's bias, the paired
    marks' bonus, or the whole decoding that the card keeps or not)."""
    return (sum(scores[f] for f in features) / len(features) if features else 0.0) + 0.5 * scores["ALL"]


def supported(pack, refs, min_support: int) -> list[str]:
    """The features with at least ``min_support`` marks in the reference class arrays ``refs``: a rarer one's F
    is too noisy to fit a bias to or to judge a decoding by (vi's keep rule once turned on 25 question marks); it
    still counts in ALL."""
    ref = np.concatenate(refs)
    return [f for f in pack.features if np.sum((ref & pack.bit(f)) != 0) >= min_support]


def _f1(c) -> float:
    tp, fp, fn = c
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def decode(engine, docs, logits, bias, nb=False, penalty=math.inf, states=None):
    """Classes as the runtime decodes them, with ``bias`` and the capital-after-mark ``penalty`` (and the card's
    common-word one); with ``nb`` the NB segmenter's spaces are enforced, else ``states`` (one array per document)
    when given."""
    preds = []
    for k, ((base, _, enforce), lg) in enumerate(zip(docs, logits)):
        given = enforce if nb else states[k] if states is not None else np.full(len(base), UNKNOWN, np.int32)
        scores = engine.scores(lg, given, class_bias(engine.pack, bias), at_end=True,
                               end_mark=engine.ends_sentence(base))
        cls = engine.one_source_spaces(scores, scores.argmax(-1).astype(np.int32), given)
        gids = grapheme_ids(base, engine.index)
        cls = engine.capital_after_mark(scores, cls, penalty, gids=gids)
        if engine.openers and engine.settings.sentence_opener_weight and engine.ends_sentence(base):
            cls = engine.openers.at_end(scores, cls, gids, True, engine.settings.sentence_opener_weight)
        if engine.pairing:
            cls = engine.pairing.resolve(cls, engine.pairing.gains(scores, cls), engine.settings.pair_bonus)
        preds.append(cased(engine, base, cls))
    return preds


def cased(engine, base: list[str], cls: np.ndarray) -> np.ndarray:
    """A document's decoded classes with the case the runtime gives them after decoding: its sentence starts, then
    the pack's list of proper forms."""
    return engine.proper_case(base, engine.sentence_case(base, cls))


def merged_logits(engine, docs) -> list[np.ndarray]:
    """The merged window logits of each unspaced document, under the engine's window settings."""
    return [engine.logits(gids, np.full(len(gids), UNKNOWN, np.int32)) for _, gids, _ in docs]

"""Scores of restored text against a reference: char level (Dyer et al.) and token level (IWSLT).

Every function takes parallel lists of documents (one reference and one hypothesis per document) and a
:class:`~charrestore.packs.LanguagePack`. Both sides are read with the same pack and the same mapping, so
punctuation outside the pack (``!`` ``;`` ``:`` dashes, quotes...) is mapped or dropped exactly as in training.

Char level (:func:`evaluate_char`)
    For each base grapheme, the feature sets of reference and hypothesis are compared: TP/FP/FN per feature
    (CAPS, each mark, SPACE), P/R/F per feature and ``ALL`` = the micro average over all features.
    A feature's F is ``2TP / (2TP + FP + FN)`` (the harmonic mean of P and R); P, R or F is ``None`` ("n/a")
    when its denominator is 0, so a feature that never occurs on either side is not counted as perfect.
    WER: the canonical renderings ``render(parse(x))`` are split at spaces and the Levenshtein distance of
    the two word lists is taken; a word with any wrong feature is a different word, hence one edit.
    WER = total edits / total reference words over the corpus (``None`` for packs without SPACE).

Token level (:func:`evaluate_token`, packs with SPACE only)
    Words are the canonical rendering split at spaces. Each word gets a punctuation label (O/COMMA/PERIOD/
    QUESTION, from the marks that end it) and a casing class (O/UPP/CAP/MIX); :mod:`charrestore.labels`
    holds the rules, shared with the token model and its training.
    P/R/F per class; ``overall`` is the micro average over the non-O classes (IWSLT convention: a COMMA
    predicted as PERIOD is a false negative of COMMA and a false positive of PERIOD).
    Confusion matrices have the reference in rows and the hypothesis in columns.

Mismatches never crash and are never hidden: lines only in one file are reported and not scored; when the
base graphemes (char level) or the words' base forms (token level) of a line differ, the two sequences are
aligned (:func:`align`, difflib.SequenceMatcher) and only the equal part is scored; the counts are reported.
WER needs no alignment: it scores every common line as it is.

Every result carries a signature (sacrebleu style) with every setting that changes the numbers.
``to_dict()`` (``--json``) gives P, R, F and WER as fractions in [0, 1] with the raw counts beside them;
``format_table()`` prints percentages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..codec import parse, render
from ..labels import CASING_LABELS, MARK_LABELS, PUNCT_ORDER, labelled_words, punct_label
from ..packs import LanguagePack
from .alignment import align, levenshtein
from .scores import PRF, class_scores, matrix_text, micro, mismatch_warnings, prf_header, prf_row
from .signature import signature


@dataclass
class CharResult:
    """Char-level counts over a corpus; P/R/F and WER are derived from them."""

    signature: str
    features: tuple[str, ...]
    class_names: tuple[str, ...]
    confusion: np.ndarray            # reference class id (rows) x hypothesis class id (columns)
    lines_ref: int = 0
    lines_hyp: int = 0
    lines_scored: int = 0
    lines_base_mismatch: int = 0     # scored lines whose base graphemes differ
    ref_graphemes: int = 0           # in the scored lines
    hyp_graphemes: int = 0
    aligned_graphemes: int = 0       # scored: equal base graphemes
    wer_edits: int = 0
    ref_words: int = 0
    hyp_words: int = 0
    has_space: bool = True

    @property
    def per_feature(self) -> dict[str, PRF]:
        m = self.confusion
        ids = np.arange(len(m))
        out = {}
        for i, f in enumerate(self.features):
            bit = 1 << i
            has = (ids & bit) != 0  # reference rows / hypothesis columns whose class has the feature
            out[f] = PRF(int(m[np.ix_(has, has)].sum()), int(m[np.ix_(~has, has)].sum()),
                         int(m[np.ix_(has, ~has)].sum()))
        return out

    @property
    def all(self) -> PRF:
        return micro(self.per_feature)

    @property
    def wer(self) -> float | None:
        if not self.has_space or not self.ref_words:
            return None
        return self.wer_edits / self.ref_words

    def to_dict(self) -> dict:
        used = [i for i in range(len(self.confusion))
                if self.confusion[i].any() or self.confusion[:, i].any()]
        return {
            "signature": self.signature,
            "level": "char",
            "features": {f: s.to_dict() for f, s in self.per_feature.items()},
            "ALL": self.all.to_dict(),
            "wer": self.wer,
            "wer_edits": self.wer_edits if self.has_space else None,
            "ref_words": self.ref_words if self.has_space else None,
            "hyp_words": self.hyp_words if self.has_space else None,
            "lines": {"ref": self.lines_ref, "hyp": self.lines_hyp, "scored": self.lines_scored,
                      "base_mismatch": self.lines_base_mismatch},
            "graphemes": {"ref": self.ref_graphemes, "hyp": self.hyp_graphemes, "aligned": self.aligned_graphemes,
                          "ref_unaligned": self.ref_graphemes - self.aligned_graphemes,
                          "hyp_unaligned": self.hyp_graphemes - self.aligned_graphemes},
            "confusion": {"labels": [self.class_names[i] for i in used],
                          "matrix": self.confusion[np.ix_(used, used)].tolist()},
        }

    def warnings(self) -> list[str]:
        return mismatch_warnings(self.lines_ref, self.lines_hyp, self.lines_base_mismatch,
                                  f"different base graphemes ({self.ref_graphemes - self.aligned_graphemes} "
                                  f"reference and {self.hyp_graphemes - self.aligned_graphemes} hypothesis "
                                  "graphemes unaligned, not scored)")

    def format_table(self) -> str:
        out = [f"char level: {self.lines_scored} documents, {self.aligned_graphemes} graphemes scored", "",
               prf_header("feature")]
        out += [prf_row(f, s) for f, s in self.per_feature.items()]
        out.append(prf_row("ALL", self.all))
        out.append("")
        if self.wer is not None:
            out.append(f"WER {100 * self.wer:.2f} %  ({self.wer_edits} edits / {self.ref_words} reference words)")
        else:
            out.append("WER n/a  (" + ("no SPACE feature in the pack" if not self.has_space
                                      else "no reference words") + ")")
        out += self.warnings()
        out.append(self.signature)
        return "\n".join(out)


@dataclass
class TokenResult:
    """Token-level counts over a corpus: punctuation and casing confusion matrices of aligned words."""

    signature: str
    punct_labels: tuple[str, ...]
    punct_confusion: np.ndarray
    casing_confusion: np.ndarray | None      # None for packs without case
    lines_ref: int = 0
    lines_hyp: int = 0
    lines_scored: int = 0
    lines_word_mismatch: int = 0             # scored lines whose words (base forms) differ
    ref_words: int = 0
    hyp_words: int = 0
    aligned_words: int = 0
    casing_labels: tuple[str, ...] = field(default=CASING_LABELS)

    @property
    def punct(self) -> dict[str, PRF]:
        return class_scores(self.punct_confusion, self.punct_labels)

    @property
    def punct_overall(self) -> PRF:
        return micro(self.punct, skip="O")

    @property
    def casing(self) -> dict[str, PRF] | None:
        return None if self.casing_confusion is None else class_scores(self.casing_confusion, self.casing_labels)

    @property
    def casing_overall(self) -> PRF | None:
        return None if self.casing_confusion is None else micro(self.casing, skip="O")

    def to_dict(self) -> dict:
        d = {
            "signature": self.signature,
            "level": "token",
            "punctuation": {
                "classes": {k: s.to_dict() for k, s in self.punct.items()},
                "overall": self.punct_overall.to_dict(),
                "confusion": {"labels": list(self.punct_labels), "matrix": self.punct_confusion.tolist()},
            },
            "casing": None,
            "lines": {"ref": self.lines_ref, "hyp": self.lines_hyp, "scored": self.lines_scored,
                      "word_mismatch": self.lines_word_mismatch},
            "words": {"ref": self.ref_words, "hyp": self.hyp_words, "aligned": self.aligned_words,
                      "ref_unaligned": self.ref_words - self.aligned_words,
                      "hyp_unaligned": self.hyp_words - self.aligned_words},
        }
        if self.casing_confusion is not None:
            d["casing"] = {
                "classes": {k: s.to_dict() for k, s in self.casing.items()},
                "overall": self.casing_overall.to_dict(),
                "confusion": {"labels": list(self.casing_labels), "matrix": self.casing_confusion.tolist()},
            }
        return d

    def warnings(self) -> list[str]:
        return mismatch_warnings(self.lines_ref, self.lines_hyp, self.lines_word_mismatch,
                                  f"different words ({self.ref_words - self.aligned_words} reference and "
                                  f"{self.hyp_words - self.aligned_words} hypothesis words unaligned, not scored)")

    def format_table(self) -> str:
        out = [f"token level: {self.lines_scored} documents, {self.aligned_words} words scored", "",
               prf_header("punct")]
        out += [prf_row(k, s) for k, s in self.punct.items()]
        out.append(prf_row("overall", self.punct_overall))
        if self.casing_confusion is not None:
            out += ["", prf_header("casing")]
            out += [prf_row(k, s) for k, s in self.casing.items()]
            out.append(prf_row("overall", self.casing_overall))
        out += ["", "punctuation confusion (rows: reference, columns: hypothesis)"]
        out += matrix_text(self.punct_confusion, self.punct_labels)
        if self.casing_confusion is not None:
            out += ["", "casing confusion (rows: reference, columns: hypothesis)"]
            out += matrix_text(self.casing_confusion, self.casing_labels)
        out.append("")
        out += self.warnings()
        out.append(self.signature)
        return "\n".join(out)


def evaluate_char(refs: Sequence[str], hyps: Sequence[str], pack: LanguagePack, *,
                  apply_map: bool = True, spaces: str | None = None) -> CharResult:
    """Char-level P/R/F per feature, ALL and WER of hypotheses against references (one document each).

    >>> from charrestore.packs import load_pack
    >>> r = evaluate_char(["Hi, you. Go"], ["hi you. Go?"], load_pack("en"))
    >>> r.per_feature["CAPS"], r.per_feature[","], r.wer_edits, r.ref_words
    (PRF(tp=1, fp=0, fn=1), PRF(tp=0, fp=0, fn=1), 2, 3)
    """
    n = pack.n_classes
    res = CharResult(signature=signature(pack, "char", apply_map, spaces), features=pack.features,
                     class_names=tuple(pack.class_name(c) for c in range(n)),
                     confusion=np.zeros((n, n), dtype=np.int64), lines_ref=len(refs), lines_hyp=len(hyps),
                     lines_scored=min(len(refs), len(hyps)), has_space=pack.has_space)
    flat = np.zeros(n * n, dtype=np.int64)
    for ref, hyp in zip(refs, hyps):
        rb, rc = parse(ref, pack, apply_map)
        hb, hc = parse(hyp, pack, apply_map)
        res.ref_graphemes += len(rb)
        res.hyp_graphemes += len(hb)
        if rb == hb:
            ri, hi = rc, hc
        else:
            res.lines_base_mismatch += 1
            blocks = align(rb, hb)
            ri = np.concatenate([rc[i:i + k] for i, _, k in blocks] or [rc[:0]])
            hi = np.concatenate([hc[j:j + k] for _, j, k in blocks] or [hc[:0]])
        res.aligned_graphemes += len(ri)
        flat += np.bincount(ri.astype(np.int64) * n + hi, minlength=n * n)
        if pack.has_space:
            rw = render(rb, rc, pack).split(" ")
            hw = render(hb, hc, pack).split(" ")
            rw, hw = [w for w in rw if w], [w for w in hw if w]
            res.ref_words += len(rw)
            res.hyp_words += len(hw)
            res.wer_edits += levenshtein(rw, hw)
    res.confusion = flat.reshape(n, n)
    return res


def evaluate_token(refs: Sequence[str], hyps: Sequence[str], pack: LanguagePack, *,
                   apply_map: bool = True, spaces: str | None = None) -> TokenResult:
    """Token-level P/R/F per punctuation and casing class, micro overall over the non-O classes.

    >>> from charrestore.packs import load_pack
    >>> r = evaluate_token(["Will AI change our future? Obviously, yes."],
    ...                    ["will AI change our future. Obviously yes."], load_pack("en"))
    >>> r.punct["QUESTION"], r.punct["PERIOD"], r.casing["CAP"]
    (PRF(tp=0, fp=0, fn=1), PRF(tp=1, fp=1, fn=0), PRF(tp=1, fp=0, fn=1))
    """
    if not pack.has_space:
        raise ValueError(f"token-level metrics need words, and pack {pack.code!r} has no SPACE feature; "
                         "use the char level")
    extra = [MARK_LABELS.get(m, m) for m in pack.marks]
    labels = tuple(PUNCT_ORDER[:1]) + tuple(x for x in PUNCT_ORDER[1:] if x in extra) + \
        tuple(x for x in dict.fromkeys(extra) if x not in PUNCT_ORDER)
    pidx = {lab: i for i, lab in enumerate(labels)}
    punct_of_class = np.array([pidx[punct_label(c, pack)] for c in range(pack.n_classes)], dtype=np.int64)
    nc = len(CASING_LABELS)
    pm = np.zeros((len(labels), len(labels)), dtype=np.int64)
    cm = np.zeros((nc, nc), dtype=np.int64)
    res = TokenResult(signature=signature(pack, "token", apply_map, spaces), punct_labels=labels,
                      punct_confusion=pm, casing_confusion=cm if pack.has_caps else None,
                      lines_ref=len(refs), lines_hyp=len(hyps), lines_scored=min(len(refs), len(hyps)))
    for ref, hyp in zip(refs, hyps):
        rforms, rp, rc = labelled_words(ref, pack, apply_map, punct_of_class)
        hforms, hp, hc = labelled_words(hyp, pack, apply_map, punct_of_class)
        res.ref_words += len(rforms)
        res.hyp_words += len(hforms)
        if rforms != hforms:
            res.lines_word_mismatch += 1
            blocks = align(rforms, hforms)
            ri = np.concatenate([np.arange(i, i + k) for i, _, k in blocks] or [np.zeros(0, dtype=np.int64)])
            hi = np.concatenate([np.arange(j, j + k) for _, j, k in blocks] or [np.zeros(0, dtype=np.int64)])
            rp, rc, hp, hc = rp[ri], rc[ri], hp[hi], hc[hi]
        res.aligned_words += len(rp)
        pm += np.bincount(rp * len(labels) + hp, minlength=len(labels) ** 2).reshape(pm.shape)
        cm += np.bincount(rc * nc + hc, minlength=nc * nc).reshape(nc, nc)
    return res


def evaluate(refs: Sequence[str], hyps: Sequence[str], pack: LanguagePack, level: str = "char", *,
             apply_map: bool = True, spaces: str | None = None) -> CharResult | TokenResult:
    """Dispatch on ``level`` ("char" or "token")."""
    if level == "char":
        return evaluate_char(refs, hyps, pack, apply_map=apply_map, spaces=spaces)
    if level == "token":
        return evaluate_token(refs, hyps, pack, apply_map=apply_map, spaces=spaces)
    raise ValueError(f"unknown level {level!r} (char or token)")

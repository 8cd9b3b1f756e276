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
    Words are the canonical rendering split at spaces. Each word gets
    - a punctuation label from the marks that end it: ``O`` (none), else the mark rendered last, i.e. the
      one touching the next word (for en, ``?`` > ``,`` > ``.``: "D.C.," is COMMA, "yes?" QUESTION).
      Marks inside a word ("yahoo.com", the first "." of "D.C.") do not count;
    - a casing class over its cased letters (graphemes that have a case; digits, marks and ``ß`` have none):
      ``O`` no upper case letter; ``UPP`` all cased letters upper and more than one of them ("AI", "D.C.",
      "NASA"); ``CAP`` the first cased letter upper and all others lower, which includes the single letters
      "I" and "A" (as in Edge-Punct-Casing's example, "Will AI change" = CAP UPP O); ``MIX`` any other word
      with an upper case letter ("iPhone", "PhD", "McDonald", and, since words split only at spaces,
      hyphenated compounds such as "African-American").
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

import bisect
import difflib
import hashlib
import json
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .codec import parse, render
from .labels import CASING_LABELS, MARK_LABELS, PUNCT_ORDER, canonical, labelled_words, punct_label, words
from .packs import CAPS, SPACE, LanguagePack

__all__ = [
    "PRF", "CharResult", "TokenResult", "evaluate_char", "evaluate_token", "evaluate",
    "signature", "align", "levenshtein", "plot_confusion",
]

VERSION = "0.1.0"

# Above this many pairs, difflib's quadratic matcher is too slow: anchor on unique k-grams first.
_DIFFLIB_BUDGET = 4_000_000
_ANCHOR_K = 12


# --- counts and scores --------------------------------------------------------------------

@dataclass(frozen=True)
class PRF:
    """True positives, false positives and false negatives, with P, R and F (``None`` when undefined)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        denom = 2 * self.tp + self.fp + self.fn
        return 2 * self.tp / denom if denom else None

    @property
    def support(self) -> int:
        """Occurrences in the reference."""
        return self.tp + self.fn

    def __add__(self, other: "PRF") -> "PRF":
        return PRF(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def to_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "support": self.support}


def _pct(x: float | None, width: int = 6) -> str:
    return f"{'n/a':>{width}}" if x is None else f"{100 * x:{width}.2f}"


def _prf_row(name: str, s: PRF, width: int = 10) -> str:
    return (f"{name:<{width}} {_pct(s.precision)} {_pct(s.recall)} {_pct(s.f1)} "
            f"{s.support:>9} {s.tp:>9} {s.fp:>9} {s.fn:>9}")


def _prf_header(title: str, width: int = 10) -> str:
    return f"{title:<{width}} {'P':>6} {'R':>6} {'F':>6} {'support':>9} {'TP':>9} {'FP':>9} {'FN':>9}"


def _class_scores(matrix: np.ndarray, labels: Sequence[str]) -> dict[str, PRF]:
    """One-vs-rest counts of each class of a confusion matrix (reference rows, hypothesis columns)."""
    rows, cols = matrix.sum(axis=1), matrix.sum(axis=0)
    return {lab: PRF(int(matrix[i, i]), int(cols[i] - matrix[i, i]), int(rows[i] - matrix[i, i]))
            for i, lab in enumerate(labels)}


def _micro(scores: dict[str, PRF], skip: str | None = None) -> PRF:
    total = PRF()
    for name, s in scores.items():
        if name != skip:
            total = total + s
    return total


def _matrix_text(matrix: np.ndarray, labels: Sequence[str]) -> list[str]:
    width = max(9, *(len(lab) + 1 for lab in labels))
    corner = "ref/hyp"
    lines = [f"{corner:<{width}}" + "".join(f"{lab:>{width}}" for lab in labels)]
    for lab, row in zip(labels, matrix):
        lines.append(f"{lab:<{width}}" + "".join(f"{int(v):>{width}}" for v in row))
    return lines


# --- signature ----------------------------------------------------------------------------

def pack_hash(pack: LanguagePack) -> str:
    """8 hex digits over everything in a pack that changes parsing: features, case, normalization, mapping."""
    data = {"features": list(pack.features), "cased": pack.cased, "normalization": pack.normalization,
            "map": pack.map, "map_between_words": pack.map_between_words}
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:8]


def signature(pack: LanguagePack, level: str, apply_map: bool = True, spaces: str | None = None) -> str:
    """``charrestore.eval|lang:en|feats:CAPS.,?SPACE|pack:<hash>|map:yes|level:char|spaces:keep|v:0.1.0``.

    ``pack`` hashes the pack's features, normalization and mapping tables; ``spaces`` (how the
    hypotheses were made) is recorded only when given.
    """
    parts = ["charrestore.eval", f"lang:{pack.code}", f"feats:{''.join(pack.features)}",
             f"pack:{pack_hash(pack)}", f"map:{'yes' if apply_map else 'no'}", f"level:{level}"]
    if spaces:
        parts.append(f"spaces:{spaces}")
    parts.append(f"v:{VERSION}")
    return "|".join(parts)


# --- alignment ----------------------------------------------------------------------------

def _common_ends(a: Sequence, b: Sequence) -> tuple[int, int]:
    """Lengths of the common prefix and of the common suffix (not overlapping the prefix)."""
    n = min(len(a), len(b))
    pre = 0
    while pre < n and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and a[len(a) - 1 - suf] == b[len(b) - 1 - suf]:
        suf += 1
    return pre, suf


def _difflib_blocks(a: Sequence, b: Sequence, a0: int, b0: int) -> list[tuple[int, int, int]]:
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [(i + a0, j + b0, n) for i, j, n in sm.get_matching_blocks() if n]


def _anchors(a: Sequence, b: Sequence, k: int) -> list[tuple[int, int]]:
    """Positions (i, j) of k-grams that occur exactly once in a and once in b, increasing in both
    (the longest increasing subsequence, as in patience diff)."""
    def unique(seq):
        seen: dict[tuple, int] = {}
        for i in range(len(seq) - k + 1):
            key = tuple(seq[i:i + k])
            seen[key] = -1 if key in seen else i
        return seen

    ua, ub = unique(a), unique(b)
    pairs = sorted((i, ub[key]) for key, i in ua.items() if i >= 0 and ub.get(key, -1) >= 0)
    # longest increasing subsequence of j (pairs are sorted by i)
    tails: list[int] = []
    tails_idx: list[int] = []
    prev = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tails_idx.append(n)
        else:
            tails[pos] = j
            tails_idx[pos] = n
        prev[n] = tails_idx[pos - 1] if pos else -1
    out = []
    n = tails_idx[-1] if tails_idx else -1
    while n >= 0:
        out.append(pairs[n])
        n = prev[n]
    return out[::-1]


def _align(a: Sequence, b: Sequence, a0: int, b0: int, depth: int) -> list[tuple[int, int, int]]:
    if not a or not b:
        return []
    if len(a) * len(b) <= _DIFFLIB_BUDGET:
        return _difflib_blocks(a, b, a0, b0)
    # long sequences: keep the common prefix and suffix, then anchor the middle on unique k-grams
    pre, suf = _common_ends(a, b)
    blocks = [(a0, b0, pre)] if pre else []
    ma, mb = a[pre:len(a) - suf], b[pre:len(b) - suf]
    if ma and mb:
        if len(ma) * len(mb) <= _DIFFLIB_BUDGET:
            blocks += _difflib_blocks(ma, mb, a0 + pre, b0 + pre)
        else:
            anchors = _anchors(ma, mb, _ANCHOR_K) if depth < 4 else []
            if not anchors:  # nothing in common worth aligning on: difflib's fast heuristic
                sm = difflib.SequenceMatcher(None, ma, mb, autojunk=True)
                blocks += [(i + a0 + pre, j + b0 + pre, m) for i, j, m in sm.get_matching_blocks() if m]
            else:
                ca = cb = 0
                for i, j in anchors:
                    if i < ca or j < cb:
                        continue
                    blocks += _align(ma[ca:i], mb[cb:j], a0 + pre + ca, b0 + pre + cb, depth + 1)
                    blocks.append((a0 + pre + i, b0 + pre + j, _ANCHOR_K))
                    ca, cb = i + _ANCHOR_K, j + _ANCHOR_K
                blocks += _align(ma[ca:], mb[cb:], a0 + pre + ca, b0 + pre + cb, depth + 1)
    if suf:
        blocks.append((a0 + len(a) - suf, b0 + len(b) - suf, suf))
    return blocks


def align(a: Sequence, b: Sequence) -> list[tuple[int, int, int]]:
    """Equal blocks ``(i, j, n)`` with ``a[i:i+n] == b[j:j+n]``, increasing and non-overlapping.

    Exactly ``difflib.SequenceMatcher(None, a, b, autojunk=False)`` for documents of ordinary size;
    beyond ``len(a) * len(b) > 4e6`` the common prefix and suffix and unique 12-grams anchor the
    alignment first, so that very long documents stay fast.

    >>> align("abcd", "abxd")
    [(0, 0, 2), (3, 3, 1)]
    """
    if list(a) == list(b):
        return [(0, 0, len(a))] if len(a) else []
    merged: list[list[int]] = []
    for i, j, n in _align(a, b, 0, 0, 0):
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1][2] += n
        else:
            merged.append([i, j, n])
    return [tuple(m) for m in merged]


def levenshtein(a: Sequence, b: Sequence) -> int:
    """Edit distance (substitutions + deletions + insertions) between two sequences of hashables.

    >>> levenshtein("kitten", "sitting"), levenshtein("the cat sat".split(), "a cat sat down".split())
    (3, 2)
    """
    pre, suf = _common_ends(a, b)
    a, b = a[pre:len(a) - suf], b[pre:len(b) - suf]
    if not a or not b:
        return len(a) + len(b)
    if len(a) < len(b):
        a, b = b, a
    ids: dict = {}
    ia = np.fromiter((ids.setdefault(x, len(ids)) for x in a), dtype=np.int64, count=len(a))
    ib = np.fromiter((ids.setdefault(x, len(ids)) for x in b), dtype=np.int64, count=len(b))
    cols = np.arange(len(b) + 1, dtype=np.int64)
    row = cols.copy()
    t = np.empty_like(row)
    for i, x in enumerate(ia, 1):
        # t[j] = min(deletion, substitution); insertions are a running minimum along the row
        t[0] = i
        np.minimum(row[1:] + 1, row[:-1] + (ib != x), out=t[1:])
        row = np.minimum.accumulate(t - cols) + cols
    return int(row[-1])


# --- results ------------------------------------------------------------------------------

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
        return _micro(self.per_feature)

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
        return _mismatch_warnings(self.lines_ref, self.lines_hyp, self.lines_base_mismatch,
                                  f"different base graphemes ({self.ref_graphemes - self.aligned_graphemes} "
                                  f"reference and {self.hyp_graphemes - self.aligned_graphemes} hypothesis "
                                  "graphemes unaligned, not scored)")

    def format_table(self) -> str:
        out = [f"char level: {self.lines_scored} documents, {self.aligned_graphemes} graphemes scored", "",
               _prf_header("feature")]
        out += [_prf_row(f, s) for f, s in self.per_feature.items()]
        out.append(_prf_row("ALL", self.all))
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
        return _class_scores(self.punct_confusion, self.punct_labels)

    @property
    def punct_overall(self) -> PRF:
        return _micro(self.punct, skip="O")

    @property
    def casing(self) -> dict[str, PRF] | None:
        return None if self.casing_confusion is None else _class_scores(self.casing_confusion, self.casing_labels)

    @property
    def casing_overall(self) -> PRF | None:
        return None if self.casing_confusion is None else _micro(self.casing, skip="O")

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
        return _mismatch_warnings(self.lines_ref, self.lines_hyp, self.lines_word_mismatch,
                                  f"different words ({self.ref_words - self.aligned_words} reference and "
                                  f"{self.hyp_words - self.aligned_words} hypothesis words unaligned, not scored)")

    def format_table(self) -> str:
        out = [f"token level: {self.lines_scored} documents, {self.aligned_words} words scored", "",
               _prf_header("punct")]
        out += [_prf_row(k, s) for k, s in self.punct.items()]
        out.append(_prf_row("overall", self.punct_overall))
        if self.casing_confusion is not None:
            out += ["", _prf_header("casing")]
            out += [_prf_row(k, s) for k, s in self.casing.items()]
            out.append(_prf_row("overall", self.casing_overall))
        out += ["", "punctuation confusion (rows: reference, columns: hypothesis)"]
        out += _matrix_text(self.punct_confusion, self.punct_labels)
        if self.casing_confusion is not None:
            out += ["", "casing confusion (rows: reference, columns: hypothesis)"]
            out += _matrix_text(self.casing_confusion, self.casing_labels)
        out.append("")
        out += self.warnings()
        out.append(self.signature)
        return "\n".join(out)


def _mismatch_warnings(n_ref: int, n_hyp: int, n_mismatch: int, what: str) -> list[str]:
    out = []
    if n_ref != n_hyp:
        out.append(f"warning: {n_ref} reference lines but {n_hyp} hypothesis lines; "
                   f"only the first {min(n_ref, n_hyp)} are scored")
    if n_mismatch:
        out.append(f"warning: {n_mismatch} lines with {what}")
    return out


# --- evaluation ---------------------------------------------------------------------------

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


# --- plot ---------------------------------------------------------------------------------

def plot_confusion(result: CharResult | TokenResult, path: str) -> None:
    """Write the confusion matrices of a result as a PNG (row-normalized colours, counts in the cells).

    Needs matplotlib (the ``[plot]`` extra); raises ImportError without it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if isinstance(result, TokenResult):
        panels = [("punctuation", result.punct_confusion, result.punct_labels)]
        if result.casing_confusion is not None:
            panels.append(("casing", result.casing_confusion, result.casing_labels))
    else:
        d = result.to_dict()["confusion"]
        panels = [("char classes", np.asarray(d["matrix"], dtype=np.int64).reshape(len(d["labels"]), -1),
                   d["labels"])]
    size = max(4.0, 0.45 * max(len(p[2]) for p in panels) + 2)
    fig, axes = plt.subplots(1, len(panels), figsize=(size * len(panels), size), squeeze=False)
    for ax, (title, m, labels) in zip(axes[0], panels):
        rows = m.sum(axis=1, keepdims=True)
        norm = np.divide(m, rows, out=np.zeros(m.shape, dtype=float), where=rows > 0)
        ax.imshow(norm, cmap="Blues", vmin=0, vmax=1)
        ax.set_xticks(range(len(labels)), labels, rotation=90)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("hypothesis")
        ax.set_ylabel("reference")
        ax.set_title(title)
        if len(labels) <= 12:
            for i in range(len(labels)):
                for j in range(len(labels)):
                    ax.text(j, i, f"{100 * norm[i, j]:.1f}%\n{int(m[i, j])}", ha="center", va="center",
                            fontsize=7, color="white" if norm[i, j] > 0.5 else "black")
    fig.suptitle(result.signature, fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

"""Evaluation: scores of restored text against a reference, as in the papers, each with its signature.

- :mod:`.results`: :func:`evaluate_char` (Dyer et al.: P/R/F per feature, ALL, WER), :func:`evaluate_token`
  (IWSLT: P/R/F per punctuation and casing class) and the result classes that print and serialize them;
- :mod:`.scores`: :class:`PRF`, one-vs-rest class scores, micro averages and the text tables;
- :mod:`.alignment`: :func:`align` and :func:`levenshtein`, so that lines whose text differs are still scored;
- :mod:`.signature`: :class:`Signature`, every setting that changes a number (``eval`` and ``bench``);
- :mod:`.plot`: :func:`plot_confusion` (matplotlib, imported only when asked for).

The runtime never imports this package: engines take their word labels from :mod:`charrestore.labels`.
"""

from .alignment import align, levenshtein
from .plot import plot_confusion
from .results import CharResult, TokenResult, evaluate, evaluate_char, evaluate_token
from .scores import PRF
from .signature import Signature, signature

__all__ = [
    "PRF", "CharResult", "TokenResult", "evaluate_char", "evaluate_token", "evaluate",
    "Signature", "signature", "align", "levenshtein", "plot_confusion",
]

"""Tuning on dev data: the decoding values that shipped model cards carry (``charrestore tune char|token|nb|rerank``).

- :mod:`.dev`: the dev-set readers (paragraphs, talks, sentences, hashtags, de-spaced text, model-style inputs);
- :mod:`.char`: char model windows, cut, per-feature biases, NB spaces, the capital-after-mark penalty;
- :mod:`.char_decode`: dev documents decoded as the runtime decodes them, and their scores;
- :mod:`.token`: token model windows, overlap and cut, then punctuation and casing logit offsets;
- :mod:`.nb`: the NB segmenter's boundary evidence and L × λ, over count variants;
- :mod:`.rerank`: the weights of the NB k-best reranker (learned on train hashtags), k and L2 on dev;
- :mod:`.record`: what tuning and the eval scripts write into a card (through :func:`charrestore.cards.write_card`).

Each tuner module has ``add_arguments(parser)`` and ``run(args, command)``; the CLI adds the common
arguments below. Tuning runs the exported ONNX models only: it never imports TensorFlow.
"""

from ..holdout import Holdout

KINDS = ("char", "token", "nb", "rerank")


def add_common(p) -> None:
    """The arguments every tuner takes."""
    p.add_argument("--lang", required=True, help="language pack")
    p.add_argument("--dev", nargs="+", required=True, metavar="FILE",
                   help="dev files: TSV (last column the paragraph, first its document id) or text, one per line")
    p.add_argument("--holdout", type=Holdout.parse, default=Holdout(), metavar="N[:R]",
                   help="dev = the documents whose numeric id %% N == R (default 0): a held-out part of a training file")
    p.add_argument("--models-dir", metavar="DIR", help="models root holding <lang>/*.json (default: the shipped models)")
    p.add_argument("--write-card", action="store_true", help="write the tuned values into the model card")

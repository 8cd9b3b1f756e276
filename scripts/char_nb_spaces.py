"""Do NB-segmenter spaces help the char model on unspaced input, and how should they enter it?

On de-spaced dev documents, compares (char-level F per feature, no decoding biases, no sentence rule):
- restore: the char model alone (input spaces unknown);
- nb-input: NB spaces fed to the model as given spaces, and enforced (``--spaces keep`` on NB output);
- nb-mask: the model reads the unspaced input, and NB spaces are only enforced at the argmax;
- nb-mean: the mean of both logits, NB spaces enforced.

    python scripts/char_nb_spaces.py --lang en --dev ../shared/corpora/en/ted_dev.tsv --max-docs 400
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from charrestore.codec import parse
from charrestore.engines.base import EngineOptions
from charrestore.engines.char_e2e import CharEngine
from charrestore.engines.char_input import HAS_SPACE, NO_SPACE, UNKNOWN, input_ids
from charrestore.packs import load_pack
from charrestore.segmenter import Segmenter
from charrestore.tuning.char import feature_scores
from charrestore.holdout import Holdout
from charrestore.tuning.dev import load_dev, unspaced_docs


def logits(engine: CharEngine, gids: np.ndarray, states: np.ndarray) -> np.ndarray:
    return np.concatenate([lg for _, lg in engine.window_logits(input_ids(gids, states))])


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--lang", required=True)
    p.add_argument("--dev", nargs="+", required=True)
    p.add_argument("--holdout", type=Holdout.parse, default=Holdout(), metavar="N[:R]",
                   help="dev = documents with numeric id %% N == R (default 0)")
    p.add_argument("--max-docs", type=int, default=400)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()

    pack = load_pack(args.lang)
    engine = CharEngine.load(pack, None, EngineOptions(args.threads, 64, "none"))
    segmenter = Segmenter.load(args.lang)
    space_bit = pack.bit("SPACE")
    preds = {m: [] for m in ("restore", "nb-input", "nb-mask", "nb-mean")}
    refs, docs = unspaced_docs(load_dev(args.dev, pack, args.holdout)[: args.max_docs], pack, engine)
    for base, gids, _, _ in docs:
        _, nb_given = parse(segmenter.segment("".join(base)), pack, apply_map=False)
        nb = np.where(nb_given & space_bit, HAS_SPACE, NO_SPACE).astype(np.int32)
        nb[-1] = NO_SPACE
        free = logits(engine, gids, np.full(len(gids), UNKNOWN, np.int32))
        given = logits(engine, gids, nb)
        mask = engine.masks[nb]
        preds["restore"].append(free.argmax(-1))
        preds["nb-input"].append((given + mask).argmax(-1))
        preds["nb-mask"].append((free + mask).argmax(-1))
        preds["nb-mean"].append((free + given + 2 * mask).argmax(-1))
    result = {m: {k: round(v, 4) for k, v in feature_scores(pack, refs, p).items()} for m, p in preds.items()}
    print(json.dumps({"documents": len(refs), "model_sha256": engine.card["sha256"][:12], **result}, indent=1))


if __name__ == "__main__":
    main()

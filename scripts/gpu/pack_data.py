"""Encode a language's training mix with its committed state's vocabulary, and pack the arrays narrow and
xz-compressed into runs/gpu/data/<lang>/ for the trip to a lent GPU (scripts/gpu/train.sh), about 8 MB a language.

    python scripts/gpu/pack_data.py es --corpus ../shared/corpora/es/es_congreso_train.tsv.xz \\
        --dev ../shared/corpora/es/es_congreso_dev.tsv.xz

The corpora stay in ../shared; what travels is the encoded arrays, which the trainer would write into its run folder
anyway (runs/ is never committed).
"""
import argparse
import json
import lzma
import shutil
from pathlib import Path

import numpy as np

from charrestore.packs import load_pack
from charrestore.training.corpus import parse_corpus_arg
from charrestore.training.train_char import prepare_data

p = argparse.ArgumentParser()
p.add_argument("lang")
p.add_argument("--corpus", nargs="+", required=True, help="PATH or PATH@WEIGHT, as train_char.sh names them")
p.add_argument("--dev", nargs="+", required=True)
args = p.parse_args()
pack, run = load_pack(args.lang), Path(f"runs/char-{args.lang}-gpu")
(run / "data").mkdir(parents=True, exist_ok=True)
if not (run / "data/meta.json").exists():  # the committed state's vocabulary, so that the arrays match its weights
    shutil.copy(f"training_state/{args.lang}-char/meta.json", run / "data/meta.json")
prepare_data([(pack, *parse_corpus_arg(c)) for c in args.corpus], [(pack, d) for d in args.dev], 0, 3, run)
dst = Path("runs/gpu/data") / args.lang
dst.mkdir(parents=True, exist_ok=True)
shutil.copy(run / "data/meta.json", dst / "meta.json")
dtypes = {}
for f in sorted((run / "data").glob("*.npy")):
    a = np.load(f)
    dt = np.uint8 if a.max() < 256 else np.uint16
    (dst / f"{f.stem}.xz").write_bytes(lzma.compress(a.astype(dt).tobytes()))
    dtypes[f.stem] = np.dtype(dt).str
(dst / "dtypes.json").write_text(json.dumps(dtypes))
print(dst, f"{sum(p.stat().st_size for p in dst.iterdir()) / 1e6:.1f} MB")

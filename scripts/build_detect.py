"""Build the shipped language detector (models/detect/) from ../shared/corpora and measure it on held-out snippets.

Trains on the training files of every language that has data (charrestore.training.train_detect.shared_corpora_plan),
measures on snippets of the held-out files (three forms, 12-200 characters; scripts/compare_detect.py compares the
same snippets with langid.py and lingua) and writes detect.npz with its card.

    nice -n 10 python scripts/build_detect.py [--corpora ../shared/corpora] [--out models/detect]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from charrestore.training.train_detect import (
    ALPHA,
    BITS,
    accuracy,
    build,
    save,
    shared_corpora_plan,
    snippets,
)

ROOT = Path(__file__).resolve().parent.parent
LICENSES = {  # from the corpora READMEs
    "ted_train.tsv": "CC BY-NC-ND 4.0 (TED)", "ted_dev.tsv": "CC BY-NC-ND 4.0 (TED)",
    "brown_train_docs.tsv": "non-commercial (NLTK distribution of the Brown corpus)",
    "ami_meetings.tsv": "CC BY 4.0 (AMI)", "earnings_calls.tsv": "CC BY-SA 4.0 (Rev)",
    "scotus_oral_arguments.tsv": "CC BY-NC 4.0 (Oyez)", "gutenberg_books.tsv": "public domain",
    "state_of_the_union_1945_2006.tsv": "public domain", "inaugural_addresses_1789_2021.tsv": "public domain",
    "asdc_train.tsv": "CC BY 4.0", "jaquad_wiki_paragraphs_train.tsv": "CC BY-SA 3.0",
    "jaquad_questions_train.txt": "CC BY-SA 3.0", "gu_wiki_train.tsv": "CC BY-SA (Gujarati Wikipedia)",
    "de_bundestag_train.tsv.xz": "official documents of the Deutscher Bundestag (amtliche Werke, § 5 (2) UrhG); "
                                 "Deutscher Bundestag, Plenarprotokolle",
    "es_congreso_train.tsv.xz": "CC BY 4.0 (ParlaMint-ES 3.0a)",
    "eltec_novels_train.tsv.xz": "public domain (ELTeC-fra, cite as CC BY 4.0)",
    "ruslit_prose_train.tsv.xz": "public domain", "viwiki_train.tsv.xz": "CC BY-SA 3.0",
    "law_train.tsv.xz": "official state documents (PRC Copyright Law art. 5)", "wiki_train.tsv.xz": "CC BY-SA 4.0 / 3.0",
    "dialogue_train.tsv.xz": "Apache-2.0", "kowiki_train.tsv.xz": "CC BY-SA 3.0/4.0",
    "boddari_train.tsv.xz": "CC BY 2.5 / CC BY / CC BY 2.0 KR / public domain / CC BY 4.0 (by doc_id prefix)",
    "petitions_train.tsv.xz": "KOGL Type 1", "thaigov_train.tsv.xz": "public domain (Thai government works)",
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    p.add_argument("--out", type=Path, default=ROOT / "models" / "detect")
    p.add_argument("--per", type=int, default=100, help="held-out snippets per language, form and length")
    args = p.parse_args()
    train, dev = shared_corpora_plan(args.corpora)
    start = time.time()
    detector = build(train)
    seconds = time.time() - start
    held = accuracy(detector, snippets(dev, per=args.per))
    print({k: held[k] for k in ("50+", "all", "form=despaced", "despaced25")})
    card = {
        "command": " ".join(["nice -n 10 python scripts/build_detect.py", *sys.argv[1:]]),
        "method": "script rules (a script that one language writes decides), then multinomial naive Bayes over "
                  "hashed character n-grams of the letters (NFC, lower case, no spaces/digits/marks), each file of a "
                  "language weighted alike; int8 log-probabilities centred per bucket; lines in Han alone scored by "
                  "the Han view (ja, zh over Han letters only)",
        "alpha": ALPHA, "bits": BITS, "build_seconds": round(seconds, 1),
        "training": [{"lang": s.lang, "file": str(s.path.relative_to(args.corpora)), "license": LICENSES[s.path.name],
                      "chars_limit": s.limit, **({"holdout": f"documents with held_out(id, {s.holdout}) left out"}
                                                 if s.holdout else {})} for s in train],
        "held_out": {"files": [str(s.path.relative_to(args.corpora)) + (f" (held_out(id, {s.holdout}))"
                                                                         if s.holdout else "") for s in dev],
                     "snippets": f"{args.per} per language x form (written, asr, despaced) x length (12, 25, 50, "
                                 "100, 200), seed 48", "accuracy": held},
    }
    print(save(detector, args.out, card))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Build the Naive Bayes segmenter's counts: unigrams and bigrams of corpus words, read with the pack's rules.

Words are what the runtime sees: the pack's mapping applied, marks dropped, lower case (codec.parse), split
at spaces. A text or sentence starts with the context <s>. The counts go to <out>/nb.counts (charrestore/counts.py)
with the card <out>/nb.json (sha256, sources, licenses, parameters, command).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shlex
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import regex

from ..counts import FORMAT as COUNTS_FORMAT
from ..counts import write as write_counts
from ..cards import write_card
from ..codec import parse
from ..packs import load_pack
from ..segmenter import START
from .corpus import HELD_OUT, parse_corpus_arg, read_documents

GOOGLE_TOTAL = 1024908267229  # the token count behind wordsegment's unigrams (its Segmenter.TOTAL)


def add_arguments(parser) -> None:
    parser.add_argument("--lang", required=True, help="language pack")
    parser.add_argument("--corpus", nargs="+", required=True, metavar="PATH[@WEIGHT]",
                        help="corpus files (.tsv: id<TAB>...<TAB>text; .txt: one document per line); PATH@WEIGHT "
                             "multiplies that file's word and pair counts by WEIGHT before they are summed "
                             "(default 1; --min-count and --min-bigram-count then apply to the weighted sums)")
    parser.add_argument("--license", nargs="*", default=[], metavar="FILE=LICENSE",
                        help="license of each corpus file, recorded in the card (e.g. ted_train.tsv='CC BY-NC-ND 4.0')")
    parser.add_argument("--holdout", type=int, default=0, metavar="N",
                        help="skip documents whose numeric id is a multiple of N (a dev set kept aside)")
    parser.add_argument("--out", required=True, help="output folder, e.g. models/en")
    parser.add_argument("--min-count", type=int, default=1, help="drop words seen fewer times (default: 1)")
    parser.add_argument("--min-bigram-count", type=int, default=2, help="drop word pairs seen fewer times (default: 2)")
    parser.add_argument("--max-words", type=int, default=0, metavar="N",
                        help="keep only the N most frequent words (after merging; default: all)")
    parser.add_argument("--max-pairs", type=int, default=0, metavar="N",
                        help="keep only the N most frequent word pairs (after merging; default: all)")
    parser.add_argument("--merge-wordsegment", type=float, default=0.0, metavar="WEIGHT",
                        help="mix in the Google web counts of the wordsegment package (Apache-2.0) with this "
                             "probability weight, 0..1 (default: 0, none); needed at build time only")
    parser.add_argument("--merge-wordfreq", type=float, default=0.0, metavar="WEIGHT",
                        help="mix in the wordfreq package's large word list (data CC BY-SA 4.0) with this "
                             "probability weight after wordsegment's, 0..1 (default: 0, none); build time only")
    parser.add_argument("--L", type=int, default=20, help="max word length recorded as the default (default: 20)")
    parser.add_argument("--smoothing", type=float, default=10.0, help="λ recorded as the default (default: 10)")
    parser.add_argument("--prose", nargs=2, type=float, metavar=("L", "λ"),
                        help="L and λ for running text (the engines' de-spaced input), recorded as prose_params "
                             "(default: none, the engines use --L and --smoothing)")
    parser.add_argument("--camel", default="hard", help="case-change evidence: hard or a log10 bonus (default: hard)")
    parser.add_argument("--digits", default="hard", help="letter/digit evidence: hard or a log10 bonus (default: hard)")
    parser.add_argument("--caps", default="0", help="boundary between two capitals: never or a log10 bonus (default: 0)")
    parser.add_argument("--tuning", metavar="JSON", help="tuning report (charrestore tune nb --json) to put in the card")
    parser.add_argument("--cache", metavar="DIR",
                        help="keep the raw (unweighted) counts of each corpus file here, keyed by file, size, "
                             "holdout and the file's held-out dev share, so that variants of one corpus (other "
                             "mixes or weights) count each file once")
    parser.add_argument("--note", action="append", default=[], help="free text for the card (repeatable)")


def corpus_words(doc: str, pack) -> list[str]:
    """The words of one formatted document, as the runtime sees them, with <s> at sentence starts."""
    base, classes = parse(doc, pack)
    if not base:
        return []
    space = pack.bit("SPACE")
    ends_sentence = pack.sentence_bits
    if not space:
        return ["".join(base)]
    cuts = np.flatnonzero(classes & space) + 1
    words = [START]
    last = 0
    for k in list(cuts) + [len(base)]:
        if k > last:
            words.append("".join(base[last:k]))
            if classes[k - 1] & ends_sentence:
                words.append(START)
        last = k
    return words


def count(docs, pack) -> tuple[Counter, Counter]:
    unigrams: Counter = Counter()
    bigrams: Counter = Counter()
    for doc in docs:
        words = corpus_words(doc, pack)
        unigrams.update(w for w in words if w != START)
        bigrams.update(f"{a} {b}" for a, b in zip(words, words[1:]) if b != START)
    return unigrams, bigrams


def count_file(path, pack, holdout, cache: str | None, holdout_n: int) -> tuple[Counter, Counter, dict]:
    """Raw (unweighted) counts of one corpus file and its source entry, from the cache when it has them.
    The key names what decides the counts: the pack, the file (path, size), --holdout and the file's own
    held-out dev share (corpus.HELD_OUT); never a weight."""
    path = Path(path)
    key = hashlib.sha256(repr((pack.code, holdout_n, HELD_OUT.get(path.stem), str(path.resolve()),
                               path.stat().st_size)).encode()).hexdigest()[:16]
    cached = Path(cache) / f"counts-{pack.code}-{path.stem}-{key}.pkl" if cache else None
    if cached and cached.is_file():
        with open(cached, "rb") as fh:
            unigrams, bigrams, source = pickle.load(fh)
    else:
        docs = read_documents(path, pack, holdout)
        unigrams, bigrams = count(docs, pack)
        source = {"file": path.name, "documents": len(docs), "words": sum(unigrams.values())}
        if cached:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with open(cached, "wb") as fh:
                pickle.dump((unigrams, bigrams, source), fh, protocol=pickle.HIGHEST_PROTOCOL)
    print(f"{path}: {source['documents']} documents, {source['words']} words", file=sys.stderr)
    return unigrams, bigrams, dict(source)


def add_weighted(total: Counter, counts: Counter, weight: float) -> None:
    """``total += weight * counts`` (integer counts stay integers at weight 1)."""
    if weight == 1:
        total.update(counts)
    else:
        for key, c in counts.items():
            total[key] += c * weight


def count_corpora(specs, pack, holdout, cache: str | None, holdout_n: int):
    """Counts of all corpus files (``PATH`` or ``PATH@WEIGHT``), each file's raw counts times its weight,
    summed, and a source entry per file (with its weight)."""
    unigrams: Counter = Counter()
    bigrams: Counter = Counter()
    sources = []
    for spec in specs:
        path, weight = parse_corpus_arg(str(spec))
        if weight < 0:
            raise ValueError(f"{spec}: a corpus weight must not be negative")
        u, b, source = count_file(path, pack, holdout, cache, holdout_n)
        add_weighted(unigrams, u, weight)
        add_weighted(bigrams, b, weight)
        source["weight"] = weight
        sources.append(source)
    return unigrams, bigrams, sources


def add_joiner_free(unigrams: Counter, bigrams: Counter) -> int:
    """Also count "don't" as "dont": text without apostrophes (hashtags, chat, some ASR) spells every form of those
    letters alike, so "cant" counts "can't" and "cant", and "well" counts "we'll" too (the apostrophes model, not
    the segmenter, tells them apart). Returns how many words gained such a form."""
    alias = {}
    for w in unigrams:
        if "'" in w or "’" in w:
            bare = w.replace("'", "").replace("’", "")
            if bare:
                alias[w] = bare
    for w, bare in alias.items():
        unigrams[bare] += unigrams[w]
    for pair, c in list(bigrams.items()):
        a, _, b = pair.partition(" ")
        if a in alias or b in alias:
            bigrams[f"{alias.get(a, a)} {alias.get(b, b)}"] += c
    return len(set(alias.values()))


def read_wordsegment() -> tuple[dict[str, int], dict[str, int], str]:
    try:
        import wordsegment  # build time only
    except ModuleNotFoundError:
        raise ValueError("--merge-wordsegment needs the wordsegment package (the [bench] extra): "
                         "pip install 'charrestore[bench]'") from None

    folder = Path(wordsegment.__file__).parent

    def tsv(name):
        with open(folder / name, encoding="utf-8") as fh:
            return {k: int(v) for k, v in (line.rstrip("\n").split("\t") for line in fh)}

    version = getattr(wordsegment, "__version__", "?")
    return tsv("unigrams.txt"), tsv("bigrams.txt"), version


def read_wordfreq(lang: str) -> tuple[dict[str, float], str]:
    """wordfreq's large word list of ``lang`` (frequencies that sum to about 1): words of letters (and an inner
    apostrophe, also counted under its bare letters), for names, brands and slang that our corpora lack."""
    try:
        import wordfreq  # build time only
    except ModuleNotFoundError:
        raise ValueError("--merge-wordfreq needs the wordfreq package (data CC BY-SA 4.0): pip install wordfreq") from None
    word = regex.compile(r"\p{L}+(?:'\p{L}+)?")
    freqs: Counter = Counter()
    for w, f in wordfreq.get_frequency_dict(lang, wordlist="large").items():
        w = w.replace("’", "'")
        if word.fullmatch(w):
            freqs[w] += f
            if "'" in w:
                freqs[w.replace("'", "")] += f
    from importlib.metadata import version

    return dict(freqs), version("wordfreq")


def merge(ours: Counter, theirs: dict[str, float], our_total: int, weight: float,
          their_total: float = GOOGLE_TOTAL) -> dict[str, float]:
    """Counts on our corpus's scale whose probabilities mix ours (1 - weight) with theirs (weight).

    Keeping our scale keeps the unknown-word penalty λ / (N · λ^len) where our rarest words are: on
    Google's scale (N = 10^12) every unseen word would lose to any split into rare seen words."""
    scale = weight * our_total / their_total
    merged = {w: (1.0 - weight) * c for w, c in ours.items()}
    for w, c in theirs.items():
        merged[w] = merged.get(w, 0.0) + scale * c
    return {w: float(f"{c:.4g}") for w, c in merged.items()}


def arrange(unigrams: dict, bigrams: dict) -> tuple[list[str], list[float], dict[str, str]]:
    """The counts file's parts (``charrestore.counts``): words by count (most frequent first), then per context word
    its pairs as one ``word count word count ...`` string, which the runtime parses only when it meets that word."""
    by_count = lambda kv: (-kv[1], kv[0])  # noqa: E731
    words = sorted(unigrams.items(), key=by_count)
    contexts: dict[str, list[str]] = {}
    for pair, c in sorted(bigrams.items(), key=by_count):
        prev, _, word = pair.partition(" ")
        contexts.setdefault(prev, []).append(f"{word} {_fmt(c)}")
    return [w for w, _ in words], [float(_fmt(c)) for _, c in words], {p: " ".join(v) for p, v in contexts.items()}


def top(counts: dict, n: int, keep=()) -> dict:
    """The ``n`` most frequent entries (all if ``n`` is 0), plus the keys in ``keep``."""
    if not n or len(counts) <= n:
        return counts
    kept = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n])
    kept.update((k, counts[k]) for k in keep if k in counts)
    return kept


def _fmt(count) -> str:
    return str(int(count)) if count == int(count) else f"{count:.4g}"


def _setting(value: str):
    """A boundary-evidence option as the card stores it: "hard", "never" or a number."""
    return value if value in ("hard", "never") else float(value)


def run(args) -> None:
    pack = load_pack(args.lang)
    holdout = (lambda doc_id: doc_id.isdigit() and int(doc_id) % args.holdout == 0) if args.holdout else None
    licenses = dict(item.split("=", 1) for item in args.license)
    unigrams, bigrams, sources = count_corpora(args.corpus, pack, holdout, args.cache, args.holdout)
    for source in sources:
        source["license"] = licenses.get(source["file"], "see ../shared/corpora/README.md")
    total = sum(unigrams.values())
    if not total:
        raise ValueError("the corpus holds no words")
    n_alias = add_joiner_free(unigrams, bigrams) if pack.has_space else 0
    kept_u = {w: c for w, c in unigrams.items() if c >= args.min_count}
    kept_b = {p: c for p, c in bigrams.items() if c >= args.min_bigram_count
              and all(w in kept_u or w == START for w in p.split(" "))}
    kept_u[START] = sum(c for p, c in bigrams.items() if p.startswith(START + " "))
    if args.merge_wordsegment:
        g_uni, g_bi, version = read_wordsegment()
        kept_u = merge(Counter(kept_u), g_uni, total, args.merge_wordsegment)
        g_bi = {p: c for p, c in g_bi.items() if not p.startswith(START + " ")}  # its <s> has no unigram
        kept_b = merge(Counter(kept_b), g_bi, total, args.merge_wordsegment)
        sources.append({"file": f"wordsegment {version}: unigrams.txt, bigrams.txt",
                        "what": "Google Web Trillion Word Corpus counts (Norvig 2009) as shipped by wordsegment",
                        "license": "Apache-2.0", "weight": args.merge_wordsegment,
                        "words": len(g_uni), "bigrams": len(g_bi)})
    if args.merge_wordfreq:
        freqs, version = read_wordfreq(pack.code)
        kept_u = merge(Counter(kept_u), freqs, total, args.merge_wordfreq, their_total=1.0)
        kept_b = {p: (1.0 - args.merge_wordfreq) * c for p, c in kept_b.items()}  # wordfreq has no pairs
        sources.append({"file": f"wordfreq {version}: the large {pack.code} list",
                        "what": "word frequencies from Wikipedia, subtitles, news, books, web text, Twitter, Reddit",
                        "license": "CC BY-SA 4.0 (data), Apache-2.0 (code)", "weight": args.merge_wordfreq,
                        "words": len(freqs)})
    kept_u = top(kept_u, args.max_words, keep=(START,))
    kept_b = top({p: c for p, c in kept_b.items() if all(w in kept_u for w in p.split(" "))}, args.max_pairs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    counts_path = out / "nb.counts"
    write_counts(counts_path, *arrange(kept_u, kept_b))
    tuning = json.loads(Path(args.tuning).read_text(encoding="utf-8")) if args.tuning else None
    card = {
        "name": "nb", "kind": "nb", "lang": pack.code, "file": counts_path.name,
        "format": COUNTS_FORMAT,
        "total": total,
        "params": {"L": args.L, "smoothing": args.smoothing, "camel": _setting(args.camel),
                   "digits": _setting(args.digits), "caps": _setting(args.caps)},
        "prose_params": {"L": int(args.prose[0]), "smoothing": args.prose[1]} if args.prose else None,
        "counts": {"corpus_words": total, "unigrams": len(kept_u), "bigrams": len(kept_b),
                   "min_count": args.min_count, "min_bigram_count": args.min_bigram_count,
                   "max_words": args.max_words or None, "max_pairs": args.max_pairs or None,
                   "joiner_free_forms": n_alias},
        "sources": sources, "holdout": f"documents whose id % {args.holdout} == 0" if args.holdout else None,
        "tuning": tuning, "notes": args.note,
        "command": "charrestore train nb " + " ".join(shlex.quote(a) for a in sys.argv[3:])
        if sys.argv[1:3] == ["train", "nb"] else " ".join(shlex.quote(a) for a in sys.argv),
    }
    write_card(out / "nb.json", card)
    size = counts_path.stat().st_size
    print(f"wrote {counts_path} ({size / 1e6:.1f} MB, {len(kept_u)} words, {len(kept_b)} pairs) and its card",
          file=sys.stderr)

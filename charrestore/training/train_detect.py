"""Building the language detector (``charrestore.detect``): n-gram counts per language, then an int8 table of
centred naive Bayes log-probabilities; and the held-out snippets it is measured on, in the three forms we get.

numpy only (no TensorFlow). The corpora are streamed (``.xz`` files through ``lzma``), never copied.
"""

from __future__ import annotations

import lzma
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import regex

from ..cards import write_card
from ..detect import SCRIPTS, WRITES, Detector, gram_buckets, letters, not_in_scripts
from ..holdout import held_out

ORDERS = (1, 2, 3, 4, 5)
BITS = 17  # 2**17 buckets x 11 languages x int8: 1.4 MB
ALPHA = 0.5  # additive smoothing of the n-gram counts
CLIP = 12.0  # nats: a bucket moves a language's score by at most this much against the buckets' mean
FORMS = ("written", "asr", "despaced")
LENGTHS = (12, 25, 50, 100, 200)
_SOUND_TAG = regex.compile(r"\((?:[A-Z][a-z]+)(?: [a-z]+){0,3}\)")  # "(Applause)": transcript notes, not text
_MARKS = regex.compile(r"(?!(?<=\p{L})'(?=\p{L}))[\p{P}\p{S}]+")  # every mark but an apostrophe inside a word
_UNSPACED = ("ja", "zh")  # languages written without spaces: their paragraphs join without one


@dataclass(frozen=True)
class Source:
    """A corpus file of one language: ``.tsv`` (document id first, text last), ``.txt`` (a document per line),
    either maybe ``.xz``. ``holdout`` N keeps to the documents that are (``held=True``) or are not (``False``) in
    the 1-in-N share of ``charrestore.holdout.held_out``; ``limit`` stops after that many characters."""

    lang: str
    path: Path
    limit: int = 0
    holdout: int = 0
    held: bool = False

    def documents(self) -> Iterator[str]:
        """The file's documents (consecutive paragraphs of one id), sound tags dropped, paragraphs joined."""
        opener = lzma.open if self.path.suffix == ".xz" else open
        sep = "" if self.lang in _UNSPACED else " "
        doc_id, paras, used = None, [], 0
        with opener(self.path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh):
                cols = line.rstrip("\n").split("\t")
                this = cols[0] if ".tsv" in self.path.name else str(n)
                if this != doc_id and paras:
                    yield sep.join(paras)
                    paras = []
                    if self.limit and used >= self.limit:
                        return
                doc_id = this
                if self.holdout and held_out(this, self.holdout) != self.held:
                    continue
                text = " ".join(_SOUND_TAG.sub(" ", cols[-1]).split())
                if text:
                    paras.append(text)
                    used += len(text)
        if paras:
            yield sep.join(paras)


def shared_corpora_plan(root: Path) -> tuple[list[Source], list[Source]]:
    """The training and the held-out files of ``../shared/corpora`` (every language it has): ``*_train`` against
    ``*_dev``; en's Brown and gu's Wikipedia hold out documents by id (1 in 5, as the char models; 1 in 50, as
    their benchmarks). Large files are read up to a limit; vi trains on Wikipedia only (the news sets carry no
    licence) and is measured on all three registers."""
    M = 1_000_000
    train = {
        "en": [("en/ted_train.tsv", 6 * M), ("en/brown_train_docs.tsv", 0, 5), ("en/ami_meetings.tsv", 3 * M),
               ("en/earnings_calls.tsv", 3 * M), ("en/scotus_oral_arguments.tsv", 3 * M),
               ("en/public_domain/gutenberg_books.tsv", 3 * M),
               ("en/public_domain/state_of_the_union_1945_2006.tsv", 2 * M),
               ("en/public_domain/inaugural_addresses_1789_2021.tsv", 0)],
        "ja": [("ja/asdc_train.tsv", 0), ("ja/jaquad_wiki_paragraphs_train.tsv", 0),
               ("ja/jaquad_questions_train.txt", 0)],
        "gu": [("gu/gu_wiki_train.tsv", 10 * M, 50)],
        "de": [("de/de_bundestag_train.tsv.xz", 10 * M)],
        "es": [("es/es_congreso_train.tsv.xz", 10 * M)],
        "fr": [("fr/eltec_novels_train.tsv.xz", 10 * M)],
        "ru": [("ru/ruslit_prose_train.tsv.xz", 10 * M)],
        "vi": [("vi/viwiki_train.tsv.xz", 10 * M)],
        "zh": [("zh/law_train.tsv.xz", 6 * M), ("zh/wiki_train.tsv.xz", 0), ("zh/dialogue_train.tsv.xz", 0)],
        "ko": [("ko/kowiki_train.tsv.xz", 8 * M), ("ko/boddari_train.tsv.xz", 0), ("ko/petitions_train.tsv.xz", 0)],
        "th": [("th/thaigov_train.tsv.xz", 10 * M)],
    }
    dev = {
        "en": [("en/ted_dev.tsv",), ("en/brown_train_docs.tsv", 0, 5)],
        "ja": [("ja/asdc_dev.tsv",), ("ja/jaquad_wiki_paragraphs_dev.tsv",), ("ja/jaquad_questions_dev.txt",),
               ("ja/ud_gsd_dev.txt",)],
        "gu": [("gu/gu_wiki_train.tsv", 0, 50)],
        "de": [("de/de_bundestag_dev.tsv.xz",)], "es": [("es/es_congreso_dev.tsv.xz",)],
        "fr": [("fr/eltec_novels_dev.tsv.xz",)], "ru": [("ru/ruslit_prose_dev.tsv.xz",)],
        "vi": [("vi/viwiki_dev.tsv.xz",), ("vi/dantri_dev.tsv.xz",), ("vi/baomoisapo_dev.tsv.xz",)],
        "zh": [("zh/law_dev.tsv.xz",), ("zh/wiki_dev.tsv.xz",), ("zh/dialogue_dev.tsv.xz",)],
        "ko": [("ko/kowiki_dev.tsv.xz",), ("ko/boddari_dev.tsv.xz",), ("ko/petitions_dev.tsv.xz",)],
        "th": [("th/thaigov_dev.tsv.xz",)],
    }

    def sources(plan: dict, held: bool) -> list[Source]:
        return [Source(lang, root / spec[0], *(spec[1:2] or (0,)), *spec[2:], held=held)
                for lang, specs in plan.items() for spec in specs]

    return sources(train, False), sources(dev, True)


def count_grams(texts: Iterable[str], orders=ORDERS, bits: int = BITS, chunk: int = 1 << 20) -> np.ndarray:
    """Counts per bucket of the n-grams of ``texts`` (their ``letters``, a chunk at a time: n-grams that run from
    one text into the next are a negligible share)."""
    counts = np.zeros(1 << bits, np.float64)
    parts, size = [], 0
    for text in texts:
        parts.append(letters(text, limit=None))
        size += len(parts[-1])
        if size >= chunk:
            counts += np.bincount(gram_buckets("".join(parts), orders, bits), minlength=1 << bits)
            parts, size = [], 0
    if parts:
        counts += np.bincount(gram_buckets("".join(parts), orders, bits), minlength=1 << bits)
    return counts


def naive_bayes_table(counts: np.ndarray, alpha: float = ALPHA, clip: float = CLIP) -> tuple[np.ndarray, float]:
    """int8 [buckets, languages] and its scale: log p(bucket | language) with additive smoothing, centred on each
    bucket's mean over the languages (a shift that every language shares changes no decision) and clipped."""
    logp = np.log(counts + alpha) - np.log(counts.sum(axis=1, keepdims=True) + alpha * counts.shape[1])
    centred = np.clip(logp - logp.mean(axis=0, keepdims=True), -clip, clip)
    scale = clip / 127.0
    return np.round(centred / scale).astype(np.int8).T.copy(), scale


def build(sources: list[Source], orders=ORDERS, bits: int = BITS, alpha: float = ALPHA,
          languages: list[str] | None = None, log=print) -> Detector:
    """A detector trained on ``sources``; ``languages`` (default: the sources' own, in their order) sets the
    model's order, whose first language takes the ties. The files of a language weigh the same (one register
    does not drown the others: zh law would make zh Wikipedia look Japanese). A script that several languages
    write as a main script (Han: ja, zh; not ko, whose Han is under 10% of its n-grams) gets a view: a table of
    those languages over the n-grams of that script's letters alone, for lines in that script alone."""
    languages = languages or list(dict.fromkeys(s.lang for s in sources))
    shared = [script for script in SCRIPTS if sum(script in WRITES.get(lang, ()) for lang in languages) > 1]
    counts = {key: {lang: [] for lang in languages} for key in ["", *shared]}
    for source in sources:
        docs = list(source.documents())
        counts[""][source.lang].append(count_grams(docs, orders, bits))
        for script in shared:
            if script in WRITES.get(source.lang, ()):
                only = not_in_scripts(frozenset({script}))
                counts[script][source.lang].append(count_grams((only.sub("", d) for d in docs), orders, bits))
        log(f"{source.lang}: {source.path.name}: {counts[''][source.lang][-1].sum():,.0f} n-grams")
    merged = {key: {lang: _files_alike(files) for lang, files in by_lang.items() if files}
              for key, by_lang in counts.items()}
    table, scale = naive_bayes_table(np.array([merged[""][lang] for lang in languages]), alpha)
    views = {}
    for script in shared:
        langs = [lang for lang in languages if lang in merged[script]
                 and merged[script][lang].sum() >= 0.1 * merged[""][lang].sum()]
        if len(langs) > 1:  # the same scale: CLIP / 127
            views[script] = (langs, naive_bayes_table(np.array([merged[script][lang] for lang in langs]), alpha)[0])
    return Detector(languages, table, scale, list(orders), float(len(orders)), views)


def _files_alike(files: list[np.ndarray]) -> np.ndarray:
    """The counts of a language's files, each scaled to the same total (their mean)."""
    mean = sum(f.sum() for f in files) / len(files)
    return sum(f * (mean / max(f.sum(), 1.0)) for f in files)


def save(detector: Detector, folder: Path, card: dict) -> Path:
    """``detect.npz`` and its card ``detect.json`` (kind ``detect``, sha256 filled in) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    views = {f"view_{script}_{part}": value for script, (langs, table) in detector.views.items()
             for part, value in (("languages", np.array(langs)), ("weights", table))}
    np.savez_compressed(folder / "detect.npz", weights=detector.weights, scale=np.float64(detector.scale),
                        orders=np.array(detector.orders, np.int64), temperature=np.float64(detector.temperature),
                        languages=np.array(detector.languages), **views)
    card = {"kind": "detect", "file": "detect.npz", "languages": detector.languages, "orders": detector.orders,
            "buckets": int(detector.weights.shape[0]),
            "views": {script: langs for script, (langs, _) in detector.views.items()}, **card}
    write_card(folder / "detect.json", card)
    return folder / "detect.json"


def in_form(text: str, form: str, lang: str) -> str:
    """A text as written, ASR-like (lower case, no marks but in-word apostrophes; in ja and zh no spaces where
    marks were) or de-spaced (also no spaces)."""
    if form == "written":
        return text
    asr = " ".join(_MARKS.sub("" if lang in _UNSPACED else " ", text.lower()).split())
    return asr if form == "asr" else asr.replace(" ", "")


@dataclass(frozen=True)
class Snippet:
    lang: str
    form: str
    length: int
    text: str
    source: str


def snippets(sources: list[Source], per: int = 100, lengths=LENGTHS, forms=FORMS, seed: int = 48) -> list[Snippet]:
    """``per`` snippets of each language, form and length: a document of one of its files (files taken in turn,
    so that every register counts), cut at a word start (anywhere in ja and zh); a de-spaced snippet is an ASR-like
    one from a word start with its spaces taken out."""
    rng = random.Random(seed)
    by_lang: dict[str, list[tuple[str, list[str]]]] = {}
    for source in sources:
        by_lang.setdefault(source.lang, []).append((source.path.name, list(source.documents())))
    out = []
    for lang, files in by_lang.items():
        for form in forms:
            texts = [(name, [in_form(d, "asr" if form == "despaced" else form, lang) for d in docs]) for name, docs in files]
            for length in lengths:
                for i in range(per):
                    name, docs = texts[i % len(texts)]
                    need = length * (1.25 if form == "despaced" else 1)
                    fitting = [d for d in docs if len(d) >= need]
                    doc = rng.choice(fitting if len(fitting) >= 50 else _blocks(docs, need, lang))
                    out.append(Snippet(lang, form, length, _cut(doc, length, lang, form == "despaced", rng), name))
    return out


def _blocks(docs: list[str], need: float, lang: str) -> list[str]:
    """Consecutive documents joined until each block is long enough (a file of one-line questions)."""
    sep, blocks, block = "" if lang in _UNSPACED else " ", [], ""
    for doc in docs:
        block = f"{block}{sep}{doc}" if block else doc
        if len(block) >= need:
            blocks.append(block)
            block = ""
    return blocks or [block]


def _cut(doc: str, length: int, lang: str, despace: bool, rng: random.Random) -> str:
    """``length`` characters of ``doc`` from a random word start (any character where words have no spaces)."""
    if lang in _UNSPACED:
        start = rng.randint(0, max(len(doc) - length, 0))
    else:
        reach = len(doc) - (length * 5 // 4 if despace else length)
        start = rng.choice([0] + [i + 1 for i, ch in enumerate(doc[:max(reach, 0)]) if ch == " "])
    text = doc[start:].replace(" ", "") if despace else doc[start:]
    return text[:length].strip()


def accuracy(detector: Detector, items: list[Snippet], among=None) -> dict:
    """Share right, overall and by form, by length and by language."""
    right = [detector.detect(s.text, among) == s.lang for s in items]
    groups: dict[str, list[bool]] = {}
    for s, ok in zip(items, right):
        for key in ("all", f"form={s.form}", f"length={s.length}", f"lang={s.lang}",
                    *(["50+"] if s.length >= 50 else []), *(["despaced25"] if s.form == "despaced" and s.length == 25
                                                          else [])):
            groups.setdefault(key, []).append(ok)
    return {key: round(sum(v) / len(v), 5) for key, v in sorted(groups.items())}

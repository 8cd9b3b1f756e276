"""Dev data as the tuners and the eval scripts read it: cleaned documents, talks, sentences, model-style inputs.

Every tuner reads its dev files through here, so that a card's tuned values and the eval reports that check
them see the same text. TSV files: the last column is the paragraph, the first its document id.
"""

from __future__ import annotations

from pathlib import Path

from ..codec import parse, render, strip_features
from ..packs import LanguagePack
from ..holdout import Holdout
from ..training.corpus import clean, open_text

IWSLT_MARKS = {"O": "", "COMMA": ",", "PERIOD": ".", "QUESTION": "?"}


def _rows(files, holdout: Holdout | int | str = 0):
    """The columns of each line; with ``holdout`` (a ``holdout.Holdout`` or its spec), only its documents."""
    holdout = Holdout.parse(holdout)
    for f in files:
        with open_text(f) as fh:
            lines = fh.read().splitlines()
        for line in lines:
            cols = line.split("\t")
            if cols[0] in holdout:
                yield cols


def load_dev(files, pack: LanguagePack, holdout: Holdout | int | str = 0, limit: int | None = None) -> list[str]:
    """Cleaned paragraphs (TSV: last column; TXT: each line). With ``holdout``, only its documents (first
    column): the held-out articles of a training file. With ``limit``, at most that many, the first of each file
    in fair shares (``fair_shares``): a cut of the files read one after another would leave out the later ones
    (ko's tuner once saw Wikipedia alone, and three of its "?")."""
    per_file = [[text for cols in _rows([f], holdout) if (text := clean(cols[-1], pack))] for f in files]
    if limit is not None:
        per_file = [paras[:k] for paras, k in zip(per_file, fair_shares([len(p) for p in per_file], limit))]
    return [text for paras in per_file for text in paras]


def fair_shares(sizes: list[int], limit: int) -> list[int]:
    """How many items to take from each of several lists, at most ``limit`` in all: as evenly as their sizes allow,
    a short list whole and what it leaves to the longer ones.

    >>> fair_shares([4586, 199, 21], 2000)
    [1780, 199, 21]
    >>> fair_shares([1203, 1045, 1358], 2000)
    [667, 666, 667]
    >>> fair_shares([300, 200], 2000)
    [300, 200]
    """
    shares, left = [0] * len(sizes), limit
    order = sorted(range(len(sizes)), key=lambda i: sizes[i])
    for n, i in enumerate(order):
        shares[i] = min(sizes[i], left // (len(sizes) - n))
        left -= shares[i]
    return shares


def load_talks(files, pack: LanguagePack, holdout: Holdout | int | str = 0) -> list[str]:
    """One document per talk (TSV: the cleaned paragraphs of one id joined; TXT: each line), so that
    windows and their seams matter as in long inputs."""
    talks: dict[tuple, list[str]] = {}
    for i, cols in enumerate(_rows(files, holdout)):
        text = clean(cols[-1], pack)
        talks.setdefault((cols[0],) if len(cols) > 1 else (i,), []).extend([text] if text else [])
    return [" ".join(p) for p in talks.values() if p]


def sentences(docs: list[str], pack: LanguagePack) -> list[str]:
    """Each document cut after every word whose marks end a sentence (as the token metrics label it), so that
    every sentence is restored as an input of its own: the short inputs users type. In a pack without spaces (zh,
    ja) a document is cut after its sentence marks. A piece without a letter or digit ("…", a lone dash) is no
    sentence and is left out."""
    ends, glue = pack.sentence_bits, " " if pack.has_space else ""
    out = []
    for doc in docs:
        words: list[str] = []
        for word in doc.split() if pack.has_space else _after_sentence_marks(doc, pack):
            words.append(word)
            _, classes = parse(word, pack)
            if len(classes) and classes[-1] & ends:
                out.append(glue.join(words))
                words = []
        if words:
            out.append(glue.join(words))
    return [s for s in out if any(c.isalnum() for c in s)]


def _after_sentence_marks(doc: str, pack: LanguagePack) -> list[str]:
    """A document of a pack without spaces (zh, ja) in pieces, each ending after a mark that is or maps onto one of
    the pack's sentence marks (the pieces are then "words" that end sentences)."""
    ends = set(pack.sentence_marks) | {src for src, target in pack.map.items() if set(target) & set(pack.sentence_marks)}
    pieces, start = [], 0
    for i, ch in enumerate(doc):
        if ch in ends and (i + 1 == len(doc) or doc[i + 1] not in ends):
            pieces.append(doc[start:i + 1])
            start = i + 1
    return pieces + ([doc[start:]] if doc[start:] else [])


def sequences(docs: list[str], pack: LanguagePack, count, limit: int) -> list[str]:
    """Whole sentences packed greedily into inputs of at most ``limit`` subwords (``count(sentence)``), as the
    CNN-BiLSTM paper cut its test set (section 4.2): each input starts and ends at a sentence boundary. A longer
    sentence is an input of its own (the paper dropped those; here every word is scored).

    >>> from charrestore.packs import load_pack
    >>> sequences(["One two. Three four? Five six."], load_pack("en"), lambda s: len(s.split()), 4)
    ['One two. Three four?', 'Five six.']
    >>> sequences(["One. Two three four five. Six."], load_pack("en"), lambda s: len(s.split()), 3)
    ['One.', 'Two three four five.', 'Six.']
    """
    out: list[str] = []
    for doc in docs:
        current, size = [], 0
        for sentence in sentences([doc], pack):
            n = count(sentence)
            if current and size + n > limit:
                out.append(" ".join(current))
                current, size = [], 0
            current.append(sentence)
            size += n
        if current:
            out.append(" ".join(current))
    return out


def spaced_input(text: str, pack: LanguagePack) -> str:
    """Lower-case words without marks, spaces kept: what an ASR system outputs."""
    base, classes = parse(text, pack)
    return render(base, classes & pack.bit("SPACE"), pack)


def unspaced_docs(refs: list[str], pack: LanguagePack, engine) -> tuple[list, list]:
    """For position-wise scoring of restored spaces: the reference classes of each document and the char
    engine's encoding ``(base, gids, states, enforce)`` of its unmarked, de-spaced text. A document whose
    graphemes change when its spaces go (a word that starts with a combining sign) is skipped, and so reported."""
    ref_cls, docs = [], []
    for ref in refs:
        ref_base, classes = parse(ref, pack)
        base, given = parse(strip_features(ref, pack), pack, apply_map=False)
        if base == ref_base:
            ref_cls.append(classes)
            docs.append((base, *engine.encode(base, given, False)))
    print(f"{len(refs) - len(docs)} dev documents skipped: their graphemes change when the spaces are removed",
          flush=True)
    return ref_cls, docs


def iwslt_reference(path: Path) -> str:
    """An IWSLT labelled token stream (``token<TAB>label``) as one lowercase, punctuated document: clitics
    joined to their word, "--" dropped (its mark, if any, goes to the word before when that word has none)."""
    words: list[list[str]] = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        token, label = line.split("\t")
        if token == "--":
            if words and label != "O" and words[-1][1] == "O":
                words[-1][1] = label
        elif words and (token.startswith("'") or token == "n't"):
            words[-1] = [words[-1][0] + token, label]
        else:
            words.append([token, label])
    return " ".join(w + IWSLT_MARKS[label] for w, label in words)


def load_hashtags(path: Path) -> list[tuple[str, list[str]]]:
    """(hashtag, gold segmentations) of a ``hashtag<TAB>gold[<TAB>gold…]`` file (STAN-large)."""
    rows = [line.split("\t") for line in Path(path).read_text(encoding="utf-8").splitlines() if line]
    return [(r[0], r[1:]) for r in rows]


def load_despaced(pack: LanguagePack, path: Path,
                  holdout: Holdout | int | str = 0) -> list[tuple[str, list[list[str]]]]:
    """(de-spaced paragraph, [its words]): words as the runtime sees them (pack mapping, no marks, lower case).
    With ``holdout``, only paragraphs of its documents."""
    from ..segmenter import START
    from ..training.train_nb import corpus_words

    out = []
    for cols in _rows([path], holdout):
        text = clean(cols[-1], pack)
        words = [w for w in corpus_words(text, pack) if w != START] if text else []
        if words:
            out.append(("".join(words), [words]))
    return out


def sample(items: list, max_chars: int) -> list:
    """Every k-th item, so that the sample spans the whole file, up to ``max_chars``."""
    total = sum(len(x[0]) for x in items)
    step = max(1, round(total / max_chars))
    picked, size = [], 0
    for item in items[::step]:
        if size >= max_chars:
            break
        picked.append(item)
        size += len(item[0])
    return picked


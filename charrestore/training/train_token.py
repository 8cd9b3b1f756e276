"""Train the token-level CNN-BiLSTM (punctuation + casing per word) in resumable stages.

Data: each corpus is read with the pack's rules and cut into words with the labels that the token-level
metrics also use (``charrestore.labels``), so training and evaluation agree on every word. A SentencePiece BPE
model is trained on the lowercased, mark-free words; a lexicon of mixed-case forms (iPhone, McDonald)
is counted from the raw text. Both live beside ``meta.json`` and travel with the compact state.

Every epoch saves ``last.keras`` (weights + optimizer) and ``state.json`` (epoch, RNG state, cumulative
CPU and wall time, history) through ``runs``, like the char trainer, so a later session continues where this
one stopped; committed states are weights-only (``--state-weights-only``, a third of the size).
TensorFlow is held to ``--threads`` threads (default 1) so that it can run beside another training.
With ``--edges`` a share of the windows begins at a sentence start or ends at a sentence end, marked by an
edge id after the tokenizer's vocabulary (the runtime marks a document's first and last window the same way);
``--init-from`` starts such a run from another run's weights (the embedding gains the edge row).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

from ..codec import parse
from ..engines.token_input import load_tokenizer, pack_windows, word_pieces
from ..labels import CASING_LABELS, PUNCT_ORDER, casing_class, labelled_words, punct_label
from ..packs import CAPS, LanguagePack, load_pack
from ..holdout import Holdout
from .corpus import encodes, given_weights, parse_corpus_arg, read_documents
from .distill import Teacher, one_hot
from .runs import (STATE, TrainingError, add_state_arguments, fit, load_trained, read_state, resume, rng_of, save_state, seed_from,
                   set_threads, start)

TOKENIZER = "tokenizer.model"
DATA_FILES = ("meta.json", TOKENIZER)  # what a compact state carries of data/
HYPER = ("emb", "lstm", "conv_layers", "kernel", "dropout", "window", "batch", "lr", "weight_decay", "alpha", "steps",
         "vocab", "edges", "hard", "short")  # the options that a resumed run takes from its state
SP_LINE_WORDS = 100


def label_documents(docs: list[str], pack: LanguagePack) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Word forms (lowercase, mark-free), punctuation ids (PUNCT_ORDER) and casing ids (CASING_LABELS)."""
    punct_of_class = np.array([PUNCT_ORDER.index(punct_label(c, pack)) for c in range(pack.n_classes)], np.int64)
    forms, punct, case = [], [], []
    for doc in docs:
        f, p, c = labelled_words(doc, pack, True, punct_of_class)
        if f:
            forms.extend(f)
            punct.append(p)
            case.append(c)
    cat = (lambda a: np.concatenate(a).astype(np.int8)) if punct else (lambda a: np.zeros(0, np.int8))
    return forms, cat(punct), cat(case)


def mixed_case_counts(docs: list[str], pack: LanguagePack) -> Counter:
    """(lowercase form, surface) counts of the MIX words of raw text: iPhone, McDonald's, PhD."""
    caps = pack.bit(CAPS)
    counts: Counter = Counter()
    for doc in docs:
        for token in doc.split():
            if token[1:] == token[1:].lower() or token == token.upper():
                continue  # cannot be MIX: cheap filter before parsing
            base, classes = parse(token, pack)
            if base and casing_class(base, classes, pack) == "MIX":
                surface = "".join(g.upper() if c & caps else g for g, c in zip(base, classes))
                counts["".join(base), surface] += 1
    return counts


def build_lexicon(counts: Counter, min_count: int) -> dict[str, str]:
    """The most frequent mixed-case surface of each form seen at least ``min_count`` times."""
    best: dict[str, tuple[int, str]] = {}
    for (form, surface), n in counts.items():
        if n >= min_count and n > best.get(form, (0, ""))[0]:
            best[form] = (n, surface)
    return {form: surface for form, (_, surface) in sorted(best.items())}


def train_tokenizer(forms_by_source: list[list[str]], vocab_size: int, path: Path, max_lines: int = 400_000) -> None:
    """SentencePiece BPE on lowercased, mark-free lines of words (lines short enough for SP's length limit)."""
    import sentencepiece as spm

    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as fh:
        for forms in forms_by_source:
            for i in range(0, len(forms), SP_LINE_WORDS):
                fh.write(" ".join(forms[i:i + SP_LINE_WORDS]) + "\n")
    try:
        spm.SentencePieceTrainer.train(
            input=fh.name, model_prefix=str(path.with_suffix("")), model_type="bpe", vocab_size=vocab_size,
            character_coverage=0.9995, pad_id=0, unk_id=1, bos_id=-1, eos_id=-1, input_sentence_size=max_lines,
            shuffle_input_sentence=True, num_threads=1, minloglevel=2)
    finally:
        os.unlink(fh.name)


def prepare_data(pack, corpora, dev, vocab_size, lexicon_min, out: Path, holdout: int = 0,
                 dev_holdout: Holdout = Holdout()) -> dict:
    """Encode corpora once into ``out/data`` (reused while it holds every file that ``corpora`` names). An existing
    tokenizer (a resumed run) is reused as it is. With ``holdout`` N, documents whose id % N == 0 are never trained
    on; ``dev_holdout`` picks the dev files' documents (a training file's held-out share, or the tuning half of it)."""
    data_dir = out / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    meta_path, sp_path = data_dir / "meta.json", data_dir / TOKENIZER
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else None
    if encodes(meta, corpora) and all((data_dir / f"{s['file']}_tok.npy").is_file() for s in meta["sources"]) \
            and (data_dir / "dev_tok.npy").is_file():
        return meta
    sources, labelled, mixed = [], [], Counter()
    for i, (path, weight) in enumerate(corpora):
        docs = read_documents(path, pack, holdout=Holdout(holdout).__contains__ if holdout else None)
        labelled.append(label_documents(docs, pack))
        mixed.update(mixed_case_counts(docs, pack))
        sources.append({"path": str(path), "weight": weight, "docs": len(docs), "words": len(labelled[-1][0]),
                        "file": f"src{i}"})
        print(f"read {path}: {len(docs)} docs, {len(labelled[-1][0])} words", flush=True)
    if not sp_path.is_file():
        t = time.time()
        train_tokenizer([forms for forms, _, _ in labelled], vocab_size, sp_path)
        print(f"trained SentencePiece BPE ({vocab_size}) in {time.time() - t:.0f} s", flush=True)
    sp = load_tokenizer(sp_path)
    dev_docs = [d for p in dev for d in read_documents(p, pack, holdout=lambda doc_id: doc_id not in dev_holdout)]
    for name, (forms, punct, case) in [(s["file"], lab) for s, lab in zip(sources, labelled)] + \
            [("dev", label_documents(dev_docs, pack))]:
        flat, offsets = word_pieces(sp, forms)
        np.save(data_dir / f"{name}_tok.npy", flat)
        np.save(data_dir / f"{name}_off.npy", offsets)
        np.save(data_dir / f"{name}_punct.npy", punct)
        np.save(data_dir / f"{name}_case.npy", case)
        print(f"{name}: {len(forms)} words, {len(flat) / max(len(forms), 1):.2f} subwords/word, "
              f"UNK rate {np.mean(flat == sp.unk_id()):.4%}", flush=True)
    lexicon = meta["lexicon"] if meta else build_lexicon(mixed, lexicon_min)
    meta = {"sources": sources, "dev": [str(p) for p in dev], "holdout": holdout, "dev_holdout": str(dev_holdout),
            "dev_words": len(np.load(data_dir / "dev_case.npy")),
            "vocab_size": sp.get_piece_size(), "tokenizer": TOKENIZER, "lexicon": lexicon,
            "punct_labels": list(PUNCT_ORDER), "case_labels": list(CASING_LABELS)}
    meta_path.write_text(json.dumps(meta, ensure_ascii=False))
    print(f"mixed-case lexicon: {len(lexicon)} forms", flush=True)
    return meta


def load_stream(data_dir: Path, name: str):
    return tuple(np.load(data_dir / f"{name}_{part}.npy") for part in ("tok", "off", "punct", "case"))


class WordWindowSampler:
    """Batches of ``window`` consecutive words at random offsets of weighted sources. With ``edges`` > 0,
    that share of the windows (half each) begins right after or ends right at a sentence end (a word
    labelled with one of ``end_labels``), with the ``edge`` id before or after its subwords. With ``short`` > 0,
    that share of the batches holds whole short inputs instead: one to three sentences of at most ``window``
    words with the edge id on both sides, as the runtime reads a post or a one-line question (all of a batch's
    inputs of one length, so that no word is padding)."""

    def __init__(self, streams, weights, window, rng, edge=None, edges=0.0, end_labels=(), short=0.0):
        self.streams, self.window, self.rng = streams, window, rng
        w = np.asarray(weights, dtype=float)
        self.p = w / w.sum()
        self.edge, self.edges, self.short = edge, edges, short
        self.ends = [np.flatnonzero(np.isin(s[2], end_labels)) for s in streams] if edges or short else []
        self.inputs = [sentence_runs(e, window) for e in self.ends] if short else []

    def span(self, s: int, n: int) -> tuple[int, tuple[bool, bool]]:
        """A window's first word and its (begins, ends) edge flags."""
        W = self.window
        o = int(self.rng.integers(0, n - W))
        if not self.edges:
            return o, (False, False)
        kind = self.rng.random()
        if kind < self.edges and len(self.ends[s]):
            e = int(self.ends[s][self.rng.integers(len(self.ends[s]))])
            if kind < self.edges / 2 and e + 1 + W <= n:
                return e + 1, (True, False)
            if kind >= self.edges / 2 and e + 1 >= W:
                return e + 1 - W, (False, True)
        return o, (False, False)

    def short_spans(self, src) -> tuple[int, list[tuple[int, int, int]]]:
        """Whole short inputs, one per source in ``src``: their common length (that of a random input of the
        first source) and (source, first word, end) each; a source without an input of that length lends
        the first source's turn."""
        length = int(self.rng.choice(self.inputs[src[0]][1]))
        out = []
        for s in src:
            lo, hi = np.searchsorted(self.inputs[s][1], [length, length + 1])
            if lo == hi:
                s = src[0]
                lo, hi = np.searchsorted(self.inputs[s][1], [length, length + 1])
            o = int(self.inputs[s][0][self.rng.integers(lo, hi)])
            out.append((s, o, o + length))
        return length, out

    def batch(self, size):
        src = self.rng.choice(len(self.streams), size=size, p=self.p)
        if self.short and self.rng.random() < self.short:
            W, spans = self.short_spans(src)
            flags = [(True, True)] * size
        else:
            W, spans, flags = self.window, [], []
            for s in src:
                o, f = self.span(s, len(self.streams[s][2]))
                spans.append((s, o, o + W))
                flags.append(f)
        ids, starts, punct, case = [], [], np.empty((size, W), np.int32), np.empty((size, W), np.int32)
        for k, ((s, o, e), f) in enumerate(zip(spans, flags)):
            flat, offsets, p, c = self.streams[s]
            i, st = pack_windows(flat, offsets, [(o, e)], self.edge, [f])
            ids.append(i[0])
            starts.append(st[0])
            punct[k], case[k] = p[o:e], c[o:e]
        x = np.zeros((size, max(map(len, ids))), np.int32)
        for k, i in enumerate(ids):
            x[k, :len(i)] = i
        return (x, np.stack(starts)), (punct, case)


def sentence_runs(ends: np.ndarray, longest: int, most: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(first words, lengths) of the runs of one to ``most`` whole sentences of at most ``longest`` words, given
    the words that end a sentence; sorted by length."""
    firsts, lengths = [], []
    for k in range(1, most + 1):
        d = ends[k:] - ends[:-k]
        fits = d <= longest
        firsts.append(ends[:-k][fits] + 1)
        lengths.append(d[fits])
    firsts, lengths = np.concatenate(firsts), np.concatenate(lengths)
    order = np.argsort(lengths, kind="stable")
    return firsts[order], lengths[order]


def dev_windows(stream, window: int, limit: int):
    """Consecutive, non-overlapping dev windows (all padded to one length)."""
    flat, offsets, punct, case = stream
    n = min(len(punct) // window, limit)
    spans = [(k * window, (k + 1) * window) for k in range(n)]
    ids, starts = pack_windows(flat, offsets, spans)
    return (ids, starts), (punct[: n * window].reshape(n, window).astype(np.int32),
                           case[: n * window].reshape(n, window).astype(np.int32))


def train(args) -> Path:
    pack = load_pack(args.lang)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.resume_from:
        seed_from(Path(args.resume_from), out, DATA_FILES)
    init = Path(args.init_from) if args.init_from and not (out / STATE).is_file() else None
    if init and not (out / "data").is_dir():
        shutil.copytree(init / "data", out / "data")
    corpora = [parse_corpus_arg(c) for c in args.corpus]
    meta = prepare_data(pack, corpora, args.dev, args.vocab, args.lexicon_min, out, args.holdout, args.dev_holdout)

    set_threads(args.threads)
    import keras  # only now: a bad argument above fails fast, without TensorFlow's start-up
    import tensorflow as tf

    from .token_model import build_token_model
    data_dir = out / "data"
    streams = [load_stream(data_dir, s["file"]) for s in meta["sources"]]
    dev_x, dev_y = dev_windows(load_stream(data_dir, "dev"), args.window, args.dev_windows)

    def build(hyper, lr):
        vocab = meta["vocab_size"] + (1 if hyper.get("edges") else 0)  # the edge id is the last row
        model = build_token_model(vocab, emb=hyper["emb"], lstm=hyper["lstm"],
                                  conv_layers=hyper["conv_layers"], kernel=hyper["kernel"], dropout=hyper["dropout"])
        soft = hyper.get("hard", 1.0) < 1.0  # distilled: the targets are distributions
        ce = (keras.losses.CategoricalCrossentropy if soft else keras.losses.SparseCategoricalCrossentropy)(
            from_logits=True)
        accuracy = "categorical_accuracy" if soft else "sparse_categorical_accuracy"
        model.compile(optimizer=keras.optimizers.Adam(lr, weight_decay=hyper["weight_decay"], clipnorm=1.0),
                      loss=[ce, ce], loss_weights=[hyper["alpha"], 1.0], metrics=[[accuracy], [accuracy]])
        return model

    if (resumed := resume(out, build)):
        state, model = resumed
    elif init:
        # Another run's history, CPU time and commands carry over: the card counts the whole cost.
        state = read_state(init)
        state["hyper"].update(lr=args.lr, steps=args.steps, edges=args.edges, hard=args.hard, short=args.short,
                              window=args.window)
        state.update(rng=None, stage_start=state["epoch"], init_from=str(init))
        model = build(state["hyper"], args.lr)
        init_weights(load_trained(init), model)
        print(f"initialized from {init} (epoch {state['epoch']}, its best weights)", flush=True)
    else:
        state, model = start(build, args, HYPER)
    hyper = state["hyper"]
    if hyper.get("short") and not hyper.get("edges"):
        raise TrainingError("--short marks both edges of an input: give --edges too")
    hard = hyper.get("hard", 1.0)
    teacher = None
    if hard < 1.0:
        if not args.teacher:
            raise TrainingError(f"this run distills (hard weight {hard}): give --teacher")
        teacher = Teacher(Path(args.teacher), data_dir / TOKENIZER, (meta["punct_labels"], meta["case_labels"]),
                          args.threads)
        dev_y = tuple(one_hot(y, len(labels)) for y, labels in zip(dev_y, (meta["punct_labels"], meta["case_labels"])))
    rng = rng_of(state, args.seed)
    ends = [meta["punct_labels"].index(lab) for lab in ("PERIOD", "QUESTION")]
    sampler = WordWindowSampler(streams, sampling_weights(meta, corpora), hyper["window"], rng,
                                edge=meta["vocab_size"], edges=hyper.get("edges", 0.0), end_labels=ends,
                                short=hyper.get("short", 0.0))

    def batches():
        while True:
            x, y = sampler.batch(hyper["batch"])
            yield x, (y if teacher is None else teacher.targets(x, y, hard))

    # An explicit signature: the subword length varies from batch to batch (Keras would guess it from two).
    ids_spec = tf.TensorSpec([None, None], tf.int32)
    y_spec = ids_spec if teacher is None else tf.TensorSpec([None, None, None], tf.float32)
    dataset = tf.data.Dataset.from_generator(batches, output_signature=((ids_spec, ids_spec), (y_spec, y_spec)))
    fit(model, dataset, (dev_x, dev_y), state, out, rng, args, seen="words", lr_factor=0.8, patience=8,
        validation_batch_size=128)
    if args.save_state:
        save_state(model, out, Path(args.save_state), DATA_FILES, args.state_weights_only,
                   (dev_x[0][:32], dev_x[1][:32]))
    return out


def sampling_weights(meta: dict, corpora: list[tuple[str, float]]) -> list[float]:
    """Per encoded source, the weight that this command gives it (``corpus.given_weights``; 0 leaves it out)."""
    weights = given_weights(meta["sources"], corpora)
    if not sum(weights) > 0:
        raise TrainingError("every corpus has weight 0")
    print("sampling weights: " + ", ".join(f"{Path(s['path']).stem} {w:g}" for s, w in zip(meta["sources"], weights)),
          flush=True)
    return weights


def init_weights(src, dst) -> None:
    """``dst`` takes ``src``'s weights; rows that ``dst``'s embedding adds (the edge id) start at the mean row."""
    weights = []
    for w, v in zip(src.get_weights(), dst.weights):
        if w.shape != tuple(v.shape):
            w = np.concatenate([w, np.repeat(w.mean(0, keepdims=True), v.shape[0] - w.shape[0], 0)])
        weights.append(w)
    dst.set_weights(weights)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", required=True)
    p.add_argument("--corpus", nargs="+", required=True, help="PATH or PATH@WEIGHT (sampling weight)")
    p.add_argument("--dev", nargs="+", required=True, help="dev corpus files (validation loss)")
    p.add_argument("--holdout", type=int, default=0, metavar="N",
                   help="never train on documents whose id %% N == 0 (holdout.held_out: a training file's dev share)")
    p.add_argument("--dev-holdout", type=Holdout.parse, default=Holdout(), metavar="N[:R]",
                   help="only the dev files' documents whose id %% N == R (e.g. the tuning half of --holdout)")
    p.add_argument("--out", required=True, help="training folder (resumes if it holds a state)")
    p.add_argument("--vocab", type=int, default=5000, help="SentencePiece BPE vocabulary size")
    p.add_argument("--lexicon-min", type=int, default=3, help="min count of a mixed-case form in the lexicon")
    p.add_argument("--window", type=int, default=64, help="words per training window")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--steps", type=int, default=200, help="steps per epoch")
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--max-minutes", type=float, default=60, help="stop after the epoch that passes this")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--weight-decay", type=float, default=2.5e-5)
    p.add_argument("--alpha", type=float, default=0.7, help="loss = L_case + alpha * L_punct")
    p.add_argument("--emb", type=int, default=64, help="subword embedding = conv channels")
    p.add_argument("--lstm", type=int, default=128, help="units of each (Bi)LSTM direction")
    p.add_argument("--conv-layers", type=int, default=3)
    p.add_argument("--kernel", type=int, default=3)
    p.add_argument("--dropout", type=float, default=0.2)
    p.add_argument("--dev-windows", type=int, default=600)
    p.add_argument("--threads", type=int, default=1, help="TensorFlow intra- and inter-op threads")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--edges", type=float, default=0.0,
                   help="share of windows that begin or end at a sentence boundary, marked with the edge id")
    p.add_argument("--short", type=float, default=0.0,
                   help="share of batches of whole short inputs (1-3 sentences, edge ids on both sides; needs --edges)")
    p.add_argument("--init-from", help="a training folder whose best weights start this run (same tokenizer)")
    p.add_argument("--teacher", help="an exported token.onnx (beside its card) whose outputs the student learns")
    p.add_argument("--hard", type=float, default=1.0,
                   help="weight of the gold labels in the targets; the teacher's probabilities get the rest (default 1)")
    add_state_arguments(p)


run = train  # the entry point that `charrestore train token` calls

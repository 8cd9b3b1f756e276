"""Train the char E2E model in resumable stages.

Every epoch (a fixed number of steps) saves ``last.keras`` (weights + optimizer) and ``state.json``
(epoch, RNG state, cumulative CPU and wall time, history), so a later session continues exactly where
this one stopped. ``best.weights.h5`` keeps the best model on dev loss. The run folder, its compact
states and resuming are ``runs``'s, shared with the token trainer.

Windows of ``window`` graphemes are drawn at fresh random offsets for every batch. A share of them
(``spaced``) gets a random span whose spaces are given as input, so that one model also serves text
whose word boundaries are known (ASR output, ``--spaces keep``). A share (``starts``) begins where a sentence
begins: a window cut from running text starts mid-sentence, but the input's first window starts where the input
does, usually a sentence's start, which the model otherwise never sees without the text before it (es opened no
question there: "tienestiempomañana" → "Tienes tiempo mañana."). A share (``plain``) is read without its letters'
diacritics, as Vietnamese is often typed ("chucmungnammoi"; plain_letters.py), its labels the same.

With several ``--lang`` codes the run trains one multilingual model: the packs share one vocabulary and must share
their features; each ``--corpus`` and ``--dev`` file names its pack (``de:PATH@WEIGHT``) and is read by that pack's
rules.

With ``--teacher`` and ``--hard`` < 1 the targets blend the gold classes with an exported model's probabilities
(``distill``); such a run reads the teacher's vocabulary, and its dev windows keep their gold labels.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ..engines.char_input import HAS_SPACE, NO_SPACE, UNKNOWN, grapheme_ids, input_ids, vocab_index
from ..evaluation.signature import pack_hash
from ..holdout import held_out
from ..packs import load_pack
from ..plain_letters import plain
from .corpus import build_vocab, encode_documents, encodes, given_weights, parse_corpus_arg, read_documents
from .distill import CharTeacher, one_hot
from .runs import (BEST, LAST, STATE, TrainingError, add_state_arguments, fit, resume, rng_of, save_state, seed_from,
                   set_threads, start)


def numeric_holdout(every: int):
    """Documents whose numeric id is a multiple of ``every`` are held out as dev. Unlike ``holdout.Holdout``, other
    ids are never held out: the committed gu states were trained on exactly this split."""
    return lambda doc_id: doc_id.isdigit() and held_out(doc_id, every)


def packs_of(langs: list[str]):
    """The packs a run trains for, by code; several packs must share their features (one class space)."""
    packs = {code: load_pack(code) for code in langs}
    if len({p.features for p in packs.values()}) > 1:
        raise TrainingError("a multilingual model needs packs with the same features: " + "; ".join(
            f"{code}: {' '.join(p.features)}" for code, p in packs.items()))
    return packs


def with_pack(spec: str, packs: dict):
    """``(pack, rest)`` of a ``LANG:PATH...`` argument; a run with one pack may leave out ``LANG:``."""
    code, colon, rest = spec.partition(":")
    if colon and code in packs:
        return packs[code], rest
    if len(packs) > 1:
        raise TrainingError(f"{spec}: a multilingual run names each file's pack, e.g. {next(iter(packs))}:{spec}")
    return next(iter(packs.values())), spec


def prepare_data(corpora, dev, dev_holdout, min_count, out: Path) -> dict:
    """Encode corpora once into ``out/data``. An existing ``meta.json`` fixes the vocabulary, so a run
    resumed from a committed state (which carries meta.json but no corpus arrays) encodes identically; its
    arrays are reused only while they hold every file that ``corpora`` names, read by the packs as they are now."""
    data_dir = out / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    meta_path = data_dir / "meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else None
    packs = {pack.code: pack_hash(pack) for pack, _, _ in corpora}  # arrays read under another mapping are stale
    if encodes(meta, [(path, weight) for _, path, weight in corpora]) and meta.get("packs") == packs \
            and all((data_dir / f"{s['file']}_ids.npy").is_file() for s in meta["sources"]) \
            and (data_dir / "dev_ids.npy").is_file():
        return meta
    holdout = numeric_holdout(dev_holdout) if dev_holdout else None
    sources, streams = [], []
    for i, (pack, path, weight) in enumerate(corpora):
        docs = read_documents(path, pack, holdout=holdout)
        base, classes = encode_documents(docs, pack)
        streams.append((base, classes))
        sources.append({"path": str(path), "lang": pack.code, "weight": weight, "docs": len(docs), "graphemes": len(base), "file": f"src{i}"})
        print(f"read {path}: {len(docs)} docs, {len(base)} graphemes", flush=True)
    vocab = meta["vocab"] if meta else build_vocab([g for base, _ in streams for g in base], min_count)
    index = vocab_index(vocab)
    for src, (base, classes) in zip(sources, streams):
        np.save(data_dir / f"{src['file']}_ids.npy", grapheme_ids(base, index))
        np.save(data_dir / f"{src['file']}_cls.npy", classes)
    if dev:
        dev_parts = [encode_documents(read_documents(p, pack), pack) for pack, p in dev]
    else:
        keep = numeric_holdout(dev_holdout)
        pack, path, _ = corpora[0]
        dev_parts = [encode_documents(read_documents(path, pack, holdout=lambda d: not keep(d)), pack)]
    dev_base = [g for base, _ in dev_parts for g in base]
    dev_cls = np.concatenate([c for _, c in dev_parts]) if dev_parts else np.zeros(0, np.int32)
    np.save(data_dir / "dev_ids.npy", grapheme_ids(dev_base, index))
    np.save(data_dir / "dev_cls.npy", dev_cls)
    unk = float(np.mean(grapheme_ids(dev_base, index) == 1)) if dev_base else 0.0
    meta = {"vocab": vocab, "packs": packs, "sources": sources, "dev": [str(p) for _, p in dev] if dev else f"holdout id%{dev_holdout}==0",
            "dev_graphemes": len(dev_base), "dev_unk_rate": unk, "min_count": min_count}
    meta_path.write_text(json.dumps(meta, ensure_ascii=False))
    print(f"vocab {len(vocab)}, dev {len(dev_base)} graphemes, dev UNK rate {unk:.4%}", flush=True)
    return meta


DATA_FILES = ("meta.json",)  # what a compact state carries of data/
HYPER = ("emb", "conv", "kernel", "dilations", "lstm", "lstm_layers", "dropout", "window", "batch", "lr", "spaced",
         "steps", "min_count", "hard", "starts", "plain")  # the options that a resumed run takes from its state


class WindowSampler:
    """Random fixed-length windows from weighted sources, with optional given-space spans; a share ``starts`` of
    them begins at a sentence's start (after a grapheme with one of ``sentence_bits``), where a source has one; a
    share ``plain`` reads each grapheme id as ``plain_ids`` maps it (the grapheme without its diacritics)."""

    def __init__(self, streams, weights, window, space_bit, spaced, rng, starts=0.0, sentence_bits=0, plain=0.0,
                 plain_ids=None):
        self.streams, self.window, self.space_bit, self.spaced, self.rng = streams, window, space_bit, spaced, rng
        self.plain, self.plain_ids = (plain, plain_ids) if plain_ids is not None else (0.0, None)
        w = np.asarray(weights, dtype=float)
        self.p = w / w.sum()
        self.starts = starts if sentence_bits else 0.0
        self.sentence_starts = [np.flatnonzero(cls[:-window - 1] & sentence_bits) + 1 if self.starts else None
                                for _, cls in streams]

    def batch(self, size):
        T = self.window
        src = self.rng.choice(len(self.streams), size=size, p=self.p)
        x = np.empty((size, T), np.int32)
        y = np.empty((size, T), np.int32)
        at_start = self.rng.random(size) < self.starts if self.starts else np.zeros(size, bool)
        for k, s in enumerate(src):
            ids, cls = self.streams[s]
            starts = self.sentence_starts[s]
            if at_start[k] and starts is not None and len(starts):
                o = starts[self.rng.integers(0, len(starts))]
            else:
                o = self.rng.integers(0, len(ids) - T)
            x[k], y[k] = ids[o:o + T], cls[o:o + T]
        states = np.full((size, T), UNKNOWN, np.int32)
        if self.space_bit and self.spaced:
            for k in np.flatnonzero(self.rng.random(size) < self.spaced):
                a = self.rng.integers(0, T // 2)
                b = self.rng.integers(a + T // 4, T + 1)
                states[k, a:b] = np.where(y[k, a:b] & self.space_bit, HAS_SPACE, NO_SPACE)
        if self.plain:
            read_plain = self.rng.random(size) < self.plain
            x[read_plain] = self.plain_ids[x[read_plain]]
        return input_ids(x, states), y


def plain_ids(vocab: list[str]) -> np.ndarray:
    """Each grapheme id -> the id of the grapheme without its diacritics (itself where that is not in ``vocab``).

    >>> plain_ids(["<pad>", "<unk>", "a", "á", "ờ", "o"]).tolist()
    [0, 1, 2, 2, 5, 5]
    """
    index = {g: i for i, g in enumerate(vocab)}
    return np.array([index.get(plain(g), i) for i, g in enumerate(vocab)], np.int32)


def dev_windows(ids, cls, window, limit):
    n = min(len(ids) // window, limit)
    return input_ids(ids[: n * window].reshape(n, window)), cls[: n * window].reshape(n, window)


def teacher_of(args, hard: float, meta: dict, pack) -> CharTeacher | None:
    """The exported model that a distilled run (``hard`` < 1) learns from; None for gold labels alone."""
    if not 0.0 <= hard <= 1.0:
        raise TrainingError(f"--hard {hard}: the weight of the gold labels is between 0 and 1")
    if hard == 1.0:
        if args.teacher:
            print(f"hard weight 1: the teacher {args.teacher} is not used", flush=True)
        return None
    if not args.teacher:
        raise TrainingError(f"this run distills (hard weight {hard}): give --teacher")
    return CharTeacher(Path(args.teacher), meta["vocab"], list(pack.features),
                       [pack.class_name(c) for c in range(pack.n_classes)], args.threads)


def train(args) -> Path:
    packs = packs_of(args.lang)
    pack = next(iter(packs.values()))  # the features and classes, which the packs share
    corpora = [(p, *parse_corpus_arg(rest)) for p, rest in (with_pack(c, packs) for c in args.corpus)]
    dev = [with_pack(d, packs) for d in args.dev]
    for path in [p for _, p, _ in corpora] + [p for _, p in dev]:
        if not Path(path).is_file():
            raise FileNotFoundError(f"no corpus file {path}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.resume_from:
        seed_from(Path(args.resume_from), out, DATA_FILES)
    meta = prepare_data(corpora, dev, args.dev_holdout, args.min_count, out)

    set_threads(args.threads)
    import keras  # only now: a bad argument above fails fast, without TensorFlow's start-up

    from .char_model import build_char_model
    from .widen import widen_model
    data_dir = out / "data"
    streams = [(np.load(data_dir / f"{s['file']}_ids.npy"), np.load(data_dir / f"{s['file']}_cls.npy"))
               for s in meta["sources"]]

    def build(hyper, lr):
        model = build_char_model(len(meta["vocab"]) * 3, pack.n_classes, emb=hyper["emb"], conv=hyper["conv"],
                                 kernel=hyper["kernel"], dilations=tuple(hyper["dilations"]), lstm=hyper["lstm"],
                                 lstm_layers=hyper["lstm_layers"], dropout=hyper["dropout"])
        soft = hyper.get("hard", 1.0) < 1.0  # distilled: the targets are distributions
        ce = keras.losses.CategoricalCrossentropy if soft else keras.losses.SparseCategoricalCrossentropy
        model.compile(optimizer=keras.optimizers.Adam(lr, clipnorm=1.0), loss=ce(from_logits=True),
                      metrics=["categorical_accuracy" if soft else "sparse_categorical_accuracy"])
        return model

    state, model = resume(out, build, args.set_lr) or start(build, args, HYPER)
    hyper = state["hyper"]
    if args.set_window:
        hyper["window"] = args.set_window
    if args.set_batch:
        hyper["batch"] = args.set_batch
    dropout = args.set_dropout is not None and args.set_dropout != hyper["dropout"]
    wider = args.set_lstm is not None and args.set_lstm != hyper["lstm"]
    if dropout or wider:  # rebuilt: dropout holds no weights; a wider BiLSTM's old units keep theirs
        old, units, lr = model, hyper["lstm"], float(keras.ops.convert_to_numpy(model.optimizer.learning_rate))
        hyper.update(dropout=args.set_dropout if dropout else hyper["dropout"], lstm=args.set_lstm or units)
        keras.utils.set_random_seed(args.seed)  # the new units' input weights, drawn the same way every time
        model = build(hyper, lr)
        if wider:
            widen_model(old, model, units, hyper["lstm"])
            state["stage_start"] = len(state["history"])  # the narrower epochs' best is no longer this model's
            (out / BEST).unlink(missing_ok=True)
            print(f"BiLSTM widened {units} -> {hyper['lstm']} units a direction", flush=True)
        else:
            model.set_weights(old.get_weights())
        model.optimizer.build(model.trainable_variables)  # zero moments, saved whole (as a resumed state is)
        model.save(out / LAST)  # the folder's model and state are the ones that train on, even with no epoch
        (out / STATE).write_text(json.dumps(state, default=str))
    if args.starts is not None:  # a resumed run keeps its own share unless given one
        hyper["starts"] = args.starts
    if args.plain is not None:
        hyper["plain"] = args.plain
    hard = hyper.get("hard", 1.0)  # a resumed run keeps its own
    teacher = teacher_of(args, hard, meta, pack)
    dev_x, dev_y = dev_windows(np.load(data_dir / "dev_ids.npy"), np.load(data_dir / "dev_cls.npy"),
                               args.window, args.dev_windows)
    if teacher:
        dev_y = one_hot(dev_y, pack.n_classes)  # gold, so that the val loss stays comparable across runs
    rng = rng_of(state, args.seed)
    weights = given_weights(meta["sources"], [(path, weight) for _, path, weight in corpora])
    sampler = WindowSampler(streams, weights, hyper["window"], pack.bit("SPACE"),
                            hyper["spaced"], rng, hyper.get("starts") or 0.0,
                            pack.sentence_bits, hyper.get("plain") or 0.0, plain_ids(meta["vocab"]))

    def batches():
        while True:
            x, y = sampler.batch(hyper["batch"])
            yield x, (y if teacher is None else teacher.targets(x, y, hard))

    fit(model, batches(), (dev_x, dev_y), state, out, rng, args, seen="chars", lr_factor=0.5, patience=6,
        validation_batch_size=256)
    if args.save_state:
        save_state(model, out, Path(args.save_state), DATA_FILES, args.state_weights_only, dev_x[:32])
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", nargs="+", required=True, help="the pack, or several packs with the same features "
                   "(one multilingual model)")
    p.add_argument("--corpus", nargs="+", required=True, help="PATH or PATH@WEIGHT (sampling weight); "
                   "LANG:PATH@WEIGHT names the pack in a multilingual run")
    p.add_argument("--dev", nargs="*", default=[], help="dev corpus files, LANG:PATH in a multilingual run "
                   "(else --dev-holdout)")
    p.add_argument("--dev-holdout", type=int, default=0, help="hold out documents with numeric id %% N == 0 as dev")
    p.add_argument("--out", required=True, help="training folder (resumes if it holds a state)")
    p.add_argument("--min-count", type=int, default=5)
    p.add_argument("--window", type=int, default=200)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--steps", type=int, default=150, help="steps per epoch")
    p.add_argument("--epochs", type=int, default=100)
    p.add_argument("--max-minutes", type=float, default=120, help="stop after the epoch that passes this")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--threads", type=int, default=0, help="TensorFlow threads (0 = all cores)")
    p.add_argument("--set-lr", type=float, help="when resuming, continue at this learning rate (a manual decay stage)")
    p.add_argument("--starts", type=float, help="share of the training windows that begin at a sentence's start "
                   "(default 0; a resumed run keeps its own unless given)")
    p.add_argument("--set-window", type=int, help="when resuming, train on windows of this many graphemes from now "
                   "on (the dev windows keep --window, so that the val loss stays comparable)")
    p.add_argument("--set-batch", type=int, help="when resuming, train on batches of this many windows from now on "
                   "(a GPU's: it runs a batch of 1024 about as fast as one of 256)")
    p.add_argument("--set-dropout", type=float, help="when resuming, train with this dropout from now on (the "
                   "weights carry over; Adam's moments restart)")
    p.add_argument("--set-lstm", type=int, help="when resuming, widen the BiLSTM to this many units a direction: "
                   "the old units keep their weights and the new ones start silent, so the model computes what it "
                   "did; Adam's moments restart")
    p.add_argument("--emb", type=int, default=64)
    p.add_argument("--conv", type=int, default=96)
    p.add_argument("--kernel", type=int, default=5)
    p.add_argument("--dilations", type=int, nargs="+", default=[1, 2, 4])
    p.add_argument("--lstm", type=int, default=128)
    p.add_argument("--lstm-layers", type=int, default=1)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--spaced", type=float, default=0.3, help="share of windows with a given-space span")
    p.add_argument("--plain", type=float, help="share of windows read without their diacritics (default 0; a "
                   "resumed run keeps its own unless given)")
    p.add_argument("--dev-windows", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--teacher", help="an exported char.onnx (beside its card char.json) whose probabilities the "
                   "student learns (with --hard < 1). It must read this run's vocabulary: start the run with the "
                   "teacher run's meta.json (training_state/LANG-char/) copied into OUT/data/, as "
                   "scripts/train_char.sh does")
    p.add_argument("--hard", type=float, default=1.0, help="weight of the gold labels in the targets; the "
                   "teacher's probabilities get the rest (default 1: gold labels alone)")
    add_state_arguments(p)


run = train  # the entry point that `charrestore train char` calls

"""Train the char E2E model in resumable stages.

Every epoch (a fixed number of steps) saves ``last.keras`` (weights + optimizer) and ``state.json``
(epoch, RNG state, cumulative CPU and wall time, history), so a later session continues exactly where
this one stopped. ``best.weights.h5`` keeps the best model on dev loss.

Windows of ``window`` graphemes are drawn at fresh random offsets for every batch. A share of them
(``spaced``) gets a random span whose spaces are given as input, so that one model also serves text
whose word boundaries are known (ASR output, ``--spaces keep``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from ..engines.char_input import HAS_SPACE, NO_SPACE, UNKNOWN, grapheme_ids, input_ids
from ..packs import load_pack
from . import set_threads
from .corpus import build_vocab, encode_documents, read_documents


def parse_corpus_arg(spec: str) -> tuple[str, float]:
    """``PATH`` or ``PATH@WEIGHT`` (sampling weight, default 1)."""
    path, _, weight = spec.partition("@")
    return path, float(weight or 1.0)


def numeric_holdout(every: int):
    """Documents whose numeric id is a multiple of ``every`` are held out as dev."""
    return lambda doc_id: doc_id.isdigit() and int(doc_id) % every == 0


def prepare_data(pack, corpora, dev, dev_holdout, min_count, out: Path) -> dict:
    """Encode corpora once into ``out/data``. An existing ``meta.json`` fixes the vocabulary, so a run
    resumed from a committed state (which carries meta.json but no corpus arrays) encodes identically."""
    data_dir = out / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    meta_path = data_dir / "meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else None
    if meta and all((data_dir / f"{s['file']}_ids.npy").is_file() for s in meta["sources"]) \
            and (data_dir / "dev_ids.npy").is_file():
        return meta
    holdout = numeric_holdout(dev_holdout) if dev_holdout else None
    sources, streams = [], []
    for i, (path, weight) in enumerate(corpora):
        docs = read_documents(path, pack, holdout=holdout)
        base, classes = encode_documents(docs, pack)
        streams.append((base, classes))
        sources.append({"path": str(path), "weight": weight, "docs": len(docs), "graphemes": len(base), "file": f"src{i}"})
        print(f"read {path}: {len(docs)} docs, {len(base)} graphemes", flush=True)
    vocab = meta["vocab"] if meta else build_vocab([g for base, _ in streams for g in base], min_count)
    index = {g: i for i, g in enumerate(vocab)}
    for src, (base, classes) in zip(sources, streams):
        np.save(data_dir / f"{src['file']}_ids.npy", grapheme_ids(base, index))
        np.save(data_dir / f"{src['file']}_cls.npy", classes)
    if dev:
        dev_docs = [d for p in dev for d in read_documents(p, pack)]
    else:
        keep = numeric_holdout(dev_holdout)
        dev_docs = read_documents(corpora[0][0], pack, holdout=lambda d: not keep(d))
    dev_base, dev_cls = encode_documents(dev_docs, pack)
    np.save(data_dir / "dev_ids.npy", grapheme_ids(dev_base, index))
    np.save(data_dir / "dev_cls.npy", dev_cls)
    unk = float(np.mean(grapheme_ids(dev_base, index) == 1)) if dev_base else 0.0
    meta = {"vocab": vocab, "sources": sources, "dev": [str(p) for p in dev] if dev else f"holdout id%{dev_holdout}==0",
            "dev_graphemes": len(dev_base), "dev_unk_rate": unk, "min_count": min_count}
    meta_path.write_text(json.dumps(meta, ensure_ascii=False))
    print(f"vocab {len(vocab)}, dev {len(dev_base)} graphemes, dev UNK rate {unk:.4%}", flush=True)
    return meta


WEIGHTS = "weights.npz"  # the weights alone, without the optimizer: the token trainer's --state-weights-only


def resume_from(state_dir: Path, out: Path, data_files: tuple[str, ...] = ("meta.json",)) -> None:
    """Seed a fresh run folder from a committed compact state: the model (or its weights alone), optimizer
    and RNG beside ``state.json``, and the data files (vocabulary, tokenizer) into ``data/``."""
    if (out / "state.json").is_file():
        return
    (out / "data").mkdir(parents=True, exist_ok=True)
    for name in ("last.keras", "best.weights.h5", WEIGHTS, "state.json"):
        if (state_dir / name).is_file():
            shutil.copyfile(state_dir / name, out / name)
    for name in data_files:
        shutil.copyfile(state_dir / name, out / "data" / name)


def save_compact_state(out: Path, state_dir: Path,
                       files: tuple[str, ...] = ("last.keras", "best.weights.h5", "state.json"),
                       data_files: tuple[str, ...] = ("meta.json",)) -> None:
    """Copy what resuming needs (no corpus arrays) into a folder that can be committed."""
    state_dir.mkdir(parents=True, exist_ok=True)
    for name in files:
        if (out / name).is_file():
            shutil.copyfile(out / name, state_dir / name)
    for name in data_files:
        shutil.copyfile(out / "data" / name, state_dir / name)


class WindowSampler:
    """Random fixed-length windows from weighted sources, with optional given-space spans."""

    def __init__(self, streams, weights, window, space_bit, spaced, rng):
        self.streams, self.window, self.space_bit, self.spaced, self.rng = streams, window, space_bit, spaced, rng
        w = np.asarray(weights, dtype=float)
        self.p = w / w.sum()

    def batch(self, size):
        T = self.window
        src = self.rng.choice(len(self.streams), size=size, p=self.p)
        x = np.empty((size, T), np.int32)
        y = np.empty((size, T), np.int32)
        for k, s in enumerate(src):
            ids, cls = self.streams[s]
            o = self.rng.integers(0, len(ids) - T)
            x[k], y[k] = ids[o:o + T], cls[o:o + T]
        states = np.full((size, T), UNKNOWN, np.int32)
        if self.space_bit and self.spaced:
            for k in np.flatnonzero(self.rng.random(size) < self.spaced):
                a = self.rng.integers(0, T // 2)
                b = self.rng.integers(a + T // 4, T + 1)
                states[k, a:b] = np.where(y[k, a:b] & self.space_bit, HAS_SPACE, NO_SPACE)
        return input_ids(x, states), y


def dev_windows(ids, cls, window, limit):
    n = min(len(ids) // window, limit)
    return input_ids(ids[: n * window].reshape(n, window)), cls[: n * window].reshape(n, window)


def train(args) -> Path:
    pack = load_pack(args.lang)
    corpora = [parse_corpus_arg(c) for c in args.corpus]
    for path in [p for p, _ in corpora] + list(args.dev):
        if not Path(path).is_file():
            raise FileNotFoundError(f"no corpus file {path}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.resume_from:
        resume_from(Path(args.resume_from), out)
    meta = prepare_data(pack, corpora, args.dev, args.dev_holdout, args.min_count, out)

    set_threads(args.threads)
    import keras  # only now: a bad argument above fails fast, without TensorFlow's start-up
    import tensorflow as tf

    from .char_model import build_char_model
    data_dir = out / "data"
    streams = [(np.load(data_dir / f"{s['file']}_ids.npy"), np.load(data_dir / f"{s['file']}_cls.npy"))
               for s in meta["sources"]]
    dev_x, dev_y = dev_windows(np.load(data_dir / "dev_ids.npy"), np.load(data_dir / "dev_cls.npy"),
                               args.window, args.dev_windows)

    state_path, last_path = out / "state.json", out / "last.keras"
    hyper = {k: getattr(args, k) for k in ("emb", "conv", "kernel", "dilations", "lstm", "lstm_layers", "dropout",
                                           "window", "batch", "lr", "spaced", "steps", "min_count")}
    if state_path.is_file() and last_path.is_file():
        state = json.loads(state_path.read_text())
        model = keras.saving.load_model(last_path)
        hyper = state["hyper"]
        print(f"resuming at epoch {state['epoch']} (cumulative CPU {state['cpu_seconds'] / 3600:.2f} h)", flush=True)
        if args.set_lr:
            model.optimizer.learning_rate.assign(args.set_lr)
    else:
        state = {"epoch": 0, "cpu_seconds": 0.0, "wall_seconds": 0.0, "history": [], "hyper": hyper,
                 "rng": None, "commands": []}
        model = build_char_model(len(meta["vocab"]) * 3, pack.n_classes, emb=hyper["emb"], conv=hyper["conv"],
                                 kernel=hyper["kernel"], dilations=tuple(hyper["dilations"]), lstm=hyper["lstm"],
                                 lstm_layers=hyper["lstm_layers"], dropout=hyper["dropout"])
        model.compile(optimizer=keras.optimizers.Adam(hyper["lr"], clipnorm=1.0),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["sparse_categorical_accuracy"])
    state["commands"].append(" ".join(sys.argv))
    model.summary(print_fn=lambda s, **_: print(s, flush=True))

    rng = np.random.default_rng(args.seed)
    if state["rng"]:
        rng.bit_generator.state = state["rng"]
    sampler = WindowSampler(streams, [s["weight"] for s in meta["sources"]], hyper["window"], pack.bit("SPACE"),
                            hyper["spaced"], rng)

    def batches():
        while True:
            yield sampler.batch(hyper["batch"])

    deadline = time.time() + args.max_minutes * 60
    cpu0, wall0 = time.process_time(), time.time()
    base_cpu, base_wall = state["cpu_seconds"], state["wall_seconds"]

    class SaveState(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            state["epoch"] = epoch + 1
            state["cpu_seconds"] = base_cpu + time.process_time() - cpu0
            state["wall_seconds"] = base_wall + time.time() - wall0
            state["rng"] = rng.bit_generator.state
            lr = float(keras.ops.convert_to_numpy(self.model.optimizer.learning_rate))
            state["history"].append({"epoch": epoch + 1, "lr": lr, "chars": (epoch + 1) * hyper["steps"] * hyper["batch"] * hyper["window"],
                                     **{k: float(v) for k, v in (logs or {}).items()}})
            self.model.save(last_path)
            best = min(h["val_loss"] for h in state["history"])
            if logs and logs.get("val_loss") == best:
                self.model.save_weights(out / "best.weights.h5")
            state_path.write_text(json.dumps(state, default=str))
            print(f"epoch {epoch + 1}: {logs} cpu {state['cpu_seconds'] / 3600:.2f} h", flush=True)
            if time.time() > deadline:
                self.model.stop_training = True

    callbacks = [
        SaveState(),
        keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=2, min_lr=1e-5, verbose=1),
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=6),
    ]
    tf.random.set_seed(args.seed + state["epoch"])
    model.fit(batches(), steps_per_epoch=hyper["steps"], epochs=state["epoch"] + args.epochs,
              initial_epoch=state["epoch"], validation_data=(dev_x, dev_y), validation_batch_size=256,
              callbacks=callbacks, verbose=2)
    if args.save_state:
        save_compact_state(out, Path(args.save_state))
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", required=True)
    p.add_argument("--corpus", nargs="+", required=True, help="PATH or PATH@WEIGHT (sampling weight)")
    p.add_argument("--dev", nargs="*", default=[], help="dev corpus files (else --dev-holdout)")
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
    p.add_argument("--emb", type=int, default=64)
    p.add_argument("--conv", type=int, default=96)
    p.add_argument("--kernel", type=int, default=5)
    p.add_argument("--dilations", type=int, nargs="+", default=[1, 2, 4])
    p.add_argument("--lstm", type=int, default=128)
    p.add_argument("--lstm-layers", type=int, default=1)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--spaced", type=float, default=0.3, help="share of windows with a given-space span")
    p.add_argument("--dev-windows", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--resume-from", help="committed compact state folder to continue from (see --save-state)")
    p.add_argument("--save-state", help="after training, copy the compact resumable state here (to commit)")


run = train  # the entry point that `charrestore train char` calls


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    add_arguments(parser)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    run(parser.parse_args())

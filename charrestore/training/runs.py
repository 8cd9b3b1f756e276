"""A training run: its folder, its resumable state, the epoch loop that keeps both up to date.

A run folder (``--out``) holds ``state.json`` (epoch, RNG state, cumulative CPU and wall time, history,
hyper-parameters, commands), ``last.keras`` (weights + optimizer, rewritten every epoch),
``best.weights.h5`` (the best epoch on dev loss) and ``data/`` (encoded corpora plus the vocabulary or
tokenizer), so a later session continues exactly where this one stopped.

A compact state (``--save-state``) is what resuming needs without the corpus arrays, small enough to commit.
With ``--state-weights-only`` (the form of every committed state, see ``models/README.md``) it keeps the last
epoch's weights (``weights.npz``, fp16 when the outputs barely move) but no optimizer slots: a run resumed
from it restarts Adam's moments at the saved learning rate.
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

STATE, LAST, BEST, WEIGHTS = "state.json", "last.keras", "best.weights.h5", "weights.npz"
FP16_TOLERANCE = 2e-2  # max |logit difference| on the probe for weights stored fp16 (a state trains on: Adam restarts)


class TrainingError(ValueError):
    """A training or export step that cannot go on: missing files, runs that do not match, a failed check."""


def set_threads(threads: int) -> None:
    """Bound TensorFlow's thread pools (0 = TensorFlow's default), so that a run can share the CPU with another;
    under ``KERAS_BACKEND=torch`` (training on a lent GPU), torch's.

    TensorFlow fixes its pools when it first builds something; in a process where that has already happened
    (a test session, a notebook), the pools stay as they are.
    """
    if threads and os.environ.get("KERAS_BACKEND") == "torch":
        import torch

        torch.set_num_threads(threads)
    elif threads:
        import tensorflow as tf

        try:
            tf.config.threading.set_intra_op_parallelism_threads(threads)
            tf.config.threading.set_inter_op_parallelism_threads(threads)
        except RuntimeError:
            pass


def add_state_arguments(p: argparse.ArgumentParser) -> None:
    """The options every trainer shares for committed states."""
    p.add_argument("--resume-from", help="committed compact state folder to continue from (see --save-state)")
    p.add_argument("--save-state", help="after training, copy the compact resumable state here (to commit)")
    p.add_argument("--state-weights-only", action="store_true",
                   help="the saved state keeps the weights but not the optimizer's moments (a third of the size)")


def seed_from(state_dir: Path, out: Path, data_files: tuple[str, ...]) -> None:
    """Seed a run folder from a committed compact state: the model (or its weights alone) and RNG beside
    ``state.json``, and the data files (vocabulary, tokenizer) into ``data/``.

    The given state is the truth. A folder that holds the same state goes on as it is (with its optimizer's
    moments); one that holds another (a member's state promoted over it, epochs of a stage that was cut off or
    not kept) is set aside, so that a stage never quietly continues a course other than the one it was given.
    """
    if not (state_dir / STATE).is_file():
        raise TrainingError(f"{state_dir} holds no training state ({STATE} is missing)")
    if (out / STATE).is_file():
        if read_state(out) == read_state(state_dir):
            return
        set_aside(out, state_dir)
    (out / "data").mkdir(parents=True, exist_ok=True)
    stale = any((out / "data" / name).is_file() and
                (out / "data" / name).read_bytes() != (state_dir / name).read_bytes() for name in data_files)
    for arrays in (out / "data").glob("*.npy") if stale else ():  # encoded by another vocabulary
        arrays.unlink()
    for name in (LAST, BEST, WEIGHTS, STATE):
        if (state_dir / name).is_file():
            shutil.copyfile(state_dir / name, out / name)
    for name in data_files:
        shutil.copyfile(state_dir / name, out / "data" / name)


def set_aside(out: Path, state_dir: Path) -> Path:
    """Move a run folder's own state (``state.json`` and its weights) into ``out/superseded-<n>/``."""
    aside = next(out / f"superseded-{n}" for n in range(1, 10**6) if not (out / f"superseded-{n}").exists())
    aside.mkdir()
    for name in (STATE, LAST, BEST, WEIGHTS):
        if (out / name).is_file():
            (out / name).rename(aside / name)
    print(f"{out} held epoch {read_state(aside)['epoch']} of another course than {state_dir} "
          f"(epoch {read_state(state_dir)['epoch']}): set aside in {aside}", flush=True)
    return aside


def start(build, args, hyper_keys: tuple[str, ...]):
    """``(state, model)`` of a fresh run: epoch 0, the hyper-parameters ``hyper_keys`` of ``args``."""
    hyper = {k: getattr(args, k) for k in hyper_keys}
    state = {"epoch": 0, "cpu_seconds": 0.0, "wall_seconds": 0.0, "history": [], "hyper": hyper,
             "rng": None, "commands": []}
    return state, build(hyper, args.lr)


def rng_of(state: dict, seed: int) -> np.random.Generator:
    """The run's sampling RNG: seeded, then where the saved state left it."""
    rng = np.random.default_rng(seed)
    if state["rng"]:
        rng.bit_generator.state = state["rng"]
    return rng


def read_state(folder: Path) -> dict:
    return json.loads((Path(folder) / STATE).read_text())


def resume(out: Path, build, set_lr: float | None = None):
    """``(state, model)`` of a run folder that holds a state, else None.

    ``build(hyper, lr)`` makes a compiled model; it serves weights-only states, whose optimizer restarts
    at ``set_lr`` or else at the learning rate of the last saved epoch.
    """
    if not (out / STATE).is_file() or not ((out / LAST).is_file() or (out / WEIGHTS).is_file()):
        return None
    state = read_state(out)
    if (out / LAST).is_file():
        import keras

        model = keras.saving.load_model(out / LAST)
        if set_lr:
            model.optimizer.learning_rate.assign(set_lr)
    else:
        model = build(state["hyper"], set_lr or state["history"][-1]["lr"])
        load_weights(model, out / WEIGHTS)
        model.optimizer.build(model.trainable_variables)  # zero moments, saved whole (no loading warnings)
        model.save(out / LAST)  # the folder is now a whole run: `export` and `--init-from` read it as it is
        print("weights-only state: Adam's moments restart at the saved learning rate", flush=True)
    print(f"resuming at epoch {state['epoch']} (cumulative CPU {state['cpu_seconds'] / 3600:.2f} h)", flush=True)
    return state, model


def load_trained(run: Path):
    """The Keras model of a training folder, with its best-on-dev weights when they were kept."""
    import keras

    model = keras.saving.load_model(run / LAST)
    if (run / BEST).is_file():
        model.load_weights(run / BEST)
    return model


def outputs(model, probe) -> list[np.ndarray]:
    """A model's outputs for one batch, as a list of arrays (one per head)."""
    import keras

    out = model(probe, training=False)
    return [keras.ops.convert_to_numpy(o) for o in (out if isinstance(out, (list, tuple)) else [out])]


def save_weights(model, path: Path, probe) -> float:
    """The model's weights as ``w0 … wN`` arrays in a compressed npz: fp16 when the outputs on ``probe`` move
    by less than FP16_TOLERANCE, else fp32. Returns the largest output difference that fp16 would cause."""
    weights = model.get_weights()
    reference = outputs(model, probe)
    half = [w.astype(np.float16) if w.dtype == np.float32 else w for w in weights]
    model.set_weights([h.astype(w.dtype) for h, w in zip(half, weights)])
    diff = max(float(np.abs(a - b).max()) for a, b in zip(outputs(model, probe), reference))
    model.set_weights(weights)
    kept = half if diff < FP16_TOLERANCE else weights  # a NaN difference (overflow) keeps fp32
    np.savez_compressed(path, **{f"w{i}": w for i, w in enumerate(kept)})
    print(f"{path}: {'fp16' if kept is half else 'fp32'} weights (fp16 moves the outputs by {diff:.1e})", flush=True)
    return diff


def load_weights(model, path: Path) -> None:
    """Weights saved by ``save_weights``, cast to the model's variable types."""
    with np.load(path) as saved:
        if len(saved.files) != len(model.weights):
            raise TrainingError(f"{path} holds {len(saved.files)} arrays; the model has {len(model.weights)} weights")
        model.set_weights([saved[f"w{i}"].astype(v.dtype) for i, v in enumerate(model.weights)])


def save_state(model, out: Path, state_dir: Path, data_files: tuple[str, ...], weights_only: bool, probe) -> None:
    """Copy what resuming needs (no corpus arrays) into a folder that can be committed: the last epoch's
    weights alone, or ``last.keras`` with the optimizer plus ``best.weights.h5`` unless the last epoch is the best."""
    state_dir.mkdir(parents=True, exist_ok=True)
    for name in (LAST, BEST, WEIGHTS):  # an earlier state of the other form must not win when resuming
        (state_dir / name).unlink(missing_ok=True)
    for name in (STATE,) if weights_only else (STATE, LAST, BEST):
        if (out / name).is_file():
            shutil.copyfile(out / name, state_dir / name)
    for name in data_files:
        shutil.copyfile(out / "data" / name, state_dir / name)
    if weights_only:
        save_weights(model, state_dir / WEIGHTS, probe)
        return
    losses = [h["val_loss"] for h in read_state(state_dir)["history"]]
    if losses and losses[-1] == min(losses) and (state_dir / BEST).is_file():
        (state_dir / BEST).unlink()
        print(f"{state_dir}: last epoch is the best; {BEST} dropped ({LAST} has its weights)")


def seed_backend(seed: int) -> None:
    """Seed the backend's own random ops: TensorFlow's, or torch's where a run trains on a GPU through
    ``KERAS_BACKEND=torch`` (the weights it saves load into the TensorFlow model that exports)."""
    import keras

    if keras.backend.backend() == "torch":
        import torch

        torch.manual_seed(seed)
    else:
        import tensorflow as tf

        tf.random.set_seed(seed)


def lent_gpu() -> str | None:
    """The name of the GPU that a ``KERAS_BACKEND=torch`` run trains on, else None (asked of Keras, as
    ``seed_backend`` asks it, so that the two agree however the backend was chosen)."""
    import keras

    if keras.backend.backend() != "torch":
        return None
    import torch

    return torch.cuda.get_device_name() if torch.cuda.is_available() else None


def fit(model, batches, dev, state: dict, out: Path, rng: np.random.Generator, args, *, seen: str,
        lr_factor: float, patience: int, validation_batch_size: int) -> None:
    """Train for ``args.epochs`` more epochs of ``hyper["steps"]`` steps, or until ``args.max_minutes`` passed.

    Every epoch writes ``last.keras`` and ``state.json`` (``seen``: the chars or words seen so far, the
    cumulative CPU and wall time over all sessions) and ``best.weights.h5`` when dev loss is at its best
    since ``state["stage_start"]``; its log line ends with the cumulative CPU hours.
    """
    import keras

    hyper = state["hyper"]
    per_epoch = hyper["steps"] * hyper["batch"] * hyper["window"]
    deadline = time.time() + args.max_minutes * 60
    cpu0, wall0 = time.process_time(), time.time()
    base_cpu, base_wall, base_gpu = state["cpu_seconds"], state["wall_seconds"], state.get("gpu_seconds", 0.0)
    gpu = lent_gpu()
    state["commands"].append(" ".join(sys.argv))
    model.summary(print_fn=lambda s, **_: print(s, flush=True))

    class SaveState(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            state["epoch"] = epoch + 1
            state["cpu_seconds"] = base_cpu + time.process_time() - cpu0
            state["wall_seconds"] = base_wall + time.time() - wall0
            if gpu:  # the card names the GPU and the wall time on it beside the CPU hours
                state["gpu_seconds"], state["gpu"] = base_gpu + time.time() - wall0, gpu
            state["rng"] = rng.bit_generator.state
            lr = float(keras.ops.convert_to_numpy(self.model.optimizer.learning_rate))
            state["history"].append({"epoch": epoch + 1, "lr": lr, seen: (epoch + 1) * per_epoch,
                                     **{k: float(v) for k, v in (logs or {}).items()}})
            self.model.save(out / LAST)
            best = min(h["val_loss"] for h in state["history"][state.get("stage_start", 0):])
            if logs and logs.get("val_loss") == best:
                self.model.save_weights(out / BEST)
            (out / STATE).write_text(json.dumps(state, default=str))
            print(f"epoch {epoch + 1}: {logs} cpu {state['cpu_seconds'] / 3600:.2f} h", flush=True)
            if time.time() > deadline:
                self.model.stop_training = True

    callbacks = [
        SaveState(),
        keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=lr_factor, patience=2, min_lr=1e-5, verbose=1),
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=patience),
    ]
    seed_backend(args.seed + state["epoch"])
    model.fit(batches, steps_per_epoch=hyper["steps"], epochs=state["epoch"] + args.epochs,
              initial_epoch=state["epoch"], validation_data=dev, validation_batch_size=validation_batch_size,
              callbacks=callbacks, verbose=2)

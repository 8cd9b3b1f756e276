"""On a lent GPU (scripts/gpu/train.sh): one arm, i.e. stages of `charrestore train char` under KERAS_BACKEND=torch
from a committed state, the learning rate halving each stage (Adam kept between stages), until a deadline that the
arms share; after each stage the last three stages' weights-only states and the log are tarred into $OUT.

    python scripts/gpu/stages.py ARM LANG WIDTH|keep DEADLINE CORPUS[,CORPUS...] DEV[,DEV...]

Stage 1 runs FIRST_MINUTES at 1e-3 (the epoch time it measures sizes the rest); the time left is then shared out
over 5e-4, 2.5e-4, 1.25e-4 and 6.25e-5, skipping a stage where no epoch fits.
"""
import os
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path


def send_back(tar_path: Path, snaps: list[str], log_name: str) -> None:
    """The stages' states and the log as one tar in $OUT, replaced whole (a run cut off keeps the last one)."""
    with tarfile.open(tar_path.with_suffix(".tmp"), "w") as tf:
        for s in snaps:
            tf.add(s, arcname=Path(s).name)
        tf.add(log_name, arcname=Path(log_name).name)
    tar_path.with_suffix(".tmp").rename(tar_path)


arm, lang, width, deadline = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
corpus, dev = sys.argv[5].split(","), sys.argv[6].split(",")
batch = os.environ.get("GPU_BATCH", "1024"); first_minutes = float(os.environ.get("FIRST_MINUTES", "1.5"))
lrs = [1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5]
out = Path(f"runs/char-{lang}-{arm}"); (out / "data").mkdir(parents=True, exist_ok=True)
src = Path(f"runs/gpu/np/{lang}")  # scripts/gpu/unpack_data.py
for f in src.glob("*.npy"):
    (out / "data" / f.name).unlink(missing_ok=True); (out / "data" / f.name).symlink_to(f.resolve())
(out / "data/meta.json").write_text((src / "meta.json").read_text())
log = open(f"runs/gpu/{arm}-{lang}.log", "a")
tar_path = Path(os.environ["OUT"]) / f"{arm}-{lang}.tar"
base = [sys.executable, "-m", "charrestore", "train", "char", "--lang", lang, "--corpus", *corpus, "--dev", *dev,
        "--min-count", "3", "--out", str(out), "--threads", "2", "--state-weights-only",
        "--dev-windows", os.environ.get("DEV_WINDOWS", "1000")]
snaps, epoch_s, overhead_s = [], None, 30.0
for k, lr in enumerate(lrs, 1):
    left = deadline - time.time()
    if k == 1:
        extra = ["--resume-from", f"training_state/{lang}-char", "--set-batch", batch, "--max-minutes", str(first_minutes)]
        if width != "keep":
            extra += ["--set-lstm", width]
    else:
        n = int((left - overhead_s * (6 - k)) / epoch_s * [0, 0, 0.3, 0.35, 0.5, 1.0][k])
        if n < 1:
            print(f"stage {k}: {left:.0f}s left, no epoch fits", file=log, flush=True); continue
        cap = min(n * epoch_s * 1.2, left - overhead_s - epoch_s)
        extra = ["--epochs", str(n), "--max-minutes", str(max(0.05, cap / 60))]
    snap = f"runs/gpu/st/{arm}-{lang}-s{k}"
    t = time.time()
    cmd = base + extra + ["--set-lr", str(lr), "--save-state", snap]
    print(" ".join(cmd), file=log, flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [l for l in p.stdout.splitlines() if not re.match(r"^(WARNING|I0000|W0000)", l)]
    log.write("\n".join(l for l in lines if "│" not in l and "─" not in l) + "\n"); log.flush()
    if p.returncode:
        print(f"stage {k} failed: {p.returncode}", file=log, flush=True); break
    times = [float(m.group(1)) for m in re.finditer(r" - (\d+)s - \d+m?s/step", p.stdout)]
    wall = time.time() - t
    if not times:
        times = [wall / 2]
    epoch_s = max(times) if epoch_s is None else max(times[-1], 1.0)
    overhead_s = max(10.0, wall - sum(times))
    print(f"stage {k}: lr {lr} wall {wall:.0f}s epochs {len(times)} epoch_s {epoch_s} overhead {overhead_s:.0f}",
          file=log, flush=True)
    snaps = (snaps + [snap])[-3:]
    send_back(tar_path, snaps, log.name)
print("done", file=log, flush=True)
send_back(tar_path, snaps, log.name)

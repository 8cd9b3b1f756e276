"""On a lent GPU (scripts/gpu/train.sh): the arrays that scripts/gpu/pack_data.py packed, back to int32 .npy in
runs/gpu/np/<lang>/, and empty stand-ins for the corpus paths that their meta.json names (the trainer checks that those
exist, then reads the arrays). A pack edited since a state was trained reads with the same vocabulary and a new hash:
the state's meta.json takes the packed one's, so that the trainer keeps the arrays."""
import json
import lzma
from pathlib import Path
import numpy as np
for d in sorted(Path("runs/gpu/data").iterdir()):
    out = Path("runs/gpu/np") / d.name
    out.mkdir(parents=True, exist_ok=True)
    meta = json.loads((d / "meta.json").read_text())
    (out / "meta.json").write_text((d / "meta.json").read_text())
    for stem, dt in json.loads((d / "dtypes.json").read_text()).items():
        np.save(out / f"{stem}.npy", np.frombuffer(lzma.decompress((d / f"{stem}.xz").read_bytes()), dtype=dt).astype(np.int32))
    for p in [s["path"] for s in meta["sources"]] + list(meta["dev"]):
        Path(p).parent.mkdir(parents=True, exist_ok=True)
        Path(p).touch()
    state_meta = Path(f"training_state/{d.name}-char/meta.json")  # a pack edited since: same vocabulary, new hash
    if json.loads(state_meta.read_text())["vocab"] == meta["vocab"]:
        state_meta.write_text((d / "meta.json").read_text())
    print("unpacked", d.name, flush=True)

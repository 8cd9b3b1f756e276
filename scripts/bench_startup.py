"""Start-up of ``charrestore fix TEXT`` as a whole process, per pack and engine, beside its floor.

For every shipped pack whose model is installed (or ``--langs``) and engine (the pack's default, then each other
engine it has models for), a fresh ``python -m charrestore fix --lang L [--engine E] TEXT`` is timed end to end, on
an unspaced line and on the same line spaced (the second never needs the NB segmenter's counts), for a pack typed
without diacritics (``plain_typing``) also on the unspaced line without them (its counts made plain first); and the
CLI's default, ``fix TEXT`` without ``--lang`` (English unless another pack is clearly more likely: the language
detector's cost), on en's unspaced line. The line is the start of the pack's fixture text
(``tests/fixtures/text/<lang>.txt``), lower-cased and without marks. Per row: the median wall time of ``--runs``
processes, the median peak memory (VmHWM, from ``os.wait4``), and, from one more process that times itself, what the
imports, building the Restorer and the first restore each took. The floor is
``python -c "import onnxruntime"`` (numpy comes with it). ``--python`` adds the same rows for other
interpreters (say, a venv with an earlier release installed), each process started in an empty folder
so that it imports its own installed package: every process of every interpreter runs in turn,
so a busy machine slows all of them alike. Not a test: a benchmark to compare runs.

    python scripts/bench_startup.py [--runs 5] [--langs en ja gu] [--python OTHER/bin/python ...] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from charrestore import load_pack
from charrestore.auto import DEFAULT_LANG
from charrestore.codec import parse, render
from charrestore.packs import available_packs
from charrestore.plain_letters import plain

ROOT = Path(__file__).resolve().parent.parent
NEUTRAL = tempfile.mkdtemp()  # the processes' working folder: `python -m` would import a checkout found in the cwd
SELF_TIMED = """
import json, sys, time
t0 = time.perf_counter()
from charrestore.restorer import Restorer, RestorerConfig
t1 = time.perf_counter()
r = Restorer(RestorerConfig(lang=sys.argv[1], engine=sys.argv[2]))
t2 = time.perf_counter()
r(sys.argv[3])
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "first_restore_s": t3 - t2}))
"""


def sample(lang: str, chars: int = 40) -> tuple[str, str]:
    """(unspaced, spaced) forms of the start of the pack's fixture text: lower case, no marks."""
    pack = load_pack(lang)
    text = (ROOT / "tests" / "fixtures" / "text" / f"{lang}.txt").read_text(encoding="utf-8")[: 4 * chars]
    base, classes = parse(text, pack)
    spaced = render(base, classes & pack.bit("SPACE"), pack)[:chars].rsplit(" ", 1)[0].strip()
    return "".join(spaced.split()), spaced


def one_process(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of one process, its output discarded."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=NEUTRAL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode(errors='replace').strip()}")
    return wall, usage.ru_maxrss / 1024


def rows_to_run(langs: list[str]) -> list[tuple[str, str, str, str]]:
    """(lang, engine, input form, text) for each pack's default engine, then its other engines."""
    rows = []
    for lang in langs:
        pack = load_pack(lang)
        if not pack.ready():  # a pack whose model is still in training: nothing to start
            continue
        engines = [pack.engine] + [e for e in ("pipeline", "char") if e != pack.engine and _has(pack, e)]
        unspaced, spaced = sample(lang)
        for engine in engines:
            rows.append((lang, engine, "unspaced", unspaced))
            if pack.plain_typing and plain(unspaced) != unspaced:  # the NB counts made plain on the way
                rows.append((lang, engine, "unspaced, no diacritics", plain(unspaced)))
            if pack.bit("SPACE"):
                rows.append((lang, engine, "spaced", spaced))
    return rows


def _has(pack, engine: str) -> bool:
    return pack.ready("token" if engine == "pipeline" else "char")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="processes per row; the median is reported (default: 5)")
    ap.add_argument("--langs", nargs="+", default=None, help="packs (default: every shipped pack)")
    ap.add_argument("--python", nargs="*", default=[], help="other interpreters to time in the same run")
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "bench_startup.json")
    args = ap.parse_args()
    pythons = [sys.executable, *args.python]
    rows = rows_to_run(args.langs or available_packs())
    cmds = {(py, "floor"): [py, "-c", "import onnxruntime"] for py in pythons}
    for py in pythons:
        for lang, engine, form, text in rows:
            cmds[(py, lang, engine, form)] = [py, "-m", "charrestore", "fix", "--lang", lang, "--engine", engine, text]
        if "en" in (args.langs or available_packs()):  # the CLI's default (auto:en): the detector's cost on top
            cmds[(py, DEFAULT_LANG, "auto", "unspaced")] = [py, "-m", "charrestore", "fix", sample("en")[0]]
    for cmd in cmds.values():  # warm the file cache and the .pyc files
        one_process(cmd)
    samples: dict = {key: [] for key in cmds}
    for _ in range(args.runs):
        for key, cmd in cmds.items():
            samples[key].append(one_process(cmd))
    results = []
    for key, got in samples.items():
        row = {"python": key[0], "median_s": round(statistics.median(w for w, _ in got), 3),
               "peak_mb": round(statistics.median(m for _, m in got), 1)}
        if key[1] == "floor":
            row.update(lang="-", engine="import onnxruntime", form="-")
        else:
            py, lang, engine, form = key
            text = cmds[key][-1]
            out = subprocess.run([py, "-c", SELF_TIMED, lang, engine, text], capture_output=True, text=True, check=True,
                                 cwd=NEUTRAL)
            row.update(lang=lang, engine=engine, form=form, chars=len(text),
                       **{k: round(v, 3) for k, v in json.loads(out.stdout).items()})
        results.append(row)
    load = os.getloadavg()
    report = {"command": " ".join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]]), "runs": args.runs,
              "load_average": [round(x, 2) for x in load], "cpu": _cpu(), "rows": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"| python | pack | engine | input | median s | peak MB | imports s | build s | first restore s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['python']} | {r['lang']} | {r['engine']} | {r['form']} | {r['median_s']:.3f} | {r['peak_mb']:.0f} | "
              f"{r.get('import_s', '')} | {r.get('build_s', '')} | {r.get('first_restore_s', '')} |")
    print(f"load average at the end: {report['load_average']}; {args.runs} processes a row; wrote {args.out}")
    return 0


def _cpu() -> str:
    try:
        return next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name"))
    except (OSError, StopIteration):
        return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())

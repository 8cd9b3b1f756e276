"""Subtitles and ASR JSON restored as one document score as plain text does (issue #18).

TED talks (cleaned paragraphs of a talk joined) are turned into ASR-style input (lower-case words, no marks),
cut into cues of 5-10 words (random lengths) with random timings that carry no punctuation information, and
written as SRT, WebVTT and Whisper JSON in a temp dir. Each file goes through ``charrestore fix -i ... -o ...``
(the command users run); the text of its cues (tags removed) is scored at char level (ALL F, as
``charrestore eval --level char``) against the talk, beside the same words restored as plain text
(``charrestore fix --spaces keep``, one talk per line) and, for contrast, each cue restored on its own.
Every timing line / start-end pair must come back unchanged and no character may be lost.

    python scripts/eval_formats.py --talks 10   # both engines; ted_dev, and ted_extra (no model trained or tuned on it)

Writes reports/eval_formats_en.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from charrestore import base_text, load_pack
from charrestore.evaluation import PRF, evaluate_char
from charrestore.tuning.dev import load_talks, spaced_input

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora" / "en"
SETS = {"ted_dev": CORPORA / "ted_dev.tsv", "ted_extra": CORPORA / "ted_extra.tsv"}
FORMATS = {"srt": "srt", "vtt": "vtt", "whisper-json": "json"}


def cues(words: list[str], rng) -> list[tuple[list[str], float, float, list[tuple[float, float]]]]:
    """(words, start, end, word times) of cues of 5-10 words; word durations and gaps are random, so that
    neither the cue ends nor the pauses say where a sentence ends."""
    out, i, t = [], 0, 0.0
    while i < len(words):
        n = int(rng.integers(5, 11))
        times = []
        for _ in words[i:i + n]:
            d = float(rng.uniform(0.15, 0.6))
            times.append((round(t, 3), round(t + d, 3)))
            t += d + float(rng.uniform(0.0, 0.3))
        out.append((words[i:i + n], times[0][0], times[-1][1], times))
        i += n
        t += float(rng.uniform(0.0, 1.0))
    return out


def _stamp(s: float, sep: str) -> str:
    ms = round(s * 1000)
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}{sep}{ms % 1000:03d}"


def _lines(words: list[str]) -> str:
    """Cue text on two lines when it is longer than 42 characters (line breaks inside cues are kept)."""
    text = " ".join(words)
    if len(text) <= 42:
        return text
    half = len(words) // 2
    return " ".join(words[:half]) + "\n" + " ".join(words[half:])


def write_srt(cs) -> str:
    return "".join(f"{k}\n{_stamp(a, ',')} --> {_stamp(b, ',')}\n{_lines(w)}\n\n"
                   for k, (w, a, b, _) in enumerate(cs, 1))


def write_vtt(cs) -> str:
    return "WEBVTT\n\n" + "".join(f"{_stamp(a, '.')} --> {_stamp(b, '.')} line:90%\n{_lines(w)}\n\n"
                                  for w, a, b, _ in cs)


def write_whisper(cs) -> str:
    segments = [{"id": k, "start": a, "end": b, "text": "".join(" " + x for x in w),
                 "words": [{"word": " " + x, "start": s, "end": e, "probability": 0.9} for x, (s, e) in zip(w, ts)]}
                for k, (w, a, b, ts) in enumerate(cs)]
    return json.dumps({"text": "".join(s["text"] for s in segments), "segments": segments, "language": "en"})


WRITERS = {"srt": write_srt, "vtt": write_vtt, "whisper-json": write_whisper}


def timings(text: str, fmt: str) -> list:
    """What must not change, read without the package's readers: timing lines, or every start/end pair."""
    if fmt != "whisper-json":
        return [line for line in text.split("\n") if "-->" in line]
    data = json.loads(text)
    return [(s["start"], s["end"], [(w["start"], w["end"]) for w in s["words"]]) for s in data["segments"]]


def shown_text(text: str, fmt: str) -> str:
    """All the text of the cues or segments (tags removed), read without the package's readers: what a
    viewer sees, so that a character dropped anywhere (not only from the words) counts as lost."""
    if fmt == "whisper-json":
        return " ".join("".join(s["text"] for s in json.loads(text)["segments"]).split())
    blocks = text.strip("\n").split("\n\n")[fmt == "vtt":]
    lines = []
    for block in blocks:
        rows = block.split("\n")
        lines += rows[next(i for i, x in enumerate(rows) if "-->" in x) + 1:]
    return " ".join(re.sub(r"<[^>]*>", "", " ".join(lines)).split())


def fix(args: list[str], stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "charrestore", "fix", *args], input=stdin, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"charrestore fix {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def run_set(name: str, path: Path, n_talks: int, engine: str, seed: int, tmp: Path, pack) -> dict:
    talks = load_talks([path], pack)
    rng = np.random.default_rng(seed)
    refs = [talks[i] for i in sorted(rng.choice(len(talks), size=min(n_talks, len(talks)), replace=False))]
    inputs = [spaced_input(r, pack) for r in refs]
    hyps: dict[str, list[str]] = {f: [] for f in FORMATS}
    checks = {f: {"timings_unchanged": True, "cue_count_unchanged": True, "talks_with_chars_lost": 0} for f in FORMATS}
    all_cues = []
    seconds = {f: 0.0 for f in FORMATS}
    for k, text in enumerate(inputs):
        cs = cues(text.split(" "), rng)
        all_cues.append(cs)
        for fmt, ext in FORMATS.items():
            src, dst = tmp / f"{name}_{k}.{ext}", tmp / f"{name}_{k}.out.{ext}"
            src.write_text(WRITERS[fmt](cs), encoding="utf-8")
            t = time.perf_counter()
            fix(["-i", str(src), "-o", str(dst), "--engine", engine])
            seconds[fmt] += time.perf_counter() - t
            before, after = src.read_text(encoding="utf-8"), dst.read_text(encoding="utf-8")
            hyp = shown_text(after, fmt)
            assert shown_text(before, fmt) == text
            hyps[fmt].append(hyp)
            checks[fmt]["timings_unchanged"] &= timings(before, fmt) == timings(after, fmt)
            checks[fmt]["cue_count_unchanged"] &= len(timings(after, fmt)) == len(cs)
            checks[fmt]["talks_with_chars_lost"] += base_text(text, pack) != base_text(hyp, pack)
    t = time.perf_counter()
    plain = fix(["--spaces", "keep", "--engine", engine], "\n".join(inputs) + "\n").splitlines()
    plain_s = time.perf_counter() - t
    per_cue_in = [" ".join(w) for cs in all_cues for w, *_ in cs]
    per_cue = iter(fix(["--spaces", "keep", "--engine", engine], "\n".join(per_cue_in) + "\n").splitlines())
    cue_alone = [" ".join(next(per_cue) for _ in cs) for cs in all_cues]

    def scores(hs):
        r = evaluate_char(refs, hs, pack, spaces="keep")
        marks = sum((s for f, s in r.per_feature.items() if f != "SPACE"), PRF())
        return {"ALL": round(r.all.f1, 4), "P": round(r.all.precision, 4), "R": round(r.all.recall, 4),
                "ALL_without_SPACE": round(marks.f1, 4),
                **{f: round(s.f1, 4) for f, s in r.per_feature.items() if f != "SPACE"},
                "base_mismatch_docs": r.lines_base_mismatch}

    base = scores(plain)
    rows = {"plain text (fix --spaces keep)": {**base, "seconds": round(plain_s, 1)}}
    for fmt in FORMATS:
        s = scores(hyps[fmt])
        rows[f"{fmt} (fix -i -o)"] = {**s, "delta_vs_plain": round(s["ALL"] - base["ALL"], 4),
                                     **checks[fmt], "seconds": round(seconds[fmt], 1)}
    rows["each cue alone (contrast)"] = scores(cue_alone)
    return {"corpus": str(path.relative_to(ROOT.parent)), "talks": len(refs),
            "words": sum(len(i.split()) for i in inputs),
            "cues": sum(map(len, all_cues)), "rows": rows}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sets", nargs="+", choices=sorted(SETS), default=sorted(SETS))
    p.add_argument("--talks", type=int, default=10, help="talks per set (a seeded random subset)")
    p.add_argument("--engines", nargs="+", choices=("pipeline", "char"), default=["pipeline", "char"])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(ROOT / "reports" / "eval_formats_en.json"))
    args = p.parse_args()
    pack = load_pack("en")
    report = {"command": "python scripts/eval_formats.py " + " ".join(sys.argv[1:]), "seed": args.seed,
              "level": "char, spaces kept (ALL: micro F over CAPS . , ? SPACE as charrestore eval "
              "--level char; ALL_without_SPACE: over CAPS . , ?, since kept spaces are always right)",
              "note": "subtitle and JSON readers keep tokens without a letter or digit (a '♫' music mark, a '-') "
                      "as they are and do not send them to the model, where plain text sends them as words; "
                      "lost = talks whose shown text lost or changed a character", "engines": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for engine in args.engines:
            report["engines"][engine] = {name: run_set(name, SETS[name], args.talks, engine, args.seed, Path(tmp), pack)
                                         for name in args.sets}
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for engine, name, res in ((e, n, r) for e, sets in report["engines"].items() for n, r in sets.items()):
        print(f"\n{engine} engine, {name}: {res['talks']} talks, {res['words']} words, {res['cues']} cues")
        print(f"{'input':<34}{'ALL F':>7}{'Δ plain':>9}{'no SPACE':>9}"
              + "".join(f"{f:>7}" for f in ("CAPS", ".", ",", "?")) + "  timings  lost")
        for row, s in res["rows"].items():
            delta = f"{s['delta_vs_plain']:+.4f}" if "delta_vs_plain" in s else ""
            check = f"  {'same' if s['timings_unchanged'] and s['cue_count_unchanged'] else 'CHANGED':<7}  " \
                    f"{s['talks_with_chars_lost']}" \
                if "timings_unchanged" in s else ""
            print(f"{row:<34}{s['ALL']:>7.4f}{delta:>9}{s['ALL_without_SPACE']:>9.4f}"
                  + "".join(f"{s[f]:>7.3f}" for f in ("CAPS", ".", ",", "?")) + check)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()

"""Benchmark the segmenter (the reranked NB k-best and the plain NB) against wordsegment, wordninja and symspellpy,
all in the same run, with hashformers' published numbers beside them for context.

- STAN-large dev hashtags: exact-match accuracy (word boundaries, case-insensitive, any gold counts);
- de-spaced TED dev paragraphs: space P/R/F (ours on all of TED dev, every system on a sample);
- throughput, the median of several runs: STAN dev in hashtags/s and chars/s (every system timed in turn in each
  run), the TED sample, one 5,000-char paragraph; one thread (all are single-threaded Python);
- peak RSS of a fresh process that loads the model and segments the 5,000-char paragraph, and its load time
  (the peers too, for scale).

Boundaries are compared over letters and digits only, lower-cased: the peers drop other characters.

    python scripts/bench_segment.py [--runs 3] [--out reports/bench_segment.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from charrestore.tuning.dev import load_despaced, load_hashtags, sample
from charrestore.tuning.nb import score

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"
STAN_DEV = CORPORA / "hashtags" / "stan_large_dev.tsv"
TED_DEV = CORPORA / "en" / "ted_dev.tsv"
# hashformers (GPT-2 + BERT reranking of a beam), exact match as published in its evaluation report; other data
# sets than STAN-large dev and not run here: context, not a comparison
HASHFORMERS = {"BOUN": 83.7, "HashSet-Manual": 56.7}
RERANK, NB = "charrestore rerank", "charrestore NB"


def systems(lang: str = "en") -> dict:
    """name -> text -> list of words. Peers are benchmark-only imports."""
    from charrestore.rerank import Reranker
    from charrestore.segmenter import Segmenter

    ours, reranked = Segmenter.load(lang), Reranker.load(lang)
    out = {RERANK: lambda t: reranked.segment(t).split(), NB: lambda t: ours.segment(t).split()}
    import wordninja
    import wordsegment
    from symspellpy import SymSpell
    import importlib.resources

    wordsegment.load()
    out["wordsegment"] = wordsegment.segment
    out["wordninja"] = wordninja.split
    sym = SymSpell(max_dictionary_edit_distance=0, prefix_length=7)
    sym.load_dictionary(str(importlib.resources.files("symspellpy") / "frequency_dictionary_en_82_765.txt"), 0, 1)
    out["symspellpy"] = lambda t: sym.word_segmentation(t, max_edit_distance=0).corrected_string.split()
    return out


def timed_rate(fn, texts: list[str], runs: int) -> float:
    """chars/s: the median of ``runs`` passes over ``texts``."""
    n = sum(len(t) for t in texts)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for t in texts:
            fn(t)
        times.append(time.perf_counter() - t0)
    return n / statistics.median(times)


def interleaved(fns: dict, texts: list[str], runs: int) -> dict[str, tuple[float, float]]:
    """name -> median (wall, CPU) seconds of a pass over ``texts``; each run times every system in turn, so that all
    of them see the same load on a shared machine. CPU time is what one free core would take: on a loaded machine the
    wall time also counts the waits for a core."""
    times = {name: ([], []) for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            t0, c0 = time.perf_counter(), time.process_time()
            for t in texts:
                fn(t)
            times[name][0].append(time.perf_counter() - t0)
            times[name][1].append(time.process_time() - c0)
    return {name: (statistics.median(wall), statistics.median(cpu)) for name, (wall, cpu) in times.items()}


PROBES = {  # (load, run on `text`) for a fresh interpreter
    RERANK: ("from charrestore.rerank import Reranker; s = Reranker.load('en')", "s.segment(text)"),
    NB: ("from charrestore.segmenter import Segmenter; s = Segmenter.load('en')", "s.segment(text)"),
    "wordsegment": ("import wordsegment; wordsegment.load()", "wordsegment.segment(text)"),
    "wordninja": ("import wordninja; wordninja.split('load')", "wordninja.split(text)"),
    "symspellpy": ("import importlib.resources; from symspellpy import SymSpell; s = SymSpell(0, 7); "
                   "s.load_dictionary(str(importlib.resources.files('symspellpy') / "
                   "'frequency_dictionary_en_82_765.txt'), 0, 1)",
                   "s.word_segmentation(text, max_edit_distance=0)"),
}


# Peak RSS of the probe's own address space: VmHWM. Not ru_maxrss, which Linux carries over from the parent
# through fork + exec (the probe would report this benchmark's RSS, with every peer's model loaded).
_PEAK_RSS = ("next((int(l.split()[1]) / 1024 for l in open('/proc/self/status') if l.startswith('VmHWM')), "
             "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")


def probe(name: str, text: str) -> tuple[float, float, float, float]:
    """In a fresh interpreter: (peak RSS in MB after loading and segmenting ``text``, seconds to load,
    CPU seconds to load, chars/s of that first, cold call)."""
    load, use = PROBES[name]
    code = (f"import resource, sys, time; text = sys.stdin.read(); t = time.perf_counter(); c = time.process_time(); {load}; "
            f"loaded = time.perf_counter() - t; cpu = time.process_time() - c; "
            f"t = time.perf_counter(); {use}; cold = time.perf_counter() - t; "
            f"print({_PEAK_RSS}, loaded, cpu, len(text) / cold)")
    res = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, check=True)
    rss, secs, cpu, cold = res.stdout.split()
    return float(rss), float(secs), float(cpu), float(cold)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="timed runs per measurement (median)")
    ap.add_argument("--ted-sample", type=int, default=30000, help="chars of TED dev paragraphs run by every system")
    ap.add_argument("--out", default=str(ROOT / "reports" / "bench_segment.md"))
    ap.add_argument("--json", help="also write the numbers as json")
    args = ap.parse_args(argv)

    from charrestore.cards import load_card
    from charrestore.packs import load_pack

    pack = load_pack("en")
    card, _ = load_card("en", "nb")
    from charrestore.rerank import read_card

    rcard, _ = read_card("en")
    stan = load_hashtags(STAN_DEV)
    ted = load_despaced(pack, TED_DEV)
    ted_sample = sample(ted, args.ted_sample)
    para = "".join(x[0] for x in ted)[:5000]
    rows = {}
    fns = systems()
    for name, fn in fns.items():
        print(f"{name} ...", file=sys.stderr)
        row = {"stan": score(stan, [fn(h) for h, _ in stan]),
               "ted_sample": score(ted_sample, [fn(t) for t, _ in ted_sample]),
               "rate_ted": timed_rate(fn, [t for t, _ in ted_sample], args.runs)}
        row["rss_mb"], row["load_s"], row["load_cpu_s"], row["rate_5000_cold"] = probe(name, para)
        rows[name] = row
    tags = [h for h, _ in stan]
    for name, (secs, cpu) in interleaved(fns, tags, args.runs).items():
        rows[name]["tags_stan"], rows[name]["tags_stan_cpu"] = len(tags) / secs, len(tags) / cpu
        rows[name]["rate_stan"] = sum(map(len, tags)) / secs
    # The 5,000-char paragraph, interleaved: each run times every system in turn, so that all of them see
    # the same load on a shared machine and their ratios are not skewed by when each was measured.
    for name, (secs, _) in interleaved(fns, [para], args.runs).items():
        rows[name]["rate_5000"] = len(para) / secs
    from charrestore.segmenter import Segmenter

    seg = Segmenter.load("en")
    ted_all = score(ted, [seg.segment(t).split() for t, _ in ted])
    base, ours = rows["wordsegment"], rows[RERANK]
    lines = [
        "# Segmenter benchmark",
        "",
        f"`python scripts/bench_segment.py --runs {args.runs} --ted-sample {args.ted_sample}` on "
        f"{platform.machine()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}. "
        "All systems in the same run; speeds are medians of "
        f"{args.runs} runs on a shared 2-core machine (other jobs running: compare rows, not absolute values).",
        "",
        f"Model: `models/en/nb.json` (L={card['params']['L']}, λ={card['params']['smoothing']}, "
        f"camel={card['params']['camel']}, digits={card['params']['digits']}; "
        f"{card['counts']['unigrams']:,} words, {card['counts']['bigrams']:,} pairs). "
        f"Reranker: `models/en/rerank.json` (the NB's {rcard['k']} best, reranked by weights learned on "
        f"{rcard['train']['hashtags']} and phrases from {', '.join(rcard['train']['prose']) or 'no prose'}, k and L2 "
        f"chosen on {', '.join(rcard['dev']['hashtags'] + rcard['dev']['prose'])}: `{rcard['command']}`).",
        "",
        f"STAN-large dev: {len(stan)} hashtags, exact match of word boundaries, case-insensitive, any gold. "
        f"TED sample: {len(ted_sample)} de-spaced TED dev paragraphs ({sum(len(t) for t, _ in ted_sample):,} chars). "
        "5,000-char paragraph: the first 5,000 chars of de-spaced TED dev, every system timed in turn in each run. "
        "Cold: the first call in a fresh process, right after loading (one run; its peak RSS and load time follow).",
        "",
        "| system | STAN exact | STAN space F | hashtags/s STAN (wall / CPU) | TED sample space P / R / F | chars/s STAN | "
        "chars/s TED | chars/s 5,000-char | × wordsegment (5,000) | chars/s 5,000-char, cold | peak RSS MB | "
        "load s (wall / CPU) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        t = r["ted_sample"]
        lines.append(
            f"| {name} | {r['stan']['exact']:.3f} | {r['stan']['F']:.3f} | {r['tags_stan']:,.0f} / {r['tags_stan_cpu']:,.0f} | {t['P']:.4f} / {t['R']:.4f} / {t['F']:.4f} | "
            f"{r['rate_stan']:,.0f} | {r['rate_ted']:,.0f} | {r['rate_5000']:,.0f} | "
            f"{r['rate_5000'] / base['rate_5000']:.1f} | {r['rate_5000_cold']:,.0f} | {r['rss_mb']:.0f} | {r['load_s']:.2f} / {r['load_cpu_s']:.2f} |")
    lines += [
        "",
        f"charrestore NB on all of TED dev ({len(ted)} paragraphs, {sum(len(t) for t, _ in ted):,} chars): "
        f"space P {ted_all['P']:.4f}, R {ted_all['R']:.4f}, F {ted_all['F']:.4f}.",
        "",
        "hashformers (GPT-2 + BERT reranking), as published in its evaluation report, on other data sets (not run "
        "here; context only): " + ", ".join(f"{k} {v}" for k, v in HASHFORMERS.items()) + " exact match.",
        "",
        f"Bars (issue 17), the reranker: STAN exact ≥ wordsegment + 0.06: {ours['stan']['exact']:.3f} vs "
        f"{base['stan']['exact']:.3f} "
        f"({'met' if ours['stan']['exact'] >= base['stan']['exact'] + 0.06 else 'MISSED'}); "
        f"≥ 2,000 hashtags/s at 1 thread: {ours['tags_stan']:,.0f} wall "
        f"({'met' if ours['tags_stan'] >= 2000 else 'MISSED'}), {ours['tags_stan_cpu']:,.0f} in CPU time "
        f"({'met' if ours['tags_stan_cpu'] >= 2000 else 'MISSED'}).",
        "",
        "Bars (issue 3), the plain NB: STAN exact ≥ wordsegment + 0.03: "
        f"{rows['charrestore NB']['stan']['exact']:.3f} vs {base['stan']['exact']:.3f} "
        f"({'met' if rows['charrestore NB']['stan']['exact'] >= base['stan']['exact'] + 0.03 else 'MISSED'}); "
        f"TED dev space F ≥ 0.99: {ted_all['F']:.4f} ({'met' if ted_all['F'] >= 0.99 else 'MISSED'}); "
        f"5,000-char throughput ≥ 10× wordsegment: {rows['charrestore NB']['rate_5000'] / base['rate_5000']:.1f}× "
        f"({'met' if rows['charrestore NB']['rate_5000'] >= 10 * base['rate_5000'] else 'MISSED'}); "
        f"RSS ≤ 300 MB: {rows['charrestore NB']['rss_mb']:.0f} MB "
        f"({'met' if rows['charrestore NB']['rss_mb'] <= 300 else 'MISSED'}); "
        f"load < 1 s: {rows['charrestore NB']['load_s']:.2f} s wall, {rows['charrestore NB']['load_cpu_s']:.2f} s CPU "
        f"({'met' if rows['charrestore NB']['load_cpu_s'] < 1 else 'MISSED'} in CPU time).",
        "",
    ]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps({"systems": rows, "ted_dev_all": ted_all}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Compare charrestore's language detector with langid.py and lingua on the same held-out snippets, in one run.

Snippets (seeded) come from the held-out files of every language of ../shared/corpora, in three forms (as written;
ASR-like: lower case, no marks; de-spaced) and five lengths (12, 25, 50, 100, 200 characters); both peers are
restricted to the same languages. Also measured: our load time and cost per 100-character line against restoring
that line (``fix --lang en``), and how often short (12-40 character) English ASR-like and de-spaced lines are named
English among the installed packs and among every language (does ``--lang auto`` suit short English input?).
Writes reports/detect_compare.{md,json}.

    pip install langid lingua-language-detector
    nice -n 10 python scripts/compare_detect.py [--per 200] [--seed 48]
"""

from __future__ import annotations

import argparse
import json
import time
from importlib.metadata import version
from pathlib import Path

from charrestore.detect import Detector
from charrestore.training.train_detect import (
    FORMS,
    LENGTHS,
    shared_corpora_plan,
    snippets,
)

ROOT = Path(__file__).resolve().parent.parent
HEADLINE = (("50+", "50+ chars (every form)"), ("all", "all snippets"), ("form=despaced", "de-spaced"),
            ("despaced25", "25-char de-spaced"), ("length=12", "12 chars (every form)"))


def ours(languages):
    detector = Detector.load()
    return lambda text: detector.detect(text, languages)


def langid_py(languages):
    import langid

    langid.set_languages(languages)
    return lambda text: langid.classify(text)[0]


def lingua(languages):
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_languages(
        *(Language.from_iso_code_639_1(IsoCode639_1.from_str(lang)) for lang in languages)
    ).with_preloaded_language_models().build()

    def detect(text):
        found = detector.detect_language_of(text)
        return found.iso_code_639_1.name.lower() if found else "?"

    return detect


SYSTEMS = {"charrestore": ours, "langid.py": langid_py, "lingua": lingua}


def groups(snippet) -> list[str]:
    keys = ["all", f"form={snippet.form}", f"length={snippet.length}", f"lang={snippet.lang}"]
    keys += ["50+"] if snippet.length >= 50 else []
    keys += ["despaced25"] if snippet.form == "despaced" and snippet.length == 25 else []
    return keys


def measure(detect, items) -> dict:
    """Share right per group, and the mean time per snippet."""
    right: dict[str, list[int]] = {}
    start = time.perf_counter()
    answers = [detect(s.text) for s in items]
    seconds = time.perf_counter() - start
    for s, answer in zip(items, answers):
        for key in groups(s):
            right.setdefault(key, []).append(answer == s.lang)
    return {"accuracy": {k: round(sum(v) / len(v), 5) for k, v in sorted(right.items())},
            "us_per_snippet": round(seconds / len(items) * 1e6, 1)}


def cost(dev) -> dict:
    """Load time (fresh process state: the class cache emptied) and time per 100-character ASR-like English line,
    for detecting it among the installed packs and for restoring it with the default English restorer."""
    from charrestore.packs import available_packs
    from charrestore.restorer import Restorer

    Detector._cache.clear()
    start = time.perf_counter()
    detector = Detector.load()
    load_ms = (time.perf_counter() - start) * 1e3
    lines = [s.text for s in snippets([s for s in dev if s.lang == "en"], per=100, lengths=(100,), forms=("asr",))]
    among = [lang for lang in available_packs() if lang in detector.languages]
    timed = {}
    for name, run in (("detect", lambda t: detector.detect(t, among)), ("restore", Restorer(lang="en"))):
        run(lines[0])
        start = time.perf_counter()
        for line in lines:
            run(line)
        timed[name] = (time.perf_counter() - start) / len(lines) * 1e3
    return {"load_ms": round(load_ms, 1), "detect_ms_per_100_chars": round(timed["detect"], 3),
            "restore_ms_per_100_chars": round(timed["restore"], 2),
            "detect_share_of_restore": round(timed["detect"] / timed["restore"], 4), "among": among}


SHORT_AMONG = (("en", "gu", "ja"), ("de", "en", "gu", "ja", "ru"), None)  # the packs with models; with de, ru; all


def short_english(dev, seed: int) -> dict:
    """Share of short English lines named ``en``, by form and length, among the packs with models today, among
    those and the de and ru packs being added, and among every language of the detector."""
    detector = Detector.load()
    items = snippets([s for s in dev if s.lang == "en"], per=500, lengths=(12, 20, 30, 40), forms=("asr", "despaced"),
                     seed=seed)
    out = {}
    for among in SHORT_AMONG:
        label = f"among {','.join(among)}" if among else "among all"
        for form in ("asr", "despaced"):
            for length in (12, 20, 30, 40):
                chosen = [detector.detect(s.text, among) for s in items if s.form == form and s.length == length]
                out[f"{label}|{form}|{length}"] = round(chosen.count("en") / len(chosen), 4)
    return out


def han_only(dev, per: int, seed: int) -> list:
    """Runs of Han characters only (kanji-only Japanese, Chinese), 6-25 characters, from the held-out ja and zh
    text: no kana decides these, only the n-grams."""
    import random

    import regex

    from charrestore.training.train_detect import Snippet

    rng, out = random.Random(seed), []
    for lang in ("ja", "zh"):
        runs = [run[:25] for s in dev if s.lang == lang for doc in s.documents()
                for run in regex.findall(r"\p{Han}{6,}", doc)]
        out += [Snippet(lang, "han-only", len(run), run, "") for run in rng.sample(runs, min(per, len(runs)))]
    return out


def table(results: dict, counts: dict, keys) -> list[str]:
    names = list(results)
    lines = ["| snippets | n | " + " | ".join(names) + " |", "|---|---:|" + "---:|" * len(names)]
    for key, label in keys:
        cells = [f"{100 * results[name]['accuracy'][key]:.2f}" for name in names]
        best = max(cells, key=float)
        lines.append(f"| {label} | {counts[key]} | " + " | ".join(f"**{c}**" if c == best else c
                                                                       for c in cells) + " |")
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    p.add_argument("--per", type=int, default=200, help="snippets per language, form and length")
    p.add_argument("--seed", type=int, default=48)
    args = p.parse_args()
    _, dev = shared_corpora_plan(args.corpora)
    items = snippets(dev, per=args.per, seed=args.seed)
    languages = list(dict.fromkeys(s.lang for s in dev))
    card = Detector.load().card
    signature = (f"detect-compare|langs={','.join(languages)}|forms={','.join(FORMS)}|"
                 f"lengths={','.join(map(str, LENGTHS))}|per={args.per}|seed={args.seed}|n={len(items)}|"
                 f"model={card['sha256'][:12]}|langid={version('langid')}|lingua={version('lingua-language-detector')}")
    print(signature)
    results = {}
    for name, make in SYSTEMS.items():
        results[name] = measure(make(languages), items)
        print(name, {k: results[name]["accuracy"][k] for k, _ in HEADLINE}, results[name]["us_per_snippet"], "us")
    counts: dict[str, int] = {}
    for s in items:
        for key in groups(s):
            counts[key] = counts.get(key, 0) + 1
    kanji = han_only(dev, 1000, args.seed)
    for name, make in SYSTEMS.items():
        detect = make(languages)
        for lang in ("ja", "zh"):
            chosen = [detect(s.text) == lang for s in kanji if s.lang == lang]
            results[name]["accuracy"][f"han-only {lang}"] = round(sum(chosen) / len(chosen), 5)
    for s in kanji:
        counts[f"han-only {s.lang}"] = counts.get(f"han-only {s.lang}", 0) + 1
    speed, english = cost(dev), short_english(dev, args.seed)
    print(speed)
    report = {"signature": signature, "n": counts, **results, "cost": speed, "short_english": english}
    (ROOT / "reports" / "detect_compare.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    md = ["# Language detection: charrestore vs langid.py vs lingua", "",
          "Held-out snippets of the same 11 languages, every system restricted to them; accuracy in %.", "",
          f"`{signature}`", "", f"Command: `nice -n 10 python scripts/compare_detect.py --per {args.per} --seed {args.seed}`",
          "",
          *table(results, counts, HEADLINE), "",
          "| time per snippet (µs) | " + " | ".join(f"{r['us_per_snippet']}" for r in results.values()) + " |", "",
          (f"Loading: {speed['load_ms']} ms. Detecting a 100-character ASR-like English line among "
          f"{','.join(speed['among'])}: {speed['detect_ms_per_100_chars']} ms; restoring it (`fix --lang en`): "
          f"{speed['restore_ms_per_100_chars']} ms, so detection adds {100 * speed['detect_share_of_restore']:.1f}%."), "",
          "## Short English lines named English (500 per cell)", "",
          "| candidates | form | 12 | 20 | 30 | 40 |", "|---|---|---:|---:|---:|---:|",
          *(f"| {label} | {form} | " + " | ".join(f"{100 * english[f'{label}|{form}|{n}']:.1f}" for n in (12, 20, 30, 40))
            + " |" for label in dict.fromkeys(k.split("|")[0] for k in english) for form in ("asr", "despaced")), "",
          "## Han characters only (6-25 of them, from held-out ja and zh text)", "",
          *table(results, counts, [("han-only ja", "kanji-only Japanese"), ("han-only zh", "Chinese")]), "",
          "## By form", "", *table(results, counts, [(f"form={f}", f) for f in FORMS]), "",
          "## By length", "", *table(results, counts, [(f"length={n}", f"{n} chars") for n in LENGTHS]), "",
          "## By language", "", *table(results, counts, [(f"lang={lang}", lang) for lang in languages]), ""]
    (ROOT / "reports" / "detect_compare.md").write_text("\n".join(md), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

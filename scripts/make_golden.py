"""Write tests/golden/golden.json: the shipped models' outputs on tests/golden/texts.json, for a refactor to keep.

The file names the CPU's int8 kernels (``runtime.int8_kernels``): tests/test_golden.py holds outputs byte-identical
on such a CPU, and allows rare near-tie flips on another.

Each text is tried as given, lower-cased without its marks, and without its spaces, through every engine its
pack has and several spaces/segmenter settings. Rerun only when outputs are meant to change, and say why in
the commit: tests/test_golden.py holds every later change to byte-identical outputs.

    python scripts/make_golden.py
"""

import json
from pathlib import Path

import regex

from charrestore import Restorer, load_pack
from charrestore.runtime import int8_kernels

HERE = Path(__file__).resolve().parent.parent / "tests" / "golden"


def variants(text: str) -> list[str]:
    stripped = regex.sub(r"\s+", " ", regex.sub(r"[.,?!¿¡]", "", text)).strip().lower()
    return list(dict.fromkeys([text, stripped, stripped.replace(" ", "")]))


def settings(lang: str) -> list[dict]:
    engines = ["char"] + (["pipeline"] if "token" in load_pack(lang).models else [])
    out = [dict(engine=e, spaces=s) for e in engines for s in ("auto", "keep", "restore")]
    if "nb" in load_pack(lang).models:
        out += [dict(engine="char", spaces="restore", segmenter=s) for s in ("nb", "none")]
    return out


def cases() -> list[dict]:
    texts = json.loads((HERE / "texts.json").read_text(encoding="utf-8"))
    out = []
    for lang, items in texts.items():
        for setting in settings(lang):
            restorer = Restorer(lang=lang, **setting)
            for text in items:
                for variant in variants(text):
                    out.append(dict(lang=lang, **setting, input=variant, output=restorer(variant)))
    return out


if __name__ == "__main__":
    result = {"int8_kernels": int8_kernels(), "cases": cases()}
    (HERE / "golden.json").write_text(json.dumps(result, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(result['cases'])} cases ({result['int8_kernels']} int8 kernels) written to {HERE / 'golden.json'}")

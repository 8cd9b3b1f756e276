"""Where the lists of proper forms get their words: wordfreq's frequent words and Debian's Hunspell dictionaries
(read with spylls), for ``scripts/build_proper_case.py``."""

from __future__ import annotations

import json
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent / "models"
HUNSPELL = {"es": ("hunspell-es", "es_ES"), "fr": ("hunspell-fr-classical", "fr"),
            "en": ("hunspell-en-us", "en_US"), "de": ("hunspell-de-de", "de_DE")}


def hunspell(lang: str, work: Path):
    """The language's Hunspell dictionary (spylls), from its Debian package (``apt-get download``)."""
    from spylls.hunspell import Dictionary

    package, stem = HUNSPELL[lang]
    work.mkdir(parents=True, exist_ok=True)
    if not any(work.glob(f"{package}_*.deb")):
        subprocess.run(["apt-get", "download", package], cwd=work, check=True, capture_output=True)
    tree = work / package
    subprocess.run(["dpkg-deb", "-x", str(next(work.glob(f"{package}_*.deb"))), str(tree)], check=True)
    return Dictionary.from_files(str(tree / "usr" / "share" / "hunspell" / stem))


def frequent(lang: str, n_words: int) -> list[str]:
    """wordfreq's most frequent words of ``lang`` (its large list, else its best)."""
    import wordfreq

    large = lang in wordfreq.available_languages("large")
    return wordfreq.top_n_list(lang, n_words, wordlist="large" if large else "best")


def cased_stems(dictionary) -> dict[str, str]:
    """A Hunspell dictionary's stems that it writes with capitals and not in small letters: small -> cased."""
    stems = {word.stem for word in dictionary.dic.words}
    lower = {w for w in stems if w == w.lower()}
    cased = {}
    for w in sorted(stems):  # (of two cased stems, "OTAN" and "Otan", the first in code-point order)
        if w != w.lower() and w.lower() not in lower and len(w) > 1 and w.replace("-", "").isalpha():
            cased.setdefault(w.lower(), w)
    return cased


def english_names(token: dict, work: Path) -> dict[str, str]:
    """Names that English writes with a capital first letter: hunspell-en-us's cased stems ("Obama", "Macron") that
    the en token card's proper list holds too. Small -> cased."""
    proper = set(token["proper"])
    return {w: f for w, f in cased_stems(hunspell("en", work)).items()
            if w in proper and f[0].isupper() and not f.isupper()}


def fold(word: str) -> str:
    """``word`` without its accents, "ß" as "ss"."""
    return "".join(c for c in unicodedata.normalize("NFD", word.replace("ß", "ss")) if not unicodedata.combining(c))


@cache
def en_token_card() -> dict:
    """The en token card (the shipped one), whose names and mixed spellings several routes take."""
    return json.loads((MODELS / "en" / "token.json").read_text(encoding="utf-8"))

"""Build a pack's list of proper forms (``charrestore/proper_case.py``): the modern words that are always written
with capitals, which a char model trained on old or narrow text has never seen ("НАТО", "Путин", "ONU").

Every route starts from the 300,000 most frequent words of wordfreq's large list of the language (modern text:
news, subtitles, Wikipedia, web; wordfreq writes them in small letters) and keeps the words that are proper:
- ru: by pymorphy3 with the OpenCorpora dictionary. A word all of whose analyses are known to the dictionary and
  that is a proper noun (a first name, surname, patronymic, place, organisation or trademark) in at least
  ``--share`` of them (by pymorphy3's scores) takes a capital; one that is an abbreviation of a place or an
  organisation in at least 0.95 of them is written in capitals ("сша" -> "США"). Adjectives ("украинский") and
  words that are as often common nouns ("роза", "орёл", "мир") are left out. A listed word that is a given name or
  patronymic in at least ``--share`` of its analyses is marked ``name``; a word left out that is a surname in at
  least ``--surname-share`` of them and otherwise only a noun or an adjective ("песков", "волков", "лавров": also
  genitives of common nouns; not "ли", "дали": also a particle, a verb) is listed as
  ``after-name``, a capital only straight after a name ("Дмитрий Песков"); so is a word the dictionary does not
  know at all that ends like a Russian surname ("силуанов", "набиуллина": "Антон Силуанов").
- es, fr: by the Hunspell dictionary of the language (Debian's hunspell-es, hunspell-fr-classical; MPL-2.0), read
  with spylls. A stem that the dictionary writes with capitals ("Acapulco", "ONU", "McDonald") and never in small
  letters, whose small-letter spelling the dictionary does not accept either (no inflected common word: "Abejas",
  "abre"), which is no more frequent common word typed without its accents ("ca" is "ça", not "CA"), and which
  the pack's training text writes in small letters at most a tenth as often as with capitals inside a sentence (a
  name that is also a word there: "Lorraine", "Maria"). A stem the dictionary tags as a given name (fr "po:prn":
  "Emmanuel", "Olaf") is marked ``name``.
- de: German writes every noun with a capital, so a word that the Hunspell dictionary (Debian's hunspell-de-de)
  accepts with its first letter a capital ("Wasser", "Richtungen", "München", any inflected form) and not in small
  letters takes that capital, unless the training text writes it in small letters more than a tenth as often as
  with capitals inside a sentence ("first" in "America first"; the dictionary knows "der First").
- en (for the char engine; the pipeline's token model has lists of its own): the en token card's ``mixed``
  spellings, the acronyms that the training text writes in capitals (outside lines mostly in capitals) at least
  ``--capitals-least`` times and in at least ``--capitals-share`` of the times it writes the word ("AI", "DNA"), the
  stems that hunspell-en-us has only in capitals and does not accept in small letters ("NASA", "FBI"; not "US"),
  which the training text writes in small letters at most a tenth as often as with capitals inside a sentence,
  and the words of the token card's ``proper`` list with a capital ("Rwanda", "Monday").
- every pack (``--brands``, vi has only these): brands and names that English writes in mixed case, from the
  en token card's ``mixed`` spellings ("iPhone", "YouTube", "GmbH"; a small first letter and then a capital, or two
  capitals each with small letters after the first; four letters or more), which the language's frequent words
  hold, its Hunspell dictionary does not accept in small letters, and its training text writes in small letters at
  most a tenth as often as with capitals inside a sentence ("muchas" is no "muchAS", "moco" no "MoCo"). ru adds
  the Latin words of three letters or more among its frequent words that English writes with capitals: the en
  token card's ``proper`` list ("google", "twitter") and the cased stems of Debian's hunspell-en-us ("nasa",
  "bbc"), unless the es or fr dictionary accepts them ("que", "les"). es, fr and de add the names of news
  ("obama", "biden"): hunspell-en-us's stems with a capital first letter that the token card's ``proper`` list
  holds too, unless the language's dictionary accepts them, with "ss" as "ß" too ("weiss").
- every pack: the words that its char model's training text writes in mixed case ("AfD", "BAföG", "VinaPhone",
  "XIXe"), often and nearly always so, unless they are two words a typist ran together ("delEstado"). The model
  learned these spellings; the runtime lowers the mixed case of a word the list lacks ("миниСтр"). Such a spelling
  replaces another route's form of the word ("BAföG", not hunspell-de-de's "Bafög").
- the packs of ``--small`` (de): the words that the training text writes inside a sentence in small letters nearly
  always (``small`` lines: "traf", "fest"), which take no capital there (charrestore/small_words.py), but its most
  frequent words (a capital on "die" or "wir" says that a sentence starts, which the marks missed).

    pip install wordfreq pymorphy3 pymorphy3-dicts-ru spylls
    python scripts/build_proper_case.py --lang ru es fr de vi en
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import re
import shlex
import sys
from collections import Counter
from functools import cache
from importlib.metadata import version
from pathlib import Path

from charrestore.cards import write_card
from charrestore.holdout import held_out
from charrestore.proper_case import AFTER_NAME, FORMAT, NAME, SMALL, ProperCase
from charrestore.training.corpus import HELD_OUT
from word_sources import HUNSPELL, cased_stems, en_token_card, english_names, fold, frequent, hunspell

ROOT = Path(__file__).resolve().parent.parent

PROPER = {"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"}  # OpenCorpora's grammemes of proper nouns
ACRONYM = {"Geox", "Orgn"}  # with Abbr: written in capitals
GIVEN = {"Name", "Patr"}  # a given name or patronymic: a surname may follow
NOMINAL = {"NOUN", "ADJF"}  # an after-name form is only ever one of these (not "ли", "дали": a particle, a verb)
# the endings of Russian surnames (masculine, feminine; nominative): a word the dictionary does not know that ends
# in one is most often a modern surname ("силуанов", "набиуллина", "зеленский")
SURNAME_ENDINGS = ("ов", "ев", "ёв", "ин", "ын", "ова", "ева", "ёва", "ина", "ына", "ский", "цкий", "ская", "цкая")


def russian_forms(n_words: int, share: float, surname_share: float) -> tuple[list[str], dict]:
    """The lines of the list (a cased form, maybe a tab and its role), most frequent first, and what was counted."""
    import pymorphy3
    morph = pymorphy3.MorphAnalyzer()
    forms, seen = [], {"words": 0, "known": 0, "capital": 0, "capitals": 0, "names": 0, "after_name": 0,
                       "unknown_after_name": 0}
    for word in frequent("ru", n_words):
        if len(word) < 2 or not word.isalpha():
            continue
        seen["words"] += 1
        parses = morph.parse(word)
        if not any(p.is_known for p in parses):  # a modern surname the dictionary lacks: a capital after a name
            if len(word) >= 5 and word.endswith(SURNAME_ENDINGS):
                forms.append(f"{word.capitalize()}\t{AFTER_NAME}")
                seen["unknown_after_name"] += 1
            continue
        if not all(p.is_known for p in parses):
            continue
        seen["known"] += 1
        total = sum(p.score for p in parses) or 1.0

        def part(grammemes: set) -> float:
            return sum(p.score for p in parses if p.tag.POS == "NOUN" and grammemes & p.tag.grammemes) / total

        if part(PROPER) < share:
            if part({"Surn"}) >= surname_share and all(p.tag.POS in NOMINAL for p in parses):
                forms.append(f"{word.capitalize()}\t{AFTER_NAME}")
                seen["after_name"] += 1
            continue
        acronym = sum(p.score for p in parses if "Abbr" in p.tag.grammemes and ACRONYM & p.tag.grammemes) / total
        name = part(GIVEN) >= share
        forms.append(word.upper() if acronym >= 0.95 else word.capitalize() + (f"\t{NAME}" if name else ""))
        seen["capitals" if acronym >= 0.95 else "capital"] += 1
        seen["names"] += name
    return forms, seen


# the char model's training text of each pack (its card's corpora)
TRAINING = {"es": ("es/es_congreso_train.tsv.xz",), "fr": ("fr/eltec_novels_train.tsv.xz",),
            "de": ("de/de_bundestag_train.tsv.xz",), "ru": ("ru/ruslit_prose_train.tsv.xz",),
            "vi": ("vi/viwiki_train.tsv.xz", "vi/dantri_train.tsv.xz", "vi/baomoisapo_train.tsv.xz"),
            "en": tuple(f"en/{name}.tsv" for name in (
                "ted_train", "ted_extra", "public_domain/gutenberg_books", "scotus_oral_arguments", "earnings_calls",
                "ami_meetings", "brown_train_docs", "public_domain/state_of_the_union_1945_2006",
                "public_domain/inaugural_addresses_1789_2021"))}
CORPORA = ROOT.parent / "shared" / "corpora"
# English's mixed-case spellings: "iPhone", "eBay"; "YouTube", "GmbH", "McDonald" (not "VAs", "MHz", "fB")
_BRAND = re.compile(r"[ie][A-Z][A-Za-z]+|[A-Z][a-z]+[A-Z][A-Za-z]*")
# a Latin word that one of these accepts in small letters is a word of that language ("que", "les", "moco")
NAMES_FROM_ENGLISH = ("es", "fr", "de")  # the names English writes with a capital: brand_forms
ENGLISH_WORDS = ("ru", "en", *NAMES_FROM_ENGLISH)  # the lists that take words of hunspell-en-us and the token card
WORDS_OF = {"ru": ("es", "fr"), "es": ("es",), "fr": ("fr",), "de": ("de",), "vi": (), "en": ()}
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_LETTERS = re.compile(r"[^\W\d_]+")
_OPENS = re.compile(r"[.!?¿¡«\"—–-]\s*$")  # what a word that starts a sentence or a quote follows


def training_text(lang: str):
    """The lines of the pack's training text (without their ids, or Brown's genre), but the documents that a
    training file holds out as dev documents (``corpus.HELD_OUT``: Brown's fifth)."""
    for name in TRAINING[lang]:
        every = HELD_OUT.get(Path(name).name.split(".")[0])
        with (lzma.open if name.endswith(".xz") else open)(CORPORA / name, "rt", encoding="utf-8") as fh:
            for line in fh:
                fields = line.rstrip("\n").split("\t")
                if not every or not held_out(fields[0], every):
                    yield fields[-1]


@cache  # (the es/fr route and the brands route both read it)
def training_case(lang: str) -> tuple[Counter, Counter]:
    """How often each word is written in small letters, and with capitals inside a sentence, in the training text."""
    small, capital = Counter(), Counter()
    for text in training_text(lang):
        for m in _WORD.finditer(text):
            word = m.group(0)
            if word == word.lower():
                small[word] += 1
            elif m.start() > 0 and not _OPENS.search(text[max(0, m.start() - 3):m.start()]):
                capital[word.lower()] += 1
    return small, capital


def mixed_forms(lang: str, taken: list[str], least: int, share: float, merged: int) -> tuple[list[str], dict]:
    """The words that the training text writes in mixed case ("AfD", "VinaPhone", "XIXe"): at least ``least``
    times, and in at least ``share`` of the times it writes the word at all; not two words run together by a
    typist ("delEstado": each part at a small-to-capital change, of two letters or more, is a word of its own at
    least ``merged`` times). The char model learned these; the runtime lowers mixed case it lacks a form for."""
    forms, words = Counter(), Counter()
    for text in training_text(lang):
        for m in _LETTERS.finditer(text):
            words[m.group(0).lower()] += 1
            if _mixed(m.group(0)):
                forms[m.group(0)] += 1
    have = {line.split("\t")[0].lower() for line in taken}
    out, seen = [], {"training_mixed": len(forms), "training_kept": 0}
    for form, n in forms.most_common():
        cuts = [k for k in range(1, len(form)) if form[k - 1].islower() and form[k].isupper()]
        parts = [form[a:b].lower() for a, b in zip([0, *cuts], [*cuts, len(form)])]
        if n < least or n < share * words[form.lower()] or form.lower() in have:
            continue
        if len(parts) > 1 and all(len(p) > 1 and words[p] >= merged for p in parts):
            continue
        have.add(form.lower())
        out.append(form)
    seen["training_kept"] = len(out)
    return out, seen


def small_forms(lang: str, taken: list[str], least: int, share: float, skip: int) -> tuple[list[str], dict]:
    """The words (letters only) that the training text writes in small letters at least ``least`` times and in at
    least ``share`` of the times it writes them inside a sentence, but its ``skip`` most frequent and the list's
    own (``taken``), each as a ``small`` line."""
    small, capital = training_case(lang)
    seen = small + capital
    skipped = {w for w, _ in seen.most_common(skip)} | {form.split("\t")[0].lower() for form in taken}
    words = sorted(w for w, n in small.items() if n >= least and n >= share * seen[w] and w not in skipped
                   and _LETTERS.fullmatch(w))
    return [f"{w}\t{SMALL}" for w in words], {"small": len(words)}


def _mixed(word: str) -> bool:
    """Small and capital letters, a capital after the first, every letter cased."""
    return (any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)
            and all(c.lower() != c.upper() for c in word))


def hunspell_forms(lang: str, n_words: int, work: Path) -> tuple[list[str], dict]:
    """The cased forms of the es/fr route (module docstring), most frequent first, and what was counted."""
    dictionary = hunspell(lang, work)
    cased = cased_stems(dictionary)
    seen = {"cased_stems": len(cased), "frequent": 0, "not_a_small_word": 0, "typed_bare": 0}
    candidates = []
    frequent_words = frequent(lang, n_words)
    bare = typed_bare(frequent_words, cased)
    for word in frequent_words:
        form = cased.get(word)
        if form is None:
            continue
        seen["frequent"] += 1
        if word in bare:  # "ca" is "ça" typed without its cedilla, not "CA"
            seen["typed_bare"] += 1
            continue
        if not form.isupper() and dictionary.lookup(word):
            continue
        seen["not_a_small_word"] += 1
        candidates.append(form)
    forms = rarely_small(lang, candidates)
    # a given name (the dictionary's "po:prn", fr): a surname may follow it, no comma between (proper_case.py)
    given = {w.stem for w in dictionary.dic.words if "prn" in w.data.get("po", ())}
    forms = [f"{form}\t{NAME}" if form in given else form for form in forms]
    return forms, {**seen, "kept": len(forms), "names": sum(form.endswith(NAME) for form in forms)}


def noun_forms(lang: str, n_words: int, work: Path) -> tuple[list[str], dict]:
    """The de route (module docstring): the frequent words the dictionary accepts only with a capital first letter,
    most frequent first, and what was counted."""
    dictionary = hunspell(lang, work)
    candidates = [form for word in frequent(lang, n_words) if word.isalpha() and len(word) > 1
                  and (form := word[0].upper() + word[1:]) != word and not dictionary.lookup(word)
                  and dictionary.lookup(form)]
    forms = rarely_small(lang, candidates)
    return forms, {"capital_only": len(candidates), "kept": len(forms)}


def typed_bare(words: list[str], names) -> set[str]:
    """The words of a frequency list (most frequent first) that are a more frequent common word of it (none of
    ``names``) typed without its accents: "ca" ("ça"), "unico" ("único"), "ecole" ("école"); not "africa"
    ("áfrica" is a name: typed so, it is still "Africa")."""
    rank = {w: k for k, w in enumerate(words)}
    return {bare for k, w in enumerate(words) if (bare := fold(w)) != w and rank.get(bare, -1) > k and w not in names}


def rarely_small(lang: str, forms: list[str]) -> list[str]:
    """The forms whose word the training text writes in small letters at most a tenth as often as with capitals
    inside a sentence (a name that is also a common word there, "Lorraine", "first", is left out)."""
    small, capital = training_case(lang)
    return [form for form in forms if small[form.lower()] <= 0.1 * capital[form.lower()]]


def brand_forms(lang: str, n_words: int, work: Path, taken: list[str]) -> tuple[list[str], dict]:
    """The brands, (ru) Latin names and (es, fr, de) English names of the ``--brands`` route (module docstring) that
    ``taken`` lacks."""
    token = en_token_card()
    spelled = {w: f for w, f in token["mixed"].items() if _BRAND.fullmatch(f)}
    capital = {w: w.capitalize() for w in token["proper"]} if lang == "ru" else {}
    upper = cased_stems(hunspell("en", work)) if lang == "ru" else {}
    names = english_names(token, work) if lang in NAMES_FROM_ENGLISH else {}
    have = {line.split("\t")[0].lower() for line in taken}
    words_of = [hunspell(other, work) for other in WORDS_OF[lang]]
    small, inside = training_case(lang) if lang in TRAINING else ({}, {})
    frequent_words = frequent(lang, n_words)
    forms, seen = [], {"brands": 0, "latin_names": 0, "english_names": 0}
    for word in frequent_words:
        if word in have or len(word) < 3 or not word.isascii() or not word.isalpha():
            continue
        form = spelled.get(word) or upper.get(word) or capital.get(word) or names.get(word)
        if form is None or len(form) < 4 and word in spelled or small.get(word, 0) > 0.1 * inside.get(word, 0):
            continue
        if any(dictionary.lookup(word) for dictionary in words_of):
            continue
        kind = "brands" if word in spelled else "latin_names" if lang == "ru" else "english_names"
        # wordfreq writes German's "ß" as "ss" ("weiss" is "weiß")
        if kind == "english_names" and any(d.lookup(word.replace("ss", "ß")) for d in words_of):
            continue
        forms.append(form)
        seen[kind] += 1
    return forms, seen


def english_forms(n_words: int, work: Path, least: int, share: float) -> tuple[list[str], dict]:
    """The en route (module docstring): the token card's proper forms and mixed spellings, and the acronyms of
    hunspell-en-us and of the training text, and what was counted."""
    token = en_token_card()
    dictionary = hunspell("en", work)
    cased = cased_stems(dictionary)
    listed = rarely_small("en", [form for word in frequent("en", n_words) if (form := cased.get(word))
                                 and form.isupper() and not dictionary.lookup(word)])
    upper, words = Counter(), Counter()
    for text in training_text("en"):
        letters = [c for c in text if c.isalpha()]
        if sum(c.isupper() for c in letters) > 0.5 * len(letters):
            continue  # a heading or a shout
        for m in _LETTERS.finditer(text):
            words[m.group(0).lower()] += 1
            upper[m.group(0).lower()] += len(m.group(0)) > 1 and m.group(0).isupper()
    counted = [w.upper() for w, n in upper.most_common() if n >= least and n >= share * words[w]]
    spelled = [form for form in token["mixed"].values() if form.isalpha()]
    capital = [w.capitalize() for w in token["proper"] if w.isalpha() and len(w) > 1]
    forms, have = [], set()
    for form in spelled + counted + listed + capital:  # the first form of a word wins
        if form.lower() not in have:
            have.add(form.lower())
            forms.append(form)
    return forms, {"token_mixed": len(spelled), "training_capitals": len(counted), "hunspell_capitals": len(listed),
                   "token_proper": len(capital), "kept": len(forms)}


STEMS_RULE = ("a word of the list that the Hunspell dictionary has only as a stem with capitals and does not accept in "
              "small letters, no more frequent common word of the list without its accents, written in small "
              "letters in the training text at most 0.1 times as often as with capitals inside a sentence; one "
              "that the dictionary tags as a given name (po:prn) is marked name")
NOUNS_RULE = ("a word of the list that the Hunspell dictionary accepts with a capital first letter and not in small "
              "letters (German nouns and names), written in small letters in the training text at most 0.1 times as "
              "often as with capitals inside a sentence, takes that capital")
DICTIONARY_ROUTES = {"es": (hunspell_forms, STEMS_RULE, "MPL-2.0"), "fr": (hunspell_forms, STEMS_RULE, "MPL-2.0"),
                     "de": (noun_forms, NOUNS_RULE, "GPL-2.0 or GPL-3.0 (igerman98)")}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lang", nargs="+", choices=["ru", "es", "fr", "de", "vi", "en"], default=["ru"])
    p.add_argument("--words", type=int, default=300000, help="the most frequent words of wordfreq's list read")
    p.add_argument("--share", type=float, default=0.8, help="the least share of proper-noun analyses")
    p.add_argument("--surname-share", type=float, default=0.1, help="ru: the least share of an after-name's surnames")
    p.add_argument("--mixed-least", type=int, default=3, help="the fewest times a mixed form of the training text")
    p.add_argument("--mixed-share", type=float, default=0.9,
                   help="the least share of a word's times in the training text written in its mixed form")
    p.add_argument("--merged", type=int, default=20,
                   help="a mixed form whose parts are all words seen this often on their own is two words run together")
    p.add_argument("--capitals-least", type=int, default=5, help="en: the fewest times an acronym of the training text")
    p.add_argument("--capitals-share", type=float, default=0.9, help="en: the least share of an acronym's times")
    p.add_argument("--small", nargs="*", default=[], help="the packs whose list takes the training text's small words")
    p.add_argument("--small-least", type=int, default=5, help="the fewest times a small word of the training text")
    p.add_argument("--small-share", type=float, default=0.98, help="the least share of its times in small letters")
    p.add_argument("--small-skip", type=int, default=300, help="the training text's most frequent words, left out")
    p.add_argument("--out", type=Path, default=ROOT / "models", help="models root")
    p.add_argument("--work", type=Path, default=ROOT / "runs" / "hunspell", help="where the Debian packages go")
    args = p.parse_args()
    for lang in args.lang:
        forms, seen, rules, sources = [], {}, [], []
        if lang == "ru":
            forms, seen = russian_forms(args.words, args.share, args.surname_share)
            rules.append(f"a word of the list all of whose pymorphy3 analyses are in the dictionary, at least "
                         f"{args.share} of them (by score) a proper noun (Name, Surn, Patr, Geox, Orgn, Trad), takes a "
                         "capital; at least 0.95 an abbreviation of a place or organisation (Abbr with Geox or "
                         f"Orgn): all capitals; at least {args.share} a given name or patronymic: a name; else at "
                         f"least {args.surname_share} a surname: a capital after a name only; a word of five letters "
                         f"or more none of whose analyses the dictionary knows, ending in {', '.join(SURNAME_ENDINGS)}: "
                         "a capital after a name only")
            sources.append({"what": f"pymorphy3 {version('pymorphy3')} with pymorphy3-dicts-ru "
                                    f"{version('pymorphy3-dicts-ru')}: the OpenCorpora dictionary's analyses",
                            "license": "CC BY-SA 3.0 (OpenCorpora data)"})
        elif lang == "en":
            forms, seen = english_forms(args.words, args.work, args.capitals_least, args.capitals_share)
            rules.append("the en token card's mixed spellings; a word that the training text (outside lines mostly in "
                         f"capitals) writes in capitals at least {args.capitals_least} times, and in at least "
                         f"{args.capitals_share} of the times it writes the word, or that hunspell-en-us has only as a "
                         "stem in capitals and does not accept in small letters and the training text writes in small "
                         "letters at most 0.1 times as often as with capitals inside a sentence: its capitals; a word "
                         "of the en token card's proper list: a capital")
        elif lang in DICTIONARY_ROUTES:
            route, rule, licence = DICTIONARY_ROUTES[lang]
            forms, seen = route(lang, args.words, args.work)
            rules.append(rule)
            sources.append({"what": f"Debian's {HUNSPELL[lang][0]} (Hunspell dictionary, read with spylls "
                                    f"{version('spylls')})", "license": licence})
        brands, counted = brand_forms(lang, args.words, args.work, forms)
        forms, seen = forms + brands, {**seen, **counted}
        # the training text's own mixed spellings win over the other routes' ("BAföG", not the dictionary's "Bafög")
        learned, counted = mixed_forms(lang, [], args.mixed_least, args.mixed_share, args.merged)
        own = {form.lower() for form in learned}
        forms, seen = [f for f in forms if f.split("\t")[0].lower() not in own] + learned, {**seen, **counted}
        rules.append(f"a word that the training text writes in mixed case at least {args.mixed_least} times, and in "
                     f"at least {args.mixed_share} of the times it writes the word, takes that spelling, unless its "
                     f"parts at each change from a small letter to a capital are all words of two letters or more "
                     f"that the text writes on their own at least {args.merged} times")
        rules.append("a Latin word of the list that the en token card spells in mixed case (i or e and then a "
                     "capital, or two capitals the first followed by small letters; four letters or more) takes "
                     "that spelling"
                     + (", else one of three letters or more that hunspell-en-us has only as a stem with capitals, "
                        "or that the en token card's proper list holds, its capitals" if lang == "ru" else "")
                     + (", else one that hunspell-en-us has as a stem with a capital first letter and the en token "
                        "card's proper list holds, its capital, unless the dictionary accepts it with ss as ß"
                        if lang in NAMES_FROM_ENGLISH else "")
                     + "".join(f", unless hunspell {other} accepts it in small letters" for other in WORDS_OF[lang])
                     + (" or the training text writes it in small letters more than 0.1 times as often as "
                        "with capitals inside a sentence" if lang in TRAINING else ""))
        sources.append({"what": "models/en/token.json: its mixed spellings" + (
            " and proper list" if lang in ENGLISH_WORDS else ""),
                        "license": "as that card (counted from the en corpora)"})
        if lang in ENGLISH_WORDS:
            sources.append({"what": "Debian's hunspell-en-us (Hunspell dictionary from SCOWL, read with spylls)",
                            "license": "SCOWL's (BSD-like, see the package's copyright file)"})
        if lang in TRAINING:
            sources.append({"what": f"{', '.join(Path(n).name for n in TRAINING[lang])}: the case of each word in the "
                                    "training text",
                            "license": "as the char model's card"})
        if lang in args.small:
            small, counted = small_forms(lang, forms, args.small_least, args.small_share, args.small_skip)
            forms, seen = forms + small, {**seen, **counted}
            rules.append(f"a word that the training text writes in small letters at least {args.small_least} times, "
                         f"and in at least {args.small_share} of the times it writes it inside a sentence, takes no "
                         f"capital there, unless it is one of the text's {args.small_skip} most frequent words")
        write(args, lang, forms, seen, "; ".join(rules), sources)


def write(args, lang: str, forms: list[str], seen: dict, rule: str, sources: list[dict]) -> None:
    """The list and its card into ``args.out/<lang>``."""
    folder = args.out / lang
    folder.mkdir(parents=True, exist_ok=True)
    data = gzip.compress(("\n".join(forms) + "\n").encode("utf-8"), 9, mtime=0)
    (folder / "proper.txt.gz").write_bytes(data)
    card = {
        "name": "proper", "kind": "proper_case", "lang": lang, "file": "proper.txt.gz", "format": FORMAT,
        "forms": len(ProperCase(forms)), "counts": seen, "rule": rule,
        "sources": [{"what": f"wordfreq {version('wordfreq')}: the {args.words} most frequent words of the {lang} "
                             "list (large, else best: Wikipedia, subtitles, news, books, web text)",
                     "license": "CC BY-SA 4.0 (data)"}, *sources],
        "command": "python scripts/build_proper_case.py " + shlex.join(sys.argv[1:]),
    }
    write_card(folder / "proper.json", card)
    print(json.dumps({"lang": lang, "forms": card["forms"], "bytes": len(data), **seen}))


if __name__ == "__main__":
    main()

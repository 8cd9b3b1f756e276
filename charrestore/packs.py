"""Language packs: the features a language restores and how its text is normalized.

A pack is data (``languages/<code>/pack.toml``); adding a language needs no code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from .cards import card_location
from .engines import REGISTRY
from .paths import languages_dir, models_dir
from .plain_letters import plain
from .validate import SchemaError, check_pack

CAPS = "CAPS"
SPACE = "SPACE"


class PackError(ValueError):
    """A pack is missing or malformed."""


@dataclass(frozen=True)
class LanguagePack:
    code: str
    name: str
    features: tuple[str, ...]
    cased: bool = False
    normalization: str = "NFC"
    map: dict[str, str] = field(default_factory=dict)
    map_between_words: dict[str, str] = field(default_factory=dict)
    map_before_lower: dict[str, str] = field(default_factory=dict)  # [map] entries read another way before a small letter
    map_after_sentence_end: dict[str, str] = field(default_factory=dict)  # ... and right after a sentence mark
    models: dict[str, str] = field(default_factory=dict)
    sentence_marks: tuple[str, ...] = ()
    # the sentence marks whose next word always takes a capital; the others leave it to the model, where the text
    # follows them with a small letter too (ru, fr dialogue: «Что? – спросил он»). Default: all of them.
    capital_after: tuple[str, ...] = ()
    engine: str = "char"  # what ``--engine auto`` runs: the engine that scored better on this language's dev sets
    opening: tuple[str, ...] = ()  # marks that open a span: each stands before the grapheme it belongs to ("¿Tienes")
    pairs: dict[str, str] = field(default_factory=dict)  # opening mark -> the sentence-final mark that closes its span
    space_before: dict[str, str] = field(default_factory=dict)  # mark -> the space its typography puts before it
    abbreviations: frozenset[str] = frozenset()  # typed with their marks: keep the input's case, end no sentence
    abbreviation_forms: tuple[str, ...] = ()  # as written ("z. B."): their bare letters take them (abbreviation_forms.py)
    spellings: tuple[str, ...] = ()  # names in mixed case ("ChatGPT"): forms as above, and NB words (segmenter.py)
    units: dict[str, str] = field(default_factory=dict)  # unit symbols after a number: "kg" -> "kg" (units.py)
    joining_units: frozenset[str] = frozenset()  # units that join two numbers of one quantity: "10 h 30" (units.py)
    thousands: str = ""  # the separator of a long number's groups of three: "." or " " (digit_groups.py)
    scripts: tuple[str, ...] = ()  # the Unicode scripts the language writes: a word typed in another is kept (spans.py)
    elisions: tuple[str, ...] = ()  # clitics elided before a word with an apostrophe ("l'", "qu'"): segmenter.py
    ordinal_suffixes: tuple[str, ...] = ()  # letters a number takes as an ordinal ("1st", "2e"): segmenter.py
    # capitals with a period after each letter ("U.S."): bare letters -> the form; where the token model writes the
    # letters in capitals and a period after them, that period is the form's (abbreviation_forms.dotted_capitals)
    dotted_capitals: dict[str, str] = field(default_factory=dict)
    # words written small inside a sentence ("mardi"), and, typed plain, without accents (small_words.py)
    small_words: frozenset[str] = frozenset()
    # words of a people or country ("américain"), small as small_words are but as nouns, after a word of
    # nouns_after ("les Américains"), and, with demonyms_in_names, inside a name ("Unión Europea")
    demonyms: frozenset[str] = frozenset()
    demonyms_in_names: bool = False
    # words after which a demonym or a word of the proper list's small ones is a noun ("das Waschen"): small_words.py
    nouns_after: frozenset[str] = frozenset()
    # letters that fewer than one word in 100,000 of the training text exceeds: a longer one in spaced input is
    # run-together text, whose spaces ``--spaces auto`` restores (long_text.runs_together); 0: never
    longest_word: int = 0
    plain_typing: bool = False  # often typed without diacritics: such text reads plain counts (plain_letters.py)
    keyboard_letters: str = ""  # marked letters that such text still holds, typed directly (es "ñ")

    @property
    def opening_bits(self) -> int:
        """The class bits of the marks that stand before their grapheme."""
        return sum(self.bit(m) for m in self.opening)

    @property
    def n_classes(self) -> int:
        return 1 << len(self.features)

    @property
    def marks(self) -> tuple[str, ...]:
        """The punctuation features, in render order."""
        return tuple(f for f in self.features if f not in (CAPS, SPACE))

    @property
    def sentence_bits(self) -> int:
        """The class bits of the marks that end a sentence."""
        return sum(self.bit(m) for m in self.sentence_marks)

    @property
    def capital_bits(self) -> int:
        """The class bits of the sentence marks after which a word always starts with a capital."""
        return sum(self.bit(m) for m in self.capital_after)

    @property
    def mark_bits(self) -> int:
        """The class bits of all the pack's marks."""
        return sum(self.bit(m) for m in self.marks)

    @property
    def has_space(self) -> bool:
        return SPACE in self.features

    @property
    def has_caps(self) -> bool:
        return CAPS in self.features

    def bit(self, feature: str) -> int:
        """The class bit of a feature ("CAPS", "SPACE" or a mark), 0 if the pack lacks it."""
        return 1 << self.features.index(feature) if feature in self.features else 0

    def class_name(self, class_id: int) -> str:
        """Readable name of a class id, e.g. ``CAPS+.+SPACE``; ``O`` for no feature."""
        names = [f for i, f in enumerate(self.features) if class_id >> i & 1]
        return "+".join(names) or "O"

    def ready(self, kind: str | None = None) -> bool:
        """Whether the model that restoring needs is installed: the default engine's (the token model for the
        pipeline, else the char model), or the model of ``kind`` (``nb``: what ``segment`` needs)."""
        kind = kind or ("token" if self.engine == "pipeline" else "char")
        return self.models.get(kind) in self.available_models()

    def available_models(self) -> list[str]:
        """Names of the models shipped for this pack: cards found in ``models/<code>/``, and the shared models it
        names (``deru/char``) whose card is there."""
        folder = models_dir() / self.code
        own = [p.stem for p in folder.glob("*.json")] if folder.is_dir() else []
        shared = [n for n in self.models.values() if "/" in n and card_location(self.code, n).is_file()]
        return sorted(own + shared)


def _validate(code: str, data: dict, source: str | None = None) -> LanguagePack:
    """The pack a parsed ``pack.toml`` describes; ``source`` (default: ``pack <code>``) starts every error line."""
    source = source or f"pack {code}"
    try:
        check_pack(data)
    except SchemaError as exc:
        raise PackError(f"{source}: {exc}") from None
    if data.get("code", code) != code:  # the code names the models folder too: it must be the pack's own folder
        raise PackError(f"{source}: 'code' must be {code!r}, the name of the pack's folder")
    features = tuple(data["features"])
    if not features or len(set(features)) != len(features):
        raise PackError(f"{source}: 'features' must be a non-empty list without repeats")
    if CAPS in features and not data.get("cased", False):
        raise PackError(f"{source}: CAPS needs cased = true")
    marks = [f for f in features if f not in (CAPS, SPACE)]
    targets = set(marks) | ({" "} if SPACE in features else set())
    for table in ("map", "map_between_words", "map_before_lower", "map_after_sentence_end"):
        for src, target in data.get(table, {}).items():
            if not set(target) <= targets:
                raise PackError(f"{source}: [{table}] maps {src!r} onto {target!r}, not a mark of the pack")
    for src in data.get("map_before_lower", {}):
        if src not in data.get("map", {}) or not data.get("cased", False):
            raise PackError(f"{source}: [map_before_lower] holds {src!r}: it takes a cased pack's [map] entries "
                            "(what they map onto before a small letter instead)")
    for src in data.get("map_after_sentence_end", {}):
        if src not in data.get("map", {}) or not data.get("sentence_marks"):
            raise PackError(f"{source}: [map_after_sentence_end] holds {src!r}: it takes [map] entries of a pack with "
                            "sentence_marks (what they map onto right after a sentence mark instead)")
    for mark in data.get("capital_after", ()):
        if mark not in data.get("sentence_marks", ()):
            raise PackError(f"{source}: 'capital_after' holds {mark!r}: it takes marks of 'sentence_marks'")
    for mark in data.get("opening_marks", ()):
        if mark not in marks:
            raise PackError(f"{source}: 'opening_marks' holds {mark!r}, not a mark of the pack's features")
    for opening, closing in data.get("pairs", {}).items():
        if opening not in data.get("opening_marks", ()) or closing not in data.get("sentence_marks", ()):
            raise PackError(f"{source}: [pairs] maps {opening!r} onto {closing!r}: it takes an opening mark and "
                            "the sentence-final mark that closes its span")
    for mark, space in data.get("space_before", {}).items():
        if mark not in marks or len(space) != 1 or not space.isspace():
            raise PackError(f"{source}: [space_before] maps {mark!r} onto {space!r}: it takes a mark of the pack's "
                            "features and one white-space character")
    _check_forms(source, (*data.get("abbreviation_forms", ()), *data.get("spellings", ())), marks, SPACE in features,
                 bool(data.get("cased")))
    for clitic in data.get("elisions", ()):
        if not _ELISION.fullmatch(str(clitic)):
            raise PackError(f"{source}: 'elisions' holds {clitic!r}: it takes letters ending in an apostrophe (\"l'\")")
    for suffix in data.get("ordinal_suffixes", ()):
        if not _LETTERS.fullmatch(str(suffix)):
            raise PackError(f"{source}: 'ordinal_suffixes' holds {suffix!r}: it takes letters (\"st\", \"e\")")
    for form in data.get("dotted_capitals", ()):
        if not _DOTTED.fullmatch(str(form)):
            raise PackError(f"{source}: 'dotted_capitals' holds {form!r}: it takes capitals, each with a period "
                            "(\"U.S.\")")
    for word in data.get("small_words", ()):
        if not _SMALL.fullmatch(str(word)):
            raise PackError(f"{source}: 'small_words' holds {word!r}: it takes words in small letters (\"mardi\")")
    for key, value in data.get("demonyms", {}).items():
        kinds = {"words": list, "in_names": bool}
        if key not in kinds or not isinstance(value, kinds[key]):
            raise PackError(f"{source}: [demonyms] takes words (a list of words in small letters) and in_names "
                            f"(true or false), not {key} = {value!r}")
        for word in () if key == "in_names" else value:
            if not _SMALL.fullmatch(str(word)):
                raise PackError(f"{source}: [demonyms] words holds {word!r}: it takes words in small letters")
    for word in data.get("nouns_after", ()):
        if not (_SMALL.fullmatch(str(word)) or _ELISION.fullmatch(str(word))):
            raise PackError(f"{source}: 'nouns_after' holds {word!r}: it takes words in small letters (\"les\", "
                            "\"l'\")")
    if data.get("longest_word", 0) < 0 or (data.get("longest_word") and SPACE not in features):
        raise PackError(f"{source}: 'longest_word' takes a whole number of letters, 0 or more, in a pack with SPACE")
    thousands = data.get("thousands", "")
    if thousands and thousands not in marks + ([" "] if SPACE in features else []):
        raise PackError(f"{source}: 'thousands' is {thousands!r}: it takes a mark of the pack's features, or \" \" "
                        "with SPACE")
    for script in data.get("scripts", ()):
        if not _SCRIPT_NAME.fullmatch(str(script)) or not _is_script(script):
            raise PackError(f"{source}: 'scripts' holds {script!r}, not a Unicode script name (Latin, Hangul, Han)")
    engine = data.get("engine", "char")
    if engine not in REGISTRY:
        raise PackError(f"{source}: engine must be one of {', '.join(REGISTRY)}, not {engine!r}")
    if engine == "pipeline" and "token" not in data.get("models", {}):
        raise PackError(f"{source}: engine = 'pipeline' needs a token model in [models]")
    small, demonyms = data.get("small_words", ()), data.get("demonyms", {}).get("words", ())
    typed = (lambda words: frozenset(words) | frozenset(map(plain, words))) if data.get("plain_typing") else frozenset
    return LanguagePack(
        code=code,
        name=data.get("name", code),
        features=features,
        cased=bool(data.get("cased", False)),
        normalization=data.get("normalization", "NFC"),
        map=dict(data.get("map", {})),
        map_between_words=dict(data.get("map_between_words", {})),
        map_before_lower=dict(data.get("map_before_lower", {})),
        map_after_sentence_end=dict(data.get("map_after_sentence_end", {})),
        models=dict(data.get("models", {})),
        sentence_marks=tuple(m for m in data.get("sentence_marks", ()) if m in marks),
        capital_after=tuple(m for m in data.get("capital_after", data.get("sentence_marks", ())) if m in marks),
        engine=engine,
        opening=tuple(m for m in marks if m in data.get("opening_marks", ())),
        pairs={o: c for o, c in data.get("pairs", {}).items() if c in marks},
        space_before=dict(data.get("space_before", {})),
        abbreviations=frozenset(base_form(w, marks) for w in data.get("abbreviations", ())),
        abbreviation_forms=tuple(data.get("abbreviation_forms", ())),
        spellings=tuple(data.get("spellings", ())),
        units={base_form(u, marks): u for u in (*data.get("units", ()), *data.get("joining_units", ()))},
        joining_units=frozenset(base_form(u, marks) for u in data.get("joining_units", ())),
        thousands=data.get("thousands", ""),
        scripts=tuple(data.get("scripts", ())),
        elisions=tuple(c.lower() for c in data.get("elisions", ())),
        ordinal_suffixes=tuple(str(x).lower() for x in data.get("ordinal_suffixes", ())),
        dotted_capitals={form.replace(".", "").lower(): form for form in data.get("dotted_capitals", ())},
        small_words=typed(small),
        demonyms=typed(demonyms),
        demonyms_in_names=bool(data.get("demonyms", {}).get("in_names", False)),
        nouns_after=typed(data.get("nouns_after", ())),
        longest_word=int(data.get("longest_word", 0)),
        plain_typing=bool(data.get("plain_typing", False)),
        keyboard_letters=str(data.get("keyboard_letters", "")).lower(),
    )


_SCRIPT_NAME = regex.compile(r"[A-Z][A-Za-z_]*")
_ELISION = regex.compile(r"\p{L}+'")
_LETTERS = regex.compile(r"\p{L}+")
_SMALL = regex.compile(r"\p{Ll}+")
_DOTTED = regex.compile(r"(?:\p{Lu}\.){2,}")


def _check_forms(source, forms, marks, spaced: bool, cased: bool) -> None:
    """An abbreviation form starts with a letter; its marks, single spaces and capitals are features of the pack,
    its other characters letters, digits, hyphens or apostrophes; no two forms share their letters."""
    seen = set()
    for form in map(str, forms):
        letters = base_form(form, marks).replace(" ", "")
        if not (form[:1].isalnum() and form == " ".join(form.split()) and (spaced or " " not in form)
                and (cased or form == form.lower()) and all(c.isalnum() or c in "-'’" for c in letters)
                and letters not in seen):
            raise PackError(f"{source}: 'abbreviation_forms' or 'spellings' holds {form!r}: it takes a word as written, "
                            "starting with a letter, whose marks, single spaces and capitals are features of the pack, "
                            "once per letters")
        seen.add(letters)


def _is_script(name: str) -> bool:
    """Whether ``name`` is a script that ``\\p{Script=...}`` knows (in Python's regex and in the page's RegExp)."""
    try:
        regex.compile(rf"\p{{Script={name}}}")
    except regex.error:
        return False
    return True


def base_form(word: str, marks) -> str:
    """A word as the engines see it: lower case, without the pack's marks ("e.g." -> "eg")."""
    return "".join(c for c in word.lower() if c not in marks)


@lru_cache(maxsize=None)
def load_pack(code: str) -> LanguagePack:
    """Load ``languages/<code>/pack.toml``.

    >>> load_pack("en").features
    ('CAPS', '.', ',', '?', 'SPACE')
    >>> load_pack("en").n_classes
    32
    """
    path = languages_dir() / code / "pack.toml"
    if not code.isidentifier() or not path.is_file():
        known = ", ".join(available_packs()) or "none"
        raise PackError(f"no language pack {code!r} (available: {known})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PackError(f"{path}: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and tables recursively
        raise PackError(f"{path}: nested too deeply to be a language pack") from None
    return _validate(code, data, str(path))


def available_packs() -> list[str]:
    folder = languages_dir()
    return sorted(p.parent.name for p in folder.glob("*/pack.toml")) if folder.is_dir() else []

"""The list of proper forms (charrestore/proper_case.py): capitals a word always has, added after the char engine
decodes, to whole words; the model's mixed case in a word the list lacks goes; a typed capital always stays; a
damaged list fails as any model does."""

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.cards import write_card
from charrestore.paths import models_dir
from charrestore.proper_case import FORMAT, ProperCase

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CAPS, SPACE = 1, 16
PROPER = ProperCase(["NASA", "McDonald", "Путин", "США", "Paris", "Дмитрий\tname", "Песков\tafter-name", "iPad"])
COMMA = 2


# words of the list's letters, with classes of any features (CAPS 1, COMMA 2, ..., SPACE 16)
WORDS_AND_CLASSES = st.lists(st.tuples(st.sampled_from(list("nasmcdoldpriтпуинсшадмрйеков-,'1 ")),
                                       st.integers(0, 31)), min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(WORDS_AND_CLASSES)
def test_typed_capitals_stay_and_only_capitals_change(pairs):
    base, cls = [g for g, _ in pairs], np.array([c for _, c in pairs], np.int64)
    out = PROPER.apply(base, cls.copy(), CAPS, SPACE, typed=cls)
    assert np.array_equal(out & ~CAPS, cls & ~CAPS)  # every other feature as it was
    assert np.all(out & CAPS >= cls & CAPS)  # no typed capital taken away
    added = np.flatnonzero((out & CAPS) & ~(cls & CAPS))
    assert all(base[i].isalpha() for i in added)
    named = ProperCase(["Дмитрий\tname", "Песков\tafter-name", "Paris"])  # a comma after a name may go, no other
    model = cls & ~COMMA  # the model's classes, the input typing none of its commas
    out = named.apply(base, cls.copy(), CAPS, SPACE, typed=model, between=COMMA)
    assert np.array_equal(out & ~(CAPS | COMMA), cls & ~(CAPS | COMMA)) and np.all(out & COMMA <= cls & COMMA)


def pieces(base, cls):
    """The words of ``cls`` (letters between its spaces, without the other graphemes at their ends) that the list
    lacks, by their parts between joiners, as (start, end)."""
    cuts = (np.flatnonzero(cls & SPACE) + 1).tolist()
    for s, e in zip([0, *cuts], [*cuts, len(base)]):
        while s < e and not base[s][0].isalpha():
            s += 1
        while e > s and not base[e - 1][0].isalpha():
            e -= 1
        if e - s > 1 and PROPER.capitals("".join(base[s:e])) is not None:
            continue
        joins = [k for k in range(s, e) if base[k] in "'-"]
        for a, b in zip([s, *(k + 1 for k in joins)], [*joins, e]):
            if not (joins and b - a > 1 and PROPER.capitals("".join(base[a:b])) is not None):
                yield a, b


@settings(max_examples=200, deadline=None)
@given(WORDS_AND_CLASSES)
def test_a_word_the_list_lacks_is_never_left_in_the_models_mixed_case(pairs):
    base, cls = [g for g, _ in pairs], np.array([c for _, c in pairs], np.int64)
    out = PROPER.apply(base, cls.copy(), CAPS, SPACE)
    assert np.array_equal(out & ~CAPS, cls & ~CAPS)
    for a, b in pieces(base, out):
        runs = "".join("x" if base[k].isalpha() else " " for k in range(a, b))
        for run in re.finditer("x+", runs):  # each run of letters ("usd/tonne" holds two)
            caps = [bool(out[a + k] & CAPS) for k in range(*run.span())]
            assert all(caps) or not any(caps[1:]), (base[a:b], caps)


def applied(proper: ProperCase, word: str, caps: list[int], typed: list[int]) -> str:
    """``word`` as ``proper`` writes it after the model put capitals at ``caps`` and the input typed ``typed``."""
    base = list(word)
    cls, typed_cls = np.zeros(len(base), np.int64), np.zeros(len(base), np.int64)
    cls[caps], typed_cls[typed] = CAPS, CAPS
    out = proper.apply(base, cls, CAPS, SPACE, typed_cls)
    return "".join(g.upper() if c & CAPS else g for g, c in zip(base, out))


def test_a_word_the_list_lacks_loses_the_models_mixed_case_but_not_the_typed_one():
    """Mostly capitals: all capitals ("AEVal" -> "AEVAL"); else only the first letter's case stays ("миниСтр");
    a listed form, the parts of a compound and a typed capital stay as they are."""
    for word, caps, typed, want in [("министр", [4], [], "министр"), ("лаврецкий", [0, 2], [], "Лаврецкий"),
                                    ("aeval", [0, 1, 2], [], "AEVAL"), ("ipad", [0, 1], [], "iPad"),
                                    ("министр", [4], [4], "миниСтр"), ("жан-поль", [0, 4], [], "Жан-Поль"),
                                    ("mcdonald", [0, 1], [], "McDonald"), ("usa", [0, 1, 2], [], "USA"),
                                    ("usd/tonne", [0, 1, 2, 4], [], "USD/Tonne"), ("h.thach", [0, 2, 4], [], "H.Thach")]:
        assert applied(PROPER, word, caps, typed) == want


def test_a_listed_word_takes_its_forms_small_letters_but_keeps_the_typed_capitals():
    """"DortMund" (the model's capital inside a word the list holds as "Dortmund") becomes "Dortmund"; an all-caps
    guess of a plain form likewise; a capital the input typed stays, and so does the model's first capital."""
    proper = ProperCase(["Dortmund", "iPhone", "NATO"])
    for word, caps, typed, want in [("dortmund", [0, 4], [], "Dortmund"), ("dortmund", [4], [], "Dortmund"),
                                    ("dortmund", list(range(8)), [], "Dortmund"), ("dortmund", [0, 4], [4], "DortMund"),
                                    ("iphone", [0, 1], [], "iPhone"), ("nato", [1], [], "NATO")]:
        assert applied(proper, word, caps, typed) == want


def test_whole_words_only_and_the_punctuation_around_them():
    words = ["nasa", "nasas", "(paris),", "mcdonald", "путина"]
    base = [g for w in words for g in w]
    cls = np.zeros(len(base), np.int64)
    cls[np.cumsum([len(w) for w in words])[:-1] - 1] = SPACE  # a space after each word but the last
    out = PROPER.apply(base, cls.copy(), CAPS, SPACE)
    shown = "".join(g.upper() if c & CAPS else g for g, c in zip(base, out))
    assert shown == "NASAnasas(Paris),McDonaldпутина"  # "nasas" and "путина" are other words than the list's
    assert PROPER.capitals("mcdonald") == (0, 2) and PROPER.capitals("macdonald") is None


def shown(words: list[str], marks: dict[int, int] | None = None) -> str:
    """The words with a space after each but the last (and ``marks``: word index -> bits on its last letter),
    through PROPER, as the char engine renders capitals."""
    base = [g for w in words for g in w]
    cls = np.zeros(len(base), np.int64)
    ends = np.cumsum([len(w) for w in words]) - 1
    cls[ends[:-1]] = SPACE
    for k, bits in (marks or {}).items():
        cls[ends[k]] |= bits
    out = PROPER.apply(base, cls, CAPS, SPACE)
    return " ".join("".join(g.upper() if c & CAPS else g for g, c in zip(w, out[e - len(w) + 1:e + 1]))
                    for w, e in zip(words, ends))


def test_an_after_name_form_takes_its_capitals_only_straight_after_a_name():
    assert shown(["дмитрий", "песков"]) == "Дмитрий Песков"
    assert shown(["много", "песков"]) == "много песков"  # the sand
    assert shown(["песков"]) == "песков"
    assert shown(["дмитрий", "песков"], {0: COMMA}) == "Дмитрий песков"  # a mark between them
    assert shown(["дмитрий,", "песков"]) == "Дмитрий, песков"  # typed
    assert shown(["путин", "песков"]) == "Путин песков"  # a listed form, but not a name
    assert len(PROPER) == 8


def test_no_comma_between_a_given_name_and_the_capitalized_word_after_it():
    """``between`` (a comma): the model's "Emmanuel, Macron" becomes "Emmanuel Macron" (names_go_on)."""
    names = ProperCase(["Emmanuel\tname", "Marie\tname", "Paris"])
    dot = 4

    def out(words, marks, capitals=(), typed=None):
        base = [g for w in words for g in w]
        ends = np.cumsum([len(w) for w in words]) - 1
        cls = np.zeros(len(base), np.int64)
        cls[ends[:-1]] = SPACE
        for k, bits in marks.items():
            cls[ends[k]] |= bits
        for k in capitals:  # the model's capitals: the first letter of word k
            cls[ends[k] - len(words[k]) + 1] |= CAPS
        got = names.apply(base, cls, CAPS, SPACE, typed=typed, between=COMMA)
        return [int(got[e] & (COMMA | dot)) for e in ends]

    assert out(["emmanuel", "macron", "a"], {0: COMMA}, capitals=[1]) == [0, 0, 0]
    assert out(["emmanuel", "paris"], {0: COMMA}) == [0, 0]  # a listed form takes its capital, then goes on
    assert out(["emmanuel", "macron"], {0: COMMA}) == [COMMA, 0]  # no capital after it: an address goes on
    assert out(["emmanuel", "marie"], {0: COMMA}) == [COMMA, 0]  # two names: a list keeps its commas
    assert out(["emmanuel", "macron"], {0: COMMA | dot}, capitals=[1]) == [COMMA | dot, 0]  # not a comma alone
    assert out(["bonjour", "macron"], {0: COMMA}, capitals=[1]) == [COMMA, 0]  # no name
    typed = np.zeros(14, np.int64)
    typed[7] = COMMA
    assert out(["emmanuel", "macron"], {0: COMMA}, capitals=[1], typed=typed) == [COMMA, 0]  # typed: stays
    cls = np.array([SPACE | COMMA if i == 7 else 0 for i in range(14)])
    cls[8] = CAPS
    same = names.apply(list("emmanuelmacron"), cls.copy(), CAPS, SPACE)  # without ``between``: as the model wrote
    assert same[7] & COMMA


def test_a_form_in_mixed_case_gives_up_the_models_capitals_it_lacks_but_not_a_typed_one():
    proper = ProperCase(["iPhone", "YouTube", "d'Artagnan"])
    for word, typed, want in [("iphone", 0, "iPhone"), ("iphone", CAPS, "IPhone"), ("youtube", 0, "YouTube"),
                              ("d'artagnan", 0, "D'Artagnan")]:
        base = list(word)
        cls = np.zeros(len(base), np.int64)
        cls[:2] = CAPS  # the model's capitals (a sentence's first word, a German noun; "YOutube")
        typed_cls = np.zeros(len(base), np.int64)
        typed_cls[0] = typed
        out = proper.apply(base, cls, CAPS, SPACE, typed_cls)
        assert "".join(g.upper() if c & CAPS else g for g, c in zip(base, out)) == want


def test_the_parts_of_a_compound_the_list_lacks_are_looked_up_alone():
    base = list("paris-nasa-ville") + list("l'usa-путин")
    cls = np.zeros(len(base), np.int64)
    cls[len("paris-nasa-ville") - 1] = SPACE
    out = PROPER.apply(base, cls.copy(), CAPS, SPACE)
    assert "".join(g.upper() if c & CAPS else g for g, c in zip(base, out)) == "Paris-NASA-villel'usa-Путин"


@pytest.fixture()
def data_root(tmp_path):
    """A CHARRESTORE_DATA folder: the en pack (it names a list of proper forms), its fixture char model, a list."""
    (tmp_path / "languages" / "en").mkdir(parents=True)
    pack = (ROOT / "languages" / "en" / "pack.toml").read_text(encoding="utf-8")
    assert '\nproper = "proper"\n' in pack
    (tmp_path / "languages" / "en" / "pack.toml").write_text(pack, encoding="utf-8")
    folder = tmp_path / "models" / "en"
    folder.mkdir(parents=True)
    for name in ("char.json", "char.onnx"):
        (folder / name).symlink_to(FIXTURES / "models" / "en" / name)
    (folder / "proper.txt.gz").write_bytes(gzip.compress("NASA\nMcDonald\n".encode("utf-8"), mtime=0))
    write_card(folder / "proper.json", {"name": "proper", "kind": "proper_case", "lang": "en",
                                        "file": "proper.txt.gz", "format": FORMAT})
    return tmp_path


def fix(root, *args):
    env = {**os.environ, "CHARRESTORE_DATA": str(root)}
    return subprocess.run([sys.executable, "-m", "charrestore", "fix", "--lang", "en", "--engine", "char", *args],
                          capture_output=True, text=True, env=env, timeout=120)


def test_fix_takes_the_lists_capitals_through_the_cli(data_root):
    res = fix(data_root, "--spaces", "keep", "the nasa mission ate at mcdonald today")
    assert res.returncode == 0, res.stderr
    words = res.stdout.split()
    assert "NASA" in words and any(w.startswith("McDonald") for w in words)
    assert base_text(res.stdout, load_pack("en")) == "thenasamissionateatmcdonaldtoday"


def test_a_damaged_list_is_a_one_line_error(data_root):
    (data_root / "models" / "en" / "proper.txt.gz").write_bytes(b"not the list")
    res = fix(data_root, "the nasa mission")
    assert res.returncode != 0 and "proper.txt.gz" in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_the_shipped_russian_list_writes_modern_names_and_acronyms():
    card = models_dir() / "ru" / "proper.json"
    if not card.is_file():
        pytest.skip("no shipped ru list of proper forms")
    assert json.loads(card.read_text(encoding="utf-8"))["forms"] > 10000
    out = Restorer(lang="ru", spaces="keep")("президент сша встретился с генсеком нато в москве")
    assert {"США", "НАТО"} <= set(out.replace(",", " ").replace(".", " ").split())
    assert "Москве" in out
    out = Restorer(lang="ru", spaces="keep")("об этом сообщил дмитрий песков когда мы шли мимо песков и болот")
    assert "Дмитрий Песков" in out and "песков" in out  # a surname after a name, the sand elsewhere
    out = Restorer(lang="ru", spaces="keep")("выступил антон силуанов а иван готов помочь")
    assert "Антон Силуанов" in out and "готов" in out  # a surname the dictionary lacks; a word it knows


@pytest.mark.parametrize("lang", ["de", "es", "fr", "ru", "vi"])
def test_every_shipped_list_writes_brands_in_their_mixed_case(lang):
    if not (models_dir() / lang / "proper.json").is_file():
        pytest.skip(f"no shipped {lang} list of proper forms")
    out = Restorer(lang=lang, spaces="keep")("das iphone und youtube" if lang == "de" else "iphone youtube")
    words = out.replace(",", " ").replace(".", " ").split()
    assert "iPhone" in words and "YouTube" in words, out


@pytest.mark.parametrize("lang, form", [("de", "AfD"), ("es", "UPyD"), ("vi", "WannaCry")])
def test_the_mixed_forms_the_training_text_writes_are_listed(lang, form):
    """A model learns the mixed case its training text writes; the list keeps those forms from being lowered."""
    if not (models_dir() / lang / "proper.json").is_file():
        pytest.skip(f"no shipped {lang} list of proper forms")
    assert ProperCase.load(lang).capitals(form.lower()) == tuple(k for k, c in enumerate(form) if c.isupper())


def test_the_shipped_english_char_engine_writes_acronyms_and_no_mixed_case_of_its_own():
    """en's char engine (the page runs it) read spaced text as "Will aI change", "NASa": its list cleans that."""
    if not (models_dir() / "en" / "proper.json").is_file():
        pytest.skip("no shipped en list of proper forms")
    for spaces, text in [("keep", "will ai change our future i asked nasa and the fbi about my iphone in china"),
                         ("auto", "willaichangeourfutureiaskednasaandthefbiaboutmyiphoneinchina")]:
        words = Restorer(lang="en", engine="char", spaces=spaces)(text).replace(".", " ").replace(",", " ").split()
        assert {"AI", "NASA", "FBI", "iPhone", "China"} <= set(words), words
        assert all(w == w.lower() or w[1:] == w[1:].lower() or w.isupper() or w == "iPhone" for w in words), words


@pytest.mark.parametrize("lang, text, names, words", [
    ("es", "obama y torvalds es lo unico que sé", {"Obama", "Torvalds"}, {"unico"}),
    ("es", "obama come azucar en la estacion", {"Obama"}, {"azucar", "estacion"}),
    ("fr", "obama et torvalds à l'ecole", {"Obama", "Torvalds"}, {"l'ecole"}),
    ("fr", "obama dit ca va tres bien grace a torvalds", {"Obama", "Torvalds"}, {"ca", "grace"}),
    ("de", "obama und torvalds ich weiss es", {"Obama", "Torvalds"}, {"weiss"})])
def test_the_shipped_lists_write_the_names_english_capitalizes_but_no_word_without_its_accents(lang, text, names,
                                                                                                 words):
    """es, fr and de take the names of news from English ("Obama"), but not a word typed without its accents or
    with "ss" for "ß", which English or the dictionary may hold as a name ("unico", "ecole", "weiss", "ca" for
    "ça": not "CA", "azucar")."""
    if not (models_dir() / lang / "proper.json").is_file():
        pytest.skip(f"no shipped {lang} list of proper forms")
    proper = ProperCase.load(lang)
    assert all(proper.capitals(name.lower()) == (0,) for name in names)
    assert all(proper.capitals(word.split("'")[-1]) is None for word in words)
    out = Restorer(lang=lang, spaces="keep")(text).replace(",", " ").replace(".", " ").split()
    assert names <= set(out), out

"""The NB segmenter on tiny fixture counts (tests/fixtures/nb, built from tests/fixtures/text by train nb).

What must hold for any counts: only spaces are inserted, and only between grapheme clusters; the case
of the input is kept; long inputs go through in one pass; the CLI keeps the one-line-in, one-line-out
contract and reports a missing model in one line.
"""

import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import charrestore.counts as counts_file
import charrestore.segmenter as segmenter_module
from charrestore.cards import ModelError, sha256_of
from charrestore.codec import graphemes
from charrestore.segmenter import HARD, Segmenter

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "nb"


@pytest.fixture(scope="module")
def seg():
    return Segmenter.load("en", FIXTURE)


def inserted(text: str, out: str) -> list[int] | None:
    """Positions in ``text`` before which ``out`` has an extra space; None if ``out`` differs otherwise."""
    at, k = [], 0
    for c in out:
        if k < len(text) and c == text[k]:
            k += 1
        elif c == " ":
            at.append(k)
        else:
            return None
    return at if k == len(text) else None


def grapheme_starts(text: str) -> set[int]:
    starts, pos = set(), 0
    for g in graphemes(text):
        starts.add(pos)
        pos += len(g)
    return starts


texty = st.lists(st.sampled_from(["follow", "friday", "Follow", "FRIDAY", "iphone", "6", "2019", "the", "'", "-",
                                  " ", "#", "\u0301", "ક્ષ", "ા", "👩\u200d👧", "\u200d", "ß", "İ", "Σ", "\r\n", "\t"]),
                max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=200), texty))
def test_only_spaces_inserted_between_graphemes(seg, text):
    out = seg.segment(text)
    at = inserted(text, out)
    assert at is not None, (text, out)
    assert set(at) <= grapheme_starts(text) - {0, len(text)}
    assert "".join(seg.words(text)) == "".join(out.split())


@pytest.mark.parametrize("text, expected", [
    ("FollowFriday", "Follow Friday"),
    ("followfriday", "follow friday"),
    ("FOLLOWFRIDAY", "FOLLOW FRIDAY"),
    ("WillAIChangeOurFuture", "Will AI Change Our Future"),
    ("willaichangeourfuture", "will ai change our future"),
    ("#FollowFriday!", "#Follow Friday!"),                 # punctuation is left as it is
    ("dontstopbelieving", "dont stop believing"),           # apostrophe-free forms are counted too
    ("don'tstop", "don't stop"),
    ("iloveMyIphone6", "i love My Iphone 6"),
    ("  happy  newyear ", "  happy  new year "),             # existing spaces are kept as they are
    ("followfriday-thebus", "follow friday-the bus"),       # a hyphen ends the words on either side of it
])
def test_examples_keep_case(seg, text, expected):
    assert seg.segment(text) == expected


def test_words(seg):
    assert seg.words("#followfriday, thefuture!") == ["#", "follow", "friday", ",", "the", "future", "!"]


def test_boundary_evidence_settings(seg):
    assert seg.configured(camel=HARD).segment("fridAy") == "frid Ay"
    assert seg.configured(camel=0.0).segment("fridAy") == "fridAy"
    assert seg.configured(camel=HARD).segment("iPhone") == "iPhone"   # one word-initial lower letter: mid-token case
    assert seg.configured(digits=HARD).segment("iphone6") == "iphone 6"
    assert seg.configured(digits=-HARD).segment("iphone6") == "iphone6"
    assert seg.segment("20192020") == "20192020"           # never inside a number
    assert seg.configured(caps=-HARD).segment("THEFUTURE") == "THEFUTURE"


def test_score_backs_off_and_penalizes_length(seg):
    assert seg.score("friday", "follow") > seg.score("friday")
    assert seg.score("qzxv") > seg.score("qzxvqzxv")
    assert seg.score("friday", "no-such-word") == seg.score("friday")


def test_parameters_are_checked(seg):
    with pytest.raises(ValueError):
        seg.configured(L=0)
    with pytest.raises(ValueError):
        seg.configured(smoothing=1.0)
    with pytest.raises(TypeError):
        seg.configured(nope=1)


def test_one_megabyte_in_one_pass(seg):
    unit = "FollowFriday willaichangeourfuture, thefuture "
    text = unit * ((1 << 20) // len(unit) + 1)
    out = seg.configured(L=8).segment(text)
    assert len(text) >= 1 << 20
    assert out.startswith("Follow Friday will ai change our future, the future ")
    assert out.replace(" ", "") == text.replace(" ", "")


def test_the_spaces_of_spaced_text_guide_the_cuts():
    """Spacing correction: with ``given_space`` a cut follows a space the text had ("i phone"), with ``given_join``
    a join it had ("thebus"); at 0 (the counts' default) the spaces are ignored, and text that had none
    (``spaced=None``) is cut as before."""
    prose = Segmenter.load("en", FIXTURE, prose=True)
    assert prose.segment("mynewiphone", spaced=[2, 5, 6]) == "my new iphone" == prose.segment("mynewiphone")
    assert prose.configured(given_space=3.0).segment("mynewiphone", spaced=[2, 5, 6]) == "my new i phone"
    joins = prose.configured(given_join=5.0)
    assert joins.segment("thebus", spaced=[]) == "thebus" and joins.segment("thebus") == "the bus"


def test_spaced_text_longer_than_a_block_keeps_its_evidence_in_place():
    """The evidence is cut into blocks with the text (``BLOCK``): every "i phone" of a long text stays as typed."""
    unit = "my new i phone "
    text = unit * (2 * segmenter_module.BLOCK // len(unit))
    spaced, k = [], 0
    for w in text.split()[:-1]:
        k += len(w)
        spaced.append(k)
    out = Segmenter.load("en", FIXTURE, prose=True).configured(given_space=3.0, given_join=3.0).segment(
        text.replace(" ", ""), spaced=spaced)
    assert len(text) > segmenter_module.BLOCK and out == text.strip()


def test_a_long_word_without_spaces(seg):
    text = "x" * 5000 + "1" * 300              # longer than L: still one pass, nothing lost
    assert seg.segment(text).replace(" ", "") == text


def test_load_is_cached(seg):
    assert Segmenter.load("en", FIXTURE) is seg


def test_missing_model(tmp_path):
    with pytest.raises(ModelError, match="nb.json"):
        Segmenter.load("en", tmp_path)


def test_corrupt_counts(tmp_path):
    shutil.copytree(FIXTURE / "en", tmp_path / "en")
    with open(tmp_path / "en" / "nb.counts", "ab") as fh:
        fh.write(b"x")
    with pytest.raises(ModelError, match="sha256"):
        Segmenter.load("en", tmp_path)


def test_counts_of_either_format_decode_alike(tmp_path, seg):
    """Format 2 holds the words sorted and the segmenter bisects them (sorted_words.py); a format-1 file (its words
    in any order) still loads, into a dict: the same P per word and the same cuts."""
    old = tmp_path / "en"
    shutil.copytree(FIXTURE / "en", old)
    words, counts, contexts, reach, is_sorted = counts_file.read(old / "nb.counts")
    assert is_sorted and words == sorted(words)
    raw = (old / "nb.counts").read_bytes()
    (old / "nb.counts").write_bytes(counts_file.MAGIC_1 + raw[len(counts_file.MAGIC):])
    card = json.loads((old / "nb.json").read_text(encoding="utf-8"))
    (old / "nb.json").write_text(json.dumps({**card, "sha256": sha256_of(old / "nb.counts")}), encoding="utf-8")
    legacy = segmenter_module._load.__wrapped__("en", tmp_path)  # not cached: the module's segmenters stay
    assert type(legacy._uni) is dict and type(seg._uni) is not dict
    assert dict(seg._uni.items()) == legacy._uni and list(seg._uni) == list(legacy._uni)
    for text in ("followfridayonthebus", "FollowFriday", "thecatsatonthemat and then", "x" * 30):
        assert seg.cuts(text) == legacy.cuts(text)
    with pytest.raises(ValueError, match="twice"):
        counts_file.write(tmp_path / "twice.counts", ["a", "b", "a"], [1, 2, 3], {})


# --- CLI ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def data_root(tmp_path_factory):
    """A CHARRESTORE_DATA folder: the real packs beside the fixture counts."""
    root = tmp_path_factory.mktemp("data")
    (root / "languages").symlink_to(ROOT / "languages")
    shutil.copytree(FIXTURE, root / "models")
    return root


def cli(root, *args, stdin=b""):
    env = {**os.environ, "CHARRESTORE_DATA": str(root)}
    return subprocess.run([sys.executable, "-m", "charrestore", "segment", *args], input=stdin,
                          capture_output=True, env=env, timeout=60)


def test_cli_stdin_one_line_per_line(data_root):
    res = cli(data_root, stdin=b"FollowFriday\n\nwillaichangeourfuture\r\nbad \xff byte\nthe end")
    assert res.returncode == 0, res.stderr
    assert res.stdout == (b"Follow Friday\n\nwill ai change our future\r\nbad \xff byte\nthe end\n")
    assert b"line 4: invalid UTF-8" in res.stderr


def test_cli_text_and_options(data_root):
    res = cli(data_root, "Follow", "Friday", "thefuture", "--L", "3", "--smoothing", "2")
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode().rstrip("\n").replace(" ", "") == "FollowFridaythefuture"
    assert cli(data_root, "thefuture").stdout == b"the future\n"


def test_cli_missing_model_is_one_line(tmp_path):
    (tmp_path / "languages").symlink_to(ROOT / "languages")
    res = cli(tmp_path, "FollowFriday")
    err = res.stderr.decode()
    assert res.returncode == 1 and "Traceback" not in err
    assert err.count("\n") == 1 and "nb.json" in err and err.startswith("charrestore: error:")


def test_cli_bad_option_is_usage_error(data_root):
    res = cli(data_root, "--smoothing", "0.5", "x")
    assert res.returncode == 1 and "smoothing" in res.stderr.decode() and b"Traceback" not in res.stderr
    assert cli(data_root, "--L", "many").returncode == 2


def test_lazy_export():
    import charrestore
    from charrestore import segmenter

    assert charrestore.segment is segmenter.segment and charrestore.Segmenter is Segmenter


# --- the shipped models (models/<lang>/nb.*, in the repository) -------------------------------

@pytest.fixture(scope="module")
def shipped():
    return Segmenter.load("en")


@pytest.mark.parametrize("text, expected", [
    ("FollowFriday", "Follow Friday"),
    ("willaichangeourfuture", "will ai change our future"),
    ("thequickbrownfoxjumpsoverthelazydog", "the quick brown fox jumps over the lazy dog"),
    ("#ThrowbackThursday", "#Throwback Thursday"),
    ("iPhone6isgreat", "iPhone 6 is great"),
    ("eBaySale", "eBay Sale"),
    ("athree-dimensionalspace", "a three-dimensional space"),     # was "a three-dimension al space"
    ("theseptember-octobertermjury", "the september-october term jury"),  # was "these ptember-october ..."
])
def test_shipped_english_model(shipped, text, expected):
    assert shipped.segment(text) == expected


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(st.text(max_size=200), texty))
def test_shipped_model_only_inserts_spaces(shipped, text):
    out = shipped.segment(text)
    at = inserted(text, out)
    assert at is not None, (text, out)
    assert set(at) <= grapheme_starts(text) - {0, len(text)}


def test_shipped_model_one_pass_over_100k(shipped):
    text = "thefutureofartificialintelligence" * 3000   # ~100K chars, no space: one Viterbi pass
    out = shipped.segment(text)
    assert out.replace(" ", "") == text
    assert out.startswith("the future of artificial intelligence the future")


@pytest.mark.parametrize("lang, text, expected", [
    ("de", "neuesiPhonegekauft", "neues iPhone gekauft"), ("ru", "смотрелYouTubeвчера", "смотрел YouTube вчера"),
    ("ru", "#ЗаПутинаВсегда", "#За Путина Всегда"), ("fr", "#VivelaFrance", "#Vive la France")])
def test_shipped_counts_keep_a_mixed_case_word_whole(lang, text, expected):
    """Packs without hashtags of their own take the case evidence English hashtags chose (a bonus, not a forced
    cut: ``tune nb --case-evidence-from en``), so the counts keep a known mixed-case word whole; capitals still cut."""
    assert Segmenter.load(lang).segment(text) == expected


@pytest.mark.parametrize("lang, text, expected, without", [
    ("en", "shefinished1standhefinished2nd", "she finished 1st and he finished 2nd", "she finished 1 stand he finished 2nd"),
    ("en", "the3rdattemptcost5thousanddollars", "the 3rd attempt cost 5 thousand dollars", None),
    ("fr", "le1erjanvierdu19esiècle", "le 1er janvier du 19e siècle", "le 1 er janvier du 19 e siècle"),
    ("fr", "3enfantset2euros", "3 enfants et 2 euros", None)])
def test_a_packs_ordinal_suffixes_leave_the_cut_after_a_digit_to_the_counts(lang, text, expected, without):
    """en weighs a letter after a digit as a boundary (a bonus), fr forces one; where one of the pack's
    ``ordinal_suffixes`` starts, the counts decide: "1st and", "19e siècle", but still "5 thousand", "3 enfants"."""
    seg = Segmenter.load(lang)
    assert seg.segment(text) == seg.configured(**seg.prose_params).segment(text) == expected
    if without:
        assert seg.configured().ordinals([]).segment(text) == without


def test_shipped_gujarati_model():
    gu = Segmenter.load("gu")
    text = "ધારવાડજિલ્લોભારતદેશનાદક્ષિણભાગમાંઆવેલુંછે"
    out = gu.segment(text)
    assert out.replace(" ", "") == text and out.count(" ") >= 4
    assert out.startswith("ધારવાડ જિલ્લો ભારત")



@contextmanager
def blocks(size: int, margin: int):
    """Decode in blocks of ``size`` characters (the shipped block is far larger than any fixture text)."""
    saved = segmenter_module.BLOCK, segmenter_module.MARGIN
    segmenter_module.BLOCK, segmenter_module.MARGIN = size, margin
    try:
        yield
    finally:
        segmenter_module.BLOCK, segmenter_module.MARGIN = saved


@settings(max_examples=40, deadline=None)
@given(text=texty.map(lambda t: t * 30))
def test_blocked_decoding_keeps_the_contract(seg, text):
    """Long texts are decoded a block at a time (bounded memory): still only spaces, and only between graphemes."""
    with blocks(200, 40):
        out = seg.segment(text)
    at = inserted(text, out)
    assert at is not None and set(at) <= grapheme_starts(text)


def test_blocked_decoding_of_a_long_text(seg):
    text = "followfridaytheiphone" * 2000
    with blocks(1000, 100):
        blocked = seg.segment(text)
    assert blocked.replace(" ", "") == text
    assert blocked.split() == seg.segment(text).split()


# --- train nb: corpus weights (PATH@WEIGHT) ----------------------------------------------------

TEXTS = ROOT / "tests" / "fixtures" / "text"


def read_counts(folder: Path) -> tuple[dict, dict]:
    """(word -> count, "prev word" -> count) of a counts file written by train nb."""
    words, counts, contexts = counts_file.read(folder / "nb.counts")[:3]
    bigrams = {}
    for prev, raw in contexts.items():
        parts = raw.split(" ")
        bigrams.update({f"{prev} {w}": float(c) for w, c in zip(parts[::2], parts[1::2])})
    return dict(zip(words, counts.tolist())), bigrams


def train_nb(out: Path, *corpora: str):
    """train nb on ``corpora`` into ``out`` (the counts cache beside its parent): (counts, card)."""
    res = subprocess.run([sys.executable, "-m", "charrestore", "train", "nb", "--lang", "en", "--corpus", *corpora,
                          "--min-bigram-count", "1", "--cache", str(out.parent.parent / "cache"), "--out", str(out)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    return read_counts(out), json.loads((out / "nb.json").read_text(encoding="utf-8"))


def test_train_nb_corpus_weights(tmp_path):
    """PATH@WEIGHT multiplies that file's word and pair counts before they are summed; weight 0 leaves it out;
    the cached raw counts of a file serve every weight; the card records each source's weight."""
    en, other = str(TEXTS / "en.txt"), str(TEXTS / "nb_en.txt")
    (u1, b1), card1 = train_nb(tmp_path / "alone" / "en", en)
    (u2, b2), card2 = train_nb(tmp_path / "double" / "en", f"{en}@2.5", f"{other}@0")
    assert set(u2) == set(u1) and set(b2) == set(b1)
    assert all(u2[w] == pytest.approx(2.5 * c) for w, c in u1.items())
    assert all(b2[p] == pytest.approx(2.5 * c) for p, c in b1.items())
    assert card2["total"] == pytest.approx(2.5 * card1["total"])
    assert [(s["file"], s["weight"]) for s in card2["sources"]] == [("en.txt", 2.5), ("nb_en.txt", 0.0)]
    assert card2["sources"][1]["words"] > 0  # the raw count of the file, before its weight
    assert len(list((tmp_path / "cache").iterdir())) == 2  # one entry per file, whatever the weights

    from charrestore.packs import load_pack
    from charrestore.training.train_nb import count_corpora

    pack = load_pack("en")
    mixed = count_corpora([f"{en}@0.5", other], pack, None, str(tmp_path / "cache"), 0)
    alone = [count_corpora([path], pack, None, None, 0) for path in (en, other)]
    for k in (0, 1):  # unigrams, bigrams: the raw sums, before the joiner-free forms are added
        keys = set(alone[0][k]) | set(alone[1][k])
        assert set(mixed[k]) == keys
        assert all(mixed[k][w] == pytest.approx(0.5 * alone[0][k][w] + alone[1][k][w]) for w in keys)
    assert [s["weight"] for s in mixed[2]] == [0.5, 1.0]


def test_train_nb_weight_one_keeps_integer_counts(tmp_path):
    """Without weights (or at weight 1) the counts are the fixture's, byte for byte."""
    out = tmp_path / "en"
    res = subprocess.run([sys.executable, "-m", "charrestore", "train", "nb", "--lang", "en", "--corpus",
                          "tests/fixtures/text/en.txt@1", "tests/fixtures/text/nb_en.txt",
                          "--min-bigram-count", "1", "--L", "12", "--camel", "1", "--out", str(out)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    assert (out / "nb.counts").read_bytes() == (FIXTURE / "en" / "nb.counts").read_bytes()


# --- the engines' setting for running text (prose_params) ----------------------------------------------------

def test_train_nb_records_the_prose_setting(tmp_path):
    out = tmp_path / "en"
    res = subprocess.run([sys.executable, "-m", "charrestore", "train", "nb", "--lang", "en", "--corpus",
                          "tests/fixtures/text/en.txt", "--L", "12", "--smoothing", "8", "--prose", "20", "14",
                          "--out", str(out)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    card = json.loads((out / "nb.json").read_text(encoding="utf-8"))
    assert card["params"]["L"] == 12 and card["prose_params"] == {"L": 20, "smoothing": 14.0}
    general, prose = Segmenter.load("en", tmp_path), Segmenter.load("en", tmp_path, prose=True)
    assert (general.L, general.smoothing, prose.L, prose.smoothing) == (12, 8.0, 20, 14.0)
    assert prose._uni is general._uni  # one copy of the counts
    assert prose.camel == general.camel  # the boundary evidence is the card's one setting


def test_a_card_without_a_prose_setting_serves_prose_with_its_params(seg):
    prose = Segmenter.load("en", FIXTURE, prose=True)
    assert (prose.L, prose.smoothing, prose.camel) == (seg.L, seg.smoothing, seg.camel) and prose._uni is seg._uni


def test_tune_keeps_the_best_paragraph_setting_as_prose(seg):
    """The default params maximize the mean of hashtag exact match and paragraph F; ``prose`` is the grid point
    with the best paragraph F alone (the first such point: the shortest L, then the smallest λ)."""
    from charrestore.tuning.nb import tune

    sets = {"hashtags": [("FollowFriday", ["follow friday"]), ("thebus", ["the bus"])],
            "text": [("followfridayonthebusthefuture", ["follow friday on the bus the future"])]}
    grid = tune(seg, sets)["grid"]
    prose = tune(seg, sets)["choice"]["prose"]
    best = max(g["text"]["F"] for g in grid)
    first = next(g for g in grid if g["text"]["F"] == best)
    assert (prose["L"], prose["smoothing"], prose["text"]) == (first["L"], first["smoothing"], first["text"])


def test_the_engines_cut_running_text_with_the_prose_setting():
    from charrestore import Restorer

    prose = json.loads((ROOT / "models" / "en" / "nb.json").read_text(encoding="utf-8"))["prose_params"]
    seg = Restorer(lang="en", engine="pipeline").engine.segmenter()
    assert (seg.L, seg.smoothing) == (prose["L"], prose["smoothing"]) != (Segmenter.load("en").L,
                                                                            Segmenter.load("en").smoothing)


def test_spaced_input_never_reads_the_counts():
    """Start-up (issue 53): a Restorer checks the NB model's card and sha256 when it is built, but reads the counts
    only for the first unspaced input, which spaced input (the ASR case) never is."""
    code = ("from charrestore import Restorer\n"
            "from charrestore.segmenter import _load\n"
            "r = Restorer(lang='en')\n"
            "spaced = r('will ai change our future')\n"
            "print(_load.cache_info().currsize)\n"
            "r('willaichangeourfuture')\n"
            "print(_load.cache_info().currsize, spaced)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["0", "2 Will AI change our future?"]


FRENCH = {"l'homme": 30, "qu'il": 20, "inflation": 5, "insee": 2, "le": 60, "taux": 8, "il": 40, "à": 50, "jusqu'ici": 3}
ELIDED = Segmenter(FRENCH, {"le taux": 3}, L=12, smoothing=10.0).elide(["l'", "qu'", "jusqu'"])


@pytest.mark.parametrize("text, expected", [
    ("l'inflationletaux", "l'inflation le taux"),       # "l'inflation" unseen: the clitic and the word seen alone
    ("selonl'inseeletaux", "selon l'insee le taux"),
    ("l’inflation", "l’inflation"),                      # the typographic apostrophe elides too
    ("l'hommequ'il", "l'homme qu'il"),                   # seen whole: kept whole
    ("jusqu'àl'inflation", "jusqu'à l'inflation"),
])
def test_a_word_starts_after_an_elided_clitic(text, expected):
    assert ELIDED.segment(text) == expected


def test_elisions_change_nothing_without_an_apostrophe_and_never_add_a_space_after_one():
    """A clitic's P is that of the seen words it begins; the boundary after its apostrophe inserts nothing."""
    plain = Segmenter(FRENCH, {"le taux": 3}, L=12, smoothing=10.0)
    assert ELIDED.score("l'") == pytest.approx(plain.score("l'homme"))
    assert ELIDED.score("qu’") == ELIDED.score("qu'")
    for text in ("inflationletaux", "letauxinflation", "d'inflation"):  # "d'" is no clitic of these
        assert ELIDED.segment(text) == plain.segment(text)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="lqu'’ainflotxe ", max_size=40))
def test_elided_segmentation_only_inserts_spaces_and_never_after_an_apostrophe(text):
    cuts = ELIDED.cuts(text)
    assert all(text[k - 1] not in "'’" for k in cuts)
    assert ELIDED.segment(text).replace(" ", "") == text.replace(" ", "")


def test_the_french_pack_elides_in_the_shipped_counts():
    """The fr pack's ``elisions``: news words the novels' counts hold only alone ("l'inflation", "l'Insee")."""
    seg = Segmenter.load("fr", prose=True)
    assert seg.segment("selonl'inseeletauxdechômage") == "selon l'insee le taux de chômage"
    assert seg.segment("l'inflationrestaittropélevée") == "l'inflation restait trop élevée"

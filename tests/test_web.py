"""The offline page (web/index.html) in headless chromium: the char engine on onnxruntime-web restores as the
Python char engine does, loads nothing from off the machine, and still answers with the network off.

WebAssembly's int8 kernels round differently from the native ones, so rare near-ties flip (issue 52): the bars
are shares of equal lines and grapheme decisions, not identity. Set CHARRESTORE_WEB_SCREENSHOT=reports/web_page.png
to refresh the docs' screenshot.
"""

import json
import os
import re
import shutil
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from charrestore import Restorer, load_pack
from charrestore.codec import parse, render, strip_features
from charrestore.detect import Detector
from charrestore.packs import SPACE, available_packs

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CASES = json.loads((ROOT / "tests" / "golden" / "golden.json").read_text(encoding="utf-8"))["cases"]
TEXT = ROOT / "tests" / "fixtures" / "text"
FIXTURES = {"en": ["en.txt", "nb_en.txt"], "ja": ["ja.txt"], "gu": ["gu.txt"], "de": ["de.txt"], "ru": ["ru.txt"],
            "ko": ["ko.txt"], "es": ["es.txt"], "th": ["th.txt"], "fr": ["fr.txt"], "zh": ["zh.txt"], "vi": ["vi.txt"]}
# Equal lines per form, and per language at least GRAPHEMES of the grapheme decisions equal, no line off by more than
# WORST: issue 52's bars for en, ja and gu, on every CPU. The char models hold their int8 weights to 7 bits, so ONNX
# Runtime's integer GEMMs are exact on every kernel (VPMADDUBSW saturated with 8-bit weights on CPUs without VNNI:
# there en matched on 89% of lines); what still differs is float rounding around the GEMMs (docs/web.md).
BARS = {"en": 0.95, "ja": 0.99, "gu": 0.99, "de": 0.95, "ru": 0.95, "ko": 0.95, "es": 0.95, "th": 0.95, "fr": 0.95,
        "zh": 0.99, "vi": 0.95}
GRAPHEMES, WORST = 0.9995, 2
# every pack whose char model ships: a new one fails here until it has fixture text and a bar
SHIPPED = sorted(code for code in available_packs() if load_pack(code).ready("char"))


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site():
    """The repository root on a loopback static server (as `python -m http.server` serves it)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(ROOT)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


@pytest.fixture(scope="module")
def browser_page(site):
    if not os.access(CHROMIUM, os.X_OK) and not shutil.which("chromium"):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=args, headless=True)
        context = browser.new_context(viewport={"width": 1200, "height": 640})
        requests, errors = [], []
        # every request is recorded, and one that would leave the loopback server is refused
        context.route("**/*", lambda route: (requests.append(route.request.url),
                                             route.continue_() if route.request.url.startswith(site) else route.abort()))
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.goto(site + "web/index.html")
        page.wait_for_function("document.getElementById('fix-status').textContent.endsWith(' ms')", timeout=30000)
        yield page, context, requests, errors
        browser.close()


def web_restore(page, items, lang):
    """(text, spaces) items restored in the page, one Promise.all per language."""
    return page.evaluate("([items, lang]) => Promise.all(items.map(([text, spaces]) =>"
                         " window.charrestore.restore(text, {lang, spaces})))", [items, lang])


def unformatted(reference, pack, spaced):
    """A formatted line as model-style input: marks, mapped punctuation and case taken off, and spaces unless
    ``spaced``."""
    if not spaced:
        return strip_features(reference, pack)
    base, classes = parse(reference, pack)
    return render(base, classes & pack.bit(SPACE), pack)


def forms(lang):
    """(name, [(text, spaces)]) per input form of ``lang``: the golden char inputs (for en de-spaced and spaced
    "keep"; for ja and gu each with its golden spaces mode) and the fixture prose (tests/fixtures/text) unformatted,
    de-spaced and spaced, and (but for en) with every other space dropped and "restore" (spacing correction)."""
    pack = load_pack(lang)
    cases = [c for c in CASES if c["lang"] == lang and c["engine"] == "char" and c.get("segmenter", "auto") == "auto"]
    prose = [line for name in FIXTURES[lang] for line in (TEXT / name).read_text(encoding="utf-8").splitlines()
             if line.strip()]
    despaced = [(unformatted(line, pack, False), "auto") for line in prose]
    spaced = [(unformatted(line, pack, True), "keep") for line in prose] if pack.has_space else []
    if lang != "en":
        damaged = [("".join(w + (" " if k % 2 else "") for k, w in enumerate(text.split())).strip(), "restore")
                   for text, _ in spaced]
        return [("golden", [(c["input"], c["spaces"]) for c in cases]), ("prose", despaced + spaced + damaged)]
    inputs = sorted({c["input"] for c in cases})
    return [("despaced", sorted({(re.sub(r"\s+", "", t), "auto") for t in inputs}) + despaced),
            ("keep", [(t, "keep") for t in inputs if re.search(r"\s", t.strip())] + spaced)]


def agreement(lang, expected, got):
    """(equal lines, graphemes, equal grapheme decisions, the most graphemes any line is off by)."""
    pack = load_pack(lang)
    equal_lines = graphemes = equal = worst = 0
    for a, b in zip(expected, got):
        base_a, cls_a = parse(a, pack, apply_map=False)
        base_b, cls_b = parse(b, pack, apply_map=False)
        assert base_a == base_b, (a, b)  # nothing but marks, spaces and case ever differs
        off = int((cls_a != cls_b).sum())
        equal_lines += a == b
        graphemes += len(base_a)
        equal += len(base_a) - off
        worst = max(worst, off)
    return equal_lines, graphemes, equal, worst


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_page_restores_as_the_python_char_engine(browser_page, lang):
    page, _, _, errors = browser_page
    python = {mode: Restorer(lang=lang, engine="char", spaces=mode) for mode in ("auto", "keep", "restore")}
    graphemes = equal = 0
    for name, items in forms(lang):
        expected = [python[spaces](text) for text, spaces in items]
        got = web_restore(page, items, lang)
        lines, n, same, worst = agreement(lang, expected, got)
        assert lines >= BARS[lang] * len(items), f"{lang} {name}: {lines}/{len(items)} lines equal"
        assert worst <= WORST, f"{lang} {name}: a line is off by {worst} graphemes"
        graphemes, equal = graphemes + n, equal + same
    assert equal >= GRAPHEMES * graphemes, f"{lang}: {equal}/{graphemes} grapheme decisions equal"
    assert errors == []


def test_every_shipped_char_model_has_page_fixtures_and_a_bar():
    assert set(FIXTURES) == set(BARS) == set(SHIPPED)


def test_the_page_keeps_abbreviations_as_python_does(browser_page):
    """The pack's abbreviations typed with their marks keep the input's case in the page too ("e.g.", not "E.G.")."""
    page, *_ = browser_page
    items = [("we use many tools e.g. python and java etc. but not rust i.e. the new one vs. the old one", "keep"),
             ("e.g. this works and vs. that one", "keep")]
    got = web_restore(page, items, "en")
    python = Restorer(lang="en", engine="char", spaces="keep")
    assert got == [python(text) for text, _ in items]
    assert all("e.g." in out.lower() and "E.G." not in out and "e.G." not in out for out in got)


def test_the_page_corrects_spacing_with_the_nb_segmenter_as_python_does(browser_page):
    """``restore`` on spaced ru text: the page's NB segmenter weighs the typed spaces as Python's does (its card's
    prose ``given_space``, ``given_join``): "он и" stays apart, where the counts alone join "они"."""
    page, _, _, errors = browser_page
    items = [("теперь он и мне доверять не будет", "restore"), ("старик проворчал себе что-то под нос", "restore")]
    python = Restorer(lang="ru", engine="char", spaces="restore")
    got = web_restore(page, items, "ru")
    assert got == [python(text) for text, _ in items] and "он и мне" in got[0]
    assert errors == []


def test_the_page_keeps_tags_and_mentions_words_of_their_own_as_python_does(browser_page):
    """Restored spaces around a "#tag" or "@mention" (spaced and unspaced input), in the page as in Python; an
    emoticon is an emoji, a command line's option is code (spans.js)."""
    page, _, _, errors = browser_page
    items = [("i love #throwbackthursday and @john_doe too", "restore"), ("ilove#tbt", "auto"),
             ("i miss you <3 see you xD so :-D", "auto"), ("use the -v flag or --dry-run first", "auto")]
    python = {m: Restorer(lang="en", engine="char", spaces=m) for m in ("restore", "auto")}
    got = web_restore(page, items, "en")
    assert got == [python[m](text) for text, m in items] and " #" in got[0] and " @" in got[0] and " #" in got[1]
    assert " <3 " in got[2] and " xD " in got[2] and " -v " in got[3] and " --dry-run " in got[3], got[2:]
    assert errors == []


def test_the_page_spaces_quotes_brackets_and_long_numbers_as_python_does(browser_page):
    """Beside an unread quote or bracket a required space stays and an opener takes no space from the word before
    it (char_symbols.py, unread.js); a long number takes the pack's thousands separator (digit_groups.js); German
    ‚…‘ pairs up (spans.js); a phone number typed in groups takes no mark between them."""
    page, _, _, errors = browser_page
    items = [("er sagte„ hallo“ und ging", "keep"), ('er sagte " 50% davon"', "restore"),
             ("eskostet2500000euroundnicht19451946", "auto"), ("die kosten 0% )0 sind", "restore"),
             ("ersagte‚hallo‘undging", "auto"), ("rufen sie 030 1234 5678 oder +49 30 1234567 an", "auto")]
    python = {m: Restorer(lang="de", engine="char", spaces=m) for m in ("keep", "restore", "auto")}
    got = web_restore(page, items, "de")
    assert got == [python[m](text) for text, m in items]
    assert "sagte„" in got[0] and "2 500 000" in got[2] and " ‚Hallo‘ " in got[4]
    assert " 030 1234 5678 " in got[5] and " +49 30 1234567" in got[5]
    assert errors == []


def page_langs() -> list[str]:
    """The page's language menu (web/app.js ``LANGS``), in its order."""
    listed = re.search(r"const LANGS = \{([^}]*)\}", (ROOT / "web" / "app.js").read_text(encoding="utf-8")).group(1)
    return re.findall(r"(\w+):", listed)


def test_the_page_reads_text_typed_without_diacritics_as_python_does(browser_page):
    """vi typed without its tone marks, and es without its accents, are segmented with the packs' counts made plain
    (plain_letters.js), and marked text as before."""
    page, _, _, errors = browser_page
    items = [("homnaytroidepquatoididuvoibanbe", "auto"), ("#chucmungnammoi", "auto"), ("hômnaytrờiđẹpquá", "auto"),
             ("toi la sinhvien daihoc bachkhoa", "restore")]
    python = {m: Restorer(lang="vi", engine="char", spaces=m) for m in ("auto", "restore")}
    got = web_restore(page, items, "vi")
    assert got == [python[m](text) for text, m in items]
    assert "troi dep qua" in got[0].lower() and got[1] == "#ChucMungNamMoi"
    items = [("quehacesmananaenelcampo", "auto"), ("#felizcumpleanosamigo", "auto"), ("elniñoqueríajugar", "auto"),
             ("dondeestaelbano", "auto"), ("cuantos anos tienes", "auto"), ("quehacesmañanaconelniño", "auto")]
    es = Restorer(lang="es", engine="char", spaces="auto")  # es counts made plain, and read with accents (accents.js)
    got = web_restore(page, items, "es")
    assert got == [es(text) for text, _ in items]
    assert got[3].startswith("¿") and got[4].endswith("?")
    items = [("jenesaispascequetuveuxdire", "auto"), ("ou est la gare", "restore"), ("l'ete a paris", "auto")]
    fr = {m: Restorer(lang="fr", engine="char", spaces=m) for m in ("auto", "restore")}
    assert web_restore(page, items, "fr") == [fr[m](text) for text, m in items]
    assert errors == []


def test_the_page_lists_every_pack_with_a_shipped_char_model():
    """The page's language menu (web/app.js) is the packs whose char model ships, no more and no fewer."""
    assert set(page_langs()) == set(SHIPPED)


def test_the_page_detects_languages_as_python_does(browser_page):
    """src/detect.js reads models/detect/detect.npz as charrestore/detect.py does: the same language for every
    line (written, de-spaced, its first 12 and 25 letters; plain and with English preferred, as auto:en), and
    ``lang: "auto"`` restores a line as its pack does."""
    page, _, _, errors = browser_page
    detector = Detector.load()
    among = [lang for lang in page_langs() if lang in detector.languages]
    lines = ["", "das", "gracias", "🙂 12345", "東京都千代田区", "ΣΊΣΥΦΟΣ", "x" * 20000]
    for lang in SHIPPED:
        pack = load_pack(lang)
        prose = [line for name in FIXTURES[lang] for line in (TEXT / name).read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        for line in prose[:5]:
            despaced = unformatted(line, pack, False)
            lines += [line, despaced, despaced[:12], despaced[:25]]
    got = page.evaluate("(lines) => Promise.all(lines.map(async (t) => [await window.charrestore.detect(t),"
                        " await window.charrestore.detect(t, {prefer: 'en'})]))", lines)
    assert got == [[detector.detect(t, among), detector.detect(t, among, prefer="en")] for t in lines]
    assert {plain for plain, _ in got} >= set(SHIPPED)  # every pack named somewhere
    text = unformatted((TEXT / "de.txt").read_text(encoding="utf-8").splitlines()[0], load_pack("de"), False)
    assert web_restore(page, [(text, "auto")], "auto") == [Restorer(lang="de", engine="char")(text)]
    assert errors == []


@pytest.mark.parametrize("lang", ["es", "fr", "ja", "en"])
def test_the_page_codec_reads_and_renders_as_python_does(browser_page, lang):
    """Every pack's typography is the codec's, in the page too: a mark that opens a span ("¿", es), the space a mark
    takes before it ("?", fr). User input parsed and rendered back with some features added, in both codecs."""
    page, *_ = browser_page
    pack = load_pack(lang)
    texts = [line for line in (TEXT / f"{lang}.txt").read_text(encoding="utf-8").splitlines() if line.strip()]
    texts += ["¿Qué? Hola, ¿tienes tiempo mañana?", "Quoi ? Oui.\u00a0Non ?", "hola ¿", "a ¿¿b c ?? d", ""]
    got = page.evaluate("""async ([lang, texts]) => {
        const { LanguagePack } = await import("./src/pack.js");
        const { parse, render } = await import("./src/codec.js");
        const pack = LanguagePack.fromToml(await (await fetch(`../languages/${lang}/pack.toml`)).text());
        return texts.map((t) => { const { base, classes } = parse(t, pack);
                                  return [base, Array.from(classes), render(base, classes, pack)]; });
    }""", [lang, texts])
    for text, (base, classes, rendered) in zip(texts, got):
        b, c = parse(text, pack, apply_map=False)
        assert (base, classes, rendered) == (b, c.tolist(), render(b, c, pack)), text


def test_a_long_text_is_restored_in_pieces_as_python_does(browser_page):
    """Past 69,632 characters Python restores a text in pieces with context (long_text.py), and so does the page:
    its windows, and so its decisions, are Python's."""
    page, *_ = browser_page
    pack = load_pack("en")
    prose = " ".join(line for name in FIXTURES["en"] for line in (TEXT / name).read_text(encoding="utf-8").splitlines())
    text = unformatted(" ".join([prose] * 90), pack, False)
    assert len(text) > 70_000
    [got] = web_restore(page, [(text, "auto")], "en")
    lines, graphemes, equal, worst = agreement("en", [Restorer(lang="en", engine="char")(text)], [got])
    assert equal >= GRAPHEMES * graphemes, f"{equal}/{graphemes} grapheme decisions equal"


def test_nothing_leaves_loopback_and_it_answers_offline(browser_page, site, tmp_path):
    page, context, requests, errors = browser_page
    for lang in ("en", "ja", "gu", "de"):  # every model loaded (and en's and de's NB counts) while online
        web_restore(page, [("hello world", "auto"), ("helloworld", "auto")], lang)
    context.set_offline(True)
    try:
        for lang, text in (("en", "willaichangeourfuture"), ("ja", "これは何ですか"), ("gu", "તમે કેમ છો")):
            assert web_restore(page, [(text, "auto")], lang) == [Restorer(lang=lang, engine="char")(text)]
        assert requests and all(url.startswith(site) for url in requests), [u for u in requests if not u.startswith(site)]
        page.select_option("#lang", "auto")  # the page's default: the detector was loaded with the page
        text = "gutenabendmeinedamenundherrenwiegehtesihnenheute"
        page.fill("#input", text)
        shown = Restorer(lang="de", engine="char")(text)
        page.wait_for_function("(text) => document.getElementById('output').textContent === text", arg=shown)
        status = page.text_content("#fix-status")
        assert status.startswith("detected German") and status.endswith(" ms")
        assert page.text_content("#model").startswith("· de char model") and "MB" in page.text_content("#model")
        page.screenshot(path=os.environ.get("CHARRESTORE_WEB_SCREENSHOT", str(tmp_path / "web_page.png")))
    finally:
        context.set_offline(False)
    assert errors == []


def test_the_page_restores_apostrophes_as_python_does(browser_page):
    page, *_ = browser_page
    cases = [("i cant believe its not there im sure well see", "keep"), ("icantbelieveitsnotthere", "auto"),
             ("it's here and its fine", "auto")]  # the last writes its own apostrophes: kept as they are
    python = Restorer(lang="en", engine="char")
    got = web_restore(page, cases, "en")
    assert got == [python(text, spaces=spaces) for text, spaces in cases]
    assert "can't" in got[0] and "it's" in got[0].lower() and "its fine" in got[2]
    cases = [("cest la vie et jai faim", "keep"), ("ilnestpasvenuaujourdhui", "auto")]  # fr's elisions, the same step
    fr = Restorer(lang="fr", engine="char")
    got = web_restore(page, cases, "fr")
    assert got == [fr(text, spaces=spaces) for text, spaces in cases] and "'" in got[0] and "'" in got[1]


def test_the_page_refuses_an_unknown_language_and_spaces_mode(browser_page):
    page, *_ = browser_page
    for options in ({"lang": "xx"}, {"lang": "en", "spaces": "sometimes"}):
        message = page.evaluate("(o) => window.charrestore.restore('hi', o).then(() => '', (e) => e.message)", options)
        assert message, options


def test_the_page_elides_french_clitics_as_python_does(browser_page):
    """The fr pack's ``elisions``: the page's NB segmenter finds "l'inflation" and "l'Insee", which the novels'
    counts hold only as "inflation" and "insee", as Python's does, and puts no space after the apostrophe."""
    page, _, _, errors = browser_page
    items = [("selonl'inseeletauxdechômageabaissé", "auto"), ("l'inflationrestaittropélevéejusqu'àjeudi", "auto"),
             ("qu’ilsagissedelavied’unarchitecte", "auto")]  # "’", which the model lacks, read as "'"
    python = Restorer(lang="fr", engine="char", spaces="auto")
    got = web_restore(page, items, "fr")
    assert got == [python(text) for text, _ in items]
    assert "l'insee le taux" in got[0].lower() and got[1].lower().startswith("l'inflation restait")
    assert "d’un architecte" in got[2] and "’ " not in got[2]
    assert errors == []


def test_the_page_leaves_the_cut_before_an_ordinal_suffix_to_the_counts_as_python_does(browser_page):
    """The packs' ``ordinal_suffixes``: the page's NB segmenter finds "1st and" and "19e siècle", as Python's does."""
    page, _, _, errors = browser_page
    cases = {"en": [("shefinished1standhefinished2nd", "auto")], "fr": [("le1erjanvierdu19esiècle", "auto")]}
    for lang, items in cases.items():
        got = web_restore(page, items, lang)
        assert got == [Restorer(lang=lang, engine="char", spaces=spaces)(text) for text, spaces in items]
        assert ("1st" in got[0] and "stand" not in got[0]) if lang == "en" else ("19e siècle" in got[0])
    assert errors == []


def test_the_page_reads_unspaced_text_with_its_apostrophes_back_as_python_does(browser_page):
    """Unspaced text without apostrophes: the NB segmenter's words take theirs before the char model reads them
    (apostrophes.js ``apostrophesBefore``), as in Python: "à l'école", not "à L'école"; text typed without accents
    reads the counts made plain (``madePlain``)."""
    page, _, _, errors = browser_page
    outs = {}
    for lang, items in {"fr": [("lesenfantsnontpasmangéàlécole", "auto"), ("lhomme https://x.fr/lhomme", "restore"),
                               ("cetaitsuperhierjetaisalecole", "auto"), ("jespere que tu vas bien", "keep"),
                               ("leprojetdeloisurlimmigration", "auto")],
                        "en": [("icantbelieveitsalreadyfriday", "auto")]}.items():
        outs[lang] = web_restore(page, items, lang)
        assert outs[lang] == [Restorer(lang=lang, engine="char", spaces=spaces)(text) for text, spaces in items]
    assert "à l'école" in outs["fr"][0] and "can't" in outs["en"][0] and "it's" in outs["en"][0]
    assert "j'etais" in outs["fr"][2] and "J'espere" in outs["fr"][3]  # typed without accents: the counts made plain
    assert "l'immigration" in outs["fr"][4]  # a clitic cut off alone takes its apostrophe
    assert errors == []


def test_the_page_puts_no_capital_after_a_comma_on_a_common_word_as_python_does(browser_page):
    """fr's card ``common_words``: "vie, J'ai" is a sentence start or no capital, on the page as in Python."""
    page, _, _, errors = browser_page
    items = [("cestlaviejaifaimilnestpasvenuaujourdhui", "auto"), ("merci pour ton message je te rappelle demain", "auto")]
    python = Restorer(lang="fr", engine="char", spaces="auto")
    got = web_restore(page, items, "fr")
    assert got == [python(text) for text, _ in items]
    assert not any(re.search(r", (J'ai|Il|Je)\b", out) for out in got)
    assert errors == []


def test_the_page_weighs_the_last_mark_by_its_sentences_first_word_as_python_does(browser_page):
    """de's and ru's ``sentence_openers``: a short question typed alone ends with "?", on the page as in Python; an
    unknown sign before the opener is no letter of it."""
    page, _, _, errors = browser_page
    cases = {"de": [("was machst du heute abend", "auto"), ("ich gehe heute ins kino. warum kommst du nicht mit", "auto"),
                    ("wasmachstduheuteabend", "auto")],
             "ru": [("почему он не пришел вчера", "auto"), ("«почему он не пришел вчера»", "auto"),
                    ("почему он не пришел вчера", "keep")]}
    for lang, items in cases.items():
        python = [Restorer(lang=lang, engine="char", spaces=spaces) for _, spaces in items]
        got = web_restore(page, items, lang)
        assert got == [r(text) for r, (text, _) in zip(python, items)]
        assert all(out.rstrip("»").endswith("?") for out in got)
    assert errors == []


def test_the_page_reads_typed_quotes_and_possessives_as_python_does(browser_page):
    """An apostrophe that stands between two words in unspaced text (quote_apostrophes.js): the page's NB segmenter
    puts the space before an opening quote and after a closing one or a plural's possessive, as Python's does."""
    page, _, _, errors = browser_page
    items = [("beatinganalysts'expectations", "auto"), ("shesaid'helloeveryone'andleft", "auto"),
             ("idon'tknowwhatyou'vedone", "auto"), ("checkouthttp://example.com/analysts'expectations", "auto")]
    python = Restorer(lang="en", engine="char", spaces="auto")
    got = web_restore(page, items, "en")
    assert got == [python(text) for text, _ in items]
    assert "analysts' expectations" in got[0].lower() and " 'hello" in got[1].lower() and "everyone'" in got[1].lower()
    assert "http://example.com/analysts'expectations" in got[3]  # a link takes no space
    assert errors == []


def test_the_page_restores_the_spaces_of_run_together_spaced_text_as_python_does(browser_page):
    """``auto`` on spaced text with a word longer than the pack's ``longest_word`` restores its spaces (long_text.js
    ``runsTogether``; digits may stand in it, but not in a code with capitals); without one it keeps them."""
    page, _, _, errors = browser_page
    items = [("ichhabeheutemorgeneinenkaffeegetrunken und dann", "auto"), ("ich habe heute morgen kaffee", "auto"),
             ("amerstenjanuarhabeichheutemorgenumachtuhr2kaffeesgetrunken und", "auto"),
             ("der code dGhpc2lzYXZlcnlsb25nc3RyaW5nZGFzaXN0ZWluZ2FuegxhbmdlcyB3b3J0 gilt", "auto")]
    python = Restorer(lang="de", engine="char", spaces="auto")
    got = web_restore(page, items, "de")
    assert got == [python(text) for text, _ in items]
    assert "heute Morgen" in got[0] and got[1] == Restorer(lang="de", engine="char", spaces="keep")(items[1][0])
    assert "2 Kaffees" in got[2] and got[3] == Restorer(lang="de", engine="char", spaces="keep")(items[3][0])
    assert errors == []


def test_the_page_writes_abbreviations_as_the_pack_lists_them_as_python_does(browser_page):
    """A pack's ``abbreviation_forms``: the page writes "zb" and "z b" as "z. B.", and "eeuu" as "EE. UU.", as
    Python's char engine does; an abbreviation typed with its marks stays as typed."""
    page, _, _, errors = browser_page
    cases = {"de": [("laut dr müller kostet das u a rund 5 mio euro z b für schulen", "keep"),
                    ("dasistzbeinbeispielmit5mioeuro", "auto"), ("das ist z.b. so", "keep")],
             "es": [("el sr garcía viajó a eeuu el lunes", "keep"), ("viajóaeeuuconlasralópez", "auto")]}
    for lang, items in cases.items():
        python = {mode: Restorer(lang=lang, engine="char", spaces=mode) for mode in ("auto", "keep")}
        got = web_restore(page, items, lang)
        assert got == [python[spaces](text) for text, spaces in items]
    assert errors == []


def test_the_page_joins_numbers_across_a_joining_unit_as_python_does(browser_page):
    """A pack's ``joining_units`` (units.js): "10 h 30", "14 Uhr 30" and "1er janvier 2024" take no mark between, as
    in Python."""
    page, _, _, errors = browser_page
    for lang, items in {"fr": [("letrainpartà10h30demainmatin", "auto"), ("il a 3 kg 5 kg et 10 h 30", "keep")],
                        "de": [("wir treffen uns um 14 uhr 30 im rathaus", "keep")]}.items():
        python = {mode: Restorer(lang=lang, engine="char", spaces=mode) for mode in ("auto", "keep")}
        got = web_restore(page, items, lang)
        assert got == [python[spaces](text) for text, spaces in items]
        assert all(" 30" in out and ", 30" not in out for out in got), got
    dates = [("le1erjanvier2024", "auto"), ("le 1er janvier 2024 il a plu", "keep")]  # "1er": an ordinal (units.js)
    got = web_restore(page, dates, "fr")
    assert got == [Restorer(lang="fr", engine="char", spaces=spaces)(text) for text, spaces in dates]
    assert all("1er janvier 2024" in out for out in got), got
    assert errors == []


def test_the_page_writes_days_and_months_small_inside_a_sentence_as_python_does(browser_page):
    """A pack's ``small_words`` (small_words.js): the models' "a rencontré Mardi", "aprobó el Martes" come out small,
    a sentence's first word and a typed capital keep theirs, as in Python."""
    page, _, _, errors = browser_page
    cases = {"fr": [("le président a rencontré mardi à paris le chancelier", "keep"),
                    ("ilviendralundietrepartirasamedienjuillet", "auto"), ("mardi il pleut Mardi", "keep")],
             "es": [("elgobiernoaprobóelmartesunnuevoplandevivienda", "auto")]}
    for lang, items in cases.items():
        python = {mode: Restorer(lang=lang, engine="char", spaces=mode) for mode in ("auto", "keep")}
        got = web_restore(page, items, lang)
        assert got == [python[spaces](text) for text, spaces in items]
        small = [out for out, (text, _) in zip(got, items) if "Mardi" not in text]
        assert small and not any(w in out for out in small for w in ("Mardi", "Lundi", "Martes")), got
    assert web_restore(page, cases["fr"][2:], "fr")[0].count("Mardi") == 2
    assert errors == []


def test_the_page_writes_demonyms_small_where_they_are_adjectives_as_python_does(browser_page):
    """A pack's ``[demonyms]`` (small_words.js): the models' "le président Américain", "presidente Estadounidense"
    come out small, a noun after a determiner ("les Anglais", "l'Allemand") and es names ("la Unión Europea") keep
    their capitals, as in Python."""
    page, _, _, errors = browser_page
    cases = {"fr": [("leprésidentaméricainarencontrélechancelier", "auto"),
                    ("le jeune anglais parlait à l'allemand en anglais", "keep")],
             "es": [("elpresidenteestadounidensesereunióconelcanciller", "auto"),
                    ("elacuerdodelaunióneuropeaconmarruecos", "auto")]}
    for lang, items in cases.items():
        python = {mode: Restorer(lang=lang, engine="char", spaces=mode) for mode in ("auto", "keep")}
        got = web_restore(page, items, lang)
        assert got == [python[spaces](text) for text, spaces in items]
        if lang == "es":
            assert "estadounidense" in got[0] and "Unión Europea" in got[1], got
        else:
            assert "président américain" in got[0] and "jeune Anglais" in got[1] and "l'Allemand" in got[1], got
    assert errors == []


def test_the_page_writes_a_proper_lists_small_words_small_as_python_does(browser_page):
    """The words de's list of proper forms marks small (proper_case.js, small_words.js): the model's "Scholz Traf"
    comes out "Scholz traf", a sentence's first word keeps its capital, as in Python."""
    page, _, _, errors = browser_page
    items = [("bundeskanzlerolafscholztrafammontagdenpräsidenten", "auto"),
             ("bundeskanzler olaf scholz traf am montag den präsidenten. traf er ihn", "keep")]
    python = {mode: Restorer(lang="de", engine="char", spaces=mode) for mode in ("auto", "keep")}
    got = web_restore(page, items, "de")
    assert got == [python[spaces](text) for text, spaces in items]
    assert all("Scholz traf am Montag" in out for out in got) and "Traf er" in got[1], got
    assert errors == []


def test_the_page_writes_no_comma_between_a_given_name_and_a_surname_as_python_does(browser_page):
    """The fr list's given names (proper_case.js ``namesGoOn``): the model's "Emmanuel, Macron" and "Olaf, Scholz"
    lose the comma, a list of names keeps its commas, as in Python."""
    page, _, _, errors = browser_page
    items = [("le président emmanuel macron a rencontré le chancelier olaf scholz", "keep"),
             ("leprésidentemmanuelmacronarencontrélechancelierolafscholz", "auto"),
             ("marie pierre et jacques sont venus", "keep")]
    python = {mode: Restorer(lang="fr", engine="char", spaces=mode) for mode in ("auto", "keep")}
    got = web_restore(page, items, "fr")
    assert got == [python[spaces](text) for text, spaces in items]
    assert all("Emmanuel Macron" in out and "Olaf Scholz" in out for out in got[:2]), got
    assert errors == []


def test_the_page_writes_a_packs_spellings_as_python_does(browser_page):
    """A pack's ``spellings`` ("ChatGPT"): written as listed, beside an apostrophe's clitic too ("OpenAI's"), and
    words of the NB segmenter in unspaced text (pack.js, abbreviation_forms.js, segmenter.js ``know``), as in
    Python."""
    page, _, _, errors = browser_page
    cases = {"en": [("we use chatgpt and pytorch on macos", "keep"), ("iusechatgpteveryday", "auto"),
                    ("openai's ceo likes chatgpt", "keep")],
             "de": [("ichbenutzechatgptjedentag", "auto")], "fr": [("le pdg d'openai et chatgpt", "keep")]}
    for lang, items in cases.items():
        python = {mode: Restorer(lang=lang, engine="char", spaces=mode) for mode in ("auto", "keep")}
        got = web_restore(page, items, lang)
        assert got == [python[spaces](text) for text, spaces in items]
        assert all("ChatGPT" in out for out in got), got
    assert errors == []


def test_the_page_marks_no_letter_inside_a_unit_as_python_does(browser_page):
    """en's char model wrote "3 p.m" for "3 pm": a unit's letters take the marks of its listed spelling ("p.m.") and
    no other (units.js), as in Python."""
    page, _, _, errors = browser_page
    items = [("the meeting is at 3 pm tomorrow", "keep"), ("letsdoittomorrowat3pm", "auto")]
    python = {mode: Restorer(lang="en", engine="char", spaces=mode) for mode in ("auto", "keep")}
    got = web_restore(page, items, "en")
    assert got == [python[spaces](text) for text, spaces in items]
    assert all("3 p.m." in out for out in got), got
    assert errors == []


def test_the_page_ends_a_sentence_on_a_percent_or_currency_sign_as_python_does(browser_page):
    """An input ending in "%" or "€" takes a final mark (clusters.js ``endsSentenceOn``), and a unit of two words
    binds to its number ("5 por ciento", units.js), in the page as in Python."""
    page, _, _, errors = browser_page
    items = [("el paro bajó un 2 %", "keep"), ("elparobajóun2%", "auto"), ("cuesta 5 €", "keep"),
             ("elpreciosubióun5porcientoayer", "auto"), ("el precio subió un 5 por ciento", "keep")]
    python = {mode: Restorer(lang="es", engine="char", spaces=mode) for mode in ("auto", "keep")}
    got = web_restore(page, items, "es")
    assert got == [python[spaces](text) for text, spaces in items]
    assert all(out.endswith(".") for out in got) and all("5 por ciento" in out for out in got[3:]), got
    assert errors == []


def test_the_page_keeps_words_of_one_source_as_python_does(browser_page):
    """Where NB's soft spaces and the model's own cut a word apart in different places, the page takes one side's
    words as Python does (char_words.py, decode.js ``oneSource``): ru "в четверг утвердило", not "четвергутвердило"."""
    page, _, _, errors = browser_page
    items = [("правительствороссиивчетвергутвердилоновыйбюджет", "auto"), ("вчетвергутвердило", "auto")]
    python = Restorer(lang="ru", engine="char", spaces="auto")
    got = web_restore(page, items, "ru")
    assert got == [python(text) for text, _ in items]
    assert all("четвергутвердило" not in out.lower() for out in got), got
    assert errors == []

"""Protected spans (URLs, e-mails, mentions, tags, numbers, emoji, code) come out byte-identical; hashtag modes."""

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from charrestore import Restorer
from charrestore.cli import main
from charrestore.codec import base_text
from charrestore.hashtags import camel, segments, split_text
from charrestore.packs import load_pack
from charrestore.segmenter import Segmenter
from charrestore import spans
from charrestore.spans import find

EN = load_pack("en")
ENGINES = ("char", "pipeline")

POSITIVE = [
    ("see https://example.com/a_b?id=3 now", "url", "https://example.com/a_b?id=3"),
    ("at HTTPS://X.ORG/A.", "url", "HTTPS://X.ORG/A"),
    ("go to www.example.co.uk, then", "url", "www.example.co.uk"),
    ("visit example.com/path?x=1. ok", "url", "example.com/path?x=1"),
    ("今日はhttps://example.com/aを見ました", "url", "https://example.com/a"),
    ("glued checkwww.site.io/x", "url", "www.site.io/x"),
    ("mail jane.doe@example.org, thanks", "email", "jane.doe@example.org"),
    ("ping @jane_doe now", "mention", "@jane_doe"),
    ("followme@jane_doecheckhttps://x.com", "mention", "@jane_doecheck"),
    ("love #throwbackthursday", "hashtag", "#throwbackthursday"),
    ("buy $AAPL today", "cashtag", "$AAPL"),
    ("it costs $1,000 now", "number", "$1,000"),
    ("about 3.5 million", "number", "3.5"),
    ("open 24/7 here", "number", "24/7"),
    ("meet at 9:30am ok", "number", "9:30am"),
    ("up 50% today", "number", "50%"),
    ("version v2.0.1 fixes", "number", "v2.0.1"),
    ("it was in24/7trading", "number", "24/7"),
    ("at 3pm then", "number", "3pm"),
    ("so funny 😂😂 really", "emoji", "😂😂"),
    ("thumbs 👍🏽 up", "emoji", "👍🏽"),
    ("i miss you <3 so", "emoji", "<3"), ("great :-D see", "emoji", ":-D"), ("lol xD. ok", "emoji", "xD"),
    ("wink ;) bye", "emoji", ";)"), ("sad :'( today", "emoji", ":'("), ("yay ^_^", "emoji", "^_^"),
    ("so tired -_- now", "emoji", "-_-"), ("hmm :/ no", "emoji", ":/"),
    ("i write C++ daily", "code", "C++"),
    ("run /usr/bin/python3 now", "code", "/usr/bin/python3"),
    ("edit src/main.py first", "code", "src/main.py"),
    ("call foo() twice", "code", "foo()"),
    ("set my_var to one", "code", "my_var"),
    ("use the -v flag", "code", "-v"), ("run rm -rf now", "code", "-rf"), ("pass --out=x.txt.", "code", "--out=x.txt"),
    ("try --dry-run first", "code", "--dry-run"),
]
NEGATIVE = ["e.g. this", "the U.S. economy", "and/or that", "in 1969 he", "end.Then it", "well-known don't",
            "it is 3 or 4", "hello world", "a # sign", "an @ sign", "costs $ more", "mr. smith", "covid19 news",
            "wait... what", "the mp3 file", "see you at noon", "the xDNA kit", "rate:D here", "if a<3 then",
            "is 3 <4", "a -yes b", "ein- und aus", "it was -5 today", "- yes", "x -förmig", "co-op", "-- so"]


PIECES = list("abcXYZ019 _-.@#$€/:~+%()\\'’\u0301²٣ⅷ") + [
    "http://", "https://", "www.", "ftp://", ".com", ".py", "C++", "c#", "😀", "🇮🇪", "\u200d", "x_y", "v2", "3pm",
    "HTTP://", "WwW.", "é", "ß", "a()", "C:\\x", "jo@x.org", "F#", "1,000", "$5", "10:30", " <3", " :)", " xD",
    ";-P", "^_^", "-_-", " -v", " --x", "-", "="]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join) | st.text(max_size=40))
def test_the_gate_changes_no_match(text):
    """The gate in front of the alternatives only skips positions where none of them can match."""
    ungated = regex.compile(spans._ALTERNATIVES, regex.VERBOSE)
    assert [(m.span(), m.lastgroup) for m in spans._PATTERN.finditer(text)] == \
        [(m.span(), m.lastgroup) for m in ungated.finditer(text)]


@pytest.mark.parametrize("text,kind,span", POSITIVE)
def test_finds_the_span(text, kind, span):
    assert (kind, span) in [(s.kind, s.text) for s in find(text)]


@pytest.mark.parametrize("text", NEGATIVE)
def test_prose_is_no_span(text):
    assert find(text) == []


# --- generated spans in random prose, through both shipped engines ------------------------

WORDS = ("the", "we", "will", "see", "you", "at", "my", "friend", "said", "it", "is", "great", "and", "check",
         "this", "out", "please", "call", "me", "new", "price", "today", "what", "do", "think", "about")
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_label = st.text(_ALNUM, min_size=1, max_size=8)
_tld = st.sampled_from(["com", "org", "net", "io", "co.uk", "de", "COM"])
_path = st.lists(st.text(_ALNUM + "_-", min_size=1, max_size=6).filter(lambda p: p[-1].isalnum()), max_size=3)


def _urls(schemes):
    return st.builds(lambda scheme, label, tld, path, query: f"{scheme}{label}.{tld}" + "".join("/" + p for p in path)
                     + query, st.sampled_from(schemes), _label, _tld, _path, st.sampled_from(["", "?id=3", "?a=B&c=1", "#top"]))


urls = _urls(["https://", "http://", "www.", "HTTPS://", ""])
dollars = st.builds(lambda a, b: f"${a},{b:03d}", st.integers(1, 999), st.integers(0, 999))
emails = st.builds(lambda user, sep, host, tld: f"{user}{sep}{user[::-1]}@{host}.{tld}", _label,
                   st.sampled_from([".", "_", "+", ""]), _label, _tld)
mentions = st.builds(lambda name: "@" + name, st.text(_ALNUM + "_", min_size=1, max_size=12))
numbers = st.one_of(
    dollars,
    st.builds(lambda a, b: f"{a}.{b}", st.integers(0, 999), st.integers(0, 99)),
    st.builds(lambda h, m, x: f"{h}:{m:02d}{x}", st.integers(1, 12), st.integers(0, 59), st.sampled_from(["am", "pm", ""])),
    st.builds(lambda a: f"{a}%", st.integers(1, 100)),
    st.just("24/7"),
    st.builds(lambda a, b, c: f"v{a}.{b}.{c}", st.integers(0, 9), st.integers(0, 9), st.integers(0, 20)),
)
SPANS = st.one_of(urls, emails, mentions, numbers)
POSTS = st.lists(st.one_of(st.sampled_from(WORDS), SPANS.map(lambda s: ("span", s))), min_size=1, max_size=10)
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    return Restorer(lang="en", engine=request.param)


def _post(items) -> tuple[str, list[str]]:
    spans = [i[1] for i in items if isinstance(i, tuple)]
    return " ".join(i[1] if isinstance(i, tuple) else i for i in items), spans


@pytest.mark.parametrize("spaces", ["auto", "restore"])
@SLOW
@given(items=POSTS)
def test_generated_spans_come_out_byte_identical(engine, spaces, items):
    text, spans = _post(items)
    out = engine.engine.restore_one(text, spaces)
    assert base_text(out, EN) == base_text(text, EN)  # nothing else changes beyond marks, spaces and case
    rest = out
    for span in spans:  # each span, in order, exactly as given
        assert span in rest, (text, out, span)
        rest = rest[rest.index(span) + len(span):]


@SLOW
@given(prose=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
       span=st.one_of(_urls(["https://", "www.", "HTTP://"]), mentions, dollars))
def test_a_span_after_unspaced_prose_is_kept(engine, prose, span):
    text = "".join(prose) + span
    out = engine(text)
    assert base_text(out, EN) == base_text(text, EN)
    assert out.rstrip(".?").endswith(span), (text, out)  # a sentence may end after a number


@pytest.mark.parametrize("name", ENGINES)
def test_unspaced_post_keeps_its_spans(name):
    out = Restorer(lang="en", engine=name)("followme@jane_doeandcheckhttps://example.com/a_b?id=3")
    assert out.endswith("@jane_doeandcheck https://example.com/a_b?id=3")


@pytest.mark.parametrize("name", ENGINES)
def test_mentions_and_urls_at_a_sentence_start_keep_their_case(name):
    restorer = Restorer(lang="en", engine=name)
    assert restorer("@jane thanks for the help").startswith("@jane")
    assert restorer("www.example.com is down again").startswith("www.example.com")


def test_the_segmenter_never_cuts_inside_a_protected_span():
    seg = Segmenter.load("en")
    assert seg.segment("checkhttps://x.com/a_bnow", [(5, 22)], [5, 22]) == "check https://x.com/a_b now"
    assert seg.segment("visitthelongwordhere", [(5, 20)]) == "visit thelongwordhere"
    assert seg.segment("#tagone#tagtwo", [(0, 7), (7, 14)], [7]) == "#tagone #tagtwo"


# --- hashtags ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ENGINES)
def test_hashtag_modes(name):
    restorer = Restorer(lang="en", engine=name)
    text = "#throwbackthursday #nevergiveup"
    assert restorer(text) == "#ThrowbackThursday #NeverGiveUp"  # a trailing block of tags takes no mark
    assert Restorer(lang="en", engine=name, hashtags="keep")(text) == text
    split = Restorer(lang="en", engine=name, hashtags="split")(text)
    assert "#" not in split and base_text(split, EN) == base_text(text.replace("#", ""), EN)
    words = split.lower().replace(".", "").replace(",", "")
    assert "throwback thursday" in words and "never give up" in words


@SLOW
@given(items=st.lists(st.one_of(st.sampled_from(WORDS), st.builds(lambda w: "#" + "".join(w),
                                                                    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))),
                      min_size=1, max_size=8))
def test_camel_hashtags_change_only_case(engine, items):
    text = " ".join(items)
    out = engine(text)
    assert base_text(out, EN) == base_text(text, EN)
    tags = [w for w in items if w.startswith("#")]
    assert [t.lower() for t in regex.findall(r"#\w+", out)] == tags, (text, out)


@pytest.mark.parametrize("name", ENGINES)
def test_a_tag_with_inner_capitals_keeps_the_users_words(name):
    assert Restorer(lang="en", engine=name)("great day #ThrowBackthursday").endswith("#ThrowBackthursday")


def test_digits_are_a_segment_of_their_own():
    parts = segments("iphone12promax", Segmenter.load("en"))
    assert parts[:2] == ["iphone", "12"] and "".join(parts) == "iphone12promax"
    assert camel(parts).startswith("Iphone12Pro")


def test_a_tag_typed_in_camel_case_keeps_mixed_case_words_whole():
    """The user's case boundaries cut a tag, but not after a word's one small letter ("iPhone", "eBay"); a change of
    script is a boundary too ("новыйiPhone")."""
    assert segments("iPhoneCase") == ["iPhone", "Case"] and segments("eBaySale") == ["eBay", "Sale"]
    assert segments("новыйiPhone") == ["новый", "iPhone"]
    assert segments("ThrowbackThursday") == ["Throwback", "Thursday"]
    assert segments("NASAMission") == ["NASA", "Mission"]


def test_split_keeps_every_other_character():
    assert split_text("see #never_give_up2day now", Segmenter.load("en")) == "see never_give_up 2 day now"


def test_hashtag_command(capsys):
    assert main(["hashtag", "#throwbackthursday", "nevergiveup"]) == 0
    assert capsys.readouterr().out.splitlines() == ["throwback thursday\t#ThrowbackThursday",
                                                    "never give up\t#NeverGiveUp"]


def test_fix_help_documents_the_hashtag_modes(capsys):
    try:
        main(["fix", "--help"])
    except SystemExit:
        pass
    assert "drops the '#'" in " ".join(capsys.readouterr().out.split())


def test_restorer_refuses_an_unknown_hashtag_mode():
    with pytest.raises(ValueError, match="hashtags"):
        Restorer(lang="en", hashtags="shout")


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_a_word_glued_after_a_number_span_gets_its_own_space(engine):
    """"v2.0.1fixes": a number's unit would be inside its span ("9:30am"), so a letter after its last digit starts
    a word; restored spaces cut there (it came out as "v2.0.1FIXESTHEBUG")."""
    out = Restorer(lang="en", engine=engine, spaces="restore")("version v2.0.1 fixes the bug")
    assert "v2.0.1 fixes" in out


@pytest.mark.parametrize("engine", ["pipeline", "char"])
def test_a_price_glued_after_a_word_gets_its_own_space(engine):
    """A currency sign never ends a word, so restored spaces cut before it ("was$100" came out as "was$100")."""
    text = "thetotalcostwas$100or€20"
    out = Restorer(lang="en", engine=engine, spaces="restore")(text)
    assert base_text(out, EN) == base_text(text, EN)
    assert " $100" in out and " €20" in out, out


@pytest.mark.parametrize("lang, engine", [("en", "pipeline"), ("en", "char"), ("de", "char"), ("ru", "char")])
def test_a_tag_or_mention_is_a_word_of_its_own_when_spaces_are_restored(lang, engine):
    """A "#", "@" or "$" starts a word, and a tag ends where it was typed to: restored spaces keep both sides ("I
    love#ThrowbackThursday And@john_doe" before), in spaced and in unspaced input."""
    restorer = Restorer(lang=lang, engine=engine, spaces="restore")
    out = restorer("i love #throwbackthursday and @john_doe too")
    assert regex.search(r"\w,? #\w+,? \w+,? @john_doe,? \w", out), out
    out = restorer("ilove#tbt")
    assert regex.search(r"\w,? #", out), out


@pytest.mark.parametrize("lang, engine", [("en", "pipeline"), ("en", "char"), ("de", "char"), ("ru", "char")])
def test_a_share_or_a_price_is_a_word_of_its_own_in_unspaced_text(lang, engine):
    """A number glued to the letters around it, with a sign after it ("25%", "10€"), stands apart: "rose by25%in"
    came back "rose by 25%in" (the segmenter keeps a sign glued to what follows), and nothing else changes."""
    restorer = Restorer(lang=lang, engine=engine, spaces="restore")
    for text, number in [("pricesroseby25%inoctober", "25%"), ("itcosts10€tomorrow", "10€")]:
        out = restorer(text)
        assert regex.search(rf"\w,? {number},? \w", out), out
        assert base_text(out, load_pack(lang)) == base_text(text, load_pack(lang))
    assert [(s.kind, s.text) for s in find("by25%in 3,5%x 10€for")] == [
        ("number", "25%"), ("number", "3,5%"), ("number", "10€")]


def test_a_korean_particle_stays_on_its_number():
    """In a script without case a word may go on after a number ("2.5%로", "2.5로": a particle), so no word starts
    there (ko gave "2.5 로" and, with the rule above, "25% 로")."""
    out = Restorer(lang="ko", spaces="restore")("정부는올해경제성장률을2.5%로전망했고실업률은3.5로봤다")
    assert "2.5%로" in out and "3.5로" in out, out


def test_a_tag_never_starts_with_a_combining_mark():
    """Found by scripts/fuzz.py: in "C#\u05bc#O" the mark belongs to the "#"; taken as a hashtag, --hashtags split
    dropped the "#" and left the mark alone after a space, changing the base text."""
    assert [s.kind for s in find("C#\u05bc#O @\u0301x")] == ["hashtag"]
    en = load_pack("en")
    text = "C#\u05bc#O and #abc"
    out = Restorer(lang="en", engine="pipeline", spaces="keep", hashtags="split")(text)
    assert base_text(out, en).replace("#", "") == base_text(text, en).replace("#", "")


@pytest.mark.parametrize("lang, text", [("en", "shesaid‘helloeveryone’andleft"), ("de", "ersagte‚hallo‘undging")])
def test_single_quotes_glued_to_words_stand_apart_when_spaces_are_restored(lang, text):
    """English ‘…’ (closed by an apostrophe, quote_apostrophes.py) and German ‚…‘ ("‘" closes an open "‚")."""
    for engine in ("auto", "char"):
        out = Restorer(lang=lang, engine=engine)(text)
        assert base_text(out, load_pack(lang)) == base_text(text, load_pack(lang))
        assert regex.search(r"\w,? [‘‚]\w.*\w[’‘],? \w", out), out


@pytest.mark.parametrize("lang, engine", [("en", "pipeline"), ("en", "char"), ("de", "char"), ("ru", "char")])
def test_brackets_and_quotes_glued_to_words_stand_apart_when_spaces_are_restored(lang, engine):
    """A word starts before an opening bracket or quote and after a closing one ("5pm(or6)ok" came back "5 pm(or. 6)Ok",
    German "„Hallo“und" as "„Hallo “und"): the quotes pair up, so '"' and German "“" may close."""
    restorer = Restorer(lang=lang, engine=engine, spaces="restore")
    for text in ['meetmeat5pm(or6)ok', 'thebook"dune"isgreat', 'ersagte„hallo“undging']:
        out = restorer(text)
        assert regex.search(r'\w[,.]{0,2} [(„"]\w.*\w[)“"][,.]? \w', out), out  # "5 p.m., (or 6)"
        assert base_text(out, load_pack(lang)) == base_text(text, load_pack(lang))
    assert "(大韓民國)은" in Restorer(lang="ko", spaces="restore")("대한민국(大韓民國)은동아시아에있다")

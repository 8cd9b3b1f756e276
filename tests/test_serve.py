"""charrestore serve (#19) over HTTP (httpx), driven as a client would, against the real server (tests/conftest.py).
All but the no-extra tests skip when the [serve] extra is not installed; streams and the page: test_serve_stream.py."""

import json
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_client import MAX_BODY, MAX_CHARS, SAMPLES, TEXT, assert_no_crash, restorer

from charrestore import Restorer
from charrestore.paths import models_dir


def test_serve_without_the_extra_is_one_line_naming_it():
    code = ("import sys; sys.modules.update(uvicorn=None, fastapi=None); from charrestore.cli import main; "
            "sys.exit(main(['serve']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "[serve]" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args,message", [(["--lang", "xx"], "no language pack 'xx'"),
                                          (["--lang", "auto:xx"], "'xx' is not an installed pack"),
                                          (["--workers", "0"], "--workers and --threads must be at least 1"),
                                          (["--port", "BUSY"], "cannot listen on 127.0.0.1:")])
def test_serve_errors_are_one_line(args, message):
    for name in ("fastapi", "uvicorn"):
        pytest.importorskip(name)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        args = [str(busy.getsockname()[1]) if a == "BUSY" else a for a in args]
        result = subprocess.run([sys.executable, "-m", "charrestore", "serve", *args], capture_output=True, text=True,
                                timeout=60)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and message in result.stderr


# --- HTTP ----------------------------------------------------------------------------------

def test_healthz_and_packs(http):
    health = http.get("/healthz").json()
    assert health["status"] == "ok" and ["en", "pipeline", "auto", "camel"] in health["loaded"]
    packs = http.get("/v1/packs").json()
    assert packs["default"] == "auto:en"  # as fix: English unless another pack is clearly more likely
    assert {p["code"] for p in packs["packs"]} >= {"en", "ja", "gu"}
    en = next(p for p in packs["packs"] if p["code"] == "en")
    assert en["features"] == ["CAPS", ".", ",", "?", "SPACE"] and en["engine"] == "pipeline"
    assert http.get("/openapi.json").json()["paths"].keys() >= {"/v1/fix", "/v1/packs", "/healthz"}


@pytest.mark.parametrize("lang,engine,spaces", [("en", "auto", "auto"), ("en", "char", "keep"),
                                                ("en", "pipeline", "restore"), ("ja", "auto", "auto"),
                                                ("gu", "char", "restore")])
def test_fix_equals_the_restorer(http, lang, engine, spaces):
    r = restorer(lang, engine, spaces)
    answer = http.post("/v1/fix", json={"text": SAMPLES[lang], "lang": lang, "engine": engine, "spaces": spaces})
    assert answer.status_code == 200
    assert answer.json() == {"text": r(SAMPLES[lang]), "engine": r.config.engine, "lang": lang}


def test_fix_equals_the_cli(http):
    text = "willaichangeourfuture obviously"
    cli = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--json", "--engine", "char", text],
                         capture_output=True, text=True, timeout=120, check=True)
    assert http.post("/v1/fix", json={"text": text, "engine": "char"}).json()["text"] == json.loads(cli.stdout)["text"]


@pytest.mark.parametrize("hashtags", [None, "camel", "split", "keep"])
def test_hashtags_as_in_fix(http, hashtags):
    text = "#throwbackthursday with @john_doe see https://example.com it fixes v2.0.1"
    expected = Restorer(lang="en", **({"hashtags": hashtags} if hashtags else {}))(text)
    body = {"text": text, **({"hashtags": hashtags} if hashtags else {})}
    assert http.post("/v1/fix", json=body).json()["text"] == expected


def test_batch_equals_one_call_each(http):
    texts = [TEXT, "", "willaichangeourfuture", "  hello   world  ", TEXT[:40]]
    answer = http.post("/v1/fix", json={"texts": texts}).json()
    assert answer == {"texts": [restorer()(t) for t in texts], "engine": "pipeline",
                      "engines": ["pipeline"] * len(texts), "langs": ["en"] * len(texts)}
    assert answer["texts"] == [http.post("/v1/fix", json={"text": t}).json()["text"] for t in texts]


def test_auto_restores_each_text_in_its_detected_language(http):
    """``"lang": "auto"``: each text as ``"lang": <the language /v1/detect names>`` restores it, batch or not."""
    texts = [SAMPLES["en"], SAMPLES["ja"], SAMPLES["gu"]]
    named = [http.post("/v1/detect", json={"text": t}).json() for t in texts]
    assert [n["lang"] for n in named] == ["en", "ja", "gu"]
    assert all(n["candidates"][0]["lang"] == n["lang"] and len(n["candidates"]) == 3 for n in named)
    batch = http.post("/v1/fix", json={"texts": texts, "lang": "auto"}).json()
    assert batch["langs"] == ["en", "ja", "gu"] and batch["engine"] == "mixed"
    for text, lang, out, engine in zip(texts, batch["langs"], batch["texts"], batch["engines"]):
        one = http.post("/v1/fix", json={"text": text, "lang": "auto"}).json()
        assert one == {"text": out, "engine": engine, "lang": lang}
        assert out == http.post("/v1/fix", json={"text": text, "lang": lang}).json()["text"]
    assert set(http.get("/v1/packs").json()["detect"]) >= {"en", "ja", "gu"}


def test_without_lang_a_text_leaves_english_only_for_a_clearly_more_likely_pack(http):
    """The server's default is fix's, auto:en: the same outputs and languages as ``charrestore fix --json``."""
    texts = ["wiegehtesihnenheute", "das", "willaichangeourfuture"]
    answer = http.post("/v1/fix", json={"texts": texts}).json()
    cli = subprocess.run([sys.executable, "-m", "charrestore", "fix", "--json"], input="\n".join(texts) + "\n",
                         capture_output=True, text=True, timeout=120, check=True)
    named = [json.loads(line) for line in cli.stdout.splitlines()]
    assert answer["langs"] == [n["lang"] for n in named] == ["de", "en", "en"]
    assert answer["texts"] == [n["text"] for n in named]
    assert http.post("/v1/fix", json={"text": "das", "lang": "auto:de"}).json()["lang"] == "de"
    wrong = http.post("/v1/fix", json={"text": "abc", "lang": "auto:xx"})
    assert wrong.status_code == 422 and "'xx'" in wrong.json()["error"]


def test_the_offline_page_and_the_files_it_reads_are_served(http):
    """The serve page links the in-browser page (web/), served with the packs and models it reads beside it."""
    assert 'href="offline/web/index.html"' in http.get("/").text
    assert "window.charrestore = " in http.get("/offline/web/app.js").text
    for path in ("/offline/web/index.html", "/offline/languages/en/pack.toml", "/offline/models/en/char.json"):
        assert http.get(path).status_code == 200, path
    assert http.get("/offline/models/en/char.onnx").content == (models_dir() / "en" / "char.onnx").read_bytes()


def test_concurrent_requests_share_the_models_safely(http):
    words = TEXT.split()
    texts = [" ".join(words[i:] + words[:i]) for i in range(24)]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda t: http.post("/v1/fix", json={"text": t}).json()["text"], texts))
    assert answers == [restorer()(t) for t in texts]
    assert len(http.get("/healthz").json()["loaded"]) <= 8


JSON = {"content-type": "application/json"}


@pytest.mark.parametrize("body,headers,status", [
    (b'{"text": ', JSON, 400),
    (b'\xff\xfe{', JSON, 400),
    (b'{"text": "x", "lang": "xx"}', JSON, 422),
    (b'{"text": "x", "lang": "../../etc"}', JSON, 422),
    (b'{"text": "x", "lang": "ja", "engine": "pipeline"}', JSON, 422),
    (b'{"text": "x", "spaces": "sometimes"}', JSON, 422),
    (b'{"text": "x", "engine": "gpt"}', JSON, 422),
    (b'{"text": "x", "colour": "red"}', JSON, 422),
    (b'{"text": "x", "texts": ["y"]}', JSON, 422),
    (b'{}', JSON, 422),
    (b'{"text": 5}', JSON, 422),
    (b'{"texts": ["a", null]}', JSON, 422),
    (b'{"text": "x", "hashtags": "shout"}', JSON, 422),
    (b'{"text": "\\ud800"}', JSON, 422),
    (b'[1, 2]', JSON, 422),
    (b'null', JSON, 422),
    (b'text=hello', {"content-type": "application/x-www-form-urlencoded"}, 415),
    (json.dumps({"text": "a" * (MAX_CHARS + 1)}).encode(), JSON, 413),
    (json.dumps({"texts": ["a"] * 1001}).encode(), JSON, 413),
    (b'{"text": "' + b"a" * MAX_BODY + b'"}', JSON, 413),
], ids=lambda v: v if isinstance(v, int) else None)
def test_client_errors_are_4xx_json(http, body, headers, status):
    answer = http.post("/v1/fix", content=body, headers=headers)
    assert answer.status_code == status
    assert answer.headers["content-type"] == "application/json" and answer.json()["error"]


def test_chunked_body_over_the_limit_is_413(http):
    chunks = (b"x" * 50_000 for _ in range(MAX_BODY // 50_000 + 2))  # no Content-Length: read and counted
    answer = http.post("/v1/fix", content=chunks, headers=JSON)
    assert answer.status_code == 413 and answer.json()["error"]


def test_wrong_route_and_method_are_json(http):
    assert http.get("/v1/nothing").status_code == 404 and http.get("/v1/nothing").json()["error"]
    assert http.get("/v1/fix").status_code == 405 and http.get("/v1/fix").json()["error"]


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=10)
field_values = st.fixed_dictionaries({}, optional={k: json_values | st.text(max_size=40) for k in
                                                   ("text", "texts", "lang", "engine", "spaces", "hashtags")})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=60), json_values.map(lambda v: json.dumps(v).encode()),
                      field_values.map(lambda v: json.dumps(v).encode())))
def test_no_body_makes_a_500(http, body):
    answer = http.post("/v1/fix", content=body, headers=JSON)
    assert answer.status_code < 500, answer.text
    assert answer.status_code == 200 or answer.json()["error"]


def test_no_request_crashed_the_server(server, http):
    assert_no_crash(server, http)

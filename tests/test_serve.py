"""charrestore serve (#19), driven as a client would: the real server (``python -m charrestore serve``) in a
subprocess on a free loopback port, over HTTP (httpx) and WebSocket (websockets), and its page in headless
Chromium. Everything but the no-extra test skips when the [serve] extra is not installed."""

import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from charrestore import Restorer, base_text, load_pack
from charrestore.packs import available_packs
from charrestore.paths import models_dir

TEXT = ("will ai change our future obviously the answer is yes but what are the risks i am not technical "
        "i'm not an engineer i don't play one on the internet so what do you think")
SAMPLES = {"en": TEXT, "ja": "今日は雨が降っていますか明日は晴れるでしょう",
           "gu": "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે"}
MAX_BODY, MAX_CHARS = 200_000, 20_000
CHROMIUM = "/usr/bin/chromium"


def test_serve_without_the_extra_is_one_line_naming_it():
    code = ("import sys; sys.modules.update(uvicorn=None, fastapi=None); from charrestore.cli import main; "
            "sys.exit(main(['serve']))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "[serve]" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args,message", [(["--lang", "xx"], "no language pack 'xx'"),
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


class Server:
    def __init__(self, url: str, log: Path):
        self.url, self.ws, self.log = url, url.replace("http", "ws", 1), log


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    for name in ("fastapi", "uvicorn", "httpx", "websockets"):
        pytest.importorskip(name)
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path_factory.mktemp("serve") / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "charrestore", "serve", "--port", str(port), "--max-body",
                                 str(MAX_BODY), "--max-chars", str(MAX_CHARS)], stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the server did not start:\n" + log.read_text())
        time.sleep(0.2)
    yield Server(url, log)
    proc.terminate()
    proc.wait(20)


@pytest.fixture(scope="module")
def http(server):
    import httpx

    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def restorers():
    return {}


def restorer(restorers, lang="en", engine="auto", spaces="auto"):
    key = (lang, engine, spaces)
    if key not in restorers:
        restorers[key] = Restorer(lang=lang, engine=engine, spaces=spaces)
    return restorers[key]


# --- HTTP ----------------------------------------------------------------------------------

def test_healthz_and_packs(http):
    health = http.get("/healthz").json()
    assert health["status"] == "ok" and ["en", "pipeline", "auto", "camel"] in health["loaded"]
    packs = http.get("/v1/packs").json()
    assert packs["default"] == "en"
    assert {p["code"] for p in packs["packs"]} >= {"en", "ja", "gu"}
    en = next(p for p in packs["packs"] if p["code"] == "en")
    assert en["features"] == ["CAPS", ".", ",", "?", "SPACE"] and en["engine"] == "pipeline"
    assert http.get("/openapi.json").json()["paths"].keys() >= {"/v1/fix", "/v1/packs", "/healthz"}


@pytest.mark.parametrize("lang,engine,spaces", [("en", "auto", "auto"), ("en", "char", "keep"),
                                                ("en", "pipeline", "restore"), ("ja", "auto", "auto"),
                                                ("gu", "char", "restore")])
def test_fix_equals_the_restorer(http, restorers, lang, engine, spaces):
    r = restorer(restorers, lang, engine, spaces)
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


def test_batch_equals_one_call_each(http, restorers):
    texts = [TEXT, "", "willaichangeourfuture", "  hello   world  ", TEXT[:40]]
    answer = http.post("/v1/fix", json={"texts": texts}).json()
    assert answer == {"texts": [restorer(restorers)(t) for t in texts], "engine": "pipeline",
                      "engines": ["pipeline"] * len(texts), "langs": ["en"] * len(texts)}
    assert answer["texts"] == [http.post("/v1/fix", json={"text": t}).json()["text"] for t in texts]


def test_auto_restores_each_text_in_its_detected_language(http, restorers):
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


def test_the_offline_page_and_the_files_it_reads_are_served(http):
    """The serve page links the in-browser page (web/), served with the packs and models it reads beside it."""
    assert 'href="offline/web/index.html"' in http.get("/").text
    assert "window.charrestore = " in http.get("/offline/web/app.js").text
    for path in ("/offline/web/index.html", "/offline/languages/en/pack.toml", "/offline/models/en/char.json"):
        assert http.get(path).status_code == 200, path
    assert http.get("/offline/models/en/char.onnx").content == (models_dir() / "en" / "char.onnx").read_bytes()


def test_concurrent_requests_share_the_models_safely(http, restorers):
    words = TEXT.split()
    texts = [" ".join(words[i:] + words[:i]) for i in range(24)]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda t: http.post("/v1/fix", json={"text": t}).json()["text"], texts))
    assert answers == [restorer(restorers)(t) for t in texts]
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


# --- WebSocket -----------------------------------------------------------------------------

def ws_connect(server, query=""):
    from websockets.sync.client import connect

    return connect(f"{server.ws}/v1/stream{query}", open_timeout=30, close_timeout=5)


def stream_over_ws(server, pushes, query="?lang=en"):
    """The answers of the server to ``pushes`` then ``{"end": true}``, and the close code."""
    from websockets.exceptions import ConnectionClosed

    answers = []
    with ws_connect(server, query) as ws:
        for text in pushes:
            ws.send(json.dumps({"text": text}))
            answers.append(json.loads(ws.recv(timeout=60)))
        ws.send(json.dumps({"end": True}))
        answers.append(json.loads(ws.recv(timeout=60)))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        return answers, ws.close_code


def offline_finals(r, text, lookahead=None):
    stream = r.stream(lookahead)
    return stream.push(text).final + stream.end().final


@pytest.mark.parametrize("lookahead", [None, 0, 2])
def test_stream_finals_never_change_and_lose_nothing(server, restorers, lookahead):
    r, words = restorer(restorers), TEXT.split()
    query = "?lang=en" + ("" if lookahead is None else f"&lookahead={lookahead}")
    answers, code = stream_over_ws(server, words, query)
    assert code == 1000
    assert answers[-1]["done"] is True and answers[-1]["provisional"] == ""
    assert not any("done" in a for a in answers[:-1])
    finals = ""
    for n, answer in enumerate(answers[:-1], 1):
        finals += answer["final"]  # a final is only ever appended to, never revised
        assert base_text(finals + answer["provisional"], r.pack) == base_text(" ".join(words[:n]), r.pack)
    finals += answers[-1]["final"]
    assert finals == offline_finals(r, TEXT, lookahead)
    assert base_text(finals, r.pack) == base_text(TEXT, r.pack) and len(finals.split()) == len(words)


def test_stream_finals_do_not_depend_on_message_sizes(server, restorers):
    words = TEXT.split()
    pushes = [" ".join(words[i:i + 5]) for i in range(0, len(words), 5)]
    answers, _ = stream_over_ws(server, pushes, "?lang=en&engine=char")
    assert "".join(a["final"] for a in answers) == offline_finals(restorer(restorers, engine="char"), TEXT)


def test_concurrent_streams_are_independent(server, restorers):
    words = TEXT.split()
    texts = [" ".join(words[i:] + words[:i]) for i in range(6)]
    with ThreadPoolExecutor(6) as pool:
        finals = list(pool.map(lambda t: "".join(a["final"] for a in stream_over_ws(server, t.split())[0]), texts))
    assert finals == [offline_finals(restorer(restorers), t) for t in texts]


@pytest.mark.parametrize("query,message,code", [
    ("?lang=xx", None, 1008),
    ("?lang=auto", None, 1008),
    ("?lang=ja&engine=pipeline", None, 1008),
    ("?lookahead=-1", None, 1008),
    ("?lookahead=many", None, 1008),
    ("", "not json", 1007),
    ("", b"\x00binary", 1003),
    ("", json.dumps({"text": 5}), 1008),
    ("", json.dumps(["text"]), 1008),
    ("", json.dumps({"text": "a", "speed": 2}), 1008),
    ("", json.dumps({"text": "a " * 1001}), 1009),
    ("", json.dumps({"text": "\ud800"}), 1007),
])
def test_stream_errors_answer_then_close(server, query, message, code):
    from websockets.exceptions import ConnectionClosed

    with ws_connect(server, query) as ws:
        if message is not None:
            ws.send(message)
        assert json.loads(ws.recv(timeout=30))["error"]
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
        assert ws.close_code == code


def test_a_vanished_client_is_dropped(server, http):
    with ws_connect(server) as ws:
        ws.send(json.dumps({"text": "will ai change our future"}))
        ws.recv(timeout=30)
        ws.send(json.dumps({"text": "obviously the answer is yes"}))  # answered into a socket that is gone
        ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, no goodbye
        ws.socket.close()
    deadline = time.monotonic() + 20
    while http.get("/healthz").json()["streams"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert http.get("/healthz").json()["streams"] == 0
    answers, code = stream_over_ws(server, ["hello", "world"])
    assert code == 1000 and answers[-1]["done"]


def test_idle_streams_are_closed_and_extra_streams_refused():
    """create_app in this process, with small stream limits: one stream at a time, 1 s of silence."""
    for name in ("fastapi", "uvicorn", "websockets"):
        pytest.importorskip(name)
    import threading

    import uvicorn
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from charrestore.serve.app import create_app
    from charrestore.serve.websocket import StreamLimits

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"ws://127.0.0.1:{sock.getsockname()[1]}/v1/stream"
    server = uvicorn.Server(uvicorn.Config(create_app("ja", stream=StreamLimits(idle=1.0, max_streams=1)),
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        with connect(url) as first:
            first.send(json.dumps({"text": "今日 は"}))
            first.recv(timeout=30)
            with connect(url) as second:
                assert "too many streams" in json.loads(second.recv(timeout=10))["error"]
                with pytest.raises(ConnectionClosed):
                    second.recv(timeout=10)
                assert second.close_code == 1013
            assert "no message" in json.loads(first.recv(timeout=10))["error"]
            with pytest.raises(ConnectionClosed):
                first.recv(timeout=10)
            assert first.close_code == 1008
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


def test_no_request_crashed_the_server(server, http):
    assert http.get("/healthz").json()["status"] == "ok"
    log = server.log.read_text()
    assert "Traceback" not in log and "500 Internal" not in log, log


# --- the page in a real browser ------------------------------------------------------------

def test_page_in_headless_chromium(server, restorers, tmp_path):
    """The screenshot goes to tmp_path; set CHARRESTORE_SCREENSHOT=reports/serve_page.png to refresh the README's."""
    if not os.access(CHROMIUM, os.X_OK) and not shutil.which("chromium"):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    r = restorer(restorers)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=args, headless=True)
        page = browser.new_page(viewport={"width": 1200, "height": 760})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        # "Detect the language", then each pack whose model is installed
        ready = [code for code in available_packs() if load_pack(code).ready()]
        sync_api.expect(page.locator("#lang option")).to_have_count(1 + len(ready))
        assert page.locator("#lang").input_value() == "auto"

        text = "will ai change our future obviously the answer is yes but what are the risks"
        page.fill("#input", text)
        page.click("#fix")
        sync_api.expect(page.locator("#fix-status")).to_contain_text("en · pipeline")
        assert page.locator("#output").text_content() == r(text)
        assert page.locator("#output .ins").count() > 0 and page.locator("#output .case").count() > 0
        parts = page.evaluate(  # the page's highlighter (the in-browser page's module)
            "import('./offline/web/highlight.js').then((m) => m.changes('will ai, so', 'Will AI so.'))")
        assert [(p["text"], p["kind"]) for p in parts] == [("W", "case"), ("ill ", "same"), ("AI", "case"),
                                                           (",", "del"), (" so", "same"), (".", "ins")]

        transcript = page.locator("#transcript").input_value()
        assert len(transcript.split()) > 40
        page.locator("#rate").fill("10")
        page.click("#start")
        page.wait_for_function("document.getElementById('final').textContent.split(' ').length > 25")
        assert page.locator("#provisional").text_content()  # the tail is shown while words keep coming
        page.screenshot(path=os.environ.get("CHARRESTORE_SCREENSHOT", str(tmp_path / "serve_page.png")), full_page=True)
        sync_api.expect(page.locator("#live-status")).to_contain_text("done", timeout=60_000)
        assert page.locator("#final").text_content() == offline_finals(r, transcript)
        assert page.locator("#provisional").text_content() == ""
        assert page.locator("#start").is_enabled()
        browser.close()
    assert not errors

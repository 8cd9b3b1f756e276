"""charrestore serve (#19): streams over WebSocket (websockets) and the page in headless Chromium, against the
real server of tests/conftest.py; they skip when the [serve] extra is not installed."""

import json
import os
import shutil
import socket
import struct
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from serve_client import TEXT, assert_no_crash, restorer

from charrestore import Restorer, base_text, load_pack
from charrestore.packs import available_packs

CHROMIUM = "/usr/bin/chromium"


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
def test_stream_finals_never_change_and_lose_nothing(server, lookahead):
    r, words = restorer(), TEXT.split()
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


def test_a_stream_with_a_preferred_language_takes_it(server):
    """``lang=auto:de``: a stream has one language from its first word on, the preferred one."""
    words = "wie geht es ihnen heute".split()
    answers, code = stream_over_ws(server, words, "?lang=auto:de")
    assert code == 1000
    assert "".join(a["final"] for a in answers) == offline_finals(Restorer(lang="de"), " ".join(words))


def test_stream_finals_do_not_depend_on_message_sizes(server):
    words = TEXT.split()
    pushes = [" ".join(words[i:i + 5]) for i in range(0, len(words), 5)]
    answers, _ = stream_over_ws(server, pushes, "?lang=en&engine=char")
    assert "".join(a["final"] for a in answers) == offline_finals(restorer(engine="char"), TEXT)


def test_concurrent_streams_are_independent(server):
    words = TEXT.split()
    texts = [" ".join(words[i:] + words[:i]) for i in range(6)]
    with ThreadPoolExecutor(6) as pool:
        finals = list(pool.map(lambda t: "".join(a["final"] for a in stream_over_ws(server, t.split())[0]), texts))
    assert finals == [offline_finals(restorer(), t) for t in texts]


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


# --- the page in a real browser ------------------------------------------------------------

def test_page_in_headless_chromium(server, tmp_path):
    """The screenshot goes to tmp_path; set CHARRESTORE_SCREENSHOT=reports/serve_page.png to refresh the README's."""
    if not os.access(CHROMIUM, os.X_OK) and not shutil.which("chromium"):
        pytest.skip("chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    r = restorer()
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


def test_no_stream_crashed_the_server(server, http):
    assert_no_crash(server, http)

"""Fixtures of the serve tests (test_serve.py, test_serve_stream.py): the real server (``python -m charrestore
serve``) in a subprocess on a free loopback port, started once for the session, and an HTTP client of it."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serve_client import MAX_BODY, MAX_CHARS


class Server:
    def __init__(self, url: str, log: Path):
        self.url, self.ws, self.log = url, url.replace("http", "ws", 1), log


@pytest.fixture(scope="session")
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


@pytest.fixture(scope="session")
def http(server):
    import httpx

    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client

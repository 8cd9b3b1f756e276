"""The ASGI app: ``POST /v1/fix``, ``POST /v1/detect``, ``WS /v1/stream``, ``GET /v1/packs``, ``GET /healthz`` and
the page at ``/``. ``"lang": "auto"`` restores each text in the language the detector names among the packs.

Every client error is a 4xx with a JSON body ``{"error": "..."}``: no input may produce a 500 or stall the
server, so bodies are capped before they are parsed (413), texts are capped before they reach a model (413), and
inference runs in the shared pool of ``pool.Restorers``, never on the event loop.
"""

from __future__ import annotations

import json
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

from fastapi import FastAPI, HTTPException, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, field_validator, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..auto import AUTO, installed, is_auto, language_of, preferred, without_detector
from ..cards import ModelError
from ..packs import available_packs, load_pack
from ..paths import languages_dir, models_dir, web_dir
from .pool import Restorers
from .websocket import StreamLimits, Streams

STATIC = Path(__file__).parent / "static"
ENV = "CHARRESTORE_SERVE"  # the settings of ``from_env``, as JSON (how ``--workers`` processes get them)
log = logging.getLogger("charrestore.serve")


class DetectRequest(BaseModel):
    """One text whose language to name, among the installed packs."""
    model_config = ConfigDict(extra="forbid")
    text: str


class FixRequest(BaseModel):
    """One document (``text``) or several (``texts``), restored with the given settings."""
    model_config = ConfigDict(extra="forbid")
    text: str | None = None
    texts: list[str] | None = None
    lang: str | None = None  # default: the server's --lang; auto: each text's detected language; auto:en: English
    # unless another pack is clearly more likely
    engine: Literal["auto", "char", "pipeline"] = "auto"
    spaces: Literal["auto", "keep", "restore"] = "auto"
    hashtags: Literal["camel", "split", "keep"] = "camel"

    @field_validator("text")
    @classmethod
    def _encodable(cls, text):
        _check_unicode(text)
        return text

    @field_validator("texts")
    @classmethod
    def _all_encodable(cls, texts):
        for text in texts or ():
            _check_unicode(text)
        return texts

    @model_validator(mode="after")
    def _one_input(self):
        if (self.text is None) == (self.texts is None):
            raise ValueError("give exactly one of 'text' and 'texts'")
        return self


def _check_unicode(text: str | None) -> None:
    """JSON may carry lone surrogates ("\\ud800"); they are not text and could not be sent back as UTF-8."""
    if text is not None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text holds a lone surrogate; send valid Unicode") from None


class BodyLimit:
    """Refuses request bodies over ``max_body`` bytes with a 413, before anything parses them: by the
    Content-Length header when there is one, else while reading (chunked uploads)."""

    def __init__(self, app, max_body: int):
        self.app, self.max_body = app, max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body:
            return await _too_large(self.max_body, send)
        body, more = bytearray(), True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                return await _too_large(self.max_body, send)
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


async def _too_large(max_body: int, send) -> None:
    payload = json.dumps({"error": f"request body over {max_body} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": payload})


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _describe(errors) -> str:
    """Pydantic's errors as one line: ``body.texts.0: Input should be a valid string; ...``."""
    parts = []
    for e in errors:
        where = ".".join(str(p) for p in e.get("loc", ()))
        message = e.get("msg", "invalid").removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def create_app(lang: str = "en", *, max_body: int = 1_000_000, max_chars: int = 100_000, max_texts: int = 1000,
               cache_size: int = 8, threads: int | None = None, stream: StreamLimits | None = None) -> FastAPI:
    """The app; models for ``lang`` (its default engine) load at startup, others on first use.

    ``max_body``: bytes per request body; ``max_chars``: characters per request (all texts together);
    ``max_texts``: texts per batch; ``threads``: inference threads (default: the cores)."""
    from .. import __version__

    lang = without_detector(lang)
    if not is_auto(lang):
        load_pack(lang)  # an unknown language fails here, not at the first request
    restorers = Restorers(cache_size, threads)
    streams = Streams(restorers, lang, stream or StreamLimits())
    among = installed()  # what "auto" chooses from

    @asynccontextmanager
    async def lifespan(app):
        await restorers.run(restorers.get, preferred(lang) or ("en" if lang == AUTO else lang))
        yield
        restorers.close()

    app = FastAPI(title="charrestore", version=__version__, lifespan=lifespan,
                  description="Restores spaces, punctuation and capitalization. The page at / shows it live.")
    app.add_middleware(BodyLimit, max_body=max_body)

    @app.exception_handler(RequestValidationError)
    async def invalid(request, exc: RequestValidationError):
        errors = exc.errors()
        content_type = request.headers.get("content-type", "")
        if content_type and "json" not in content_type:
            return _error(415, f"send JSON with 'content-type: application/json', not {content_type!r}")
        if any(e.get("type") == "json_invalid" for e in errors):
            return _error(400, "malformed JSON: " + "; ".join(str(e.get("ctx", {}).get("error", "")) for e in errors))
        return _error(422, _describe(errors))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc: StarletteHTTPException):
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def unexpected(request, exc: Exception):  # a bug, not the client's fault: logged, and still JSON
        log.exception("unexpected error on %s", request.url.path)
        return _error(500, f"internal error ({exc.__class__.__name__})")

    @app.get("/healthz", summary="liveness, the models loaded so far and the open streams")
    async def healthz():
        return {"status": "ok", "version": __version__, "loaded": restorers.loaded(), "streams": streams.active}

    @app.get("/v1/packs", summary="the language packs, their features, models and default engines")
    async def packs():
        rows = []
        for code in available_packs():
            pack = load_pack(code)
            rows.append({"code": code, "name": pack.name, "features": list(pack.features),
                         "models": pack.available_models(), "engine": pack.engine, "ready": pack.ready()})
        return {"default": lang, "packs": rows, "detect": among}

    @app.post("/v1/detect", summary="the language of a text among the installed packs, with the top candidates")
    async def detect(body: DetectRequest):
        from ..detect import Detector

        ranked = Detector.load().scores(body.text, among)
        return {"lang": ranked[0][0], "candidates": [{"lang": c, "score": round(s, 4)} for c, s in ranked[:3]]}

    @app.post("/v1/fix", summary="restore one text or a batch; the output equals `charrestore fix`")
    async def fix(body: FixRequest):
        texts = [body.text] if body.text is not None else body.texts
        if len(texts) > max_texts:
            raise HTTPException(413, f"at most {max_texts} texts per request, got {len(texts)}")
        chars = sum(map(len, texts))
        if chars > max_chars:
            raise HTTPException(413, f"at most {max_chars} characters per request, got {chars}")

        def work():
            """Each language's texts in one batch (one language unless auto); outputs, languages, engines in order."""
            asked = body.lang or lang
            prefer = preferred(asked)  # auto:L: L unless another pack is clearly more likely
            langs = [language_of(t, among, prefer) for t in texts] if is_auto(asked) else [asked] * len(texts)
            out, engines = [""] * len(texts), [""] * len(texts)
            for one in dict.fromkeys(langs):
                at = [i for i, x in enumerate(langs) if x == one]
                restorer = restorers.get(one, body.engine, body.spaces, body.hashtags)
                for i, restored in zip(at, restorer.restore_many([texts[i] for i in at])):
                    out[i], engines[i] = restored, restorer.config.engine
            return out, langs, engines

        try:
            out, langs, engines = await restorers.run(work)
        except (ValueError, ModelError) as exc:  # an unknown pack, or an engine the pack has no model for
            raise HTTPException(422, str(exc)) from None
        if body.text is not None:
            return {"text": out[0], "engine": engines[0], "lang": langs[0]}
        engine = engines[0] if len(set(engines)) == 1 else "mixed"  # an empty batch: the pack's engine unknown
        return {"texts": out, "engine": engine, "engines": engines, "langs": langs}

    @app.websocket("/v1/stream")
    async def stream_words(websocket: WebSocket):
        await streams.serve(websocket)

    @app.get("/", include_in_schema=False)
    async def page():
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # The page that restores in the browser, with no server (web/): it reads the packs and models beside it.
    for name, folder in (("web", web_dir()), ("languages", languages_dir()), ("models", models_dir())):
        if folder.is_dir():
            app.mount(f"/offline/{name}", StaticFiles(directory=folder), name=f"offline-{name}")
    return app


def from_env() -> FastAPI:
    """The app with the settings ``charrestore serve`` put in the environment (uvicorn's factory)."""
    return create_app(**json.loads(os.environ.get(ENV, "{}")))

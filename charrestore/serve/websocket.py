"""``WS /v1/stream``: live restoration over a WebSocket, one ``streaming.Stream`` per connection.

The client sends ``{"text": "some words"}`` messages (whole words) and finally ``{"end": true}``; each gets one
``{"final", "provisional"}`` answer, the last one with ``"done": true``. A bad message is answered with
``{"error": ...}`` and a close code, never a crash; a client that stops reading or sending, or vanishes, is
dropped without disturbing the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..auto import AUTO, preferred
from ..cards import ModelError

log = logging.getLogger("charrestore.serve")


@dataclass(frozen=True)
class StreamLimits:
    max_chars: int = 2000  # per message: each word costs a window decode, so a message must stay small
    idle: float = 300.0  # seconds without a message before the server hangs up
    send_timeout: float = 10.0  # a client that does not read for this long is dropped
    max_streams: int = 256  # open streams per server process
    max_lookahead: int = 32


class ProtocolError(ValueError):
    """A message the protocol does not allow; ``code`` is the WebSocket close code to answer with."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


class Streams:
    """Serves the streams of one app; counts them, so that too many are refused instead of slowing all."""

    def __init__(self, restorers, lang: str, limits: StreamLimits):
        self.restorers, self.lang, self.limits = restorers, lang, limits
        self.active = 0

    async def serve(self, websocket: WebSocket) -> None:
        await websocket.accept()
        if self.active >= self.limits.max_streams:
            return await _close(websocket, 1013, f"too many streams (at most {self.limits.max_streams}); try later")
        self.active += 1
        try:
            await self._run(websocket)
        except (WebSocketDisconnect, OSError, RuntimeError) as exc:  # gone, too slow, or closed under us
            log.info("stream dropped: %s", exc.__class__.__name__)
        finally:
            self.active -= 1

    async def _run(self, websocket: WebSocket) -> None:
        try:
            stream = await self._open(websocket.query_params)
        except ProtocolError as exc:
            return await _close(websocket, exc.code, str(exc))
        while True:
            try:
                message = await asyncio.wait_for(websocket.receive(), self.limits.idle)
            except TimeoutError:
                return await _close(websocket, 1008, f"no message for {self.limits.idle:g} s")
            if message["type"] == "websocket.disconnect":
                return
            try:
                text, end = self._parse(message)
            except ProtocolError as exc:
                return await _close(websocket, exc.code, str(exc))
            answer = await self.restorers.run(_step, stream, text, end)
            await asyncio.wait_for(websocket.send_text(json.dumps(answer, ensure_ascii=False)),
                                   self.limits.send_timeout)
            if end:
                return await websocket.close(1000)

    async def _open(self, query):
        """A stream with the query's ``lang``, ``engine`` and ``lookahead``."""
        lookahead = query.get("lookahead")
        if lookahead is not None:
            if not lookahead.isdigit() or int(lookahead) > self.limits.max_lookahead:
                raise ProtocolError(1008, f"lookahead must be a whole number from 0 to {self.limits.max_lookahead}")
            lookahead = int(lookahead)
        lang = query.get("lang", self.lang)
        if lang == AUTO:
            raise ProtocolError(1008, "a live stream needs its language before the first word: give lang "
                                      "(POST /v1/detect names it)")
        try:  # auto:L: a stream has one language from its first word on, the preferred one
            restorer = await self.restorers.run(self.restorers.get, preferred(lang) or lang,
                                                query.get("engine", "auto"))
        except (ValueError, ModelError) as exc:  # an unknown pack, a bad engine, a missing model
            raise ProtocolError(1008, str(exc)) from None
        return restorer.stream(lookahead)

    def _parse(self, message) -> tuple[str, bool]:
        """``(text, end)`` of a client message, or a ProtocolError that says what is wrong with it."""
        raw = message.get("text")
        if raw is None:
            raise ProtocolError(1003, 'send JSON text frames: {"text": "..."} or {"end": true}')
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ProtocolError(1007, f"malformed JSON: {exc.msg}") from None
        if not isinstance(data, dict) or set(data) - {"text", "end"}:
            raise ProtocolError(1008, 'a message is an object with "text" (a string) and/or "end" (true)')
        text, end = data.get("text", ""), data.get("end", False)
        if not isinstance(text, str) or not isinstance(end, bool):
            raise ProtocolError(1008, '"text" must be a string and "end" a boolean')
        if len(text) > self.limits.max_chars:
            raise ProtocolError(1009, f"at most {self.limits.max_chars} characters per message, got {len(text)}")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(1007, "text holds a lone surrogate; send valid Unicode") from None
        return text, end


def _step(stream, text: str, end: bool) -> dict:
    """Push ``text`` (and end the stream if asked); the answer to send. Runs in the pool."""
    update = stream.push(text)
    if not end:
        return {"final": update.final, "provisional": update.provisional}
    return {"final": update.final + stream.end().final, "provisional": "", "done": True}


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    """Say why in an ``{"error"}`` message, then close with ``code`` (the reason, cut to fit a close frame)."""
    try:
        await websocket.send_text(json.dumps({"error": reason}, ensure_ascii=False))
        await websocket.close(code, reason.encode("utf-8")[:120].decode("utf-8", "ignore"))
    except (WebSocketDisconnect, OSError, RuntimeError):
        pass

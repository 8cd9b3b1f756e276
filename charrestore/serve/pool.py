"""The models a server shares and the threads that run them.

Loading a model takes time and memory, so each (lang, engine, spaces, hashtags) gets one ``Restorer``, loaded on
first use and kept in a small LRU cache. Inference is CPU-bound and would stall every other client if it ran
on the event loop, so it runs in a fixed pool of threads (ONNX Runtime sessions are thread-safe); a pool no
larger than the cores keeps requests queued in order instead of fighting over the CPUs.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from ..packs import load_pack
from ..restorer import Restorer


class Restorers:
    """A small LRU cache of restorers plus the thread pool that runs them."""

    def __init__(self, size: int = 8, threads: int | None = None):
        self.size = size
        self._cache: OrderedDict[tuple[str, str, str, str], Restorer] = OrderedDict()
        self._lock = threading.Lock()  # guards the cache
        self._loading = threading.Lock()  # one load at a time, so that no model is ever loaded twice
        self.executor = ThreadPoolExecutor(threads or os.cpu_count() or 1, thread_name_prefix="charrestore")

    @staticmethod
    def key(lang: str, engine: str = "auto", spaces: str = "auto",
            hashtags: str = "camel") -> tuple[str, str, str, str]:
        """The cache key, with ``auto`` resolved to the pack's engine (so auto and its engine share a model).
        Raises PackError (a ValueError) for a language that has no pack."""
        return lang, load_pack(lang).engine if engine == "auto" else engine, spaces, hashtags

    def get(self, lang: str, engine: str = "auto", spaces: str = "auto", hashtags: str = "camel") -> Restorer:
        """The shared restorer for these settings, loaded now if needed (blocking: call it in the pool)."""
        key = self.key(lang, engine, spaces, hashtags)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        with self._loading:
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            restorer = Restorer(lang=key[0], engine=key[1], spaces=key[2], hashtags=key[3])
            with self._lock:
                self._cache[key] = restorer
                while len(self._cache) > self.size:
                    self._cache.popitem(last=False)
        return restorer

    def loaded(self) -> list[tuple[str, str, str, str]]:
        with self._lock:
            return list(self._cache)

    async def run(self, fn, *args):
        """``fn(*args)`` in the pool, awaited without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

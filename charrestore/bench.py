"""How fast the installed models run on this machine: the measurement behind ``charrestore bench``.

The full benchmark (1 MB documents, peers, peak memory, cold start) is ``scripts/bench.py``; it uses the same
median timer, so the CLI and the script agree on what "median" means.

>>> median_time(lambda: None, 3) < 0.01
True
"""

from __future__ import annotations

import statistics
import time

# The 42-word paragraph of Table 5 of the CNN-BiLSTM paper (Edge-Punct-Casing): the latency probe for English.
TABLE5 = ("but what are the risks i am not technical i'm not an engineer i don't play one on the internet "
          "but i appreciate perspectives on ai from those people who are able to immerse themselves in some "
          "of the more technical aspects")


def median_time(fn, runs: int) -> float:
    """Median wall time of ``runs`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(restorer, docs: list[str], runs: int) -> dict:
    """Median over ``runs`` passes of restoring every document (after one warm-up pass)."""
    for doc in docs:
        restorer(doc)
    seconds = median_time(lambda: [restorer(doc) for doc in docs], runs)
    return {"ms_per_doc": 1000 * seconds / len(docs), "chars_per_s": sum(map(len, docs)) / seconds}

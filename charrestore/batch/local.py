"""``--runner local``: the per-batch function in a pool of processes on this machine, no Ray needed.

The parent reads the shards in file order and hands out batches; each worker process builds one Restorer
with one ONNX Runtime thread (ORT would otherwise size its pool to the whole machine in every worker).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from itertools import groupby

from . import io
from .records import Fields, restore_batch

_restorer = None


def _start(settings: dict) -> None:
    global _restorer
    from ..restorer import Restorer

    _restorer = Restorer(**settings, threads=1)


def _work(kind: str, payloads: list, fields: Fields):
    return restore_batch(_restorer, kind, payloads, fields)


def run_local(plan, pending, settings: dict, fields: Fields, workers: int, batch_size: int, collector) -> None:
    """Restore the ``pending`` shards (in plan order) and give every batch back to ``collector``."""
    context = multiprocessing.get_context("spawn")  # the parent may hold pyarrow threads: no fork
    with ProcessPoolExecutor(workers, context, initializer=_start, initargs=(settings,)) as pool:
        running = {}

        def drain(limit: int) -> None:
            while len(running) > limit:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    collector.add(*running.pop(future), *future.result())

        try:
            for file, shards in groupby(pending, key=lambda s: s.file):
                shards = list(shards)
                source = plan.sources[file]
                for shard, (_, payloads) in zip(shards, io.read_shards(source, [s.spec for s in shards], fields.text)):
                    for first in range(0, len(payloads), batch_size):
                        batch = payloads[first:first + batch_size]
                        running[pool.submit(_work, source.kind, batch, fields)] = (file, shard.index, first)
                        drain(2 * workers)
            drain(0)
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise

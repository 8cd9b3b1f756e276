"""``--runner ray``: a Ray Data dataset of the shards still to do, ``map_batches`` with a callable class that
loads the models once per actor, and the driver writing each shard as soon as its records are back.

A row is a read unit: one shard, or one gzip file (it can only be read from its start, so its shards come
in one pass). The actor reads its unit (inputs must be at the same path on every node: a shared disk),
restores it in batches and yields one table per shard. Writing on the driver needs no shared disk for the
output, and writes a shard exactly once even when Ray restarts a dead actor and runs its unit again (the
collector keys every record by shard and line). A resumed job's dataset holds only the unfinished shards.
"""

from __future__ import annotations

import json
from pathlib import Path

from .records import Fields


def _units(plan, pending) -> list[dict]:
    """Read units: one per shard, but one per gzip file (its shards in order, read in one pass)."""
    units: list[dict] = []
    for shard in pending:
        source = plan.sources[shard.file]
        spec = [shard.index, shard.spec.start, shard.spec.stop, shard.spec.count]
        if source.gz and units and units[-1]["file"] == shard.file:
            units[-1]["specs"].append(spec)
        else:
            units.append({"file": shard.file, "path": str(source.path), "kind": source.kind, "gz": source.gz,
                          "name": source.name, "specs": [spec]})
    return [{**unit, "specs": json.dumps(unit["specs"])} for unit in units]


class RestoreActor:
    """Loads the models once per actor (an ORT session with one intra-op thread); each call reads one unit
    and yields its shards' records restored, one table per shard."""

    def __init__(self, settings: dict, fields: tuple[str, str], batch_size: int):
        from ..restorer import Restorer

        self.restorer = Restorer(**settings, threads=1)
        self.fields, self.batch_size = Fields(*fields), batch_size

    def __call__(self, batch):
        import pyarrow as pa

        from . import io
        from .records import restore_batch

        unit = batch.to_pylist()[0]
        source = io.Source(Path(unit["path"]), unit["kind"], unit["gz"], unit["name"])
        specs = {io.Spec(*s[1:]): s[0] for s in json.loads(unit["specs"])}
        for spec, payloads in io.read_shards(source, list(specs), self.fields.text):
            outputs, errors, chars = [], [], []
            for first in range(0, len(payloads), self.batch_size):
                out, err, n = restore_batch(self.restorer, source.kind, payloads[first:first + self.batch_size],
                                            self.fields)
                outputs += out
                errors += err
                chars += n
            count = len(payloads)
            yield pa.table({"file": pa.array([unit["file"]] * count, pa.int64()),
                            "shard": pa.array([specs[spec]] * count, pa.int64()),
                            "line": pa.array(range(count), pa.int64()),
                            "output": pa.array(outputs, pa.binary()), "error": pa.array(errors, pa.string()),
                            "chars": pa.array(chars, pa.int64())})


def _init(address: str | None, workers: int | None):
    """Join ``address``, or start a local cluster with a CPU for every worker; quietly (the progress is ours)."""
    import logging
    import os

    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
    import ray.data

    if not ray.is_initialized():
        cpus = None if address else max(workers or 0, os.cpu_count() or 1)
        ray.init(address=address, num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR, configure_logging=True)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)
    return ray


def run_ray(plan, pending, settings: dict, fields: Fields, workers: int | None, batch_size: int, collector,
            address: str | None) -> None:
    """Restore the ``pending`` shards on Ray with ``workers`` actors (default: the cluster's CPUs)."""
    ray = _init(address, workers)

    workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    units = _units(plan, pending)
    ds = ray.data.from_items(units, override_num_blocks=len(units))
    ds = ds.map_batches(RestoreActor, fn_constructor_kwargs={"settings": settings, "batch_size": batch_size,
                                                             "fields": (fields.text, fields.output)},
                        batch_size=1, batch_format="pyarrow", compute=ray.data.ActorPoolStrategy(size=workers), num_cpus=1)
    for table in ds.iter_batches(batch_size=None, batch_format="pyarrow"):
        columns = [table.column(name).to_pylist() for name in ("file", "shard", "line", "output", "error", "chars")]
        start = 0
        for end in range(1, len(columns[0]) + 1):  # runs of consecutive lines of one shard
            if (end == len(columns[0]) or columns[0][end] != columns[0][start] or columns[1][end] != columns[1][start]
                    or columns[2][end] != columns[2][end - 1] + 1):
                collector.add(columns[0][start], columns[1][start], columns[2][start],
                              *(c[start:end] for c in columns[3:]))
                start = end

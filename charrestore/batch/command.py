"""The ``charrestore batch`` subcommand: ``add_batch`` (its arguments) and ``run_batch`` (its work), as in cli.py.

Heavy imports (onnxruntime, pyarrow, ray) happen inside ``run_batch`` so that ``charrestore --help`` stays fast.
"""

from __future__ import annotations

import sys

from ..auto import DEFAULT_LANG
from ..cli_util import add_command

RAY_EXTRA = "--runner ray needs the [ray] extra: pip install 'charrestore[ray]'"


def add_batch(sub) -> None:
    p = add_command(sub, run_batch,
        "batch", help="restore whole files or folders (txt, jsonl, parquet), resumable, locally or on Ray",
        description="Restore every document of the input files with the settings of 'fix'. A .txt gives a .txt with "
                    "exactly one line per input line, in order, equal to 'charrestore fix < file'; a JSONL or Parquet "
                    "record keeps every field and gains --output-field, and 'error' (a JSONL record without text or a bad "
                    "line gets one; Parquet gets the column, null where fine). Gzipped "
                    "text (.txt.gz, .jsonl.gz) is read too. Work is written as shards with a manifest in "
                    "OUTPUT.parts/: rerunning the same command skips the finished shards.",
        epilog="examples:\n  charrestore batch asr.txt --output asr.restored.txt\n"
               "  charrestore batch 'crawl/*.jsonl.gz' --output restored/ --workers 8\n"
               "  charrestore batch corpus/ --output out/ --runner ray --address auto")
    p.add_argument("input", nargs="+", metavar="INPUT", help="files, folders or globs of .txt/.jsonl/.parquet (+ .gz)")
    p.add_argument("--output", "-o", required=True, metavar="OUTPUT",
                   help="the output file for one input file, else a folder (outputs keep the inputs' names)")
    p.add_argument("--runner", choices=("local", "ray"), default="local",
                   help="local: a process pool on this machine (default); ray: Ray Data, here or on a cluster")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes or Ray actors, one core each (default: this machine's cores; with "
                        "--address, the cluster's)")
    p.add_argument("--address", default=None,
                   help="--runner ray: the cluster to join ('auto', 'ray://host:10001'); default: start a local one")
    p.add_argument("--lang", default=DEFAULT_LANG,
                   help="language pack; auto: each record in the language 'charrestore detect' names; auto:L: L "
                        f"unless another pack is clearly more likely (default: {DEFAULT_LANG}, as fix; see "
                        "'charrestore packs')")
    p.add_argument("--engine", choices=("auto", "char", "pipeline"), default="auto",
                   help="as for fix (default: the language pack's choice)")
    p.add_argument("--spaces", choices=("auto", "keep", "restore"), default="auto", help="as for fix (default: auto)")
    p.add_argument("--segmenter", choices=("auto", "nb", "none", "char"), default="auto", help="as for fix (default: auto)")
    p.add_argument("--text-field", default="text", help="JSONL/Parquet: the field to restore (default: text)")
    p.add_argument("--output-field", default="restored", help="JSONL/Parquet: the field to add (default: restored)")
    p.add_argument("--batch-size", type=int, default=64,
                   help="documents per call of the restoring function (default: 64)")
    p.add_argument("--shard-size", type=int, default=10000,
                   help="records per shard, the unit of output and resume (default: 10000)")
    p.add_argument("--max-shards", type=int, default=None, metavar="N",
                   help="restore at most N shards in this run, then stop (rerun to continue)")


def _note(message: str) -> None:
    print(f"charrestore: {message}", file=sys.stderr)


def run_batch(args) -> int:
    from pathlib import Path

    from .. import __version__
    from ..restorer import Restorer
    from . import io
    from .records import Fields
    from .shards import Collector, Manifest, Plan, Progress, job

    for option in ("workers", "batch_size", "shard_size", "max_shards"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise ValueError(f"--{option.replace('_', '-')} must be at least 1")
    if args.runner == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError(RAY_EXTRA) from None
    elif args.address:
        raise ValueError("--address joins a Ray cluster: give --runner ray")
    sources, single = io.expand(args.input)
    for source in sources:
        if source.kind == "parquet":
            io.check_parquet(source, args.text_field)
    restorer = Restorer(lang=args.lang, engine=args.engine, spaces=args.spaces, segmenter=args.segmenter)
    settings = {"lang": args.lang, "engine": restorer.config.engine, "spaces": args.spaces, "segmenter": args.segmenter}
    del restorer  # it only checked the settings; the workers build their own
    fields = Fields(args.text_field, args.output_field)
    plan = Plan(sources, single, Path(args.output), args.shard_size)
    manifest = Manifest(plan, job(plan, args.shard_size, {**settings, "text_field": fields.text,
                                                          "output_field": fields.output, "version": __version__}))
    if manifest.restarted:
        _note("the inputs or settings changed since the last run: starting over")
    outputs = sorted({plan.out_path(s.file) for s in plan.shards})
    if manifest.assembled and all(out.exists() for out in outputs):
        _note(f"{args.output} is complete: nothing to do")
        return 0
    progress = Progress(len(plan.shards), len(manifest.done))
    collector = Collector(plan, manifest, fields.output, progress)
    for shard in plan.shards:
        if shard.spec.count == 0 and shard.key not in manifest.done:
            collector.finish(shard, [], [], [])
    pending = [s for s in plan.shards if s.key not in manifest.done][:args.max_shards]
    try:
        if pending and args.runner == "ray":
            from .ray_runner import run_ray

            run_ray(plan, pending, settings, fields, args.workers, args.batch_size, collector, args.address)
        elif pending:
            from .local import run_local

            run_local(plan, pending, settings, fields, args.workers or _cores(), args.batch_size, collector)
    finally:
        progress.close()
    left = len(plan.shards) - len(manifest.done)
    if left:
        manifest.close()
        _note(f"stopped with {left} of {len(plan.shards)} shards left: rerun the same command to continue")
        return 0
    _assemble(plan, manifest)
    errors = sum(entry["errors"] for entry in manifest.done.values())
    if errors:
        what = ("lines with invalid UTF-8 passed through" if {s.kind for s in sources} == {"txt"}
                else "records passed through with an 'error' field (or txt lines with invalid UTF-8)")
        _note(f"warning: {errors} {what}")
    return 0


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _assemble(plan, manifest) -> None:
    """Every output from its shards in input order; then the shard files go and the manifest says so."""
    from itertools import groupby

    from . import io

    for file, shards in groupby(plan.shards, key=lambda s: s.file):
        io.assemble(plan.out_path(file), plan.sources[file], [plan.shard_path(s) for s in shards], plan.out_gz(file))
    manifest.mark_assembled()
    manifest.close()
    for shard in plan.shards:
        plan.shard_path(shard).unlink(missing_ok=True)

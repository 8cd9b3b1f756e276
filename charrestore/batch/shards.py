"""The plan (files, shards, where outputs go), the manifest that makes a job resumable, the collector that
writes each shard once all its records are back, and the progress line.

Shard outputs and ``manifest.jsonl`` live in ``OUTPUT.parts/``. The manifest's first line is the job (inputs
with size and mtime, settings); then one line per finished shard, appended after the shard file is in
place, so a listed shard is always complete. A rerun with the same job skips the listed shards; any other
job starts over. Outputs are assembled from the shards in input order once every shard is done.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import io


@dataclass(frozen=True)
class Shard:
    file: int
    index: int
    spec: io.Spec

    @property
    def key(self) -> str:
        return f"{self.file:05d}-{self.index:07d}"


class Plan:
    """Every input file cut into shards, and the output path of each file."""

    def __init__(self, sources: list[io.Source], single: bool, output: Path, shard_size: int):
        single = single and not output.is_dir()  # one file into an existing folder keeps its name there
        self.sources, self.single, self.output = sources, single, output
        if single and io.kind_of(output) and io.kind_of(output)[0] != sources[0].kind:
            raise ValueError(f"{output}: a {sources[0].kind} input gives a {sources[0].kind} output")
        self.work = output.with_name(output.name + ".parts")
        self.shards = [Shard(f, i, spec) for f, source in enumerate(sources)
                       for i, spec in enumerate(io.scan(source, shard_size))]

    def out_path(self, file: int) -> Path:
        return self.output if self.single else self.output / self.sources[file].name

    def out_gz(self, file: int) -> bool:
        return self.output.name.endswith(".gz") if self.single else self.sources[file].gz

    def shard_path(self, shard: Shard) -> Path:
        return self.work / f"{shard.key}.{self.sources[shard.file].kind}"


def job(plan: Plan, shard_size: int, settings: dict) -> dict:
    """What makes two runs the same job: the inputs as they are on disk and every setting of the output."""
    files = [[str(s.path.resolve()), s.path.stat().st_size, s.path.stat().st_mtime_ns] for s in plan.sources]
    return {"inputs": files, "output": str(plan.output.resolve()), "shard_size": shard_size, **settings}


def _loads(line: str):
    try:
        return json.loads(line)
    except ValueError:  # the torn last line of a run that was killed mid-write
        return None


class Manifest:
    """The job and its finished shards (``done``: key -> {lines, chars, errors})."""

    def __init__(self, plan: Plan, job: dict):
        self.path = plan.work / "manifest.jsonl"
        self.done: dict[str, dict] = {}
        self.assembled = False
        self.restarted = False
        lines = self.path.read_text(encoding="utf-8").splitlines() if self.path.exists() else []
        if lines and _loads(lines[0]) == {"job": job}:
            for entry in filter(None, map(_loads, lines[1:])):
                if entry.get("assembled"):
                    self.assembled = True
                elif "shard" in entry:
                    self.done[entry["shard"]] = entry
            self._file = open(self.path, "a", encoding="utf-8")
            if not self.path.read_text(encoding="utf-8").endswith("\n"):
                self._file.write("\n")
            return
        if plan.work.exists() and not self.path.exists():
            raise ValueError(f"{plan.work} exists and is not a batch work folder; move it away")
        self.restarted = bool(lines)
        for old in plan.work.glob("*") if plan.work.exists() else ():
            old.unlink()
        plan.work.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "w", encoding="utf-8")
        self._append({"job": job})

    def _append(self, entry: dict) -> None:
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def record(self, shard: Shard, lines: int, chars: int, errors: int) -> None:
        entry = {"shard": shard.key, "lines": lines, "chars": chars, "errors": errors}
        self.done[shard.key] = entry
        self._append(entry)

    def mark_assembled(self) -> None:
        self.assembled = True
        self._append({"assembled": True})

    def close(self) -> None:
        self._file.close()


class Progress:
    """Lines and characters per second on stderr: redrawn on a terminal, a line every 30 s in a log."""

    def __init__(self, shards: int, done: int, stream=None):
        self.total, self.shards, self.stream = shards, done, stream or sys.stderr
        self.lines = self.chars = 0
        self.start = self.last = time.monotonic()
        self.tty = self.stream.isatty()

    def update(self, lines: int, chars: int, shards: int = 0) -> None:
        self.lines, self.chars, self.shards = self.lines + lines, self.chars + chars, self.shards + shards
        now = time.monotonic()
        if now - self.last >= (0.5 if self.tty else 30):
            self.last = now
            self._show("\r" if self.tty else "", "" if self.tty else "\n")

    def _show(self, head: str, tail: str) -> None:
        seconds = max(time.monotonic() - self.start, 1e-9)
        self.stream.write(f"{head}charrestore batch: {self.shards}/{self.total} shards, {self.lines:,} lines, "
                          f"{self.lines / seconds:,.0f} lines/s, {self.chars / seconds:,.0f} chars/s{tail}")
        self.stream.flush()

    def close(self) -> None:
        self._show("\r" if self.tty else "", "\n")


class Collector:
    """Gathers records as they come back (in any order, a retried batch at most overwriting equal values)
    and writes each shard the moment its last record arrives."""

    def __init__(self, plan: Plan, manifest: Manifest, output_field: str, progress: Progress):
        self.plan, self.manifest, self.output_field, self.progress = plan, manifest, output_field, progress
        self.shards = {(s.file, s.index): s for s in plan.shards}
        self.partial: dict[tuple[int, int], tuple[list, list, list]] = {}

    def add(self, file: int, index: int, first: int, outputs, errors, chars) -> None:
        """Records ``first, first + 1, ...`` of shard ``index`` of file ``file``."""
        shard = self.shards[(file, index)]
        if shard.key in self.manifest.done:
            return
        slots = self.partial.setdefault((file, index), ([None] * shard.spec.count, [None] * shard.spec.count,
                                                         [None] * shard.spec.count))
        for slot, values in zip(slots, (outputs, errors, chars)):
            slot[first:first + len(values)] = values
        self.progress.update(len(outputs), sum(chars))
        out, err, count = slots
        if None not in count:
            self.finish(shard, out, err, count)

    def finish(self, shard: Shard, outputs, errors, chars) -> None:
        io.write_shard(self.plan.shard_path(shard), self.plan.sources[shard.file], shard.spec, outputs, errors,
                       self.output_field)
        self.manifest.record(shard, len(outputs), sum(chars), sum(e is not None for e in errors))
        self.partial.pop((shard.file, shard.index), None)
        self.progress.update(0, 0, 1)

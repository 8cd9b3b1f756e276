"""Inputs and outputs: which files, their shards, reading a shard's records, writing and assembling outputs.

A shard is a run of ``shard_size`` consecutive records of one file: a byte range of a txt/jsonl file
(offsets in the decompressed stream for gzip) or a row range of a Parquet file. Shards are cut the same
way by every runner, so a job stopped under one runner resumes under the other. Lines end at ``\\n`` only,
as ``charrestore fix`` reads stdin.
"""

from __future__ import annotations

import glob
import gzip
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

SUFFIXES = {".txt": "txt", ".jsonl": "jsonl", ".parquet": "parquet"}
PARQUET_EXTRA = "reading or writing Parquet needs pyarrow: pip install 'charrestore[batch]'"


@dataclass(frozen=True)
class Source:
    """One input file, its format, and the name its output takes under an output folder."""
    path: Path
    kind: str  # txt | jsonl | parquet
    gz: bool
    name: str


@dataclass(frozen=True)
class Spec:
    """Where a shard's records are (bytes or rows ``start:stop``) and how many there are."""
    start: int
    stop: int
    count: int


def kind_of(path: Path) -> tuple[str, bool] | None:
    """(kind, gzip) from the file name, or None for a file that is none of ours."""
    name = path.name.lower()
    gz = name.endswith(".gz")
    name = name.removesuffix(".gz")
    kind = SUFFIXES.get(os.path.splitext(name)[1])
    return None if kind is None or (gz and kind == "parquet") else (kind, gz)


def _source(path: Path, name: str) -> Source:
    found = kind_of(path)
    if found is None:
        raise ValueError(f"{path}: not a .txt, .jsonl or .parquet file (text may be gzipped: .txt.gz, .jsonl.gz)")
    return Source(path, found[0], found[1], name)


def expand(inputs: Sequence[str]) -> tuple[list[Source], bool]:
    """The input files in order (folders walked, globs expanded, each sorted) and whether the output is one
    file: a single INPUT that is a file gives a file, anything else a folder of outputs under their names."""
    sources = []
    for arg in inputs:
        path = Path(arg)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.is_file() and kind_of(p))
            sources += [_source(p, str(p.relative_to(path))) for p in files]
            if not files:
                raise ValueError(f"{arg}: no .txt, .jsonl or .parquet files in this folder")
        elif path.is_file():
            sources.append(_source(path, path.name))
        elif glob.has_magic(arg):
            files = sorted(Path(p) for p in glob.glob(arg, recursive=True) if Path(p).is_file() and kind_of(Path(p)))
            if not files:
                raise ValueError(f"{arg}: no .txt, .jsonl or .parquet files match")
            base = _plain_prefix(arg)
            sources += [_source(p, os.path.relpath(p, base)) for p in files]
        else:
            raise ValueError(f"{arg}: no such file or folder")
    names = [s.name for s in sources]
    if len(set(names)) != len(names):
        raise ValueError("two inputs would write the same output name; give them as one folder instead")
    return sources, len(inputs) == 1 and Path(inputs[0]).is_file()


def _plain_prefix(pattern: str) -> Path:
    """The folder of a glob before its first wildcard (outputs are named relative to it)."""
    prefix = Path(".")
    for part in Path(pattern).parts[:-1]:
        if glob.has_magic(part):
            break
        prefix /= part
    return prefix


def _open(source: Source):
    return gzip.open(source.path, "rb") if source.gz else open(source.path, "rb")


def _parquet():
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError(PARQUET_EXTRA) from None
    return pq


def check_parquet(source: Source, text_field: str) -> None:
    """A Parquet input must have a string column to restore (a one-line error before any work)."""
    pq = _parquet()  # first: without pyarrow, the one-line error naming the extra
    import pyarrow as pa

    schema = pq.read_schema(source.path)
    if text_field not in schema.names:
        raise ValueError(f"{source.path}: no column {text_field!r} (give --text-field)")
    kind = schema.field(text_field).type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise ValueError(f"{source.path}: column {text_field!r} is {kind}, not a string")


def scan(source: Source, shard_size: int) -> list[Spec]:
    """The file's shards in order; a file without records has one empty shard (its output still exists)."""
    if source.kind == "parquet":
        rows = _parquet().ParquetFile(source.path).metadata.num_rows
        specs = [Spec(s, min(s + shard_size, rows), min(s + shard_size, rows) - s) for s in range(0, rows, shard_size)]
        return specs or [Spec(0, 0, 0)]
    bounds, lines, pos, last = [0], 0, 0, b"\n"
    with _open(source) as f:
        while chunk := f.read(1 << 22):
            ends = np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10) + pos + 1  # the byte after each \n
            for n in range((lines // shard_size + 1) * shard_size, lines + len(ends) + 1, shard_size):
                bounds.append(int(ends[n - lines - 1]))
            lines, pos, last = lines + len(ends), pos + len(chunk), chunk[-1:]
    if pos > bounds[-1]:
        bounds.append(pos)
    counts = [shard_size] * (len(bounds) - 1)
    if counts and bounds[-1] == pos:
        counts[-1] = lines - shard_size * (len(counts) - 1) + (last != b"\n")
    return [Spec(a, b, n) for a, b, n in zip(bounds, bounds[1:], counts)] or [Spec(0, 0, 0)]


def read_shards(source: Source, specs: Sequence[Spec], text_field: str = "text"
                ) -> Iterator[tuple[Spec, list[bytes | None]]]:
    """Each spec (in file order) with its records' payloads: raw lines, or a Parquet row's text as UTF-8.
    One pass over the file: a gzip file is decompressed once, skipping finished shards."""
    if source.kind == "parquet":
        yield from _read_parquet(source, specs, text_field)
        return
    with _open(source) as f:
        for spec in specs:
            f.seek(spec.start)
            lines = f.read(spec.stop - spec.start).split(b"\n")
            if lines[-1] == b"":
                lines.pop()
            yield spec, lines


def _row_groups(pf, start: int, stop: int, columns):
    """Rows ``start:stop`` of a Parquet file, reading only the row groups that hold them."""
    groups, first, offset = [], None, 0
    for i in range(pf.metadata.num_row_groups):
        n = pf.metadata.row_group(i).num_rows
        if offset < stop and offset + n > start:
            groups.append(i)
            first = offset if first is None else first
        offset += n
    if not groups:
        return pf.schema_arrow.empty_table().select(columns) if columns else pf.schema_arrow.empty_table()
    table = pf.read_row_groups(groups, columns=columns)
    return table.slice(start - first, stop - start)


def _read_parquet(source, specs, text_field):
    pf = _parquet().ParquetFile(source.path)
    for spec in specs:
        column = _row_groups(pf, spec.start, spec.stop, [text_field]).column(0)
        yield spec, [None if v is None else v.encode("utf-8") for v in column.to_pylist()]


def write_shard(path: Path, source: Source, spec: Spec, outputs: Sequence[bytes | None],
                errors: Sequence[str | None], output_field: str) -> None:
    """A finished shard, written whole or not at all (a temporary file renamed into place)."""
    tmp = path.with_name(path.name + ".tmp")
    if source.kind != "parquet":
        with open(tmp, "wb") as f:
            f.write(b"".join(o + b"\n" for o in outputs))
        os.replace(tmp, path)
        return
    import pyarrow as pa

    pq = _parquet()
    table = _row_groups(pq.ParquetFile(source.path), spec.start, spec.stop, None)
    restored = pa.array([None if o is None else o.decode("utf-8") for o in outputs], pa.string())
    for name, column in ((output_field, restored), ("error", pa.array(list(errors), pa.string()))):
        if name in table.column_names:
            table = table.set_column(table.column_names.index(name), name, column)
        else:
            table = table.append_column(name, column)
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def assemble(out: Path, source: Source, shards: Sequence[Path], gz: bool) -> None:
    """The output file from its shards, in order (written beside it, then renamed into place)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    if source.kind == "parquet":
        pq = _parquet()
        first = pq.read_table(shards[0])
        with pq.ParquetWriter(tmp, first.schema) as writer:
            writer.write_table(first)
            for shard in shards[1:]:
                writer.write_table(pq.read_table(shard, schema=first.schema))
    else:
        with (gzip.open(tmp, "wb", compresslevel=6) if gz else open(tmp, "wb")) as f:
            for shard in shards:
                with open(shard, "rb") as part:
                    shutil.copyfileobj(part, f, 1 << 20)
    os.replace(tmp, out)

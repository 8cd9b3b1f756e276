"""charrestore batch: both runners give exactly what ``charrestore fix`` gives, line for line, in order,
for txt (plain and gzip), JSONL and Parquet; a stopped job resumes to the same output; a Ray worker killed
mid-run loses no line and doubles none."""

import gzip
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from charrestore.cli import main

WORDS = ("will ai change our future obviously the answer is yes i think we should go to new york on monday "
         "what do you want my name is john and this is a talk about science it was the best day ever").split()
EDGE = [b"", b"   ", b"bad \xff\xfe bytes here", b"with cr\r", b"willaichangeourfuture", b"Hello, world. 3.5 $1,000",
        b"\xef\xbb\xbfbom first", b"tab\there"]


def _lines(n: int, seed: int = 0) -> list[bytes]:
    rng = random.Random(seed)
    lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14))).encode() for _ in range(n)]
    for i, edge in enumerate(EDGE):
        lines.insert((i * 7) % max(n, 1), edge)
    return lines


LINES = _lines(60)
MANY = _lines(240, seed=1)


@pytest.fixture(scope="module")
def fixed() -> dict[bytes, bytes]:
    """Each distinct line -> what ``charrestore fix`` (the real CLI, one process) prints for it."""
    unique = sorted(set(LINES + MANY))
    run = subprocess.run([sys.executable, "-m", "charrestore", "fix"], input=b"\n".join(unique) + b"\n",
                         capture_output=True, check=True)
    out = run.stdout.split(b"\n")
    assert out[-1] == b"" and len(out) == len(unique) + 1
    return dict(zip(unique, out))


def _txt(path: Path, lines: list[bytes], end: bytes = b"\n") -> Path:
    data = b"\n".join(lines) + end
    path.write_bytes(gzip.compress(data) if path.name.endswith(".gz") else data)
    return path


def _expected(fixed, lines) -> bytes:
    return b"".join(fixed[line] + b"\n" for line in lines)


def _batch(*args) -> int:
    return main(["batch", *map(str, args)])


def test_txt_local_equals_fix_in_order_across_shards(tmp_path, fixed, capsys):
    src = _txt(tmp_path / "in.txt", LINES, end=b"")  # a last line without \n, as fix reads it
    assert _batch(src, "-o", tmp_path / "out.txt", "--shard-size", 1, "--batch-size", 2, "--workers", 2) == 0
    assert (tmp_path / "out.txt").read_bytes() == _expected(fixed, LINES)
    err = capsys.readouterr().err
    assert "lines/s" in err and "chars/s" in err
    assert "warning: 1 lines with invalid UTF-8" in err


def test_folder_of_gzip_jsonl_and_txt_mirrors_names(tmp_path, fixed):
    (tmp_path / "in" / "sub").mkdir(parents=True)
    _txt(tmp_path / "in" / "a.txt.gz", LINES[:20])
    _txt(tmp_path / "in" / "sub" / "b.txt", LINES[20:])
    (tmp_path / "in" / "empty.txt").write_bytes(b"")
    (tmp_path / "in" / "notes.md").write_text("not an input")
    assert _batch(tmp_path / "in", "-o", tmp_path / "out", "--shard-size", 6, "--workers", 1) == 0
    assert gzip.decompress((tmp_path / "out" / "a.txt.gz").read_bytes()) == _expected(fixed, LINES[:20])
    assert (tmp_path / "out" / "sub" / "b.txt").read_bytes() == _expected(fixed, LINES[20:])
    assert (tmp_path / "out" / "empty.txt").read_bytes() == b""
    assert sorted(p.name for p in (tmp_path / "out").rglob("*") if p.is_file()) == ["a.txt.gz", "b.txt", "empty.txt"]


def test_one_file_into_an_existing_folder_keeps_its_name(tmp_path, fixed):
    (tmp_path / "out").mkdir()
    assert _batch(_txt(tmp_path / "in.txt", LINES[:5]), "-o", tmp_path / "out") == 0
    assert (tmp_path / "out" / "in.txt").read_bytes() == _expected(fixed, LINES[:5])


def _records(lines) -> list[bytes]:
    """JSONL input: a record per text line with other fields, and every kind of bad line in between."""
    records = [json.dumps({"id": i, "text": line.decode(), "meta": {"k": [i]}}).encode()
               for i, line in enumerate(lines) if line.strip() and b"\xff" not in line]
    records[3:3] = [b"", b"{not json", b"[1, 2]", b'{"id": "x", "text": null}', b'{"id": "y"}', b"bad \xff"]
    return records


def _check_jsonl(out: bytes, records: list[bytes], fixed) -> None:
    got = out.split(b"\n")
    assert got.pop() == b"" and len(got) == len(records)
    for raw, line in zip(records, got):
        if not raw.strip():
            assert line == raw
            continue
        record = json.loads(line)
        try:
            original = json.loads(raw)
        except ValueError:
            original = None
        if isinstance(original, dict) and isinstance(original.get("text"), str):
            assert record == {**original, "restored": fixed[original["text"].encode()].decode()}
        else:
            assert record["error"] and record.get("restored") is None
            if isinstance(original, dict):
                assert {k: record[k] for k in original} == original


def test_jsonl_keeps_fields_and_passes_bad_lines_through(tmp_path, fixed, capsys):
    records = _records(LINES)
    _txt(tmp_path / "in.jsonl", records)
    assert _batch(tmp_path / "in.jsonl", "-o", tmp_path / "out.jsonl", "--shard-size", 9, "--workers", 2) == 0
    _check_jsonl((tmp_path / "out.jsonl").read_bytes(), records, fixed)
    assert "warning: 5 records" in capsys.readouterr().err


def _parquet(path: Path, lines) -> list[str | None]:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    texts = [line.decode() for line in lines if b"\xff" not in line] + [None]
    table = pa.table({"id": list(range(len(texts))), "text": texts})
    pq.write_table(table, path, row_group_size=7)
    return texts


def _check_parquet(path: Path, texts, fixed) -> None:
    import pyarrow.parquet as pq

    table = pq.read_table(path).to_pydict()
    assert table["id"] == list(range(len(texts))) and table["text"] == texts
    assert table["restored"] == [None if t is None else fixed[t.encode()].decode() for t in texts]
    assert table["error"] == [None] * (len(texts) - 1) + ["no string in field 'text'"]


def test_parquet_keeps_columns_in_order(tmp_path, fixed):
    texts = _parquet(tmp_path / "in.parquet", LINES)
    assert _batch(tmp_path / "in.parquet", "-o", tmp_path / "out.parquet", "--shard-size", 5, "--workers", 2) == 0
    _check_parquet(tmp_path / "out.parquet", texts, fixed)


def _manifest(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out.parent / (out.name + ".parts") / "manifest.jsonl").read_text().splitlines()]


def test_stopped_job_resumes_to_the_same_output(tmp_path, fixed, capsys):
    src, out = _txt(tmp_path / "in.txt", LINES), tmp_path / "out.txt"
    args = [src, "-o", out, "--shard-size", 8, "--workers", 2]
    assert _batch(*args, "--max-shards", 3) == 0
    assert not out.exists() and "rerun the same command" in capsys.readouterr().err
    first = {e["shard"] for e in _manifest(out)[1:]}
    assert len(first) == 3
    assert _batch(*args) == 0
    assert out.read_bytes() == _expected(fixed, LINES)
    entries = _manifest(out)[1:]
    shards = [e["shard"] for e in entries if "shard" in e]
    assert len(shards) == len(set(shards)) == -(-len(LINES) // 8)  # the second run did only the rest
    assert entries[-1] == {"assembled": True} and not list(out.parent.glob("out.txt.parts/*.txt"))
    capsys.readouterr()
    assert _batch(*args) == 0 and "nothing to do" in capsys.readouterr().err
    src.write_bytes(LINES[5] + b"\n")
    assert _batch(*args) == 0 and "starting over" in capsys.readouterr().err
    assert out.read_bytes() == _expected(fixed, LINES[5:6])


def test_errors_are_one_line(tmp_path, capsys):
    assert _batch(tmp_path / "missing.txt", "-o", tmp_path / "o.txt") == 1
    assert _batch(_txt(tmp_path / "in.txt", [b"x"]), "-o", tmp_path / "o.jsonl") == 1
    assert _batch(tmp_path / "in.txt", "-o", tmp_path / "o.txt", "--workers", 0) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(line.startswith("charrestore: error: ") for line in err)


def test_local_runner_imports_neither_tensorflow_nor_ray(tmp_path, fixed):
    src = _txt(tmp_path / "in.txt", LINES[:10])
    code = ("import sys; from charrestore.cli import main; rc = main(sys.argv[1:]); "
            "assert not {'tensorflow', 'ray', 'keras'} & set(sys.modules), 'heavy import'; sys.exit(rc)")
    subprocess.run([sys.executable, "-c", code, "batch", str(src), "-o", str(tmp_path / "out.txt")], check=True,
                   capture_output=True)
    assert (tmp_path / "out.txt").read_bytes() == _expected(fixed, LINES[:10])


def test_pyarrow_missing_is_one_line_naming_the_extra(tmp_path, capsys, monkeypatch):
    (tmp_path / "in.parquet").write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    assert _batch(tmp_path / "in.parquet", "-o", tmp_path / "o.parquet") == 1
    assert "pip install 'charrestore[batch]'" in capsys.readouterr().err


def test_ray_missing_is_one_line_naming_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    assert _batch(_txt(tmp_path / "in.txt", [b"x"]), "-o", tmp_path / "o.txt", "--runner", "ray") == 1
    assert "pip install 'charrestore[ray]'" in capsys.readouterr().err


# --- Ray: one small local cluster for the module ------------------------------------------

@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    pytest.importorskip("pyarrow")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_runner_equals_fix_for_txt_jsonl_parquet(tmp_path, fixed, ray_cluster):
    (tmp_path / "in").mkdir()
    _txt(tmp_path / "in" / "a.txt", LINES)
    _txt(tmp_path / "in" / "b.txt.gz", LINES[::-1])
    records = _records(LINES)
    _txt(tmp_path / "in" / "c.jsonl", records)
    texts = _parquet(tmp_path / "in" / "d.parquet", LINES)
    assert _batch(tmp_path / "in", "-o", tmp_path / "out", "--runner", "ray", "--workers", 2, "--shard-size", 11) == 0
    assert (tmp_path / "out" / "a.txt").read_bytes() == _expected(fixed, LINES)
    assert gzip.decompress((tmp_path / "out" / "b.txt.gz").read_bytes()) == _expected(fixed, LINES[::-1])
    _check_jsonl((tmp_path / "out" / "c.jsonl").read_bytes(), records, fixed)
    _check_parquet(tmp_path / "out" / "d.parquet", texts, fixed)


def _map_workers() -> list[int]:
    """Pids of Ray Data's actor processes (their titles read ``ray::MapWorker(...)``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and b"MapWorker" in (entry / "cmdline").read_bytes():
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the worker processes through /proc")
def test_ray_worker_killed_mid_run_loses_nothing(tmp_path, fixed, ray_cluster):
    src, out = _txt(tmp_path / "in.txt", MANY), tmp_path / "out.txt"
    killed = []

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            manifest = out.parent / "out.txt.parts" / "manifest.jsonl"
            done = len(manifest.read_text().splitlines()) - 1 if manifest.exists() else 0
            workers = _map_workers()
            if done >= 2 and workers:
                os.kill(workers[0], signal.SIGKILL)
                killed.append(done)
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one)
    killer.start()
    try:
        assert _batch(src, "-o", out, "--runner", "ray", "--workers", 2, "--shard-size", 4, "--batch-size", 2) == 0
    finally:
        killer.join()
    assert killed and killed[0] < -(-len(MANY) // 4), "the worker was killed mid-run"
    assert out.read_bytes() == _expected(fixed, MANY)

"""train token: a weights-only compact state resumes with the saved weights, epoch count and tokenizer; a run
initialized from another gains the edge row and carries its history; edge windows sit at sentence ends."""

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

keras = pytest.importorskip("keras")
pytest.importorskip("sentencepiece")

from charrestore.training.runs import WEIGHTS, TrainingError, load_trained  # noqa: E402
from charrestore.training.train_token import WordWindowSampler, add_arguments, train  # noqa: E402

TEXT = Path(__file__).parent / "fixtures" / "text" / "en.txt"


def tiny_args(out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([
        "--lang", "en", "--corpus", str(TEXT), "--dev", str(TEXT), "--out", str(out), "--vocab", "120",
        "--lexicon-min", "1", "--window", "8", "--batch", "4", "--steps", "2", "--epochs", "1", "--emb", "4",
        "--lstm", "4", "--dev-windows", "4", *extra])


def test_weights_only_state_resumes(tmp_path):
    state_dir = tmp_path / "state"
    train(tiny_args(tmp_path / "a", "--save-state", str(state_dir), "--state-weights-only"))
    assert sorted(p.name for p in state_dir.iterdir()) == ["meta.json", "state.json", "tokenizer.model", WEIGHTS]

    # The resumed optimizer starts at the state's learning rate: at 0, the weights must come back unchanged.
    state = json.loads((state_dir / "state.json").read_text())
    state["history"][-1]["lr"] = 0.0
    (state_dir / "state.json").write_text(json.dumps(state))
    out = train(tiny_args(tmp_path / "b", "--resume-from", str(state_dir)))

    resumed = json.loads((out / "state.json").read_text())
    assert resumed["epoch"] == 2 and resumed["history"][0] == state["history"][0]
    assert (out / "data" / "tokenizer.model").read_bytes() == (state_dir / "tokenizer.model").read_bytes()
    saved = np.load(state_dir / WEIGHTS)
    weights = keras.saving.load_model(out / "last.keras").get_weights()
    assert len(weights) == len(saved.files)
    for i, w in enumerate(weights):
        np.testing.assert_array_equal(w, saved[f"w{i}"])


def test_init_from_adds_the_edge_row_takes_the_window_and_carries_the_run(tmp_path):
    first = train(tiny_args(tmp_path / "a"))
    start = load_trained(first).get_weights()
    # At learning rate 0 the new run keeps the weights it starts from: the old ones plus the edge row.
    out = train(tiny_args(tmp_path / "b", "--init-from", str(first), "--edges", "0.5", "--lr", "0", "--window", "12"))
    weights = keras.saving.load_model(out / "last.keras").get_weights()
    assert weights[0].shape == (start[0].shape[0] + 1, start[0].shape[1])
    np.testing.assert_array_equal(weights[0][:-1], start[0])
    np.testing.assert_allclose(weights[0][-1], start[0].mean(0), rtol=1e-6)
    for w, s in zip(weights[1:], start[1:]):
        np.testing.assert_array_equal(w, s)
    a, b = (json.loads((d / "state.json").read_text()) for d in (first, out))
    assert b["stage_start"] == a["epoch"] and b["epoch"] == a["epoch"] + 1
    assert b["hyper"]["edges"] == 0.5 and b["hyper"]["window"] == 12 and b["cpu_seconds"] > a["cpu_seconds"]
    assert b["history"][:a["epoch"]] == a["history"] and b["commands"][:-1] == a["commands"]


def test_edge_windows_begin_after_or_end_at_a_sentence_end():
    n, W, edge, end = 400, 8, 99, 2
    rng = np.random.default_rng(0)
    punct = np.where(rng.random(n) < 0.15, end, 0).astype(np.int32)
    flat = np.arange(1, n + 1, dtype=np.int32)  # one subword per word
    stream = (flat, np.arange(n + 1), punct, np.zeros(n, np.int32))
    sampler = WordWindowSampler([stream], [1.0], W, rng, edge=edge, edges=1.0, end_labels=[end])
    (ids, starts), (p, _) = sampler.batch(64)
    begins = ids[:, 0] == edge
    ends = (ids == edge).any(1) & ~begins
    assert begins.any() and ends.any()
    for k in np.flatnonzero(begins):
        first_word = ids[k, 1] - 1
        assert punct[first_word - 1] == end and starts[k, 0] == 1
    for k in np.flatnonzero(ends):
        assert p[k, -1] == end and ids[k, W] == edge


def test_short_batches_are_whole_sentences_with_both_edges(tmp_path):
    """A short batch holds inputs of one to three whole sentences, all of one length, each with the edge id
    before and after it: what the runtime reads when a user types one line."""
    n, W, edge, end = 2000, 16, 9999, 2
    rng = np.random.default_rng(1)
    punct = np.where(rng.random(n) < 0.2, end, 0).astype(np.int32)
    flat = np.arange(1, n + 1, dtype=np.int32)
    streams = [(flat, np.arange(n + 1), punct, np.zeros(n, np.int32)),
               (flat[:300], np.arange(301), punct[:300], np.zeros(300, np.int32))]
    sampler = WordWindowSampler(streams, [1.0, 1.0], W, rng, edge=edge, edges=0.5, end_labels=[end], short=1.0)
    lengths = set()
    for _ in range(20):
        (ids, starts), (p, _) = sampler.batch(8)
        length = p.shape[1]
        lengths.add(length)
        assert 1 <= length <= W and ids.shape[1] == length + 2  # one subword a word, and the two edge ids
        assert (ids[:, 0] == edge).all() and (ids[:, -1] == edge).all()
        first = ids[:, 1] - 1
        assert all(f == 0 or punct[f - 1] == end for f in first)  # each input starts a sentence ...
        assert (p[:, -1] == end).all()  # ... and ends one,
        assert ((p[:, :-1] == end).sum(1) <= 2).all()  # holding at most three
    assert len(lengths) > 3
    with pytest.raises(TrainingError, match="--edges"):
        train(tiny_args(tmp_path / "a", "--short", "0.5"))


def test_sampling_weights_come_from_the_command_line(tmp_path):
    from charrestore.training.train_token import sampling_weights

    a, b = tmp_path / "a.tsv", tmp_path / "b.tsv"
    meta = {"sources": [{"path": str(a), "weight": 1.0}, {"path": str(b), "weight": 2.0}]}
    assert sampling_weights(meta, [(str(a), 0.0), (str(b), 5.0)]) == [0.0, 5.0]
    assert sampling_weights(meta, [(str(a), 3.0)]) == [3.0, 2.0]  # a source not named keeps its encoded weight
    with pytest.raises(TrainingError, match="weight 0"):
        sampling_weights(meta, [(str(a), 0.0), (str(b), 0.0)])


def test_spoken_sources_are_made_alike_before_reading(tmp_path):
    """Court "..." and earnings "…" mid-turn are interruptions ("--"), WorkLife speaker initials go; other files
    (dev references among them) are read as they are."""
    from charrestore import load_pack
    from charrestore.training.corpus import read_documents

    pack = load_pack("en")
    rows = {"scotus_oral_arguments": "t1\tThis litigation alone... these cases go on for years...",
            "earnings_calls": "e21\tWe expect… you know, growth…",
            "ted_extra": "ted1\tThe old and the new. MM: The medium does. USA Today said so.",
            "ted_dev": "1\tWell... I think so."}
    docs = {}
    for name, row in rows.items():
        (tmp_path / f"{name}.tsv").write_text(row + "\n", encoding="utf-8")
        docs[name] = read_documents(tmp_path / f"{name}.tsv", pack)[0]
    assert docs["scotus_oral_arguments"] == "This litigation alone -- these cases go on for years..."
    assert docs["earnings_calls"] == "We expect -- you know, growth…"
    assert docs["ted_extra"] == "The old and the new. The medium does. USA Today said so."
    assert docs["ted_dev"] == "Well... I think so."


def test_a_heading_is_dropped_in_any_cased_script():
    """A paragraph without a small letter is a heading (dropped); Cyrillic small letters count, as Latin ones do."""
    from charrestore import load_pack
    from charrestore.training.corpus import clean

    ru, en = load_pack("ru"), load_pack("en")
    assert clean("Мой друг живёт в Казани.", ru) == "Мой друг живёт в Казани."
    assert clean("ГЛАВА ПЕРВАЯ", ru) == "" and clean("CHAPTER ONE", en) == ""
    assert clean("Über Mut.", load_pack("de")) == "Über Mut."


def test_xz_corpora_read_as_their_plain_form(tmp_path):
    """A ``.tsv.xz`` corpus (the new languages' format) reads as the same file uncompressed, for training and dev."""
    import lzma

    from charrestore import load_pack
    from charrestore.training.corpus import read_documents
    from charrestore.tuning.dev import load_dev

    pack = load_pack("en")
    rows = "d1\tFirst paragraph. Yes!\nd1\tSecond one?\nd2\tAnother document, here.\n"
    (tmp_path / "plain.tsv").write_text(rows, encoding="utf-8")
    with lzma.open(tmp_path / "packed.tsv.xz", "wt", encoding="utf-8") as fh:
        fh.write(rows)
    assert read_documents(tmp_path / "packed.tsv.xz", pack) == read_documents(tmp_path / "plain.tsv", pack)
    assert len(read_documents(tmp_path / "packed.tsv.xz", pack)) == 2
    assert load_dev([tmp_path / "packed.tsv.xz"], pack) == load_dev([tmp_path / "plain.tsv"], pack)


def test_brown_dev_documents_are_never_trained_on(tmp_path):
    """corpus.HELD_OUT: the 1-in-5 Brown documents that scripts/eval_char.py --holdout 5 scores are left out of
    training, and dev.py's reader picks exactly those."""
    from charrestore import load_pack
    from charrestore.holdout import held_out
    from charrestore.training.corpus import read_documents
    from charrestore.tuning.dev import load_dev

    pack = load_pack("en")
    ids = [f"c{k:03d}" for k in range(40)]
    path = tmp_path / "brown_train_docs.tsv"
    path.write_text("".join(f"{i}\tnews\tDocument {i} is here.\n" for i in ids), encoding="utf-8")
    dev = {i for i in ids if held_out(i, 5)}
    assert 0 < len(dev) < len(ids)
    trained = {d.split()[1] for d in read_documents(path, pack)}
    assert trained == set(ids) - dev
    assert {d.split()[1] for d in load_dev([path], pack, 5)} == dev


def test_holdout_halves_split_the_held_out_articles(tmp_path):
    """holdout.Holdout: ``100`` (tuning) and ``100:50`` (test) are disjoint and together are exactly the ``50``
    share that a run held out (train_char --dev-holdout 50), so a tuned card is scored on unseen articles."""
    import pytest

    from charrestore import load_pack
    from charrestore.holdout import Holdout
    from charrestore.tuning.dev import load_dev

    pack = load_pack("en")
    path = tmp_path / "wiki.tsv"
    path.write_text("".join(f"{i}\tArticle {i} is here.\n" for i in range(1, 401)), encoding="utf-8")
    ids = {spec: {int(d.split()[1]) for d in load_dev([path], pack, spec)} for spec in ("50", "100", "100:50")}
    assert ids["50"] == {50, 100, 150, 200, 250, 300, 350, 400}
    assert ids["100"] == {100, 200, 300, 400} and ids["100:50"] == {50, 150, 250, 350}
    assert len(load_dev([path], pack, Holdout())) == 400
    assert str(Holdout.parse("100:50")) == "100:50" and Holdout.parse(Holdout.parse(7)) == Holdout(7)
    for bad in ("10:10", "-1", "x", "5:-1"):
        with pytest.raises(ValueError):
            Holdout.parse(bad)


def test_holdout_documents_are_never_trained_on_and_dev_takes_its_half(tmp_path):
    """train token --holdout 50 --dev-holdout 100: the held-out articles stay out of the encoded training data,
    and the validation set is the tuning half alone (the test half, 100:50, is read by nothing in training)."""
    from charrestore import load_pack
    from charrestore.holdout import Holdout
    from charrestore.training.train_token import prepare_data

    path = tmp_path / "wiki.tsv"
    path.write_text("".join(f"{i}\tArticle {i} is here, and it is about the town.\n" for i in range(1, 301)),
                    encoding="utf-8")
    meta = prepare_data(load_pack("en"), [(str(path), 1.0)], [str(path)], 60, 1, tmp_path / "run", 50,
                        Holdout.parse("100"))
    assert meta["sources"][0]["docs"] == 294 and meta["dev_holdout"] == "100"
    assert meta["dev_words"] == 3 * 10  # articles 100, 200 and 300, ten words each

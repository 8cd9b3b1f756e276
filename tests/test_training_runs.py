"""training.runs: weights-only states (fp16 when lossless enough), resuming char and token runs from them,
and errors as TrainingError (a ValueError that the CLI prints as one line)."""

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

keras = pytest.importorskip("keras")

from charrestore.training import runs  # noqa: E402
from charrestore.training.char_model import build_char_model  # noqa: E402
from charrestore.training.runs import BEST, LAST, STATE, WEIGHTS, TrainingError  # noqa: E402
from charrestore.training.train_char import add_arguments, train  # noqa: E402
from charrestore.training.widen import widen_model, widen_weights  # noqa: E402

TEXT = Path(__file__).parent / "fixtures" / "text" / "en.txt"


def tiny_char_args(out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([
        "--lang", "en", "--corpus", str(TEXT), "--dev", str(TEXT), "--out", str(out), "--min-count", "1",
        "--window", "24", "--batch", "4", "--steps", "2", "--epochs", "1", "--emb", "4", "--conv", "8",
        "--kernel", "3", "--dilations", "1", "--lstm", "4", "--dev-windows", "4", *extra])


def test_char_run_resumes_from_a_weights_only_state(tmp_path):
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / LAST).write_text("an earlier full state")  # must not win over the new weights when resuming
    train(tiny_char_args(tmp_path / "a", "--save-state", str(state_dir), "--state-weights-only"))
    assert sorted(p.name for p in state_dir.iterdir()) == ["meta.json", STATE, WEIGHTS]

    # A weights-only state restarts Adam at the saved learning rate: at 0, the weights come back exactly.
    state = json.loads((state_dir / STATE).read_text())
    state["history"][-1]["lr"] = 0.0
    (state_dir / STATE).write_text(json.dumps(state))
    out = train(tiny_char_args(tmp_path / "b", "--resume-from", str(state_dir)))

    resumed = json.loads((out / STATE).read_text())
    assert resumed["epoch"] == 2 and resumed["history"][0] == state["history"][0]
    assert resumed["cpu_seconds"] > state["cpu_seconds"] and len(resumed["commands"]) == 2
    assert (out / "data" / "meta.json").read_bytes() == (state_dir / "meta.json").read_bytes()
    saved = np.load(state_dir / WEIGHTS)
    weights = keras.saving.load_model(out / LAST).get_weights()
    assert len(weights) == len(saved.files)
    for i, w in enumerate(weights):
        np.testing.assert_array_equal(w, saved[f"w{i}"])


def test_a_weights_only_state_seeds_a_whole_run_and_a_new_window(tmp_path):
    state_dir = tmp_path / "state"
    train(tiny_char_args(tmp_path / "a", "--save-state", str(state_dir), "--state-weights-only"))

    # Seeded with no training, the folder already holds a loadable model with the state's weights
    # (what `export` and `--init-from` read).
    seeded = train(tiny_char_args(tmp_path / "b", "--resume-from", str(state_dir), "--epochs", "0"))
    saved = np.load(state_dir / WEIGHTS)
    for i, w in enumerate(keras.saving.load_model(seeded / LAST).get_weights()):
        np.testing.assert_array_equal(w, saved[f"w{i}"])

    # --set-window and --set-batch change the training windows and batches from then on; later stages keep them.
    out = train(tiny_char_args(tmp_path / "c", "--resume-from", str(state_dir), "--set-window", "32",
                               "--set-batch", "8"))
    hyper = json.loads((out / STATE).read_text())["hyper"]
    assert (hyper["window"], hyper["batch"]) == (32, 8)
    again = train(tiny_char_args(out, "--epochs", "1"))
    state = json.loads((again / STATE).read_text())
    assert (state["hyper"]["window"], state["hyper"]["batch"], state["epoch"]) == (32, 8, 3)
    assert "gpu" not in state  # TensorFlow on the CPU: no GPU time to record

    # --set-dropout: the same weights in a model with the new dropout, which later stages keep.
    model = keras.saving.load_model(train(tiny_char_args(tmp_path / "d", "--resume-from", str(state_dir),
                                                         "--set-dropout", "0.3", "--epochs", "0")) / LAST)
    assert {layer.rate for layer in model.layers if isinstance(layer, keras.layers.Dropout)} == {0.3}
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_array_equal(w, saved[f"w{i}"])
    again = train(tiny_char_args(tmp_path / "d", "--epochs", "1"))
    assert json.loads((again / STATE).read_text())["hyper"]["dropout"] == 0.3


def tiny_model():
    keras.utils.set_random_seed(0)
    return build_char_model(30, 8, emb=4, conv=8, kernel=3, dilations=(1,), lstm=4)


def probe():
    return np.random.default_rng(0).integers(0, 30, size=(4, 16)).astype(np.int32)


def test_weights_are_stored_fp16_when_the_outputs_barely_move(tmp_path):
    model = tiny_model()
    before = model.get_weights()
    diff = runs.save_weights(model, tmp_path / WEIGHTS, probe())
    assert 0 < diff < runs.FP16_TOLERANCE
    for w, b in zip(model.get_weights(), before):  # the model itself keeps its fp32 weights
        np.testing.assert_array_equal(w, b)
    with np.load(tmp_path / WEIGHTS) as saved:
        assert {saved[k].dtype for k in saved.files} == {np.dtype(np.float16)}

    other = tiny_model()
    runs.load_weights(other, tmp_path / WEIGHTS)
    assert all(w.dtype == np.float32 for w in other.get_weights())
    np.testing.assert_allclose(other(probe()).numpy(), model(probe()).numpy(), atol=runs.FP16_TOLERANCE)


def test_weights_stay_fp32_when_fp16_moves_the_outputs(tmp_path, monkeypatch):
    monkeypatch.setattr(runs, "FP16_TOLERANCE", 0.0)
    model = tiny_model()
    runs.save_weights(model, tmp_path / WEIGHTS, probe())
    with np.load(tmp_path / WEIGHTS) as saved:
        for i, w in enumerate(model.get_weights()):
            np.testing.assert_array_equal(saved[f"w{i}"], w)


def test_weights_of_another_model_are_a_training_error(tmp_path):
    np.savez(tmp_path / WEIGHTS, w0=np.zeros(3, np.float32))
    with pytest.raises(TrainingError, match="1 arrays"):
        runs.load_weights(tiny_model(), tmp_path / WEIGHTS)


def test_resuming_from_a_folder_without_a_state_is_a_training_error(tmp_path):
    with pytest.raises(ValueError, match="holds no training state"):
        runs.seed_from(tmp_path / "nothing", tmp_path / "run", ("meta.json",))


def test_a_run_folder_never_continues_another_course_than_the_state_it_is_given(tmp_path):
    run, main, member = tmp_path / "run", tmp_path / "main-state", tmp_path / "member-state"
    train(tiny_char_args(run, "--save-state", str(main), "--state-weights-only"))
    # A member goes on from the main state in its own folder, and its state is promoted over the main one.
    train(tiny_char_args(tmp_path / "member", "--resume-from", str(main), "--save-state", str(member),
                         "--state-weights-only"))
    promoted = json.loads((member / STATE).read_text())
    shutil.rmtree(main)
    shutil.copytree(member, main)

    train(tiny_char_args(run, "--resume-from", str(main), "--save-state", str(main), "--state-weights-only"))
    state = json.loads((run / STATE).read_text())
    assert state["epoch"] == 3 and state["history"][:2] == promoted["history"]
    aside = json.loads((run / "superseded-1" / STATE).read_text())
    assert aside["epoch"] == 1 and aside["history"][0] == state["history"][0]

    # The folder now holds the state it saved: the next stage goes on from it as it is, with nothing set aside.
    train(tiny_char_args(run, "--resume-from", str(main)))
    assert json.loads((run / STATE).read_text())["epoch"] == 4
    assert not (run / "superseded-2").exists()


def test_a_state_with_another_vocabulary_has_the_folder_encode_its_corpora_again(tmp_path):
    state_dir, run = tmp_path / "state", tmp_path / "run"
    train(tiny_char_args(tmp_path / "a", "--save-state", str(state_dir), "--state-weights-only"))
    (run / "data").mkdir(parents=True)
    (run / STATE).write_text(json.dumps({"epoch": 7}))
    (run / "data" / "meta.json").write_text(json.dumps({"vocab": ["<pad>", "<unk>", "x"]}))
    np.save(run / "data" / "src0_ids.npy", np.zeros(3, np.int32))

    runs.seed_from(state_dir, run, ("meta.json",))
    assert json.loads((run / STATE).read_text()) == json.loads((state_dir / STATE).read_text())
    assert (run / "data" / "meta.json").read_bytes() == (state_dir / "meta.json").read_bytes()
    assert not list((run / "data").glob("*.npy"))
    assert json.loads((run / "superseded-1" / STATE).read_text()) == {"epoch": 7}


def multilingual_args(out: Path, langs: list[str], corpus: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([
        "--lang", *langs, "--corpus", *corpus, "--dev", *(c.partition("@")[0] for c in corpus), "--out", str(out), "--min-count", "1",
        "--window", "24", "--batch", "4", "--steps", "2", "--epochs", "1", "--emb", "4", "--conv", "8",
        "--kernel", "3", "--dilations", "1", "--lstm", "4", "--dev-windows", "4"])


def test_one_multilingual_model_reads_each_file_by_its_own_pack(tmp_path):
    texts = TEXT.parent
    corpus = [f"de:{texts / 'de.txt'}@2", f"ru:{texts / 'ru.txt'}"]
    out = train(multilingual_args(tmp_path / "deru", ["de", "ru"], corpus))
    meta = json.loads((out / "data" / "meta.json").read_text())
    assert [(s["lang"], s["weight"]) for s in meta["sources"]] == [("de", 2.0), ("ru", 1.0)]
    assert {"ä", "ж"} <= set(meta["vocab"])  # one vocabulary for both scripts
    # the dev set is both files: its graphemes are the sum of both packs' reading
    assert meta["dev_graphemes"] == sum(s["graphemes"] for s in meta["sources"])

    with pytest.raises(TrainingError, match="names each file's pack"):
        train(multilingual_args(tmp_path / "bare", ["de", "ru"], [str(texts / "de.txt"), f"ru:{texts / 'ru.txt'}"]))
    with pytest.raises(TrainingError, match="same features"):  # es has ¿: another class space
        train(multilingual_args(tmp_path / "dees", ["de", "es"], [f"de:{texts / 'de.txt'}", f"es:{texts / 'es.txt'}"]))


def test_a_multilingual_model_is_one_file_that_its_packs_name(tmp_path, monkeypatch):
    """Exported for several packs, a model is one ONNX file with one card in its own folder (models/deru/); each pack
    names it ``deru/char`` and reads the card with its own section (tuned decoding, dev scores) over the shared
    fields; tuning one pack writes into that pack's section only; a pack it does not serve is a one-line error."""
    pytest.importorskip("tf2onnx")
    from charrestore import Restorer, base_text, load_pack
    from charrestore.cards import ModelError, load_card
    from charrestore.packs import load_pack as cached_pack
    from charrestore.training import export_char
    from charrestore.tuning.record import card_path, record_dev_metrics, update_card

    texts = TEXT.parent
    run = train(multilingual_args(tmp_path / "run", ["de", "ru"], [f"de:{texts / 'de.txt'}", f"ru:{texts / 'ru.txt'}"]))
    data = tmp_path / "data"
    export_char.export([run], ["de", "ru"], data / "models" / "deru", "char", 48, 16, 8, check_windows=4,
                       quantize=False)
    card = json.loads((data / "models" / "deru" / "char.json").read_text())
    assert card["langs"] == ["de", "ru"] and card["packs"] == {"de": {}, "ru": {}} and "lang" not in card
    path = card_path("de", "deru/char", data / "models")
    assert path == data / "models" / "deru" / "char.json"
    update_card(path, {"bias": {"SPACE": 0.5}}, "de")
    record_dev_metrics(path, "de_dev", {"ALL": 0.9}, "de")
    de, onnx_path = load_card("de", "deru/char", data / "models")
    ru, _ = load_card("ru", "deru/char", data / "models")
    assert onnx_path == data / "models" / "deru" / "char.onnx"
    assert de["bias"] == {"SPACE": 0.5} and de["dev_metrics"] == {"de_dev": {"ALL": 0.9}} and "packs" not in de
    assert ru["bias"] == {} and "dev_metrics" not in ru and de["vocab"] == ru["vocab"]
    with pytest.raises(ModelError, match="a model of de, ru, not of 'es'"):
        load_card("es", "deru/char", data / "models")

    # both packs through the API, each naming the shared model, from a data folder of their own
    for code in ("de", "ru"):
        pack_dir = data / "languages" / code
        pack_dir.mkdir(parents=True)
        toml = (texts.parent.parent.parent / "languages" / code / "pack.toml").read_text(encoding="utf-8")
        models = toml[toml.index("[models]"):]
        (pack_dir / "pack.toml").write_text(toml.replace(models, '[models]\nchar = "deru/char"\n'), encoding="utf-8")
    monkeypatch.setenv("CHARRESTORE_DATA", str(data))
    cached_pack.cache_clear()
    try:
        for code in ("de", "ru"):
            assert load_pack(code).models == {"char": "deru/char"} and load_pack(code).ready()
            line = (texts / f"{code}.txt").read_text(encoding="utf-8").splitlines()[0]
            out = Restorer(lang=code, engine="char")(line.lower())
            assert base_text(out, load_pack(code)) == base_text(line.lower(), load_pack(code))
    finally:
        cached_pack.cache_clear()


def test_a_share_of_char_windows_begins_at_a_sentence_start():
    """``--starts``: the input's first window starts where the input does, usually at a sentence's start; a share of
    the training windows begins right after a sentence-final mark, the rest anywhere (and without the option the
    sampling draws exactly as before)."""
    from charrestore.training.train_char import WindowSampler

    n, T, dot = 5000, 20, 4
    rng = np.random.default_rng(0)
    cls = np.where(rng.random(n) < 0.05, dot, 0).astype(np.int32)
    ids = np.arange(n, dtype=np.int32)  # a grapheme's id is its offset, so a window tells where it began
    sampler = WindowSampler([(ids, cls)], [1.0], T, 0, 0.0, np.random.default_rng(1), starts=1.0, sentence_bits=dot)
    x, _ = sampler.batch(200)
    begins = x[:, 0] // 3  # input ids are 3 * grapheme id + space state
    assert (cls[begins - 1] == dot).all() and len(set(begins.tolist())) > 50
    half = WindowSampler([(ids, cls)], [1.0], T, 0, 0.0, np.random.default_rng(1), starts=0.5, sentence_bits=dot)
    share = np.mean(cls[half.batch(400)[0][:, 0] // 3 - 1] == dot)
    assert 0.4 < share < 0.65  # half at starts, and 5% of the others by chance
    plain = [WindowSampler([(ids, cls)], [1.0], T, 0, 0.0, np.random.default_rng(1), starts=s, sentence_bits=b)
             for s, b in ((0.0, dot), (0.5, 0))]
    np.testing.assert_array_equal(plain[0].batch(50)[0], plain[1].batch(50)[0])


def test_a_share_of_char_windows_is_read_without_diacritics():
    """``--plain``: a share of the training windows reads each grapheme without its diacritics (plain_letters.py),
    with the same labels, so that one model also reads text typed without them; without it, nothing changes."""
    from charrestore.training.train_char import WindowSampler, plain_ids

    vocab = ["<pad>", "<unk>", "a", "á", "ờ", "o", "đ", "d"]
    n, T = 4000, 20
    ids = np.random.default_rng(0).integers(2, len(vocab), n).astype(np.int32)
    cls = np.zeros(n, np.int32)
    table = plain_ids(vocab)
    assert [vocab[i] for i in table] == ["<pad>", "<unk>", "a", "a", "o", "o", "d", "d"]
    all_plain = WindowSampler([(ids, cls)], [1.0], T, 0, 0.0, np.random.default_rng(1), plain=1.0, plain_ids=table)
    x = all_plain.batch(100)[0] // 3  # input ids are 3 * grapheme id + space state
    assert set(x.ravel().tolist()) == {2, 5, 7}
    half = WindowSampler([(ids, cls)], [1.0], T, 0, 0.0, np.random.default_rng(1), plain=0.5, plain_ids=table)
    marked = (np.isin(half.batch(400)[0] // 3, [3, 4, 6])).any(axis=1).mean()
    assert 0.4 < marked < 0.6
    none = [WindowSampler([(ids, cls)], [1.0], T, 0, 0.0, np.random.default_rng(1), plain=p, plain_ids=t)
            for p, t in ((0.0, table), (0.5, None))]
    np.testing.assert_array_equal(none[0].batch(50)[0], none[1].batch(50)[0])


def test_a_resumed_char_run_encodes_a_file_its_cache_lacks_and_samples_by_the_given_weights(tmp_path, monkeypatch):
    """A run folder's encoded corpora are reused only while they hold every file that ``--corpus`` names: a
    resumed run that adds a file encodes it (the vocabulary kept), and windows are drawn by this command's
    weights, not by those the files were first encoded with."""
    from charrestore.training import train_char

    other = tmp_path / "other.txt"
    other.write_text("A second file, with words the first one lacks: zebra quixotic.\n" * 20, encoding="utf-8")
    train(tiny_char_args(tmp_path / "run"))
    first = json.loads((tmp_path / "run" / "data" / "meta.json").read_text())
    drawn = []
    real = train_char.WindowSampler

    class Recording(real):
        def __init__(self, streams, weights, *rest, **kw):
            drawn.append((len(streams), list(weights)))
            super().__init__(streams, weights, *rest, **kw)

    monkeypatch.setattr(train_char, "WindowSampler", Recording)
    args = tiny_char_args(tmp_path / "run", "--resume-from", str(tmp_path / "run"))
    args.corpus = [f"{TEXT}@0.25", f"{other}@0.75"]
    train(args)
    meta = json.loads((tmp_path / "run" / "data" / "meta.json").read_text())
    assert [Path(s["path"]).name for s in meta["sources"]] == ["en.txt", "other.txt"]
    assert meta["vocab"] == first["vocab"] and drawn[-1] == (2, [0.25, 0.75])

    args.corpus = [f"{TEXT}@0.5"]  # a file of the cache left unnamed keeps the weight it was encoded with
    train(args)
    assert json.loads((tmp_path / "run" / "data" / "meta.json").read_text()) == meta and drawn[-1] == (2, [0.5, 0.75])


def test_encoded_corpora_are_read_again_when_their_pack_reads_text_another_way(tmp_path):
    """A pack's new mapping (here ``map_before_lower``) changes the labels of the same text: a run folder's arrays
    encoded under the old one are stale, and are encoded again with the vocabulary kept."""
    import dataclasses

    from charrestore.packs import load_pack
    from charrestore.training.train_char import prepare_data

    text = tmp_path / "t.txt"
    text.write_text("Ah! mon ami, oh! Non. Vraiment?\n" * 30, encoding="utf-8")
    en = load_pack("en")
    read_again = dataclasses.replace(en, map_before_lower={"!": ","})
    first = prepare_data([(en, text, 1.0)], [(en, text)], 0, 1, tmp_path)
    classes = np.load(tmp_path / "data" / "src0_cls.npy")
    assert prepare_data([(en, text, 1.0)], [(en, text)], 0, 1, tmp_path) == first  # reused
    again = prepare_data([(read_again, text, 1.0)], [(read_again, text)], 0, 1, tmp_path)
    changed = np.load(tmp_path / "data" / "src0_cls.npy")
    assert again["vocab"] == first["vocab"] and again["packs"] != first["packs"]
    assert (changed & en.bit(".")).sum() < (classes & en.bit(".")).sum()
    assert (changed & en.bit(",")).sum() > (classes & en.bit(",")).sum()


def trained_like(lstm, layers, seed):
    """A small model whose weights are all non-zero and far from their initial values."""
    keras.utils.set_random_seed(seed)
    model = build_char_model(30, 8, emb=4, conv=8, kernel=3, dilations=(1,), lstm=lstm, lstm_layers=layers)
    rng = np.random.default_rng(seed)
    model.set_weights([w + rng.normal(0, 0.3, w.shape).astype(w.dtype) for w in model.get_weights()])
    return model


@pytest.mark.parametrize("layers", [1, 2])
def test_a_widened_model_computes_what_the_narrow_one_did(layers):
    narrow = trained_like(4, layers, seed=1)
    wide = build_char_model(30, 8, emb=4, conv=8, kernel=3, dilations=(1,), lstm=7, lstm_layers=layers)
    widen_model(narrow, wide, 4, 7)
    ids = np.random.default_rng(0).integers(0, 30, size=(3, 40)).astype(np.int32)
    np.testing.assert_allclose(wide(ids, training=False), narrow(ids, training=False), atol=1e-5)
    assert wide.count_params() > narrow.count_params()
    # The new units are not dead: they compute something, only their outgoing weights start at zero.
    fwd_kernel = wide.get_layer("bilstm0").get_weights()[0]
    assert np.abs(fwd_kernel[:, 4:7]).sum() > 0
    assert not wide.get_layer("logits").get_weights()[0][4:7].any()


def test_a_bilstm_never_shrinks():
    with pytest.raises(ValueError, match="cannot shrink"):
        widen_weights({}, {}, 8, 4)


def test_a_resumed_run_widens_its_bilstm_and_trains_on(tmp_path):
    state_dir = tmp_path / "state"
    train(tiny_char_args(tmp_path / "a", "--save-state", str(state_dir), "--state-weights-only"))
    narrow = keras.saving.load_model(train(tiny_char_args(tmp_path / "n", "--resume-from", str(state_dir),
                                                          "--epochs", "0")) / LAST)

    seeded = train(tiny_char_args(tmp_path / "b", "--resume-from", str(state_dir), "--set-lstm", "6",
                                  "--epochs", "0"))
    wide = keras.saving.load_model(seeded / LAST)
    state = json.loads((seeded / STATE).read_text())
    assert state["hyper"]["lstm"] == 6 and state["stage_start"] == 1 and not (seeded / BEST).exists()
    ids = np.random.default_rng(0).integers(0, 30, size=(2, 24)).astype(np.int32)
    np.testing.assert_allclose(wide(ids, training=False), narrow(ids, training=False), atol=1e-5)

    # Later stages keep the width; the best epoch is only ever one of the wider model's.
    again = train(tiny_char_args(seeded, "--epochs", "1"))
    state = json.loads((again / STATE).read_text())
    assert state["hyper"]["lstm"] == 6 and state["epoch"] == 2
    assert keras.saving.load_model(again / LAST).get_layer("bilstm0").forward_layer.units == 6

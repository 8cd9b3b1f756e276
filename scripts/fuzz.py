"""Coverage-guided fuzzing (atheris) of the codec, the NB segmenter, long-line pieces and both engines (#22).

Each input is raw bytes, read as the CLI reads a line (UTF-8 with surrogate escapes for invalid bytes). Its first
byte chooses a restoration setting (language, engine, spaces, hashtags); the rest is the text. The invariants:
- codec: rendering the parse with any features gives back the base text, and every rendered string is the same
  text after a trip through the bytes the CLI writes (no invalid bytes joined into a new character);
- segmenter: the output is the input with spaces inserted, nothing else (also when it weighs the spaces the input
  had: spacing correction);
- long lines: restoring in pieces (small ones, so that short inputs have several) keeps the base text;
- engines: the output's base text is the input's (less the "#" of hashtags that ``split`` makes prose), it
  survives the byte round trip (tests/test_determinism.py covers batch and thread counts).
Any exception is a crash. atheris stops at the first one and writes the input to ``crash-*``.

    python scripts/fuzz.py corpus -runs=500000 -seed=71 -max_len=64   # one of the two shards reported in issue 22
    python scripts/fuzz.py -runs=3000 -seed=1                         # what tests/test_fuzz.py runs in CI

(At max_len 64 one process runs about 120 inputs/s here; a million inputs took two shards about 80 minutes.)
"""

from __future__ import annotations

import sys

import atheris
import numpy as np

with atheris.instrument_imports(include=["charrestore"]):
    from charrestore import Restorer, base_text, load_pack
    from charrestore import long_text
    from charrestore.codec import parse, render
    from charrestore.segmenter import Segmenter

SETTINGS = [dict(lang="en", engine="char"), dict(lang="en", engine="pipeline"),
            dict(lang="en", engine="char", spaces="restore"), dict(lang="en", engine="pipeline", spaces="restore"),
            dict(lang="en", engine="pipeline", spaces="keep", hashtags="split"),
            dict(lang="en", engine="char", segmenter="nb", hashtags="keep"),
            dict(lang="ja", engine="char"), dict(lang="gu", engine="char"), dict(lang="gu", engine="char",
                                                                                  spaces="restore"),
            dict(lang="ru", engine="char", spaces="restore"), dict(lang="de", engine="char", spaces="restore")]
_restorers: dict[int, Restorer] = {}
_segmenter = Segmenter.load("en")
_correcting = _segmenter.configured(given_space=2.0, given_join=1.0)  # spacing correction (spaced=...)


def restorer(k: int) -> Restorer:
    if k not in _restorers:
        _restorers[k] = Restorer(**SETTINGS[k])
    return _restorers[k]


def same_bytes(text: str) -> bool:
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape") == text


def check(data: bytes) -> None:
    if not data:
        return
    k = data[0] % len(SETTINGS)
    text = data[1:].decode("utf-8", "surrogateescape")
    r = restorer(k)
    pack = r.pack
    base = base_text(text, pack)

    gs, classes = parse(text, pack, apply_map=False)
    features = np.frombuffer((data * (len(gs) // max(len(data), 1) + 1))[:len(gs)], np.uint8) % pack.n_classes
    for cls in (classes, features):
        shown = render(gs, cls, pack)
        assert base_text(shown, pack) == base, ("codec", text, shown)
        assert same_bytes(shown), ("codec bytes", text, shown)

    if pack.code == "en":
        seg = _segmenter.segment(text)
        assert only_spaces_inserted(seg, text), ("segmenter", text, seg)
        parts = text.split(" ")  # the text without its spaces, and where they were
        joined, spaced = "".join(parts), np.cumsum([len(p) for p in parts])[:-1]
        seg = _correcting.segment(joined, spaced=spaced)
        assert only_spaces_inserted(seg, joined), ("segmenter, spaced", text, seg)

    out = r(text)
    drop = "#" if r.config.hashtags == "split" else ""  # split hashtags become prose: their "#" goes
    assert base_text(out, pack).replace(drop, "") == base.replace(drop, ""), ("engine", SETTINGS[k], text, out)
    assert same_bytes(out), ("engine bytes", SETTINGS[k], text, out)

    if data[0] & 0x80 and len(text) > 48:
        keep = r.config.spaces == "keep" or (r.config.spaces == "auto" and long_text.has_space(text, pack))
        pieces = "".join(long_text.restore(r.engine, text, keep, r.config.hashtags == "camel", piece=16, context=8))
        assert base_text(pieces, pack) == base_text(text, pack), ("pieces", SETTINGS[k], text, pieces)
        assert same_bytes(pieces), ("pieces bytes", SETTINGS[k], text, pieces)


def only_spaces_inserted(seg: str, text: str) -> bool:
    """Whether ``seg`` is ``text`` with spaces inserted (a greedy walk: a space of ``seg`` that is not the next
    character of ``text`` is an inserted one)."""
    j = 0
    for c in seg:
        if j < len(text) and c == text[j]:
            j += 1
        elif c != " ":
            return False
    return j == len(text)


if __name__ == "__main__":
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()

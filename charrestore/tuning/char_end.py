"""The end of the input (``charrestore tune char --end-only``): the card's ``end_bias``, offsets of the sentence marks
against each other at the input's last grapheme, where it must take one of them.

The biases are fit to dev documents, where the end is one mark in hundreds and a "?" is rare; users type short
inputs, where the last mark is much of what they see (fr's biases, "." -0.5 and "?" 0.75, ended statements with "?").
So the dev documents are cut into their sentences (``dev.sentences``), and each is decoded on its own as the runtime
decodes it. The offset of each sentence mark after the pack's first is fit in turn on the even documents' sentences,
by the tuner's objective (a mark paired with it moves too: es "¿"); the odd documents' sentences judge: the card's
offsets stay unless the fit beats them there by more than ``--tolerance``. A mark too rare to judge by keeps the
card's.
"""

from __future__ import annotations

from .char_decode import decodable, feature_scores, objective, supported
from .char_reread import reread
from .dev import sentences
from .record import write_pair


def run_end(args, engine, refs: list[str], command: str) -> dict:
    """``--end-only``: ``end_bias`` under the card's other decoding (module docstring)."""
    pack = engine.pack
    if len(pack.sentence_marks) < 2:
        raise ValueError(f"{args.lang}: the pack has fewer than two sentence marks, so there is none to weigh at "
                         "the end against another")
    even, odd = (decodable(sentences(refs[k::2], pack), engine) for k in (0, 1))
    judged = supported(pack, even[0], args.min_support)
    card_bias = dict(engine.settings.end_bias)
    bias, grid = dict(card_bias), []
    for mark in pack.sentence_marks[1:]:
        if mark not in judged:  # too rare to fit
            continue
        trials = []
        for value in args.end_biases:
            scores = feature_scores(pack, even[0], reread(engine.configured(end_bias={**bias, mark: value}), even[1]))
            trials.append({"mark": mark, "end_bias": value, **scores, "objective": objective(scores, judged)})
            print({k: round(float(v), 4) if isinstance(v, float) else v for k, v in trials[-1].items()}, flush=True)
        bias[mark] = max(trials, key=lambda t: (t["objective"], -abs(t["end_bias"] - bias.get(mark, 0.0))))["end_bias"]
        grid.extend(trials)
    card_odd = feature_scores(pack, odd[0], reread(engine, odd[1]))
    fit_odd = feature_scores(pack, odd[0], reread(engine.configured(end_bias=bias), odd[1]))
    kept = not judged or objective(fit_odd, judged) <= objective(card_odd, judged) + args.tolerance
    chosen = card_bias if kept else {m: v for m, v in bias.items() if v}
    record = {"grid": grid, "sentences": {"even": len(even[0]), "odd": len(odd[0])}, "judged_by": judged,
              "objective": "mean F of the judged features + 0.5 ALL, every dev sentence restored on its own",
              "odd": {"card": card_odd, "fit": fit_odd},
              "decision": "the card's (the fit did not beat it on the odd documents' sentences)" if kept else
                          "the fit (it beat the card's on the odd documents' sentences)",
              "command": command}
    return write_pair(args, engine, {"end_bias": chosen}, {"end_bias": record})

"""The ``charrestore detect`` subcommand (``add_detect``/``run_detect``, as in cli.py): one language code per input
line, by default among the installed packs; light to import, so that ``charrestore --help`` stays fast."""

from __future__ import annotations

from .cli_util import add_command


def add_detect(sub) -> None:
    p = add_command(sub, run_detect,
        "detect", help="name the language of each line",
        description="Print the language code of each input line (script rules, then character n-grams of its "
                    "letters; spaces, marks and case do not matter, so ASR and de-spaced text work as well as "
                    "written text). It answers among the installed language packs unless --among says otherwise. "
                    "With no TEXT, read stdin: one line out per line in, flushed per line. A line with no letters "
                    "gets the first candidate.",
        epilog='examples:\n  charrestore detect "wie ist das wetter heute"\n'
               "  charrestore detect --among all --json wieistdaswetterheute\n  charrestore detect --prefer en das\n"
               "  cat lines.txt | charrestore detect")
    p.add_argument("text", nargs="*", metavar="TEXT", help="text to name (joined by spaces); default: stdin")
    p.add_argument("--among", metavar="LANGS",
                   help="comma-separated language codes to choose from, or 'all' for every language the detector "
                        "knows (default: the installed packs)")
    p.add_argument("--prefer", metavar="LANG",
                   help="name LANG unless another language is clearly more likely (the detector card's prefer_odds "
                        "times as likely): what 'fix' does without --lang, with en")
    p.add_argument("--json", action="store_true",
                   help='one JSON object per line: {"text", "lang", "candidates": the top 3 with their scores}')


def run_detect(args) -> int:
    import json

    from .cli_util import emit, json_text, lines
    from .auto import installed
    from .detect import Detector

    detector = Detector.load()
    if args.among == "all":
        among = detector.languages
    elif args.among:
        among = detector.candidates(args.among)
    else:
        among = installed()
    for _, text in lines(args):
        text = text.removesuffix("\r")
        ranked = detector.scores(text, among)
        lang = detector.chosen(ranked, args.prefer)
        if args.json:
            emit(json.dumps({"text": json_text(text), "lang": lang, "candidates": [
                {"lang": lang, "score": round(score, 4)} for lang, score in ranked[:3]]}, ensure_ascii=False))
        else:
            emit(lang)
    return 0

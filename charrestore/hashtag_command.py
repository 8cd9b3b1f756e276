"""The ``charrestore hashtag`` subcommand (``add_hashtag``/``run_hashtag``, as in cli.py) and the help of
``fix --hashtags``; light to import, so that ``charrestore --help`` stays fast."""

from __future__ import annotations

from .auto import DEFAULT_LANG
from .cli_util import add_command

HASHTAGS_HELP = ("camel: #throwbackthursday -> #ThrowbackThursday, case only (default); split: the tag becomes "
                 "prose words, 'throwback thursday' (drops the '#': the one change beyond marks, spaces and case); "
                 "keep: as given. A tag with inner capitals keeps the user's words.")


def add_hashtag(sub) -> None:
    p = add_command(sub, run_hashtag,
        "hashtag", help="the words and the CamelCase form of hashtags",
        description="Cut each hashtag into words (the NB segmenter's k best, reranked where the language has a "
                    "reranker) and print, one tag per line, its words and "
                    "its CamelCase form (what 'fix --hashtags camel' writes), tab-separated. Digits are a word of "
                    "their own; a tag with inner capitals keeps the user's words and case; acronyms and names take "
                    "the case the engine's model gives them. With no TAG, read the tags from stdin.",
        epilog='examples:\n  charrestore hashtag "#throwbackthursday" "#iphone12promax"\n'
               "  charrestore hashtag < tags.txt")
    p.add_argument("tags", nargs="*", metavar="TAG", help="hashtags, with or without '#'; default: stdin")
    p.add_argument("--lang", default=DEFAULT_LANG,
                   help="language pack; auto: each tag in the language 'charrestore detect' names; auto:L: L unless "
                        f"another pack is clearly more likely (default: {DEFAULT_LANG}, as fix; see "
                        "'charrestore packs')")
    p.add_argument("--engine", choices=("auto", "char", "pipeline"), default="auto",
                   help="the model that cases acronyms and names (default: the pack's choice)")


def run_hashtag(args) -> int:
    import sys
    from functools import lru_cache

    from .auto import language_of, per_line, preferred
    from .cli_util import CLIError, emit
    from .hashtags import forms
    from .rerank import best_segmenter
    from .restorer import Restorer

    @lru_cache(maxsize=None)
    def tools(lang: str):
        """The restorer (its word case) and the reranked segmenter of ``lang``, built on first use."""
        restorer = Restorer(lang=lang, engine=args.engine)
        if restorer.engine.hashtag_segmenter() is None:
            raise CLIError(f"pack {lang!r} has no NB segmenter to cut hashtags with")
        return restorer, best_segmenter(lang, restorer.engine.models_dir)  # reranked: +2.4 points on STAN-large dev

    args.lang, among = per_line(args.lang, "nb")  # auto: each tag among the packs with NB counts
    if among is None:
        tools(args.lang)  # fails before the first tag
    if args.tags:
        tags = [t for arg in args.tags for t in arg.split()]
    else:
        tags = (t for line in sys.stdin for t in line.split())
    for tag in tags:
        restorer, segmenter = tools(language_of(tag, among, preferred(args.lang)) if among else args.lang)
        words, form = forms([tag], segmenter, restorer.engine.word_case)[0]
        emit(f"{words}\t{form}")
    return 0

/**
 * The public API: ``await Restorer.load({lang})`` reads the pack, the char model's card and model (its sha256
 * checked), and ``await restorer.restore(text, {spaces})`` restores spaces, punctuation and case as
 * ``charrestore fix --engine char`` does (charrestore/engines/base.py's skeleton: parse -> kept features ->
 * protected spans -> classes -> render). The NB counts load on the first input that needs them.
 */

import { Apostrophes, apostrophesBefore, hasApostrophe } from "./apostrophes.js";
import { caseSplit, graphemes, upperOf } from "./clusters.js";
import { fetchBytes, fetchText } from "./fetch.js";
import { keptFeatures, parse, render } from "./codec.js";
import { CharEngine } from "./engine.js";
import { camelForms } from "./hashtags.js";
import { isLong, restoreLong, runsTogether } from "./long_text.js";
import { CharModel } from "./model.js";
import { CAPS, LanguagePack, SPACE } from "./pack.js";
import { AccentReader } from "./accents.js";
import { ProperCase } from "./proper_case.js";
import { Segmenter } from "./segmenter.js";
import { sha256Hex } from "./sha256.js";
import { baseSpans, protect } from "./spans.js";

export const SPACES_MODES = ["auto", "keep", "restore"];
export const APOSTROPHES_MODES = ["restore", "keep"];

/** A shared model's card as pack ``lang`` reads it: its section of ``packs`` over the shared fields
 * (charrestore/cards.py). */
function packSection(card, lang, url) {
  if (!card.packs) return card;
  if (!(lang in card.packs)) throw new Error(`${url}: a model of ${Object.keys(card.packs).join(", ")}, not of ${lang}`);
  const { packs, ...shared } = card;
  return { ...shared, ...packs[lang] };
}

/** The bytes at ``url``, refused if they do not match the ``sha256`` their card gives. */
async function checked(url, sha256) {
  const bytes = await fetchBytes(url);
  if ((await sha256Hex(bytes)) !== sha256) throw new Error(`${url}: sha256 does not match its card (corrupt or replaced)`);
  return bytes;
}

export class Restorer {
  constructor(pack, engine, modelSize) {
    this.pack = pack;
    this.engine = engine;
    this.modelSize = modelSize; // bytes, for the page to show
  }

  /**
   * ``lang``: a pack code; ``root``: the URL of the folder that holds languages/ and models/ (default: the
   * repository root, two folders above this module); ``packUrl``, ``modelUrl``, ``cardUrl``: single files instead
   * (the card defaults to the model's URL with .json). The NB segmenter's card is the pack's ``nb`` model beside
   * the char model; its counts load on the first input that needs them.
   */
  static async load({ lang = "en", root = new URL("../../", import.meta.url), packUrl, modelUrl, cardUrl } = {}) {
    const base = new URL(root, globalThis.location?.href);
    packUrl = new URL(packUrl ?? `languages/${lang}/pack.toml`, base);
    const pack = LanguagePack.fromToml(await fetchText(packUrl));
    if (!pack.models.char) throw new Error(`pack ${pack.code} names no char model`);
    const named = (name) => `models/${name.includes("/") ? name : `${lang}/${name}`}`; // "deru/char": shared
    modelUrl = new URL(modelUrl ?? `${named(pack.models.char)}.onnx`, base);
    cardUrl = new URL(cardUrl ?? modelUrl.href.replace(/\.onnx$/, ".json"), base);
    const card = packSection(JSON.parse(await fetchText(cardUrl)), lang, cardUrl);
    if (card.kind !== "char_e2e") throw new Error(`${cardUrl}: not a char model card`);
    // the pack's other models: beside its own char model, or in models/<lang>/ when the char model is shared
    const beside = pack.models.char.includes("/") ? new URL(`models/${lang}/`, base) : modelUrl;
    const bytes = await checked(modelUrl, card.sha256);
    const model = await CharModel.fromBytes(bytes, pack.nClasses);
    let nb = null; // the NB segmenter: spaces of unspaced input (the card's nb_spaces) and hashtag words
    if (pack.models.nb) {
      nb = once(async () => {
        const url = new URL(`${pack.models.nb}.json`, beside);
        const nbCard = JSON.parse(await fetchText(url));
        const seg = (await Segmenter.fromBytes(await checked(new URL(nbCard.file, url), nbCard.sha256), nbCard))
          .elide(pack.elisions).know(pack.spellings).ordinals(pack.ordinalSuffixes);
        seg.plainParts = pack.plainTyping ? {} : null; // the counts made plain, when a text needs them (plain_letters.js)
        seg.keyboard = pack.keyboardLetters;
        return seg;
      });
    }
    const prose = nb && card.nb_spaces ? once(async () => (await nb()).configured((await nb()).proseParams)) : null;
    const engine = new CharEngine(pack, card, model, prose);
    if (nb && pack.plainTyping) engine.accents = new AccentReader(nb, pack.keyboardLetters); // read with likely accents
    if (pack.models.proper && pack.features.includes(CAPS)) { // capitals a word always has (proper_case.js)
      const pCardUrl = new URL(`${pack.models.proper}.json`, beside);
      const pCard = JSON.parse(await fetchText(pCardUrl));
      if (pCard.kind !== "proper_case") throw new Error(`${pCardUrl}: not a card of proper forms`);
      engine.proper = await ProperCase.fromBytes(await checked(new URL(pCard.file, pCardUrl), pCard.sha256));
    }
    const restorer = new Restorer(pack, engine, bytes.length);
    restorer.hashtagSegmenter = nb;
    if (pack.models.apostrophes) { // apostrophes inside words (charrestore/apostrophes.py), loaded on first use
      const aCardUrl = new URL(`${pack.models.apostrophes}.json`, beside);
      restorer.apostrophes = once(async () => {
        const aCard = JSON.parse(await fetchText(aCardUrl));
        const model = await Apostrophes.fromBytes(await checked(new URL(aCard.file, aCardUrl), aCard.sha256), aCard);
        model.plainTyping = pack.plainTyping; // text typed without diacritics reads the counts made plain
        model.clitics = new Set(pack.elisions.map((c) => c.replace(/'$/u, ""))); // alone before a word: "l'"
        return model;
      });
    }
    return restorer;
  }

  /** ``text`` restored; ``spaces``: auto (keep the input's spaces if it has any), keep or restore; ``apostrophes``:
   * restore (inside words, in text that has none, where the pack has that model) or keep. */
  async restore(text, { spaces = "auto", apostrophes = "restore" } = {}) {
    if (!SPACES_MODES.includes(spaces)) throw new Error(`spaces must be one of ${SPACES_MODES.join(", ")}, not ${spaces}`);
    if (!APOSTROPHES_MODES.includes(apostrophes)) {
      throw new Error(`apostrophes must be one of ${APOSTROPHES_MODES.join(", ")}, not ${apostrophes}`);
    }
    const fix = apostrophes === "restore" && this.apostrophes && !hasApostrophe(text) ? await this.apostrophes() : null;
    const each = fix ? (piece) => fix.restore(piece) : (piece) => piece; // per piece, as Engine.restore_pieces
    let parsed = parse(text, this.pack);
    if (!parsed.base.length) return "";
    const space = this.pack.bit(SPACE);
    // the input's spaces are the words' (base.py keeps_spaces): keep, or auto on spaced text without run-together words
    const keep = spaces === "keep" || (spaces === "auto" && parsed.classes.some((c) => c & space)
      && !runsTogether(text, this.pack));
    if (fix && keep) {
      text = fix.restore(text); // the words are the input's: the model reads "we'll see" as it learned to
      parsed = parse(text, this.pack);
    } else if (fix && this.engine.segmenter) { // the words are the NB segmenter's (apostrophes.js apostrophesBefore)
      text = apostrophesBefore(text, fix, await this.engine.segmenter());
      parsed = parse(text, this.pack);
    }
    if (isLong(text)) {
      const mixed = text !== text.toLowerCase() && text !== text.toUpperCase();
      return restoreLong(this, text, keep, this.pack.markBits | (mixed ? this.pack.bit(CAPS) : 0), each);
    }
    const kept = keptFeatures(text, parsed.classes, this.pack);
    const [given, frozen] = await this.protected(text, parsed.base, parsed.classes);
    const classes = await this.engine.classes(parsed.base, given, kept, keep, true, frozen);
    return each(render(parsed.base, classes, this.pack));
  }

  /** [given classes, protected spans] of parsed input: the hashtags' graphemes take the case of their CamelCase
   * form (a protected span keeps its given case). */
  async protected(text, base, given) {
    const spans = baseSpans(text, base, this.pack);
    const caps = this.pack.bit(CAPS);
    const tags = caps ? spans.filter(([, , kind]) => kind === "hashtag") : [];
    if (tags.length) {
      given = Int32Array.from(given);
      const segmenter = this.hashtagSegmenter ? await this.hashtagSegmenter() : null;
      const shown = tags.map(([s, e]) => base.slice(s, e).map((g, k) => (given[s + k] & caps ? upperOf(g) ?? g : g)).join(""));
      const forms = await camelForms(shown, segmenter, (words) => this.wordCase(words));
      tags.forEach(([s, e], k) => {
        const upper = graphemes(forms[k]).map((g) => caseSplit(g)[1]);
        if (upper.length === e - s) upper.forEach((u, i) => (given[s + i] = u ? given[s + i] | caps : given[s + i] & ~caps));
      });
    }
    return [given, protect(base, spans, Uint8Array.from(given, (c) => (c & this.pack.bit(SPACE) ? 1 : 0)))];
  }

  /** ``words`` in the case the model gives them in context, trailing marks taken off ("nasa mission" -> "NASA
   * mission"): the words joined by one space, restored with their spaces kept and no final mark forced. */
  async wordCase(words) {
    const text = words.join(" ");
    const { base, classes } = parse(text, this.pack);
    const kept = keptFeatures(text, classes, this.pack);
    const [given, frozen] = await this.protected(text, base, classes);
    const cls = await this.engine.classes(base, given, kept, true, false, frozen);
    const noSpace = ~this.pack.bit(SPACE);
    const trailing = new RegExp(`[${this.pack.marks.join("").replace(/[\\\]\[^-]/g, "\\$&")}]+$`, "u");
    let start = 0;
    return words.map((w) => {
      const n = parse(w, this.pack).base.length;
      const shown = render(base.slice(start, start + n), cls.subarray(start, start + n).map((c) => c & noSpace), this.pack);
      start += n;
      return shown.replace(trailing, "");
    });
  }
}

/** ``load()``'s promise, made on the first call and shared by every later one. */
function once(load) {
  let promise = null;
  return () => (promise ??= load());
}

// The offline page: restores as you type with the char engine in this browser (src/), and exposes
// window.charrestore.restore(text, {lang, spaces}) for tests and embedding. Every URL is relative: the models and
// packs are the Python package's own files, in models/ and languages/ beside web/ in the repository.
import { Restorer, useCompressedWasm } from "./index.js";

const LANGS = { en: "English", ja: "Japanese", gu: "Gujarati" }; // the packs with a char model
const SAMPLES = {
  en: "good morning everyone and thank you for coming today i want to talk about how we read captions",
  ja: "今日は雨が降っていますか明日は晴れるでしょうそれでは失礼します",
  gu: "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે",
};
const MARK_OR_SPACE = /[\s\p{P}]/u;
const $ = (id) => document.getElementById(id);

const wasm = useCompressedWasm(new URL("vendor/ort-wasm-simd-threaded.wasm.gz", import.meta.url));
const restorers = {};

/** The restorer of ``lang``, loaded once (the wasm first). */
function restorer(lang) {
  if (!(lang in LANGS)) return Promise.reject(new Error(`no char model for ${lang} (have ${Object.keys(LANGS)})`));
  restorers[lang] ??= wasm.then(() => Restorer.load({ lang }));
  return restorers[lang];
}

async function restore(text, { lang = "en", spaces = "auto" } = {}) {
  return (await restorer(lang)).restore(text, { spaces });
}

window.charrestore = { restore };

// The changes between input and output, as the server page shows them: an output character matches the next
// input character that is itself or a letter; the marks and spaces skipped are removed.
function changes(input, output) {
  const src = [...input];
  const parts = [];
  let i = 0;
  const add = (text, kind) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ text, kind });
  };
  for (const ch of output) {
    const isBase = !MARK_OR_SPACE.test(ch);
    let j = i;
    while (j < src.length && src[j] !== ch && MARK_OR_SPACE.test(src[j])) j++;
    if (j === src.length || (!isBase && src[j] !== ch)) {
      add(ch, "ins");
      continue;
    }
    while (i < j) add(src[i++], "del");
    add(ch, src[i++] === ch ? "same" : "case");
  }
  while (i < src.length) add(src[i++], "del");
  return parts;
}

function showChanges(box, input, output) {
  box.replaceChildren();
  for (const { text, kind } of changes(input, output)) {
    if (kind === "same") {
      box.append(text);
      continue;
    }
    if (kind === "del" && !text.trim()) continue; // removed spaces are visible as words joining
    const el = document.createElement(kind === "del" ? "del" : "span");
    if (kind !== "del") el.className = kind;
    el.textContent = text;
    box.append(el);
  }
}

let latest = 0; // only the newest request's answer is shown

async function fix() {
  const ticket = ++latest;
  const input = $("input").value;
  const lang = $("lang").value;
  const status = $("fix-status");
  try {
    const r = await restorer(lang);
    $("model").textContent = `· ${lang} char model ${(r.modelSize / 1e6).toFixed(1)} MB, in this browser`;
    const t0 = performance.now();
    const output = await r.restore(input, { spaces: $("spaces").value });
    if (ticket !== latest) return;
    showChanges($("output"), input, output);
    status.className = "status";
    status.textContent = `${lang} · char · ${Math.round(performance.now() - t0)} ms`;
  } catch (err) {
    if (ticket !== latest) return;
    status.className = "status error";
    status.textContent = String(err.message || err);
  }
}

for (const [code, name] of Object.entries(LANGS)) $("lang").append(new Option(name, code));
$("input").addEventListener("input", fix);
$("spaces").addEventListener("change", fix);
$("lang").addEventListener("change", () => {
  $("input").value = SAMPLES[$("lang").value];
  fix();
});
$("example").addEventListener("click", () => {
  $("input").value = $("input").value.replace(/\s+/g, "");
  fix();
});
fix();

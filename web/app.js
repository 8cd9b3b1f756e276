// The offline page: restores as you type with the char engine in this browser (src/), and exposes
// window.charrestore.restore(text, {lang, spaces}) (lang "auto": the language src/detect.js names) and
// window.charrestore.detect(text, {prefer}) for tests and embedding. Every URL is relative: the models and
// packs are the Python package's own files, in models/ and languages/ beside web/ in the repository.
import { showChanges } from "./highlight.js";
import { Detector, Restorer, useCompressedWasm } from "./index.js";

// the packs with a char model (tests/test_web.py holds this list to the shipped models)
const LANGS = {
  en: "English", de: "German", es: "Spanish", fr: "French", ru: "Russian", ko: "Korean", ja: "Japanese", zh: "Chinese",
  vi: "Vietnamese", th: "Thai", gu: "Gujarati",
};
const SAMPLES = {
  en: "good morning everyone and thank you for coming today i want to talk about how we read captions",
  de: "guten morgen meine damen und herren heute sprechen wir über die zukunft unserer energiepolitik",
  es: "buenos días señorías hoy vamos a hablar de los presupuestos tienen ustedes alguna pregunta",
  fr: "il était une fois un vieux château au bord de la mer où vivait une jeune fille qui aimait lire",
  ru: "добрый вечер друзья сегодня мы поговорим о том как читать субтитры и зачем нужны знаки препинания",
  ko: "오늘날씨가정말좋네요같이산책하러갈까요",
  ja: "今日は雨が降っていますか明日は晴れるでしょうそれでは失礼します",
  zh: "今天天气很好我们一起去公园散步吧你明天有空吗",
  vi: "hà nội là thủ đô của việt nam thành phố có hơn tám triệu dân bạn đã đến đó bao giờ chưa",
  th: "นายกรัฐมนตรีเดินทางไปจังหวัดเชียงใหม่เพื่อติดตามการแก้ไขปัญหาน้ำท่วมในวันนี้",
  gu: "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે",
};
const $ = (id) => document.getElementById(id);

const wasm = useCompressedWasm(new URL("vendor/ort-wasm-simd-threaded.wasm.gz", import.meta.url));
const restorers = {};
let detector; // loaded on the first "auto"

/** The restorer of ``lang``, loaded once (the wasm first). */
function restorer(lang) {
  if (!(lang in LANGS)) return Promise.reject(new Error(`no char model for ${lang} (have ${Object.keys(LANGS)})`));
  restorers[lang] ??= wasm.then(() => Restorer.load({ lang }));
  return restorers[lang];
}

/** The language of ``text`` among the page's packs, as ``charrestore detect`` names it (``prefer``: as auto:en). */
async function detect(text, { prefer } = {}) {
  detector ??= Detector.load();
  const d = await detector;
  return d.detect(text, Object.keys(LANGS).filter((l) => d.languages.includes(l)), { prefer });
}

async function restore(text, { lang = "en", spaces = "auto" } = {}) {
  if (lang === "auto") lang = await detect(text);
  return (await restorer(lang)).restore(text, { spaces });
}

window.charrestore = { restore, detect };

let latest = 0; // only the newest request's answer is shown

async function fix() {
  const ticket = ++latest;
  const input = $("input").value;
  const asked = $("lang").value;
  const status = $("fix-status");
  try {
    const lang = asked === "auto" ? await detect(input) : asked;
    const r = await restorer(lang);
    const t0 = performance.now();
    const output = await r.restore(input, { spaces: $("spaces").value });
    if (ticket !== latest) return; // a newer request owns the page: an older one (a model still loading) writes nothing
    $("model").textContent = `· ${lang} char model ${(r.modelSize / 1e6).toFixed(1)} MB, in this browser`;
    showChanges($("output"), input, output);
    status.className = "status";
    const detected = asked === "auto" ? `detected ${LANGS[lang]} · ` : "";
    status.textContent = `${detected}${lang} · char · ${Math.round(performance.now() - t0)} ms`;
  } catch (err) {
    if (ticket !== latest) return;
    status.className = "status error";
    status.textContent = String(err.message || err);
  }
}

$("lang").append(new Option("Detect the language", "auto", true, true));
for (const [code, name] of Object.entries(LANGS)) $("lang").append(new Option(name, code));
$("input").addEventListener("input", fix);
$("spaces").addEventListener("change", fix);
$("lang").addEventListener("change", () => {
  if ($("lang").value in SAMPLES) $("input").value = SAMPLES[$("lang").value];
  fix();
});
$("example").addEventListener("click", () => {
  $("input").value = $("input").value.replace(/\s+/g, "");
  fix();
});
fix();

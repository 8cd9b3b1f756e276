// The charrestore page: POST /v1/fix with the changes highlighted, and live captions over WS /v1/stream.
// URLs are relative to the page, so that it also works behind a proxy that serves it under a path prefix.
"use strict";

const $ = (id) => document.getElementById(id);
const SAMPLES = {
  en: "good morning everyone and thank you for coming today i want to talk about how we read captions " +
      "when we watch a video we expect the words to appear as the speaker says them but without punctuation " +
      "a transcript is hard to follow so where does one sentence end and the next one begin that is the " +
      "question this little demo answers it adds commas periods question marks and capital letters while " +
      "the speaker is still talking",
  ja: "今日 は 雨 が 降って います か 明日 は 晴れる でしょう それでは 失礼 します",
  gu: "ગુજરાત ભારત દેશનું એક રાજ્ય છે તેની રાજધાની ગાંધીનગર છે",
};
const MARK_OR_SPACE = /[\s\p{P}]/u;

function settings() {
  return { lang: $("lang").value, engine: $("engine").value, spaces: $("spaces").value };
}

// Align the restored text with the input: the restorer only inserts marks and spaces, changes case and
// drops input marks and spaces, so one greedy pass over the output finds every change. An output character
// matches the next input character that is itself or a letter; the marks and spaces skipped are removed.
function changes(input, output) {
  const src = [...input], parts = [];
  let i = 0;
  const add = (text, kind) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text; else parts.push({ text, kind });
  };
  for (const ch of output) {
    const isBase = !MARK_OR_SPACE.test(ch);
    let j = i;
    while (j < src.length && src[j] !== ch && MARK_OR_SPACE.test(src[j])) j++;
    if (j === src.length || (!isBase && src[j] !== ch)) { add(ch, "ins"); continue; }
    while (i < j) add(src[i++], "del");
    add(ch, src[i++] === ch ? "same" : "case");
  }
  while (i < src.length) add(src[i++], "del");
  return parts;
}

function showChanges(box, input, output) {
  box.replaceChildren();
  for (const { text, kind } of changes(input, output)) {
    if (kind === "same") { box.append(text); continue; }
    if (kind === "del" && !text.trim()) continue;  // removed spaces are visible as words joining
    const el = document.createElement(kind === "del" ? "del" : "span");
    if (kind !== "del") el.className = kind;
    el.textContent = text;
    box.append(el);
  }
}

async function fix() {
  const input = $("input").value, status = $("fix-status"), button = $("fix");
  button.disabled = true;
  status.className = "status";
  status.textContent = "…";
  const t0 = performance.now();
  try {
    const response = await fetch("v1/fix", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: input, ...settings() }),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    showChanges($("output"), input, data.text);
    status.textContent = `${data.lang} · ${data.engine} · ${Math.round(performance.now() - t0)} ms`;
  } catch (err) {
    status.className = "status error";
    status.textContent = String(err.message || err);
  } finally {
    button.disabled = false;
  }
}

// Live captions: one word per tick; every answer appends its final text and replaces the provisional tail.
let live = null;

// A live stream needs its language before the first word: with "auto", the transcript's is asked for first.
async function liveLanguage(lang, transcript) {
  if (lang !== "auto") return lang;
  const response = await fetch("v1/detect", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: transcript }),
  });
  return (await response.json()).lang;
}

async function startLive() {
  stopLive(true);
  const words = $("transcript").value.split(/\s+/).filter(Boolean);
  if (!words.length) return;
  const { engine } = settings();
  const lang = await liveLanguage(settings().lang, $("transcript").value);
  const query = new URLSearchParams({ lang, engine });
  if ($("lookahead").value) query.set("lookahead", $("lookahead").value);
  const url = new URL(`v1/stream?${query}`, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url);
  const state = live = { ws, timer: null, sent: 0, answered: 0, ended: false };
  $("final").textContent = "";
  $("provisional").textContent = "";
  $("start").disabled = true;
  $("stop").disabled = false;
  const status = $("live-status");
  status.className = "status";
  status.textContent = "connecting…";

  const end = () => {
    clearInterval(state.timer);
    if (!state.ended && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ end: true }));
    state.ended = true;
  };
  state.end = end;
  ws.onopen = () => {
    state.timer = setInterval(() => {
      if (state.sent >= words.length) return end();
      ws.send(JSON.stringify({ text: words[state.sent++] }));
    }, 1000 / Number($("rate").value));
  };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.error) { status.className = "status error"; status.textContent = msg.error; return; }
    state.answered++;
    $("final").textContent += msg.final;
    $("provisional").textContent = msg.provisional;
    $("captions").scrollTop = $("captions").scrollHeight;
    status.textContent = msg.done ? `done: ${state.sent} words` : `${state.sent} / ${words.length} words sent`;
  };
  ws.onclose = () => {
    clearInterval(state.timer);
    if (live === state) { live = null; $("start").disabled = false; $("stop").disabled = true; }
  };
  ws.onerror = () => { status.className = "status error"; status.textContent = "connection failed"; };
}

function stopLive(quiet) {
  if (!live) return;
  if (quiet) { clearInterval(live.timer); live.ws.close(); live = null; return; }
  live.end();
}

async function loadPacks() {
  const select = $("lang");
  try {
    const data = await (await fetch("v1/packs")).json();
    if (data.detect && data.detect.length) select.add(new Option("Detect the language", "auto", true, true));
    for (const pack of data.packs.filter((p) => p.ready)) {  // a pack whose model is still in training: not offered
      select.add(new Option(`${pack.name} (${pack.code})`, pack.code, false, false));
    }
  } catch (err) {
    select.add(new Option("en", "en", true, true));
  }
  $("transcript").value = SAMPLES[select.value] || SAMPLES.en;
}

document.addEventListener("DOMContentLoaded", () => {
  loadPacks();
  $("fix").addEventListener("click", fix);
  $("input").addEventListener("keydown", (e) => { if (e.key === "Enter" && e.ctrlKey) fix(); });
  $("example").addEventListener("click", () => { $("input").value = "willaichangeourfutureobviouslytheanswerisyes"; fix(); });
  $("lang").addEventListener("change", () => { $("transcript").value = SAMPLES[$("lang").value] || SAMPLES.en; });
  $("start").addEventListener("click", startLive);
  $("stop").addEventListener("click", () => stopLive(false));
  $("rate").addEventListener("input", () => { $("rate-value").textContent = $("rate").value; });
});

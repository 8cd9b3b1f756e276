// The charrestore page: POST /v1/fix with the changes highlighted, and live captions over WS /v1/stream.
// URLs are relative to the page, so that it also works behind a proxy that serves it under a path prefix. The look
// and the highlighter are the in-browser page's (web/, mounted under offline/): one source for both pages.
import { showChanges } from "../offline/web/highlight.js";

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

function settings() {
  return { lang: $("lang").value, engine: $("engine").value, spaces: $("spaces").value };
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

// What restoring changed, as both pages show it (this page and the server's, which imports it from here): the
// restorer only inserts marks and spaces, changes case and drops input marks and spaces, so one greedy pass over the
// output finds every change. An output character matches the next input character that is itself or a letter; the
// marks and spaces skipped are removed.
const MARK_OR_SPACE = /[\s\p{P}]/u;

export function changes(input, output) {
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

export function showChanges(box, input, output) {
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

/**
 * The TOML that language packs use, and no more: comments, [tables], `key = value` with bare or quoted keys,
 * basic and literal strings, booleans, numbers and one-line arrays of those. Anything else is an error, so a
 * pack that outgrows this reader fails loudly instead of loading wrong.
 */

const ESCAPES = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };

class Reader {
  constructor(line, lineNo) {
    this.s = line;
    this.i = 0;
    this.lineNo = lineNo;
  }

  fail(what) {
    throw new SyntaxError(`TOML line ${this.lineNo}: ${what}`);
  }

  space() {
    while (this.s[this.i] === " " || this.s[this.i] === "\t") this.i++;
  }

  string() {
    const quote = this.s[this.i++];
    let out = "";
    while (this.i < this.s.length && this.s[this.i] !== quote) {
      let c = this.s[this.i++];
      if (quote === '"' && c === "\\") {
        const e = this.s[this.i++];
        if (e === "u" || e === "U") {
          const n = e === "u" ? 4 : 8;
          c = String.fromCodePoint(parseInt(this.s.slice(this.i, this.i + n), 16));
          this.i += n;
        } else if (e in ESCAPES) {
          c = ESCAPES[e];
        } else {
          this.fail(`unknown escape \\${e}`);
        }
      }
      out += c;
    }
    if (this.s[this.i++] !== quote) this.fail("unterminated string");
    return out;
  }

  key() {
    this.space();
    if (this.s[this.i] === '"' || this.s[this.i] === "'") return this.string();
    const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i));
    if (!m) this.fail("expected a key");
    this.i += m[0].length;
    return m[0];
  }

  value() {
    this.space();
    const c = this.s[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") {
      this.i++;
      const out = [];
      for (;;) {
        this.space();
        if (this.s[this.i] === "]") break;
        out.push(this.value());
        this.space();
        if (this.s[this.i] === ",") this.i++;
        else if (this.s[this.i] !== "]") this.fail("expected , or ] in an array");
      }
      this.i++;
      return out;
    }
    const m = /^(true|false|[+-]?[0-9_]+(\.[0-9_]+)?([eE][+-]?[0-9]+)?)/.exec(this.s.slice(this.i));
    if (!m) this.fail("unsupported value");
    this.i += m[0].length;
    return m[0] === "true" ? true : m[0] === "false" ? false : Number(m[0].replaceAll("_", ""));
  }

  end() {
    this.space();
    if (this.i < this.s.length && this.s[this.i] !== "#") this.fail("unexpected text after the value");
  }
}

/** The object a TOML document of the supported subset describes. */
export function parseToml(text) {
  const root = {};
  let table = root;
  text.split(/\r?\n/).forEach((line, k) => {
    const r = new Reader(line, k + 1);
    r.space();
    if (r.i >= line.length || line[r.i] === "#") return;
    if (line[r.i] === "[") {
      r.i++;
      const name = r.key();
      r.space();
      if (line[r.i++] !== "]") r.fail("expected ]");
      r.end();
      if (Object.hasOwn(root, name)) r.fail(`table [${name}] defined twice`);
      table = root[name] = {};
      return;
    }
    const key = r.key();
    r.space();
    if (line[r.i++] !== "=") r.fail("expected =");
    if (Object.hasOwn(table, key)) r.fail(`key ${key} defined twice`);
    table[key] = r.value();
    r.end();
  });
  return root;
}

// The playground's highlighter over every shipped rule file: each token moves on (a
// tokenizer that does not would hang the editor), and a few lines get the classes of the
// VS Code grammar (editors/vscode/syntaxes/rules.tmLanguage.json).
//
//   node web/test/tokenize.test.mjs
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StringStream } from "@codemirror/language";
import { rules } from "../src/rules-lang.js";

const parser = rules.streamParser;
let failures = 0;

// tokens returns [text, tag] for each token of the lines of src.
function tokens(src) {
  const out = [];
  const state = parser.startState(2);
  for (const line of src.split("\n")) {
    const stream = new StringStream(line, 2, 2);
    while (!stream.eol()) {
      stream.start = stream.pos;
      const before = stream.pos;
      const tag = parser.token(stream, state);
      if (stream.pos <= before) throw new Error(`no progress at ${JSON.stringify(line)} column ${before + 1}`);
      if (tag) out.push([line.slice(before, stream.pos), tag]);
    }
  }
  return out;
}

const root = fileURLToPath(new URL("../../rulesets/", import.meta.url));
let files = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith(".rules")) {
      files++;
      try {
        tokens(readFileSync(p, "utf8"));
      } catch (err) {
        failures++;
        console.log(`FAIL ${p}: ${err.message}`);
      }
    }
  }
}
walk(root);
console.log(`${files} shipped rule files tokenized`);

const cases = [
  ["// une note", "// une note", "lineComment"],
  ['let r = roll("3d6")', "let", "controlKeyword"],
  ["let r = 3d6 + 4D + d%", "3d6", "number.special"],
  ["let r = 3d6 + 4D + d%", "4D", "number.special"],
  ["let r = 3d6 + 4D + d%", "d%", "number.special"],
  ["if c == Q♣ {", "Q♣", "atom"],
  ["  1:2 : 3", "1:2", "number"],
  ["rule attaque(x: int): int {", "attaque", "variableName.function.definition"],
  ["kind Figurine {", "Figurine", "typeName.definition"],
  ["option bonus = 2", "bonus", "variableName.definition"],
  ['emit "touché {x} \\n"', "\\n", "escape"],
  ['emit "touché {x} \\n"', "{x}", "string.special"],
  ["return a and not b", "and", "operatorKeyword"],
  ["return true", "true", "bool"],
  ["return f(x)", "f", "variableName.function"],
  ['include "a.rules"', "include", "moduleKeyword"],
  ['emit "a \\q b"', "\\", "string"], // a backslash that starts no escape is text
];
for (const [src, text, want] of cases) {
  const got = tokens(src).find(([t]) => t === text);
  const ok = got && got[1] === want;
  if (!ok) failures++;
  console.log(`${ok ? "ok  " : "FAIL"} ${JSON.stringify(src)}: ${JSON.stringify(text)} is ${got ? got[1] : "no token"}, want ${want}`);
}
if (failures > 0) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log("tokenize test: ok");

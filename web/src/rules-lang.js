// The rulesh language for CodeMirror: a stream tokenizer that follows the classes of the
// VS Code grammar (editors/vscode/syntaxes/rules.tmLanguage.json), so that a rule file
// reads the same in both editors. Tokens are CodeMirror highlight tags.
import { StreamLanguage } from "@codemirror/language";

const word = /^[\p{L}_][\p{L}\p{N}_]*/u;
const isWordChar = (c) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

const control = new Set(["if", "else", "for", "in", "while", "return", "break", "continue", "require", "emit", "let"]);
const wordOps = new Set(["and", "or", "not", "matches", "contains", "startsWith", "endsWith"]);
const constants = new Set(["true", "false", "nil"]);
const storage = new Set(["ruleset", "include", "option", "const", "kind", "enum", "entity", "dice", "table", "deck", "pile", "map", "action", "rule", "roll", "standard"]);
// A declaration keyword, and the tag of the name that follows it.
const declares = {
  action: "variableName.function.definition", rule: "variableName.function.definition",
  table: "variableName.function.definition",
  kind: "typeName.definition", enum: "typeName.definition",
  option: "variableName.definition", const: "variableName.definition", entity: "variableName.definition",
  dice: "variableName.definition", deck: "variableName.definition", pile: "variableName.definition",
  map: "variableName.definition",
};
const lineStartOnly = new Set(["option", "const", "entity", "dice", "deck", "pile", "map"]);

const dice = /^(?:\d*[dD](?:\d+|%|F|\[[^\]\n"']*\])[A-Za-z0-9!<>=]*|\d+[dD]\p{L}[\p{L}\p{N}_!<>=]*|\d+D(?![\p{L}\p{N}_]))/u;
const card = /^(?:10|[2-9AJQKRVD])[♣♠♥♦]/u;
const ratio = /^\d+:\d+(?![\p{L}\p{N}_])/u;
const number = /^\d+(?:\.\d+)?%?/;
const escape = /^\\(?:[abfnrtv\\"']|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|[0-7]{3})/;
const operator = /^(?:==|!=|<=|>=|\+=|-=|\*=|&&|\|\||\?\?|\?\.|\*\*|[-+*/%<>=!?^])/;

function tokenString(stream, state) {
  const q = state.quote;
  if (stream.match(escape) || stream.match("{{") || stream.match("}}")) return "escape";
  if (stream.peek() === "{") {
    // A template hole: {expr}, up to its brace, the quote or the line's end.
    stream.next();
    while (!stream.eol() && stream.peek() !== "}" && stream.peek() !== q) stream.next();
    if (stream.peek() === "}") stream.next();
    return "string.special";
  }
  const start = stream.pos;
  while (!stream.eol()) {
    const c = stream.peek();
    if (c === q) {
      stream.next();
      state.quote = null;
      return "string";
    }
    if (c === "\\" || c === "{" || (c === "}" && stream.string[stream.pos + 1] === "}")) {
      // A backslash that starts no escape is text: a token always moves on.
      if (stream.pos === start) stream.next();
      break;
    }
    stream.next();
  }
  if (stream.eol()) state.quote = null; // strings end with the line
  return "string";
}

export const rules = StreamLanguage.define({
  name: "rules",
  startState: () => ({ quote: null, expect: null }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (state.quote) return tokenString(stream, state);
    if (stream.sol()) state.expect = null;
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "lineComment";
    }
    const c = stream.peek();
    if (c === '"' || c === "'") {
      stream.next();
      state.quote = c;
      return "string";
    }
    const prev = stream.string[stream.pos - 1];
    if (!isWordChar(prev) && stream.match(card)) return "atom";
    if (!isWordChar(prev) && prev !== "." && stream.match(dice)) return "number.special";
    if (!isWordChar(prev) && prev !== "." && stream.match(ratio)) return "number";
    if (!isWordChar(prev) && stream.match(number)) return "number";
    const m = stream.match(word);
    if (m) {
      const w = m[0];
      if (state.expect) {
        const tag = state.expect;
        state.expect = null;
        return tag;
      }
      if (control.has(w)) return "controlKeyword";
      if (wordOps.has(w)) return "operatorKeyword";
      if (constants.has(w)) return w === "nil" ? "null" : "bool";
      if (storage.has(w)) {
        const atStart = /^\s*$/.test(stream.string.slice(0, stream.start));
        if (declares[w] && (!lineStartOnly.has(w) || atStart) && /^\s+[\p{L}_]/u.test(stream.string.slice(stream.pos))) {
          state.expect = declares[w];
        }
        return w === "ruleset" || w === "include" ? "moduleKeyword" : "definitionKeyword";
      }
      if (stream.peek() === "(") return "variableName.function";
      return "variableName";
    }
    if (stream.match("..")) return "operator";
    if (stream.match(operator)) return "operator";
    if (stream.match(/^[,:]/)) return "punctuation";
    stream.next();
    return "bracket";
  },
  languageData: { commentTokens: { line: "//" } },
});

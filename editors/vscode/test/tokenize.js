// Tokenizes every shipped .rules and .transcript file with the engine VS Code uses
// (vscode-textmate on vscode-oniguruma), then checks the scopes of a few lines.
// Run: cd editors/vscode/test && npm ci && node tokenize.js
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const repo = path.resolve(__dirname, '..', '..', '..');
const syntaxes = path.resolve(__dirname, '..', 'syntaxes');
const grammarFiles = {
  'source.rules': path.join(syntaxes, 'rules.tmLanguage.json'),
  'source.rules-transcript': path.join(syntaxes, 'transcript.tmLanguage.json'),
};

async function registry() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  return new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      const file = grammarFiles[scope];
      if (!file) return null;
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
}

// tokenize returns, for each line, its tokens as [text, scopes].
function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return r.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes]);
  });
}

function walk(dir, ext, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) walk(p, ext, out);
    } else if (e.name.endsWith(ext)) {
      out.push(p);
    }
  }
  return out.sort();
}

let failures = 0;
let passed = 0;
function fail(msg) {
  failures++;
  console.error('FAIL ' + msg);
}

// expect checks that the token holding `text` on a line carries `scope` (a scope name or
// its beginning).
function expect(lines, file, lineNo, text, scope) {
  const toks = lines[lineNo - 1];
  const what = `${file}:${lineNo}: ${JSON.stringify(text)}`;
  if (!toks) return fail(`${what}: no such line`);
  const tok = toks.find(([t]) => t === text) || toks.find(([t]) => t.includes(text));
  if (!tok) return fail(`${what}: not a token of ${JSON.stringify(toks.map(([t]) => t))}`);
  if (!tok[1].some((s) => s === scope || s.startsWith(scope + '.'))) {
    return fail(`${what}: scopes ${tok[1].join(' ')}, want ${scope}`);
  }
  passed++;
}

async function main() {
  const reg = await registry();
  const rules = await reg.loadGrammar('source.rules');
  const transcript = await reg.loadGrammar('source.rules-transcript');

  // Every shipped file tokenizes whole, and no line is left outside a scope of its grammar.
  const files = { rules: walk(repo, '.rules'), transcript: walk(repo, '.transcript') };
  if (files.rules.length === 0 || files.transcript.length === 0) fail('no shipped file found');
  const tokens = {};
  for (const [kind, list] of Object.entries(files)) {
    const grammar = kind === 'rules' ? rules : transcript;
    for (const f of list) {
      const text = fs.readFileSync(f, 'utf8');
      const lines = tokenize(grammar, text);
      const joined = lines.map((toks) => toks.map(([t]) => t).join('')).join('\n');
      if (joined !== text) fail(`${f}: the tokens do not cover the text`);
      else passed++;
      tokens[path.relative(repo, f)] = lines;
    }
  }

  // Sample lines, kept beside the files they come from.
  const sample = (text) => tokenize(rules, text);
  const s = sample([
    '// Un commentaire',
    'option malus = 3 "le malus"',
    'action frapper(c: Combattant) {',
    '  let r = roll 4d6kh3 + 1d10 + 4D',
    '  emit "{c.nom} tire {r} {{littéral}}"',
    '  require c.carte == Q♣ else "pas de dame"',
    '  (0 .. 3] : "légère"',
    '  if c.pv <= 40% and true { return combats(1:2) }',
    '}',
  ].join('\n'));
  expect(s, 'sample', 1, '// Un commentaire', 'comment.line.double-slash.rules');
  expect(s, 'sample', 2, 'option', 'storage.type.rules');
  expect(s, 'sample', 2, 'malus', 'variable.other.declaration.rules');
  expect(s, 'sample', 2, 'le malus', 'string.quoted.double.rules');
  expect(s, 'sample', 3, 'action', 'storage.type.function.rules');
  expect(s, 'sample', 3, 'frapper', 'entity.name.function.rules');
  expect(s, 'sample', 4, 'let', 'keyword.control.rules');
  expect(s, 'sample', 4, '4d6kh3', 'constant.other.dice.rules');
  expect(s, 'sample', 4, '1d10', 'constant.other.dice.rules');
  expect(s, 'sample', 4, '4D', 'constant.other.dice.rules');
  expect(s, 'sample', 5, 'emit', 'keyword.control.rules');
  expect(s, 'sample', 5, '{', 'punctuation.section.template.begin.rules');
  expect(s, 'sample', 5, 'nom', 'meta.template.expression.rules');
  expect(s, 'sample', 5, '{{', 'constant.character.escape.brace.rules');
  expect(s, 'sample', 6, 'Q♣', 'constant.other.card.rules');
  expect(s, 'sample', 7, '(', 'punctuation.definition.band.begin.rules');
  expect(s, 'sample', 7, '..', 'keyword.operator.range.rules');
  expect(s, 'sample', 7, ']', 'punctuation.definition.band.end.rules');
  expect(s, 'sample', 8, '40%', 'constant.numeric.rules');
  expect(s, 'sample', 8, 'and', 'keyword.operator.word.rules');
  expect(s, 'sample', 8, 'true', 'constant.language.rules');
  expect(s, 'sample', 8, 'combats', 'entity.name.function.call.rules');
  expect(s, 'sample', 8, '1:2', 'constant.numeric.ratio.rules');

  // Shipped files.
  const duel = tokens[path.join('rulesets', 'examples', 'duel.rules')];
  expect(duel, 'duel.rules', 13, 'Combattant', 'entity.name.type.rules');
  expect(duel, 'duel.rules', 40, 'frapper', 'entity.name.function.rules');
  expect(duel, 'duel.rules', 52, 'attaquant', 'meta.template.expression.rules');
  const tables = tokens[path.join('rulesets', 'examples', 'tables.rules')];
  expect(tables, 'tables.rules', 7, '..', 'keyword.operator.range.rules');
  expect(tables, 'tables.rules', 16, 'allonge', 'meta.band.rules');
  const args = tokens[path.join('tests', 'examples', 'arguments.transcript')];
  expect(args, 'arguments.transcript', 1, '# Named arguments in rulesets/examples/arguments.rules: after the positional ones, in any', 'comment.line.number-sign.transcript');
  expect(args, 'arguments.transcript', 3, 'seed', 'keyword.other.directive.transcript');
  expect(args, 'arguments.transcript', 5, '>', 'punctuation.definition.prompt.transcript');
  expect(args, 'arguments.transcript', 5, 'difficulté', 'entity.name.function.call.rules');
  expect(args, 'arguments.transcript', 6, '4', 'meta.output.transcript');

  const nfiles = files.rules.length + files.transcript.length;
  console.log(`tokenize: ${nfiles} files (${files.rules.length} .rules, ${files.transcript.length} .transcript)`);
  console.log(`${passed} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

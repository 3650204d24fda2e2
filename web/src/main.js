// The rulesh playground: an editor for rule files (highlighting, the checker's diagnostics as
// you type), and the REPL running against them, both answered by the real engine compiled
// to WebAssembly and run in Web Workers. Nothing is sent anywhere: the share link holds the
// rules and the console's inputs in its fragment, compressed.
//
// Safety: rule text, console output and links are data. Nothing here builds HTML from them
// (textContent and createElement only); the engine's SVG pictures are parsed as
// image/svg+xml and copied element by element through a whitelist.
import { EditorView, basicSetup } from "codemirror";
import { EditorState, ChangeSet } from "@codemirror/state";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { rules } from "./rules-lang.js";
import catalogue from "../build/rulesets.json";

const $ = (id) => document.getElementById(id);
const perf = { checks: [], execs: [] }; // timings, read by the browser test and the status
window.playground = perf;
perf.editor = () => view; // the browser test reads and types the rules through it
perf.version = () => group.version;
perf.checkNow = () => fireCheck(); // the debounce firing at once (the browser test)

// ---- the engine, in workers ----------------------------------------------------------

// Engine is one worker running rulesh.wasm: call sends a request and resolves with its
// answer; restart ends the worker (a long question stopped) and starts a fresh one.
// The engine is compiled once, while the page starts, and given to each worker.
const compiledEngine = WebAssembly.compileStreaming(fetch("rulesh.wasm"));

class Engine {
  constructor() {
    this.next = 1;
    this.start();
  }
  start() {
    this.pending = new Map();
    this.worker = new Worker("worker.js");
    compiledEngine.then((module) => this.worker.postMessage({ module }), (err) => this.worker.onmessage({ data: { failed: String(err) } }));
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        if (e.data.ready) return resolve();
        if (e.data.failed) return reject(new Error(e.data.failed));
        const p = this.pending.get(e.data.id);
        if (p && e.data.progress) {
          if (p.onProgress) p.onProgress(e.data.progress);
        } else if (p) {
          this.pending.delete(e.data.id);
          p.resolve(e.data.answer);
        }
      };
    });
  }
  // call sends a request; onProgress, when given, hears the {done, total} of a :sim as it runs.
  call(op, req, onProgress = null) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ id, op, req });
    });
  }
  restart() {
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error("stopped"));
    this.start();
  }
}

// Two engines: checking as you type never waits behind a long question of the console.
const checker = new Engine();
const engine = new Engine();

// ---- the rules: a group of files, one tab each ---------------------------------------

const scratchName = "mes_règles.rules";
const scratch = `// Vos règles : écrivez-les ici, la console à droite les essaie.
// Choisissez aussi un jeu de règles livré dans le menu « Rules » en haut.
ruleset "Mes règles" version "0.1"

option bonus = 2   "bonus ajouté au jet"

// Un jet d'attaque : 1d20 plus le bonus.
rule attaque(): int {
  return roll("1d20").total + bonus
}
`;

// The state of the rules: the files (name -> EditorState), their tabs in order, the root
// (the file loaded), the one shown, and a count of edits.
const group = { states: new Map(), tabs: [], root: scratchName, shown: scratchName, label: "", version: 1 };
let view;

// includesOf lists the files a rule file includes, as written.
function includesOf(text) {
  const out = [];
  for (const m of text.matchAll(/^[ \t]*include[ \t]+"([^"\n]+)"/gm)) out.push(m[1]);
  return out;
}

// joinPath resolves an include against the folder of the file that includes it.
function joinPath(from, rel) {
  const parts = from.split("/").slice(0, -1);
  for (const p of rel.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== "." && p !== "") parts.push(p);
  }
  return parts.join("/");
}

// tabsOf is the root, then every file it includes, directly or not, in the order reached.
function tabsOf(root, files) {
  const seen = [root];
  for (let i = 0; i < seen.length; i++) {
    const text = files[seen[i]];
    if (text === undefined) continue;
    for (const inc of includesOf(text)) {
      const p = joinPath(seen[i], inc);
      if (!seen.includes(p) && files[p] !== undefined) seen.push(p);
    }
  }
  return seen;
}

function currentFiles() {
  const files = {};
  for (const [name, st] of group.states) files[name] = name === group.shown && view ? view.state.doc.toString() : st.doc.toString();
  return files;
}

const editorExtensions = () => [
  basicSetup,
  rules,
  EditorView.lineWrapping,
  lintGutter(),
  EditorView.updateListener.of((u) => {
    if (u.docChanged) {
      group.version++;
      edited(group.shown, u.changes);
      scheduleShare();
    }
  }),
  EditorView.contentAttributes.of({ "aria-label": "rules" }),
];

// setGroup shows a new group of files, root first.
function setGroup(files, root, label) {
  group.states = new Map();
  for (const name of tabsOf(root, files)) group.states.set(name, EditorState.create({ doc: files[name], extensions: editorExtensions() }));
  group.tabs = [...group.states.keys()];
  group.root = root;
  group.shown = root;
  group.label = label;
  group.version++;
  lastDiags = []; // the previous group's problems are not these files': none until checked
  drawDiagnostics();
  if (!view) {
    view = new EditorView({ state: group.states.get(root), parent: $("editor") });
  } else {
    view.setState(group.states.get(root));
  }
  drawTabs();
  newCheckGroup();
}

function showTab(name, line, col) {
  if (!group.states.has(name)) return;
  if (name !== group.shown) {
    group.states.set(group.shown, view.state);
    group.shown = name;
    view.setState(group.states.get(name));
    drawTabs();
  }
  if (line) {
    const pos = offsetOf(view.state.doc, line, col || 1);
    view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  }
  view.focus();
}

function drawTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren();
  for (const name of group.tabs) {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", String(name === group.shown));
    b.textContent = name.split("/").pop();
    b.title = name === group.root ? `${name} (loaded)` : `${name} (included)`;
    if (lastDiags.some((d) => d.file === name && d.severity === "error")) b.classList.add("has-errors");
    b.onclick = () => showTab(name);
    tabs.append(b);
  }
}

// ---- diagnostics ---------------------------------------------------------------------

// Checking as you type: each edit restarts a short debounce; when it fires, only the files
// whose text changed since the last check are sent to the checker's worker, which keeps the
// others (text that did not change is not sent, and a check of text already checked is not
// asked at all). One check runs at a time. An edit made while one runs is checked the moment
// it ends, and the answer of the one running is still shown, its ranges carried through the
// edits made since (so nothing the engine computed is thrown away). The page's own work on an
// answer grows with the number of problems, capped, not with the size of the files.
const checkDelay = 200; // ms after the last keystroke
const maxListed = 100; // problems listed below the editor; the rest are counted
const maxUnderlined = 500; // problems underlined in one file

let lastDiags = [];

// The checker's view of the rules: what it was last sent (file -> text), the files edited
// since, and for each file the document and the edits since the check running or last run.
// underlined holds, per file, the problems underlined and the document they were computed on.
const checks = { timer: 0, running: false, again: false, fired: 0, reset: true, epoch: 0, sent: new Map(), dirty: new Set(), base: new Map(), underlined: new Map(), root: "" };

// edited notes an edit of a file: it is checked again after the debounce.
function edited(name, changes) {
  checks.dirty.add(name);
  const b = checks.base.get(name);
  if (b) b.changes = b.changes.compose(changes);
  scheduleCheck(checkDelay);
}

// newCheckGroup starts over with the group of files just shown: every file is sent, now.
function newCheckGroup() {
  checks.reset = true;
  checks.epoch++;
  checks.sent = new Map();
  checks.base = new Map();
  checks.underlined = new Map();
  checks.dirty = new Set(group.states.keys());
  scheduleCheck(0);
}

function scheduleCheck(delay) {
  clearTimeout(checks.timer);
  checks.timer = setTimeout(fireCheck, delay);
}

function stateOf(name) {
  return name === group.shown && view ? view.state : group.states.get(name);
}

// fireCheck is the debounce firing: the check starts now, or as soon as the one running ends.
function fireCheck() {
  checks.fired = performance.now();
  if (checks.running) {
    checks.again = true;
    return;
  }
  startCheck();
}

async function startCheck() {
  const fired = checks.fired;
  const files = {};
  let changed = checks.reset || checks.root !== group.root;
  for (const name of checks.dirty) {
    const st = stateOf(name);
    if (!st) continue;
    const text = st.doc.toString(); // the edited files only
    if (checks.reset || checks.sent.get(name) !== text) {
      files[name] = text;
      changed = true;
    }
    checks.base.set(name, { doc: st.doc, changes: ChangeSet.empty(st.doc.length) });
  }
  checks.dirty.clear();
  if (!changed) {
    perf.skipped = (perf.skipped || 0) + 1; // the same text as the last check: nothing to ask
    return;
  }
  for (const [name, text] of Object.entries(files)) checks.sent.set(name, text);
  const req = { files, root: group.root, reset: checks.reset };
  checks.reset = false;
  checks.root = group.root;
  const version = group.version;
  const root = group.root;
  const epoch = checks.epoch;
  const base = new Map(checks.base);
  checks.running = true;
  const posted = performance.now();
  let answer;
  try {
    await checker.ready;
    answer = await checker.call("check", req);
  } catch (err) {
    answer = { error: err.message };
  }
  const answered = performance.now();
  checks.running = false;
  if (epoch === checks.epoch && !answer.error) {
    // The answer is for this group (a group opened meanwhile has its own check coming).
    showDiagnostics(answer.diags, base);
    const shown = performance.now();
    const record = { ms: shown - fired, wait: posted - fired, engine: answer.ms, check: answer.checkMs, page: shown - answered, root, version, current: version === group.version };
    perf.checks.push(record);
    if (perf.onShown) perf.onShown(record);
    setStatus(`checked in ${Math.round(shown - fired)} ms`);
  } else if (answer.error) {
    setStatus(`the check failed: ${answer.error}`);
  }
  if (checks.again) {
    checks.again = false;
    startCheck();
  }
}

// offsetOf turns a line and a column in characters (code points, as the engine counts)
// into a document offset (UTF-16, as CodeMirror counts), clamped to the document.
function offsetOf(doc, line, col) {
  if (line < 1) return 0;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  let off = 0;
  let n = 1;
  for (const ch of l.text) {
    if (n >= col) break;
    off += ch.length;
    n++;
  }
  return l.from + off;
}

// showDiagnostics shows a check's answer: underlined in each file (the hidden tabs' states
// keep theirs, so a tab switch checks nothing again) and listed. base holds each file's
// document as checked and the edits made since, through which the ranges are carried. A file
// whose problems did not change is left as it is.
function showDiagnostics(diags, base) {
  const byFile = new Map();
  for (const d of diags) {
    if (!byFile.has(d.file)) byFile.set(d.file, []);
    byFile.get(d.file).push(d);
  }
  for (const [name, { doc, changes }] of base) {
    const mine = (byFile.get(name) || []).slice(0, maxUnderlined);
    const key = JSON.stringify(mine);
    const st = stateOf(name);
    const before = checks.underlined.get(name);
    if (!st || (before && before.key === key && before.doc === st.doc)) continue;
    const marks = mine.map((d) => {
      let from = offsetOf(doc, d.line, d.col);
      let to = Math.max(from, offsetOf(doc, d.endLine, d.endCol));
      if (to === from) to = Math.min(doc.length, from + 1);
      if (!changes.empty) {
        from = changes.mapPos(from, 1);
        to = Math.max(from, changes.mapPos(to, -1));
      }
      return { from, to, severity: d.severity, message: d.message, source: "rulesh" };
    });
    if (name === group.shown) {
      view.dispatch(setDiagnostics(view.state, marks));
    } else {
      group.states.set(name, st.update(setDiagnostics(st, marks)).state);
    }
    // Ranges carried through edits are not the checker's own: the next answer redraws them.
    checks.underlined.set(name, changes.empty ? { key, doc: stateOf(name).doc } : null);
  }
  const same = diags.length === lastDiags.length && JSON.stringify(diags.slice(0, maxListed)) === JSON.stringify(lastDiags.slice(0, maxListed));
  lastDiags = diags;
  if (!same) {
    drawDiagnostics();
    drawTabs();
  }
}

function drawDiagnostics() {
  const ul = $("diagnostics");
  ul.replaceChildren();
  for (const d of lastDiags.slice(0, maxListed)) {
    const li = document.createElement("li");
    li.className = d.severity;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${d.file.split("/").pop()}:${d.line}:${d.col}`;
    const sev = document.createElement("span");
    sev.className = "sev";
    sev.textContent = d.severity === "warning" ? "warning: " : "error: ";
    li.append(where, " ", sev, document.createTextNode(d.message));
    li.tabIndex = 0;
    li.onclick = () => showTab(d.file, d.line, d.col);
    li.onkeydown = (e) => e.key === "Enter" && showTab(d.file, d.line, d.col);
    ul.append(li);
  }
  if (lastDiags.length > maxListed) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `… and ${lastDiags.length - maxListed} more (the first ${maxListed} are listed)`;
    ul.append(li);
  }
}

// ---- the console ---------------------------------------------------------------------

// The console's session: its inputs (for the link and for a replay after Stop), the seed,
// the chain of inputs waiting their turn, the one running, and the replay they wait for.
const session = { inputs: [], seed: 1 + Math.floor(Math.random() * 2 ** 31), queue: Promise.resolve(), running: null, replay: Promise.resolve(), history: [], at: 0 };

function entry(input) {
  const div = document.createElement("div");
  div.className = "entry";
  const pre = document.createElement("pre");
  pre.className = "in";
  pre.textContent = input;
  div.append(pre);
  $("output").append(div);
  return div;
}

function scrollDown() {
  const out = $("output");
  out.scrollTop = out.scrollHeight;
}

// run sends one input to the console's engine, after those before it, and shows its output.
function run(input, { record = true } = {}) {
  input = input.trim();
  if (input === "") return session.queue;
  const item = { input };
  if (record) {
    session.inputs.push(item);
    scheduleShare();
  }
  const div = entry(input);
  scrollDown();
  session.queue = session.queue.then(() => exec(input, div, item));
  return session.queue;
}

async function exec(input, div, item = null) {
  const t0 = performance.now();
  const busy = setTimeout(() => showBusy(t0), 150);
  let answer;
  try {
    await session.replay;
    await engine.ready;
    session.running = item;
    answer = await engine.call("exec", { files: currentFiles(), root: group.root, version: group.version, seed: session.seed, input }, (p) => {
      busyProgress = p;
      showBusy(t0); // a bar with a real percentage shows at once
      drawBusy();
    });
  } catch (err) {
    session.running = null;
    clearTimeout(busy);
    hideBusy();
    const p = document.createElement("pre");
    p.className = "stopped";
    p.textContent = err.message === "stopped" ? "stopped (the console was restarted, its earlier inputs run again)" : `error: ${err.message}`;
    div.append(p);
    return;
  }
  session.running = null;
  clearTimeout(busy);
  hideBusy();
  if (input !== "") perf.execs.push({ input, ms: performance.now() - t0 });
  if (answer.error) {
    const p = document.createElement("pre");
    p.textContent = `error: ${answer.error}`;
    div.append(p);
    div.classList.add("failed");
  }
  for (const seg of answer.segments || []) {
    if (seg.kind === "svg") {
      const svg = safeSVG(seg.text);
      if (svg) {
        const fig = document.createElement("figure");
        fig.append(svg);
        div.append(fig);
      }
    } else {
      const p = document.createElement("pre");
      // The tables' bars (block characters) are drawn in the charts' colour, as spans of text.
      for (const [i, part] of seg.text.replace(/\n$/, "").split(/([\u2580-\u259f]+)/).entries()) {
        if (i % 2 === 0) {
          p.append(document.createTextNode(part));
        } else {
          const bar = document.createElement("span");
          bar.className = "bar";
          bar.textContent = part;
          p.append(bar);
        }
      }
      // An error fails the input; warnings alone (rules loaded with them) are only warnings.
      if (/^error: |^[^\n]*:\d+:\d+: (?!warning: )/m.test(seg.text)) div.classList.add("failed");
      else if (/^[^\n]*:\d+:\d+: warning: /m.test(seg.text)) p.classList.add("warned");
      div.append(p);
    }
  }
  setStatus(`answered in ${Math.round(performance.now() - t0)} ms`);
  scrollDown();
}

// startSession starts the console's session on the rules now, before the first input, so
// that the first question does not wait for the rules to load; it says what was loaded.
function startSession() {
  const div = document.createElement("div");
  div.className = "note";
  $("output").append(div);
  session.queue = session.queue.then(() => exec("", div));
}

// The bar under the console while an input runs: without a known progress it only moves
// (working… and the time); a :sim's runs done / runs asked set its value and percentage.
let busyTimer, busyStart, busyProgress = null;
function showBusy(t0) {
  if (busyTimer) return;
  busyStart = t0;
  $("busy").hidden = false;
  drawBusy();
  busyTimer = setInterval(drawBusy, 200);
}
function drawBusy() {
  const bar = $("busy").querySelector("progress");
  const secs = `${((performance.now() - busyStart) / 1000).toFixed(1)} s`;
  if (busyProgress && busyProgress.total > 0) {
    const { done, total } = busyProgress;
    bar.max = total;
    bar.value = done;
    $("busy-text").textContent = `${Math.floor((100 * done) / total)}% — ${done.toLocaleString("en")} of ${total.toLocaleString("en")} runs, ${secs}`;
  } else {
    bar.removeAttribute("value"); // no value: the bar says it works, not how far
    $("busy-text").textContent = `working… ${secs}`;
  }
}
function hideBusy() {
  clearInterval(busyTimer);
  busyTimer = null;
  busyProgress = null;
  $("busy").hidden = true;
}

// stop ends a long question: the engine's worker is ended and a fresh one replays the
// session's inputs before the one stopped, so the console's state is what it was.
$("stop").onclick = () => {
  const stopped = session.running;
  engine.restart();
  hideBusy();
  // The inputs before the one stopped run again, silently; those queued after it wait for them.
  const at = session.inputs.indexOf(stopped);
  const earlier = at >= 0 ? session.inputs.slice(0, at) : [...session.inputs];
  if (at >= 0) session.inputs.splice(at, 1);
  perf.replayed = [];
  session.replay = (async () => {
    for (const { input } of earlier) {
      // A :sim changes nothing in the session (its runs start from the rules as loaded, on
      // machines of their own): running its thousands of runs again would only delay.
      if (/^\s*:sim(\s|$)/.test(input)) continue;
      perf.replayed.push(input);
      try {
        await engine.ready;
        await engine.call("exec", { files: currentFiles(), root: group.root, version: group.version, seed: session.seed, input });
      } catch {
        return;
      }
    }
  })();
  scheduleShare();
};

$("console-form").onsubmit = (e) => {
  e.preventDefault();
  const input = $("input").value;
  if (input.trim() !== "") {
    session.history.push(input);
    session.at = session.history.length;
  }
  $("input").value = "";
  run(input);
};

$("input").onkeydown = async (e) => {
  const inp = $("input");
  if (e.key === "ArrowUp" && session.at > 0) {
    e.preventDefault();
    inp.value = session.history[--session.at];
  } else if (e.key === "ArrowDown" && session.at < session.history.length) {
    e.preventDefault();
    session.at++;
    inp.value = session.history[session.at] ?? "";
  } else if (e.key === "Tab" && inp.value.trim() !== "") {
    e.preventDefault();
    await complete(inp);
  }
};

// complete asks the console's engine what the word before the cursor may be, as Tab does
// at the terminal: one candidate is written in, several are listed.
async function complete(inp) {
  const line = inp.value.slice(0, inp.selectionStart);
  let answer;
  try {
    await engine.ready;
    answer = await engine.call("exec", { files: currentFiles(), root: group.root, version: group.version, seed: session.seed, input: "", complete: line });
  } catch {
    return;
  }
  const cands = answer.candidates || [];
  if (cands.length === 1) {
    inp.value = answer.head + cands[0] + inp.value.slice(inp.selectionStart);
  } else if (cands.length > 1) {
    const div = entry(line);
    const p = document.createElement("pre");
    p.textContent = cands.join("  ");
    div.append(p);
    let common = cands[0];
    for (const c of cands) while (!c.startsWith(common)) common = common.slice(0, -1);
    inp.value = answer.head + common + inp.value.slice(inp.selectionStart);
    scrollDown();
  }
}

function intro() {
  const p = document.createElement("div");
  p.className = "intro";
  const parts = [
    "This console is the rulesh REPL, running the rules on the left in your browser. Try ",
    [":prob 3d6 >= 12"], " (the odds, as a chart), ", [":prob attaque() >= 15"], " (a rule of the blank page), ",
    [":sweep n=1..4 2d6 + n >= 10"], " (one chart, a bar per value), ", [":sim 3d6"], " (10,000 runs, with a progress bar), ", ["let r = 2d6"], ", ", [":state"], " or ", [":help"], ". Tab completes names (", [":prob fr"], " then Tab). ",
    "Edit the rules: the next input runs against them. ",
    "The Share link holds the rules and the inputs.",
  ];
  for (const part of parts) {
    if (Array.isArray(part)) {
      const c = document.createElement("code");
      c.textContent = part[0];
      p.append(c);
    } else p.append(document.createTextNode(part));
  }
  $("output").append(p);
}

// ---- SVG from the engine -------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
const svgElements = new Set(["svg", "g", "rect", "line", "polyline", "polygon", "path", "circle", "ellipse", "text", "tspan", "title"]);
const svgAttributes = new Set(["width", "height", "viewBox", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "points", "d",
  "fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "opacity", "fill-opacity", "stroke-opacity",
  "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline", "transform", "paint-order"]);

// safeSVG parses an SVG picture as data and copies only whitelisted elements and attributes
// (no scripts, no links, no styles, no references to anything else).
function safeSVG(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (root.namespaceURI !== SVG || root.localName !== "svg") return null;
  const copy = (node) => {
    const el = document.createElementNS(SVG, node.localName);
    for (const a of node.attributes) {
      if (a.namespaceURI === null && svgAttributes.has(a.name) && !/url\s*\(|javascript:|[<>]/i.test(a.value)) el.setAttribute(a.name, a.value);
    }
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) el.append(document.createTextNode(child.data));
      else if (child.nodeType === Node.ELEMENT_NODE && child.namespaceURI === SVG && svgElements.has(child.localName)) el.append(copy(child));
    }
    return el;
  };
  const svg = copy(root);
  svg.setAttribute("role", "img");
  const title = root.querySelector("text");
  svg.setAttribute("aria-label", title ? title.textContent : "picture");
  return svg;
}

// ---- the share link ------------------------------------------------------------------

const maxShared = 8 << 20; // the most bytes a link may unpack to

function unbase64url(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

async function unpack(s) {
  const stream = new Blob([unbase64url(s)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxShared) throw new Error("the link unpacks to more than 8 MiB");
    chunks.push(value);
  }
  let text;
  try {
    // fatal: bytes that are not UTF-8 refuse the link, rather than load as U+FFFD.
    text = new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
  } catch {
    throw new Error("its text is not valid UTF-8");
  }
  return JSON.parse(text);
}

// A link replays its inputs when opened: a few kilobytes of fragment could otherwise queue
// hundreds of thousands of them, or of :sim runs. Past either cap the rest is left out, and
// the console says so.
const maxLinkInputs = 200;
const maxLinkSimRuns = 100000; // ten :sim of the default 10,000 runs

// simRuns is the number of runs an input asks when it is a :sim (its N, or the default),
// and 0 otherwise. The console reads N as Go's ParseInt does, so a + before it counts too.
function simRuns(input) {
  const m = /^:sim(?:\s+\+?(\d+)(?=\s))?(?:\s|$)/.exec(input.trim());
  if (!m) return 0;
  return m[1] === undefined ? 10000 : Number(m[1]);
}

// linkInputs is the part of a link's inputs that is replayed, and a sentence on the rest
// ("" when nothing is left out).
function linkInputs(inputs) {
  let runs = 0;
  for (let i = 0; i < inputs.length; i++) {
    runs += simRuns(inputs[i]);
    if (i >= maxLinkInputs || runs > maxLinkSimRuns) {
      const why = i >= maxLinkInputs ? `a link replays at most ${maxLinkInputs} inputs` : `a link replays at most ${maxLinkSimRuns.toLocaleString("en")} :sim runs in all`;
      return { run: inputs.slice(0, i), note: `${why}: the last ${inputs.length - i} of its ${inputs.length} inputs were left out` };
    }
  }
  return { run: inputs, note: "" };
}

// validShare checks that what a link unpacked to is a playground state: strings where
// strings are expected, a root among the files, file names without "..".
function validShare(s) {
  const str = (x) => typeof x === "string";
  if (!s || s.v !== 1 || !str(s.root) || typeof s.files !== "object" || s.files === null || !Array.isArray(s.inputs)) return false;
  if (!Object.entries(s.files).every(([k, v]) => str(k) && str(v) && k.endsWith(".rules") && !k.split("/").includes(".."))) return false;
  if (!Object.hasOwn(s.files, s.root) || !s.inputs.every(str)) return false;
  return s.seed === undefined || (Number.isSafeInteger(s.seed) && s.seed >= 0);
}

let shareTimer;
let lastHash = "";
function scheduleShare() {
  clearTimeout(shareTimer);
  shareTimer = setTimeout(updateShare, 300);
}

// The link is packed by a worker of its own (share.js): deflating the rules grows with them.
// Only the answer to the latest request sets the link.
const sharer = new Worker("share.js");
let shareAsked = 0;
sharer.onmessage = (e) => {
  if (e.data.id !== shareAsked || !e.data.hash) return;
  lastHash = e.data.hash;
  $("share").href = e.data.hash;
  $("share").dataset.ready = "true";
};

function updateShare() {
  const state = { v: 1, label: group.label, root: group.root, files: currentFiles(), inputs: session.inputs.map((i) => i.input), seed: session.seed };
  sharer.postMessage({ id: ++shareAsked, state });
}

$("share").onclick = () => {
  // Following the link puts it in the address bar; it is this page's own state, so the
  // hash change that follows restores nothing.
  lastHash = $("share").getAttribute("href");
};

async function restore(hash) {
  let state;
  try {
    state = await unpack(hash.slice(3));
  } catch (err) {
    refuseLink(`the link could not be read: ${err.message}`);
    return false;
  }
  if (!validShare(state)) {
    refuseLink("the link does not hold playground rules");
    return false;
  }
  lastHash = hash;
  if (state.seed !== undefined) session.seed = state.seed;
  resetConsole();
  setGroup(state.files, state.root, str(state.label) ? state.label : "");
  chooseMenu("link");
  startSession();
  const { run: replayed, note } = linkInputs(state.inputs);
  for (const input of replayed) run(input);
  if (note) session.queue = session.queue.then(() => say(note));
  return true;
}

// refuseLink says why a link was not opened, in the status and in the console (the status
// changes with the next answer; the console keeps it).
function refuseLink(why) {
  setStatus(why);
  say(`${why}: the page opens without it`);
}

// say adds a note of the page's own to the console.
function say(text) {
  const div = document.createElement("div");
  div.className = "note page-note";
  div.textContent = text;
  $("output").append(div);
  scrollDown();
}

const str = (x) => typeof x === "string";

window.addEventListener("hashchange", () => {
  if (location.hash.startsWith("#s=") && location.hash !== lastHash) restore(location.hash);
});

// ---- the menu of shipped rules -------------------------------------------------------

function buildMenu() {
  const sel = $("ruleset");
  const add = (parent, value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    parent.append(o);
  };
  add(sel, "scratch", "My rules (a blank page)");
  const folders = new Map();
  for (const path of Object.keys(catalogue)) {
    const dir = path.split("/").slice(0, -1).join("/");
    if (!folders.has(dir)) folders.set(dir, []);
    folders.get(dir).push(path);
  }
  for (const [dir, paths] of folders) {
    const g = document.createElement("optgroup");
    g.label = dir;
    for (const p of paths) {
      // A scenario without a ruleset line of its own (forge.rules) is named after the rules
      // it includes, so that the menu, closed, still says which game it is.
      let m = catalogue[p].match(/^ruleset\s+"([^"\n]*)"/m);
      const inc = catalogue[p].match(/^include\s+"([^"\n]*)"/m);
      if (!m && inc && catalogue[`${dir}/${inc[1]}`]) m = catalogue[`${dir}/${inc[1]}`].match(/^ruleset\s+"([^"\n]*)"/m);
      add(g, p, m ? `${p.split("/").pop()} — ${m[1]}` : p.split("/").pop());
    }
    sel.append(g);
  }
  sel.onchange = () => loadMenu(sel.value);
}

function chooseMenu(value) {
  const sel = $("ruleset");
  let link = sel.querySelector('option[value="link"]');
  if (value === "link" && !link) {
    link = document.createElement("option");
    link.value = "link";
    link.textContent = "Rules from a link";
    sel.prepend(link);
  }
  sel.value = value;
}

function resetConsole() {
  session.inputs = [];
  session.queue = session.queue.then(() => {}, () => {});
  $("output").replaceChildren();
  intro();
}

// loadMenu opens a shipped rule file with the files of its folder (its includes among them).
function loadMenu(value) {
  if (value === "link") return;
  resetConsole();
  if (value === "scratch" || !catalogue[value]) {
    setGroup({ [scratchName]: scratch }, scratchName, "");
  } else {
    const dir = value.split("/").slice(0, -1).join("/");
    const files = {};
    for (const [p, text] of Object.entries(catalogue)) if (p.split("/").slice(0, -1).join("/") === dir) files[p.slice(dir.length + 1)] = text;
    setGroup(files, value.slice(dir.length + 1), value);
  }
  startSession();
  scheduleShare();
}

function setStatus(text) {
  $("status").textContent = text;
}

// ---- start ---------------------------------------------------------------------------

async function main() {
  buildMenu();
  intro();
  if (!(location.hash.startsWith("#s=") && (await restore(location.hash)))) {
    setGroup({ [scratchName]: scratch }, scratchName, "");
    chooseMenu("scratch");
    startSession();
  }
  scheduleShare();
  try {
    await Promise.all([checker.ready, engine.ready]);
  } catch (err) {
    setStatus(`the engine did not start: ${err.message}`);
    return;
  }
  perf.ready = performance.now();
  document.body.dataset.ready = "true";
  setStatus(`engine ready ${Math.round(perf.ready)} ms after opening`);
  $("input").focus();
}

main();

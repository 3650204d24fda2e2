// The engine's worker: it runs rulesh.wasm (the real engine, compiled from the Go sources)
// off the page's thread, so that a long question never freezes the page. Messages in:
// {module} first (the engine, compiled by the page), then {id, op: "check" | "exec", req};
// out: {ready: true} once, then {id, answer}, and before the answer of a :sim any number of
// {id, progress: {done, total}}, posted by the engine from inside its runs. A check's request
// holds only the files edited since the last one ({files, root, reset}): the worker keeps the
// others, so the page does not copy rules that did not change.
importScripts("wasm_exec.js");

let ready;
const started = new Promise((resolve) => (ready = resolve));
self.rulesReady = () => ready();

// The page compiles the module once and sends it to each worker (the first message).
let module;
const compiled = new Promise((resolve) => (module = resolve));
const go = new Go();
compiled
  .then((m) => WebAssembly.instantiate(m, go.importObject))
  .then((instance) => {
    go.run(instance);
    return started;
  })
  .then(() => postMessage({ ready: true }))
  .catch((err) => postMessage({ failed: String(err) }));

let checkFiles = {};

self.onmessage = async (e) => {
  if (e.data.module) return module(e.data.module);
  const { id, op } = e.data;
  let { req } = e.data;
  await started;
  if (op === "check") {
    if (req.reset) checkFiles = {};
    Object.assign(checkFiles, req.files);
    req = { files: checkFiles, root: req.root };
  }
  let answer;
  self.rulesProgress = (done, total) => postMessage({ id, progress: { done, total } });
  try {
    const fn = op === "check" ? self.rulesh.check : self.rulesh.exec;
    const t0 = performance.now();
    answer = JSON.parse(fn(op === "check" ? req : JSON.stringify(req))); // a check's files go as they are
    answer.ms = performance.now() - t0; // the engine's own time, without the wait before it
  } catch (err) {
    answer = { error: String(err) };
  }
  postMessage({ id, answer });
  // The next check starts on a clean heap: the collection runs now, while the page shows
  // this answer and the user types, not inside the next check (see collect in wasm/main.go).
  if (op === "check" && self.rulesh && self.rulesh.collect) self.rulesh.collect();
};

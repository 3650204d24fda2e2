//go:build js && wasm

// Command wasm is the playground's engine, built with GOOS=js GOARCH=wasm and run in a Web
// Worker: it sets globalThis.rulesh.check and globalThis.rulesh.exec, each taking a JSON
// request and returning a JSON answer (see package playground), then waits for calls; check
// also takes its request as an object of strings ({root, files}), as the worker sends it.
package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall/js"
	"time"

	"rulesh/cmd/rulesh/internal/playground"
)

// checkerGC sets the collector of the worker that checks, once.
var checkerGC sync.Once

func main() {
	console := playground.NewConsole()
	// The worker posts a :sim's progress to the page as it comes (see worker.js): this call
	// runs inside the runs, while the page's thread is free to draw it.
	console.Progress = func(done, total int64) {
		if f := js.Global().Get("rulesProgress"); f.Type() == js.TypeFunction {
			f.Invoke(done, total)
		}
	}
	api := js.Global().Get("Object").New()
	api.Set("check", js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer guard(&out)
		var req struct {
			Files playground.Files `json:"files"`
			Root  string           `json:"root"`
		}
		if len(args) == 1 && args[0].Type() == js.TypeObject {
			// The worker's check: an object of strings, read as it is rather than encoded
			// to JSON and decoded again (the rules are the largest part of a request).
			req.Root, req.Files = args[0].Get("root").String(), playground.Files{}
			files := args[0].Get("files")
			names := js.Global().Get("Object").Call("keys", files)
			for i := range names.Length() {
				name := names.Index(i).String()
				req.Files[name] = files.Get(name).String()
			}
		} else if err := decode(args, &req); err != nil {
			return answer(map[string]string{"error": err.Error()})
		}
		// A worker that checks keeps only its files between checks (collect runs after
		// each answer), so a heap goal of 5 times that costs little memory and saves the
		// collections inside a check (BenchmarkCheckLargest under Node: about 17% less).
		checkerGC.Do(func() { debug.SetGCPercent(400) })
		// checkMs is the check alone, without the JSON around it (the page's measure).
		t0 := time.Now()
		diags := playground.Check(req.Files, req.Root)
		return answer(map[string]any{"diags": diags, "checkMs": float64(time.Since(t0).Microseconds()) / 1000})
	}))
	// collect runs the garbage collector. The checker's worker calls it after posting a
	// check's answer, so that the next check starts on a clean heap: a check as you type
	// then collects during the typing, not while the user waits for its problems (in
	// BenchmarkCheckLargest under Node, 80-90 ms a check instead of 130-250 ms).
	api.Set("collect", js.FuncOf(func(js.Value, []js.Value) any {
		runtime.GC()
		return nil
	}))
	api.Set("exec", js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer guard(&out)
		var req playground.Request
		if err := decode(args, &req); err != nil {
			return answer(map[string]string{"error": err.Error()})
		}
		if req.Complete != "" {
			head, cands := console.Complete(req)
			return answer(map[string]any{"head": head, "candidates": cands})
		}
		return answer(map[string]any{"segments": console.Exec(req)})
	}))
	js.Global().Set("rulesh", api)
	if ready := js.Global().Get("rulesReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// decode reads the one JSON argument of a call.
func decode(args []js.Value, v any) error {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return fmt.Errorf("one JSON string expected")
	}
	return json.Unmarshal([]byte(args[0].String()), v)
}

// answer encodes an answer; what cannot fail to encode (maps of strings and slices) is
// still said as an error rather than lost.
func answer(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return string(b)
}

// guard turns an internal error into an answer: a panic would end the engine, and every
// call after it would fail.
func guard(out *any) {
	if r := recover(); r != nil {
		*out = answer(map[string]string{"error": fmt.Sprintf("internal error: %v", r)})
	}
}

package lsp

import (
	"bytes"
	"log"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log both the server and the test use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestEveryHandlerPanics: with every handler of the protocol panicking, each request fails
// with an internal error, each notification is dropped, a check that panics is logged, and
// the session goes on until exit, which still ends it.
func TestEveryHandlerPanics(t *testing.T) {
	var logs lockedBuffer
	s := newServer(log.New(&logs, "", 0))
	h := reflect.ValueOf(&s.proto).Elem()
	for i := range h.NumField() {
		f := h.Field(i)
		if f.Kind() == reflect.Func && !f.IsNil() {
			f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { panic("boom") }))
		}
	}
	s.debounce = time.Millisecond
	s.beforeCheck = func() { panic("boom in a check") }
	c := newClientOn(t, s, 1000)
	internal := func(method string) string {
		return `error {"code":-32603,"message":"rulesh lsp: internal error in ` + method + `"}`
	}
	if got := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); got != internal("initialize") {
		t.Errorf("initialize: %s", got)
	}
	s.proto.SetInitialized(true)
	doc := map[string]any{"uri": "file:///nowhere/x.rules"}
	params := map[string]any{"textDocument": doc, "position": pos(0, 0), "newName": "q", "options": map[string]any{}, "context": map[string]any{}}
	for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/rename", "textDocument/formatting", "textDocument/completion", "textDocument/documentSymbol"} {
		if got := c.call(m, params); got != internal(m) {
			t.Errorf("%s: %s", m, got)
		}
	}
	for _, m := range []string{"initialized", "$/setTrace", "$/cancelRequest", "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave"} {
		c.notify(m, map[string]any{"textDocument": doc, "contentChanges": []any{}, "value": "off", "id": 1})
	}
	s.schedule("/nowhere/x.rules") // a check, which panics
	logged := func(what string) bool {
		for range 2000 {
			if strings.Contains(logs.String(), what) {
				return true
			}
			time.Sleep(time.Millisecond)
		}
		return false
	}
	if !logged("check /nowhere/x.rules: internal error: boom in a check") {
		t.Error("no panic of the check logged")
	}
	if got := c.call("shutdown", nil); got != internal("shutdown") {
		t.Errorf("shutdown: %s", got)
	}
	s.proto.SetInitialized(true) // or glsp would not call the exit handler
	c.notify("exit", nil)
	select {
	case <-c.done:
	case <-time.After(guard):
		t.Fatal("exit that panics: the session did not end")
	}
	for _, m := range []string{"textDocument/didOpen", "initialized", "exit"} {
		if !logged(m + ": internal error: boom") {
			t.Errorf("no panic of %s logged", m)
		}
	}
}

package lsp

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// reply waits for the next response, whatever its id, as compact JSON.
func (c *client) reply() string {
	c.t.Helper()
	select {
	case m, ok := <-c.replies:
		if !ok {
			c.t.Fatal("connection closed")
		}
		return fmt.Sprintf(`{"id":%s,"error":%s}`, m["id"], compact(m["error"]))
	case <-time.After(c.wait):
		c.t.Fatal("no reply")
	}
	return ""
}

// raw writes bytes as they are, framing included.
func (c *client) raw(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, s); err != nil {
		c.t.Fatal(err)
	}
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// TestBadMessages: a framed body that is not JSON is answered with a parse error, one that
// is JSON but no JSON-RPC message (an array, an id of the wrong type, neither a method
// nor a result) with an invalid request, both with id null as JSON-RPC says; the session
// goes on.
func TestBadMessages(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct{ msg, want string }{
		{frame("{bad}"), `{"id":null,"error":{"code":-32700,"message":"a message that is not JSON: \"{bad}\""}}`},
		{frame("\x00\x01\xff"), `{"id":null,"error":{"code":-32700,"message":"a message that is not JSON: \"\\x00\\x01\\xff\""}}`},
		{frame(`{"jsonrpc":"2.0","id":70,"method":"x"} zz`), `{"id":null,"error":{"code":-32700,"message":"a message that is not JSON: \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":70,\\\"method\\\":\\\"x\\\"} zz\""}}`},
		{"Content-Length: 0\r\n\r\n", `{"id":null,"error":{"code":-32700,"message":"a message that is not JSON: \"\""}}`},
		{frame("[1,2,3]"), `{"id":null,"error":{"code":-32600,"message":"a message that is not a JSON-RPC request: \"[1,2,3]\""}}`},
		{frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`), `{"id":null,"error":{"code":-32600,"message":"a message that is not a JSON-RPC request: \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":{\\\"a\\\":1},\\\"method\\\":\\\"initialize\\\"}\""}}`},
		{frame(`{"jsonrpc":"2.0","id":3}`), `{"id":null,"error":{"code":-32600,"message":"a message that is not a JSON-RPC request: \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":3}\""}}`},
		{frame(`{"jsonrpc":"1.0","id":4,"method":"initialize"}`), `{"id":null,"error":{"code":-32600,"message":"a message of JSON-RPC \"1.0\": only \"2.0\" is spoken"}}`},
	} {
		c.raw(tc.msg)
		if got := c.reply(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.msg, got, tc.want)
		}
	}
	if got := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); !strings.Contains(got, "capabilities") {
		t.Errorf("initialize: %s", got)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	if !<-c.done {
		t.Error("no shutdown seen")
	}
}

// TestOversizedMessage: a message over MaxMessage is refused and skipped as it comes,
// never held in memory; the next one is answered.
func TestOversizedMessage(t *testing.T) {
	c := newClient(t)
	n := MaxMessage + 1
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c.raw(fmt.Sprintf("Content-Length: %d\r\n\r\n", n))
	want := fmt.Sprintf(`{"id":null,"error":{"code":-32600,"message":"a message of %d bytes is over the limit of 33554432 bytes (32 MiB); it is skipped"}}`, n)
	if got := c.reply(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	chunk := []byte(strings.Repeat("x", 64<<10))
	for sent := 0; sent < n; sent += len(chunk) {
		if _, err := c.w.Write(chunk[:min(len(chunk), n-sent)]); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); !strings.Contains(got, "capabilities") {
		t.Errorf("initialize: %s", got)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > MaxMessage/4 {
		t.Errorf("skipping %d bytes allocated %d bytes", n, grew)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	<-c.done
}

// TestLostFraming: a header that cannot be read (a line with no end, a line without \r\n,
// no Content-Length, a length that is not a number) is answered with a parse error and
// ends the session, having read at most maxHeader bytes of it.
func TestLostFraming(t *testing.T) {
	for _, tc := range []struct{ msg, want string }{
		{"Content-Length: 10" + strings.Repeat("x", 1<<20), `{"id":null,"error":{"code":-32700,"message":"a message header does not end within 8192 bytes (a header line with no end?); the connection ends"}}`},
		{strings.Repeat("X-Pad: 1\r\n", 2000), `{"id":null,"error":{"code":-32700,"message":"a message header does not end within 8192 bytes (a header line with no end?); the connection ends"}}`},
		{"Content-Length: 2\n\n{}", `{"id":null,"error":{"code":-32700,"message":"a header line does not end in \\r\\n: \"Content-Length: 2\\n\"; the connection ends"}}`},
		{"Content-Type: x\r\n\r\n{}", `{"id":null,"error":{"code":-32700,"message":"a message without a Content-Length; the connection ends"}}`},
		{"Content-Length: -1\r\n\r\n", `{"id":null,"error":{"code":-32700,"message":"Content-Length \"-1\" is not a number of bytes; the connection ends"}}`},
		{"Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}", `{"id":null,"error":{"code":-32700,"message":"a message with two Content-Length headers; the connection ends"}}`},
	} {
		c := newClient(t)
		go io.WriteString(c.w, tc.msg) // the server stops reading: the pipe is closed under it
		if got := c.reply(); got != tc.want {
			t.Errorf("%.40q:\n got %s\nwant %s", tc.msg, got, tc.want)
		}
		select {
		case ok := <-c.done:
			if ok {
				t.Errorf("%.40q: shutdown reported", tc.msg)
			}
		case <-time.After(guard):
			t.Fatalf("%.40q: the session did not end", tc.msg)
		}
	}
}

// TestBeforeInitialize: before initialize a request is refused with ServerNotInitialized
// and a notification dropped; after shutdown a request is an invalid one; exit always ends.
func TestBeforeInitialize(t *testing.T) {
	c := newClient(t)
	doc := map[string]any{"uri": "file:///nowhere/x.rules"}
	if got := c.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}); got != `error {"code":-32002,"message":"the server is not initialized: initialize comes first"}` {
		t.Errorf("before initialize: %s", got)
	}
	if got := c.call("shutdown", nil); got != `error {"code":-32002,"message":"the server is not initialized: initialize comes first"}` {
		t.Errorf("shutdown before initialize: %s", got)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": doc["uri"], "languageId": "rules", "version": 1, "text": "const a = 1\n"}})
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	if got := c.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}); got != `[]` {
		t.Errorf("a buffer opened before initialize is open: %s", got)
	}
	c.call("shutdown", nil)
	if got := c.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}); got != `error {"code":-32600,"message":"the server is shut down: only exit is expected"}` {
		t.Errorf("after shutdown: %s", got)
	}
	c.notify("exit", nil)
	<-c.done

	c = newClient(t)
	c.notify("exit", nil)
	select {
	case ok := <-c.done:
		if ok {
			t.Error("exit before initialize: shutdown reported")
		}
	case <-time.After(guard):
		t.Fatal("exit before initialize: the session did not end")
	}
}

// TestLargeBuffer: a buffer over the loader's limit is neither outlined nor checked; one
// diagnostic says why.
func TestLargeBuffer(t *testing.T) {
	c := newClient(t)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	uri := "file:///nowhere/big.rules"
	// One declaration, not in the canonical format, and a long comment: within the limits
	// of tokens, so that only the size stops it.
	text := "const a = 1\naction f() {\nemit \"x\"\n}\n// " + strings.Repeat("x", 4<<20) + "\n"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": text}})
	want := fmt.Sprintf(`[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"source":"rulesh","message":"this file is %d bytes, over the limit of 4 MiB of rule files a load reads: it is not checked, and has no outline"}]`, len(text))
	if got := c.diagnostics(uri); got != want {
		t.Errorf("diagnostics:\n got %.300s\nwant %s", got, want)
	}
	doc := map[string]any{"uri": uri}
	for method, want := range map[string]string{
		"textDocument/documentSymbol": `[]`,
		"textDocument/hover":          `null`,
		"textDocument/definition":     `null`,
		"textDocument/formatting":     `[]`,
	} {
		if got := c.call(method, map[string]any{"textDocument": doc, "position": pos(0, 6), "options": map[string]any{}}); got != want {
			t.Errorf("%s: %.200s", method, got)
		}
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	<-c.done
}

// TestCloseForgets: a server that opened, changed, checked and closed thousands of
// distinct buffers keeps nothing of them, and its heap does not grow with their number.
func TestCloseForgets(t *testing.T) {
	dir := t.TempDir()
	s := newServer(log.New(io.Discard, "", 0))
	s.debounce = time.Millisecond
	c := newClientOn(t, s, 100_000)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	text := mainRules + strings.Repeat("// padding of the buffer, so that a leak shows\n", 40)
	cycle := func(from, to int) {
		for i := from; i < to; i++ {
			uri := fmt.Sprintf("file:///nowhere/d%d/x.rules", i)
			if i%2 == 0 {
				uri = pathURI(fmt.Sprintf("%s/f%d.rules", dir, i))
			}
			doc := map[string]any{"uri": uri}
			c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": text}})
			c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": pos(16, 12)})
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": text + "const z = 1\n"}}})
			if i%50 == 0 {
				c.diagnostics(uri) // a check published
			}
			c.notify("textDocument/didClose", map[string]any{"textDocument": doc})
		}
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "untitled:sync"}}) // every close handled
	}
	heap := func() uint64 {
		time.Sleep(20 * time.Millisecond) // checks that fired finish
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	cycle(0, 200)
	h1 := heap()
	cycle(200, 2200)
	h2 := heap()
	s.mu.Lock()
	kept := fmt.Sprintf("docs %d, timers %d, outlines %d, published %d", len(s.docs), len(s.timers), len(s.outlines), len(s.published))
	s.mu.Unlock()
	if kept != "docs 0, timers 0, outlines 0, published 0" {
		t.Errorf("after closing every buffer: %s", kept)
	}
	t.Logf("heap after 200 buffers %d bytes, after 2200 %d", h1, h2)
	if h2 > h1+4<<20 {
		t.Errorf("heap grew from %d to %d bytes over 2000 buffers opened and closed", h1, h2)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	<-c.done
}

// TestNoCheckAfterExit: Serve returns only once the checks that were running are done, and
// no pending one starts after it.
func TestNoCheckAfterExit(t *testing.T) {
	s := newServer(log.New(io.Discard, "", 0))
	s.debounce = time.Millisecond
	var started, ended atomic.Int32
	s.beforeCheck = func() {
		started.Add(1)
		time.Sleep(300 * time.Millisecond)
		ended.Add(1)
	}
	c := newClientOn(t, s, 1000)
	c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "untitled:1", "languageId": "rules", "version": 1, "text": "const a = 1\n"}})
	for started.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	s.mu.Lock()
	s.debounce = time.Hour // the next ones stay pending
	s.mu.Unlock()
	for i := range 20 {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fmt.Sprintf("untitled:%d", i+2), "languageId": "rules", "version": 1, "text": "const a = 1\n"}})
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	<-c.done
	if s, e := started.Load(), ended.Load(); s != 1 || e != 1 {
		t.Errorf("after Serve: %d checks started, %d ended", s, e)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.timers) != 0 {
		t.Errorf("%d timers left", len(s.timers))
	}
}

// TestMainHostileStdin: `rulesh lsp` on a standard input whose header never ends answers
// with a parse error on standard output and exits 1; on a non-JSON body then the end of
// input, it answers and exits 1 too (no shutdown was asked).
func TestMainHostileStdin(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"Content-Length: 10" + strings.Repeat("x", 1<<20), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"a message header does not end within 8192 bytes (a header line with no end?); the connection ends"}}`},
		{frame("nope"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"a message that is not JSON: \"nope\""}}`},
	} {
		var out, errw strings.Builder
		if code := Main(strings.NewReader(tc.in), &out, &errw, nil); code != 1 {
			t.Errorf("%.30q: exit %d", tc.in, code)
		}
		if want := frame(tc.out); out.String() != want {
			t.Errorf("%.30q:\n got %q\nwant %q", tc.in, out.String(), want)
		}
	}
}

// TestLogInPlainWords: what the server logs on stderr is in plain words: a body cut off by
// the end of the input is said, a message jsonrpc2 cannot read is not described in Go's
// types, and a clean shutdown and exit log nothing (the input closed under the reader
// after exit is no error).
func TestLogInPlainWords(t *testing.T) {
	var out, errw strings.Builder
	Main(strings.NewReader(frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`)+"Content-Length: 10\r\n\r\n{}"), &out, &errw, nil)
	log := errw.String()
	if !strings.Contains(log, "the input ended inside a message (2 of its 10 bytes came)") || strings.Contains(log, "interface") || strings.Contains(log, "Go value") {
		t.Errorf("log:\n%s", log)
	}

	// A lost framing is logged once, not again in jsonrpc2's words.
	errw.Reset()
	Main(strings.NewReader("Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}"), &out, &errw, nil)
	if n := strings.Count(errw.String(), "two Content-Length headers"); n != 1 || strings.Contains(errw.String(), "jsonrpc2") {
		t.Errorf("lost framing logged %d times:\n%s", n, errw.String())
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	go io.WriteString(w, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)+
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)+frame(`{"jsonrpc":"2.0","method":"exit"}`))
	errw.Reset()
	done := make(chan int, 1)
	go func() { done <- Main(r, &out, &errw, nil) }()
	select {
	case code := <-done:
		if code != 0 || errw.Len() > 0 {
			t.Errorf("clean exit: code %d, log:\n%s", code, errw.String())
		}
	case <-time.After(guard):
		t.Fatal("the server did not exit")
	}
}

// TestIncrementalChange: a change with a range is applied to the buffer (the server asks
// for full sync, but a client may send ranges anyway), positions in UTF-16 units.
func TestIncrementalChange(t *testing.T) {
	r := func(l1, c1, l2, c2 int) *protocol.Range {
		return &protocol.Range{Start: protocol.Position{Line: protocol.UInteger(l1), Character: protocol.UInteger(c1)}, End: protocol.Position{Line: protocol.UInteger(l2), Character: protocol.UInteger(c2)}}
	}
	for _, c := range []struct {
		text string
		r    *protocol.Range
		repl string
		want string
	}{
		{"const x = 1\n", r(0, 10, 0, 11), "2", "const x = 2\n"},
		{"a\nbc\n", r(1, 0, 1, 0), "X", "a\nXbc\n"},
		{"a\nbc\n", r(0, 1, 1, 1), "", "ac\n"},
		{"é𝄞x\n", r(0, 3, 0, 4), "y", "é𝄞y\n"},  // 𝄞 is two UTF-16 units
		{"ab\n", r(0, 50, 0, 50), "!", "ab!\n"}, // past the line's end: its end
		{"ab\n", r(9, 0, 9, 0), "z", "ab\nz"},   // past the last line: the text's end
		{"abc", r(0, 2, 0, 1), "", "ac"},        // backwards
		{"abc", nil, "whole", "whole"},
	} {
		if got := applyChange(c.text, c.r, c.repl); got != c.want {
			t.Errorf("applyChange(%q, %v, %q) = %q, want %q", c.text, c.r, c.repl, got, c.want)
		}
	}

	dir := t.TempDir()
	uri := pathURI(filepath.Join(dir, "m.rules"))
	cl := newClient(t)
	cl.call("initialize", map[string]any{"capabilities": map[string]any{}})
	cl.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "rules", "version": 1, "text": "const x = 1\n"}})
	if got := cl.diagnostics(uri); got != "[]" {
		t.Errorf("open: %s", got)
	}
	cl.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(0, 10), "end": pos(0, 11)}, "text": "zut"}}})
	if got := cl.diagnostics(uri); !strings.Contains(got, "unknown name zut") {
		t.Errorf("after a ranged change: %s", got)
	}
	cl.call("shutdown", nil)
	cl.notify("exit", nil)
	<-cl.done
}

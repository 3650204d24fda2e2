package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Debounce is how long the server waits after the last change to a buffer before checking
// the ruleset again.
const Debounce = 200 * time.Millisecond

// stopGrace is how long Serve waits, once the connection is gone, for the checks running.
const stopGrace = 10 * time.Second

// Main runs `rulesh lsp`: a language server on stdin and stdout, its log on stderr. It
// returns 0 when the client asked for a shutdown before exiting, 1 otherwise, 2 on bad usage.
func Main(stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "Usage: rulesh lsp\n\nA language server on stdin and stdout (editors start it; see the README).")
		if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			return 0
		}
		return 2
	}
	defer tuneGC()()
	if Serve(context.Background(), stdin, flushing{stdout}, stderr) {
		return 0
	}
	return 1
}

// Serve speaks the protocol on in and out until the client exits or the stream ends, logging
// on logw. It reports whether the client asked for a shutdown first. in and out are closed at
// the end when they are io.Closers.
func Serve(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer) (shutdown bool) {
	return newServer(log.New(logw, "rulesh lsp: ", log.LstdFlags)).serve(ctx, in, out)
}

// serve is Serve on a server made beforehand (the tests look into it). It returns once
// the connection is gone and no check runs any more (or stopGrace has passed).
func (s *server) serve(ctx context.Context, in io.Reader, out io.Writer) (shutdown bool) {
	conn := jsonrpc2.NewConn(ctx,
		newObjectStream(stream{in, out}, s.log),
		jsonrpc2.HandlerWithError(s.handle),
		jsonrpc2.SetLogger(s.log))
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	<-conn.DisconnectNotify()
	s.stop()
	// A running check ends soon: a load is bounded by the loader's limits. Only one blocked
	// writing to a client that no longer reads would not; the server does not wait for it.
	done := make(chan struct{})
	go func() {
		s.checks.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(stopGrace):
		s.log.Printf("a check still runs after %v; the server stops without it", stopGrace)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// flushing sends every write on at once, whatever buffer the CLI put on standard output: a
// client waits for each message.
type flushing struct{ w io.Writer }

func (f flushing) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if fl, ok := f.w.(interface{ Flush() error }); ok && err == nil {
		err = fl.Flush()
	}
	return n, err
}

// stream joins a reader and a writer into the connection's stream.
type stream struct {
	io.Reader
	io.Writer
}

func (s stream) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		c.Close()
	}
	if c, ok := s.Writer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// server holds the open buffers and what was published. Requests come one at a time from
// the connection's reader; checks run on timers, so everything shared is behind mu.
type server struct {
	log   *log.Logger
	proto protocol.Handler

	mu       sync.Mutex
	conn     *jsonrpc2.Conn
	shutdown bool
	closed   bool
	docs     map[string]*document   // open buffers by path
	timers   map[string]*time.Timer // pending checks by path
	outlines map[string]outline     // by path: the last text read, its names, and the last outline that parsed
	// published holds, for each file checked, the URIs it last published diagnostics for
	// (so a fixed problem in an include is cleared too).
	published map[string]map[string]bool

	checkMu sync.Mutex // one check at a time, in the order they fire
	pubMu   sync.Mutex // a check's diagnostics and a close's clearing go out one after the other
	// checks counts the timers scheduled and not stopped, and the checks they run: Serve
	// waits for it, so no check outlives the server.
	checks   sync.WaitGroup
	debounce time.Duration // Debounce; shorter in tests
	// beforeCheck, when set (by tests), runs as a check starts.
	beforeCheck func()
}

// document is a buffer open in the editor.
type document struct {
	uri     string
	path    string
	text    string
	version int32
	gen     int // bumped on every change: a check of an older text publishes nothing
}

func newServer(l *log.Logger) *server {
	s := &server{
		log:       l,
		docs:      map[string]*document{},
		timers:    map[string]*time.Timer{},
		outlines:  map[string]outline{},
		published: map[string]map[string]bool{},
		debounce:  Debounce,
	}
	s.proto = protocol.Handler{
		Initialize:                 s.initialize,
		Initialized:                func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                   s.shutdownReq,
		Exit:                       func(*glsp.Context) error { return nil },
		SetTrace:                   func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		CancelRequest:              func(*glsp.Context, *protocol.CancelParams) error { return nil },
		TextDocumentDidOpen:        s.didOpen,
		TextDocumentDidChange:      s.didChange,
		TextDocumentDidClose:       s.didClose,
		TextDocumentDidSave:        func(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil },
		TextDocumentDocumentSymbol: s.documentSymbol,
		TextDocumentHover:          s.hover,
		TextDocumentDefinition:     s.definition,
		TextDocumentReferences:     s.references,
		TextDocumentRename:         s.rename,
		TextDocumentFormatting:     s.formatting,
		TextDocumentCompletion:     s.completion,
	}
	return s
}

// handle answers one message, as glsp's own server does, and survives a panic in any
// handler: it is logged with its stack and the request fails with an internal error.
func (s *server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("%s: internal error: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("rulesh lsp: internal error in %s", req.Method)}
		}
	}()
	gctx := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { s.notify(method, params) },
	}
	if req.Params != nil {
		gctx.Params = *req.Params
	} else {
		gctx.Params = json.RawMessage("null")
	}
	if req.Method == protocol.MethodExit {
		// Deferred: the session ends even if the handler panics.
		defer func() {
			s.stop()
			err = conn.Close()
		}()
		s.proto.Handle(gctx)
		return nil, nil
	}
	if req.Method != protocol.MethodInitialize && !s.proto.IsInitialized() {
		// The protocol: before initialize (and after shutdown) a notification is dropped
		// and a request refused, ServerNotInitialized before, InvalidRequest after.
		if req.Notif {
			return nil, nil
		}
		s.mu.Lock()
		down := s.shutdown
		s.mu.Unlock()
		if down {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shut down: only exit is expected"}
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized: initialize comes first"}
	}
	r, validMethod, validParams, err := s.proto.Handle(gctx)
	switch {
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := invalidParams(req.Method, err)
		if req.Notif {
			s.log.Print(msg)
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

// invalidParams says in plain words why the params of a message could not be read (err
// comes from encoding/json, whose words are Go's).
func invalidParams(method string, err error) string {
	msg := "invalid params for " + method
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		// The field's path has the Go structs it goes through (TextDocumentPositionParams.
		// position.character): the protocol's names are the lower-case ones.
		var path []string
		for _, part := range strings.Split(te.Field, ".") {
			if part != "" && !unicode.IsUpper([]rune(part)[0]) {
				path = append(path, part)
			}
		}
		where := strings.Join(path, ".")
		if where == "" {
			return fmt.Sprintf("%s: %s given, where %s is expected", msg, plainValue(te.Value), plainType(te.Type))
		}
		return fmt.Sprintf("%s: %s is %s, where %s is expected", msg, where, plainValue(te.Value), plainType(te.Type))
	case errors.As(err, &se):
		return msg + ": they are not valid JSON"
	}
	return msg + ": they are not what the protocol gives for it"
}

// plainValue says what a JSON value was, from encoding/json's words ("number -5",
// "string", "array").
func plainValue(v string) string {
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return n
	}
	switch v {
	case "string":
		return "a string"
	case "array":
		return "an array"
	case "object":
		return "an object"
	case "bool":
		return "true or false"
	case "number":
		return "a number"
	}
	return v
}

// plainType names the JSON a Go type reads.
func plainType(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number from 0"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return plainType(t.Elem())
	}
	return "another value"
}

// notify sends a notification to the client, from a request or a timer.
func (s *server) notify(method string, params any) {
	s.mu.Lock()
	conn, closed := s.conn, s.closed
	s.mu.Unlock()
	if conn == nil || closed {
		return
	}
	if err := conn.Notify(context.Background(), method, params); err != nil {
		s.log.Printf("%s: %v", method, err)
	}
}

// stop cancels the pending checks once the client exits or the connection is gone; a
// check already running publishes nothing.
func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for path, t := range s.timers {
		s.cancelTimer(t)
		delete(s.timers, path)
	}
}

// cancelTimer stops a pending check; one that already fired counts itself done. s.mu is held.
func (s *server) cancelTimer(t *time.Timer) {
	if t.Stop() {
		s.checks.Done()
	}
}

func (s *server) initialize(_ *glsp.Context, _ *protocol.InitializeParams) (any, error) {
	caps := s.proto.CreateServerCapabilities()
	caps.TextDocumentSync = &protocol.TextDocumentSyncOptions{
		OpenClose: ptr(true),
		Change:    ptr(protocol.TextDocumentSyncKindFull),
	}
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{"."}}
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: "rulesh"},
	}, nil
}

func (s *server) shutdownReq(*glsp.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	return nil
}

func ptr[T any](v T) *T { return &v }

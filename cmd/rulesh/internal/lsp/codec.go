package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// Limits of the framing: whatever a client sends, the server holds at most one message of
// MaxMessage bytes and one header of maxHeader bytes in memory.
const (
	// MaxMessage bounds the body of one message (32 MiB, eight times the largest ruleset a
	// load reads): a larger one is refused with an error and skipped, never held in memory.
	MaxMessage = 32 << 20
	// maxHeader bounds the header lines of one message together: a header that does not end
	// within it (a line without its \r\n) is refused and ends the connection.
	maxHeader = 8 << 10
)

// JSON-RPC and LSP error codes that jsonrpc2 does not name.
const (
	codeServerNotInitialized = -32002
)

// objectStream frames messages as jsonrpc2.VSCodeObjectCodec does (Content-Length headers)
// with three differences. A body that is not a JSON-RPC message (not JSON, an array, an id
// of the wrong type, trailing bytes) or that is over MaxMessage is answered with an error
// whose id is null, as JSON-RPC says, and skipped: the next message is still framed by its
// header. A stream whose framing is lost (no or a bad Content-Length, a header line without
// \r\n or without an end) is answered the same way and ends the connection. And a header is
// read within maxHeader, never up to the next newline whatever its distance.
type objectStream struct {
	r   *bufio.Reader
	rw  io.ReadWriteCloser
	log *log.Logger

	mu sync.Mutex // one message written at a time: the connection's and the stream's own
}

func newObjectStream(rw io.ReadWriteCloser, l *log.Logger) *objectStream {
	return &objectStream{r: bufio.NewReader(rw), rw: rw, log: l}
}

// WriteObject sends one message, its header and body in a single write.
func (s *objectStream) WriteObject(obj any) error {
	body, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	msg := append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...)
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err = s.rw.Write(msg)
	return err
}

// Close closes both ends.
func (s *objectStream) Close() error { return s.rw.Close() }

// errorReply is a JSON-RPC error response to a message whose id could not be read.
type errorReply struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      *int           `json:"id"` // always null
	Error   jsonrpc2.Error `json:"error"`
}

// refuse answers a message the stream could not read, and logs why.
func (s *objectStream) refuse(code int64, msg string) {
	s.log.Print(msg)
	if err := s.WriteObject(errorReply{JSONRPC: "2.0", Error: jsonrpc2.Error{Code: code, Message: msg}}); err != nil {
		s.log.Printf("answering a message refused: %v", err)
	}
}

// framingError is a header the stream cannot read: the message is refused and the
// connection ends, as its framing is lost.
type framingError struct{ msg string }

func (e *framingError) Error() string { return e.msg }

// ReadObject reads the next JSON-RPC message into v, answering and skipping those that
// are not. The end of the input, between messages or inside one, ends the connection
// (the second logged); so does the input closed under it after exit, silently.
func (s *objectStream) ReadObject(v any) error {
	for {
		n, err := readHeader(s.r)
		var fe *framingError
		switch {
		case err == nil:
		case errors.As(err, &fe):
			s.refuse(jsonrpc2.CodeParseError, err.Error()+"; the connection ends")
			// Said once: jsonrpc2 would log it again as a "protocol error".
			return io.EOF
		case err == io.EOF || errors.Is(err, fs.ErrClosed):
			return io.EOF
		case err == io.ErrUnexpectedEOF:
			s.log.Print("the input ended inside a message header; the connection ends")
			return err
		default:
			s.log.Printf("reading the input: %v; the connection ends", plainIOError(err))
			return io.EOF
		}
		if n > MaxMessage {
			s.refuse(jsonrpc2.CodeInvalidRequest, fmt.Sprintf("a message of %d bytes is over the limit of %d bytes (%d MiB); it is skipped", n, MaxMessage, MaxMessage>>20))
			// Skipped through a small buffer, as the client sends it: never held.
			if _, err := io.CopyN(io.Discard, s.r, int64(n)); err != nil {
				return s.cutOff(err)
			}
			continue
		}
		body := make([]byte, n)
		if got, err := io.ReadFull(s.r, body); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				s.log.Printf("the input ended inside a message (%d of its %d bytes came); the connection ends", got, n)
				return io.ErrUnexpectedEOF
			}
			return s.cutOff(err)
		}
		if !json.Valid(body) {
			s.refuse(jsonrpc2.CodeParseError, fmt.Sprintf("a message that is not JSON: %.80q", body))
			continue
		}
		var version struct {
			JSONRPC *string `json:"jsonrpc"`
		}
		if json.Unmarshal(body, &version) == nil && version.JSONRPC != nil && *version.JSONRPC != "2.0" {
			s.refuse(jsonrpc2.CodeInvalidRequest, fmt.Sprintf("a message of JSON-RPC %q: only \"2.0\" is spoken", *version.JSONRPC))
			continue
		}
		// A decoding that failed half-way may have filled part of v: start afresh, or a
		// stale request could be handled with the next response.
		reflect.ValueOf(v).Elem().SetZero()
		if err := json.Unmarshal(body, v); err != nil {
			reflect.ValueOf(v).Elem().SetZero()
			// jsonrpc2's words name Go types ("unexpected ID type: map[string]interface
			// {}"): neither the client nor the log sees them.
			s.refuse(jsonrpc2.CodeInvalidRequest, fmt.Sprintf("a message that is not a JSON-RPC request: %.80q", body))
			continue
		}
		return nil
	}
}

// cutOff ends the connection on an error reading a body.
func (s *objectStream) cutOff(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		s.log.Print("the input ended inside a message; the connection ends")
		return io.ErrUnexpectedEOF
	}
	if errors.Is(err, fs.ErrClosed) {
		return io.EOF
	}
	s.log.Printf("reading the input: %v; the connection ends", plainIOError(err))
	return io.EOF
}

// plainIOError drops Go's "read NAME:" before the file system's own words.
func plainIOError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readHeader reads a message's header lines, maxHeader bytes at most, and returns its
// Content-Length. A header it cannot read is a *framingError; errors reading the input
// come back as they are.
func readHeader(r *bufio.Reader) (uint64, error) {
	var length uint64
	found := false
	budget := maxHeader
	for first := true; ; first = false {
		line, err := readLine(r, budget)
		if err != nil {
			if err == io.EOF && (line != "" || !first) {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		budget -= len(line)
		if !strings.HasSuffix(line, "\r\n") {
			return 0, &framingError{fmt.Sprintf("a header line does not end in \\r\\n: %.80q", line)}
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			if found {
				// Which one frames the body cannot be known.
				return 0, &framingError{"a message with two Content-Length headers"}
			}
			n, err := strconv.ParseUint(strings.TrimSpace(value), 10, 63)
			if err != nil {
				return 0, &framingError{fmt.Sprintf("Content-Length %q is not a number of bytes", strings.TrimSpace(value))}
			}
			length, found = n, true
		}
	}
	if !found {
		return 0, &framingError{"a message without a Content-Length"}
	}
	return length, nil
}

// readLine reads up to and including the next \n, refusing a line longer than limit.
func readLine(r *bufio.Reader, limit int) (string, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return "", &framingError{fmt.Sprintf("a message header does not end within %d bytes (a header line with no end?)", maxHeader)}
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return string(line), err
	}
}

package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
)

// maxMessage bounds the body of one message: a larger one is skipped, not held in memory.
const maxMessage = 64 << 20

// codec frames messages as jsonrpc2.VSCodeObjectCodec does (Content-Length headers), but a
// message whose body is not a JSON-RPC message (invalid JSON, an array, an id of the wrong
// type, trailing bytes) is logged and skipped instead of ending the connection: the next
// message is still framed by its header. Only a stream whose framing is lost (no or a bad
// Content-Length, a header line without \r\n) ends the connection.
type codec struct{ log *log.Logger }

func (codec) WriteObject(stream io.Writer, obj any) error {
	return jsonrpc2.VSCodeObjectCodec{}.WriteObject(stream, obj)
}

func (c codec) ReadObject(stream *bufio.Reader, v any) error {
	for {
		n, err := readHeader(stream)
		if err != nil {
			return err
		}
		if n > maxMessage {
			if _, err := io.CopyN(io.Discard, stream, int64(n)); err != nil {
				return err
			}
			c.log.Printf("skipped a message of %d bytes (more than %d)", n, maxMessage)
			continue
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(stream, body); err != nil {
			return err
		}
		if err := json.Unmarshal(body, v); err != nil {
			c.log.Printf("skipped a message that is not JSON-RPC (%s): %.80q", strings.TrimPrefix(err.Error(), "json: "), body)
			continue
		}
		return nil
	}
}

// readHeader reads a message's header lines and returns its Content-Length.
func readHeader(stream *bufio.Reader) (uint64, error) {
	var length uint64
	found := false
	for {
		line, err := stream.ReadString('\n')
		if err != nil {
			if err == io.EOF && line != "" {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if !strings.HasSuffix(line, "\r\n") {
			return 0, fmt.Errorf("a header line does not end in \\r\\n: %.80q", line)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseUint(strings.TrimSpace(value), 10, 63)
			if err != nil {
				return 0, fmt.Errorf("Content-Length %q is not a number of bytes", strings.TrimSpace(value))
			}
			length, found = n, true
		}
	}
	if !found || length == 0 {
		return 0, fmt.Errorf("a message without a Content-Length")
	}
	return length, nil
}

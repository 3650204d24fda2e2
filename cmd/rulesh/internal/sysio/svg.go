package sysio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReplaceableSVG refuses an existing OUT that is not empty and does not begin as an SVG
// picture: `--svg duel.rules`, or a link to a rule file, must not turn it into a picture.
// Whether OUT may be written at all (a device, a folder) is left to sysio.Write.
func ReplaceableSVG(path string) error {
	return replaceable(path, "an SVG picture", func(head []byte) bool {
		head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\ufeff")), " \t\r\n")
		return len(head) == 0 || bytes.HasPrefix(head, []byte("<svg")) || bytes.HasPrefix(head, []byte("<?xml"))
	})
}

// pngSignature begins every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// ReplaceablePNG is ReplaceableSVG for a PNG picture (--png OUT): an existing OUT is
// replaced only if it is empty or begins with PNG's signature.
func ReplaceablePNG(path string) error {
	return replaceable(path, "a PNG picture", func(head []byte) bool {
		return len(head) == 0 || bytes.HasPrefix(head, pngSignature)
	})
}

// replaceable refuses an existing regular file whose first bytes are not what picture
// says (ok reports whether they are).
func replaceable(path, picture string, ok func(head []byte) bool) error {
	// Stat before opening: opening a FIFO would block.
	if st, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) || (err == nil && !st.Mode().IsRegular()) {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return WriteError(path, err)
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return WriteError(path, err)
	}
	if ok(head[:n]) {
		return nil
	}
	return fmt.Errorf("%s exists and is not %s; not overwritten", path, picture)
}

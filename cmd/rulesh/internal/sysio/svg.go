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
	head = bytes.TrimLeft(bytes.TrimPrefix(head[:n], []byte("\ufeff")), " \t\r\n")
	if len(head) == 0 || bytes.HasPrefix(head, []byte("<svg")) || bytes.HasPrefix(head, []byte("<?xml")) {
		return nil
	}
	return fmt.Errorf("%s exists and is not an SVG picture; not overwritten", path)
}

package sysio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadRegular reads the regular file at path, refusing one longer than limit bytes. A
// folder, a named pipe, a device (/dev/zero) or a socket is refused before it is opened, so
// that reading a file named by a stranger can neither block nor go on without end; and the
// read itself stops at limit+1 bytes, whatever the file has become since it was looked at.
// Errors name the path and say what is wrong in words.
func ReadRegular(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, readError(path, err)
	}
	if err := regular(path, st.Mode()); err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLong(path, limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, readError(path, err)
	}
	defer f.Close()
	// The path may name another file by now: the one opened is the one checked.
	if st, err = f.Stat(); err != nil {
		return nil, readError(path, err)
	}
	if err := regular(path, st.Mode()); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, readError(path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLong(path, limit)
	}
	return data, nil
}

// regular refuses a mode that is not a regular file's, naming what it is.
func regular(path string, m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a folder, not a file"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe, not a regular file"
	case m&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	case m&fs.ModeDevice != 0:
		what = "a device, not a regular file"
	}
	return fmt.Errorf("%s is %s", path, what)
}

func tooLong(path string, limit int64) error {
	return fmt.Errorf("%s is longer than the limit of %d MiB", path, limit>>20)
}

// readError words an error of the file system without Go's "open PATH:" prefix.
func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %s: %w", path, err)
}

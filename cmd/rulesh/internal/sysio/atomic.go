package sysio

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data so that a failed write never leaves a cut file: it
// writes a temporary file beside the target, syncs it and renames it over the target. An
// existing file keeps its mode (a new one gets 0644); a symbolic link is followed, so the
// file it points at is replaced and the link stays. A target that exists but is not a regular
// file (a device, a pipe) is refused: renaming over it would replace it.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write is WriteFile for content written as it is made (a large SVG is never
// held whole in memory).
func Write(path string, write func(io.Writer) error) error {
	mode := fs.FileMode(0o644)
	target := path
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return &os.PathError{Op: "write", Path: path, Err: errors.New("not a regular file")}
		}
		mode = st.Mode().Perm()
		if resolved, err := filepath.EvalSymlinks(path); err == nil {
			target = resolved
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, target)
	}
	if err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

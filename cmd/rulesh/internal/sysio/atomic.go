package sysio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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
// held whole in memory). The file system's errors name path, never the temporary file, and
// say what went wrong in plain words (WriteError); write's own error comes back as it is.
func Write(path string, write func(io.Writer) error) error {
	var werr error
	err := replace(path, func(w io.Writer) error {
		werr = write(w)
		return werr
	})
	switch {
	case err == nil:
		return nil
	case werr != nil && err == werr:
		return err
	}
	return WriteError(path, err)
}

// WriteError words a failure to write path: "cannot write PATH: REASON", the reason said
// as the file system's error without Go's "open NAME:" (which may name a temporary file).
func WriteError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	reason := err.Error()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Only the folder can be missing: the file itself is made new.
		reason = "no such folder"
	case errors.Is(err, fs.ErrPermission):
		reason = "permission denied"
	case errors.Is(err, syscall.ENOTDIR):
		reason = "a part of the path is not a folder"
	case errors.Is(err, syscall.ENOSPC):
		reason = "no space left on the device"
	case errors.Is(err, syscall.EROFS):
		reason = "the file system is read-only"
	}
	return fmt.Errorf("cannot write %s: %s", path, reason)
}

// replace is Write with the file system's errors as they come.
func replace(path string, write func(io.Writer) error) error {
	mode := fs.FileMode(0o644)
	target := path
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return errors.New("it is a folder")
		}
		if !st.Mode().IsRegular() {
			return errors.New("not a regular file")
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

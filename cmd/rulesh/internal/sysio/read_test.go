package sysio

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegular: a regular file (or a link to one) is read whole up to the limit; a
// folder, a named pipe, a device, a socket, a missing file and a file over the limit are
// refused with words naming the path, and none of them blocks.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("s.json", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, p := range []string{file, link} {
		if b, err := ReadRegular(p, 10); err != nil || string(b) != "0123456789" {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	for _, c := range []struct {
		path  string
		limit int64
		want  string
	}{
		{dir, 1 << 20, dir + " is a folder, not a file"},
		{fifo, 1 << 20, fifo + " is a named pipe"},
		{sock, 1 << 20, sock + " is a socket"},
		{"/dev/zero", 1 << 20, "/dev/zero is a device"},
		{filepath.Join(dir, "none"), 1 << 20, "cannot read " + filepath.Join(dir, "none") + ": no such file or directory"},
		{file, 9, file + " is longer than the limit"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadRegular(c.path, c.limit)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", c.path, err, c.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5s", c.path)
		}
	}
}

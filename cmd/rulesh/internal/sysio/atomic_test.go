package sysio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestWriteFile: the target is replaced by a rename (whoever holds the old file sees it
// whole, never a cut one), its mode is kept, a link is followed and stays a link, no
// temporary file is left, and a non-regular target is refused.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.rules")
	if err := os.WriteFile(p, []byte("old content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	link := filepath.Join(dir, "link.rules")
	if err := os.Symlink("r.rules", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(old); string(b) != "old content\n" {
		t.Errorf("the old file was written in place: %q", b)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("new content %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", st.Mode().Perm())
	}
	if st, _ := os.Lstat(link); st.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
	if err := WriteFile("/dev/null", []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("writing over a device: %v", err)
	}
	if err := WriteFile(filepath.Join(dir, "nope", "x.svg"), []byte("x")); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

// TestWriteErrors: a failed write names the path asked for and the reason in words, never
// the temporary file beside it nor Go's "open NAME:".
func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "nodir", "x.svg"), "cannot write " + filepath.Join(dir, "nodir", "x.svg") + ": no such folder"},
		{filepath.Join(file, "x.svg"), "cannot write " + filepath.Join(file, "x.svg") + ": a part of the path is not a folder"},
		{dir, "cannot write " + dir + ": it is a folder"},
		{"/dev/null", "cannot write /dev/null: not a regular file"},
	}
	for _, c := range cases {
		err := WriteFile(c.path, []byte("x"))
		if err == nil || err.Error() != c.want {
			t.Errorf("WriteFile(%s): %v, want %q", c.path, err, c.want)
		}
	}
}

// TestWriteFailure: a write that fails leaves the target as it was and no temporary file; a
// new file gets mode 0644.
func TestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.svg")
	if err := os.WriteFile(p, []byte("kept\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		_, _ = w.Write([]byte("half a pic"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("Write returned %v, want the writer's error", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "kept\n" {
		t.Errorf("the target was changed: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	fresh := filepath.Join(dir, "new.rules")
	if err := WriteFile(fresh, []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
	}
	// A path that cannot even be examined is an error, not a new file.
	if err := WriteFile(filepath.Join(fresh, "below"), []byte("x")); err == nil {
		t.Error("writing below a regular file succeeded")
	}
}

// TestIsTerminal: a pseudo-terminal is a terminal; a regular file and /dev/null are not.
func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "plain")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file reads as a terminal")
	}
	if null, err := os.Open(os.DevNull); err == nil {
		if IsTerminal(null) {
			t.Error("/dev/null reads as a terminal")
		}
		null.Close()
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if !IsTerminal(tty) {
		t.Error("a pseudo-terminal does not read as a terminal")
	}
}

//go:build unix

package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesNonRegular: a device, a FIFO, a folder or an include linked to a device is
// refused at once, neither read forever nor blocked on.
func TestReadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.rules")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	zeroInc := write("zero_inc.rules", "include \"zero.rules\"\n")
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.rules")); err != nil {
		t.Fatal(err)
	}
	fifoInc := write("fifo_inc.rules", "include \"pipe.rules\"\n")
	cases := []struct{ path, want string }{
		{"/dev/zero", "cannot read /dev/zero (not a regular file"},
		{fifo, "pipe.rules (not a regular file"},
		{dir, "is a directory"},
		{zeroInc, "include \"zero.rules\" is outside the ruleset's folder"}, // a link to a device leads out
		{fifoInc, "fifo_inc.rules:1:1: cannot read "},
	}
	for _, c := range cases {
		done := make(chan string, 1)
		go func() {
			_, diags := Load(nil, c.path)
			done <- diags.Error()
		}()
		select {
		case got := <-done:
			if !strings.Contains(got, c.want) {
				t.Errorf("Load(%s): %q, want it to say %q", c.path, got, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) blocked", c.path)
		}
	}
}

// TestReadLimited: a file over the limit is refused, one at the limit is read whole.
func TestReadLimited(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.rules")
	if err := os.WriteFile(p, make([]byte, 2<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLimited(p, 2<<20); err == nil || !strings.Contains(err.Error(), "larger than the 2 MiB limit") {
		t.Errorf("over the limit: %v", err)
	}
	if b, err := ReadLimited(p, 2<<20+1); err != nil || len(b) != 2<<20+1 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
}

// TestIncludeSymlinkConfined: a link inside the ruleset folder that leads out of it is
// refused by its resolved path, and the message does not quote the target's content.
func TestIncludeSymlinkConfined(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("top secret line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(secret, filepath.Join(root, "lien.rules")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ok.rules"), []byte("const k = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, inc := range []string{"lien.rules", "sub/secret.txt"} {
		main := filepath.Join(root, "main.rules")
		if err := os.WriteFile(main, []byte("include \""+inc+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, fsys := range []FileSystem{nil, DirFiles(root)} {
			name := main
			if fsys != nil {
				name = "main.rules"
			}
			_, diags := Load(fsys, name)
			got := diags.Error()
			if !strings.Contains(got, "is outside the ruleset's folder") || strings.Contains(got, "secret line") {
				t.Errorf("include %s (%T): %q", inc, fsys, got)
			}
		}
	}
	// A link that stays inside the folder still works.
	if err := os.Symlink("ok.rules", filepath.Join(root, "alias.rules")); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(root, "main.rules")
	if err := os.WriteFile(main, []byte("include \"alias.rules\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, diags := Load(nil, main); diags.HasErrors() {
		t.Errorf("a link inside the folder: %v", diags)
	}
}

// TestLoadSizeBounded: the files of one load are bounded together, not only one by one:
// many includes of a large file each would take gigabytes to check.
func TestLoadSizeBounded(t *testing.T) {
	root := t.TempDir()
	big := "const s%d = \"" + strings.Repeat("a", 1_400_000) + "\"\n"
	var main strings.Builder
	for i := range 4 {
		name := fmt.Sprintf("part%d.rules", i)
		if err := os.WriteFile(filepath.Join(root, name), []byte(fmt.Sprintf(big, i)), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&main, "include %q\n", name)
	}
	if err := os.WriteFile(filepath.Join(root, "main.rules"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := Load(DirFiles(root), "main.rules")
	if got := diags.Error(); !strings.Contains(got, "main.rules:4:1: the rule files of this load pass the limit of 4 MiB in total") {
		t.Errorf("got %q", got)
	}
	if _, diags := Load(DirFiles(root), "part0.rules", "part1.rules"); diags.HasErrors() {
		t.Errorf("two parts: %v", diags)
	}
}

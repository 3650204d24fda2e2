//go:build unix

package syntax

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
	const refused = "not a regular file; a device, a pipe or a socket is refused"
	cases := []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: cannot read /dev/zero (" + refused + ")"},
		{fifo, fifo + ": cannot read " + fifo + " (" + refused + ")"},
		{dir, dir + ": cannot read " + dir + " (is a directory)"},
		// A link to a device leads out of the folder.
		{zeroInc, zeroInc + ":1:1: include \"zero.rules\" is outside the ruleset's folder (includes are limited to " + dir + ")"},
		{fifoInc, fifoInc + ":1:1: cannot read " + fifo + " (" + refused + ")"},
	}
	for _, c := range cases {
		done := make(chan string, 1)
		go func() {
			_, _, diags := ParseFiles(nil, c.path)
			done <- diags.Error()
		}()
		select {
		case got := <-done:
			if got != c.want {
				t.Errorf("ParseFiles(%s):\ngot  %s\nwant %s", c.path, got, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("ParseFiles(%s) blocked", c.path)
		}
	}
	for _, p := range []string{"/dev/zero", fifo, dir} {
		if _, err := ReadLimited(p, MaxFileSize); err == nil {
			t.Errorf("ReadLimited(%s) read it", p)
		}
	}
}

// TestReadLimited: a file over the limit is refused, one at the limit is read whole; a
// missing file keeps the system's error.
func TestReadLimited(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.rules")
	if err := os.WriteFile(p, make([]byte, 2<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadLimited(p, 2<<20); err == nil || err.Error() != "read "+p+": larger than the 2 MiB limit" {
		t.Errorf("over the limit: %v", err)
	}
	if b, err := ReadLimited(p, 2<<20+1); err != nil || len(b) != 2<<20+1 {
		t.Errorf("at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := ReadLimited(p+".none", 10); !os.IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
	if b, err := (OSFiles{}).ReadFile(p); err != nil || len(b) != 2<<20+1 {
		t.Errorf("OSFiles: %d bytes, %v", len(b), err)
	}
}

// TestDirFiles: paths are read relative to the base folder and keep their names in
// diagnostics; absolute paths are read as they are.
func TestDirFiles(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "r"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "r", "main.rules"), []byte("include \"x.rules\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "r", "x.rules"), []byte("const x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, src, diags := ParseFiles(DirFiles(root), "r/main.rules")
	if len(diags) != 0 || len(files) != 2 || files[1].Name != "r/x.rules" || string(src["r/x.rules"]) != "const x = 1\n" {
		t.Errorf("%d files, %v", len(files), diags)
	}
	abs := filepath.Join(root, "r", "main.rules")
	if files, _, diags := ParseFiles(DirFiles("/nowhere"), abs); len(diags) != 0 || len(files) != 2 || files[1].Name != filepath.Join(root, "r", "x.rules") {
		t.Errorf("absolute: %d files, %v", len(files), diags)
	}
	if got, err := DirFiles(root).Resolve("r/x.rules"); err != nil || !strings.HasSuffix(got, "/r/x.rules") {
		t.Errorf("Resolve: %s, %v", got, err)
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
	main := filepath.Join(root, "main.rules")
	for _, inc := range []string{"lien.rules", "sub/secret.txt"} {
		if err := os.WriteFile(main, []byte("include \""+inc+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, fsys := range []FileSystem{nil, DirFiles(root)} {
			name, folder := main, root
			if fsys != nil {
				name, folder = "main.rules", "."
			}
			_, src, diags := ParseFiles(fsys, name)
			want := name + ":1:1: include \"" + inc + "\" is outside the ruleset's folder (includes are limited to " + folder + ")"
			if got := diags.Error(); got != want || len(src) != 1 {
				t.Errorf("include %s (%T):\ngot  %s\nwant %s", inc, fsys, got, want)
			}
		}
	}
	// A link that stays inside the folder still works, and so does a folder reached
	// through a link.
	if err := os.Symlink("ok.rules", filepath.Join(root, "alias.rules")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(main, []byte("include \"alias.rules\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, _, diags := ParseFiles(nil, main); len(diags) != 0 || len(files) != 2 {
		t.Errorf("a link inside the folder: %v", diags)
	}
	linked := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(root, linked); err != nil {
		t.Fatal(err)
	}
	if files, _, diags := ParseFiles(nil, filepath.Join(linked, "main.rules")); len(diags) != 0 || len(files) != 2 {
		t.Errorf("a folder reached through a link: %v", diags)
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
	_, _, diags := ParseFiles(DirFiles(root), "main.rules")
	if got, want := diags.Error(), "main.rules:3:1: the rule files of this load pass the limit of 4 MiB in total (while reading part2.rules)\n"+
		"main.rules:4:1: the rule files of this load pass the limit of 4 MiB in total (while reading part3.rules)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, _, diags := ParseFiles(DirFiles(root), "part0.rules", "part1.rules"); len(diags) != 0 {
		t.Errorf("two parts: %v", diags)
	}
}

// TestLoadOneFileManyPaths: a file is read once however it is named: by a relative and an
// absolute path, through a symbolic link, by two spellings of one include, or by an
// include through a linked folder; diagnostics name it by the first path met. An include
// cycle closed through a link ends where the file is met again.
func TestLoadOneFileManyPaths(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	write("a.rules", "const a = 1\n")
	link("a.rules", "alias.rules")
	write("x.rules", "const x = 1\n")
	write("sub/keep.rules", "")
	link("sub", "linked")
	write("two.rules", "include \"x.rules\"\ninclude \"./sub/../x.rules\"\ninclude \"alias.rules\"\ninclude \"a.rules\"\n")
	write("sub/y.rules", "const y = 1\n")
	write("dirs.rules", "include \"sub/y.rules\"\ninclude \"linked/y.rules\"\n")
	write("loop.rules", "include \"loop2.rules\"\n")
	write("loop2.rules", "include \"back.rules\"\n")
	link("loop.rules", "back.rules")

	abs := filepath.Join(root, "a.rules")
	cases := []struct {
		name  string
		fs    FileSystem
		paths []string
		want  string
	}{
		{"relative then absolute", DirFiles(root), []string{"a.rules", abs}, "a.rules"},
		{"absolute then relative", DirFiles(root), []string{abs, "a.rules"}, abs},
		{"a link given beside its target", DirFiles(root), []string{"alias.rules", "a.rules"}, "alias.rules"},
		{"os paths", nil, []string{abs, filepath.Join(root, ".", "alias.rules")}, abs},
		{"two spellings and a link", DirFiles(root), []string{"two.rules"}, "two.rules x.rules alias.rules"},
		{"a folder through a link", DirFiles(root), []string{"dirs.rules"}, "dirs.rules sub/y.rules"},
		{"a cycle through a link", DirFiles(root), []string{"loop.rules"}, "loop.rules loop2.rules"},
		{"a cycle entered by the link", DirFiles(root), []string{"back.rules"}, "back.rules loop2.rules"},
	}
	for _, c := range cases {
		files, src, diags := ParseFiles(c.fs, c.paths...)
		var names []string
		for _, f := range files {
			names = append(names, f.Name)
		}
		if got := strings.Join(names, " "); got != c.want || len(diags) != 0 || len(src) != len(files) {
			t.Errorf("%s: got %s (%d sources), %v; want %s", c.name, got, len(src), diags, c.want)
		}
	}

	// The whole check sees one declaration of each name, not a redeclaration.
	if checkFiles != nil {
		if _, diags := checkFiles(DirFiles(root), "a.rules", abs, "alias.rules"); len(diags) != 0 {
			t.Errorf("check of one file by three paths: %v", diags)
		}
	}
	// A problem in the file is reported once, under the first path.
	write("bad.rules", "const b = \n")
	_, _, diags := ParseFiles(DirFiles(root), "bad.rules", filepath.Join(root, "bad.rules"))
	if got := diags.Error(); len(diags) != 1 || !strings.HasPrefix(got, "bad.rules:1:") {
		t.Errorf("diagnostics: %s", got)
	}
}

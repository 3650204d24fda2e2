package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// loadDump runs ParseFiles on files in memory and writes the files parsed, in order, and
// the diagnostics.
func loadDump(files memFiles, paths ...string) (string, Sources) {
	parsed, src, diags := ParseFiles(files, paths...)
	var names []string
	for _, f := range parsed {
		names = append(names, f.Name)
	}
	out := strings.Join(names, " ")
	if len(diags) > 0 {
		out += " | " + diags.Error()
	}
	return out, src
}

// TestIncludeOrder: a file comes before its includes, which come in their order, each
// depth first; a file included twice (or given twice) is read once, where first met.
func TestIncludeOrder(t *testing.T) {
	files := memFiles{
		"main.rules":     []byte("include \"a.rules\"\ninclude \"b.rules\"\nconst m = 1\n"),
		"a.rules":        []byte("include \"c.rules\"\n"),
		"b.rules":        []byte("include \"c.rules\"\ninclude \"./a.rules\"\ninclude \"sub/d.rules\"\n"),
		"c.rules":        []byte("const c = 1\n"),
		"sub/d.rules":    []byte("include \"../c.rules\"\ninclude \"e.rules\"\n"),
		"sub/e.rules":    []byte("include \"d.rules\"\n"),
		"other.rules":    []byte("include \"c.rules\"\n"),
		"self.rules":     []byte("include \"self.rules\"\n"),
		"dir/main.rules": []byte("include \"x.rules\"\n"),
		"dir/x.rules":    []byte(""),
	}
	cases := []struct {
		paths []string
		want  string
	}{
		{[]string{"main.rules"}, "main.rules a.rules c.rules b.rules sub/d.rules sub/e.rules"},
		{[]string{"main.rules", "other.rules", "./main.rules"}, "main.rules a.rules c.rules b.rules sub/d.rules sub/e.rules other.rules"},
		{[]string{"c.rules", "a.rules"}, "c.rules a.rules"},
		{[]string{"self.rules"}, "self.rules"},
		{[]string{"dir/main.rules"}, "dir/main.rules dir/x.rules"},
	}
	for _, c := range cases {
		if got, _ := loadDump(files, c.paths...); got != c.want {
			t.Errorf("ParseFiles(%v):\ngot  %s\nwant %s", c.paths, got, c.want)
		}
	}
	// Every file read is in the sources, under its clean name.
	_, src := loadDump(files, "./main.rules")
	if len(src) != 6 || string(src["sub/d.rules"]) != string(files["sub/d.rules"]) {
		t.Errorf("sources: %d files", len(src))
	}
}

// TestIncludeConfined: an include leading out of the first file's folder is refused at its
// position, and the load goes on with the other includes.
func TestIncludeConfined(t *testing.T) {
	files := memFiles{
		"r/main.rules":   []byte("include \"../secret.rules\"\ninclude \"/etc/passwd\"\n  include \"sub/../../r2/x.rules\"\ninclude \"ok.rules\"\n"),
		"r/ok.rules":     []byte("include \"sub/in.rules\"\n"),
		"r/sub/in.rules": []byte("include \"../ok.rules\"\ninclude \"../../secret.rules\"\n"),
		"secret.rules":   []byte("const s = 1\n"),
		"r2/x.rules":     []byte("const s = 1\n"),
	}
	got, src := loadDump(files, "r/main.rules")
	want := "r/main.rules r/ok.rules r/sub/in.rules | " +
		"r/main.rules:1:1: include \"../secret.rules\" is outside the ruleset's folder (includes are limited to r)\n" +
		"r/main.rules:2:1: include \"/etc/passwd\" is outside the ruleset's folder (includes are limited to r)\n" +
		"r/main.rules:3:3: include \"sub/../../r2/x.rules\" is outside the ruleset's folder (includes are limited to r)\n" +
		"r/sub/in.rules:2:1: include \"../../secret.rules\" is outside the ruleset's folder (includes are limited to r)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, ok := src["secret.rules"]; ok {
		t.Error("a file outside the folder was read")
	}
	// The folder is the first file's own, even when it names a file in a subfolder.
	got, _ = loadDump(files, "r/sub/in.rules")
	want = "r/sub/in.rules | r/sub/in.rules:1:1: include \"../ok.rules\" is outside the ruleset's folder (includes are limited to r/sub)\n" +
		"r/sub/in.rules:2:1: include \"../../secret.rules\" is outside the ruleset's folder (includes are limited to r/sub)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestIncludeUnreadable: a missing include is reported where it is named, a missing file
// given to the load by its name alone; a file that does not parse is reported and skipped.
func TestIncludeUnreadable(t *testing.T) {
	files := memFiles{
		"main.rules": []byte("const a = 1\ninclude \"missing.rules\"\ninclude \"bad.rules\"\ninclude \"ok.rules\"\n"),
		"bad.rules":  []byte("rule f( {\n"),
		"ok.rules":   []byte("const ok = 1\n"),
	}
	got, src := loadDump(files, "main.rules", "nowhere.rules")
	want := "main.rules ok.rules | main.rules:2:1: cannot read missing.rules (no such file)\n" +
		"bad.rules:1:9: unexpected token \"{\" (expected \")\")\n" +
		"nowhere.rules: cannot read nowhere.rules (no such file)"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if string(src["bad.rules"]) != "rule f( {\n" {
		t.Error("the text of a file that does not parse is kept for its diagnostic")
	}
}

// TestMaxIncludes: a load reads at most MaxIncludes files; the one past is refused where it
// is included.
func TestMaxIncludes(t *testing.T) {
	files := memFiles{}
	for i := range MaxIncludes + 1 {
		files[fmt.Sprintf("f%d.rules", i)] = []byte(fmt.Sprintf("const c%d = 1\ninclude \"f%d.rules\"\n", i, i+1))
	}
	parsed, _, diags := ParseFiles(files, "f0.rules")
	if len(parsed) != MaxIncludes {
		t.Errorf("%d files parsed, want %d", len(parsed), MaxIncludes)
	}
	if want := "f199.rules:2:1: more than 200 included files"; diags.Error() != want {
		t.Errorf("got %s, want %s", diags.Error(), want)
	}
	// Exactly MaxIncludes files load.
	delete(files, fmt.Sprintf("f%d.rules", MaxIncludes-1))
	files[fmt.Sprintf("f%d.rules", MaxIncludes-1)] = []byte("const last = 1\n")
	if parsed, _, diags := ParseFiles(files, "f0.rules"); len(diags) != 0 || len(parsed) != MaxIncludes {
		t.Errorf("%d files: %v", len(parsed), diags)
	}
}

// TestMaxLoadSize: the bytes of one load are counted across its files and across the
// paths given together; the file that passes the limit is refused where it is named.
func TestMaxLoadSize(t *testing.T) {
	half := []byte("const s = \"" + strings.Repeat("a", MaxLoadSize/2) + "\"\n")
	files := memFiles{
		"main.rules":  []byte("include \"a.rules\"\ninclude \"b.rules\"\n"),
		"a.rules":     half,
		"b.rules":     half,
		"small.rules": []byte("const x = 1\n"),
	}
	got, src := loadDump(files, "main.rules")
	want := "main.rules a.rules | main.rules:2:1: the rule files of this load pass the limit of 4 MiB in total (while reading b.rules)"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if _, ok := src["b.rules"]; ok {
		t.Error("the file past the limit is kept")
	}
	// Once passed, the limit refuses every later file, even one that would fit beside
	// the files kept: the bytes read count, not the bytes kept.
	got, _ = loadDump(files, "a.rules", "b.rules", "small.rules")
	want = "a.rules | b.rules: the rule files of this load pass the limit of 4 MiB in total (while reading b.rules)\n" +
		"small.rules: the rule files of this load pass the limit of 4 MiB in total (while reading small.rules)"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if got, _ := loadDump(files, "a.rules", "small.rules"); got != "a.rules small.rules" {
		t.Errorf("under the limit: %s", got)
	}
}

// TestParseChecksFirst: Parse runs the encoding and nesting checks before the grammar, and
// its diagnostics are those of a load.
func TestParseChecksFirst(t *testing.T) {
	for src, want := range map[string]string{
		"const x = 1\n":                        "",
		"const x = \"\xff\"\n":                 "t.rules:1:12: invalid UTF-8 byte 0xff (rule files must be saved as UTF-8)",
		"const x = 1\x00\n":                    "t.rules:1:12: NUL byte (is this a binary file?)",
		"const x = " + strings.Repeat("(", 65): "t.rules:1:75: nesting deeper than the limit of 64 (brackets, blocks, else if and unary operators (!, not, -, +) each count one level)",
		"const x = `a`\n":                      "t.rules:1:11: unexpected character \"`\"",
		"const x = \"ab\n":                     "t.rules:1:11: unterminated string",
		"const x = 'ab\n":                      "t.rules:1:11: unterminated string",
		"rule f( {\n":                          "t.rules:1:9: unexpected token \"{\" (expected \")\")",
		"const x = 1 +":                        "", // an expression is read whole and checked later
	} {
		f, d := Parse("t.rules", []byte(src))
		got := ""
		if d != nil {
			got = d.Error()
		}
		if got != want || (d == nil) != (f != nil) {
			t.Errorf("Parse(%.40q) = %v, %q; want %q", src, f != nil, got, want)
		}
	}
}

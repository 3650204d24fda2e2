package syntax

import (
	"errors"
	"strings"
	"testing"
)

func TestPosAndSeverity(t *testing.T) {
	for p, want := range map[Pos]string{
		{"a.rules", 3, 7}: "a.rules:3:7",
		{"a.rules", 0, 0}: "a.rules",
		{"", 1, 1}:        ":1:1",
	} {
		if got := p.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", p, got, want)
		}
	}
	if Error.String() != "error" || Warning.String() != "warning" {
		t.Errorf("severities read %q and %q", Error, Warning)
	}
}

func TestDiagnosticError(t *testing.T) {
	ds := Diagnostics{
		{Pos: Pos{"a.rules", 2, 5}, Summary: "unknown name x", Detail: "did you mean y?"},
		{Severity: Warning, Pos: Pos{"a.rules", 1, 1}, Summary: "unused option"},
		{Pos: Pos{File: "b.rules"}, Summary: "cannot read b.rules"},
	}
	want := "a.rules:2:5: unknown name x (did you mean y?)\na.rules:1:1: warning: unused option\nb.rules: cannot read b.rules"
	if got := ds.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := ds[1].Error(); got != "a.rules:1:1: warning: unused option" {
		t.Errorf("one diagnostic: %s", got)
	}
	var err error = ds
	var back Diagnostics
	if !errors.As(err, &back) || len(back) != 3 {
		t.Error("Diagnostics is not found back from an error")
	}
	if !ds.HasErrors() || ds[1:2].HasErrors() || (Diagnostics{}).HasErrors() {
		t.Error("HasErrors")
	}
	if (Diagnostics{}).Error() != "" {
		t.Error("no diagnostics render as text")
	}
}

// TestSort: by file, line, column; equal positions keep their order.
func TestSort(t *testing.T) {
	ds := Diagnostics{
		{Pos: Pos{"b", 1, 1}, Summary: "1"},
		{Pos: Pos{"a", 2, 1}, Summary: "2"},
		{Pos: Pos{"a", 1, 9}, Summary: "3"},
		{Pos: Pos{"a", 1, 2}, Summary: "4"},
		{Pos: Pos{"a", 1, 9}, Summary: "5"},
		{Pos: Pos{"a", 10, 1}, Summary: "6"},
		{Pos: Pos{"", 0, 0}, Summary: "7"},
	}
	ds.Sort()
	var got []string
	for _, d := range ds {
		got = append(got, d.Summary)
	}
	if s := strings.Join(got, " "); s != "7 4 3 5 2 6 1" {
		t.Errorf("sorted: %s", s)
	}
}

// TestRender: the source line under each header and a caret under the column's rune, tabs
// kept; what cannot be quoted is left out.
func TestRender(t *testing.T) {
	src := Sources{
		"a.rules":   []byte("const x = 1\n\tlet é = ñ + y\r\nlast"),
		"bin.rules": []byte("ok\nab\x01cd\n"),
	}
	cases := []struct {
		name string
		d    *Diagnostic
		want string
	}{
		{"first column", &Diagnostic{Pos: Pos{"a.rules", 1, 1}, Summary: "s"},
			"a.rules:1:1: s\n    const x = 1\n    ^\n"},
		{"tab and accents before the column", &Diagnostic{Pos: Pos{"a.rules", 2, 14}, Summary: "unknown name y"},
			"a.rules:2:14: unknown name y\n    \tlet é = ñ + y\n    \t            ^\n"},
		{"warning", &Diagnostic{Severity: Warning, Pos: Pos{"a.rules", 2, 10}, Summary: "w", Detail: "d"},
			"a.rules:2:10: warning: w (d)\n    \tlet é = ñ + y\n    \t        ^\n"},
		{"last line without newline", &Diagnostic{Pos: Pos{"a.rules", 3, 5}, Summary: "s"},
			"a.rules:3:5: s\n    last\n        ^\n"},
		{"column past the end", &Diagnostic{Pos: Pos{"a.rules", 3, 9}, Summary: "s"},
			"a.rules:3:9: s\n    last\n        ^\n"},
		{"line past the end", &Diagnostic{Pos: Pos{"a.rules", 4, 1}, Summary: "s"}, "a.rules:4:1: s\n"},
		{"no line", &Diagnostic{Pos: Pos{File: "a.rules"}, Summary: "s"}, "a.rules: s\n"},
		{"no column", &Diagnostic{Pos: Pos{"a.rules", 1, 0}, Summary: "s"}, "a.rules:1:0: s\n"},
		{"unknown file", &Diagnostic{Pos: Pos{"c.rules", 1, 1}, Summary: "s"}, "c.rules:1:1: s\n"},
		{"binary line", &Diagnostic{Pos: Pos{"bin.rules", 2, 3}, Summary: "s"}, "bin.rules:2:3: s\n"},
		{"printable line of a binary file", &Diagnostic{Pos: Pos{"bin.rules", 1, 2}, Summary: "s"}, "bin.rules:1:2: s\n    ok\n     ^\n"},
	}
	for _, c := range cases {
		if got := (Diagnostics{c.d}).Render(src); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
	// Several diagnostics render one after the other, in their order.
	ds := Diagnostics{cases[1].d, cases[0].d, cases[5].d}
	want := cases[1].want + cases[0].want + cases[5].want
	if got := ds.Render(src); got != want {
		t.Errorf("several:\ngot  %q\nwant %q", got, want)
	}
}

// TestRenderInvalidUTF8: a line that is not UTF-8 is not quoted (its bytes would garble the
// terminal).
func TestRenderInvalidUTF8(t *testing.T) {
	src := Sources{"f": []byte("x = \"\xff\"\n")}
	if got := (Diagnostics{{Pos: Pos{"f", 1, 6}, Summary: "s"}}).Render(src); got != "f:1:6: s\n" {
		t.Errorf("got %q", got)
	}
}

// TestRenderLongLine: a long line is cut to 160 runes around the column, an ellipsis at
// each cut end, the caret still under the column.
func TestRenderLongLine(t *testing.T) {
	line := strings.Repeat("é", 1000) + "X" + strings.Repeat("a", 1000)
	got := (Diagnostics{{Pos: Pos{"f", 1, 1001}, Summary: "s"}}).Render(Sources{"f": []byte(line + "\n")})
	want := "f:1:1001: s\n    …" + strings.Repeat("é", 80) + "X" + strings.Repeat("a", 79) + "…\n    " + strings.Repeat(" ", 81) + "^\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Near the start, the cut keeps the start.
	got = (Diagnostics{{Pos: Pos{"f", 1, 3}, Summary: "s"}}).Render(Sources{"f": []byte(line)})
	want = "f:1:3: s\n    " + strings.Repeat("é", 160) + "…\n      ^\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Near the end, the cut keeps the end.
	got = (Diagnostics{{Pos: Pos{"f", 1, 1990}, Summary: "s"}}).Render(Sources{"f": []byte(line)})
	want = "f:1:1990: s\n    …" + strings.Repeat("a", 160) + "\n    " + strings.Repeat(" ", 149) + "^\n"
	if got != want {
		t.Errorf("near the end:\ngot  %q\nwant %q", got, want)
	}
	// Past the end of a long line (a file changed since it was read), the end is shown and
	// the caret follows it; this used to panic slicing past the line.
	got = (Diagnostics{{Pos: Pos{"f", 1, 2500}, Summary: "s"}}).Render(Sources{"f": []byte(line)})
	want = "f:1:2500: s\n    …" + strings.Repeat("a", 160) + "\n    " + strings.Repeat(" ", 161) + "^\n"
	if got != want {
		t.Errorf("past the end:\ngot  %q\nwant %q", got, want)
	}
}

func TestDidYouMean(t *testing.T) {
	names := []string{"ténacité", "tenue", "attaque", "pv", "défense"}
	cases := []struct{ name, want string }{
		{"tenacite", "ténacité"}, // two edits, in runes
		{"tenu", "tenue"},
		{"attaqeu", "attaque"},
		{"defence", "défense"},
		{"p", ""}, // one edit, but as long as the name
		{"pvv", "pv"},
		{"pv", ""},  // the name itself is no suggestion
		{"xyz", ""}, // too far from everything
		{"", ""},
	}
	for _, c := range cases {
		if got := DidYouMean(c.name, names); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	// The closest wins; on a tie, the first candidate.
	if got := DidYouMean("abcd", []string{"abxy", "abcx", "abcy"}); got != "abcx" {
		t.Errorf("closest: %q", got)
	}
	if got := DidYouMean("x", nil); got != "" {
		t.Errorf("no candidates: %q", got)
	}
}

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"é", "e", 1}, {"ténacité", "tenacite", 2}, {"ab", "ba", 2}} {
		if got := levenshtein(c.a, c.b); got != c.d {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}

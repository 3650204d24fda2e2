package syntax

import "testing"

// TestDiagnosticRanges: the diagnostics of the reader and the parser say where the problem
// ends as well as where it starts: the bad byte, token or character.
func TestDiagnosticRanges(t *testing.T) {
	for _, c := range []struct {
		src        string
		start, end string
	}{
		{"const x = 1\nrule f( {\n", "t.rules:2:9", "t.rules:2:10"},
		{"const = 1\n", "t.rules:1:7", "t.rules:1:8"},
		{"const x = \"abc\n", "t.rules:1:11", "t.rules:1:15"},
		{"const x = 1 € 2\n", "t.rules:1:13", "t.rules:1:14"},
		{"const x = \"\xff\"\n", "t.rules:1:12", "t.rules:1:13"},
		{"const x = " + repeat("(", 70) + "1" + repeat(")", 70) + "\n", "t.rules:1:75", "t.rules:1:76"},
		{"rule f() {\n  for x }\n}\n", "t.rules:2:9", "t.rules:2:10"},
	} {
		_, d := Parse("t.rules", []byte(c.src))
		if d == nil {
			t.Errorf("%q: no diagnostic", c.src)
			continue
		}
		start, end := d.Range()
		if start.String() != c.start || end.String() != c.end {
			t.Errorf("%q: %s: range %s–%s, want %s–%s", c.src, d.Summary, start, end, c.start, c.end)
		}
	}
	// Unknown end: the range is the point.
	d := &Diagnostic{Pos: Pos{"f", 3, 4}}
	if s, e := d.Range(); s != e {
		t.Errorf("range of a point: %s–%s", s, e)
	}
	if got := After(Pos{"f", 1, 1}, "ab\ncdé"); got != (Pos{"f", 2, 4}) {
		t.Errorf("After = %v", got)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

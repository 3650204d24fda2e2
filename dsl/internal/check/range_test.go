package check_test

import (
	"testing"

	"rulesh/dsl"
)

// TestDiagnosticRanges: a checker diagnostic covers the name or expression it is about, so
// an editor can underline it whole; Render still shows one caret at the start.
func TestDiagnosticRanges(t *testing.T) {
	for _, c := range []struct {
		src, summary, start, end string
	}{
		{"const a = 1 + inconnu\n", "unknown name inconnu", "t.rules:1:15", "t.rules:1:22"},
		{"kind K {\n  pv: int\n}\nentity e: K { pvv: 2 }\n", "K has no field pvv", "t.rules:4:15", "t.rules:4:18"},
		{"kind K {\n  pv: entier\n}\n", "unknown type entier", "t.rules:2:7", "t.rules:2:13"},
		{"rule f(a, a) {\n}\n", "parameter a is declared twice", "t.rules:1:11", "t.rules:1:12"},
		{"rule f(): int {\n  let n: int = \"abc\"\n  return n\n}\n", "expected int, got string", "t.rules:2:16", "t.rules:2:21"},
		{"rule f() {\n  if 1 + 2 {\n  }\n}\n", "condition is int, not bool", "t.rules:2:6", "t.rules:2:11"},
	} {
		_, diags := dsl.LoadSource("t.rules", []byte(c.src))
		if len(diags) == 0 {
			t.Errorf("%q: no diagnostic", c.src)
			continue
		}
		d := diags[0]
		start, end := d.Range()
		if d.Summary != c.summary || start.String() != c.start || end.String() != c.end {
			t.Errorf("%q: %s at %s–%s, want %s at %s–%s", c.src, d.Summary, start, end, c.summary, c.start, c.end)
		}
	}
}

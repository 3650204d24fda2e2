package check

import (
	"testing"
)

// TestBreakContinuePlace: break and continue stand in a loop's body, at any depth of if
// inside it; elsewhere they are refused at their own position, and code after them in the
// same block is unreachable.
func TestBreakContinuePlace(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"break in for", "for x in 3 {\n    if x == 2 { break }\n  }", ""},
		{"continue in while", "let n = 0\n  while n < 3 {\n    n += 1\n    continue\n  }", ""},
		{"break in nested if", "for x in 3 {\n    if x > 1 {\n      if x > 2 { break }\n    }\n  }", ""},
		{"break outside", "break", "a.rules:2:3: break outside a loop"},
		{"continue in if", "if true {\n    continue\n  }", "a.rules:3:5: continue outside a loop"},
		{"after break", "for x in 3 {\n    break\n    emit \"x\"\n  }", "a.rules:4:5: warning: unreachable code after break"},
		{"after continue", "for x in 3 {\n    continue\n    emit \"x\"\n  }", "a.rules:4:5: warning: unreachable code after continue"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "action a() {\n  " + tc.body + "\n}\n"
			c := checkSource(t, "a.rules", []byte(src))
			var got []string
			for _, d := range c.Diags {
				s := d.Pos.String() + ": "
				if d.Severity == Warning {
					s += "warning: "
				}
				got = append(got, s+d.Summary)
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Fatalf("unexpected diagnostics: %q", got)
			case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
				t.Fatalf("diagnostics %q, want %q", got, tc.want)
			}
		})
	}
}

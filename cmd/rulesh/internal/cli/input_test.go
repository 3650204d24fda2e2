package cli

import (
	"strings"
	"testing"
)

// TestEvalBadInput: bad input never crashes eval (issue 11); each ends in exit 1 and an
// error naming the problem, in the language's terms.
func TestEvalBadInput(t *testing.T) {
	tests := []struct{ src, want string }{
		{`"`, "<eval>:1:1: unterminated string"},
		{"1d6 \xff\xfe", "<eval>:1:5: invalid UTF-8 byte 0xff"},
		{"1d6\xff", "<eval>:1:4: invalid UTF-8 byte 0xff"},
		{"Q♣ \xffx", "<eval>:1:4: invalid UTF-8 byte 0xff"},
		{strings.Repeat("!", 1_000_000) + "true", "<eval>:1:65: nesting deeper than the limit of 64"},
		{strings.Repeat("-", 400_000) + "1", "<eval>:1:65: nesting deeper than the limit of 64"},
	}
	for _, c := range tests {
		code, _, errOut := runIn(t, ".", "", Eval, "-f", "../../../../rulesets/examples/cartes.rules", "--", c.src)
		for _, w := range []string{"panic", "goroutine", "runtime error", "fatal error"} {
			if strings.Contains(errOut, w) {
				t.Errorf("eval %.40q: Go's words: %.300s", c.src, errOut)
			}
		}
		if code != ExitError || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("eval %.40q: exit %d\n%.300s\nwant %q", c.src, code, errOut, c.want)
		}
	}
}

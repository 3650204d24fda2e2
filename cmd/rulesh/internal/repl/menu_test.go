package repl

import (
	"errors"
	"strings"
	"testing"
)

// TestMenu: the numbered menu, answers that fit no option asked again, and no answer.
func TestMenu(t *testing.T) {
	for _, c := range []struct {
		answers []string
		want    int
		err     string
		out     string
	}{
		{[]string{"2"}, 1, "", "Où ?\n  1) bois\n  2) colline\n"},
		{[]string{" colline "}, 1, "", "Où ?\n  1) bois\n  2) colline\n"},
		{[]string{"5", "rivière", "1"}, 0, "", "Où ?\n  1) bois\n  2) colline\nno option 5 (1 to 2)\nno option named so (bois, colline)\n"},
		{nil, 0, "no answer given (EOF)", "Où ?\n  1) bois\n  2) colline\n"},
	} {
		var out strings.Builder
		var prompts []string
		read := func(p string) (string, error) {
			prompts = append(prompts, p)
			if len(c.answers) == 0 {
				return "", errors.New("EOF")
			}
			a := c.answers[0]
			c.answers = c.answers[1:]
			return a, nil
		}
		got, err := menu(&out, read, "Où ?", []string{"bois", "colline"})
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("error %v, want %q", err, c.err)
			}
		} else if err != nil || got != c.want {
			t.Errorf("= %d, %v; want %d", got, err, c.want)
		}
		if out.String() != c.out {
			t.Errorf("output %q, want %q", out.String(), c.out)
		}
		if prompts[0] != "choice (1-2)? " {
			t.Errorf("prompt %q", prompts[0])
		}
	}
}

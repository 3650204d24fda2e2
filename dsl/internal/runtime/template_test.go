package runtime_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"rulesh/dsl"
)

// templateRules render templates inside the holes of others, fail in a hole halfway
// through a line, and print rolls, floats, lists and long lines.
const templateRules = `
ruleset "t"
rule nom(x: int): string {
  emit "nom({x})"
  return "n{x}"
}
rule deux(x: int): string {
  return "[{nom(x)}|{nom(x + 1)}]"
}
rule casse(x: int): string {
  return "avant {x} {nom(x)} puis {1 / (x - x) > 0 ? 'a' : 'b'}"
}
rule long(n: int): string {
  let s = ""
  for i in n {
    s += "x"
  }
  return "<{s}>"
}
rule mélange(): string {
  return "{2d6} {1.5} {2.0} {[1, 'a']} {true} {nil} {-3}"
}
rule paire(a, b): string {
  let t = "{a}-{b}"
  return t
}
rule seul(x) {
  return "{x}"
}
`

// TestTemplateRendering: a template renders its holes in order, nested renderings (a hole
// calling a rule that renders its own) keep their own text, a failing hole fails the line
// and leaves later renderings whole, and every kind of value prints as Str prints it.
func TestTemplateRendering(t *testing.T) {
	tests := []struct {
		expr, want, emitted, err string
		rolls                    []int
	}{
		{expr: `deux(1)`, want: `"[n1|n2]"`, emitted: "nom(1)\nnom(2)"},
		{expr: `deux(deux(3) == "[n3|n4]" ? 7 : 0)`, want: `"[n7|n8]"`, emitted: "nom(3)\nnom(4)\nnom(7)\nnom(8)"},
		{expr: `[casse(2), 0][1]`, emitted: "nom(2)", err: "division by zero"},
		{expr: `long(5000) == "<" + repeat("x", 5000) + ">" && deux(1) == "[n1|n2]"`, want: "true", emitted: "nom(1)\nnom(2)"},
		{expr: `mélange()`, rolls: []int{3, 4}, want: `"7 1.5 2 [1, \"a\"] true nil -3"`},
		{expr: `[paire(1, 2), paire(1, 2), paire(2, 1), paire("1", 2), paire(1, "2-")]`, want: `["1-2", "1-2", "2-1", "1-2", "1-2-"]`},
		{expr: `[long(5000), long(5000), long(3)][1:]`, want: `["<` + strings.Repeat("x", 5000) + `>", "<xxx>"]`},
		{expr: `seul("é")`, want: `"é"`},
		{expr: `seul(12)`, want: `"12"`},
		{expr: `seul(1d6)`, rolls: []int{5}, want: `"5"`},
		{expr: `seul(1d6 >= 4)`, rolls: []int{5}, want: `"true"`},
	}
	for _, tt := range tests {
		v, out, err := run(t, templateRules, tt.expr, tt.rolls...)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want %q", tt.expr, err, tt.err)
			}
		} else if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
		} else if got := dsl.Repr(v); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.expr, got, tt.want)
		}
		if got := strings.Join(out, "\n"); got != tt.emitted {
			t.Errorf("%s: emitted %q, want %q", tt.expr, got, tt.emitted)
		}
	}
}

// textRules render templates that are values over and over: texts taken from a few (a
// machine keeps its short texts, each boxed once), texts that never repeat (a template
// whose texts are not found there is no longer looked for, then tried again), the same
// texts from two templates, and long ones.
const textRules = `
ruleset "t"
rule peu(n: int): string {
  let out = ""
  for i in n {
    let t = "{i % 3}:{i % 5 == 0}"
    out += t + ";"
  }
  return out
}
rule jamais(n: int): string {
  let out = ""
  for i in n {
    let t = "texte {i}"
    out += t + ";"
  }
  return out
}
rule deux_modèles(n: int): string {
  let out = ""
  for i in n {
    let a = "{i % 2}x"
    let b = "{(i + 1) % 2}x"
    out += a + b + "|"
  }
  return out
}
rule longs(n: int): string {
  let out = ""
  for i in n {
    let t = "{repeat('y', 70)}{i % 2}"
    out += t
  }
  return out
}
`

// TestTemplateTexts: the texts of templates that are values are their renderings, however
// often they repeat (the machine's short texts), never repeat, or come from two templates.
func TestTemplateTexts(t *testing.T) {
	var peu, jamais, deux, longs strings.Builder
	for i := 1; i <= 400; i++ {
		fmt.Fprintf(&peu, "%d:%v;", i%3, i%5 == 0)
		fmt.Fprintf(&jamais, "texte %d;", i)
		fmt.Fprintf(&deux, "%dx%dx|", i%2, (i+1)%2)
		fmt.Fprintf(&longs, "%s%d", strings.Repeat("y", 70), i%2)
	}
	tests := []struct{ expr, want string }{
		{`peu(400)`, peu.String()},
		{`jamais(400)`, jamais.String()},
		// After jamais, peu again: its template was never turned off.
		{`[jamais(400), peu(400)]`, "[" + strconv.Quote(jamais.String()) + ", " + strconv.Quote(peu.String()) + "]"},
		{`deux_modèles(400)`, deux.String()},
		{`longs(400)`, longs.String()},
	}
	for _, tt := range tests {
		v, _, err := run(t, textRules, tt.expr)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		got := dsl.Repr(v)
		if s, ok := v.(string); ok {
			got = s
		}
		if got != tt.want {
			t.Errorf("%s = %.80s…, want %.80s…", tt.expr, got, tt.want)
		}
	}
}

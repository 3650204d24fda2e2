package repl

import (
	"sort"
	"strings"

	"rulesh/dsl"
)

// Complete returns the candidates for the word being typed at the end of line, and the
// line before that word, as Tab completes at the terminal (the playground's console).
func (s *Shell) Complete(line string) (head string, candidates []string) {
	return s.completions(line)
}

// completions returns the candidates for the word being typed at the end of line: meta
// commands, procedures, options, entities, dice, session variables and, after `x.`, the
// fields of x.
func (s *Shell) completions(line string) (string, []string) {
	start := len(line)
	for start > 0 {
		r := line[start-1]
		if r == ' ' || r == '(' || r == ',' || r == '[' || r == '{' || r == '+' || r == '-' || r == '*' || r == '/' || r == '!' || r == '=' || r == '<' || r == '>' {
			break
		}
		start--
	}
	head, word := line[:start], line[start:]
	var cands []string
	if strings.HasPrefix(word, ":") && strings.TrimSpace(head) == "" {
		for _, c := range metaCommands {
			cands = append(cands, c.name)
		}
	} else if dot := strings.LastIndexByte(word, '.'); dot > 0 {
		if v, ok := s.lookup(word[:dot]); ok {
			for _, f := range dsl.Fields(v) {
				cands = append(cands, word[:dot+1]+f)
			}
		}
	} else {
		cands = append(cands, s.prog.Names()...)
		cands = append(cands, s.sess.Vars()...)
	}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, word) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return head, out
}

func (s *Shell) lookup(path string) (any, bool) {
	parts := strings.Split(path, ".")
	v, ok := s.sess.Var(parts[0])
	if !ok {
		v, ok = s.m.Global(parts[0])
	}
	for _, p := range parts[1:] {
		if !ok {
			return nil, false
		}
		rec, isRec := v.(map[string]any)
		if !isRec {
			return nil, false
		}
		v, ok = rec[p]
	}
	return v, ok
}

package repl

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"rulesh/analysis"
	"rulesh/cmd/rulesh/internal/output"
	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// prob answers :prob EXPR as `rulesh prob` does: dice notation and a rolled table by
// convolution, any other expression by the analysis engine. Every run starts from the rules
// as loaded, with the options as :set has them: not from the session's entities or
// variables, which a run must not change.
func (s *Shell) prob(arg string) {
	if arg == "" {
		s.errorf(":prob EXPR: the odds of an expression (dice, a table, a call)")
		return
	}
	overrides := map[string]any{}
	for _, o := range s.m.Options() {
		if !reflect.DeepEqual(o.Value, o.Default) {
			overrides[o.Name] = o.Value
		}
	}
	var diceErr error
	if name, args := dsl.ParseTableCall(arg); s.prog.HasProc(name) {
		if s.prog.RollsItsKey(name) && constArgs(arg) {
			d, err := s.prog.TableDistSet(overrides, name, args...)
			if err != nil {
				s.errorf("%v", err)
				return
			}
			_ = output.Dist(s.stdout, arg, d, false)
			return
		}
	} else if e, err := dice.Parse(arg, s.prog.Dice()); err == nil {
		d, err := e.Distribution()
		if err != nil {
			output.DiceError(s.stdout, arg, err)
			s.failed = true
			return
		}
		_ = output.Dist(s.stdout, arg, d, false)
		return
	} else {
		diceErr = err
	}
	q := analysis.Question{Prog: s.prog, Overrides: overrides, Expr: arg, Seed: s.seed}
	opt := analysis.ProbOptions{Note: func(msg string) { fmt.Fprintf(s.stdout, "note: %s\n", msg) }}
	d, err := analysis.Prob(q, opt)
	if err != nil {
		var diags dsl.Diagnostics
		if errors.As(err, &diags) && diceErr != nil && s.meantAsDice(arg) {
			// Neither dice nor an expression of the rules, and no call: it was meant as dice.
			output.DiceError(s.stdout, arg, diceErr)
			s.failed = true
			return
		}
		s.failed = true
		output.Error(s.stdout, err, dsl.Sources{analysis.ProbName: []byte(arg)}, s.prog.Sources())
		return
	}
	output.EngineDist(s.stdout, d, s.seed)
}

// wordRE finds the names in an expression.
var wordRE = regexp.MustCompile(`[\p{L}_][\p{L}\p{N}_]*`)

// meantAsDice reports whether an expression the engine refused has no call and names no
// procedure: the dice parser then says best what is wrong.
func (s *Shell) meantAsDice(arg string) bool {
	if strings.Contains(arg, "(") {
		return false
	}
	for _, w := range wordRE.FindAllString(arg, -1) {
		if s.prog.HasProc(w) {
			return false
		}
	}
	return true
}

// constArgs reports whether a table call's arguments are all constants: numbers, strings,
// odds (1:1). A bare word is a name the engine resolves (or says it does not know).
func constArgs(call string) bool {
	_, args, _ := strings.Cut(call, "(")
	return !wordRE.MatchString(quotedRE.ReplaceAllString(args, ""))
}

// quotedRE finds the strings of an expression.
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)

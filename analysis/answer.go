package analysis

import (
	"errors"
	"strings"

	"rulesh/dsl"
	"rulesh/stdlib/dice"
)

// Answer is prob's answer to one question, reached one of two ways: dice notation and a
// call of a table that rolls its own key with constant arguments by convolution (Conv),
// anything else by the engine, enumerated or sampled (Dist). Exactly one is set.
type Answer struct {
	Conv *dice.Dist
	Dist *Dist
}

// DiceError is dice notation the dice package refused (a die of no sides, an unknown die):
// the expression was meant as dice, and the dice parser says best what is wrong. Err is
// the dice package's error, which places itself in Src.
type DiceError struct {
	Src string
	Err error
}

// Error is the dice package's message.
func (e *DiceError) Error() string { return e.Err.Error() }

// Unwrap gives the dice package's error.
func (e *DiceError) Unwrap() error { return e.Err }

// TableError is a rolled table whose odds the convolution refused (an argument missing, a
// column unknown): a sentence naming the table.
type TableError struct{ Err error }

// Error is the sentence.
func (e *TableError) Error() string { return e.Err.Error() }

// Unwrap gives the table's error.
func (e *TableError) Unwrap() error { return e.Err }

// Odds answers q as `rulesh prob` and the REPL's :prob do, and is the one place that
// decides how: by convolution when q.Expr is dice notation or a call of a table that rolls
// its own key whose arguments are constants (coup(2), combats(1:1); résultat_aidé(stat)
// reads a name, so the engine answers it), with the options as q.Overrides gives them;
// by Prob for any other expression, and for any question that emits, shuffles or binds
// names (the convolution knows nothing of those). An answer whose every run failed the same
// way is an *ErrEveryRunFails with All set: a mistake, not odds. An expression that is neither dice
// notation nor compiles, and that calls nothing and names no procedure, was meant as dice:
// its error is then the dice parser's, a *DiceError.
func Odds(q Question, opt ProbOptions) (*Answer, error) {
	var diceErr error
	if !q.Emits && !q.Shuffle && len(q.Bind) == 0 {
		d, done, err := convolve(q)
		if done {
			if err != nil {
				return nil, err
			}
			return &Answer{Conv: d}, nil
		}
		diceErr = err
	}
	d, err := Prob(q, opt)
	if err != nil {
		var diags dsl.Diagnostics
		if diceErr != nil && errors.As(err, &diags) && meantAsDice(q.Prog, q.Expr) {
			return nil, &DiceError{Src: q.Expr, Err: diceErr}
		}
		return nil, err
	}
	if len(d.Outcomes) == 1 && d.Outcomes[0].Err != "" {
		// Every run fails, and the same way: a mistake in the expression or the rules, not
		// odds (prob 'd(0)' said "error: …" at 100% and exit 0).
		o := d.Outcomes[0]
		return nil, &ErrEveryRunFails{Runs: max(d.Leaves, d.Samples), Err: o.Failure, All: true, Msg: o.Err}
	}
	return &Answer{Dist: d}, nil
}

// convolve answers q by convolution; done is false when it cannot, with the dice parser's
// error when q.Expr is not dice notation.
func convolve(q Question) (d *dice.Dist, done bool, err error) {
	prog := q.Prog
	if len(q.Overrides) > 0 {
		if prog == nil {
			return nil, false, nil // no option to set: the engine says so
		}
		// The options are checked as a run would check them, whether or not the
		// convolution reads them.
		if err := prog.CheckOptions(q.Overrides); err != nil {
			return nil, true, err
		}
	}
	if name, args, consts := dsl.ParseTableCall(q.Expr); prog != nil && prog.HasProc(name) {
		if !prog.RollsItsKey(name) || !consts {
			return nil, false, nil
		}
		d, err := prog.TableDistSet(q.Overrides, name, args...)
		if err != nil {
			return nil, true, &TableError{err}
		}
		return d, true, nil
	}
	var named map[string]*dice.Die
	if prog != nil {
		// The dice made from rules are those of the options in force.
		if named, err = prog.DiceWith(q.Overrides); err != nil {
			return nil, true, err
		}
	}
	e, err := dice.Parse(q.Expr, named)
	if err != nil {
		return nil, false, err
	}
	if e.IsRecord() {
		// A roll of record dice is a record, which the engine counts (its draw is the
		// convolution of the dice's joint distributions).
		return nil, false, nil
	}
	if d, err = e.Distribution(); err != nil {
		return nil, true, &DiceError{Src: q.Expr, Err: err}
	}
	return d, true, nil
}

// meantAsDice reports whether an expression that does not compile calls nothing and names
// no procedure of prog, as its text is written.
func meantAsDice(prog *dsl.Program, src string) bool {
	if f := strings.Fields(src); len(f) > 0 && f[0] == "let" {
		return false // an expression's own let: no notation begins so
	}
	names, call := dsl.WrittenNames(src)
	if call {
		return false
	}
	for _, n := range names {
		if prog != nil && prog.HasProc(n) {
			return false
		}
	}
	return true
}

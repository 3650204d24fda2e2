package analysis

import (
	"errors"
	"fmt"

	"rulesh/dsl"
)

// The dice made from rules (`dice attaque = attack()`) are computed by this engine: the
// language cannot import it, so it installs itself as the loader's (dsl.SetDieOdds).
func init() { dsl.SetDieOdds(dieOdds) }

// dieOdds is the exact distribution of call on a fresh state of prog, its emitted lines
// kept so that the loader can refuse a rule that emits. A die is exact or nothing: a tree
// over the default budget is refused, never sampled.
func dieOdds(prog *dsl.Program, overrides map[string]any, call string) ([]dsl.DieOutcome, error) {
	// Each outcome is a face at least: past the most faces, the die is refused as soon as
	// the runs show it, with dieOf's message for a common denominator over that.
	d, err := Prob(Question{Prog: prog, Overrides: overrides, Expr: call, Emits: true}, ProbOptions{Exact: true, MaxOutcomes: dsl.MaxRuleDieFaces})
	if err != nil {
		var many *ErrTooManyOutcomes
		if errors.As(err, &many) {
			return nil, fmt.Errorf("its odds have a common denominator over %d, the most faces a die made from a rule may have", dsl.MaxRuleDieFaces)
		}
		var big *ErrTooBig
		if errors.As(err, &big) {
			return nil, fmt.Errorf("its exact odds need %s branches of the dice, over the budget of %d (a die is made from exact odds only)", about(big.Estimate), big.Budget)
		}
		var fails *ErrEveryRunFails
		if errors.As(err, &fails) {
			msg := fails.Msg
			if msg == "" && fails.Err != nil {
				msg = errMessage(fails.Err)
			}
			return nil, fmt.Errorf("every branch fails: %s", msg)
		}
		return nil, err
	}
	out := make([]dsl.DieOutcome, len(d.Outcomes))
	for i, o := range d.Outcomes {
		out[i] = dsl.DieOutcome{Value: o.Value, Err: o.Err, Lines: len(o.Emitted) > 0, P: o.Fraction}
	}
	return out, nil
}

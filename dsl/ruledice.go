package dsl

import (
	"cmp"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// A die made from a rule (`dice attaque = attack()`) has as faces the rule's outcomes, each
// weighted by its exact probability. The language cannot compute them: the exact odds live
// in package analysis, which drives the language through this facade. So the loader asks a
// function installed by that package (SetDieOdds) for the distribution of the call, on a
// fresh state of the rules, and makes the die: each value repeated in proportion to its
// probability over their common denominator, so that everything a declared die does
// (notation, roll(d, n), keep/drop, hand-given results, convolution) works on it unchanged,
// and rolling it draws from the rule's exact distribution without running the rule.
//
// The faces depend on the options the rule reads: the Program holds those of the defaults,
// and a Machine with other option values (--set, :set) gets its own dice, computed once per
// set of option values and kept by the Program.

// DieOutcome is one outcome of the call a die is made from, as the odds engine found it.
type DieOutcome struct {
	Value any      // the value returned
	Err   string   // the message of a branch that failed ("" when it returned)
	Lines bool     // the branch emitted lines
	P     *big.Rat // its exact probability
}

// DieOdds computes the exact distribution of call, an expression (`attack(2)`) run on a
// fresh machine of prog with the options overrides, or says why it cannot (over its budget).
type DieOdds func(prog *Program, overrides map[string]any, call string) ([]DieOutcome, error)

var dieOdds DieOdds

// SetDieOdds installs the function that computes the dice made from rules; package analysis
// installs its exact engine when it is imported. Without one, rules that declare such a die
// do not load.
func SetDieOdds(f DieOdds) { dieOdds = f }

// MaxRuleDieFaces bounds the faces of a die made from a rule (its odds' common denominator):
// the most sides whose exact odds are computed.
const MaxRuleDieFaces = dice.MaxExactSides

// maxRuleDiceSets bounds the sets of option values a Program keeps dice for: a sweep over
// an option's values, or a long session of :set, computes again past it, never grows it.
const maxRuleDiceSets = 256

// ruleDice holds the dice made from rules of one Program computed for option values other
// than the defaults, by the text of the values in force.
type ruleDice struct {
	mu   sync.Mutex
	sets map[string]map[string]*dice.Die
	errs map[string]error
}

// hasRuleDice reports whether the program declares a die made from a rule.
func (p *Program) hasRuleDice() bool {
	for _, d := range p.p.DiceDecl {
		if d.Rule != nil {
			return true
		}
	}
	return false
}

// computeRuleDice computes every die made from a rule, in declaration order, with the
// options overrides: a die's rule may roll the dice declared before it. An error is placed
// at the die's declaration.
func (p *Program) computeRuleDice(overrides map[string]any) (map[string]*dice.Die, error) {
	own := map[string]*dice.Die{}
	all := p.p.RuleDice()
	for i, d := range all {
		if dieOdds == nil {
			return nil, dieError(d, "no odds engine is installed to compute it (the program must import rulesh/analysis)")
		}
		// Machines made while this die is computed roll the dice computed so far.
		// Those not made yet are refused, not rolled as their stand-in face.
		view := &Program{p: p.p, own: maps.Clone(own)}
		for _, later := range all[i:] {
			view.unmade = append(view.unmade, later.Name)
		}
		outs, err := dieOdds(view, overrides, d.Call)
		if err != nil {
			return nil, dieError(d, err.Error())
		}
		die, err := dieOf(d, outs)
		if err != nil {
			return nil, err
		}
		own[d.Name] = die
	}
	return own, nil
}

// dieError is a refusal of a die made from a rule, placed at its declaration.
func dieError(d *runtime.DieDecl, why string) error {
	return fmt.Errorf("%s: dice %s = %s: %s", d.Pos, d.Name, d.Call, why)
}

// dieOf makes the die of the outcomes of d's call: each whole number repeated in proportion
// to its probability, in increasing order.
func dieOf(d *runtime.DieDecl, outs []DieOutcome) (*dice.Die, error) {
	l := big.NewInt(1)
	var g big.Int
	for _, o := range outs {
		switch {
		case o.Err != "" && o.P.Cmp(big.NewRat(1, 1)) == 0:
			return nil, dieError(d, fmt.Sprintf("it fails on every branch (%s), and a die always shows a face", o.Err))
		case o.Err != "":
			return nil, dieError(d, fmt.Sprintf("it fails on some branches (%s, with probability %s), and a die always shows a face", o.Err, o.P.RatString()))
		case o.Lines:
			return nil, dieError(d, "it emits lines, and a die shows a face without a word")
		}
		if _, ok := o.Value.(int); !ok {
			return nil, dieError(d, fmt.Sprintf("it returns %s, and a die's faces are whole numbers", Repr(o.Value)))
		}
		den := o.P.Denom()
		g.GCD(nil, nil, l, den)
		l.Mul(l, new(big.Int).Quo(den, &g))
		if l.Cmp(big.NewInt(MaxRuleDieFaces)) > 0 {
			break
		}
	}
	if l.Cmp(big.NewInt(MaxRuleDieFaces)) > 0 {
		return nil, dieError(d, fmt.Sprintf("its odds have a common denominator over %d, the most faces a die made from a rule may have", MaxRuleDieFaces))
	}
	outs = slices.Clone(outs)
	slices.SortFunc(outs, func(a, b DieOutcome) int { return cmp.Compare(a.Value.(int), b.Value.(int)) })
	var faces []dice.Face
	for _, o := range outs {
		n := new(big.Int).Mul(o.P.Num(), new(big.Int).Quo(l, o.P.Denom())).Int64()
		for range n {
			faces = append(faces, dice.Face{Value: o.Value.(int)})
		}
	}
	die, err := dice.NewDie(d.Name, faces)
	if err != nil {
		return nil, dieError(d, err.Error())
	}
	return die, nil
}

// ownDice returns the dice made from rules for a machine whose options are in force as
// values gives them: nil when they are the defaults (the Program's own dice), else the dice
// computed for them, once per set of values.
func (p *Program) ownDice(values []OptionValue) (map[string]*dice.Die, error) {
	if p.own != nil {
		return p.own, nil
	}
	if p.rd == nil || !p.hasRuleDice() {
		return nil, nil
	}
	var key strings.Builder
	same := true
	for _, o := range values {
		v := Repr(o.Value)
		same = same && v == Repr(o.Default)
		key.WriteString(v)
		key.WriteByte(0)
	}
	if same {
		return nil, nil
	}
	over := map[string]any{}
	for _, o := range values {
		over[o.Name] = o.Value
	}
	rd := p.rd
	rd.mu.Lock()
	defer rd.mu.Unlock()
	k := key.String()
	if set, ok := rd.sets[k]; ok {
		return set, rd.errs[k]
	}
	set, err := p.computeRuleDice(over)
	if rd.sets == nil || len(rd.sets) >= maxRuleDiceSets {
		rd.sets, rd.errs = map[string]map[string]*dice.Die{}, map[string]error{}
	}
	rd.sets[k], rd.errs[k] = set, err
	return set, err
}

// DiceWith is Dice with the options overrides in force: the dice made from rules are those
// computed for them.
func (p *Program) DiceWith(overrides map[string]any) (map[string]*dice.Die, error) {
	out := p.Dice()
	if len(overrides) == 0 || !p.hasRuleDice() {
		return out, nil
	}
	m, err := NewMachine(p, nil, overrides)
	if err != nil {
		return nil, err
	}
	own, err := p.ownDice(m.Options())
	if err != nil {
		return nil, err
	}
	for name, d := range own {
		out[name] = copyDie(d)
	}
	return out, nil
}

// declaresRuleDice reports whether parsed files declare a die made from a rule.
func declaresRuleDice(files []syntax.ParsedFile) bool {
	for _, f := range files {
		for _, d := range f.AST.Decls {
			if d.Dice != nil && d.Dice.Rule != nil {
				return true
			}
		}
	}
	return false
}

// ruleDiceFiles keeps of the files what computing their dice made from rules may need: every
// declaration but the procedures and tables, and the procedures and tables whose names these
// declarations write, and those the kept ones write in turn. The faces stand in while they
// are checked, so a table rolling such a die, or notation taking a face from it (a bare `!`),
// could be refused for the stand-in: the procedures and tables that do not lead to a die's
// rule are left out, and checked once with the faces.
func ruleDiceFiles(files []syntax.ParsedFile, sources syntax.Sources) []syntax.ParsedFile {
	type span struct {
		decl *syntax.Decl
		text string
	}
	var spans []span
	for _, f := range files {
		src := sources[f.Name]
		for i, d := range f.AST.Decls {
			end := len(src)
			if i+1 < len(f.AST.Decls) {
				end = f.AST.Decls[i+1].Pos.Offset
			}
			start := min(d.Pos.Offset, end)
			spans = append(spans, span{d, string(src[start:end])})
		}
	}
	procs := map[string]int{} // the span of each procedure and table, by name
	for i, sp := range spans {
		switch {
		case sp.decl.Proc != nil:
			procs[sp.decl.Proc.Name] = i
		case sp.decl.Table != nil:
			procs[sp.decl.Table.Name] = i
		}
	}
	keep := make([]bool, len(spans))
	var todo []int
	for i, sp := range spans {
		if sp.decl.Proc == nil && sp.decl.Table == nil {
			keep[i] = true
			todo = append(todo, i)
		}
	}
	for len(todo) > 0 {
		i := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		syntax.Scan(spans[i].text, func(t lexer.Token) bool {
			if j, ok := procs[t.Value]; ok && !keep[j] {
				keep[j] = true
				todo = append(todo, j)
			}
			return true
		})
	}
	out := make([]syntax.ParsedFile, len(files))
	k := 0
	for fi, f := range files {
		ast := &syntax.File{}
		for range f.AST.Decls {
			if keep[k] {
				ast.Decls = append(ast.Decls, spans[k].decl)
			}
			k++
		}
		out[fi] = syntax.ParsedFile{Name: f.Name, AST: ast, Names: f.Names, Text: f.Text}
	}
	return out
}

// loadRuleDice finishes a load whose rules declare dice made from rules: the faces are
// computed on the program checked with stand-ins, and the rules checked again with them,
// so that the notation parsed at load reads the real faces.
func loadRuleDice(first *Program, check func(faces map[string][]dice.Face) (*Program, Diagnostics)) (*Program, Diagnostics) {
	own, err := first.computeRuleDice(nil)
	if err != nil {
		return nil, Diagnostics{ruleDieDiag(first, err)}
	}
	faces := map[string][]dice.Face{}
	for name, d := range own {
		faces[name] = d.Faces
	}
	return check(faces)
}

// ruleDieDiag turns a refusal of computeRuleDice into a diagnostic at the die.
func ruleDieDiag(p *Program, err error) *syntax.Diagnostic {
	msg := err.Error()
	for _, d := range p.p.RuleDice() {
		prefix := d.Pos.String() + ": "
		if strings.HasPrefix(msg, prefix) {
			return &syntax.Diagnostic{Severity: syntax.Error, Pos: d.Pos, Summary: strings.TrimPrefix(msg, prefix)}
		}
	}
	return &syntax.Diagnostic{Severity: syntax.Error, Summary: msg}
}

package dsl

import (
	"maps"
	"slices"
	"strings"

	"rulesh/dsl/internal/runtime"
	"rulesh/stdlib/cards"
	"rulesh/stdlib/dice"
)

// Program is a loaded and checked ruleset. Its compiled form is private to the language's
// packages: users read a Program through the methods below, which hand out copies, so a
// Program never changes after Load and Machines in several goroutines may share it.
type Program struct {
	p *runtime.Program
	// rd keeps the dice made from rules computed for other option values than the defaults
	// (ruledice.go); own, set on the view of a program whose dice are being computed, gives
	// its machines the dice computed so far.
	rd  *ruleDice
	own map[string]*dice.Die
	// unmade, on the same view, names the dice made from rules not computed yet.
	unmade []string
}

// Name is the ruleset's name from its header, or "".
func (p *Program) Name() string { return p.p.Name }

// Prop returns a field of the ruleset header (version, source…).
func (p *Program) Prop(key string) string { return p.p.Props[key] }

// Sources returns the text of every file read, by name, for rendering diagnostics.
func (p *Program) Sources() Sources { return maps.Clone(p.p.Sources) }

// Files lists the files read, the first one given first.
func (p *Program) Files() []string { return slices.Clone(p.p.Files) }

// Names lists every top-level name (for completion and did-you-mean).
func (p *Program) Names() []string { return p.p.Names() }

// HasProc reports whether name is an action, a rule or a table.
func (p *Program) HasProc(name string) bool { return p.p.Proc(name) != nil }

// Entities lists the entities' names in declaration order.
func (p *Program) Entities() []string {
	out := make([]string, len(p.p.Entities))
	for i, e := range p.p.Entities {
		out[i] = e.Name
	}
	return out
}

// Counts says how many declarations of each sort the ruleset holds.
type Counts struct{ Options, Consts, Enums, Kinds, Entities, Dice, Decks, Maps, Procs int }

// Counts counts the ruleset's declarations.
func (p *Program) Counts() Counts {
	return Counts{Options: len(p.p.Options), Consts: len(p.p.Consts), Enums: len(p.p.Enums), Kinds: len(p.p.Kinds),
		Entities: len(p.p.Entities), Dice: len(p.p.DiceDecl), Decks: len(p.p.Decks), Maps: len(p.p.Maps), Procs: len(p.p.Procs)}
}

// Dice returns the declared custom dice by name (for the dice notation's d[NAME]), as
// copies: the Program's own dice are shared by its machines.
func (p *Program) Dice() map[string]*dice.Die {
	out := make(map[string]*dice.Die, len(p.p.Dice()))
	for name, d := range p.p.Dice() {
		out[name] = copyDie(d)
	}
	return out
}

// TableDist is the exact distribution of a table that rolls its own key, given the arguments
// its roll's modifiers read (roll 1d6 + m), or the column of a table with columns (1:1).
func (p *Program) TableDist(name string, args ...any) (*dice.Dist, error) {
	return p.p.TableDist(name, args...)
}

// TableDistSet is TableDist with options at other values than their defaults, as --set
// and the REPL's :set give them.
func (p *Program) TableDistSet(options map[string]any, name string, args ...any) (*dice.Dist, error) {
	if len(options) == 0 || !p.hasRuleDice() {
		return p.p.TableDistSet(options, name, args...)
	}
	// A table may roll a die made from a rule: the one of these options.
	m, err := NewMachine(p, nil, options)
	if err != nil {
		return nil, err
	}
	return p.p.TableDistDice(options, m.m.OwnDice(), name, args...)
}

// RollsItsKey reports whether name is a table that rolls its own key and whose odds
// TableDist gives by convolution: what its roll adds to its dice reads only numbers,
// options, consts and its parameters (roll 2d6 + stat, not roll 1d6 + 1d4).
func (p *Program) RollsItsKey(name string) bool {
	pr := p.p.Proc(name)
	return pr != nil && pr.Table != nil && pr.Table.Roll != nil && (pr.Table.Plus == nil || pr.Table.PlusExact)
}

// ParseTableCall reads what the odds commands take: NAME, NAME() or NAME(2, -1), NAME(1:1):
// a table's name and its constant arguments, each read as ParseValue does (1:1 stays the text
// "1:1", which a ratio table reads as odds). consts is false when an argument is not a
// constant (a name, as stat in résultat_aidé(stat), a roll, a card): the call is then an
// expression to evaluate, and args are not its values.
func ParseTableCall(src string) (name string, args []any, consts bool) {
	s := strings.TrimSpace(src)
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return s, nil, true
	}
	name, inner := strings.TrimSpace(s[:open]), strings.TrimSpace(s[open+1:len(s)-1])
	if inner != "" {
		for _, a := range strings.Split(inner, ",") {
			args = append(args, ParseValue(strings.TrimSpace(a)))
		}
	}
	return name, args, constArgs(inner)
}

// CheckOptions checks option values as a machine would take them (NewMachine, --set): each
// name an option, each value of its type. The first error, in the order of the names, is
// NewMachine's.
func (p *Program) CheckOptions(options map[string]any) error {
	for _, name := range runtime.SortedKeys(options) {
		if _, err := p.p.OptionValue(name, options[name]); err != nil {
			return err
		}
	}
	return nil
}

// Option returns the option name as declared, its Value being its default, and whether the
// ruleset declares one: what --set, --compare and --sweep ask before any machine exists.
func (p *Program) Option(name string) (OptionValue, bool) {
	o := p.p.Option(name)
	if o == nil {
		return OptionValue{}, false
	}
	return OptionValue{Name: o.Name, Doc: o.Doc, Default: o.Default, Value: o.Default}, true
}

// ParseCard reads a card literal (Q♣, 10♥, QC…) of the ruleset's deck. The card is a copy:
// the deck's own cards are shared by the Program's machines.
func (p *Program) ParseCard(s string) (*cards.Card, error) {
	c, err := p.p.ParseCard(s)
	if err != nil {
		return nil, err
	}
	cp := *c
	return &cp, nil
}

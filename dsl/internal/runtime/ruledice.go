package runtime

import (
	"maps"
	"strings"

	"rulesh/stdlib/dice"
)

// RuleDice lists the dice made from rules, in declaration order.
func (p *Program) RuleDice() []*DieDecl {
	var out []*DieDecl
	for _, d := range p.DiceDecl {
		if d.Rule != nil {
			out = append(out, d)
		}
	}
	return out
}

// SetRuleDice gives the machine its own dice made from rules, by name (computed with its
// options): the name reads the new die, and notation parsed at load rolls it in place of the
// Program's. A die equal to the Program's own pointer, or left out, is the Program's.
func (m *Machine) SetRuleDice(own map[string]*dice.Die) {
	m.ownDice, m.rebound, m.rollers, m.parsed = nil, nil, nil, nil
	for _, d := range m.prog.DiceDecl {
		nd, ok := own[d.Name]
		if d.Rule == nil || !ok || nd == d.Die {
			if d.Rule != nil {
				m.globals[d.Name] = d.Die
			}
			continue
		}
		if m.ownDice == nil {
			m.ownDice = map[*dice.Die]*dice.Die{}
		}
		m.ownDice[d.Die] = nd
		m.globals[d.Name] = nd
	}
	m.version++
}

// withOwnDice is de rolling the machine's own dice made from rules, cached per expression.
func (m *Machine) withOwnDice(de *dice.Expr) *dice.Expr {
	if r, ok := m.rebound[de]; ok {
		return r
	}
	if m.rebound == nil || len(m.rebound) >= maxParsedRolls {
		m.rebound = map[*dice.Expr]*dice.Expr{}
	}
	r := de.WithDice(m.ownDice)
	m.rebound[de] = r
	return r
}

// OwnDice maps the Program's dice made from rules to the machine's own, nil when they are
// the Program's.
func (m *Machine) OwnDice() map[*dice.Die]*dice.Die { return m.ownDice }

// SetUnmadeDice names the dice made from rules that are not made yet, while the loader
// computes the one before them: notation built at run time (`roll("1d" + nom)`) that names
// one is refused, where it would roll the face standing in for it (a silent 0).
func (m *Machine) SetUnmadeDice(names []string) {
	m.unmade = nil
	if len(names) == 0 {
		return
	}
	m.unmade = map[string]bool{}
	for _, n := range names {
		m.unmade[n] = true
	}
	m.parsed, m.rollers = nil, nil
}

// notationDice is the dice notation built at run time may name: the Program's, less the
// dice made from rules not made yet.
func (m *Machine) notationDice() map[string]*dice.Die {
	named := m.prog.Dice()
	if len(m.unmade) == 0 {
		return named
	}
	named = maps.Clone(named)
	for n := range m.unmade {
		delete(named, n)
	}
	return named
}

// unmadeError is err, a refusal of notation src, said again when it names a die not made
// yet; nil otherwise.
func (m *Machine) unmadeError(src string, err error) error {
	for n := range m.unmade {
		if strings.Contains(err.Error(), "unknown die \""+n+"\"") {
			return unmadeDie(src, n)
		}
	}
	return nil
}

func unmadeDie(what, name string) error {
	return Errorf("%s: %s is a die made from a rule that is not made yet (a die's rule may roll only the dice made from rules declared before it)", what, name)
}

package runtime

import "rulesh/stdlib/dice"

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

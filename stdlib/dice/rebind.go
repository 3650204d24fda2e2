package dice

// WithDice returns e with every term of a die in swap rolling swap's die in its place, the
// rest shared; e itself when none of its terms rolls one. A ruleset whose die is computed
// (made from a rule, its faces depending on options) parses its notation once with the
// faces of the defaults, and a run with other options rolls the same notation on its own
// dice. What the parser decided from the faces (the face a bare `!` explodes on, the
// lowest face of a bare `r`) stays as parsed.
func (e *Expr) WithDice(swap map[*Die]*Die) *Expr {
	root, changed := rebind(e.Root, swap)
	if !changed {
		return e
	}
	return &Expr{Src: e.Src, Root: root}
}

func rebind(n Node, swap map[*Die]*Die) (Node, bool) {
	switch n := n.(type) {
	case *Dice:
		if d, ok := swap[n.Die]; ok {
			c := *n
			c.Die = d
			return &c, true
		}
	case *Group:
		items, changed := rebindAll(n.Items, swap)
		if changed {
			c := *n
			c.Items = items
			return &c, true
		}
	case *Bin:
		l, lc := rebind(n.L, swap)
		r, rc := rebind(n.R, swap)
		if lc || rc {
			return &Bin{At: n.At, Op: n.Op, L: l, R: r}, true
		}
	case *Neg:
		if x, ok := rebind(n.X, swap); ok {
			return &Neg{At: n.At, X: x}, true
		}
	case *Call:
		args, changed := rebindAll(n.Args, swap)
		if changed {
			return &Call{At: n.At, Name: n.Name, Args: args}, true
		}
	case *Cmp:
		l, lc := rebind(n.L, swap)
		r, rc := rebind(n.R, swap)
		if lc || rc {
			return &Cmp{At: n.At, Op: n.Op, L: l, R: r}, true
		}
	case *Pool:
		var terms []PoolTerm
		for i, t := range n.Terms {
			if d, ok := rebind(t.Dice, swap); ok {
				if terms == nil {
					terms = append([]PoolTerm(nil), n.Terms...)
				}
				terms[i].Dice = d.(*Dice)
			}
		}
		if terms != nil {
			c := *n
			c.Terms = terms
			return &c, true
		}
	}
	return n, false
}

func rebindAll(nodes []Node, swap map[*Die]*Die) ([]Node, bool) {
	var out []Node
	for i, x := range nodes {
		if y, ok := rebind(x, swap); ok {
			if out == nil {
				out = append([]Node(nil), nodes...)
			}
			out[i] = y
		}
	}
	return out, out != nil
}

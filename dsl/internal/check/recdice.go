package check

import (
	"fmt"
	"sort"

	"rulesh/dsl/internal/runtime"
	"rulesh/dsl/internal/syntax"
	"rulesh/stdlib/dice"
)

// recordDie builds a die whose faces are records of counts (`dice ability = [{}, {s: 1}]`):
// every face must be one, each count a whole number. It returns nil after reporting a
// mistake.
func (c *Compiler) recordDie(d *syntax.DiceDecl) *dice.Die {
	faces := make([]dice.RecordFace, 0, len(d.Faces))
	ok := true
	for i, f := range d.Faces {
		if f.Counts == nil {
			c.errorf(f.Pos, fmt.Sprintf("face %d of die %s is not a record of counts, and its other faces are", i+1, d.Name),
				"a die's faces are all numbers, all names or all records: write this one {name: count} ({} for a blank face)")
			ok = false
			continue
		}
		var rf dice.RecordFace
		seen := map[string]bool{}
		for _, cnt := range f.Counts.Fields {
			if seen[cnt.Name] {
				c.errorf(cnt.Pos, fmt.Sprintf("face %d of die %s counts %s twice", i+1, d.Name, cnt.Name), "give each field once, with its count")
				ok = false
				continue
			}
			seen[cnt.Name] = true
			if !c.CheckName(cnt.Name, cnt.Pos) {
				ok = false
				continue
			}
			v := cnt.Value
			if !syntax.IsDigit(v.Text[0]) {
				c.errorf(v.Pos, fmt.Sprintf("the count of %s on face %d of die %s is %s, not a whole number", cnt.Name, i+1, d.Name, v.Text), "a record face counts symbols: {"+cnt.Name+": 1}")
				ok = false
				continue
			}
			n, good := c.declInt(v.Text, v.Neg, v.Pos, "the count of "+cnt.Name)
			if !good {
				ok = false
				continue
			}
			rf.Fields = append(rf.Fields, cnt.Name)
			rf.Counts = append(rf.Counts, n)
		}
		faces = append(faces, rf)
	}
	if !ok {
		return nil
	}
	die, err := dice.NewRecordDie(d.Name, faces)
	if err != nil {
		c.errorf(d.Pos, err.Error(), "")
		return nil
	}
	return die
}

// recordFieldTypos reports a field of the record dice named on a single face of them all
// when it is close to a field named more often, and long enough to tell (4 letters or more) (`{sucess: 1}` among `success`): a typo
// would otherwise be a field of its own, which every roll counts 0 in.
func (c *Compiler) recordFieldTypos(files []syntax.ParsedFile) {
	uses := map[string]int{}
	where := map[string]*syntax.Count{}
	var decls []*syntax.DiceDecl
	for _, f := range files {
		for _, d := range f.AST.Decls {
			if d.Dice != nil {
				decls = append(decls, d.Dice)
			}
		}
	}
	for _, d := range decls {
		for _, f := range d.Faces {
			if f.Counts == nil {
				continue
			}
			for _, cnt := range f.Counts.Fields {
				uses[cnt.Name]++
				if where[cnt.Name] == nil {
					where[cnt.Name] = cnt
				}
			}
		}
	}
	names := runtime.SortedKeys(uses)
	var often []string
	for _, n := range names {
		if uses[n] > 1 {
			often = append(often, n)
		}
	}
	sort.Strings(often)
	for _, n := range names {
		if uses[n] != 1 || len([]rune(n)) < 4 {
			// Short names (s, tr) are too close to each other to tell a typo.
			continue
		}
		if s := syntax.DidYouMean(n, often); s != "" {
			c.errorfSpan(where[n].Pos, n, fmt.Sprintf("field %s is on one face of the record dice only, and %s is on %d", n, s, uses[s]), "did you mean "+s+"? (a field of its own would count 0 on every other face)")
		}
	}
}

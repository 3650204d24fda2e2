package runtime

import (
	"fmt"
	"strings"
	"sync"

	"rulesh/stdlib/dice"
)

// A roll of record dice (`2dability + 1ddifficulty`, dice whose faces are records of counts)
// is a record: one int field per field of its dice, a missing one 0. Its kind is a tally
// kind, nameless (it prints `{s: 2, a: 1}`), one per set of fields, shared by every program:
// it holds only the names, each an int.

var tallyKinds sync.Map // fields joined by "\x00" -> *Kind

// TallyKind returns the record kind of the counts of fields, in their order.
func TallyKind(fields []string) *Kind {
	key := strings.Join(fields, "\x00")
	if k, ok := tallyKinds.Load(key); ok {
		return k.(*Kind)
	}
	k := &Kind{Tally: true, ByName: make(map[string]*Field, len(fields))}
	for _, f := range fields {
		fd := &Field{Name: f, Type: IntType}
		k.Fields = append(k.Fields, fd)
		k.ByName[f] = fd
	}
	k.Type()
	got, _ := tallyKinds.LoadOrStore(key, k)
	return got.(*Kind)
}

// UnionTally is the tally kind of the sum of two tallies: a's fields, then b's new ones.
func UnionTally(a, b *Kind) *Kind {
	fields := a.FieldNames()
	for _, f := range b.Fields {
		if a.ByName[f.Name] == nil {
			fields = append(fields, f.Name)
		}
	}
	return TallyKind(fields)
}

// IsTally reports a roll of record dice (or a sum of them).
func IsTally(v any) bool {
	rec, ok := v.(map[string]any)
	if !ok {
		return false
	}
	k, ok := rec[KindKey].(*Kind)
	return ok && k.Tally
}

// newTally builds the record of counts, one per field of k, and 0 for each of others (the
// fields of the rules' other record dice) it lacks: read through a value of unknown type
// (a rule's parameter r: any), r.despair of a roll without challenge dice is 0, not nil.
// Printing and JSON show k's fields only.
func newTally(k *Kind, counts []int, others []string) map[string]any {
	out := make(map[string]any, len(others)+1)
	out[KindKey] = k
	for _, f := range others {
		out[f] = 0
	}
	for i, f := range k.Fields {
		out[f.Name] = counts[i]
	}
	return out
}

// recordFields is every field of the rules' record dice, read once per machine.
func (m *Machine) recordFields() []string {
	if m.recFields == nil {
		m.recFields = []string{}
		seen := map[string]bool{}
		for _, d := range m.prog.DiceDecl {
			for _, f := range d.Die.Fields {
				if !seen[f] {
					seen[f] = true
					m.recFields = append(m.recFields, f)
				}
			}
		}
	}
	return m.recFields
}

// AddTallies is + between rolls of record dice: the counts added field by field, a field
// one of them lacks counting 0.
func AddTallies(a, b any) (any, error) {
	x, xok := a.(map[string]any)
	y, yok := b.(map[string]any)
	if !xok || !yok || !IsTally(a) || !IsTally(b) {
		return nil, Errorf("cannot add %s and %s: + adds rolls of record dice to each other (or numbers, lists)", TypeName(a), TypeName(b))
	}
	k := UnionTally(x[KindKey].(*Kind), y[KindKey].(*Kind))
	out := make(map[string]any, len(x))
	for f, v := range x {
		n, _ := v.(int)
		out[f] = n
	}
	for f, v := range y {
		n1, _ := out[f].(int)
		n2, _ := v.(int)
		out[f] = n1 + n2
	}
	out[KindKey] = k
	return out, nil
}

// RollRecord rolls a sum of record dice on the machine's source and returns its record of
// counts. The exact odds' source (a dice.JointSource) draws the whole sum in one weighted
// draw among its joint outcomes; any other rolls die by die, so that hand-given results
// name each face.
func (m *Machine) RollRecord(de *dice.Expr) (map[string]any, error) {
	if m.Dice == nil {
		return nil, Errorf("no dice source")
	}
	k := TallyKind(de.RecordFields())
	if js, ok := m.Dice.(dice.JointSource); ok {
		j, err := de.Joint()
		if err != nil {
			return nil, Errorf("%v", err)
		}
		i, err := js.Joint(j)
		if err != nil {
			return nil, err
		}
		if err := m.Charge(1); err != nil {
			return nil, err
		}
		return newTally(k, j.Vecs[i], m.recordFields()), nil
	}
	q, given := m.Dice.(*dice.Queue)
	if given = given && q.Left() > 0; given {
		q.FromNext = 0
	}
	counts, res, err := de.RollRecord(m.Dice)
	if err != nil {
		return nil, err
	}
	if given && q.FromNext > 0 {
		m.Mixed = append(m.Mixed, fmt.Sprintf("the hand-given results ran out during %s: its last %d came from the seed", res.String(), q.FromNext))
	}
	if err := m.Charge(de.RecordDice()); err != nil {
		return nil, err
	}
	if m.Trace != nil {
		mark := givenMark(given && q.FromNext == 0)
		if given && q.FromNext > 0 {
			mark = " (partly given)"
		}
		m.trace("roll " + res.String() + mark)
	}
	return newTally(k, counts, m.recordFields()), nil
}

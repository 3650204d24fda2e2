package runtime

// What the tests of package runtime_test look into.

// MaxParsedRolls bounds the cache of dice notation parsed at run time.
const MaxParsedRolls = maxParsedRolls

// RollCaches returns the sizes of the caches of parsed notation and of rollers.
func (m *Machine) RollCaches() (parsed, rollers int) { return len(m.parsed), len(m.rollers) }

// FrameSizes returns how many names each pooled call frame holds.
func (m *Machine) FrameSizes() []int {
	var out []int
	for _, f := range m.free {
		for ; f != nil; f = f.next {
			out = append(out, len(f.Vars))
		}
	}
	return out
}

// StaticMatch and StaticRow are the walk and the index lookup of constant table rows.
var (
	StaticMatch = staticMatch
	StaticRow   = staticRow
)

// JournalLen is how many undos the journal holds now.
func (m *Machine) JournalLen() int { return len(m.journal) }

// SetNoSlots makes the programs checked from now on keep every variable in the frame's map
// (true) or give locals slots (false, the default).
func SetNoSlots(on bool) { noSlots = on }

// Depth is the current call depth.
func (m *Machine) Depth() int { return m.depth }

// KeyOrderPatience is keyOrderPatience, for the tests of the printed maps.
const KeyOrderPatience = keyOrderPatience

// KeptFields is how many fields of its parameters a call of p keeps once read.
func (p *Proc) KeptFields() int { return p.keptFields }

package dsl

import "rulesh/dsl/runtime"

// CarryOver copies what still fits from an old session into this fresh one, after the rule
// files were edited and reloaded (or a file was added): option values, entity fields, the
// cards of every deck and pile, pass allowances and the session variables (`let`), with
// entities, piles and cards pointing into the new state. It returns one line per thing it had
// to reset, saying why, then the names the edit added and removed; and what it kept.
//
// The fresh machine should be made with a throwaway dice source and given the run's source
// before CarryOver: a reload then consumes no dice of the run, unless a deck is new or was
// edited and is shuffled afresh.
func (s *Session) CarryOver(old *Session) ([]string, runtime.Kept) {
	vars, notes, kept := runtime.CarryOver(old.M.Machine, s.M.Machine, old.vars)
	for name, v := range vars {
		s.vars[name] = v
		s.types[name] = typeFromValue(v)
	}
	return notes, kept
}

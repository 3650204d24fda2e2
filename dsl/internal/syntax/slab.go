package syntax

// Slab hands out new zero values of T from shared chunks: the parse and the check make
// thousands of small nodes that live as long as their file or program, and one allocation
// each was a fifth of checking's instructions. A chunk stays alive while any of its values
// is reachable, so a Slab is for values that live and die together. The zero Slab is
// ready; it is not safe for concurrent use.
type Slab[T any] struct{ free []T }

// slabChunk is the number of values a Slab allocates at once.
const slabChunk = 32

// New returns a pointer to a new zero T.
func (s *Slab[T]) New() *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabChunk)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

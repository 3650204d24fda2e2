package syntax

// Slab hands out new zero values of T from shared chunks: the parse and the check make
// thousands of small nodes that live as long as their file or program, and one allocation
// each was a fifth of checking's instructions. A chunk stays alive while any of its values
// is reachable, so a Slab is for values that live and die together. The chunks start
// small and double up to slabChunk, so that a Slab serving one short input (a REPL line, an
// expression given on the command line) does not keep a large chunk mostly unused. The
// zero Slab is ready; it is not safe for concurrent use.
type Slab[T any] struct {
	free []T
	next int // the size of the next chunk; 0 for the first
}

// slabFirst and slabChunk are the sizes of a Slab's first chunk and of its largest.
const (
	slabFirst = 2
	slabChunk = 32
)

// New returns a pointer to a new zero T.
func (s *Slab[T]) New() *T {
	if len(s.free) == 0 {
		s.grow()
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// grow allocates the next chunk, out of line so that New stays small enough to inline.
func (s *Slab[T]) grow() {
	n := s.next
	if n == 0 {
		n = slabFirst
	}
	s.free = make([]T, n)
	s.next = min(2*n, slabChunk)
}

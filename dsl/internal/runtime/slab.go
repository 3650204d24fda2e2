package runtime

import "unsafe"

// Short values from blocks. A list a builtin or an expression makes costs two allocations in
// Go (its elements, and its slice header boxed into an interface), a string boxed into an
// interface one, about 250 instructions apiece: the naval Assaut made some seven hundred of
// them a run, nearly all lists of a few elements and short names. Lists of up to slabLen
// elements are carved from blocks of elements, and their headers, like short strings, boxed
// from blocks of headers. A block lives as long as any value carved from it: a kept list of
// three elements keeps its block (2 KiB of elements, or 768 bytes of headers) and what the
// block's other values hold, all made in the same stretch of a run; longer lists and strings
// get their own allocations, so that no block keeps a long one alive.
const (
	slabLen     = 8   // the longest list carved from a block
	slabText    = 64  // the longest string boxed in a block
	slabElems   = 128 // elements in a block
	slabHeads   = 32  // list headers in a block
	slabStrings = 32  // string headers in a block
)

// slab is a machine's current blocks (one goroutine runs a machine: no lock).
type slab struct {
	elems   []any
	heads   [][]any
	strings []string
}

// eface is the layout of an interface value without methods, as Go lays it out.
type eface struct {
	typ, data unsafe.Pointer
}

// typeWord is the type word of an interface holding v.
func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

var (
	listType   = typeWord([]any(nil))
	stringType = typeWord("")
)

// NewList returns a list of n elements, all nil, with no room to grow: an append to it copies
// it, as to any list the rules hold. An empty one is not nil (JSON prints nil as null).
func (m *Machine) NewList(n int) []any {
	if n == 0 || n > slabLen {
		return make([]any, n) // an empty one allocates nothing
	}
	s := &m.slab
	i := len(s.elems)
	if i+n > cap(s.elems) {
		s.elems, i = make([]any, 0, slabElems), 0
	}
	s.elems = s.elems[:i+n]
	return s.elems[i : i+n : i+n]
}

// BoxList returns l as a value, its header boxed in a block when l is short (any(l) would
// allocate the header on its own). Go never writes through the data word of an interface
// holding a slice: the header in the block is not changed once boxed.
func (m *Machine) BoxList(l []any) any {
	if len(l) > slabLen {
		return l
	}
	s := &m.slab
	if len(s.heads) == cap(s.heads) {
		s.heads = make([][]any, 0, slabHeads)
	}
	s.heads = append(s.heads, l)
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: listType, data: unsafe.Pointer(&s.heads[len(s.heads)-1])}
	return v
}

// BoxString returns str as a value, its header boxed in a block when it is short, as
// BoxList does for a list.
func (m *Machine) BoxString(str string) any {
	if len(str) > slabText {
		return str
	}
	s := &m.slab
	if len(s.strings) == cap(s.strings) {
		s.strings = make([]string, 0, slabStrings)
	}
	s.strings = append(s.strings, str)
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: stringType, data: unsafe.Pointer(&s.strings[len(s.strings)-1])}
	return v
}

package exprx

import "unsafe"

// Small lists from blocks. A filter's, map's or sortBy's result and a literal list cost two
// allocations each in Go (the elements, and the slice header boxed into an interface), about
// 250 instructions apiece: the naval Assaut makes some seven hundred such lists a run, nearly
// all of a few elements. Lists of up to slabLen elements are carved from blocks the state
// allocates now and then, their headers boxed from blocks as well. A block lives as long as
// any of its lists: a kept list of three elements keeps its block (2 KiB of elements, or 768
// bytes of headers) and the values in it, which were all made in the same stretch of
// evaluation; longer lists get their own allocations, so that no block holds a long list.
const (
	slabLen   = 8   // the longest list carved from a block
	slabElems = 128 // elements in a block
	slabHeads = 32  // list headers in a block
)

// eface is the layout of an interface value without methods, as the runtime lays it out.
type eface struct {
	typ, data unsafe.Pointer
}

// listType is the type word of an interface holding a []any.
var listType = func() unsafe.Pointer {
	var v any = []any(nil)
	return (*eface)(unsafe.Pointer(&v)).typ
}()

// newList returns a list of n elements, all nil, with no room to grow: an append to it
// copies it, as to any list the rules hold.
func (s *fastState) newList(n int) []any {
	if n > slabLen {
		return make([]any, n)
	}
	i := len(s.elems)
	if i+n > cap(s.elems) {
		s.elems, i = make([]any, 0, slabElems), 0
	}
	s.elems = s.elems[:i+n]
	return s.elems[i : i+n : i+n]
}

// boxList returns l as a value, its header boxed in a block when l is short (any(l) would
// allocate the header on its own). Nothing writes through an interface's data word of a
// slice type: the header in the block is never changed once boxed.
func (s *fastState) boxList(l []any) any {
	if len(l) > slabLen {
		return l
	}
	if len(s.heads) == cap(s.heads) {
		s.heads = make([][]any, 0, slabHeads)
	}
	s.heads = append(s.heads, l)
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: listType, data: unsafe.Pointer(&s.heads[len(s.heads)-1])}
	return v
}

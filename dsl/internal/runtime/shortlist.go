package runtime

import "unsafe"

// Short lists in one allocation. A list a builtin or an expression makes costs two
// allocations in Go (its elements, and its slice header boxed into an interface), about 250
// instructions apiece: the naval Assaut makes some seven hundred a run, nearly all of a few
// elements. MakeList puts a short list's header and its elements in one object, the value
// pointing at the header in it: one allocation, and the object holds nothing but that list,
// so a list kept keeps only itself alive. (Carving lists from shared blocks saved more, but a
// kept list then held its whole block and what the block's dead lists held: a game that kept
// fifteen thousand short lists lived in 31 MB instead of 2.)
const shortList = 8 // the longest list made in one allocation

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

// StringValue returns *s as a value whose data word points at s itself: no allocation (any(s)
// makes a box of its own). The value keeps what s is in alive, and *s must not change after:
// give it the element of an array made for the strings of one call (the keys of one map), so
// that a kept value keeps no more than that call made.
func StringValue(s *string) any {
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: stringType, data: unsafe.Pointer(s)}
	return v
}

// A list of n elements with its header: h is e[:], made by MakeList.
type (
	list1 struct {
		h []any
		e [1]any
	}
	list2 struct {
		h []any
		e [2]any
	}
	list3 struct {
		h []any
		e [3]any
	}
	list4 struct {
		h []any
		e [4]any
	}
	list5 struct {
		h []any
		e [5]any
	}
	list6 struct {
		h []any
		e [6]any
	}
	list7 struct {
		h []any
		e [7]any
	}
	list8 struct {
		h []any
		e [8]any
	}
)

// emptyValue is the one boxed empty list MakeList gives: nothing can be stored in it.
var emptyValue any = []any{}

// MakeList returns a new list of n elements, all nil, with no room to grow (an append to it
// copies it, as to any list the rules hold), and the same list as a value: filling the list
// fills the value. An empty one is not nil (JSON prints nil as null). Go never writes through
// the data word of an interface holding a slice, so the header the value points at is not
// changed once made.
func MakeList(n int) ([]any, any) {
	var h *[]any
	switch n {
	case 0:
		return emptyValue.([]any), emptyValue
	case 1:
		o := &list1{}
		o.h, h = o.e[:], &o.h
	case 2:
		o := &list2{}
		o.h, h = o.e[:], &o.h
	case 3:
		o := &list3{}
		o.h, h = o.e[:], &o.h
	case 4:
		o := &list4{}
		o.h, h = o.e[:], &o.h
	case 5:
		o := &list5{}
		o.h, h = o.e[:], &o.h
	case 6:
		o := &list6{}
		o.h, h = o.e[:], &o.h
	case 7:
		o := &list7{}
		o.h, h = o.e[:], &o.h
	case 8:
		o := &list8{}
		o.h, h = o.e[:], &o.h
	default:
		l := make([]any, n)
		return l, l
	}
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: listType, data: unsafe.Pointer(h)}
	return *h, v
}

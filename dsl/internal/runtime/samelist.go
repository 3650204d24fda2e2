package runtime

import (
	"sync/atomic"
	"unsafe"
)

// The same list again. A list is never changed in place (an assignment or a builtin makes a
// new one, as entities() relies on), so a list holding the very values of one made before
// can be that list: nothing in the language reads a list's address. One place of the rules
// often makes the same list call after call: the posts of one role (filter(entities("Poste"),
// #.rôle == "")), a hand's black cards between two plays, the keys of one record. A machine
// keeps the last list each such place made (ListSite), and gives it again when the values
// are the same; each list made costs an allocation and, in a short command, the fresh memory
// it takes (a page fault every 4 KiB, the collector never having run).

// listTableBits is the size of a machine's table of lists kept: 1<<listTableBits places.
const listTableBits = 7

// ListSite is one place of an expression's closures that makes lists (a filter, a map, a
// sortBy, a list written out), shared by every machine that runs them. Its slot in each
// machine's table is fixed when it is made: sites made one after the other take slots one
// after the other, so the places of one rule do not collide.
type ListSite struct {
	slot uint32
}

// listSites counts the sites made, for their slots.
var listSites atomic.Uint32

// NewListSite makes a place that makes lists.
func NewListSite() *ListSite {
	return &ListSite{slot: (listSites.Add(1) - 1) & (1<<listTableBits - 1)}
}

// keptList is the last list a machine made at a site.
type keptList struct {
	site *ListSite
	list any
}

// listTable is a machine's lists kept, a direct-mapped table by site.
type listTable [1 << listTableBits]keptList

// ListOf returns a list of elems' values, which it copies (the caller's scratch space): the
// one this machine last made at site when it holds the same values, compared by their
// words (the same type and the same data: the same value), or a new one, kept for the site.
// Values equal but boxed apart (two strings built alike) only make a new list.
func (m *Machine) ListOf(site *ListSite, elems []any) any {
	if len(elems) == 0 {
		return emptyValue
	}
	t := m.lists
	if t == nil {
		t = new(listTable)
		m.lists = t
	}
	e := &t[site.slot]
	if e.site == site && sameWords(*(*[]any)((*eface)(unsafe.Pointer(&e.list)).data), elems) {
		return e.list
	}
	out, list := MakeList(len(elems))
	copy(out, elems)
	e.site, e.list = site, list
	return list
}

// HandOut is told of a value handed to Go code, which may change it: the value is that
// code's, so no list it may hold (a list, or a map or record holding one) is given again
// as another result. The lists kept are dropped.
func (m *Machine) HandOut(v any) {
	switch v.(type) {
	case []any, map[string]any:
		if m.lists != nil {
			*m.lists = listTable{}
		}
	}
}

// sameWords reports whether a and b hold the same values, word for word.
func sameWords(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if *(*eface)(unsafe.Pointer(&a[i])) != *(*eface)(unsafe.Pointer(&b[i])) {
			return false
		}
	}
	return true
}

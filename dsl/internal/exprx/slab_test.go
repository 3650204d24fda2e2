package exprx

import (
	"reflect"
	"testing"
)

// TestSlabListsAreApart checks that lists carved from one block share nothing: an append to
// one copies it instead of writing over the next, and a boxed header reads back the list it
// was given.
func TestSlabListsAreApart(t *testing.T) {
	s := &fastState{}
	var lists []any
	for n := 1; n <= slabLen+1; n++ {
		for k := 0; k < 40; k++ {
			l := s.newList(n)
			if len(l) != n || cap(l) != n {
				t.Fatalf("newList(%d): len %d cap %d", n, len(l), cap(l))
			}
			for i := range l {
				l[i] = n*1000 + k*10 + i
			}
			lists = append(lists, s.boxList(l))
		}
	}
	for _, v := range lists {
		l := v.([]any)
		_ = append(l, "more")
	}
	i := 0
	for n := 1; n <= slabLen+1; n++ {
		for k := 0; k < 40; k++ {
			want := make([]any, n)
			for j := range want {
				want[j] = n*1000 + k*10 + j
			}
			if got := lists[i].([]any); !reflect.DeepEqual(got, want) {
				t.Fatalf("list %d of %d elements: %v, want %v", k, n, got, want)
			}
			i++
		}
	}
}

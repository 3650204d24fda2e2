package runtime

import (
	"reflect"
	"strings"
	"testing"
)

// TestSlabListsAreApart checks that lists carved from one block share nothing: an append to
// one copies it instead of writing over the next, and a boxed header reads back the list it
// was given.
func TestSlabListsAreApart(t *testing.T) {
	s := &Machine{}
	var lists []any
	for n := 0; n <= slabLen+1; n++ {
		for k := 0; k < 40; k++ {
			l := s.NewList(n)
			if len(l) != n || cap(l) != n {
				t.Fatalf("newList(%d): len %d cap %d", n, len(l), cap(l))
			}
			for i := range l {
				l[i] = n*1000 + k*10 + i
			}
			lists = append(lists, s.BoxList(l))
		}
	}
	for _, v := range lists {
		l := v.([]any)
		_ = append(l, "more")
	}
	i := 0
	for n := 0; n <= slabLen+1; n++ {
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

// TestSlabStrings checks that boxed strings read back as given, short and long, and that an
// empty list from NewList is not nil.
func TestSlabStrings(t *testing.T) {
	m := &Machine{}
	var boxed []any
	var want []string
	for i := 0; i < 3*slabStrings; i++ {
		s := strings.Repeat("é", i%40)
		boxed, want = append(boxed, m.BoxString(s)), append(want, s)
	}
	for i, v := range boxed {
		if s, ok := v.(string); !ok || s != want[i] || v != any(want[i]) {
			t.Fatalf("string %d: %#v, want %q", i, v, want[i])
		}
	}
	if l := m.NewList(0); l == nil {
		t.Fatal("NewList(0) is nil")
	}
}

package runtime

import (
	"reflect"
	"testing"
)

// TestMakeListApart checks MakeList's lists: n elements, no room to grow, the value the same
// list as the slice (filling one fills the other), no two sharing anything (an append to one
// copies it instead of writing over another), and an empty one that is not nil.
func TestMakeListApart(t *testing.T) {
	var lists []any
	for n := 0; n <= shortList+2; n++ {
		for k := 0; k < 5; k++ {
			l, v := MakeList(n)
			if len(l) != n || cap(l) != n || l == nil {
				t.Fatalf("MakeList(%d): len %d cap %d nil %v", n, len(l), cap(l), l == nil)
			}
			for i := range l {
				l[i] = n*1000 + k*10 + i
			}
			if got := v.([]any); !reflect.DeepEqual(got, l) || cap(got) != n {
				t.Fatalf("MakeList(%d): value %v (cap %d), list %v", n, got, cap(got), l)
			}
			lists = append(lists, v)
		}
	}
	for _, v := range lists {
		l := v.([]any)
		_ = append(l, "more")
	}
	i := 0
	for n := 0; n <= shortList+2; n++ {
		for k := 0; k < 5; k++ {
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

// TestStringValue checks that a string boxed over its own storage is the string as any(s)
// is: the same type, ==, a type switch, a map key.
func TestStringValue(t *testing.T) {
	texts := []string{"", "a", "épée", "le brigantin rapide"}
	seen := map[any]int{}
	for i := range texts {
		v := StringValue(&texts[i])
		if s, ok := v.(string); !ok || s != texts[i] || v != any(texts[i]) {
			t.Fatalf("StringValue(%q) = %#v", texts[i], v)
		}
		seen[v] = i
	}
	for i, s := range texts {
		if seen[any(s)] != i {
			t.Fatalf("%q as a map key: %d, want %d", s, seen[any(s)], i)
		}
	}
}

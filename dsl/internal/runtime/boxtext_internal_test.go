package runtime

import (
	"reflect"
	rt "runtime"
	"strings"
	"testing"
)

// TestBoxText: boxText gives the string of the bytes, in one allocation, an interface value
// like any other string's (equal to it, a map key, its type string), that outlives the
// bytes it was made of and collections of the heap.
func TestBoxText(t *testing.T) {
	var kept []any
	var want []string
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 100, 4096} {
		s := strings.Repeat("é", n/2) + strings.Repeat("x", n%2)
		b := []byte(s)
		v := boxText(b)
		clear(b) // the value's bytes are its own
		kept, want = append(kept, v), append(want, s)
	}
	for range 3 {
		_ = make([]byte, 1<<20) // garbage between collections
		rt.GC()
	}
	m := map[any]int{}
	for i, v := range kept {
		if got, ok := v.(string); !ok || got != want[i] || v != any(want[i]) || reflect.TypeOf(v) != reflect.TypeOf("") {
			t.Errorf("boxText of %d bytes = %#v, want %q", len(want[i]), v, want[i])
		}
		m[v] = i
	}
	for i, s := range want {
		if m[s] != i {
			t.Errorf("as a map key, %q is %d, want %d", s, m[s], i)
		}
	}
	b := []byte("Will frappe Jack à 2 cm")
	if n := testing.AllocsPerRun(100, func() { _ = boxText(b) }); n != 1 {
		t.Errorf("boxText allocates %v times, want 1", n)
	}
}

package exprx

import (
	"fmt"
	"reflect"
	goruntime "runtime"
	"testing"
)

// The lists newList makes are plain []any values of their length and capacity: read
// through the interface, by reflect and by a type switch, kept alive by what holds the
// interface across collections, copied by an append.
func TestNewList(t *testing.T) {
	var held []any
	for n := 1; n <= 12; n++ {
		for range 50 {
			v, l := newList(n)
			for i := range l {
				l[i] = fmt.Sprint(n, "-", i) // a pointer the collector must keep
			}
			held = append(held, v)
		}
	}
	goruntime.GC()
	goruntime.GC()
	for k, v := range held {
		n := k/50 + 1
		l, ok := v.([]any)
		if !ok || len(l) != n || cap(l) != n {
			t.Fatalf("list %d: %T of length %d, capacity %d; want []any of %d", k, v, len(l), cap(l), n)
		}
		for i, e := range l {
			if want := fmt.Sprint(n, "-", i); e != want {
				t.Fatalf("list %d, element %d: %v, want %s", k, i, e, want)
			}
		}
		if rv := reflect.ValueOf(v); rv.Kind() != reflect.Slice || rv.Len() != n || rv.Index(n-1).Interface() != l[n-1] {
			t.Fatalf("list %d read by reflect: %v", k, rv)
		}
		grown := append(l, "x")
		if &grown[0] == &l[0] {
			t.Fatalf("list %d: an append wrote into it", k)
		}
	}
	if n := testing.AllocsPerRun(100, func() { held[0], _ = newList(3) }); n != 1 {
		t.Errorf("newList(3): %v allocations, want 1", n)
	}
}

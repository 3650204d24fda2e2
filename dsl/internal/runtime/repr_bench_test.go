package runtime_test

import (
	"testing"

	"rulesh/dsl/internal/runtime"
)

// BenchmarkAppendStrState prints what the naval status line's holes print: a map of six
// postes to ints (a ship's attack and defence), an empty list (its damage) and a list of
// three ints (the hands' sizes), into one reused buffer.
func BenchmarkAppendStrState(b *testing.B) {
	var attaque, avaries, mains any = map[string]any{"Artillerie": 1, "Barre": 1, "Charpente": 0, "Chirurgie": 0, "Commandement": 3, "Voilure": 3},
		[]any{}, []any{7, 6, 6}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = runtime.AppendStr(buf[:0], attaque)
		buf = runtime.AppendStr(buf, avaries)
		buf = runtime.AppendStr(buf, mains)
	}
}

package runtime_test

import (
	"strings"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestWriteStrIsStr: a template's hole written into the line gives the bytes Str gives,
// after text already in the builder too (the printed form's size bound counts from the
// hole, not from the line's start).
func TestWriteStrIsStr(t *testing.T) {
	long := make([]any, 0, 200_000)
	for i := range 200_000 {
		long = append(long, strings.Repeat("x", i%7))
	}
	cycle := map[string]any{"a": 1}
	cycle["self"] = cycle
	values := []any{nil, "", "é", 0, 7, 255, 256, -12, 1 << 62, true, false, 2.0, 2.5, -0.0,
		[]any{}, []any{1, "a", []any{true}}, map[string]any{}, map[string]any{"b": 2, "a": []any{1}},
		cycle, long, []any{long, long}, []int{1, 2}, map[string]int{"x": 1}}
	for _, prefix := range []string{"", "Assaut 1 : ", strings.Repeat("y", runtime.MaxReprBytes-10)} {
		for i, v := range values {
			var b strings.Builder
			b.WriteString(prefix)
			runtime.WriteStr(&b, v)
			if got, want := b.String(), prefix+runtime.Str(v); got != want {
				t.Errorf("value %d after %d bytes: WriteStr wrote %d bytes %.60q…, Str gives %d bytes %.60q…",
					i, len(prefix), len(got), got[len(prefix):], len(want), want[len(prefix):])
			}
		}
	}
}

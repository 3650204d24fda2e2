package hex

import (
	"testing"

	"rulesh/stdlib/hex"
)

// TestBuiltinList: the list registers each builtin once, with a function and a signature.
func TestBuiltinList(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range builtins() {
		if seen[b.name] || b.Fn == nil || len(b.Types) == 0 {
			t.Errorf("%s: registered twice, or without a function or a signature", b.name)
		}
		seen[b.name] = true
	}
	if got := Builtins(); len(got) != len(builtins()) {
		t.Errorf("Builtins() has %d names, the list %d", len(got), len(builtins()))
	}
}

// TestBuiltinsAlone: a builtin is a function of its own, called without the language.
func TestBuiltinsAlone(t *testing.T) {
	b := hex.NewMap("m", 3, 2)
	h := hex.FromOffset(2, 1)
	b.Terrain[h] = "forêt"
	if v, err := hexDistance(nil, []any{h, "(2,2)"}); err != nil || v != 1 {
		t.Errorf("hexDistance = %v, %v", v, err)
	}
	if v := terrain(b, h); v != "forêt" {
		t.Errorf("terrain = %v", v)
	}
	if v := terrain(b, hex.FromOffset(9, 9)); v != "" {
		t.Errorf("terrain off the board = %v", v)
	}
	if v, err := neighbours(nil, []any{b, h}); err != nil || len(v.([]any)) != 4 {
		t.Errorf("neighbours on the board = %v, %v", v, err)
	}
	if _, err := hexOf(nil, []any{1, 2_000_000_000}); err == nil {
		t.Error("hexOf far off: no error")
	}
}

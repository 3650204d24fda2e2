package check

import (
	"slices"
	"testing"
)

// TestReservedWordsSorted: IsReservedWord searches reservedWords by halves, so the list must
// stay sorted and without repeats; every word of it is reserved and a name is not.
func TestReservedWordsSorted(t *testing.T) {
	if !slices.IsSorted(reservedWords) || len(slices.Compact(slices.Clone(reservedWords))) != len(reservedWords) {
		t.Fatalf("reservedWords is not sorted without repeats: %q", reservedWords)
	}
	for _, w := range reservedWords {
		if !IsReservedWord(w) {
			t.Errorf("IsReservedWord(%q) = false", w)
		}
	}
	for _, w := range []string{"", "attaque", "Let", "lets", "zzz", "a"} {
		if IsReservedWord(w) {
			t.Errorf("IsReservedWord(%q) = true", w)
		}
	}
}

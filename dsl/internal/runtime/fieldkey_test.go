package runtime

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// FieldKey gives equal names one copy, whatever string they came from.
func TestFieldKeyOneCopy(t *testing.T) {
	a := FieldKey(strings.Repeat("pv", 2))
	b := FieldKey(string([]byte("pvpv")))
	if a != "pvpv" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("FieldKey gave %q at %p and %q at %p", a, unsafe.StringData(a), b, unsafe.StringData(b))
	}
	if c := FieldKey("pv"); unsafe.StringData(c) == unsafe.StringData(a) {
		t.Errorf("two names share one copy")
	}
}

// FieldKey keeps at most its limit of names: past it a new name is given back as it came,
// and nothing more is kept.
func TestFieldKeyBounded(t *testing.T) {
	fieldKeys.Lock()
	old, start := fieldKeys.limit, len(fieldKeys.m)
	fieldKeys.limit = start + 2
	fieldKeys.Unlock()
	defer func() {
		fieldKeys.Lock()
		fieldKeys.limit = old
		fieldKeys.Unlock()
	}()
	// Names no run of this test gave before (the kept names outlive a run under -count).
	name := func(i int) string { return fmt.Sprintf("bornée_%d_%d", start, i) }
	FieldKey(name(1))
	FieldKey(name(2))
	given := name(3)
	if k := FieldKey(given); unsafe.StringData(k) != unsafe.StringData(given) {
		t.Errorf("past the limit FieldKey gave a kept copy")
	}
	if again := FieldKey(name(3)); unsafe.StringData(again) == unsafe.StringData(given) {
		t.Errorf("past the limit FieldKey kept a name")
	}
	fieldKeys.Lock()
	n := len(fieldKeys.m)
	fieldKeys.Unlock()
	if n > fieldKeys.limit {
		t.Errorf("%d names kept, limit %d", n, fieldKeys.limit)
	}
}

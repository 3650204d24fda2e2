package runtime

import (
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

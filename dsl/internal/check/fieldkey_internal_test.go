package check

import (
	"testing"
	"unsafe"

	"rulesh/dsl/internal/runtime"
)

// A kind's field names and the fields assignments set are the process's one copy of each
// name (runtime.FieldKey): a record's keys, whoever last wrote them, then match the names the
// expressions read by pointer, without comparing bytes.
func TestFieldNamesShareOneCopy(t *testing.T) {
	src := "kind K { pv: int = 3 }\naction blesser(k: K) {\n  k.pv = 1\n}\n"
	c := checkSource(t, "t.rules", []byte(src))
	if c.Diags.HasErrors() {
		t.Fatal(c.Diags)
	}
	field := c.prog.Globals["K"].(*runtime.Kind).ByName["pv"].Name
	assign, ok := c.prog.Globals["blesser"].(*runtime.Proc).Body[0].(*runtime.AssignStmt)
	if !ok {
		t.Fatalf("the body is %T", c.prog.Globals["blesser"].(*runtime.Proc).Body[0])
	}
	key := runtime.FieldKey(string([]byte("pv")))
	for what, name := range map[string]string{"the kind's field": field, "the assignment's field": assign.Field} {
		if unsafe.StringData(name) != unsafe.StringData(key) {
			t.Errorf("%s is its own copy of %q, not FieldKey's", what, name)
		}
	}
}

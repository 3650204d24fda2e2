package runtime_test

import (
	"fmt"
	"reflect"
	"testing"

	"rulesh/dsl/internal/runtime"
)

// TestOwn: Own copies what Go code is handed of the frozen consts (lists included, at any
// depth, inside the run's own lists and maps), keeps everything else as it is, and ends on a
// map that holds itself.
func TestOwn(t *testing.T) {
	prog, diags := loaded("t.rules", "const L = [1, [2]]\nconst M = {\"a\": [1]}\n")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m, err := runtime.NewMachine(prog, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := m.Global("L")
	mv, _ := m.Global("M")
	ptr := func(v any) uintptr { return reflect.ValueOf(v).Pointer() }

	own := prog.Own(l).([]any)
	own[0], own[1].([]any)[0] = 8, 9
	if got := fmt.Sprint(l); got != "[1 [2]]" {
		t.Errorf("L after editing its copy = %s", got)
	}

	run := []any{mv, 3}
	o := prog.Own(run).([]any)
	o[0].(map[string]any)["a"] = 0
	if got := fmt.Sprint(mv); got != "map[a:[1]]" {
		t.Errorf("M after editing a copy reached through a list = %s", got)
	}
	if ptr(run[0]) != ptr(mv) || ptr(o) == ptr(run) {
		t.Error("Own changed the run's list, or did not copy it")
	}

	held := map[string]any{"m": mv}
	if oh := prog.Own(held).(map[string]any); ptr(oh) == ptr(held) || ptr(oh["m"]) == ptr(mv) || ptr(held["m"]) != ptr(mv) {
		t.Error("a run's map holding a const: not copied, or changed in place")
	}

	self := map[string]any{"n": 1}
	self["self"] = self
	if ptr(prog.Own(self)) != ptr(self) {
		t.Error("a run's map holding nothing frozen was copied")
	}
	plain := []any{1, "x"}
	if ptr(prog.Own(plain)) != ptr(plain) || prog.Own(4) != 4 {
		t.Error("a value holding nothing frozen was copied")
	}
}

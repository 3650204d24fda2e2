package exprx

import (
	"reflect"
	"testing"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"

	"rulesh/dsl/internal/libtest"
)

// TestNoCallRewritesAfterItsCheck guards what patchAndCheck leaves out: a check makes the
// int literals of a call's arguments floats after checking them, where the parameter is a
// float, and a call typed any (or not typed) is checked again the next time, the floats
// giving its arguments other types. No function an expression can call may take a float
// and give any, nor an expr builtin checked by its signatures take a float: otherwise a
// check without error would not be the last one needed.
func TestNoCallRewritesAfterItsCheck(t *testing.T) {
	cfg := conf.CreateNew()
	for _, opt := range stdFuncOptions(libtest.Library()) {
		opt(cfg)
	}
	anyType := reflect.TypeFor[any]()
	takesFloat := func(ft reflect.Type) bool {
		for i := range ft.NumIn() {
			in := ft.In(i)
			if ft.IsVariadic() && i == ft.NumIn()-1 {
				in = in.Elem()
			}
			if k := in.Kind(); k == reflect.Float64 || k == reflect.Float32 {
				return true
			}
		}
		return false
	}
	signatures := func(f *builtin.Function) []reflect.Type {
		if len(f.Types) > 0 {
			return f.Types
		}
		if f.Func != nil || f.Fast != nil || f.Safe != nil {
			return []reflect.Type{f.Type()}
		}
		return nil
	}
	checked := 0
	for name, f := range cfg.Functions {
		for _, ft := range signatures(f) {
			checked++
			if takesFloat(ft) && (ft.NumOut() == 0 || ft.Out(0) == anyType) {
				t.Errorf("function %s %v takes a float and gives any", name, ft)
			}
		}
	}
	for _, f := range builtin.Builtins {
		if f.Validate != nil || cfg.Disabled[f.Name] {
			continue
		}
		for _, ft := range f.Types {
			checked++
			if takesFloat(ft) {
				t.Errorf("expr builtin %s %v takes a float", f.Name, ft)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d signatures looked at", checked)
	}
}

package exprx

import (
	"reflect"
	"testing"

	"rulesh/stdlib/cards"
)

// TestTaggedFields: tagged, which reads the tags once, names the field a walk over the
// struct's fields finds, for every tag of a card and a pile and for names that are none.
func TestTaggedFields(t *testing.T) {
	walk := func(typ reflect.Type, name string) string {
		for i := range typ.NumField() {
			if f := typ.Field(i); f.Tag.Get("expr") == name && name != "-" && name != "" {
				return f.Name
			}
		}
		return ""
	}
	names := []string{"", "-", "nope", "Cards", "RankName"}
	for _, typ := range []reflect.Type{reflect.TypeFor[cards.Card](), reflect.TypeFor[cards.Pile]()} {
		for i := range typ.NumField() {
			names = append(names, typ.Field(i).Tag.Get("expr"))
		}
	}
	found := 0
	for _, name := range names {
		if got, want := tagged[cards.Card](name), walk(reflect.TypeFor[cards.Card](), name); got != want {
			t.Errorf("card tag %q: got %q, want %q", name, got, want)
		}
		if got, want := tagged[cards.Pile](name), walk(reflect.TypeFor[cards.Pile](), name); got != want {
			t.Errorf("pile tag %q: got %q, want %q", name, got, want)
		}
		if tagged[cards.Card](name) != "" {
			found++
		}
	}
	if found < 5 || tagged[cards.Pile]("cards") != "Cards" {
		t.Errorf("only %d card tags found; pile cards: %q", found, tagged[cards.Pile]("cards"))
	}
}

// Package peek lets the tests of the language's own packages reach the run-time Machine
// behind a dsl.Machine (its journal, its limits as fields, its low-level calls), which the
// facade keeps to itself. Being internal, it is out of reach of the facade's users.
//
// It must not import the facade: package dsl registers the accessor when it is initialised.
package peek

import "rulesh/dsl/internal/runtime"

var machineOf func(any) *runtime.Machine

// Register is called once by package dsl with the accessor of its Machine's run-time state.
func Register(f func(any) *runtime.Machine) { machineOf = f }

// Machine returns the run-time Machine behind m, a *dsl.Machine.
func Machine(m any) *runtime.Machine { return machineOf(m) }

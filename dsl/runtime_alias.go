package dsl

import (
	"rulesh/dsl/internal/runtime"
)

// The run-time side of the language lives in package runtime; the facade names what its
// users need.
type (
	// RuntimeError is a failure while running rules.
	RuntimeError = runtime.RuntimeError
	// CallFrame is one call a run-time error unwound through: where, which procedure, with
	// what arguments.
	CallFrame = runtime.CallFrame
	// Limits bound a run.
	Limits = runtime.Limits
	// Kept counts what a reload carried over.
	Kept = runtime.Kept
	// Roll is the result of a roll, with its dice.
	Roll = runtime.Roll
	// OptionValue is an option with its current value.
	OptionValue = runtime.OptionValue
)

// DefaultLimits are the limits a Machine starts with.
var DefaultLimits = runtime.DefaultLimits

// Repr prints a value as a rule would write it.
func Repr(v any) string { return runtime.Repr(v) }

// ReprSummary prints a value as Repr does, with every list longer than maxList shown as its
// count (`[46 × Soldat]`, `[12 items]`).
func ReprSummary(v any, maxList int) string { return runtime.ReprSummary(v, maxList) }

// Str prints a value as emit shows it.
func Str(v any) string { return runtime.Str(v) }

// ToJSON converts a value to what encoding/json writes.
func ToJSON(v any) any { return runtime.ToJSON(v) }

// IsTally reports a roll of record dice (dice whose faces are records of counts): a record
// whose odds and counts are keyed by its text, `{s: 2, a: 1}`.
func IsTally(v any) bool { return runtime.IsTally(v) }

// ParseValue reads a value written on the command line or in a transcript.
func ParseValue(s string) any { return runtime.ParseValue(s) }

// PickAnswer reads an answer to choose among options shown as texts: a whole number is the
// option's number in the menu (from 1), any other text an option's name.
func PickAnswer(answer string, options []string) (int, error) {
	return runtime.PickAnswer(answer, options)
}

// RuleCache remembers what declared rules returned for their arguments, for a machine that
// runs one expression many times from one state (see runtime.RuleCache).
type RuleCache = runtime.RuleCache

package check

import "rulesh/dsl/internal/syntax"

// Positions come from package syntax; diagnostics are syntax.Diagnostic, named there only
// (and in the facade, for the packages outside dsl).
type (
	// Pos is a position in a rule file.
	Pos = syntax.Pos
	// Sources holds the text of rule files by name.
	Sources = syntax.Sources
)

// Severities.
const (
	Error   = syntax.Error
	Warning = syntax.Warning
)

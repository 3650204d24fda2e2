package runtime

import "rulesh/dsl/internal/syntax"

// Lazy is a value built on its first Get (syntax.Lazy, named here for the packages that
// use runtime).
type Lazy[T any] = syntax.Lazy[T]

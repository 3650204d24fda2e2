package syntax

import "sync"

// Lazy is a value built by Build on its first Get, then the same value on every Get after;
// safe for concurrent use. A package variable of it (&Lazy[T]{Build: f}) is laid out by the
// compiler, where sync.OnceValue's closures are built by the package's initialisation at
// every start of the program, for every command. It is here, the lowest package that needs
// one; runtime.Lazy names it for the packages above.
type Lazy[T any] struct {
	once  sync.Once
	Build func() T
	v     T
}

// Get returns the value, building it if it was not.
func (l *Lazy[T]) Get() T {
	l.once.Do(func() { l.v = l.Build() })
	return l.v
}

package syntax

import "sync"

// lazy is a value built by build on its first get, then the same value on every get after;
// safe for concurrent use. A package variable of it (&lazy[T]{build: f}) is laid out by the
// compiler, where sync.OnceValue's closures are built by the package's initialisation at
// every start of the program, for every command. (runtime.Lazy is the same for the packages
// above this one, which cannot be imported from here.)
type lazy[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

// get returns the value, building it if it was not.
func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}

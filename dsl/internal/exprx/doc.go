// Package exprx is the only package that imports expr-lang. It owns what makes expr-lang
// the language's expression engine:
//
//   - the configuration: the library's builtins registered with expr.Function under their
//     internal names (__ + name, the Machine first), the core functions (div, clamp, str…)
//     and the meaning of in, int(), float(), keys/values/toPairs, repeat, lists joined
//     with + and records built in an expression, all of them dsl/internal/lib/core's, registered
//     here and not written here; the wrappers that make expr's own builtins charge the
//     run's budget, the operator overloads that let a roll stand for its total (the
//     arithmetic is runtime.RollArith, the comparison of numbers core.Compare), and the
//     builtins a rule must not reach (the clock);
//   - the compile pipeline (parse, type-check against an environment built from the names
//     an expression uses, optimize, patch, compile), a copy of expr.Compile's own steps so
//     that the patches run on the checked tree; the last step, to bytecode, is taken at
//     load only for an expression the closures refuse, and for the others on their first
//     run on the VM (which checking never does);
//   - the patches on expr's syntax tree: dice and card literals parsed once at load and
//     carried as constants, calls of procedures, builtins and kinds rewritten to __call,
//     __<builtin> and __new with the Machine first, named arguments (`f(a, nom = v)`,
//     written __named("nom", v) before expr parses the text) put at their parameter's
//     place, every walk and build charged;
//   - the facts the checker reads off a compiled expression: its static type (record kinds
//     kept), whether it is a literal or a local's name, the globals it reads, its shape as an
//     assignment target (Shape), the kinds it builds;
//   - the error mapping: expr's file.Error becomes an offset in the expression and a plain
//     message (Error at compile time, runtime.ExprError at run time), its Go type words the
//     language's;
//   - running compiled code: an expression whose every node the closure compiler handles
//     (fast.go) is also a runtime.Fast, Go closures over the checked tree with the VM's
//     semantics, locals read from their slots; each compiled expression is a runtime.Code
//     run by a VM the Machine keeps per nesting depth, for the others.
//
// What only the checker knows (which names are locals or globals in a scope, a kind's
// defaults being ready, the budget of "did you mean" suggestions) it asks through Scope. It
// imports runtime for the compiled form and the Machine, and syntax for positions,
// diagnostics and the one scanner (which finds the dice and card literals of an expression),
// and lib/core for the functions it registers; it must not import the checker
// (dsl/internal/check), another library nor the facade (dsl).
package exprx

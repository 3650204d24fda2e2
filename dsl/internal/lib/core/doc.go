// Package core is the meaning of the language's values, apart from any expression engine:
// the core functions rules call by name (div, clamp, half, sign, ceil, floor, round, pct,
// str, fmt_num, fmt_pct, sqrt, hypot, total, same, any_face, all_faces, count_faces), the
// conversions int() and float(), looking for a value with `in`, listing a map's keys,
// values and pairs in the order of their keys, joining lists with +, repeat, the comparison
// of numbers as rules see them, + and - on dice codes, and building a record from an
// expression.
//
// Each is a plain Go function over the runtime's values (int, float64, string, bool, []any,
// map[string]any, *runtime.Roll, *dice.Code), callable without expr-lang: dsl/internal/exprx only
// registers them with its engine (Funcs gives the pure ones with the signatures a call is
// checked against), and an interpreter may call them directly. The functions that charge
// the run's work budget, or read its kinds, take the *runtime.Machine first. Arithmetic on
// rolls and numbers is the runtime's (runtime.RollArith), which the operators share.
//
// This package imports runtime and stdlib/*; never expr-lang, the checker, the expression
// adapter (exprx), another library nor the facade (dsl/arch_test.go checks it).
package core
